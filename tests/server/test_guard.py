"""The secrets guard's search (roses/server/guard.py) finds exactly the tokens a plain
substring test finds, on random texts and on real Richard III views with secrets planted."""

from __future__ import annotations

import random

import pytest

from roses.engine import available_games, get_rules
from roses.engine.game import Game
from roses.server import guard
from roses.server.service import _encode


def _naive(text: str, tokens: set[str]) -> list[str]:
    return sorted(t for t in tokens if t and t in text)


def test_random_texts_and_tokens_agree_with_a_plain_search() -> None:
    rng = random.Random(7)
    alphabet = "ab/#L0 "  # small: anchors and tokens collide and overlap often
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        tokens = {"".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 8))) for _ in range(rng.randrange(0, 12))}
        if rng.random() < 0.5 and text:  # plant pieces of the text itself
            i = rng.randrange(len(text))
            tokens.add(text[i:i + rng.randrange(1, 9)])
        assert sorted(guard.leaks(text, tokens)) == _naive(text, tokens), (text, tokens)


def test_texts_cut_at_anchors_agree_with_a_plain_search() -> None:
    """Key-like tokens (a shared suffix or prefix, as block keys and card tags have) take the
    search by cutting the text at the anchor; tokens may straddle the next occurrence, nest in
    one another or be the anchor itself, and the answer is still the plain search's."""
    rng = random.Random(11)
    names = ["ab", "b", "Lb", "a/L", "", "x", "/L/", "card", "ca"]
    for _ in range(3000):
        tokens = {rng.choice(names) + rng.choice(names) + "/L" for _ in range(rng.randrange(1, 6))}
        tokens |= {"card#" + rng.choice(["0", "1", "01", "0card#1", ""]) for _ in range(rng.randrange(0, 4))}
        pieces = sorted(tokens) + ["/L", "card#", "a", "b", "#", "L", "/"]
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 25)))
        assert sorted(guard.leaks(text, tokens)) == _naive(text, tokens), (text, tokens)


def test_a_group_is_cut_only_where_that_is_exact() -> None:
    cut = guard.Plan([f"card#{i:02d}" for i in range(9)] + ["Warwick/Y", "Exeter/Y"])
    assert all(g.by_rest is not None for g in cut.groups)
    assert guard.Group("aa", True, ["aab", "aac"]).by_rest is None  # "aa" overlaps itself
    assert guard.Group("/L", False, ["x/Ly/L", "z/L"]).by_rest is None  # the anchor twice
    assert guard.Group("ab", True, ["abXa"]).found("abXab") == ["abXa"]  # straddles the next cut


def test_a_group_is_anchored_by_all_its_tokens_share() -> None:
    """The anchor is the longest start (or end) a group's tokens share: "card#", not the "card"
    of every "has played a card" in a log, so a text without tags is passed over at once."""
    plan = guard.Plan([f"card#{i:02d}" for i in range(20)] + ["Warwick/Y", "Exeter/Y", "Rebel/R"])
    assert sorted((g.anchor, g.prefix) for g in plan.groups) == [("/Y", False), ("Rebel/R", True), ("card#", True)]
    text = "York has played a card. " * 30 + "card#1 card#05 Exeter/Y"
    assert sorted(plan.found(text)) == ["Exeter/Y", "card#05"] == _naive(text, plan.tokens)


def test_tags_of_a_kind_are_one_group() -> None:
    """Tags made of a kind and a number (Kingmaker's ``c#012`` and ``e#034``) are grouped by
    their kind, up to the tag mark: one search of the text per kind, not one per first digit."""
    tags = [f"c#{i:03d}" for i in range(0, 130, 3)] + [f"e#{i:03d}" for i in range(1, 122, 4)]
    plan = guard.Plan(tags)
    assert sorted(g.anchor for g in plan.groups) == ["c#", "e#"]
    assert all(g.prefix and g.by_rest is not None for g in plan.groups)
    text = '{"hand":[{"tag":"c#003"},{"tag":"c#004"}],"log":["e#"],"x":"e#121c#12","n":"ec#1"}'
    assert sorted(plan.found(text)) == ["c#003", "e#121"] == _naive(text, plan.tokens)
    rng = random.Random(13)
    for _ in range(2000):
        tokens = set(rng.sample(tags, rng.randrange(1, 20)))
        text = "".join(rng.choice([*tags, "c#", "e#", "#", "c", "0", "1", ",", "c#1"]) for _ in range(rng.randrange(0, 30)))
        assert sorted(guard.leaks(text, tokens)) == _naive(text, tokens), (text, tokens)


def test_a_family_plan_answers_for_the_tokens_of_the_moment() -> None:
    """With a family, the plan is made for the tokens the family has had lately; what is found
    is still exactly what the tokens of the call name."""
    rng = random.Random(5)
    universe = [f"k{i}/L" for i in range(30)] + [f"card#{i:02d}" for i in range(25)]
    for _ in range(500):
        tokens = set(rng.sample(universe, rng.randrange(0, 20)))
        text = ",".join(rng.sample(universe, rng.randrange(0, 12)))
        family = ("toy", rng.choice(["North", "South"]))
        assert sorted(guard.leaks(text, tokens, family)) == _naive(text, tokens), (text, tokens)
    north = guard._families[("toy", "North")]
    assert len(north.tokens) > 20  # the union of what North had, not the last call's tokens
    assert guard.leaks("k1/L", {"k2/L"}, ("toy", "North")) == []
    assert guard.leaks("k1/L", ["k1/L"], ("toy", "North")) == ["k1/L"]


def test_a_family_does_not_grow_without_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "FAMILY_SLACK", 4)
    for i in range(100):
        tokens = {f"g{i}-{j}" for j in range(3)}
        assert guard.leaks(f"..g{i}-1..g{i - 1}-1", tokens, "churn") == [f"g{i}-1"]
        assert len(guard._families["churn"].tokens) <= 2 * 3 + 4


def test_families_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "FAMILIES", 8)
    for i in range(40):
        assert guard.leaks("a/b", {"a/b", "c/b"}, ("game", i)) == ["a/b"]
    assert len(guard._families) == 8


def test_a_common_anchor_falls_back_to_one_search_per_token() -> None:
    tokens = {f"k{i}/L" for i in range(3)}
    text = "x/L," * 500 + "k2/L"  # the suffix occurs far more often than the group has tokens
    assert guard.leaks(text, tokens) == ["k2/L"]
    assert guard.leaks(text[:-4], tokens) == []


def test_the_plan_cache_is_bounded_by_its_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "PLAN_TOKENS", 100)
    for i in range(50):
        tokens = {f"t{i}-{j}" for j in range(10)}
        assert guard.leaks(f"..t{i}-3..", tokens) == [f"t{i}-3"]
        assert guard._tokens == sum(p.size for p in guard._plans.values()) <= 100
    assert len(guard._plans) == 10


@pytest.mark.parametrize("game_id, options", [("richard3", None), ("kingmaker", {"players": 5, "rules": "e2"})])
def test_views_with_planted_secrets(game_id: str, options: dict[str, object] | None) -> None:
    """Real views of Richard III (block keys and card tags) and of Kingmaker (Crown and Event
    card tags): clean as rendered, and each secret planted anywhere in them is found."""
    if game_id not in available_games():
        pytest.skip(f"{game_id} is not installed")
    rules = get_rules(game_id)
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        game = Game.new(rules, seed, rules.scenarios[0], options)
        for step in range(200):
            if game.result() is not None:
                break
            role = rng.choice(game.active())
            verb, arg = rng.choice(rules.legal_actions(game.state, role))
            game.apply(role, verb, arg)
            if step % 10:
                continue
            for r in game.state["roles"]:
                tokens = rules.secrets(game.state, r)
                text = _encode(rules.view(game.state, r))
                assert guard.leaks(text, tokens) == []  # the rules' views are clean
                for token in rng.sample(sorted(tokens), min(3, len(tokens))):
                    at = rng.randrange(len(text))
                    leaked = text[:at] + token + text[at:]
                    assert sorted(guard.leaks(leaked, tokens)) == _naive(leaked, tokens)
                    assert token in guard.leaks(leaked, tokens)
                checked += 1
    assert checked > 20
