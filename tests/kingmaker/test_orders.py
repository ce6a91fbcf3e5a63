"""Defaults by deadline and standing orders (orders.py): the server's
``by_default`` plays the published default and the game log says so; a player's standing
orders answer the recurring questions put to his seat at once, logged "by standing order",
and stay hidden from the other seats (rulings K70, K71)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.engine.log import visible_log
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_DISC, Z_HAND, Z_NOBLE, W
from tests.kingmaker.helpers import give_hand, put, staged, turn_of
from tests.kingmaker.test_parliament import _session
from tests.kingmaker.test_rulings import _captive
from tests.kingmaker.test_situations import _storm_at_h7

MOVE = {"step": "move", "p": 0, "sel": None, "ship": None}


def unchanged(state: dict[str, Any], role: str, verb: str, arg: Any, error: type = IllegalAction) -> str:
    before = canonical_json(state)
    with pytest.raises(error) as err:
        RULES.action(state, role, verb, arg)
    assert canonical_json(state) == before
    return str(err.value)


def _asking(tmp_path: Path):
    """P1's Percy asks to enter P2's Nottingham (L35, L191): P2 is asked (default: deny)."""
    state = staged(tmp_path)
    put(state, 0, "percy", "C4")
    put(state, 1, "mowbray", "A1")
    state["pown"]["nottingham"] = 1
    turn_of(state, 0, dict(MOVE), stage=2)
    return state


def _enter(state: dict[str, Any]) -> None:
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])


def sub(tmp_path: Path, name: str) -> Path:
    d = tmp_path / name
    d.mkdir()
    return d


def public_lines(state: dict[str, Any]) -> list[str]:
    return [str(line) for line in visible_log(state["log"], OBSERVER)]


# ============================================================================ by_default
def test_by_default_plays_the_published_default_and_logs_it(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    _enter(state)
    assert RULES.active(state) == ["P2"] and RULES.view(state, "P2")["default"] == ["deny", None]
    RULES.action(state, "P2", "by_default", "deadline")
    w = W(state)
    assert state["nin"][w.cid("percy")] is None  # refused entry
    lines = public_lines(state)
    assert "P2's deadline passed: deny (the published default)." in lines
    assert lines[-1].startswith("P2 refuses Percy entry")


def test_by_default_for_a_seat_away(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    _enter(state)
    RULES.action(state, "P2", "by_default", "vacation")
    assert "P2 is away: deny (the published default)." in public_lines(state)


def test_by_default_of_a_vote_does_not_publish_the_ballot_l366(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    RULES.action(state, "P3", "propose", "audley")
    RULES.action(state, "P1", "accept")
    RULES.action(state, "P2", "by_default", None)
    assert "P2's deadline passed: the published default is played." in public_lines(state)
    assert "P2" not in RULES.active(state)
    mine = [str(x) for x in visible_log(state["log"], "P2")]
    assert "The published default played for you: vote abstain." in mine
    assert not any("abstain" in line for line in public_lines(state))


def test_a_captor_whose_deadline_passes_executes_the_captive_l285_k73(tmp_path: Path) -> None:
    """L285: "Any Noble not ransomed in the turn of capture must be executed" (ruling K73)."""
    state, d = _captive(tmp_path)
    give_hand(state, 1, "earl_of_kent")
    assert RULES.view(state, "P1")["default"] == ["execute", "grey"]
    assert "(default: execute)" in RULES.view(state, "P1")["prompt"]
    RULES.action(state, "P1", "by_default", "deadline")
    assert state["cz"][d] == Z_DISC
    assert "P1's deadline passed: execute Grey (the published default)." in public_lines(state)


def test_ransom_cards_given_by_default_are_not_nobles_first_k73(tmp_path: Path) -> None:
    """An owner who agreed to pay and lets the deadline pass gives the cards a standing order
    would (K70): those other than nobles first."""
    state, d = _captive(tmp_path)
    give_hand(state, 1, "audley")
    kent = give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P1", "ransom", ["grey", 1])
    RULES.action(state, "P2", "pay")
    assert state["stack"][-1]["step"] == "ransom_pay"
    assert RULES.view(state, "P2")["default"] == ["give_card", "earl_of_kent"]
    RULES.action(state, "P2", "by_default", "deadline")
    assert state["cz"][kent] == Z_HAND and state["ch"][kent] == 0
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0
    assert "P2's deadline passed: the published default is played." in public_lines(state)
    assert not [line for line in public_lines(state) if "Kent" in line]  # the card passes unseen (L285)
    assert "The published default played for you: pay with Earl of Kent." in visible_log(state["log"], "P2")


def test_a_summoned_noble_who_cannot_answer_sends_no_one_by_default_l116_k73(tmp_path: Path) -> None:
    """L116-118: a Writ "can be used" to send a substitute; Percy, besieged in London, cannot
    answer the Raid, and the player may send Stafford with his Writ or no one (the default)."""
    from roses.games.kingmaker.common import E_HAND
    from tests.kingmaker.helpers import award, eid, event_on_top
    from tests.kingmaker.test_rulings import DECK

    state = staged(tmp_path, deck=DECK)
    state["pown"]["london"] = 0
    state["siege"]["london"] = 2
    percy = put(state, 0, "percy", "B5", "london")
    stafford = put(state, 0, "stafford", "A2")
    award(state, "marshal", "stafford")
    writ = eid(state, "writ")
    state["edeck"].remove(writ)
    state["ez"][writ], state["eh"][writ] = E_HAND, 0
    event_on_top(state, "raid")
    turn_of(state, 2, {"step": "chance", "p": 2}, stage=1)
    RULES.steps.settle(state)
    assert RULES.active(state) == ["P1"]
    assert sorted(RULES.legal_actions(state, "P1")) == [("decline", None), ("send", "stafford")]
    view = RULES.view(state, "P1")
    assert view["default"] == ["decline", None] and "cannot answer" in view["prompt"]
    assert RULES.label(state, "P1", "decline", None) == "send no one"
    RULES.action(state, "P1", "by_default", "deadline")
    assert state["nsq"][stafford] == "A2" and state["nin"][percy] == "london"
    assert state["ez"][writ] == E_HAND  # the Writ is kept
    assert "Percy cannot answer the summons." in public_lines(state)


def test_by_default_needs_a_default_and_the_seat_asked(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    text = unchanged(state, "P1", "by_default", "deadline")  # his own turn: no published default
    assert "no published default" in text
    unchanged(state, "P2", "by_default", "deadline", NotYourTurn)
    _enter(state)
    assert "takes one of" in unchanged(state, "P2", "by_default", "because")


# ============================================================================ standing orders
def test_standing_order_answers_a_permission_at_once_l191(tmp_path: Path) -> None:
    """P2, not asked, sets "let P1 in": P1's request is answered at once by it."""
    state = _asking(tmp_path)
    RULES.action(state, "P2", "set_order", {"kind": "permit:P1", "value": "allow"})
    _enter(state)
    w = W(state)
    assert state["nin"][w.cid("percy")] == "nottingham"
    assert RULES.active(state) == ["P1"]  # back to P1's movement: nobody waited for P2
    assert "P2 answers by standing order: allow." in public_lines(state)


def test_per_player_order_wins_over_the_general_one(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    RULES.action(state, "P2", "set_order", {"kind": "permit", "value": "allow"})
    RULES.action(state, "P2", "set_order", {"kind": "permit:P1", "value": "deny"})
    _enter(state)
    assert state["nin"][W(state).cid("percy")] is None
    assert "P2 answers by standing order: deny." in public_lines(state)


def test_an_order_set_while_asked_answers_at_once(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    _enter(state)
    assert RULES.active(state) == ["P2"]
    RULES.action(state, "P2", "set_order", {"kind": "permit", "value": "allow"})
    assert state["nin"][W(state).cid("percy")] == "nottingham"
    assert RULES.active(state) == ["P1"]


def test_cleared_order_asks_again(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    RULES.action(state, "P2", "set_order", {"kind": "permit", "value": "allow"})
    RULES.action(state, "P2", "clear_order", "permit")
    _enter(state)
    assert RULES.active(state) == ["P2"]
    assert RULES.view(state, "P2")["standing_orders"]["orders"] == {}


def test_standing_vote_is_secret_until_the_result_l366(tmp_path: Path) -> None:
    """A standing ballot is cast as soon as the vote opens; the public log says only that P2
    answered by standing order; the other seats' views are the same as with another ballot."""
    states = []
    for ballot in ("yes", "no"):
        state, w = _session(sub(tmp_path, ballot))
        RULES.action(state, "P2", "set_order", {"kind": "vote:award", "value": ballot})
        RULES.action(state, "P3", "propose", "audley")
        RULES.action(state, "P1", "accept")
        assert sorted(RULES.active(state)) == ["P1", "P3"]
        assert RULES.view(state, "P2")["parliament"]["ballot"] == ballot
        assert "P2 answers by standing order." in public_lines(state)
        states.append(state)
    for role in ("P1", "P3", OBSERVER):
        views = [RULES.view(s, role) for s in states]
        assert canonical_json(views[0]) == canonical_json(views[1]), role


def test_standing_ransom_answer_pays_with_cards_other_than_nobles_k70(tmp_path: Path) -> None:
    """L283-285: P2 pays a ransom of at most one card; the card given is not a noble (K70)."""
    state, d = _captive(tmp_path)
    kent = give_hand(state, 1, "earl_of_kent")
    give_hand(state, 1, "audley")
    RULES.action(state, "P2", "set_order", {"kind": "ransom_answer", "value": 1})
    RULES.action(state, "P1", "ransom", ["grey", 1])
    assert state["cz"][kent] == Z_HAND and state["ch"][kent] == 0  # handed over
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0       # Grey is free
    assert "P2 answers by standing order: pay." in public_lines(state)
    assert not [line for line in public_lines(state) if "Kent" in line]  # the card passes unseen (L285)


def test_standing_ransom_answer_refuses_a_larger_demand_k27(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    give_hand(state, 1, "earl_of_kent")
    give_hand(state, 1, "audley")
    RULES.action(state, "P2", "set_order", {"kind": "ransom_answer", "value": 1})
    RULES.action(state, "P1", "ransom", ["grey", 2])
    assert state["cz"][d] == Z_DISC  # refused: executed (K27)


def test_standing_ransom_demand_of_the_captor(tmp_path: Path) -> None:
    """The captor's terms: ask one card for each captive; the owner is then asked (or his
    own order answers)."""
    state2, d = _captive(tmp_path)
    give_hand(state2, 1, "earl_of_kent")
    # the order is set after the capture, while P1 is asked: it answers at once
    RULES.action(state2, "P1", "set_order", {"kind": "ransom_demand", "value": 1})
    assert RULES.active(state2) == ["P2"] and state2["stack"][-1]["step"] == "ransom"
    assert "P1 answers by standing order: ransom Grey, 1." in public_lines(state2)


def test_standing_storm_port_preference(tmp_path: Path) -> None:
    """Storms at Sea: P1 prefers King's Lynn among the equally close ports."""
    from tests.kingmaker.boards import rules_board

    state, ship = _storm_at_h7(tmp_path, board=rules_board(without_refuge=True))
    RULES.action(state, "P1", "set_order", {"kind": "storm_port", "value": ["kings_lynn", "hull"]})
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["spos"][ship] == "kings_lynn"
    assert "P1 answers by standing order: driven into port at King's Lynn." in public_lines(state)


def test_bad_orders_are_refused_and_change_nothing(tmp_path: Path) -> None:
    state = _asking(tmp_path)
    assert "no standing order" in unchanged(state, "P2", "set_order", {"kind": "bribe", "value": 1})
    assert "takes one of" in unchanged(state, "P2", "set_order", {"kind": "permit", "value": "maybe"})
    assert "takes one of" in unchanged(state, "P2", "set_order", {"kind": "ransom_answer", "value": True})
    assert "ports of the board" in unchanged(state, "P2", "set_order", {"kind": "storm_port", "value": ["atlantis"]})
    assert "You have no standing order" in unchanged(state, "P2", "clear_order", "permit")
    unchanged(state, "P2", "set_order", ["permit", "allow"])
    unchanged(state, "umpire", "set_order", {"kind": "permit", "value": "allow"}, Exception)


def test_standing_orders_are_hidden_from_the_other_seats(tmp_path: Path) -> None:
    """Secrets: P2's orders are in his own view and log only; every other seat's view is
    byte for byte the same with or without them; a bot's determinisation for P1 drops them."""
    plain = _asking(sub(tmp_path, "a"))
    ordered = _asking(sub(tmp_path, "b"))
    for kind, value in (("permit:P1", "deny"), ("vote:victory", "no"), ("ransom_answer", 2)):
        RULES.action(ordered, "P2", "set_order", {"kind": kind, "value": value})
    for role in ("P1", "P3", OBSERVER):
        a, b = RULES.view(plain, role), RULES.view(ordered, role)
        assert canonical_json(a) == canonical_json(b), role
        assert "standing_orders" not in a or a["standing_orders"]["orders"] == {}
    mine = RULES.view(ordered, "P2")["standing_orders"]
    assert mine["orders"] == {"permit:P1": "deny", "vote:victory": "no", "ransom_answer": 2}
    assert "permit:P1" not in mine["kinds"] or "permit:P2" not in mine["kinds"]
    assert RULES.determinize(ordered, "P1", 5).get("standing") == {}
    assert RULES.determinize(ordered, "P2", 5)["standing"] == {"P2": mine["orders"]}


def test_determinisation_redraws_the_ballots_of_others(tmp_path: Path) -> None:
    """Ballots are hidden until the result (L366): two games alike for P3 but for P1's ballot
    give P3 the same determinisation."""
    out = []
    for ballot in ("yes", "no"):
        state, w = _session(sub(tmp_path, ballot))
        RULES.action(state, "P3", "propose", "audley")
        RULES.action(state, "P1", "accept")
        RULES.action(state, "P1", "vote", ballot)
        d = RULES.determinize(state, "P3", 11)
        out.append(next(f for f in d["stack"] if f["step"] == "vote")["ballots"])
    assert out[0] == out[1]


def test_random_games_with_standing_orders_keep_every_invariant() -> None:
    """Random play with every seat holding random standing orders (every kind): the answers
    they play are legal (the game never stalls or breaks an invariant), a replay of the action
    log gives the same state, and the answers appear in the log as standing orders."""
    import random

    from roses.engine.game import Game

    answered = 0
    for seed in (2, 5):
        rnd = random.Random(seed)
        game = Game.new(RULES, seed, "campaign", {"players": 4, "rules": "e1", "rounds": 6})
        state = game.state
        for role in state["roles"]:
            kinds = RULES.view(state, role)["standing_orders"]["kinds"]
            for kind, info in kinds.items():
                value = ["hull", "kings_lynn", "bristol"] if kind == "storm_port" else rnd.choice(info["values"])
                if kind == "storm_port":
                    value = [p for p in value if p in W(state).board.ports] or sorted(W(state).board.ports)[:1]
                game.apply(role, "set_order", {"kind": kind, "value": value})
        for _ in range(1500):
            if game.result() is not None:
                break
            role = rnd.choice(game.active())
            verb, arg = rnd.choice(RULES.legal_actions(game.state, role))
            game.apply(role, verb, arg)
            assert RULES.check_invariants(game.state) == []
        answered += sum("by standing order" in line for line in public_lines(game.state))
        again = Game.from_record(RULES, game.record())
        assert canonical_json(again.state) == canonical_json(game.state)
    assert answered > 0
