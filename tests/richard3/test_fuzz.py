"""Random play over every scenario (roses.engine.fuzz), hidden information, determinism and the
fast validator's agreement with legal_actions."""

from __future__ import annotations

import random

import pytest

from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.fuzz import fuzz
from roses.engine.game import Game, digest
from roses.games.richard3 import views as V
from roses.games.richard3.data import AREA_NAMES, BLOCK_KEY
from tests.richard3.helpers import RULES


@pytest.mark.parametrize("scenario", ["wars-of-the-roses", "kingmaker", "richard-iii"])
def test_fuzz_scenario(scenario: str) -> None:
    """The whole rule set: random games end without dead ends, errors or broken invariants;
    views never show a secret (roses.engine.fuzz checks views and secrets at every step)."""
    games = 30
    report = fuzz(RULES, scenario, games, seed=7, save_dir=None)
    assert report.ok, report.summary()["failures"][:3]
    assert report.games == games


def _random_game(scenario: str, seed: int, max_steps: int = 3000) -> Game:
    game = Game.new(RULES, seed, scenario)
    pick = random.Random(seed)
    for _ in range(max_steps):
        if game.result() is not None:
            break
        role = pick.choice(game.active())
        legal = RULES.legal_actions(game.state, role)
        verb, arg = pick.choice(legal)
        game.apply(role, verb, arg)
    return game


def test_determinism_same_seed_same_digest() -> None:
    """Same seed and actions give a byte-identical state; replay reproduces it."""
    g1 = _random_game("richard-iii", 11)
    g2 = Game.from_record(RULES, g1.record())
    assert g1.digest() == g2.digest()
    g1.replay()


def test_hidden_information_scan() -> None:
    """§4: enemy block keys, strengths, the other hand, the undealt cards and an unrevealed played
    card never appear in another role's view, across random games (every step)."""
    for seed in (3, 4):
        game = Game.new(RULES, seed, "richard-iii")
        pick = random.Random(seed)
        steps = 0
        while game.result() is None and steps < 400:
            st = game.state
            for role in ("York", "Lancaster", OBSERVER):
                text = canonical_json(RULES.view(st, role))
                for token in RULES.secrets(st, role):
                    assert token not in text, (role, token, steps)
            role = pick.choice(game.active())
            verb, arg = pick.choice(RULES.legal_actions(st, role))
            game.apply(role, verb, arg)
            steps += 1


def test_enemy_blocks_only_as_counts() -> None:
    """C44, C46 (Fog-of-War, 4.2): outside battle a role's view has no enemy block entry, only counts."""
    s = RULES.setup(1, "wars-of-the-roses")
    assert "Henry VI/L" not in canonical_json(RULES.view(s, "York"))
    v = V.expand(RULES.view(s, "York"))
    assert all(b["side"] == "York" for b in v["blocks"])
    assert v["hidden"]["Middlesex"] == {"Lancaster": 1}
    assert "Henry VI/L" not in canonical_json(v)
    o = V.expand(RULES.view(s, OBSERVER))
    assert o["blocks"] == [] and "hand" not in o


def test_fast_validator_agrees_with_legal_actions() -> None:
    """action() validates with the current step's is_legal (a fast check in the Action Phase's
    main, group, path, sea and recruit steps, 5.2-5.4, and in battle turns, 6.2); it must agree
    with legal_actions everywhere."""
    pick = random.Random(5)
    seen: set[str] = set()
    for seed in range(3):
        game = Game.new(RULES, seed, "wars-of-the-roses")
        for _ in range(300):
            if game.result() is not None:
                break
            st = game.state
            role = pick.choice(game.active())
            legal = RULES.legal_actions(st, role)
            step, frame = RULES.steps.current(st)
            seen.add(step.name)
            # A step marked always_decides (settle does not ask it) has an actor whenever on top.
            assert not step.always_decides or step.actors(st, frame)
            for verb, arg in legal:
                assert step.is_legal(st, frame, role, verb, arg)
            if step.name == "main":
                for verb in ("move", "sea", "recruit"):
                    cands = AREA_NAMES if verb == "move" else BLOCK_KEY
                    for c in cands:
                        assert step.is_legal(st, frame, role, verb, c) == ((verb, c) in legal), (verb, c)
                assert not step.is_legal(st, frame, role, "move", ["Kent"])
            if step.name in ("path", "sea", "recruit"):
                verb = {"path": "to", "sea": "sea_to", "recruit": "place"}[step.name]
                for c in (*AREA_NAMES, "Nowhere", 3, None, ["Kent"]):
                    assert step.is_legal(st, frame, role, verb, c) == ((verb, c) in legal), (verb, c)
                    assert not step.is_legal(st, frame, role, "block", c)
            if step.name == "group":
                for c in (*BLOCK_KEY, "Nobody", 3, None):
                    assert step.is_legal(st, frame, role, "block", c) == (("block", c) in legal), c
            for verb in ("stop", "end_group"):
                for c in (None, "x"):
                    if step.name in ("path", "group"):
                        assert step.is_legal(st, frame, role, verb, c) == ((verb, c) in legal), (verb, c)
            if step.name == "turn":
                for verb in ("fire", "pass"):
                    for c in BLOCK_KEY:
                        assert step.is_legal(st, frame, role, verb, c) == ((verb, c) in legal), (verb, c)
                for c in BLOCK_KEY:
                    for t in BLOCK_KEY[:20]:
                        assert step.is_legal(st, frame, role, "charge", [c, t]) == (("charge", [c, t]) in legal)
            verb, arg = pick.choice(legal)
            before = digest(st)
            with pytest.raises(IllegalAction):
                RULES.action(st, role, "no-such-verb", None)
            assert digest(st) == before
            game.apply(role, verb, arg)
    assert {"main", "group", "path", "sea", "recruit", "turn"} <= seen


def test_copy_state_is_deep() -> None:
    s = RULES.setup(2, "kingmaker")
    c = RULES.copy_state(s)
    assert c == s
    c["loc"][0] = 99
    c["ent"][0][3].append(5)
    c["hands"][0].append(99)
    assert s["loc"][0] != 99 and 5 not in s["ent"][0][3] and 99 not in s["hands"][0]
