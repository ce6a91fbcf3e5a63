"""The AI on Richard III: determinisation (roses/games/richard3/ai.py), evaluation, bots.

Fog of war (rules p.3 "Fog-of-War", 4.2 Pool): a side sees where enemy blocks stand but not
who they are or their strength, nor the enemy pool, hand, undealt cards or a card played face
down (1.1). The bots must decide the same way whatever that hidden truth is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.ai.bot import Determinizer, supports_determinize
from roses.ai.checks import determinization_problems
from roses.ai.factory import make_bot
from roses.ai.sim import acting
from roses.engine.contract import Rules, State, canonical_json

r3 = pytest.importorskip("roses.games.richard3")
ai = pytest.importorskip("roses.games.richard3.ai")
data = pytest.importorskip("roses.games.richard3.data")


def _wired() -> Rules:
    """The Richard III rules with the AI methods (wired here until core.py wires them)."""
    base = r3.RULES
    if supports_determinize(base):
        return base  # type: ignore[no-any-return]

    class Wired(type(base)):  # type: ignore[misc]
        def determinize(self, state: State, role: str, seed: int) -> State:
            return ai.determinize(state, role, seed)  # type: ignore[no-any-return]

        def evaluate(self, state: State, role: str) -> float:
            return ai.evaluate(state, role)  # type: ignore[no-any-return]

        def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
            return ai.evaluation_terms(state, role)  # type: ignore[no-any-return]

        def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Any]:
            return ai.action_space(scenario, options)  # type: ignore[no-any-return]

    return Wired()


RULES = _wired()


def positions(scenario: str, seed: int, steps: int, every: int) -> list[State]:
    """States along a seeded random game, every ``every`` actions."""
    picker = random.Random(seed)
    state = RULES.setup(seed, scenario)
    out = []
    for step in range(steps):
        turn = acting(RULES, state)
        if turn is None:
            break
        if step % every == 0:
            out.append(RULES.copy_state(state))
        role, legal = turn
        state = RULES.action(state, role, *legal[picker.randrange(len(legal))])
    return out


@pytest.mark.parametrize("scenario", ["richard-iii", "wars-of-the-roses", "kingmaker"])
def test_determinisation_keeps_the_view_and_depends_only_on_it(scenario: str) -> None:
    if scenario not in RULES.scenarios:
        pytest.skip(f"no scenario {scenario}")
    assert determinization_problems(RULES, scenario, games=2, seed=3, every=9, max_actions=400) == []


def test_determinisation_resamples_what_is_hidden_and_nothing_else() -> None:
    state = positions("richard-iii", 5, 60, 60)[-1]
    for role in ("York", "Lancaster"):
        side = data.ROLES.index(role)
        worlds = [RULES.determinize(state, role, s) for s in range(12)]
        # Own blocks and hand never change; the enemy's hand and hidden blocks do.
        own = [b for b in range(data.N_BLOCKS) if ai._owner(state, b) == side]
        for w in worlds:
            assert [w["loc"][b] for b in own] == [state["loc"][b] for b in own]
            assert [w["steps"][b] for b in own] == [state["steps"][b] for b in own]
            assert w["hands"][side] == state["hands"][side]
            assert w["rng"] != state["rng"]
            assert sorted(w["hands"][1 - side] + w["deck"]) == sorted(state["hands"][1 - side] + state["deck"])
        if state["hands"][1 - side]:
            assert len({tuple(w["hands"][1 - side]) for w in worlds}) > 1
        hidden = ai.hidden_blocks(state, side)
        if len({state["loc"][b] for b in hidden}) > 1:
            assert len({tuple(w["loc"][b] for b in hidden) for w in worlds}) > 1
        # Remembered enemy blocks (ruling K1) keep who and where they are.
        for b in ai.remembered_blocks(state, side):
            assert all(w["loc"][b] == state["loc"][b] for w in worlds)
            assert all(1 <= w["steps"][b] <= state["known"][side][b] for w in worlds)


def test_determinisation_keeps_remembered_blocks() -> None:
    """Ruling K1: at the start of Richard III (1483) Lancaster knows the block in Middlesex is
    Richard III (the setup is public), so every determinisation keeps him there; a recruit
    is re-sampled among the blocks that fit its area."""
    state = RULES.setup(1, "richard-iii")
    gloucester = data.BLOCK_ID["Gloucester/Y"]
    assert gloucester in ai.remembered_blocks(state, 1)
    assert ai.hidden_blocks(state, 1) == sorted(
        b for b in range(data.N_BLOCKS) if ai._owner(state, b) == 0 and state["loc"][b] == data.POOL)
    for s in range(10):
        assert RULES.determinize(state, "Lancaster", s)["loc"][gloucester] == data.AREA_ID["Middlesex"]


def test_heirs_never_go_to_a_pool_and_recruits_fit_their_area() -> None:
    for state in positions("wars-of-the-roses", 7, 300, 15):
        for role in ("York", "Lancaster"):
            w = RULES.determinize(state, role, 1)
            for b in range(data.N_BLOCKS):
                if w["loc"][b] == data.POOL and not w["down"][b]:
                    assert data.B_TYPE[b] not in (data.HEIR,) and (data.B_TYPE[b] != data.MERC or b == data.WELSH)
                if w["loc"][b] < data.N_AREAS and w["moved"][b] == 3 and data.B_TYPE[b] == data.NOBLE:
                    assert w["loc"][b] in data.B_SHIELD_AREAS[b]


def test_evaluation_is_bounded_and_zero_sum() -> None:
    for state in positions("richard-iii", 2, 200, 20):
        y, lan = RULES.evaluate(state, "York"), RULES.evaluate(state, "Lancaster")
        assert -1.0 <= y <= 1.0 and y == pytest.approx(-lan)
        both = RULES.evaluate_all(state, ["York", "Lancaster"])
        assert both == {"York": pytest.approx(y), "Lancaster": pytest.approx(lan)}
        terms = RULES.evaluation_terms(state, "York")
        assert {"heirs", "usurpation", "crown", "danger", "attack", "strength", "battles", "areas", "supply"} == set(terms)
        far = RULES.evaluate_all(state, ["York", "Lancaster"], 2)  # the search bots' horizon
        assert far == {"York": pytest.approx(ai.evaluate(state, "York", 2)),
                       "Lancaster": pytest.approx(-ai.evaluate(state, "York", 2))}


def test_danger_horizon_two_counts_enemies_two_areas_from_an_heir() -> None:
    """5.2: a group moves two areas, so at threat horizon 2 (the search bots' leaves) an enemy
    two areas from an heir threatens him, at half the weight of one next to him; at horizon 1
    (the heuristic bot) only enemies in or next to his area count."""
    state = RULES.setup(1, "richard-iii")
    loc = state["loc"]
    york_heirs = [h for h in data.HEIRS[0] if loc[h] < data.N_AREAS]
    heir = york_heirs[0]
    near = set()
    for h in york_heirs:
        near |= {loc[h]} | data.NEIGHBOURS[loc[h]] | ai._TWO_AWAY[loc[h]]
    lancaster_heir_areas = {loc[h] for h in data.HEIRS[1] if loc[h] < data.N_AREAS}
    near |= lancaster_heir_areas  # a block there also counts for its own heir's safety
    far = [b for b in range(data.N_BLOCKS) if loc[b] < data.N_AREAS and ai._owner(state, b) == 1
           and loc[b] not in near]
    assert far, "a Lancastrian block far from every York heir"

    def danger(s: dict, horizon: int) -> float:
        return ai.evaluation_terms(s, "York", horizon)["danger"]

    moved = RULES.copy_state(state)
    moved["loc"][far[0]] = sorted(ai._TWO_AWAY[loc[heir]] - lancaster_heir_areas)[0]
    adjacent = RULES.copy_state(state)
    adjacent["loc"][far[0]] = sorted(data.NEIGHBOURS[loc[heir]] - lancaster_heir_areas)[0]
    assert danger(moved, 1) == danger(state, 1)
    assert danger(adjacent, 1) < danger(state, 1)
    assert danger(moved, 2) < danger(state, 2)
    assert danger(adjacent, 2) < danger(moved, 2)
    assert danger(state, 1) == RULES.evaluation_terms(state, "York")["danger"]


@pytest.mark.parametrize("name", ["heuristic", "ismcts:i40"])
def test_decision_ignores_hidden_information(name: str) -> None:
    """Same view, different hidden truth (a determinisation of the truth), same seed: same move."""
    checked = 0
    states = [s for seed in (11, 12, 13) for s in positions("richard-iii", seed, 150, 5)]
    for state in states:
        if checked >= 6:
            break
        turn = acting(RULES, state)
        if turn is None or len(turn[1]) < 2:
            continue
        role = turn[0]
        other = RULES.determinize(state, role, 99)
        view = RULES.view(state, role)
        assert canonical_json(RULES.view(other, role)) == canonical_json(view)
        bot = make_bot(name, seed=5, **({"samples": 2, "depth": 2} if name == "heuristic" else {}))
        a = bot.decide(RULES, view, role, Determinizer.bind(RULES, state, role))
        b = bot.decide(RULES, view, role, Determinizer.bind(RULES, other, role))
        assert a.action == b.action and a.rationale == b.rationale
        checked += 1
    assert checked >= 3


def test_bots_play_legal_richard3_moves_with_rationales() -> None:
    from roses.ai.arena import play_game

    seats: dict[str, tuple[str, Any]] = {"York": ("heuristic", make_bot("heuristic", 1, samples=1, depth=2)),
                                         "Lancaster": ("ismcts", make_bot("ismcts:i15", 2))}
    out = play_game(RULES, "richard-iii", seats, seed=4, max_actions=70)
    assert out.length == 70 or out.result is not None
    assert seats["York"][1].last_rationale and seats["Lancaster"][1].last_rationale


def test_action_catalogue_is_fixed_and_covers_every_legal_action() -> None:
    from roses.ai.sim import action_key

    catalogue = RULES.action_space("richard-iii")
    keys = [action_key(a) for a in catalogue]
    assert len(set(keys)) == len(keys)
    assert catalogue == RULES.action_space("wars-of-the-roses") == ai.action_space("richard-iii")
    known = set(keys)
    for scenario in RULES.scenarios:
        for state in positions(scenario, 2, 400, 1):
            turn = acting(RULES, state)
            if turn is not None:
                missing = [a for a in turn[1] if action_key(a) not in known]
                assert not missing, f"{scenario}: not in the catalogue: {missing}"


def test_secret_mulligan_answer_is_redrawn() -> None:
    """5.1: both sides answer the mulligan question at once; an answer given first stays
    secret, so the other side's determinisations re-draw it instead of copying it."""
    state = RULES.setup(11, "richard-iii")  # seed 11: Lancaster's hand allows a redeal
    assert state["stack"][-1]["step"] == "mulligan"
    assert ("redeal", None) in RULES.legal_actions(state, "Lancaster")
    state = RULES.action(state, "Lancaster", "redeal", None)
    assert state["stack"][-1]["mull"] == [-1, 1]
    answers = [RULES.determinize(state, "York", s)["stack"][-1]["mull"][1] for s in range(30)]
    assert set(answers) <= {0, 1}
    assert 0 in answers  # the true answer (1, redeal) is not leaked into every world
    own = {RULES.determinize(state, "Lancaster", s)["stack"][-1]["mull"][1] for s in range(5)}
    assert own == {1}


def test_apply_legal_equals_action_on_legal_moves() -> None:
    """The unchecked path the search bots use gives the very same state as ``action``."""
    from roses.engine.game import digest

    picker = random.Random(8)
    compared = 0
    for seed in (1, 2, 3, 4):
        state = RULES.setup(seed, "richard-iii")
        for _ in range(300):
            turn = acting(RULES, state)
            if turn is None:
                break
            role, legal = turn
            verb, arg = legal[picker.randrange(len(legal))]
            fast = RULES.apply_legal(RULES.copy_state(state), role, verb, arg)
            state = RULES.action(state, role, verb, arg)
            assert digest(fast) == digest(state)
            compared += 1
    assert compared > 200
