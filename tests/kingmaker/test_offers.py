"""Kingmaker negotiation: exchanges proposed and answered at any time (offers.py; Transfers,
Alliances, Capture of Noble Counters; rulings K66-K69)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine.errors import IllegalAction
from roses.engine.game import Game
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_HAND, Z_NOBLE, W
from tests.kingmaker.helpers import award, event_on_top, give_hand, put, staged, turn_of
from tests.kingmaker.test_rulings import DECK

MOVE = {"step": "move", "p": 0, "sel": None, "ship": None}


def _log(state: dict[str, Any], role: str) -> str:
    return "\n".join(RULES.log_for(state, role))


def _moving(tmp_path: Path) -> dict[str, Any]:
    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", "A1")
    turn_of(state, 0, dict(MOVE), stage=2)
    return state


def test_exchange_of_cards_at_any_time_seen_only_by_the_two_transfers(tmp_path: Path) -> None:
    """Transfers ("A player may give or trade any unplayed card"): P2, not the player to move,
    proposes; P1 accepts at his own-turn decision; only the two learn which cards passed, and
    the offer was in no third view."""
    state = _moving(tmp_path)
    kent = give_hand(state, 1, "earl_of_kent")
    marshal = give_hand(state, 0, "marshal")
    assert RULES.active(state) == ["P1"]
    RULES.action(state, "P2", "propose_exchange",
                 {"to": "P1", "give": {"cards": ["earl_of_kent"]}, "ask": {"cards": ["marshal"]}})
    assert state["cz"][kent] == Z_HAND and state["ch"][kent] == 1  # binding only when accepted
    p1 = RULES.view(state, "P1")["negotiation"]
    assert [o["id"] for o in p1["offers"]] == [1] and "Earl of Kent" in p1["offers"][0]["text"]
    assert RULES.view(state, "P3")["negotiation"]["offers"] == []
    assert "Kent" not in _log(state, "P3")
    RULES.action(state, "P1", "accept_exchange", 1)
    assert state["ch"][kent] == 0 and state["ch"][marshal] == 1
    assert kent in state["traded"] and marshal in state["traded"]
    assert "Earl of Kent" in _log(state, "P1") and "Marshal" in _log(state, "P2")
    third = _log(state, "P3")
    assert "accepts an offer of P2" in third and "Kent" not in third and "Marshal" not in third
    assert RULES.view(state, "P1")["negotiation"]["offers"] == []
    assert RULES.active(state) == ["P1"]  # the game goes on where it was


def test_alliance_by_exchange_is_public_alliances_1(tmp_path: Path) -> None:
    """Alliances 1: formed at any time and announced ("no secret alliances are allowed")."""
    state = _moving(tmp_path)
    RULES.action(state, "P3", "propose_exchange", {"to": "P1", "ally": True})
    assert "alliance" not in _log(state, "P2")
    RULES.action(state, "P1", "accept_exchange", 1)
    assert state["ally"][0][2] == 1
    assert RULES.view(state, "P2")["negotiation"]["alliances"] == [["P1", "P3"]]
    assert "P3 and P1 are allied" in _log(state, "P2")
    with pytest.raises(IllegalAction, match="already allied"):
        RULES.action(state, "P1", "propose_exchange", {"to": "P3", "ally": True})


def test_ships_are_lent_by_exchange_transfers(tmp_path: Path) -> None:
    """Transfers: "A ship may be loaned to another faction"; the lender's own ships only."""
    state = _moving(tmp_path)
    w = W(state)
    card = award(state, "ship_mary", "percy")
    s = w.ship_of_card[card]
    state["spos"][s] = "H7"
    assert RULES.view(state, "P1")["negotiation"]["standing"]["propose_exchange"]["ships"] == ["ship_mary"]
    with pytest.raises(IllegalAction, match="may not lend"):
        RULES.action(state, "P2", "propose_exchange", {"to": "P1", "give": {"ships": ["ship_mary"]}})
    RULES.action(state, "P1", "propose_exchange", {"to": "P2", "give": {"ships": ["ship_mary"]}})
    RULES.action(state, "P2", "accept_exchange", 1)
    assert state["lent"]["ship_mary"] == [0, 1] and state["sctl"][s] == 1
    assert "P1 lends P2 the" in _log(state, "P3")


def test_ransom_agreed_by_exchange_frees_the_captive_capture_k68(tmp_path: Path) -> None:
    """Capture of Noble Counters: a captive "may be ransomed back ... for some consideration";
    the owner offers cards while the captor disposes of his captives; accepted, the noble is
    free and leaves the captor's queue (ruling K68)."""
    state = staged(tmp_path, deck=DECK)
    put(state, 0, "percy", "C2")
    d = put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["ncap"][d] == 0 and state["stack"][-1]["step"] == "captive"
    kent = give_hand(state, 1, "earl_of_kent")
    with pytest.raises(IllegalAction, match="not your noble"):
        RULES.action(state, "P2", "propose_exchange", {"to": "P3", "ask": {"free": ["grey"]}})
    RULES.action(state, "P2", "propose_exchange", {"to": "P1", "give": {"cards": ["earl_of_kent"]},
                                                   "ask": {"free": ["grey"]}})
    RULES.action(state, "P1", "accept_exchange", 1)
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0
    assert state["ch"][kent] == 0
    assert not any(f["step"] == "captive" for f in state["stack"])
    assert "frees" in _log(state, "P3") and "Kent" not in _log(state, "P3")


def test_captor_asks_cards_of_the_owners_choice_k68(tmp_path: Path) -> None:
    """The captor's terms: k cards the owner picks; he names them when accepting."""
    state = staged(tmp_path, deck=DECK)
    put(state, 0, "percy", "C2")
    d = put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    give_hand(state, 1, "earl_of_kent")
    give_hand(state, 1, "marshal")
    RULES.action(state, "P1", "propose_exchange", {"to": "P2", "give": {"free": ["grey"]}, "ask": {"any": 1}})
    with pytest.raises(IllegalAction, match="Name 1 different card"):
        RULES.action(state, "P2", "accept_exchange", 1)
    RULES.action(state, "P2", "accept_exchange", [1, ["marshal"]])
    assert state["ncap"][d] < 0 and state["ch"][W(state).cid("marshal")] == 0


def test_exchange_waits_for_a_quiet_moment_k66(tmp_path: Path) -> None:
    """Ruling K66: an exchange takes effect only at an own-turn decision or a captor's
    disposal of captives, never while another answer is pending (here a deals offer)."""
    state = _moving(tmp_path)
    give_hand(state, 0, "earl_of_kent")
    give_hand(state, 2, "marshal")
    RULES.action(state, "P3", "propose_exchange", {"to": "P1", "give": {"cards": ["marshal"]}})
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "offer_card", ["earl_of_kent", "P2", "gift"])
    assert RULES.active(state) == ["P2"]
    before = RULES.copy_state(state)
    with pytest.raises(IllegalAction, match="K66"):
        RULES.action(state, "P1", "accept_exchange", 1)
    assert state == before
    RULES.action(state, "P2", "decline")
    RULES.action(state, "P1", "accept_exchange", 1)
    assert state["ch"][W(state).cid("marshal")] == 0


def test_offer_that_became_impossible_is_refused_and_kept_k69(tmp_path: Path) -> None:
    """Ruling K69: accepting an offer the giver can no longer carry out changes nothing; the
    receiver may still decline it."""
    state = _moving(tmp_path)
    kent = give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P2", "propose_exchange", {"to": "P1", "give": {"cards": ["earl_of_kent"]}})
    state["ch"][kent] = 2  # the card has gone elsewhere meanwhile
    with pytest.raises(IllegalAction, match="cannot be carried out now"):
        RULES.action(state, "P1", "accept_exchange", 1)
    assert len(state["offers"]) == 1
    RULES.action(state, "P1", "decline_exchange", 1)
    assert state["offers"] == []
    assert "declines offer 1" in _log(state, "P2") and "offer 1" not in _log(state, "P3")


@pytest.mark.parametrize("arg, match", [
    ({"to": "P2"}, "gives or asks"),
    ({"to": "P1", "ally": True}, "another player"),
    ({"to": "P9", "ally": True}, "another player"),
    ({"to": "P2", "give": {"cards": ["earl_of_kent"]}}, "not in your hand"),
    ({"to": "P2", "give": {"cards": ["no_such"]}}, "no Crown card"),
    ({"to": "P2", "give": {"any": 1}}, "asked, never given"),
    ({"to": "P2", "ask": {"any": 5}}, "holds only"),
    ({"to": "P2", "ask": {"free": ["grey"]}}, "not your noble"),
    ({"to": "P2", "bribe": 1}, "Unknown part"),
    ("P2", "An offer is"),
])
def test_bad_offers_are_refused_and_change_nothing_k67(tmp_path: Path, arg: Any, match: str) -> None:
    """Ruling K67: what an exchange may hold; bad input changes nothing."""
    state = _moving(tmp_path)
    before = RULES.copy_state(state)
    with pytest.raises(IllegalAction, match=match):
        RULES.action(state, "P1", "propose_exchange", arg)
    assert state == before


def test_only_the_parties_answer(tmp_path: Path) -> None:
    state = _moving(tmp_path)
    RULES.action(state, "P1", "propose_exchange", {"to": "P2", "ally": True})
    with pytest.raises(IllegalAction, match="not put to you"):
        RULES.action(state, "P3", "accept_exchange", 1)
    with pytest.raises(IllegalAction, match="not put to you"):
        RULES.action(state, "P1", "decline_exchange", 1)
    with pytest.raises(IllegalAction, match="not yours"):
        RULES.action(state, "P2", "withdraw_exchange", 1)
    RULES.action(state, "P1", "withdraw_exchange", 1)
    assert state["offers"] == []
    with pytest.raises(IllegalAction, match="no pending offer"):
        RULES.action(state, "P2", "accept_exchange", 1)


def test_other_verbs_of_a_waiting_player_are_still_refused(tmp_path: Path) -> None:
    """The standing verbs open no other action out of turn."""
    from roses.engine.errors import NotYourTurn

    state = _moving(tmp_path)
    with pytest.raises(NotYourTurn):
        RULES.action(state, "P2", "deal")


def test_exchanges_replay_from_the_action_log() -> None:
    """The log is the authority: replaying the actions gives the same state; offers are not in
    the legal actions a random player picks."""
    g = Game.new(RULES, 7, "campaign", {"players": 3})
    while g.state["stack"][-1]["step"] in ("arrange", "place"):
        r = g.active()[0]
        g.apply(r, *RULES.legal_actions(g.state, r)[0])
    mover = g.active()[0]
    other = next(r for r in ("P1", "P2", "P3") if r != mover)
    g.apply(other, "propose_exchange", {"to": mover, "ally": True})
    for r in ("P1", "P2", "P3"):
        assert not any(v.endswith("_exchange") for v, _ in RULES.legal_actions(g.state, r))
    assert not g.can_undo(other)  # an offer reveals: binding once made
    g.apply(mover, "accept_exchange", 1)
    assert RULES.view(g.state, "P2")["negotiation"]["alliances"] == [sorted([other, mover])]
    assert g.replay() == g.state  # replay raises on a mismatch


def test_bots_determinisations_drop_other_seats_offers(tmp_path: Path) -> None:
    """A pending offer's terms are the two players' only: a third seat's determinisation (what a
    bot of that seat reasons on) does not hold it; the parties' keep theirs."""
    state = _moving(tmp_path)
    give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P2", "propose_exchange", {"to": "P1", "give": {"cards": ["earl_of_kent"]}})
    assert RULES.determinize(state, "P3", 5)["offers"] == []
    assert [o["id"] for o in RULES.determinize(state, "P1", 5)["offers"]] == [1]


def test_random_exchanges_during_random_play_keep_the_invariants_and_replay() -> None:
    """Exchanges proposed and accepted at random moments of random games (cards of the hand,
    cards of the other's choice, ships, ransoms, alliances): refused where the rules refuse
    them, and otherwise leave a state whose invariants hold and which the action log replays."""
    import contextlib
    import random

    applied = 0
    for seed in (3, 11):
        rnd = random.Random(seed)
        g = Game.new(RULES, seed, "campaign", {"players": 3, "rules": "e1", "rounds": 2})
        roles = ["P1", "P2", "P3"]
        for _ in range(400):
            if g.result() is not None:
                break
            if rnd.random() < 0.3:
                p = rnd.choice(roles)
                q = rnd.choice([r for r in roles if r != p])
                st = RULES.view(g.state, p)["negotiation"]["standing"]["propose_exchange"]
                give = {"cards": rnd.sample(st["cards"], min(len(st["cards"]), rnd.randint(0, 2))),
                        "ships": st["ships"][:rnd.randint(0, 1)], "free": st["free"][:1]}
                arg = {"to": q, "give": give, "ask": {"any": rnd.randint(0, 1)}, "ally": rnd.random() < 0.3}
                with contextlib.suppress(IllegalAction):
                    g.apply(p, "propose_exchange", arg)
            for o in list(g.state.get("offers", [])):
                to = roles[o["to"]]
                hand_ids = [c["id"] for c in RULES.view(g.state, to)["hand"]]
                answer: Any = o["id"] if not o["ask"]["any"] else [o["id"], hand_ids[:o["ask"]["any"]]]
                try:
                    g.apply(to, rnd.choice(["accept_exchange", "accept_exchange", "decline_exchange"]), answer)
                    applied += 1
                except IllegalAction:
                    pass
            assert RULES.check_invariants(g.state) == []
            r = g.active()[0]
            g.apply(r, *rnd.choice(RULES.legal_actions(g.state, r)))
        assert g.replay() == g.state
    assert applied > 0
