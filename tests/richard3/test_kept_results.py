"""What the Richard III rules keep between calls to be fast gives the same answers as
computing afresh: the occupancy, the log windows of views, field-by-field copies and
determinisations prepared once per state (Rules.determinizer)."""

from __future__ import annotations

import json
import math
import pickle
import random
from typing import Any

import pytest

from roses.ai.bot import Determinizer
from roses.engine import logview
from roses.engine.contract import canonical_json
from roses.engine.fuzz import game_seed
from roses.games.richard3 import RULES
from roses.games.richard3 import ai as AI
from roses.games.richard3 import battle as BT
from roses.games.richard3 import common as C
from roses.games.richard3.data import B_SIDE, DEAD, N_AREAS, N_BLOCKS, POOL, REBEL

SCENARIOS = ("wars-of-the-roses", "kingmaker", "richard-iii")


def _states(scenario: str, games: int = 2, every: int = 3) -> list[dict[str, Any]]:
    """States of random games (every ``every``-th step), battles and supply included."""
    picker = random.Random(11)
    out = []
    for i in range(games):
        st = RULES.setup(game_seed(5, i), scenario)
        step = 0
        while RULES.result(st) is None:
            if step % every == 0:
                out.append(RULES.copy_state(st))
            active = RULES.active(st)
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
            step += 1
    return out


def _fresh_occupancy(state: dict[str, Any]) -> tuple[list[int], list[int]]:
    occ = ([0] * N_AREAS, [0] * N_AREAS)
    for b in range(N_BLOCKS):
        a = state["loc"][b]
        if a < N_AREAS:
            side = B_SIDE[b] if B_SIDE[b] != REBEL else 1 - state["king"]
            occ[side][a] += 1
    return occ


def test_kept_occupancy_follows_every_change_of_loc_and_crown() -> None:
    """2.1: the counts per area and side; the Rebel counts for the Pretender (3.26)."""
    st = RULES.setup(3, "richard-iii")
    assert [list(x) for x in C.occupancy(st)] == list(_fresh_occupancy(st))
    b = next(b for b in range(N_BLOCKS) if st["loc"][b] < N_AREAS)
    st["loc"][b] = (st["loc"][b] + 1) % N_AREAS  # changed in place, as the rules do
    assert [list(x) for x in C.occupancy(st)] == list(_fresh_occupancy(st))
    st["king"] = 1 - st["king"]
    assert [list(x) for x in C.occupancy(st)] == list(_fresh_occupancy(st))
    with pytest.raises(TypeError):
        C.occupancy(st)[0][0] += 1  # type: ignore[index]  # shared: read-only


def _afresh(st: dict[str, Any], role: str) -> dict[str, Any]:
    """The view made with nothing kept: no log window (roses.engine.logview), no occupancy and
    no contested areas (common.py), no battle blocks (battle.py); what was kept is put back after."""
    windows = dict(logview._kept)
    occupancy, contested = C._last_occupancy, C._last_contested
    present, fighting = BT._last_present, BT._last_fighting
    logview._kept.clear()
    C._last_occupancy = ([], -1, ((), ()))
    C._last_contested = (((), ()), ())
    BT._last_present = (-1, [], ())
    BT._last_fighting = (-1, -1, [], (), ((), ()))
    try:
        return RULES.view(st, role)
    finally:
        logview._kept.clear()
        logview._kept.update(windows)
        C._last_occupancy, C._last_contested = occupancy, contested
        BT._last_present, BT._last_fighting = present, fighting


def _fresh_fighting(state: dict[str, Any], area: int) -> tuple[list[int], list[int]]:
    out: tuple[list[int], list[int]] = ([], [])
    for b in range(N_BLOCKS):
        if state["loc"][b] == area and not state["reserve"][b]:
            out[B_SIDE[b] if B_SIDE[b] != REBEL else 1 - state["king"]].append(b)
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_kept_battle_blocks_follow_moves_reserves_and_crown(scenario: str) -> None:
    """6.2: the blocks fighting in a battle (not in Reserve) per side, the Rebel the
    Pretender's (3.26), kept between calls: the same as a fresh scan at every battle state,
    and after changes in place of a block's place, of a Reserve flag and of the King's side."""
    battles = 0
    for st in _states(scenario):
        if st["battle"] is None:
            continue
        battles += 1
        area = st["battle"]["area"]
        assert [list(x) for x in BT._fighting(st, area)] == list(_fresh_fighting(st, area))
        assert list(BT._present(st, area)) == [b for b in range(N_BLOCKS) if st["loc"][b] == area]
        b = BT._present(st, area)[0]
        st["reserve"][b] = 1 - st["reserve"][b]
        assert [list(x) for x in BT._fighting(st, area)] == list(_fresh_fighting(st, area))
        st["king"] = 1 - st["king"]
        assert [list(x) for x in BT._fighting(st, area)] == list(_fresh_fighting(st, area))
        st["loc"][b] = DEAD
        assert b not in BT._present(st, area)
        assert [list(x) for x in BT._fighting(st, area)] == list(_fresh_fighting(st, area))
        other = (area + 1) % N_AREAS
        assert [list(x) for x in BT._fighting(st, other)] == list(_fresh_fighting(st, other))
    assert battles > 5


def test_kept_occupancy_moves_with_a_block_moved_by_the_rules() -> None:
    """C.move_block moves the kept occupancy on with the block when it is that of the state
    before the move, and the occupancy read next is the one counted afresh, wherever the block
    goes (an area, the pool, off the map) and whatever was kept before (another state)."""
    r = random.Random(2)
    st = RULES.setup(3, "richard-iii")
    other = RULES.setup(4, "kingmaker")
    places = [*range(N_AREAS), POOL, DEAD]
    for i in range(300):
        if i % 7 == 0:
            C.occupancy(other)  # something else kept
        elif i % 3:
            C.occupancy(st)
        before = C.occupancy(st)
        counted = [list(x) for x in before]
        b = r.randrange(N_BLOCKS)
        C.move_block(st, b, r.choice(places))
        assert [list(x) for x in C.occupancy(st)] == list(_fresh_occupancy(st))
        assert [list(x) for x in before] == counted  # an occupancy handed out never changes
    assert C.occupancy(st) is C.occupancy(st)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_views_with_kept_parts_equal_views_made_afresh(scenario: str) -> None:
    """A view made while the log windows and the occupancy of earlier states are kept is the
    view made with nothing kept (same JSON text, key order included), for every role."""
    for st in _states(scenario):
        for role in ("York", "Lancaster", "Observer"):
            kept = json.dumps(RULES.view(st, role))
            assert json.dumps(_afresh(st, role)) == kept


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_views_follow_states_changed_in_place_and_games_taken_in_turn(scenario: str) -> None:
    """Three games played in turn, each state changed in place by the rules: after every
    action each role's view (made with the log windows and occupancy kept from the other games
    and from the state before the action) is the view made afresh; a view handed out earlier
    is never changed by later play (its parts are shared with the kept results, never
    changed)."""
    picker = random.Random(3)
    games = [RULES.setup(game_seed(8, i), scenario) for i in range(3)]
    handed: list[tuple[dict[str, Any], str]] = []
    for step in range(900):
        live = [g for g in games if RULES.result(g) is None]
        if not live:
            break
        st = live[picker.randrange(len(live))]
        for role in ("York", "Lancaster", "Observer"):
            view = RULES.view(st, role)
            kept = json.dumps(view)
            if step % 50 == 0:
                handed.append((view, kept))
            assert json.dumps(_afresh(st, role)) == kept, (step, role)
        active = RULES.active(st)
        role = active[0] if len(active) == 1 else picker.choice(active)
        legal = RULES.legal_actions(st, role)
        RULES.action(st, role, *legal[picker.randrange(len(legal))])
    assert all(json.dumps(view) == text for view, text in handed)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_copy_state_is_an_equal_independent_copy(scenario: str) -> None:
    for st in _states(scenario, games=1):
        before = json.dumps(st)
        c = RULES.copy_state(st)
        assert json.dumps(c) == before  # same content, same key order
        pending: list[Any] = [c]
        while pending:  # every list and dict of the copy is its own
            x = pending.pop()
            items = x.values() if isinstance(x, dict) else x
            for v in items:
                if isinstance(v, (list, dict)) and x is not c["log"]:
                    pending.append(v)
            if isinstance(x, list) and x is not c["log"]:
                x.append(-7)
            elif isinstance(x, dict):
                x["__probe__"] = 1
        assert json.dumps(st) == before


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_determinizer_gives_determinize_for_every_seed(scenario: str) -> None:
    """Rules.determinizer(state, role)(seed) == Rules.determinize(state, role, seed); the
    state is not changed; a pickled Determinizer gives the same states."""
    for st in _states(scenario, games=1, every=9):
        before = canonical_json(st)
        for role in ("York", "Lancaster"):
            sample = RULES.determinizer(st, role)
            for seed in (1, 2, 99):
                assert canonical_json(sample(seed)) == canonical_json(RULES.determinize(st, role, seed))
            det = Determinizer.bind(RULES, st, role)
            assert det is not None
            again = pickle.loads(pickle.dumps(det))
            assert canonical_json(det(5)) == canonical_json(again(5)) == canonical_json(sample(5))
        assert canonical_json(st) == before


def _play_alike(states: list[dict[str, Any]], seed: int, steps: int = 40) -> None:
    """Play the same random actions on every state, picked among the first's legal actions;
    every state must offer the same legal actions."""
    picker = random.Random(seed)
    lead = states[0]
    for _ in range(steps):
        if RULES.result(lead) is not None:
            break
        role = RULES.active(lead)[0]
        legal = RULES.legal_actions(lead, role)
        assert all(RULES.legal_actions(other, role) == legal for other in states[1:])
        verb, arg = legal[picker.randrange(len(legal))]
        for st in states:
            RULES.apply_legal(st, role, verb, arg)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_search_copies_play_as_copies(scenario: str) -> None:
    """Rules.search_copy (STATE.md): the state without its log (the rules only append to it),
    sharing the lists of ``ent`` (the rules replace them, never change them in place); the
    rules play on it as on copy_state's copy, and nothing reaches the original."""
    for st in _states(scenario, games=1, every=5):
        before = canonical_json(st)
        full, search = RULES.copy_state(st), RULES.search_copy(st)
        assert search["log"] == []
        assert {k: v for k, v in search.items() if k != "log"} == {k: v for k, v in full.items() if k != "log"}
        _play_alike([full, search], len(before))
        assert search["log"] == full["log"][len(st["log"]):]
        assert {k: v for k, v in search.items() if k != "log"} == {k: v for k, v in full.items() if k != "log"}
        assert canonical_json(st) == before


def test_search_copy_of_other_layouts() -> None:
    """search_copy copies by the state's fields (a layout kept per set of keys): a field it
    does not know is copied at any depth, a missing field is missing from the copy, a field
    added later is copied too, and the copy shares no list or dict with the original but
    ``ent``'s inner lists."""
    st = RULES.setup(game_seed(5, 0), "richard-iii")
    st["extra"] = {"a": [1, [2, 3]], "b": None}
    del st["rigged"]
    copy = C.search_copy(st)
    assert "rigged" not in copy and copy["log"] == []
    assert {k: v for k, v in copy.items() if k != "log"} == {k: v for k, v in st.items() if k != "log"}
    before = canonical_json(st)
    copy["extra"]["a"][1].append(4)
    copy["loc"][0] += 100
    copy["hands"][0].append(99)
    copy["stack"][-1]["step"] = "changed"
    assert canonical_json(st) == before
    st["rigged"] = [1, 2]  # the same fields in another order: another layout
    again = C.search_copy(st)
    assert again["rigged"] == [1, 2] and again["rigged"] is not st["rigged"]
    assert again["extra"] == st["extra"] and again["extra"] is not st["extra"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_undo_copies_are_untouched_by_play_and_play_as_copies(scenario: str) -> None:
    """Rules.undo_copy (the state a Game keeps to undo to): equal to copy_state's copy and
    sharing the lists of ``ent`` (the rules replace them, never change them in place). Playing
    on the original leaves it as it was, and the rules play on it as on copy_state's copy."""
    for st in _states(scenario, games=1, every=5):
        kept, full = RULES.undo_copy(st), RULES.copy_state(st)
        assert kept == full
        assert all(kept["ent"][s][a] is st["ent"][s][a] for s in (0, 1) for a in range(N_AREAS))
        played = RULES.copy_state(kept)
        _play_alike([st, played], len(st["log"]))  # the original played on: nothing reaches kept
        assert canonical_json(kept) == canonical_json(full)
        assert canonical_json(st) == canonical_json(played)
        _play_alike([kept, full], len(st["log"]))  # kept made the state again and played on
        assert canonical_json(kept) == canonical_json(full)


def test_evaluation_is_the_weighted_sum_of_its_terms() -> None:
    """ai.evaluate sums the terms without making the dicts of evaluation_terms and weights: the
    same value, to the last bit, at both threat horizons, for both sides."""
    for scenario in SCENARIOS:
        for st in _states(scenario, games=1, every=4):
            for role in ("York", "Lancaster"):
                for horizon in (1, 2):
                    terms, w = AI.evaluation_terms(st, role, horizon), AI.weights(st)
                    value = math.tanh(0.6 * sum(w[k] * v for k, v in terms.items()))
                    if st["result"] is None:
                        assert AI.evaluate(st, role, horizon) == value
