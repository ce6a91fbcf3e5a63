"""The per-position memo of legal actions, views and secrets (memo.py): it gives the same
answers as building them afresh, and never a stale answer after an action or a change by hand."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from roses.engine.contract import OBSERVER, canonical_json
from roses.games.kingmaker import RULES, memo, offers, views
from roses.games.kingmaker.common import Z_NOBLE, W
from tests.kingmaker.helpers import hand_ids, new_game, play_out_setup


def fresh_answers(state: dict, role: str) -> tuple[list, str, set[str]]:
    with memo.applying():  # no memo read or written inside
        legal = RULES.legal_actions(state, role)
        view = canonical_json(RULES.view(state, role))
        secrets = RULES.secrets(state, role)
    return legal, view, secrets


def test_memo_answers_equal_fresh_answers_along_a_random_game() -> None:
    state = new_game(3, "e1", seed=7, rounds=3, board=None)
    rng = random.Random(3)
    for _ in range(150):
        if RULES.result(state) is not None:
            break
        for role in [*state["roles"], OBSERVER]:
            legal, view, secrets = fresh_answers(state, role)
            assert RULES.legal_actions(state, role) == legal
            assert canonical_json(RULES.view(state, role)) == view
            assert RULES.secrets(state, role) == secrets
        role = RULES.active(state)[0]
        verb, arg = rng.choice(RULES.legal_actions(state, role))
        RULES.action(state, role, verb, arg)


def test_memo_is_dropped_after_a_change_by_hand(tmp_path: Path) -> None:
    state = play_out_setup(new_game(3, seed=2))
    role = RULES.active(state)[0]
    before = RULES.view(state, role)
    w = W(state)
    n = next(n for n in w.nobles if state["nsq"][n] is not None)
    state["nsq"][n] = next(sq for sq in w.board.squares if w.board.squares[sq].land and sq != state["nsq"][n])
    state["nin"][n] = None
    after = RULES.view(state, role)
    assert after != before
    assert canonical_json(after) == fresh_answers(state, role)[1]


@pytest.mark.parametrize("field", memo._WATCHED)
def test_memo_sees_a_change_by_hand_in_each_watched_field(field: str) -> None:
    """Each watched list or dict changed in place (as a test rigging a position does) drops
    the memo: it is compared with a copy, not by identity."""
    state = play_out_setup(new_game(3, seed=2))
    tables = memo.tables(state)
    assert tables is not None and memo.tables(state) is tables
    value = state[field]
    if isinstance(value, dict):
        value["by hand"] = 0
    else:
        value[0] = "by hand"
    assert memo.tables(state) is not tables


def test_legal_actions_are_the_callers_own_list() -> None:
    state = play_out_setup(new_game(3, seed=2))
    role = RULES.active(state)[0]
    first = RULES.legal_actions(state, role)
    first.clear()
    assert RULES.legal_actions(state, role)


def test_views_share_only_the_public_part() -> None:
    state = play_out_setup(new_game(3, seed=2))
    p1, p2 = RULES.view(state, "P1"), RULES.view(state, "P2")
    assert p1["players"] is p2["players"]  # built once per position
    assert [c["id"] for c in p1["hand"]] == hand_ids(state, 0)  # each role's own part
    assert [c["id"] for c in p2["hand"]] == hand_ids(state, 1)
    assert "hand" not in RULES.view(state, OBSERVER)
    assert views.public_parts(state)["players"] == p1["players"]


# ----- parts of the public view kept from one position to the next (memo.kept)
def _fresh_public(state: dict) -> str:
    with memo.applying():  # nothing kept is read inside
        return canonical_json(views.public_parts(state))


def test_kept_public_parts_equal_fresh_ones_along_random_games() -> None:
    """The ships and places parts serve the next positions while what they are made from is
    the same; along random games of each level they equal parts made afresh at every step,
    including the steps that change them (sieges, captures, ships moving, cards changing
    hands), which the games are checked to contain."""
    changed = {"ships": 0, "places": 0}
    for level, players, seed in (("basic", 3, 11), ("e1", 4, 12), ("e2", 5, 13)):
        state = new_game(players, level, seed=seed, board=None)
        rng = random.Random(seed)
        last: dict[str, object] = {}
        for _ in range(400):
            if RULES.result(state) is not None:
                break
            public = views.public_parts(state)
            assert canonical_json(public) == _fresh_public(state)
            for part in changed:
                if part in last and public[part] != last[part]:
                    changed[part] += 1
                last[part] = public[part]
            role = RULES.active(state)[0]
            verb, arg = rng.choice(RULES.legal_actions(state, role))
            RULES.action(state, role, verb, arg)
    assert changed["ships"] > 0 and changed["places"] > 0, changed


def test_kept_parts_follow_a_change_by_hand() -> None:
    state = play_out_setup(new_game(3, seed=2, board=None))
    before = views.public_parts(state)
    w = W(state)
    place = next(pl for pl in sorted(w.board.places) if pl not in before["places"])
    state["pown"][place] = 1  # captured by P2, by hand
    memo.forget()
    after = views.public_parts(state)
    assert after["places"][place] == {"name": W(state).board.places[place].name, "owner": "P2", "besieged_by": None}
    assert canonical_json(after) == _fresh_public(state)
    ship = next(s for s in range(len(w.ships)) if state["spos"][s] is not None)
    state["sctl"][ship] = 2  # a temporary controller (L181), by hand
    memo.forget()
    shown = next(s for s in views.public_parts(state)["ships"] if s["id"] == w.ships[ship].id)
    assert shown["controller"] == "P3"
    assert canonical_json(views.public_parts(state)) == _fresh_public(state)
    # Catastrophe (E1) suspends the troops of titles, offices and bishoprics: the kept noble
    # entries follow it
    troops = {e["id"]: e["troops"] for p in views.public_parts(state)["players"] for e in p["nobles"]}
    state["catastrophe"] = 1
    memo.forget()
    during = {e["id"]: e["troops"] for p in views.public_parts(state)["players"] for e in p["nobles"]}
    assert any(during[n] < troops[n] for n in troops), "no noble holds a title, office or bishopric"
    assert canonical_json(views.public_parts(state)) == _fresh_public(state)


def test_kept_parts_are_not_shared_between_boards() -> None:
    """Two games on different boards with the same cards' zones: each gets its own places."""
    on_default = play_out_setup(new_game(3, seed=2, board=None))
    on_example = play_out_setup(new_game(3, seed=2))
    assert W(on_default) is not W(on_example)
    for state in (on_default, on_example, on_default):
        assert canonical_json(views.public_parts(state)) == _fresh_public(state)


def test_standing_found_for_all_players_at_once_equals_each_players_own() -> None:
    """offers.standing, made for every player in one pass per position, gives what each
    player's standing verbs take by their definitions: his hand, the ships he may lend
    (offers.lendable) and his captives still waiting (offers.captive_waiting); along random
    games in which ships and captives do come up."""
    seen = {"ships": 0, "free": 0}
    for level, players, seed, steps in (("basic", 4, 21, 300), ("e2", 4, 2, 400)):
        state = new_game(players, level, seed=seed, board=None)
        rng = random.Random(seed)
        for _ in range(steps):
            if RULES.result(state) is not None:
                break
            w = W(state)
            for p, role in enumerate(state["roles"]):
                got = offers.standing(state, role)["propose_exchange"]
                assert got["cards"] == hand_ids(state, p)
                assert got["ships"] == [w.ships[s].id for s in range(len(w.ships)) if offers.lendable(state, s, p)]
                assert got["free"] == [w.cards[n].id for n in w.nobles if state["cz"][n] == Z_NOBLE
                                       and state["ncap"][n] == p and offers.captive_waiting(state, n, p)]
                assert got["to"] == [r for r in state["roles"] if r != role]
                seen["ships"] += len(got["ships"])
                seen["free"] += len(got["free"])
            role = RULES.active(state)[0]
            verb, arg = rng.choice(RULES.legal_actions(state, role))
            RULES.action(state, role, verb, arg)
    assert seen["ships"] > 0 and seen["free"] > 0, seen


def test_standing_is_asked_only_for_a_player() -> None:
    state = play_out_setup(new_game(3, seed=2))
    assert offers.standing(state, "P3")["propose_exchange"]["to"] == ["P1", "P2"]
    with pytest.raises(ValueError, match="not a player"):
        offers.standing(state, OBSERVER)
