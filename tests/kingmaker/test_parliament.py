"""Kingmaker Parliament (campaign rules L327-388; research §7.2 situation 8)."""

from __future__ import annotations

from pathlib import Path

from roses.engine.contract import canonical_json
from roses.games.kingmaker import RULES, parliament
from roses.games.kingmaker.common import E_HAND, Z_AWARD, Z_CHANC, Z_DISC, W
from tests.kingmaker.helpers import award, eid, make_deck, put, staged, take, turn_of


def to_hand(state, e: int, p: int) -> None:
    if e in state["edeck"]:
        state["edeck"].remove(e)
    state["ez"][e], state["eh"][e] = E_HAND, p


def _session(tmp_path: Path):
    """P1: Neville (Chancellor) and Audley, P2: Mowbray and Grey attend at London; P3
    summons; Chancery holds the Earl of Essex."""
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "neville", "B5")
    put(state, 0, "audley", "B5")
    award(state, "chancellor", "neville")
    put(state, 1, "mowbray", "B5")
    put(state, 1, "grey", "B5")
    put(state, 2, "stafford", "A1")
    c = take(state, "earl_of_essex")
    state["cz"][c] = Z_CHANC
    state["chancery"] = [c]
    turn_of(state, 2, {"step": "turn", "stage": 4}, stage=4)
    state["stack"] = [{"step": "turn", "stage": 4}]
    parliament.open_session(state, 2, "london", writs_needed=False)
    RULES.steps.settle(state)
    for role in ("P1", "P2", "P3"):
        RULES.action(state, role, "done")
    return state, w


def test_votes_of_both_houses_l341(tmp_path: Path) -> None:
    """L341-353: Commons count every noble on the board and the Chancellor's 20 (no King);
    Lords count attending nobles only."""
    state, w = _session(tmp_path)
    session = next(f for f in state["stack"] if f["step"] == "session")
    votes = parliament.tally(state, session)
    # P1: Chancellor 20 + Neville 3 Commons; Lords Neville 4 + Audley 1.
    assert votes[0] == (23, 5)
    # P2: Mowbray 2 Commons; Lords Mowbray 4 + Grey 1.
    assert votes[1] == (2, 5)
    # P3: Stafford 1 Commons, not attending: no Lords.
    assert votes[2] == (1, 0)


def test_new_award_does_not_vote_in_the_same_parliament_situation_8(tmp_path: Path) -> None:
    """§7.2 situation 8 / L364: a title awarded in this session gives no vote."""
    state, w = _session(tmp_path)
    session = next(f for f in state["stack"] if f["step"] == "session")
    before = parliament.tally(state, session)[0]
    kent = award(state, "earl_of_kent", "audley")
    state["new_awards"].append(kent)
    assert parliament.tally(state, session)[0] == before
    state["new_awards"].remove(kent)
    assert parliament.tally(state, session)[0][0] == before[0] + 1


def test_tie_in_lords_refuses_and_largest_commons_proposes_next_situation_8(tmp_path: Path) -> None:
    """§7.2 situation 8 (L356-366): Commons for, Lords tied: refused; the largest Commons
    holder proposes next."""
    state, w = _session(tmp_path)
    assert RULES.active(state) == ["P3"]
    assert ("propose", "audley") in RULES.legal_actions(state, "P3")
    RULES.action(state, "P3", "propose", "audley")
    assert RULES.active(state) == ["P1"]          # Audley's player may decline (L368)
    RULES.action(state, "P1", "accept")
    assert sorted(RULES.active(state)) == ["P1", "P2", "P3"]
    RULES.action(state, "P1", "vote", "yes")      # Commons 23, Lords 5
    RULES.action(state, "P2", "vote", "no")       # Commons 2, Lords 5
    RULES.action(state, "P3", "vote", "abstain")
    essex = w.cid("earl_of_essex")
    assert state["cz"][essex] != Z_AWARD
    top = state["stack"][-1]
    assert top["step"] == "propose" and top["p"] == 0  # P1 holds the most Commons votes
    RULES.action(state, "P1", "propose", "audley")
    for role, v in (("P1", "yes"), ("P2", "abstain"), ("P3", "abstain")):
        RULES.action(state, role, "vote", v)
    assert state["cz"][essex] == Z_AWARD and state["ch"][essex] == w.cid("audley")


def test_unallocated_title_goes_to_the_discard_l376(tmp_path: Path) -> None:
    state, w = _session(tmp_path)
    while state["stack"][-1]["step"] == "propose":
        RULES.action(state, RULES.active(state)[0], "pass")
    assert state["cz"][w.cid("earl_of_essex")] == Z_DISC


def test_summon_needs_the_sole_king_or_chancellor_and_a_writ_l329(tmp_path: Path) -> None:
    """L329-335: the Chancellor (no sole King) with a Parliament card and a Writ, standing in
    a town or city, may summon; without the Writ he may not."""
    deck = make_deck({"id": "parl", "kind": "parliament", "level": "basic",
                      "combat": {"ratio": [3, 2], "killed": []}},
                     {"id": "writ", "kind": "writ", "level": "basic"})
    state = staged(tmp_path, deck=deck)
    state["pown"]["london"] = 0
    put(state, 0, "neville", "B5", "london")
    award(state, "chancellor", "neville")
    put(state, 1, "mowbray", "C4")
    to_hand(state, eid(state, "parl"), 0)
    turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
    RULES.steps.settle(state)
    # no Writ: he may only pass, but he is asked (he holds an Event card; ruling K91)
    assert RULES.active(state) == ["P1"] and RULES.legal_actions(state, "P1") == [("pass", None)]
    RULES.action(state, "P1", "pass")
    assert state["stack"][-1]["step"] != "parliament"
    to_hand(state, eid(state, "writ"), 0)
    turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
    assert ("summon", "london") in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "summon", "london")
    RULES.action(state, "P1", "writ", "mowbray")
    assert state["nsq"][W(state).cid("mowbray")] == "B5"


def test_island_noble_summoned_only_with_a_ship_to_the_mainland_l334(tmp_path: Path) -> None:
    """L334: a noble on an island (or in Calais) may be summoned to Parliament only if an empty
    ship of his faction, large enough for him, is there to carry him; it ends its move in a
    friendly or unfortified mainland port (ruling K41: the nearest to the Parliament)."""
    from roses.games.kingmaker.common import Z_ASSET

    deck = make_deck({"id": "parl", "kind": "parliament", "level": "basic",
                      "combat": {"ratio": [3, 2], "killed": []}},
                     {"id": "writ", "kind": "writ", "level": "basic"})
    state = staged(tmp_path, deck=deck)
    w = W(state)
    state["pown"]["london"] = 0
    put(state, 0, "neville", "B5", "london")
    award(state, "chancellor", "neville")
    mowbray = put(state, 1, "mowbray", "H6")  # on the Isle of Wight
    to_hand(state, eid(state, "parl"), 0)
    to_hand(state, eid(state, "writ"), 0)

    def writs() -> list:
        turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
        return parliament.summonable(state, 0, "B5")

    assert mowbray not in writs()  # no ship
    s = next(i for i, piece in enumerate(w.ships) if piece.card >= 0 and piece.capacity >= 50)
    state["cz"][w.ships[s].card], state["ch"][w.ships[s].card] = Z_ASSET, 1
    state["spos"][s] = "carisbrooke"
    assert mowbray not in writs()  # no friendly or unfortified port on the mainland
    state["pown"]["kings_lynn"] = 1
    state["pown"]["hull"] = 1
    assert mowbray in writs()
    RULES.action(state, "P1", "summon", "london")
    RULES.action(state, "P1", "writ", "mowbray")
    assert state["nsq"][mowbray] == "B5"
    assert state["spos"][s] == "hull"  # nearer London than King's Lynn
    assert state["smv"][s] == state["tno"]


def test_island_noble_needs_an_empty_ship_of_his_own_faction_l334(tmp_path: Path) -> None:
    from roses.games.kingmaker.common import Z_ASSET

    state = staged(tmp_path)
    w = W(state)
    mowbray = put(state, 1, "mowbray", "H6")
    s = next(i for i, piece in enumerate(w.ships) if piece.card >= 0)
    state["cz"][w.ships[s].card], state["ch"][w.ships[s].card] = Z_ASSET, 2  # another faction's
    state["spos"][s] = "carisbrooke"
    assert parliament.parliament_ship(state, mowbray) == -1
    state["sctl"][s] = 1  # lent to Mowbray's faction
    assert parliament.parliament_ship(state, mowbray) == s
    grey = put(state, 1, "grey", "H6")
    state["nship"][grey], state["nsq"][grey] = s, None  # someone aboard: not empty
    assert parliament.parliament_ship(state, mowbray) == -1


def test_who_is_asked_to_summon_does_not_tell_who_holds_a_writ_k91(tmp_path: Path) -> None:
    """§Calling Parliament, ruling K91: the Chancellor's player holding a Parliament card is asked
    in his Parliament phase whether he holds a Writ or another Event card, so the other players
    see the same wait (and the same views) either way; without a Writ he may only pass. A player
    with no Event card at all cannot summon, and is not asked."""
    deck = make_deck({"id": "parl", "kind": "parliament", "level": "basic",
                      "combat": {"ratio": [3, 2], "killed": []}},
                     {"id": "writ", "kind": "writ", "level": "basic"},
                     {"id": "other", "kind": "parliament", "level": "basic",
                      "combat": {"ratio": [3, 2], "killed": []}})
    seen = []
    for second in ("writ", "other"):
        state = staged(tmp_path, deck=deck)
        state["pown"]["london"] = 0
        put(state, 0, "neville", "B5", "london")
        award(state, "chancellor", "neville")
        put(state, 1, "mowbray", "C4")
        to_hand(state, eid(state, "parl"), 0)
        to_hand(state, eid(state, second), 0)
        to_hand(state, eid(state, "other" if second == "writ" else "writ"), 2)  # the same zones in both runs
        turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
        RULES.steps.settle(state)
        assert RULES.active(state) == ["P1"]
        summons = [a for a in RULES.legal_actions(state, "P1") if a[0] == "summon"]
        assert bool(summons) == (second == "writ")
        seen.append((RULES.active(state), canonical_json(RULES.view(state, "P2"))))
    assert seen[0] == seen[1]  # P2 cannot tell the Writ from the other card
    state = staged(tmp_path, deck=deck)
    put(state, 0, "neville", "B5", "london")
    award(state, "chancellor", "neville")
    turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
    RULES.steps.settle(state)
    assert state["stack"][-1]["step"] != "parliament"  # no Event card: nothing to ask
