"""The Wars of the Roses grand scenario (6.0 "Wars and Respite", 6.1-6.3): three Wars linked
by the Heirs who survive them.

The game is one state from War I to the end of War III. ``state["war"]`` names the War being
played: ``"I"`` (set up as Scenario Ia, 6.3 War I), then ``"IIY"`` or ``"IIL"`` as the Yorkists
or the Lancastrians won War I, then ``"IIIY"`` or ``"IIIL"`` as they won War II (6.1.2).
``state["wars"]`` is the record that runs through the Wars (built by :func:`setup.new_war_record`
for each War, its history carried over):

``winners``
    ``{"I": side, "II": side, "III": side}``.
``removed``
    every Heir removed (6.2.2 REMOVE): ``{"side", "rank", "lord", "war", "by"}`` where ``by`` is
    ``"play"`` (Death 4.4.3 or Shipwreck 4.8.2), ``"natural_causes"`` (6.3 IIY/IIL) or
    ``"setup"`` (a War III setup removes him). An Heir is a rank of 6.2.1: March and Edward IV
    are one Heir (#2), Gloucester (1), (2) and Richard III another (#4).
``heir_lords``
    the Lord cards that stand for this War's Heirs not yet removed (in play or still to
    arrive), with their ranks.
``war_heirs``
    per side, the ranks whose removal loses this War (War Victory; War I: its Automatic War
    Victory lists).
``designated``
    the sides whose Warwick is an Heir (6.2.1 "perhaps, in the third War only").
``pending``
    Heirs removed during a Battle or a Disembark whose Succession is applied when it is over.
``cards``
    the Arts of War cards the present Heirs brought in the second War (6.2.2 ARTS OF WAR).
``y28``
    whether the Event Y28 Gloucester as Heir was resolved in the second War (6.3 IIY/IIL: the
    card is then set aside, which the end of the second War reads).

Heir removals are found by :func:`watch`, which runs after every action and before every
automatic step (:func:`common.immediate_victory`): an Heir leaves play only by Death or
Shipwreck (his cylinder ``"removed"``, :func:`services.remove_lord`), and the moment one is
found the War Victory and the Dynastic Victory are checked (6.0). His Succession (6.2.2) waits
until the Battle or the Disembark that removed him is over, so that the Battle's remaining
Death checks and the other Lords at Sea keep their Lords (RULINGS R61). The end of a War
(:func:`end_war`, called by :func:`common.end_game`) records the winner, rolls Natural Causes
after the second War, and sets up the next War (:func:`war_setup`), or ends the game.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from roses.engine import rng
from roses.engine.contract import DRAW, State, mark_reveal
from roses.engine.log import RESULT, SETUP, public
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import SIDES, load
from roses.games.plantagenet.records import IN_PLAY, Where
from roses.games.plantagenet.setup import (
    card_order,
    other,
    replace_in_place,
    scenario_data,
    setup_state,
    special_rules,
    threshold,
    war_data,
)

#: The Wars by setup, and the number of each (6.1.2).
WARS: Final = ("I", "IIY", "IIL", "IIIY", "IIIL")
NUMBER: Final = {"I": "I", "IIY": "II", "IIL": "II", "IIIY": "III", "IIIL": "III"}
#: The scenario of the Wars of the Roses.
SCENARIO: Final = "wars-of-the-roses"

#: 6.2.1: each side's Heirs by rank; Warwick (York #5, Lancaster #6) only once designated in
#: the third War. Henry Tudor (Lancaster #5) never leaves play before the third War.
HEIR_RANKS: Final = {"York": (1, 2, 3, 4), "Lancaster": (1, 2, 3, 4, 5)}
WARWICK_RANK: Final = {"York": 5, "Lancaster": 6}
HEIR_NAMES: Final = {
    "York": {1: "York", 2: "March / Edward IV", 3: "Rutland", 4: "Gloucester / Richard III", 5: "Warwick"},
    "Lancaster": {1: "Henry VI", 2: "Margaret (Edward)", 3: "Somerset (1)", 4: "Somerset (2)", 5: "Henry Tudor",
                  6: "Warwick"},
}

#: 6.3 War I Lancastrian Succession: Margaret's Capability.
EDWARD: Final = "L26"
#: 6.3 IIY/IIL Gloucester.
GLOUCESTER_AS_HEIR: Final = "Y28"
#: 6.3 IIIY/IIIL Influence Track: each Heir removed in an earlier War costs his side 8 points.
HEIR_CHARGE: Final = 8
#: 6.3 IIY/IIL Natural Causes: two dice for Henry VI and York, one for Edward IV (IIY only).
NATURAL_CAUSES_EDWARD_IV: Final = 6

# ----- the cards each Heir brings (6.2.2 ARTS OF WAR) ------------------------------------------
#: 6.3 IIY Yorkist Succession, by the rank of the King: York (as long as he is present: he is
#: then King), Edward IV, Rutland while King, Richard III.
IIY_YORK_KING: Final = {1: ("Y14", "Y18", "Y19", "Y20"), 2: ("Y23", "Y24", "Y28", "Y31"),
                 3: ("Y20", "Y21", "Y28", "Y35"), 4: ("Y32", "Y33", "Y34", "Y35")}
#: 6.3 IIY Lancastrian Succession, by the highest Heir present: Henry VI (as long as he is
#: present), Margaret (when present: she arrives only once Henry VI is gone), a Somerset.
IIY_LANCASTER_HIGHEST: Final = {1: ("L17", "L18", "L20", "L21"), 2: ("L27", "L28", "L31"),
                         3: ("L20", "L21", "L27"), 4: ("L20", "L21", "L27")}
#: 6.3 IIL Lancastrian Succession, by the King: Henry VI, Margaret (Edward), Somerset.
IIL_LANCASTER_KING: Final = {1: ("L15", "L17"), 2: ("L27", "L31"), 3: ("L16", "L27"), 4: ("L16", "L27")}
#: 6.3 IIL Yorkist Succession, by the highest Heir present: York, March or Rutland, Gloucester.
IIL_YORK_HIGHEST: Final = {1: ("Y14", "Y20"), 2: ("Y20", "Y21"), 3: ("Y20", "Y21"), 4: ("Y25", "Y30")}
#: Which table gives each side's cards in the second War.
SECOND_WAR_CARDS: Final[dict[str, dict[str, Any]]] = {"IIY": {"York": IIY_YORK_KING, "Lancaster": IIY_LANCASTER_HIGHEST},
                    "IIL": {"York": IIL_YORK_HIGHEST, "Lancaster": IIL_LANCASTER_KING}}

#: The keys of the state that run through the Wars; a new War's setup rebuilds all others.
PERSISTENT: Final = ("game", "scenario", "options", "roles", "log", "rng", "rolls", "rigged", "reveals", "heirs_removed")


# ----- reading the record --------------------------------------------------------------------------
def in_wars(state: State) -> bool:
    return state.get("wars") is not None


def number(state: State) -> str:
    """The number of the War being played: "I", "II" or "III"."""
    return NUMBER[state["war"]]


def rank_of(state: State, lord: str) -> int | None:
    """The Heir rank ``lord`` stands for in this War (6.2.1), None if he is no Heir of it."""
    r = state["wars"]["heir_lords"].get(lord)
    return None if r is None else int(r)


def removed_ranks(state: State, side: str) -> set[int]:
    """The ranks of ``side``'s Heirs removed so far (in any War)."""
    return {int(r["rank"]) for r in state["wars"]["removed"] if r["side"] == side}


def remains(state: State, side: str, rank: int) -> bool:
    """Whether the Heir of ``rank`` has not been removed (6.2.2 REMOVE: never to return)."""
    return rank not in removed_ranks(state, side)


def present(state: State, side: str) -> dict[str, int]:
    """``side``'s Heirs of this War in play now (map, Calendar, Sea, Battle), by Lord."""
    lords = state["lords"]
    return {lid: int(r) for lid, r in state["wars"]["heir_lords"].items()
            if sv.side_of(lid) == side and lords[lid]["where"] in IN_PLAY}


def highest(state: State, side: str) -> tuple[str, int] | None:
    """The highest-ranked Heir of ``side`` present in the War (6.2.1: for the King's side, the
    King), as (Lord, rank)."""
    here = present(state, side)
    if not here:
        return None
    lid = min(here, key=lambda x: (here[x], x))
    return lid, here[lid]


def last_heir(state: State, side: str, lord: str) -> bool:
    """6.1.1: ``lord`` is ``side``'s last Heir still present in this War: the only one not yet
    removed among those whose removal loses the War (RULINGS R63)."""
    rank = rank_of(state, lord)
    if rank is None:
        return False
    left = set(state["wars"]["war_heirs"][side]) - removed_ranks(state, side)
    return left == {rank}


def surrender_possible(state: State, side: str, lord: str) -> bool:
    """6.1.1 Surrender: in the first or second War, just before ``side``'s last Heir rolls for
    Death in a Battle (4.4.3; not a Disembark roll) the side may concede the War."""
    return in_wars(state) and number(state) in ("I", "II") and last_heir(state, side, lord)


def heir_name(side: str, rank: int) -> str:
    return HEIR_NAMES[side][rank]


def lord_name(lord: str) -> str:
    return str(load().lords[lord]["name"])


# ----- Arts of War cards (6.2.2 ARTS OF WAR) --------------------------------------------------------
def remove_card(state: State, card: str) -> None:
    """Remove ``card`` from play "wherever" it is: deck, drawn, held, in effect, set aside,
    a mat's Capabilities (its Special Vassal leaves too) or Events, a Battle's Events."""
    c = load()
    side = c.cards[card]["side"]
    zones = state["aow"][side]
    for zone in ("deck", "drawn", "held", "in_effect", "set_aside"):
        if card in zones[zone]:
            zones[zone].remove(card)
    for d in state["lords"].values():
        mat = d["mat"]
        if not mat:
            continue
        if card in mat["capabilities"]:
            mat["capabilities"].remove(card)
            spv = c.cards[card]["capability"].get("special_vassal")
            if spv and spv in mat["special_vassals"]:
                mat["special_vassals"].remove(spv)
                state["special_vassals"][spv] = None
        if card in mat["events"]:
            mat["events"].remove(card)
    b = state.get("battle")
    if b and card in b.get("events", ()):
        b["events"].remove(card)
    if card in zones["in_game"]:
        zones["in_game"].remove(card)


def add_card(state: State, card: str) -> None:
    """Add ``card`` to its side's deck (a card already in play stays where it is)."""
    side = load().cards[card]["side"]
    zones = state["aow"][side]
    if card in zones["in_game"]:
        return
    zones["in_game"].append(card)
    zones["deck"].append(card)
    zones["deck"].sort(key=card_order)


def change_cards(state: State, side: str, new: list[str]) -> None:
    """Replace the cards ``side``'s Heirs bring by ``new``: those no longer brought leave play,
    the new ones join the deck, and "cards repeated from one Lord to the next stay where they
    are" (6.2.2 ARTS OF WAR, e.g. Y20 in War IIL)."""
    w = state["wars"]
    old = list(w["cards"][side])
    gone = [cid for cid in old if cid not in new]
    added = [cid for cid in new if cid not in old]
    for cid in gone:
        remove_card(state, cid)
    for cid in added:
        add_card(state, cid)
    w["cards"][side] = sorted(new, key=card_order)
    if gone or added:
        public(state, f"Succession (6.2.2): {side} Arts of War cards"
                      + (f" removed from play: {', '.join(gone)}" if gone else "")
                      + (";" if gone and added else "")
                      + (f" added to the deck: {', '.join(added)}" if added else "") + ".", SETUP)


def second_war_cards(state: State, side: str) -> list[str]:
    """The cards ``side``'s present Heirs bring in the second War (6.3 IIY, IIL)."""
    top = highest(state, side)
    if top is None:
        return []
    table: dict[int, tuple[str, ...]] = SECOND_WAR_CARDS[state["war"]][side]
    return sorted(table[top[1]], key=card_order)


# ----- Margaret's Edward (6.3 War I Lancastrian Succession) -----------------------------------------
def on_muster(state: State, lord: str) -> None:
    """6.3 War I (and the later Wars that refer to it): "Muster of Margaret immediately assigns
    Arts of War card L26 Edward to her mat as a free, mandatory Capability", with its Special
    Vassal; the card comes back from where it was set aside when she Musters anew."""
    if lord != "margaret" or "margaret_edward" not in state["special_rules"]:
        return
    mat = state["lords"][lord]["mat"]
    zones = state["aow"]["Lancaster"]
    if mat is None or EDWARD in mat["capabilities"]:
        return
    for zone in ("set_aside", "deck"):
        if EDWARD in zones[zone]:
            zones[zone].remove(EDWARD)
            break
    else:
        if EDWARD in zones["in_game"]:  # somewhere else in play (never in the Wars' decks): leave it
            return
        zones["in_game"].append(EDWARD)
    mat["capabilities"].append(EDWARD)
    spv = load().cards[EDWARD]["capability"].get("special_vassal")
    if spv and state["special_vassals"].get(spv) is None:
        state["special_vassals"][spv] = lord
        mat["special_vassals"].append(spv)
    public(state, "Margaret Musters with L26 Edward (Prince of Wales) as a free Capability (6.3 War I).", SETUP)


# ----- the watch: Heirs removed, victories (6.0), Succession (6.2.2) ---------------------------------
def watch(state: State) -> bool:
    """After every action and before every automatic step: record the Heirs found removed,
    end the War or the game if that decides it (6.0 War and Dynastic Victory: "immediately"),
    and apply pending Successions once no Battle or Disembark is under way. Whether it
    changed the state (the views' kept parts: ``Steps.changed``)."""
    w = state["wars"]
    lords = state["lords"]
    gone = [lid for lid in w["heir_lords"] if lords[lid]["where"] == Where.REMOVED]
    if gone:
        for lid in sorted(gone, key=lambda x: (sv.side_of(x), w["heir_lords"][x])):
            at = state["battle"]["locale"] if state.get("battle") else None
            rec = record_removal(state, lid, "play")
            w["pending"].append({**rec, "at": at})
        if decide(state):
            return True
    if w["pending"] and quiet(state):
        todo, w["pending"] = w["pending"], []
        for rec in todo:
            succeed(state, rec)
        return True
    return bool(gone)


def record_removal(state: State, lord: str, by: str) -> dict[str, Any]:
    """6.2.2 REMOVE: the Heir ``lord`` stands for is out for good (every Lord card of that
    rank, e.g. March with Edward IV, leaves this War's Heirs). Returns the record."""
    w = state["wars"]
    side = sv.side_of(lord)
    rank = int(w["heir_lords"][lord])
    for lid in [x for x, r in w["heir_lords"].items() if r == rank and sv.side_of(x) == side]:
        del w["heir_lords"][lid]
    rec = {"side": side, "rank": rank, "lord": lord, "war": number(state), "by": by}
    w["removed"].append(rec)
    if lord not in state["heirs_removed"]:
        state["heirs_removed"].append(lord)
    return rec


def quiet(state: State) -> bool:
    """No Battle and no Disembark under way (RULINGS R61). Every Turn's Campaign queues its
    Disembark frame at the start; it is under way only once it has listed the Lords at Sea
    (its ``todo``) or while one of them lands."""
    return state.get("battle") is None and not any(
        f["step"] == "land" or (f["step"] == "disembark" and f.get("todo") is not None) for f in state["stack"])


def dynastic_loser(state: State) -> str | None:
    """6.0 Dynastic Victory: the side whose entire list of Heirs (6.2.1, Warwick included once
    designated) is removed loses the Wars of the Roses."""
    w = state["wars"]
    for side in (state["rebel"], state["king"]):
        ranks = set(HEIR_RANKS[side]) | ({WARWICK_RANK[side]} if side in w["designated"] else set())
        if ranks <= removed_ranks(state, side):
            return side
    return None


def decide(state: State) -> bool:
    """Check the Dynastic and the War Victory after Heirs were removed; True if the War (or the
    game) ended."""
    winner = sv.war_lost_by_heirs(state)
    loser = dynastic_loser(state)
    if loser is not None and number(state) != "III":  # in the third War losing it is losing all
        finish(state, other(loser), f"Dynastic Victory (6.0): every {loser} Heir has been removed; "
                                    f"{other(loser)} wins the Wars of the Roses.")
        state["wars"]["dynastic"] = True
        return True
    if winner is not None:
        end_war(state, winner, f"War Victory (6.0): every {other(winner)} Heir listed for War {number(state)} "
                               f"has been removed.")
        return True
    return False


def succeed(state: State, rec: dict[str, Any]) -> None:
    """6.2.2 Succession for the removed Heir ``rec`` under this War's special rules (6.3)."""
    war = state["war"]
    if war == "I":
        succession_war_i(state, rec)
    elif war == "IIY":
        succession_iiy(state, rec)
    elif war == "IIL":
        succession_iil(state, rec)
    # War III: "Heir removal affects only setup, not play" (6.3 IIIY, IIIL).
    if war in SECOND_WAR_CARDS:
        for side in SIDES:
            change_cards(state, side, second_war_cards(state, side))


def add_next_box(state: State, lord: str, why: str) -> None:
    """6.2.2 ADD, TO CALENDAR: during play a new arrival goes to the next Turn's box."""
    sv.add_lord(state, lord, box=state["box"] + 1)
    public(state, f"Succession (6.2.2): {lord_name(lord)} is added to the Calendar, box {state['box'] + 1} ({why}).",
           SETUP)


def waiting(state: State, lord: str) -> bool:
    """``lord`` is an Heir of this War not yet in play (still to arrive by Succession)."""
    d = state["lords"].get(lord)
    return d is not None and d["where"] == Where.UNUSED and lord in state["wars"]["heir_lords"]


def replace_heir(state: State, old: str, new: str, why: str) -> None:
    """6.2.2 REPLACE in place: ``new`` takes ``old``'s card, mat, cylinder, Seat and Command
    cards where they are; he stands for the same Heir."""
    w = state["wars"]
    rank = w["heir_lords"].pop(old)
    replace_in_place(state, old, new)
    w["heir_lords"][new] = rank
    public(state, f"Succession (6.2.2): {lord_name(new)} replaces {lord_name(old)} in place ({why}).", SETUP)


def succession_war_i(state: State, rec: dict[str, Any]) -> None:
    """6.3 War I Lancastrian Succession (its data: ``scenarios.json``): removal of Henry VI adds
    Margaret to the next box, removes L15 and L17 from play and adds L27 and L31; removal of
    Somerset (1) adds Somerset (2) to the next box. No Yorkist is added or replaced."""
    for entry in scenario_data()[SCENARIO]["succession"]:
        if entry.get("on_removal_of") != rec["lord"]:
            continue
        new = entry["add_to_next_box"]
        if waiting(state, new):
            add_next_box(state, new, f"6.3 War I: {lord_name(rec['lord'])} removed")
        for cid in entry["aow_remove"]:
            remove_card(state, cid)
        for cid in entry["aow_add"]:
            add_card(state, cid)
        if entry["aow_remove"] or entry["aow_add"]:
            public(state, f"Succession (6.3 War I): Lancastrian cards {', '.join(entry['aow_remove'])} leave play, "
                          f"{', '.join(entry['aow_add'])} join the deck.", SETUP)


def succession_iiy(state: State, rec: dict[str, Any]) -> None:
    """6.3 IIY Succession during play. Yorkists: the highest Heir who remains is King; March
    becoming King is replaced in place by Edward IV, Gloucester by Richard III; as soon as two
    or fewer of the four Heirs remain, Pembroke is added to the next box. Lancastrians: removal
    of Henry VI adds Margaret to the next box (no Exile), of Somerset (1) Somerset (2)."""
    if rec["side"] == "York":
        top = highest(state, "York")
        if top is not None:
            lid, rank = top
            if lid == "march" and waiting(state, "edward_iv"):
                replace_heir(state, "march", "edward_iv", "6.3 IIY: March becomes King")
            elif lid in ("gloucester_1", "gloucester_2") and waiting(state, "richard_iii"):
                replace_heir(state, lid, "richard_iii", "6.3 IIY: Gloucester becomes King")
        left = [r for r in (1, 2, 3, 4) if remains(state, "York", r)]
        pembroke = state["lords"].get("pembroke")
        if len(left) <= 2 and pembroke is not None and pembroke["where"] == Where.UNUSED:
            add_next_box(state, "pembroke", "6.3 IIY: two or fewer Yorkist Heirs remain")
    else:
        if rec["rank"] == 1 and waiting(state, "margaret"):
            add_next_box(state, "margaret", "6.3 IIY: Henry VI removed")
        if rec["rank"] == 3 and waiting(state, "somerset_2"):
            add_next_box(state, "somerset_2", "6.3 IIY: Somerset (1) removed")


def succession_iil(state: State, rec: dict[str, Any]) -> None:
    """6.3 IIL Lancastrian Succession during play: removal of Henry VI adds Margaret to the next
    box; "any removal of Somerset (1) ... replaces Somerset (1) with Somerset (2) in place":
    Somerset (2) takes the place where Somerset (1) fell, Mustered with a fresh mat, if no
    Enemy Lord holds it, otherwise he goes to the next box (RULINGS R64). The Yorkists only
    change cards."""
    if rec["side"] != "Lancaster":
        return
    if rec["rank"] == 1 and waiting(state, "margaret"):
        add_next_box(state, "margaret", "6.3 IIL: Henry VI removed")
    if rec["rank"] == 3 and waiting(state, "somerset_2"):
        at = rec.get("at")
        c = load()
        if at is not None and c.locales[at]["kind"] in ("stronghold", "exile") \
                and not sv.enemy_lords_at(state, at, "Lancaster") \
                and (c.locales[at]["kind"] != "exile" or state["exile_boxes"].get(at) == "Lancaster"):
            sv.add_lord(state, "somerset_2", locale=at)
            on_muster(state, "somerset_2")
            public(state, f"Succession (6.2.2): Somerset (2) replaces Somerset (1) in place at {at}, Mustered "
                          "(6.3 IIL).", SETUP)
        else:
            add_next_box(state, "somerset_2", "6.3 IIL: Somerset (1) removed, his place is not free")


# ----- Surrender (6.1.1) ------------------------------------------------------------------------------
def surrender(state: State, side: str, lord: str) -> None:
    """6.1.1: ``side`` concedes the War as the loser just before its last Heir ``lord`` rolls
    for Death; he does not roll (so as to proceed to Renewed War, 6.1.2)."""
    state["wars"].setdefault("surrenders", []).append({"war": number(state), "side": side})
    end_war(state, other(side), f"Surrender (6.1.1): {side} concedes War {number(state)} before "
                                f"{lord_name(lord)}, its last Heir, rolls for Death.")


# ----- the end of a War (6.1, 6.1.2) and of the game ---------------------------------------------------
def finish(state: State, winner: str, reason: str) -> None:
    """The game is over: ``winner`` wins the Wars of the Roses."""
    public(state, reason, RESULT)
    public(state, f"{winner} wins the Wars of the Roses.", RESULT)
    state["result"] = winner
    state["stack"] = []


def end_war(state: State, res: str, reason: str | None = None) -> None:
    """A War is over with the result ``res`` (a side, or a draw): record it and go to Respite
    and War (6.1): Natural Causes after the second War, then the next War's setup (6.1.2);
    after the third War the winner wins the Wars of the Roses (6.0 Final Victory). A drawn War
    goes to the King's side (E FAQ #5; RULINGS R60)."""
    w = state["wars"]
    n = number(state)
    public(state, reason or how_won(state, res), RESULT)
    winner = res
    if res == DRAW:
        winner = state["king"]
        public(state, f"Neither side wins War {n} outright: it goes to the King's side, {winner} (RULINGS R60).",
               RESULT)
    w["winners"][n] = winner
    public(state, f"War {n} ends: {winner} wins the War (6.1).", RESULT)
    if n == "III":
        finish(state, winner, f"Final Victory (6.0): {winner} won the third War.")
        return
    if n == "II":
        # 6.3 IIY/IIL Gloucester: Y28, once resolved, was set aside "for reference in setup of
        # the next War" (by the card rules, cards.end_levy_cards).
        w["y28"] = bool(w["y28"]) or GLOUCESTER_AS_HEIR in state["aow"]["York"]["set_aside"]
        natural_causes(state)
        loser = dynastic_loser(state)
        if loser is not None:
            state["wars"]["dynastic"] = True
            finish(state, other(loser), f"Dynastic Victory (6.0): every {loser} Heir has been removed; "
                                        f"{other(loser)} wins the Wars of the Roses.")
            return
    nxt = ("IIY" if winner == "York" else "IIL") if n == "I" else ("IIIY" if winner == "York" else "IIIL")
    start_war(state, nxt)


def how_won(state: State, res: str) -> str:
    """Why the War ended at its Victory check (4.8.3) with ``res``."""
    if sv.campaign_victory(state) is not None:
        return "Campaign Victory (5.1): " + ("neither side has Lords left." if res == DRAW
                                             else f"{other(res)} has no Lords on the map and none to come next Turn.")
    t = threshold(state)
    if res != DRAW and t is not None and sv.influence_of(state, res) >= t:
        return f"Threshold Victory (5.2): {res} has {sv.influence_of(state, res)} Influence, at least {t}."
    return ("The War's last Turn is over: the side with more Influence wins it, the King's side on a tie "
            "(5.3, E FAQ #5).")


def natural_causes(state: State) -> None:
    """6.3 IIY/IIL Natural Causes: "After victory in this War, roll two dice each for Henry VI
    and York, if still present - a roll less than the last Turn played removes that Heir. Then
    roll one die for Edward IV (only, not March) - remove him on a roll of 6" (IIY only)."""
    last = int(state["box"])
    for side, rank, lord in (("Lancaster", 1, "henry_vi"), ("York", 1, "york")):
        if lord not in state["wars"]["heir_lords"] or not remains(state, side, rank):
            continue
        a, b = rng.roll(state), rng.roll(state)
        if a + b < last:
            record_removal(state, lord, "natural_causes")
            public(state, f"Natural Causes (6.3): {lord_name(lord)} rolls {a}+{b} = {a + b}, less than {last}, the "
                          "last Turn played: he is removed.", RESULT)
        else:
            public(state, f"Natural Causes (6.3): {lord_name(lord)} rolls {a}+{b} = {a + b}, not less than {last}: "
                          "he lives on.", RESULT)
    e = state["lords"].get("edward_iv")
    if state["war"] == "IIY" and e is not None and e["where"] in IN_PLAY and "edward_iv" in state["wars"]["heir_lords"]:
        r = rng.roll(state)
        if r == NATURAL_CAUSES_EDWARD_IV:
            record_removal(state, "edward_iv", "natural_causes")
            public(state, f"Natural Causes (6.3): Edward IV rolls {r}: he is removed.", RESULT)
        else:
            public(state, f"Natural Causes (6.3): Edward IV rolls {r}: he lives on.", RESULT)


def start_war(state: State, war: str) -> None:
    """6.1.2 Renewed War: set up ``war`` from the Heirs who remain (and, for the third War,
    whether Y28 was resolved), keeping the game's log, generator and record; then play begins
    with its first Levy."""
    w = state["wars"]
    d = war_setup(war, w)
    fresh = setup_state(0, state["scenario"], state["options"], data=d)
    for key in PERSISTENT:
        if key in state:
            fresh[key] = state[key]
    record = fresh["wars"]
    for key in ("winners", "removed", "y28", "surrenders", "dynastic"):
        if key in w:
            record[key] = w[key]
    record["removed"] = list(w["removed"]) + [dict(r, war=NUMBER[war]) for r in d.get("removed_at_setup", [])]
    state.clear()
    state.update(fresh)
    state["stack"] = [{"step": "calendar"}]
    public(state, f"Renewed War (6.1.2): {d['name']}. {d['king']} is the King's side, {other(d['king'])} the "
                  f"Rebels; play runs from box {d['first_box']} to box {d['last_box']}.", SETUP)
    for line in d["setup_notes"]:
        public(state, line, SETUP)
    charge = d.get("heir_charge")
    if charge:
        for side, n in charge.items():
            if n:
                sv.lose_influence(state, side, HEIR_CHARGE * n)
                public(state, f"{side} loses {HEIR_CHARGE * n} Influence: {n} Heir(s) removed in earlier Wars "
                              "(6.3 Influence Track).", SETUP)
    mark_reveal(state)  # a new War: nothing before it may be undone
    decide(state)  # a side whose Heirs of this War were all removed before it loses it at once (6.0)


# ----- the War setups (6.3) ------------------------------------------------------------------------------
def war_setup(war: str, w: dict[str, Any]) -> dict[str, Any]:
    """The setup data of ``war`` (the fields of ``scenarios.json`` entries, for
    :func:`setup.setup_state`) from the record ``w`` of the earlier Wars, plus ``heirs`` (the
    Lord cards of this War's Heirs, placed or still to arrive), ``war_heirs``, ``heir_cards``,
    ``heir_ranks`` (a card standing for another rank), ``designated``, ``removed_at_setup``,
    ``heir_charge`` and ``setup_notes`` (the log lines telling what Succession did)."""
    gone = {side: {int(r["rank"]) for r in w["removed"] if r["side"] == side} for side in SIDES}
    alive = {side: [r for r in HEIR_RANKS[side][:4] if r not in gone[side]] for side in SIDES}
    builder = {"IIY": setup_iiy, "IIL": setup_iil, "IIIY": setup_iiiy, "IIIL": setup_iiil}[war]
    d = copy.deepcopy(war_data()[war])
    d.update(lords={"York": [], "Lancaster": []}, mustered={}, calendar={}, capabilities={},
             heirs={"York": [], "Lancaster": []}, heir_cards={"York": [], "Lancaster": []}, heir_ranks={},
             designated=[], removed_at_setup=[], setup_notes=[], heir_charge={}, war_heirs={})
    d.setdefault("favour", {"York": [], "Lancaster": []})
    builder(d, alive, w)
    for side in SIDES:
        d["heir_cards"][side] = sorted(set(d["heir_cards"][side]), key=card_order)
        if d["heir_cards"][side]:
            d["setup_notes"].append(f"{side} Heirs bring Arts of War cards {', '.join(d['heir_cards'][side])} (6.3).")
    removed_heirs = [r["rank"] for r in d["removed_at_setup"]]
    if removed_heirs:
        d["setup_notes"].append("Heirs removed by this War's setup (6.3): " + ", ".join(
            heir_name(r["side"], r["rank"]) for r in d["removed_at_setup"]) + ".")
    return d


def _place(d: dict[str, Any], lord: str, *, at: str | None = None, box: int | None = None, exile: bool = False,
           heir: bool = False, waiting_heir: bool = False) -> None:
    """Put a Lord of the War in the setup data: Mustered at ``at``, on the Calendar in ``box``,
    or neither (a Lord card of the War still to arrive)."""
    side = load().lords[lord]["side"]
    d["lords"][side].append(lord)
    if at is not None:
        d["mustered"][lord] = at
    elif box is not None:
        d["calendar"][lord] = [box, exile]
    if heir or waiting_heir:
        d["heirs"][side].append(lord)


def _note(d: dict[str, Any], text: str) -> None:
    d["setup_notes"].append(text)


def setup_iiy(d: dict[str, Any], alive: dict[str, list[int]], w: dict[str, Any]) -> None:
    """6.3 IIY The Kingmaker: Scenario II's setup (page 24) without its Yorkist Lords and Seats,
    then Succession: the highest Yorkist Heir is King at London (York with March at Ludlow,
    or Edward IV, or Rutland), Rutland at Canterbury with its Favour unless King, Devon box 1,
    Gloucester (1) and Northumberland (1) box 9, Pembroke at Pembroke if two or fewer Heirs
    remain; a surviving Henry VI replaces Margaret in box 9 (Exile), a surviving Somerset (1)
    replaces Somerset (2)."""
    y, lan = alive["York"], alive["Lancaster"]
    # Lancastrians as in Scenario II, with Henry VI and Somerset (1) if they survived War I.
    _place(d, "warwick_l", at="Calais")
    _place(d, "clarence", at="York")
    _place(d, "jasper_tudor_1", at="Harlech")
    if 1 in lan:
        _place(d, "henry_vi", box=9, exile=True, heir=True)
        if 2 in lan:
            _place(d, "margaret", waiting_heir=True)
        _note(d, "Henry VI survived the first War: he takes Margaret's place in box 9, in Exile (6.3 IIY).")
    elif 2 in lan:
        _place(d, "margaret", box=9, exile=True, heir=True)
    if 3 in lan:
        _place(d, "somerset_1", box=9, exile=True, heir=True)
        if 4 in lan:
            _place(d, "somerset_2", waiting_heir=True)
        _note(d, "Somerset (1) survived the first War: he takes Somerset (2)'s place in box 9, in Exile (6.3 IIY).")
    elif 4 in lan:
        _place(d, "somerset_2", box=9, exile=True, heir=True)
    _place(d, "oxford", box=9, exile=True)
    _place(d, "exeter_2", box=9, exile=True)
    # Yorkists: Succession finds the King (6.2.1).
    king = y[0]
    if 1 in y:
        _place(d, "york", at="London", heir=True)
        if 2 in y:
            _place(d, "march", at="Ludlow", heir=True)
            _place(d, "edward_iv", waiting_heir=True)
        _note(d, "York is King, Mustered at London (6.3 IIY).")
    elif 2 in y:
        _place(d, "edward_iv", at="London", heir=True)
        _note(d, "York was removed: Edward IV is King, Mustered at London (6.3 IIY).")
    if 3 in y:
        if king == 3:
            _place(d, "rutland", at="London", heir=True)
            _note(d, "York and March were removed: Rutland is King, Mustered at London (6.3 IIY).")
        else:
            _place(d, "rutland", at="Canterbury", heir=True)
            d["favour"]["York"].append("Canterbury")
    _place(d, "devon", box=1)
    _place(d, "gloucester_1", box=9, heir=True)
    _place(d, "richard_iii", waiting_heir=True)
    _place(d, "northumberland_y1", box=9)
    if len(y) <= 2:
        _place(d, "pembroke", at="Pembroke")
        _note(d, "Two or fewer Yorkist Heirs remain: Pembroke is added, Mustered at Pembroke (6.3 IIY).")
    else:
        _place(d, "pembroke")
    d["war_heirs"].update(York=[1, 2, 3, 4], Lancaster=[1, 2, 3, 4])
    d["heir_cards"]["York"] = list(IIY_YORK_KING[king])
    top = min(r for r in lan) if lan else None
    if top is not None:
        d["heir_cards"]["Lancaster"] = list(IIY_LANCASTER_HIGHEST[top])


def setup_iil(d: dict[str, Any], alive: dict[str, list[int]], w: dict[str, Any]) -> None:
    """6.3 IIL Lancastrian Legitimacy Fades: the highest Lancastrian Heir is King at London
    (Margaret, with Henry VI removed, is put in box 1 instead: "If Henry VI removed, add
    Margaret to the Calendar, box 1 at setup", RULINGS R65), Somerset (1) or (2) at Wells
    unless King, Jasper Tudor (1) at Harlech, Exeter (1) and Oxford box 2, Northumberland box
    8; Yorkists Warwick at Calais, Salisbury at York, Pembroke at Pembroke, Devon box 1, the
    surviving York, March and Rutland with Gloucester (1) in box 7 in Exile."""
    y, lan = alive["York"], alive["Lancaster"]
    king = lan[0]
    if 1 in lan:
        _place(d, "henry_vi", at="London", heir=True)
        if 2 in lan:
            _place(d, "margaret", waiting_heir=True)
        _note(d, "Henry VI is King at London (6.3 IIL).")
    elif 2 in lan:
        _place(d, "margaret", box=1, heir=True)
        _note(d, "Henry VI was removed: Margaret (Edward) is King and enters the Calendar in box 1 (6.3 IIL).")
    somerset = "somerset_1" if 3 in lan else "somerset_2" if 4 in lan else None
    if somerset is not None:
        if king in (3, 4):
            _place(d, somerset, at="London", heir=True)
            _note(d, f"{lord_name(somerset)} is King at London (6.3 IIL).")
        else:
            _place(d, somerset, at="Wells", heir=True)
        if somerset == "somerset_1" and 4 in lan:
            _place(d, "somerset_2", waiting_heir=True)
    _place(d, "jasper_tudor_1", at="Harlech")
    _place(d, "exeter_1", box=2)
    _place(d, "oxford", box=2)
    _place(d, "northumberland_l", box=8)
    _place(d, "warwick_y", at="Calais")
    _place(d, "salisbury", at="York")
    _place(d, "pembroke", at="Pembroke")
    _place(d, "devon", box=1)
    for rank, lord in ((1, "york"), (2, "march"), (3, "rutland")):
        if rank in y:
            _place(d, lord, box=7, exile=True, heir=True)
    _place(d, "gloucester_1", box=7, exile=True, heir=True)
    d["war_heirs"].update(York=[1, 2, 3, 4], Lancaster=[1, 2, 3, 4])
    d["heir_cards"]["Lancaster"] = list(IIL_LANCASTER_KING[king])
    d["heir_cards"]["York"] = list(IIL_YORK_HIGHEST[y[0]])


def _remove_at_setup(d: dict[str, Any], side: str, ranks: list[int]) -> None:
    d["removed_at_setup"] += [{"side": side, "rank": r, "lord": None, "by": "setup"} for r in ranks]


def _third_war_common(d: dict[str, Any], w: dict[str, Any]) -> None:
    """6.3 IIIY/IIIL: Favour at each set-up Lord's Seat for his side (London as the War says),
    and the Influence charge: -8 per Heir (not Warwick) removed in an earlier War by Death,
    Shipwreck or Natural Causes (RULINGS R66)."""
    c = load()
    london = "York" if d["war"] == "IIIY" else "Lancaster"
    fav: dict[str, list[str]] = {"York": [], "Lancaster": []}
    fav[london].append("London")
    for side in SIDES:
        for lid in d["lords"][side]:
            seat = c.lords[lid]["seat"]
            if lid in d["mustered"] and seat != "London" and seat not in fav["York"] + fav["Lancaster"]:
                fav[side].append(seat)
    d["favour"] = fav
    d["heir_charge"] = {side: sum(1 for r in w["removed"] if r["side"] == side and r["by"] in ("play", "natural_causes")
                                  and r["rank"] != WARWICK_RANK[side]) for side in SIDES}


def setup_iiiy(d: dict[str, Any], alive: dict[str, list[int]], w: dict[str, Any]) -> None:  # noqa: PLR0915 - the scenario's setup, one placement after another
    """6.3 IIIY New Rivals: every Lord set up Mustered. Yorkists: Y28 removes Rutland if he and
    Gloucester remain; Rutland alone gives way to Warwick as King (with Salisbury and Y16,
    Y17, Y22); exactly one of York, March/Edward IV, Gloucester/Richard III adds
    Northumberland (2) and Y37; Norfolk at Arundel; the highest Heir is King at London, the
    next his Heir, the others removed, each with the cards and places of 6.3. Lancastrians:
    one Heir, Margaret, else Henry Tudor unless Edward IV is King, else Warwick, with Oxford and
    Jasper Tudor (2)."""
    y = list(alive["York"])
    cards: dict[str, list[str]] = {"York": [], "Lancaster": []}
    if w.get("y28") and 3 in y and 4 in y:
        y.remove(3)
        _remove_at_setup(d, "York", [3])
        _note(d, "Gloucester as Heir (Y28) occurred in the second War: Rutland is removed (6.3 IIIY).")
    if not y:
        raise ValueError("War IIIY with no Yorkist Heir: the Dynastic Victory ends the game first (6.0)")
    king: int | None = None
    if y == [3]:
        y = []
        _remove_at_setup(d, "York", [3])
        _place(d, "warwick_y", at="London", heir=True)
        _place(d, "salisbury", at="York")
        cards["York"] += ["Y16", "Y17", "Y22"]
        d["designated"].append("York")
        d["war_heirs"]["York"] = [5]
        _note(d, "Rutland remained the only Yorkist Heir: he is removed and Warwick is King at London, with "
                 "Salisbury at York (6.3 IIIY).")
    if len([r for r in y if r in (1, 2, 4)]) == 1:
        _place(d, "northumberland_y2", at="Carlisle")
        cards["York"].append("Y37")
        _note(d, "Exactly one of York, March/Edward IV, Gloucester/Richard III remains: Northumberland (2) is added "
                 "at Carlisle (6.3 IIIY).")
    _place(d, "norfolk", at="Arundel")
    if y:
        king, nxt = y[0], (y[1] if len(y) > 1 else None)
        _remove_at_setup(d, "York", y[2:])
        d["war_heirs"]["York"] = [r for r in (king, nxt) if r is not None]
        if king == 1:
            _place(d, "york", at="London", heir=True)
            cards["York"] += ["Y14", "Y21"]
            if nxt == 2:
                _place(d, "march", at="Ludlow", heir=True)
                cards["York"].append("Y20")
            elif nxt == 3:
                _place(d, "rutland", at="Canterbury", heir=True)
                cards["York"].append("Y20")
            elif nxt == 4:
                _place(d, "gloucester_1", at="Gloucester", heir=True)
                cards["York"].append("Y34")
        elif king == 2:
            _place(d, "edward_iv", at="London", heir=True)
            cards["York"] += ["Y23", "Y24"]
            if nxt == 3:
                _place(d, "rutland", at="Canterbury", heir=True)
                cards["York"].append("Y31")
            elif nxt == 4:
                _place(d, "gloucester_1", at="Gloucester", heir=True)
                cards["York"] += ["Y34", "Y28"]
        elif king == 3:  # Rutland is King only with Gloucester as his Heir (alone he gave way to Warwick)
            _place(d, "rutland", at="London", heir=True)
            cards["York"] += ["Y20", "Y21"]
            _place(d, "gloucester_2", at="London", heir=True)
            cards["York"].append("Y34")
        else:
            _place(d, "richard_iii", at="London", heir=True)
            cards["York"] += ["Y32", "Y33"]
        names = {1: "York", 2: "Edward IV", 3: "Rutland", 4: "Richard III"}
        _note(d, f"{names[king]} is King at London" + (f", {heir_name('York', nxt)} his Heir" if nxt else "")
              + " (6.3 IIIY).")
    # The Lancastrian Heir: exactly one.
    lan = alive["Lancaster"]
    if 2 in lan:
        base = "France"
        _place(d, "margaret", at="France", heir=True)
        d["capabilities"]["margaret"] = [EDWARD]
        cards["Lancaster"] += ["L27", "L31"]
        d["war_heirs"]["Lancaster"] = [2]
        _note(d, "Margaret (Edward) is the Lancastrian Heir, in the France Exile box (6.3 IIIY).")
    elif king != 2:
        base = "France"
        _place(d, "henry_tudor", at="France", heir=True)
        cards["Lancaster"] += ["L32", "L35"]
        d["war_heirs"]["Lancaster"] = [5]
        _note(d, "Henry Tudor is the Lancastrian Heir, in the France Exile box (6.3 IIIY).")
    else:
        base = "Calais"
        _place(d, "warwick_l", at="Calais", heir=True)
        cards["Lancaster"] += ["L23", "L30"]
        d["designated"].append("Lancaster")
        d["war_heirs"]["Lancaster"] = [6]
        _note(d, "Edward IV is King and Margaret is gone: Warwick is the Lancastrian Heir, at Calais (6.3 IIIY).")
    _place(d, "oxford", at=base)
    _place(d, "jasper_tudor_2", at=base)
    for side in SIDES:
        d["heir_cards"][side] = cards[side]
    _third_war_common(d, w)


def setup_iiil(d: dict[str, Any], alive: dict[str, list[int]], w: dict[str, Any]) -> None:
    """6.3 IIIL Yorkists' Last Stand: every Lord set up Mustered. Lancastrians: the highest Heir
    is King at London (Somerset (2) as the card of Somerset (1)), the others removed; Oxford at
    Oxford, Jasper Tudor (2) at Pembroke. Yorkists (Edward IV as March, Richard III as
    Gloucester (2)): Y28 or Gloucester highest leaves Gloucester alone with Y35; else York
    keeps only his next Heir (Y14, Y18; Y20 with March or Rutland; Gloucester (1) and Y34);
    else only Warwick remains; no Heir left adds Warwick with Y16; a single Heir adds Salisbury,
    Y17 and Y22; Norfolk; all in Burgundy, or at Calais with Warwick."""
    cards: dict[str, list[str]] = {"York": [], "Lancaster": []}
    lan = alive["Lancaster"]
    if lan:
        king = lan[0]
        _remove_at_setup(d, "Lancaster", lan[1:])
        if king == 1:
            _place(d, "henry_vi", at="London", heir=True)
            cards["Lancaster"] += ["L15", "L17"]
        elif king == 2:
            _place(d, "margaret", at="London", heir=True)
            d["capabilities"]["margaret"] = [EDWARD]
            cards["Lancaster"] += ["L27", "L31"]
        else:
            _place(d, "somerset_1", at="London", heir=True)
            d["heir_ranks"]["somerset_1"] = king
            cards["Lancaster"] += ["L18", "L20", "L27"]
        d["war_heirs"]["Lancaster"] = [king]
        _note(d, f"{heir_name('Lancaster', king)} is King at London"
              + (" with the card of Somerset (1)" if king == 4 else "") + " (6.3 IIIL).")
    else:  # no Heir of 6.3 IIIL's list left: the next of 6.2.1 is King (RULINGS R67)
        _place(d, "henry_tudor", at="London", heir=True)
        cards["Lancaster"] += ["L32", "L35"]
        d["war_heirs"]["Lancaster"] = [5]
        _note(d, "No Lancastrian Heir of the list remains: Henry Tudor is King at London (RULINGS R67).")
    _place(d, "oxford", at="Oxford")
    _place(d, "jasper_tudor_2", at="Pembroke")
    # Yorkists.
    y = list(alive["York"])
    heirs: list[int] = []
    if 4 in y and (w.get("y28") or y[0] == 4):
        heirs = [4]
        cards["York"].append("Y35")
        _note(d, "Gloucester is the only Yorkist Heir (6.3 IIIL).")
    elif 1 in y:
        heirs = y[:2]
        cards["York"] += ["Y14", "Y18"]
        if len(heirs) > 1 and heirs[1] in (2, 3):
            cards["York"].append("Y20")
        elif len(heirs) > 1:
            cards["York"].append("Y34")
        _note(d, "York is the highest Yorkist Heir" + (f", {heir_name('York', heirs[1])} the next" if len(heirs) > 1
                                                      else "") + " (6.3 IIIL).")
    _remove_at_setup(d, "York", [r for r in y if r not in heirs])
    warwick = not heirs
    if warwick:
        d["designated"].append("York")
        cards["York"].append("Y16")
        _note(d, "No other Yorkist Heir remains: Warwick is the Yorkist Heir (6.3 IIIL).")
    base = "Calais" if warwick else "Burgundy"
    cards_of = {1: "york", 2: "march", 3: "rutland", 4: "gloucester_1" if 1 in heirs else "gloucester_2"}
    for r in heirs:
        _place(d, cards_of[r], at=base, heir=True)
    if warwick:
        _place(d, "warwick_y", at=base, heir=True)
    d["war_heirs"]["York"] = heirs or [5]
    if len(heirs) + warwick == 1:
        _place(d, "salisbury", at=base)
        cards["York"] += ["Y17", "Y22"]
        _note(d, "The Yorkists have exactly one Heir: Salisbury joins them (6.3 IIIL).")
    _place(d, "norfolk", at=base)
    for side in SIDES:
        d["heir_cards"][side] = cards[side]
    _third_war_common(d, w)


# ----- what this part adds to views and invariants (joined in rules.py) -------------------------------
def view_part(state: State, role: str) -> dict[str, Any]:
    """The Wars of the Roses record (public): the War, its winners so far, the Heirs removed
    and those of this War, and whether Y28 was resolved."""
    w = state.get("wars")
    if w is None:
        return {}
    return {"wars": {
        "war": state["war"], "number": number(state), "winners": dict(w["winners"]),
        "removed": [{"side": r["side"], "heir": heir_name(r["side"], r["rank"]), "war": r["war"], "by": r["by"]}
                    for r in w["removed"]],
        "heirs": {side: sorted(lid for lid in w["heir_lords"] if sv.side_of(lid) == side) for side in SIDES},
        "war_heirs": {side: [heir_name(side, r) for r in w["war_heirs"][side]] for side in SIDES},
        "y28": bool(w["y28"]),
    }}


def secrets_part(state: State, role: str) -> set[str]:
    return set()


def invariants_part(state: State) -> list[str]:
    """The record agrees with the state: this War's Heirs not removed are not "removed" once
    the watch has run, no Heir is removed twice, a removed Heir has no Lord card in play, the
    War is one of the five and follows its predecessors' winners, and the cards the Heirs
    brought are in play."""
    w = state.get("wars")
    if w is None:
        return []
    bad: list[str] = []
    war = state.get("war")
    if war not in WARS:
        return [f"unknown War {war!r}"]
    seen: set[tuple[str, int]] = set()
    for r in w["removed"]:
        key = (r["side"], int(r["rank"]))
        if key in seen:
            bad.append(f"{heir_name(*key)} removed twice")
        seen.add(key)
    c = load()
    for lid, rank in w["heir_lords"].items():
        if (c.lords[lid]["side"], int(rank)) in seen:
            bad.append(f"{lid} stands for a removed Heir")
        if lid not in state["lords"]:
            bad.append(f"{lid}, an Heir of this War, has no Lord record")
    expected = {"I": [], "IIY": ["I"], "IIL": ["I"], "IIIY": ["I", "II"], "IIIL": ["I", "II"]}[war]
    done = [n for n in ("I", "II", "III") if n in w["winners"]]
    if state["result"] is None and done != expected:
        bad.append(f"War {war} after the Wars {done}")
    if war != "I":
        prev = w["winners"].get("II" if war.startswith("III") else "I")
        if prev is not None and prev != ("York" if war.endswith("Y") else "Lancaster"):
            bad.append(f"War {war} set up after a {prev} victory (6.1.2)")
    for side in SIDES:
        for cid in w["cards"][side]:
            if cid not in state["aow"][side]["in_game"]:
                bad.append(f"{cid}, brought by the {side} Heirs, is not in play (6.2.2)")
    for rule in state["special_rules"]:
        if rule not in special_rules():
            bad.append(f"unknown special rule {rule}")
    return bad


def milestones(state: State) -> list[str]:
    """What a game of the Wars of the Roses reached: "War II", "War III" and the special ends
    ("Surrender", "Dynastic Victory", "Final Victory")."""
    w = state.get("wars")
    if w is None:
        return []
    out = []
    if number(state) in ("II", "III"):
        out.append("War II")
    if number(state) == "III":
        out.append("War III")
    if w.get("surrenders"):
        out.append("Surrender")
    if w.get("dynastic"):
        out.append("Dynastic Victory")
    if "III" in w["winners"] and state["result"] is not None:
        out.append("Final Victory")
    return out
