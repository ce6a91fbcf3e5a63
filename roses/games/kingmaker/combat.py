"""Kingmaker combat (§Combat Phase): the combat phase's choices, battle, siege, storm and announced
siege (E1), ambush, town fighting; killed lists; capture, spoils, ransom, execution and the
King's Pardon.

Verbs
    combat phase (current player): ``battle`` / ``ambush`` [square, role], ``siege`` /
        ``storm`` / ``announce`` / ``town_fight`` / ``town_attack`` place, ``end``
    ``battle`` frame (attacker): ``drop`` noble (leave him out), ``fight``, ``call_off``
    ``spoils`` (captor): ``give`` [card, noble]             default: the first victorious noble
    ``captive`` (captor): ``execute`` / ``release`` noble, ``ransom`` [noble, cards]
    ``ransom`` (captive's owner): ``pay`` / ``refuse``       default: refuse (execution, §Capture of Noble Counters)
    ``ransom_pay`` (owner): ``give_card`` card
    ``pardon`` (captive's owner holding a King's Pardon): ``pardon`` / ``decline``
                                                            default: pardon
"""

from __future__ import annotations

from typing import Any

from roses.engine import log, rng
from roses.engine.contract import Action, State
from roses.engine.steps import Frame, pop, push
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops
from roses.games.kingmaker.common import (
    Z_ASSET,
    Z_AWARD,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    awards,
    card_name,
    controlled_nobles,
    escorted_by,
    free_nobles,
    may_hold,
    noble_strength,
    place_name,
    place_owner,
    player_of_role,
    refuge_area,
    role_of,
    ship_controller,
    ship_passengers,
    strength,
    tabletop_on,
)
from roses.games.kingmaker.ops import free_captive, place_active
from roses.games.kingmaker.play import (
    CardPlay,
    card_options,
    idle,
    lift_sieges,
    mark_idle,
    trip_key,
)
from roses.games.kingmaker.queries import (
    can_act,
    event_deck,
    hand,
    inside_nobles,
    offered,
    siege_defence,
)
from roses.games.kingmaker.wording import Labelled, arg_name

BATTLE, AMBUSH, SIEGE, STORM, TOWN, TOWN_ATTACK, SEA = (
    "battle", "ambush", "siege", "storm", "town", "town_attack", "sea_battle")


# ============================================================================ the combat phase
def attackers_at(state: State, p: int, sq: str) -> list[int]:
    """Nobles of ``p`` in the open of ``sq`` who may attack now (§Combat Phase: once per round, in
    his turn; not vacillating)."""
    nsq, nin, nship, nfo = state["nsq"], state["nin"], state["nship"], state["nfo"]
    tno = state["tno"]
    return [n for n in controlled_nobles(state, p) if nsq[n] == sq and nin[n] is None and nship[n] < 0
            and nfo[n] != tno and can_act(state, n) and state["nvac"][n] != tno]


def defenders_at(state: State, q: int, sq: str) -> list[int]:
    """The force of ``q`` in the open of ``sq``: his nobles and allies under his command
    (§Combat Phase, §Alliances)."""
    nsq, nin, nship = state["nsq"], state["nin"], state["nship"]
    return [n for n in controlled_nobles(state, q) if nsq[n] == sq and nin[n] is None and nship[n] < 0]


def at_peace(state: State, p: int, q: int, sq: str) -> bool:
    """A King's peace in ``sq`` (after Parliament, §King's peace; E2 Diets) or the round of peace after
    an alliance ends (§Alliances)."""
    if any(x[0] == sq for x in state["peace"]):
        return True
    return any({x[0], x[1]} == {p, q} and x[2] >= state["tno"] for x in state["truce"])


def combat_options(state: State, p: int) -> list[Action]:
    w = W(state)
    b = w.board
    out: list[Action] = []
    if state["defeatism"].get(str(p), 0) > 0:
        return [("end", None)]  # E2 Defeatism Rife: move only
    squares = sorted({state["nsq"][n] for n in free_nobles(state, p)
                      if state["nsq"][n] is not None and state["nin"][n] is None})
    n_players = len(state["roles"])
    for sq in squares:
        att = attackers_at(state, p, sq)
        if not att:
            continue
        power = strength(state, att, attack=True)
        port_first = refuge_port_first(state, p, sq)
        for q in range(n_players):
            if q == p or allied(state, p, q) or at_peace(state, p, q, sq) or port_first:
                continue
            d = [n for n in defenders_at(state, q, sq) if n not in state["defended"]]
            if not d:
                continue
            verb = BATTLE if power >= strength(state, d) else AMBUSH  # §Ambush
            out.append((verb, [sq, role_of(state, q)]))
        for pl in b.places_at.get(sq, ()):
            if not place_active(state, pl) or place_owner(state, pl) == p:
                continue
            besieger = state["siege"].get(pl)
            if besieger is not None and besieger != p:
                continue  # §Siege: beat the besieger in battle first
            if any(x[0] == sq for x in state["peace"]):
                continue
            need = siege_defence(state, pl, p)
            if power >= need:
                out.append((SIEGE, pl))
                if state["level"] >= 1 and besieger is None:
                    out.append((STORM, pl))
                    out.append(("announce", pl))
    for pl in sorted(sally_places(state, p)):
        out.append(("sally", pl))
    if state["level"] >= 1:
        out += sea_battle_options(state, p)
    for pl in sorted(town_obligations(state, p)):
        out.append(("town_fight", pl))
    for pl in sorted(owner_town_attacks(state, p)):
        out.append((TOWN_ATTACK, pl))
    # §Sea Transportation: passengers landed in a neutral or unfriendly port must besiege it (if they
    # still can: otherwise they simply stay in the open).
    owed = [pl for kind, pl in state["obliged"] if kind == "siege" and (SIEGE, pl) in out]
    owed += [sq for kind, sq in state["obliged"] if kind == "sea" and any(
        v == SEA and a[0] == sq for v, a in out)]
    if not town_obligations(state, p) and not owed:
        out.append(("end", None))
    return out


def sally_places(state: State, p: int) -> set[str]:
    """§Siege: nobles inside a place under siege may sally out against the besiegers."""
    out = set()
    tno = state["tno"]
    for n in free_nobles(state, p):
        pl = state["nin"][n]
        if pl is None or state["nfo"][n] == tno or not can_act(state, n):
            continue
        q = state["siege"].get(pl)
        if q is not None and q != p and defenders_at(state, q, state["nsq"][n]):
            out.add(pl)
    return out


def refuge_port_first(state: State, p: int, sq: str) -> bool:
    """E1 §Refuges: in a refuge holding a port, the port must be taken before a force in the open
    there may be attacked. Under E2 Ireland is no refuge (ruling K6), so there it does not apply."""
    if state["level"] < 1:
        return False
    w = W(state)
    area = refuge_area(state, sq)
    if area is None:
        return False
    return any(place_owner(state, pl) != p for pl in w.board.places_in_area(area)
               if w.board.places[pl].port and place_active(state, pl))


def ships_at(state: State, q: int, sq: str) -> list[int]:
    return [s for s, pos in enumerate(state["spos"]) if pos == sq and ship_controller(state, s) == q]


def sea_battle_options(state: State, p: int) -> list[Action]:
    """E1 (§Sea Battles): ships that entered a sea square holding another faction's ships (not in
    port) may attack them."""
    w = W(state)
    out: list[Action] = []
    tno = state["tno"]
    seas = sorted({pos for s, pos in enumerate(state["spos"]) if pos is not None and pos not in w.board.places
                   and ship_controller(state, s) == p and state["smv"][s] == tno and s not in state["sfought"]})
    for sq in seas:
        if any(x[0] == sq for x in state["peace"]):
            continue
        for q in range(len(state["roles"])):
            if q != p and not allied(state, p, q) and not at_peace(state, p, q, sq) and ships_at(state, q, sq):
                out.append((SEA, [sq, role_of(state, q)]))
    return out


def town_obligations(state: State, p: int) -> set[str]:
    """§Town Fighting, situations 1-2: nobles of ``p`` inside a place that is not friendly must
    fight the garrison and the unfriendly nobles inside in their turn."""
    out = set()
    for n in free_nobles(state, p):
        pl = state["nin"][n]
        if pl is not None and place_owner(state, pl) != p and p not in state["guests"].get(pl, ()):
            out.add(pl)
    return out


def owner_town_attacks(state: State, p: int) -> set[str]:
    """§Town Fighting (ruling K16): the owner of a place may attack unfriendly nobles inside it."""
    out = set()
    w = W(state)
    nin, cz, ch, ncap = state["nin"], state["cz"], state["ch"], state["ncap"]
    for n in w.nobles:
        pl = nin[n]
        if (pl is None or cz[n] != Z_NOBLE or ch[n] == p or ncap[n] >= 0 or n in state["defended"]
                or allied(state, p, ch[n]) or pl in out):
            continue
        if place_owner(state, pl) == p:
            out.add(pl)
    return out


class CombatPhase(CardPlay):
    """The combat phase of the current player (§Combat Phase)."""

    name = "combat"
    phase = "combat"
    always_decides = True
    opens = frozenset(("battle", "ambush", "sally", "sea_battle", "siege", "storm", "town_attack"))
    rule = "§Combat Phase"
    labels = {
        **CardPlay.labels,
        "ambush": "ambush {1} in {0}", "announce": "announce a siege of {} (resolved next turn)",
        "battle": "attack {1} in {0}", "end": "end", "sally": "sally {}", "sea_battle": "sea battle {}",
        "siege": "besiege {}", "storm": "storm {}", "town_attack": "attack the nobles inside {}",
        "town_fight": "fight inside {}",
    }

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        done = idle(frame)  # ruling K90: an attack called off is not offered again until a change
        return ([a for a in combat_options(state, frame["p"]) if trip_key(*a) not in done]
                + card_options(state, frame["p"], frame))

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role != role_of(state, frame["p"]):
            return f"{role_of(state, frame['p'])} is in the combat phase."
        if town_obligations(state, frame["p"]):
            return "Combat: your nobles inside an unfriendly place must fight (town fighting)."
        return "Combat: attack, besiege, or end the phase."

    def on_battle(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._field(state, frame, BATTLE, arg)

    def on_ambush(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._field(state, frame, AMBUSH, arg)

    def _field(self, state: State, frame: Frame, kind: str, arg: Any) -> None:
        p = frame["p"]
        sq, q = arg[0], player_of_role(state, arg[1])
        d = [n for n in defenders_at(state, q, sq) if n not in state["defended"]]
        push(state, {"step": "battle", "kind": kind, "att": p, "def": q, "sq": sq, "place": None,
                     "a": attackers_at(state, p, sq), "d": d})

    def on_sally(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = frame["p"]
        q = state["siege"][arg]
        sq = w.board.places[arg].square
        a = [n for n in free_nobles(state, p) if state["nin"][n] == arg and state["nfo"][n] != state["tno"]
             and can_act(state, n)]
        d = [n for n in defenders_at(state, q, sq) if n not in state["defended"]]
        kind = BATTLE if strength(state, a, attack=True) >= strength(state, d) else AMBUSH
        push(state, {"step": "battle", "kind": kind, "att": p, "def": q, "sq": sq, "place": None, "a": a, "d": d})

    def on_sea_battle(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        state["obliged"] = [x for x in state["obliged"] if x != ["sea", arg[0]]]
        p = frame["p"]
        sq, q = arg[0], player_of_role(state, arg[1])
        sa = [s for s in ships_at(state, p, sq) if state["smv"][s] == state["tno"] and s not in state["sfought"]]
        sd = ships_at(state, q, sq)
        push(state, {"step": "battle", "kind": SEA, "att": p, "def": q, "sq": sq, "place": None,
                     "a": [n for s in sa for n in ship_passengers(state, s)],
                     "d": [n for s in sd for n in ship_passengers(state, s)], "sa": sa, "sd": sd})

    def on_siege(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._place(state, frame, SIEGE, arg)

    def on_storm(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._place(state, frame, STORM, arg)

    def on_announce(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """E1 (§Town Acquisition): an announced siege is not resolved this turn: "under siege" at once."""
        w = W(state)
        p = frame["p"]
        sq = w.board.places[arg].square
        for n in attackers_at(state, p, sq):
            state["nfo"][n] = state["nact"][n] = state["tno"]
        state["obliged"] = [x for x in state["obliged"] if x[1] != arg]
        state["siege"][arg] = p
        log.public(state, f"{role} announces a siege of {place_name(w, arg)}: it is under siege.", log.BATTLE)

    def _place(self, state: State, frame: Frame, kind: str, pl: str) -> None:
        state["obliged"] = [x for x in state["obliged"] if x[1] != pl]
        w = W(state)
        p = frame["p"]
        sq = w.board.places[pl].square
        d = [n for n in inside_nobles(state, pl) if state["ch"][n] != p and state["ncap"][n] < 0]
        push(state, {"step": "battle", "kind": kind, "att": p, "def": place_owner(state, pl), "sq": sq,
                     "place": pl, "a": attackers_at(state, p, sq), "d": d})

    def on_town_fight(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = frame["p"]
        a = [n for n in free_nobles(state, p) if state["nin"][n] == arg]
        d = [n for n in inside_nobles(state, arg) if state["ch"][n] != p and state["ncap"][n] < 0
             and not allied(state, p, state["ch"][n])]
        push(state, {"step": "battle", "kind": TOWN, "att": p, "def": place_owner(state, arg),
                     "sq": w.board.places[arg].square, "place": arg, "a": a, "d": d})

    def on_town_attack(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = frame["p"]
        a = [n for n in free_nobles(state, p) if state["nin"][n] == arg]
        d = [n for n in inside_nobles(state, arg) if state["ch"][n] != p and state["ncap"][n] < 0
             and not allied(state, p, state["ch"][n]) and n not in state["defended"]]
        foes = sorted({state["ch"][n] for n in d})
        push(state, {"step": "battle", "kind": TOWN_ATTACK, "att": p, "def": foes[0] if foes else -1,
                     "sq": w.board.places[arg].square, "place": arg, "a": a, "d": d})

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)


# ============================================================================ a battle
def defence(state: State, frame: Frame) -> int:
    """The defending strength: nobles, plus the garrison when a place is fought for (§Siege,
    §Siege, §Town Fighting)."""
    d = strength(state, frame["d"])
    if frame["kind"] in (SIEGE, STORM, TOWN):
        pl = W(state).board.places[frame["place"]]
        if frame["kind"] == SIEGE:
            return siege_defence(state, frame["place"], frame["att"])
        return pl.garrison + d
    return d


def attack_power(state: State, frame: Frame) -> int:
    if frame["kind"] == SEA:
        return sum(W(state).ships[s].capacity for s in frame["sa"])
    a = strength(state, frame["a"], attack=True)
    if frame["kind"] == TOWN_ATTACK:
        a += W(state).board.places[frame["place"]].garrison  # §Town Fighting: with the garrison
    return a


class Battle(Labelled):
    """One combat: the attacker may leave nobles out or call it off before the draw (§Siege);
    then the Event card decides (§Battle, §Siege, §Ambush)."""

    name = "battle"
    phase = "combat"
    always_decides = True
    rule = "§Combat Phase"
    labels = {"call_off": "call off the attack", "drop": "leave {} out of the fight", "fight": "fight"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["att"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        out: list[Action] = []
        kind = frame["kind"]
        if len(frame["a"]) > 1 and kind not in (TOWN, TOWN_ATTACK, SEA):
            for n in frame["a"]:
                rest = [m for m in frame["a"] if m != n]
                if kind in (SIEGE, STORM) and strength(state, rest, attack=True) < defence(state, frame):
                    continue
                if kind == BATTLE and strength(state, rest, attack=True) < defence(state, frame):
                    continue
                out.append(("drop", w.cards[n].id))
        out.append(("fight", None))
        if kind not in (TOWN,):
            out.append(("call_off", None))
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        where = place_name(w, frame["place"] or frame["sq"])
        return (f"{frame['kind'].replace('_', ' ').title()} at {where}: "
                f"{attack_power(state, frame)} against {defence(state, frame)}. Fight, leave nobles out, or call it off.")

    def on_drop(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["a"].remove(W(state).cid(arg))

    def on_call_off(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        log.public(state, f"{role} calls off the attack.", log.BATTLE)
        pop(state)
        if "via" in frame and state["stack"]:
            mark_idle(state["stack"][-1], frame["via"])  # ruling K90: not offered again until a change

    def on_fight(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        if state["stack"] and "via" in frame:
            state["stack"][-1].pop("idle", None)  # the combat changes the position
        self._fight(state, frame)

    def _fight(self, state: State, frame: Frame) -> None:
        if tabletop_on(state):  # the umpire decides how it is fought (umpire.Tabletop)
            push(state, {"step": "tabletop", "stage": "mark", "combat": frame, "killed": []})
        else:
            resolve(state, frame)


def survivor_needed(combat: Frame) -> dict[str, list[int]]:
    """Ruling K74 (§Battle), for a combat fought on a table: the results the umpire may enter only
    while one of the listed nobles is left alive. A side that fought with nobles wins only with
    one of them alive; a side of ships without nobles has no such condition, and neither has a
    besieged place, whose garrison may hold it with every noble inside killed. Indecisive is
    always open."""
    out = {ATTACKER: list(combat["a"])} if combat["a"] else {}
    if combat["kind"] != SIEGE and combat["d"]:
        out[DEFENDER] = list(combat["d"])
    return out


def draw_combat_card(state: State, p: int, frame: Frame | None = None) -> int:
    """§Siege, ruling K25/K36: draw until a card with a combat half; a Free Move or Writ is kept
    by the drawer, any other card without one is discarded unplayed. E1: a Vacillating
    Allegiance card drawn for a combat is resolved (§Vacillating Allegiance) and another card drawn; -1 means
    "treat as Bad Weather" (equal sides)."""
    deck = event_deck(state)
    for _ in range(10_000):
        e = ops.draw_event(state)
        card = deck.cards[e]
        if card.kind in ("free_move", "writ"):
            ops.event_to_hand(state, e, p)
            log.public(state, f"{role_of(state, p)} draws a {_ev_name(card)} card for combat, keeps it and draws again.",
                       log.BATTLE)
            continue
        if card.kind == "vacillating" and state["level"] >= 1 and frame is not None:
            ops.discard_event(state, e)
            if (vacillate_at_sea if frame["kind"] == SEA else vacillate)(state, frame) == "weather":
                return -1
            continue
        if not card.combat:
            ops.discard_event(state, e)
            log.public(state, f"A {_ev_name(card)} card is drawn for combat and set aside; another is drawn.", log.BATTLE)
            continue
        return e
    raise RuntimeError("no combat result in the Event deck")


#: The Vacillating Allegiance table (§Attack Odds): the highest roll that sends the noble home, by odds.
HOME_MAX = {"Majority": 6, "5-4": 5, "3-2": 4, "2-1": 3, "3-1": 2, "4-1": 1}


def odds_column(a: int, b: int) -> str:
    """The column of the odds between two strengths (ruling K19: larger to smaller; below
    5-4 is "Majority")."""
    big, small = max(a, b), min(a, b)
    for col, (x, y) in (("4-1", (4, 1)), ("3-1", (3, 1)), ("2-1", (2, 1)), ("3-2", (3, 2)), ("5-4", (5, 4))):
        if big * y >= small * x:
            return col
    return "Majority"


def vacillating_noble(state: State, frame: Frame, combat: str, force: str) -> tuple[int, str, int] | str:
    """E1 §Attack Odds (ruling K19): the noble Vacillating Allegiance strikes in a combat: equal
    sides: "weather" (Bad Weather, no further card); else d6 1-4 the weaker side, 5-6 the
    stronger; a side with one noble or none: "again" (ignored); else (the d6, the side "a" or
    "d", a random noble of it)."""
    A, D = attack_power(state, frame), defence(state, frame)
    log.public(state, f"Vacillating Allegiance is drawn for the {combat}.", log.BATTLE)
    if A == D:
        log.public(state, "The sides are equal: it counts as Bad Weather.", log.BATTLE)
        return "weather"
    r = rng.roll(state, 6)
    weaker = "a" if A < D else "d"
    side = weaker if r <= 4 else ("d" if weaker == "a" else "a")
    nobles = frame[side]
    if len(nobles) <= 1:
        log.public(state, f"d6 {r}: the affected {force} has one noble or none; the card is ignored.", log.BATTLE)
        return "again"
    return r, side, nobles[rng.randbelow(state, len(nobles))]


def vacillate(state: State, frame: Frame) -> str:
    """E1 §Vacillating Allegiance (rulings K19): equal sides: Bad Weather, no further card; else d6 1-4 the
    weaker force, 5-6 the stronger; a force with one noble ignores the card; a random noble
    of it goes home or changes sides by the table, then a new card is drawn."""
    w = W(state)
    picked = vacillating_noble(state, frame, "combat", "force")
    if isinstance(picked, str):
        return picked
    r, side, n = picked
    frame[side].remove(n)
    col = odds_column(attack_power(state, frame), defence(state, frame))
    r2 = rng.roll(state, 6)
    other = frame["def"] if side == "a" else frame["att"]
    if r2 <= HOME_MAX[col] or other < 0:
        ops.enter_play(state, n)
        log.public(state, f"d6 {r}, then {r2} at {col}: {card_name(w, n)} goes home.", log.BATTLE)
        return "again"
    state["ch"][n] = other
    state["nin"][n] = None if side == "d" and frame["kind"] in (SIEGE, STORM, TOWN) else state["nin"][n]
    frame["d" if side == "a" else "a"].append(n)
    log.public(state, f"d6 {r}, then {r2} at {col}: {card_name(w, n)} changes sides to {role_of(state, other)}.",
               log.BATTLE)
    return "again"


def vacillate_at_sea(state: State, frame: Frame) -> str:
    """E1 §Sea Battles with §Attack Odds (ruling K58): in a sea battle the affected force and noble are
    found as on land (fleets' capacities for strength); the card is ignored unless the noble
    makes up the majority of his ship's capacity. Then, by the table, the noble goes home and
    his ship leaves the battle for a port of the opposing player's choice (step ``vac_port``),
    or the noble changes sides and his ship joins the opposing fleet; either way the other
    nobles aboard are captured by the opposing player. Then a new card is drawn."""
    w = W(state)
    picked = vacillating_noble(state, frame, "sea battle", "fleet")
    if isinstance(picked, str):
        return picked
    r, side, n = picked
    s = state["nship"][n]
    if s < 0 or 2 * noble_strength(state, n) <= w.ships[s].capacity:
        log.public(state, f"d6 {r}: {card_name(w, n)} is not the majority of his ship's capacity; "
                   "the card is ignored.", log.BATTLE)
        return "again"
    col = odds_column(attack_power(state, frame), defence(state, frame))  # the fleets' capacities
    ships_key, other_ships = ("sa", "sd") if side == "a" else ("sd", "sa")
    other = frame["def"] if side == "a" else frame["att"]
    aboard = [m for m in frame[side] if m != n and state["nship"][m] == s]
    for m in [n, *aboard]:
        frame[side].remove(m)
    frame[ships_key].remove(s)
    r2 = rng.roll(state, 6)
    if r2 <= HOME_MAX[col] or other < 0:
        ops.enter_play(state, n)
        log.public(state, f"d6 {r}, then {r2} at {col}: {card_name(w, n)} goes home and the {w.ships[s].name} "
                   "leaves the battle.", log.BATTLE)
        if other >= 0:
            push(state, {"step": "vac_port", "p": other, "ship": s})
    else:
        state["ch"][n] = other
        state["sctl"][s] = other  # with him aboard until port (§Sea Transportation)
        frame["d" if side == "a" else "a"].append(n)
        frame[other_ships].append(s)
        log.public(state, f"d6 {r}, then {r2} at {col}: {card_name(w, n)} changes sides to {role_of(state, other)} "
                   f"and the {w.ships[s].name} joins his fleet.", log.BATTLE)
    if aboard and other >= 0:
        capture(state, other, aboard, [])
    return "again"


class VacPort(Labelled):
    """E1 §Sea Battles: the opposing player chooses the port a ship leaves a sea battle for when its
    vacillating noble goes home (default: the first, the nearest)."""

    name = "vac_port"
    phase = "combat"
    always_decides = True
    rule = "E1 §Sea Battles"
    labels = {"port": "driven into port at {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        b = W(state).board
        pos = state["spos"][frame["ship"]]
        if pos is None:
            return [("port", None)]
        dist = b.port_distances(pos) if pos in b.squares and not b.squares[pos].land else {}
        ports = sorted((p for p in b.ports if place_active(state, p)), key=lambda p: (dist.get(p, 10_000), p))
        return [("port", p) for p in ports if p != pos] or [("port", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return (f"Choose the port the {W(state).ships[frame['ship']].name} goes to, its vacillating noble gone "
                "home (default: the nearest).")

    def on_port(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        s = frame["ship"]
        if arg is None:
            return
        w = W(state)
        state["spos"][s] = arg
        sq = w.board.places[arg].square
        for m in ship_passengers(state, s):  # captives aboard are put ashore there
            ops.put_noble(state, m, sq, None)
        ops.touch_port(state, s)
        log.public(state, f"The {w.ships[s].name} goes to {place_name(w, arg)}.", log.MOVE)


def _ev_name(card: K.EventCard) -> str:
    return card.kind.replace("_", " ").title()


def result_text(card: K.EventCard) -> str:
    if card.bad_weather:
        return "Bad Weather Delays Attack"
    assert card.ratio is not None
    return f"{card.ratio[0]}-{card.ratio[1]}"


def resolve(state: State, frame: Frame) -> None:
    resolve_combat(state, frame)
    lift_sieges(state)


def engage(state: State, frame: Frame) -> None:
    """The attackers have attacked this round and the defenders been attacked this turn
    (§Battle), whoever or whatever then decides the combat."""
    tno = state["tno"]
    for n in frame["a"]:
        state["nfo"][n] = state["nact"][n] = tno
    state["defended"].extend(frame["d"])
    state["sfought"].extend(frame.get("sa", ()))


def resolve_combat(state: State, frame: Frame) -> None:
    """The combat decided by the Event card (§Battle, §Siege, §Ambush)."""
    w = W(state)
    kind, p = frame["kind"], frame["att"]
    engage(state, frame)
    e = draw_combat_card(state, p, frame)
    a = list(frame["a"])
    A, D = attack_power(state, frame), defence(state, frame)
    where = place_name(w, frame["place"] or frame["sq"])
    if e < 0:
        if kind == SIEGE:
            state["siege"][frame["place"]] = p
        return
    card = event_deck(state).cards[e]
    log.public(state, f"{kind.replace('_', ' ').title()} at {where}: {role_of(state, p)} {A} against {D}; "
               f"the card reads {result_text(card)}"
               + (f", killed: {', '.join(card_name(w, w.codec.id(k)) if k in w.codec else k for k in card.killed)}" if card.killed else "") + ".", log.BATTLE)
    ops.discard_event(state, e)
    _use_french_aid(state, a)
    if card.bad_weather:
        if kind == SIEGE:
            state["siege"][frame["place"]] = p
            log.public(state, f"{place_name(w, frame['place'])} is under siege.", log.BATTLE)
        return
    # Killed list (§Battle): every participant named dies, whatever the result.
    named = set(card.killed)
    if kind == AMBUSH:
        bottom = card.killed[-1] if card.killed else None  # §Ambush: only the last on the list
        named = {bottom} if bottom else set()
    if kind == AMBUSH:
        outcome = DEFENDER  # §Ambush (ruling K15, literal): the ambushing force is captured
    elif kind == SIEGE:
        outcome = ATTACKER  # §Siege: a siege always succeeds but on Bad Weather
    else:
        big, small = max(A, D), min(A, D)
        assert card.ratio is not None
        x, y = card.ratio
        decisive = A != D and big * y >= small * x
        outcome = INDECISIVE if not decisive else ATTACKER if A > D else DEFENDER
        if not decisive:
            log.public(state, "The result is indecisive.", log.BATTLE)
    apply_outcome(state, frame, outcome, named, A, D)


#: Outcomes of a combat: the attacker or the defender won, or nobody (indecisive; for a
#: siege, the place stays under siege).
ATTACKER, DEFENDER, INDECISIVE = "attacker", "defender", "indecisive"


def apply_outcome(state: State, frame: Frame, outcome: str, named: set[str], A: int, D: int) -> None:
    """What a combat's outcome does (§Combat Phase): the named participants die, then the victor
    captures the beaten nobles and heirs, takes the place fought for, or throws the losers out.
    ``A`` and ``D`` are the strengths before the deaths (for the Booty, K28). Used by the
    Event card and by the umpire's result of a combat fought on a table (umpire.py)."""
    w = W(state)
    kind, p, q = frame["kind"], frame["att"], frame["def"]
    for n in frame["a"] + frame["d"]:
        if w.cards[n].id in named and state["cz"][n] == Z_NOBLE:
            ops.kill_noble(state, n, "is killed in the fighting")
    a = [n for n in frame["a"] if state["cz"][n] == Z_NOBLE]
    d = [n for n in frame["d"] if state["cz"][n] == Z_NOBLE]
    attacker_won, defender_won = outcome == ATTACKER, outcome == DEFENDER
    if kind == AMBUSH:
        if defender_won and a and q >= 0:
            capture(state, q, a, [m for m in frame["d"] if state["cz"][m] == Z_NOBLE])
        elif attacker_won and d:
            capture(state, p, d, a)
        return
    if kind == SIEGE:
        if attacker_won:
            take_place(state, p, frame["place"], a, d)
            _booty(state, p, q, D)
        else:
            state["siege"][frame["place"]] = p
            log.public(state, f"{place_name(w, frame['place'])} is under siege.", log.BATTLE)
        return
    if kind == BATTLE:
        if attacker_won:
            capture(state, p, d, a)
            _booty(state, p, q, D)
        elif defender_won and q >= 0:
            capture(state, q, a, d)
            _booty(state, q, p, A)
        return
    if kind == STORM:
        if attacker_won:
            take_place(state, p, frame["place"], a, d)
            _booty(state, p, q, D)
        else:
            log.public(state, "The storm fails.", log.BATTLE)
        return
    if kind == TOWN:
        if attacker_won:
            take_place(state, p, frame["place"], a, d)
        else:
            for n in a:
                state["nin"][n] = None  # §Town Fighting: expelled into the open
            log.public(state, f"{role_of(state, p)}'s nobles are thrown out of {place_name(w, frame['place'])}.", log.BATTLE)
        return
    if kind == TOWN_ATTACK:
        if attacker_won:
            capture(state, p, d, a)
        else:
            for n in d:
                state["nin"][n] = None
        return
    if kind == SEA:
        if attacker_won:
            sea_capture(state, p, frame["sd"], d, a)
        elif defender_won:
            sea_capture(state, q, frame["sa"], a, d)


def sea_capture(state: State, p: int, ships: list[int], losers: list[int], victors: list[int]) -> None:
    """E1 (§Sea Battles): the winner takes the beaten ships with their nobles and heirs; a Ship
    card goes to one of his noble passengers (else to his faction); the Admiral's and
    Warden's ships stay his until they touch port, when they return to their office, unless
    he scuttles them (a step, default: keep)."""
    w = W(state)
    office: list[int] = []
    for s in ships:
        piece = w.ships[s]
        state["sctl"][s] = p
        if piece.card >= 0:
            c = piece.card
            if victors:
                state["cz"][c], state["ch"][c] = Z_AWARD, victors[0]
            else:
                state["cz"][c], state["ch"][c] = Z_ASSET, p
            state["sctl"][s] = -1
            if any(state["nship"][n] == s for n in losers):
                state["sctl"][s] = p
        else:
            office.append(s)
        log.public(state, f"{role_of(state, p)} takes the {piece.name}.", log.BATTLE)
    if office:
        push(state, {"step": "scuttle", "p": p, "ships": office})
    capture(state, p, losers, victors)


class Scuttle(Labelled):
    """E1 (§Sea Battles): the victor may scuttle captured Admiral's or Warden's ships (default: keep)."""

    name = "scuttle"
    phase = "combat"
    always_decides = True
    rule = "E1 §Sea Battles"
    labels = {"keep": "keep", "scuttle": "scuttle {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: keep (when it is an option)."""
        return offered(self.options(state, frame, role), ("keep", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        return [("scuttle", w.ships[s].id) for s in frame["ships"]] + [("keep", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Scuttle a captured office ship, or keep them until they touch port (default: keep)."

    def on_scuttle(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        s = w.ship_codec.id(arg)
        for n in ship_passengers(state, s):
            # passengers go down with nothing to carry them: they are put on the nearest land
            sq = ops.nearest_land(state, state["spos"][s])
            ops.put_noble(state, n, sq, None)
        ops.ship_off(state, s)
        state.setdefault("lost_ships", []).append(s)
        frame["ships"].remove(s)
        log.public(state, f"{role} scuttles the {w.ships[s].name}.", log.BATTLE)
        if not frame["ships"]:
            pop(state)

    def on_keep(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)


def _use_french_aid(state: State, a: list[int]) -> None:
    """§Crown Card Key: French Aid is used once in an attack or siege, then discarded."""
    w = W(state)
    for n in a:
        for c in awards(state, n):
            if w.cards[c].kind == K.FRENCH_AID:
                ops.discard_crown(state, c)
                log.public(state, "The French Aid goes home after one attack.", log.BATTLE)


def _booty(state: State, winner: int, loser: int, beaten: int) -> None:
    """E1 (§Booty): defeating a force of 100 or more by battle or siege gives the loser's next
    Crown draw to the winner (ruling K28: the strength beaten, garrison included)."""
    if state["level"] >= 1 and loser >= 0 and loser != winner and beaten >= 100:
        state["booty"].setdefault(str(loser), []).append(winner)
        log.public(state, f"Booty: {role_of(state, winner)} will take {role_of(state, loser)}'s next Crown draw.",
                   log.BATTLE)


def take_place(state: State, p: int, place: str, a: list[int], d: list[int]) -> None:
    """§Siege, §Town Acquisition: the place falls with every noble and heir inside; the victors end their
    turn inside it and it becomes theirs."""
    w = W(state)
    inside_foes = [n for n in inside_nobles(state, place) if state["ch"][n] != p and state["ncap"][n] < 0]
    ops.set_place_owner(state, place, p)
    for n in a:
        state["nin"][n] = place
    log.public(state, f"{role_of(state, p)} takes {place_name(w, place)}.", log.BATTLE)
    ops.capture_heirs(state, p, w.board.places[place].square, place)
    if inside_foes:
        capture(state, p, inside_foes, a)


# ============================================================================ capture
def capture(state: State, p: int, losers: list[int], victors: list[int]) -> None:
    """§Capture of Royal Heirs, §Capture of Noble Counters, §Transfers: the losers are captured;
    their heirs (ruling K76) and transferable cards go to the victors at once; then each captive
    is ransomed or executed in this turn."""
    w = W(state)
    losers = [n for n in losers if state["cz"][n] == Z_NOBLE]
    survivors = [n for n in victors if state["cz"][n] == Z_NOBLE and state["ncap"][n] < 0]
    # Cards are no counters: with every victor dead they go to the faction's first noble on
    # the board; an heir is a counter and passes only to a noble on the field (ruling K76).
    victors = survivors or [n for n in free_nobles(state, p) if state["nsq"][n] is not None][:1]
    if not losers:
        return
    for n in losers:
        state["ncap"][n] = p
        log.public(state, f"{card_name(w, n)} is captured by {role_of(state, p)}.", log.BATTLE)
        keepers = survivors or [m for m in free_nobles(state, p) if (state["nsq"][m], state["nin"][m], state["nship"][m])
                                == (state["nsq"][n], state["nin"][n], state["nship"][n])]
        for h in escorted_by(state, n):
            if keepers and may_hold(state, p, h):
                state["hesc"][h] = keepers[0]
                log.public(state, f"{w.heirs[h].name} passes to {role_of(state, p)}.", log.POLITICAL)
                if state["both_since"][p] < 0 and ops.controls_both_houses(state, p):
                    state["both_since"][p] = state["round"]
                ops.plantagenet_follow(state, w.heirs[h].house)
            else:
                ops.leave_heir_alone(state, h)
    spoils = [c for n in losers for c in awards(state, n)
              if w.cards[c].kind in (K.TOWN, K.SHIP, K.MERCENARY, K.FRENCH_AID, K.ROYAL_CASTLE)]
    push(state, {"step": "captive", "cap": p, "queue": list(losers)})
    if spoils and victors:
        if len(victors) == 1:
            for c in spoils:
                _give_spoil(state, c, victors[0])
        else:
            push(state, {"step": "spoils", "cap": p, "cards": spoils, "to": victors})


def _give_spoil(state: State, c: int, n: int) -> None:
    w = W(state)
    state["cz"][c], state["ch"][c] = Z_AWARD, n
    log.public(state, f"{w.cards[c].name} passes to {card_name(w, n)}.", log.BATTLE)


class Spoils(Labelled):
    """§Transfers, §Alliances: the captor shares the captured transferables among his victorious nobles."""

    name = "spoils"
    phase = "combat"
    always_decides = True
    rule = "§Alliances, §Transfers"
    labels = {"give": "award {} to {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["cap"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        c = frame["cards"][0]
        return [("give", [w.cards[c].id, w.cards[n].id]) for n in frame["to"] if state["cz"][n] == Z_NOBLE]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        return f"Spoils: which of your nobles takes {w.cards[frame['cards'][0]].name}? (default: the first)"

    def on_give(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        _give_spoil(state, w.cid(arg[0]), w.cid(arg[1]))
        frame["cards"].pop(0)
        if not frame["cards"]:
            pop(state)


def _owner_hand_crown(state: State, p: int) -> list[int]:
    return hand(state, p)


class Captive(Labelled):
    """The captor disposes of each captive (§Capture of Noble Counters): ransom, release or execution."""

    name = "captive"
    phase = "combat"
    always_decides = True
    rule = "§Capture of Noble Counters"
    labels = {
        "execute": "execute {}", "ransom": "ransom {}", "ransom_draws": "ransom draws {}",
        "ransom_draws_held": "ransom draws held {}", "release": "release {}",
    }

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["cap"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        n = frame["queue"][0]
        nid = w.cards[n].id
        out: list[Action] = [("execute", nid), ("release", nid)]
        held = len(_owner_hand_crown(state, state["ch"][n]))
        for k in range(1, min(3, held) + 1):
            out.append(("ransom", [nid, k]))
        if state["level"] >= 1:
            # E1 §Booty: future Crown draws may be the ransom (ruling K65).
            for k in (1, 2):
                out.append(("ransom_draws", [nid, k]))
                out.append(("ransom_draws_held", [nid, k]))
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        n = frame["queue"][0]
        return (f"{card_name(w, n)} of {role_of(state, state['ch'][n])} is your captive: ask a ransom "
                "(cards from his owner's hand), release him, or execute him (default: execute).")

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """§Capture of Noble Counters: "Any Noble not ransomed in the turn of capture must be executed" (ruling K73)."""
        return offered(self.options(state, frame, role), ("execute", W(state).cards[frame["queue"][0]].id))

    def _next(self, state: State, frame: Frame) -> None:
        frame["queue"].pop(0)
        frame["queue"] = [n for n in frame["queue"] if state["cz"][n] == Z_NOBLE and state["ncap"][n] >= 0]
        if not frame["queue"]:
            pop(state)

    def on_execute(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        self._next(state, frame)
        execute_or_pardon(state, n, role)

    def on_release(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        self._next(state, frame)
        free_captive(state, n, f"{role} releases {card_name(w, n)}")

    def on_ransom_draws(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._ask_draws(state, frame, role, arg, held=False)

    def on_ransom_draws_held(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """E1 §Booty: the same demand, the captor keeping the noble until every draw is taken."""
        self._ask_draws(state, frame, role, arg, held=True)

    def _ask_draws(self, state: State, frame: Frame, role: str, arg: Any, held: bool) -> None:
        w = W(state)
        n = w.cid(arg[0])
        self._next(state, frame)
        push(state, {"step": "ransom", "n": n, "k": int(arg[1]), "cap": frame["cap"], "draws": True, "held": held})
        log.public(state, f"{role} asks {role_of(state, state['ch'][n])} his next {arg[1]} Crown draw(s) "
                   f"for {card_name(w, n)}" + (", who stays his prisoner until they are taken." if held else "."),
                   log.BATTLE)

    def on_ransom(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg[0])
        self._next(state, frame)
        push(state, {"step": "ransom", "n": n, "k": int(arg[1]), "cap": frame["cap"]})
        log.public(state, f"{role} asks {role_of(state, state['ch'][n])} a ransom of {arg[1]} card(s) "
                   f"for {card_name(w, n)}.", log.BATTLE)


def execute_or_pardon(state: State, n: int, role: str) -> None:
    """§Transfers, §Crown Card Key: execution, unless the owner plays a King's Pardon (asked as a step)."""
    if pardons_of(state, state["ch"][n]):
        push(state, {"step": "pardon", "n": n, "by": role})
    else:
        ops.kill_noble(state, n, f"is executed by {role}")


def pardons_of(state: State, p: int) -> list[int]:
    w = W(state)
    return [c for c in hand(state, p) if w.cards[c].kind == K.PARDON]


class Ransom(Labelled):
    """A ransom negotiated (§Capture of Noble Counters: "ransomed back ... for some consideration";
    E1 §Booty: "the defeated player may trade one or more of his future draws"; ruling K95).

    The captor has asked (``k`` cards of the owner's hand, or ``k`` future Crown draws). The
    owner pays, refuses (his noble is then executed), or once counters with another ransom:
    ``ransom`` [noble, k] (k cards of his hand, 1 to 3, as many as he holds) or, with E1,
    ``ransom_draws`` [noble, k] (his next 1 or 2 draws). The captor then ``accept``s the
    counter (it is paid as if he had asked it) or ``decline``s it and holds to his demand,
    which the owner pays or refuses with no further counter. Defaults: the owner refuses (the
    noble is executed, ruling K27); the captor holds to his demand."""

    name = "ransom"
    phase = "combat"
    always_decides = True
    rule = "§Capture of Noble Counters"
    labels = {
        "accept": "accept the counter-offer", "decline": "hold to your demand", "pay": "pay", "refuse": "refuse",
        "ransom": "ransom {}", "ransom_draws": "ransom draws {}",
    }

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        """A counter-offer (ruling K95) says what is offered for whom."""
        if verb in ("ransom", "ransom_draws") and isinstance(arg, list) and len(arg) == 2:
            what = f"your next {arg[1]} Crown draw(s)" if verb == "ransom_draws" else f"{arg[1]} card(s) of your hand"
            return f"counter: offer {what} for {arg_name(W(state), arg[0])}"
        return super().option_label(state, frame, role, verb, arg)

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame.get("stage") == "captor":
            return [role_of(state, frame["cap"])]
        return [role_of(state, state["ch"][frame["n"]])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        if frame.get("stage") == "captor":
            return [("accept", None), ("decline", None)]
        owner = state["ch"][frame["n"]]
        held = len(hand(state, owner))
        out: list[Action] = [("refuse", None)]
        if frame.get("draws") or held >= frame["k"]:
            out.insert(0, ("pay", None))
        if not frame.get("countered"):
            nid = W(state).cards[frame["n"]].id
            asked = ("draws" if frame.get("draws") else "cards", frame["k"])
            out += [("ransom", [nid, k]) for k in range(1, min(3, held) + 1) if asked != ("cards", k)]
            if state["level"] >= 1:
                out += [("ransom_draws", [nid, k]) for k in (1, 2) if asked != ("draws", k)]
        return out

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The owner refuses (the noble is executed, ruling K27); the captor holds to his demand."""
        return offered(self.options(state, frame, role),
                       ("decline", None) if frame.get("stage") == "captor" else ("refuse", None))

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        noble = card_name(w, frame["n"])
        if frame.get("stage") == "captor":
            c = frame["counter"]
            return (f"{role_of(state, state['ch'][frame['n']])} offers {_ransom_words(c['draws'], c['k'], 'his')} "
                    f"for {noble} instead of the {_ransom_words(frame.get('draws', False), frame['k'], 'his')} you "
                    "asked. Accept, or hold to your demand? (default: hold to it)")
        what = _ransom_words(frame.get("draws", False), frame["k"], "your")
        counter = "" if frame.get("countered") else ", counter with another ransom"
        return (f"{role_of(state, frame['cap'])} asks {what} to free {noble}. Pay{counter}, or refuse "
                "(he is then executed)? (default: refuse)")

    def on_ransom(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._counter(state, frame, role, False, int(arg[1]))

    def on_ransom_draws(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._counter(state, frame, role, True, int(arg[1]))

    def _counter(self, state: State, frame: Frame, role: str, draws: bool, k: int) -> None:
        frame["counter"] = {"draws": draws, "k": k}
        frame["countered"] = True
        frame["stage"] = "captor"
        log.public(state, f"{role} counters: {_ransom_words(draws, k, 'his')} for {card_name(W(state), frame['n'])}.",
                   log.BATTLE)

    def on_accept(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        c = frame.pop("counter")
        frame.pop("stage")
        frame["k"], frame["draws"], frame["held"] = c["k"], c["draws"], False
        log.public(state, f"{role} accepts the counter-offer.", log.BATTLE)
        self._pay(state, frame, role_of(state, state["ch"][frame["n"]]))

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame.pop("counter")
        frame.pop("stage")
        log.public(state, f"{role} holds to his demand.", log.BATTLE)

    def on_pay(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._pay(state, frame, role)

    def _pay(self, state: State, frame: Frame, role: str) -> None:
        if frame.get("draws"):
            # E1 §Booty (ruling K65): the captor takes the agreed Crown draws as they come (the
            # engine holds the debtor to them). Held: the noble stays his prisoner, and may no
            # longer be executed, until the last of them is taken (play.receive_crown); else
            # he is freed at once.
            w = W(state)
            n = frame["n"]
            owner = state["ch"][n]
            claim: int | list[int] = [frame["cap"], n] if frame.get("held") else frame["cap"]
            state["booty"].setdefault(str(owner), []).extend([claim] * frame["k"])
            pop(state)
            if frame.get("held"):
                log.public(state, f"{role} agrees to give his next {frame['k']} Crown draw(s); "
                           f"{card_name(w, n)} is held until then.", log.BATTLE)
            else:
                free_captive(state, n, f"{role} gives his next {frame['k']} Crown draw(s); "
                             f"{card_name(w, n)} is freed")
            return
        frame["step"] = "ransom_pay"

    def on_refuse(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        log.public(state, f"{role} refuses the ransom.", log.BATTLE)
        execute_or_pardon(state, frame["n"], role_of(state, frame["cap"]))


def _ransom_words(draws: bool, k: int, whose: str) -> str:
    return f"{whose} next {k} Crown draw(s)" if draws else f"{k} card(s) of {whose} hand"


class RansomPay(Labelled):
    """The owner hands over the ransom cards one by one (they pass unseen to the captor)."""

    name = "ransom_pay"
    phase = "combat"
    always_decides = True
    rule = "§Capture of Noble Counters"
    labels = {"give_card": "pay with {}"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, state["ch"][frame["n"]])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        return [("give_card", w.cards[c].id) for c in hand(state, state["ch"][frame["n"]])]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return (f"Choose a card of your hand for the ransom ({frame['k']} left; default: the first card "
                "that is not a noble).")

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The cards other than nobles first, in hand order, as a standing order pays (K70, K73)."""
        w = W(state)
        cards = [w.cards[c] for c in hand(state, state["ch"][frame["n"]])]
        cards.sort(key=lambda card: card.is_noble)
        return offered(self.options(state, frame, role), ("give_card", cards[0].id)) if cards else None

    def on_give_card(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        c = w.cid(arg)
        cap = frame["cap"]
        state["cz"][c], state["ch"][c] = Z_HAND, cap
        log.private(state, role_of(state, cap), f"You receive {card_name(w, c)} as ransom.", log.CARD)
        log.private(state, role, f"You give {card_name(w, c)} as ransom.", log.CARD)
        frame["k"] -= 1
        if frame["k"] <= 0 or not hand(state, state["ch"][frame["n"]]):
            pop(state)
            free_captive(state, frame["n"], f"{role} pays the ransom; {card_name(w, frame['n'])} is freed")


class Pardon(Labelled):
    """The owner of a noble about to be executed may play a King's Pardon (§Crown Card Key, ruling K26:
    the noble returns to him); default: play it."""

    name = "pardon"
    phase = "combat"
    always_decides = True
    rule = "King's Pardon, §Crown Card Key"
    labels = {"pardon": "pardon", "decline": "decline"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: pardon (when it is an option)."""
        return offered(self.options(state, frame, role), ("pardon", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, state["ch"][frame["n"]])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("pardon", None), ("decline", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        return f"{card_name(w, frame['n'])} is to be executed: play your King's Pardon? (default: yes)"

    def on_pardon(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        pop(state)
        c = pardons_of(state, state["ch"][frame["n"]])[0]
        ops.to_chancery(state, c)
        free_captive(state, frame["n"], f"{role} plays a King's Pardon: {card_name(w, frame['n'])} is spared")

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        ops.kill_noble(state, frame["n"], f"is executed by {frame['by']}")

