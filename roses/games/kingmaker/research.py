"""Kingmaker's action catalogue for the research adapters (roses.ai): every ``(verb, arg)``
the campaign's decisions can offer, built from the game's data (roses.engine.catalogue).

Domains (each sorted): ``square`` (the board's squares), ``place`` (its towns, cities and
castles), ``area``, ``card`` (the Crown cards), ``heir``, ``ship`` (the offices' ships),
``player`` (``P1``..``P8``), ``word`` (the fixed words of the rules' choices), ``int``
(0..63), and ``token``: all of them but the squares. A verb whose argument is one token takes
``("$token",)``; verbs with pairs take the listed list forms. The catalogue is the same for
every player count, rules level and option, so ids never depend on them; the umpire's
standing verbs, the standing orders and the open exchanges (free-form arguments) are not in
it: the adapters play the decisions the rules ask for.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence
from typing import Any

from roses.engine.catalogue import Form, build, sorted_domain
from roses.engine.contract import Action, State, View
from roses.engine.tensor import Layout, TensorCodec, multi_hot, one_hot, positions, zeros
from roses.games.kingmaker.board import load_board, parse_square_id
from roses.games.kingmaker.cards import crown_data

#: The fixed words some choices use (a vote, an offer's kind, a faction as holder, a combat
#: result the umpire enters, a royal house).
WORDS = ("abstain", "attacker", "defender", "faction", "gift", "indecisive", "lancaster", "no", "trade", "yes",
         "york")
TOKEN: Form = ("$token",)
INT: Form = ("$int",)
NONE: Form = ()
#: Verbs whose argument is a pair or a triple, with its forms.
PAIRS: dict[str, tuple[Form, ...]] = {
    "ambush": (("[", "$square", "$player"),),
    "assign": (("[", "$card", "$card"), ("[", "$card", "$word")),
    "battle": (("[", "$square", "$player"),),
    "blockade": (("[", "$holder", "$place"),),
    "command": (("[", "$card", "$card"),),
    "embark": (("[", "$card", "$ship"), ("[", "$card", "$card")),
    "enter": (("[", "$card", "$place"),),
    "escort": (("[", "$heir", "$card"),),
    "give": (("[", "$card", "$card"),),
    "give_heir": (("[", "$heir", "$card"),),
    "give_place": (("[", "$place", "$player"),),
    "home": (("[", "$card", "$place"),),
    "lend_ship": (("[", "$holder", "$player"),),
    "offer_card": (("[", "$card", "$player", "$word"),),
    "place": (("[", "$card", "$place"),),
    "sea_battle": (("[", "$square", "$player"),),
    "town": (("[", "$square", "$player"),),
    "ransom": (("[", "$card", "$int"),),
    "ransom_draws": (("[", "$card", "$int"),),
    "ransom_draws_held": (("[", "$card", "$int"),),
    "transfer": (("[", "$card", "$card"),),
}
#: Verbs whose argument is nothing, a number or one token.
SINGLES = (
    "accept", "allow", "ally", "announce", "answer", "asset", "attend", "back", "call_off", "cards",
    "crown", "deal", "decline", "deny", "done", "drop", "end", "end_alliance", "execute", "execute_heir",
    "execute_house", "fight", "free_move", "give_back", "give_card", "join", "keep", "kill", "leave",
    "meet", "open", "outcome", "pardon", "pass", "pay", "table",
    "pick", "play", "port", "propose", "recall", "refuse", "release", "sail", "sally", "scuttle",
    "select", "send", "siege", "storm", "storm_port", "summon", "to", "town_attack", "town_fight",
    "vote", "writ",
)


@functools.cache
def domains() -> dict[str, tuple[Any, ...]]:

    board = load_board()
    crown = crown_data()
    out: dict[str, tuple[Any, ...]] = {
        "square": sorted_domain(board.squares),
        "place": sorted_domain(board.places),
        "area": sorted_domain(board.areas),
        "card": sorted_domain(c.id for c in crown.cards),
        "heir": sorted_domain(h.id for h in crown.heirs),
        "ship": sorted_domain(s.id for s in crown.office_ships),
        "player": tuple(f"P{i}" for i in range(1, 9)),
        "word": sorted_domain(WORDS),
        "int": tuple(range(64)),
    }
    out["holder"] = sorted_domain((*out["card"], *out["heir"], *out["ship"]))
    out["token"] = sorted_domain(v for k in ("place", "area", "card", "heir", "ship", "player", "word")
                                 for v in out[k])
    return out


@functools.cache
def _catalogue() -> tuple[Action, ...]:
    forms: dict[str, tuple[Form, ...]] = {v: (NONE, INT, TOKEN) for v in SINGLES}
    forms["to"] = (NONE, ("$square",), TOKEN)
    for verb, pair_forms in PAIRS.items():
        forms[verb] = (NONE, INT, TOKEN, *pair_forms)
    return tuple(build(forms, domains()))


def action_space(scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
    """The catalogue (the same for every option)."""
    return list(_catalogue())


#: The verbs of choices the other players cannot tell apart, grouped (:func:`unseen_choices`).
UNSEEN = (("vote",), ("give_back",), ("pick",), ("give_card",), ("select", "sail"))


def unseen_choices(options: dict[str, Any] | None = None) -> list[list[Action]]:
    """:meth:`Rules.unseen_choices`: per group of :data:`UNSEEN`, every catalogue action of its
    verbs. A ballot until Parliament counts them (§Voting on Cards Distributed), the card given
    back in a trade (§Transfers), Treachery's face-down pick (§Event Card Key), a ransom card,
    which passes unseen (§Capture of Noble Counters): the steps whose public log line does not
    name the answer. And the noble or ship chosen to move, which no other player's view shows
    (its moves are seen square by square; one backed out of leaves only the decision's ``idle``
    mark of ruling K90, also unseen); a ship in an unfriendly port, whose owner is asked leave,
    is drawn too, but for that owner (:func:`unseen_in_history`). Everything else is seen:
    moves, attacks, offers and their answers, deals, attendance, the umpire's entries."""
    groups: list[list[Action]] = [[] for _ in UNSEEN]
    where = {verb: i for i, verbs in enumerate(UNSEEN) for verb in verbs}
    for action in _catalogue():
        i = where.get(action[0])
        if i is not None:
            groups[i].append(action)
    return groups


def unseen_in_history(state: State, history: Sequence[tuple[str, str, Any]],
                      role: str) -> dict[int, list[Action] | None]:
    """:meth:`Rules.unseen_in_history`: a ship sailed from a port of ``role``'s that is
    unfriendly to its mover is named to ``role`` when he is asked leave for it
    (§Sea Transportation; the permit step): a ``sail`` followed at once by ``role``'s ``allow`` or
    ``deny``, or the last action while ``role`` is asked, keeps its id for ``role``
    (:func:`unseen_choices` draws it for everyone else)."""
    out: dict[int, list[Action] | None] = {}
    n = len(history)
    for i, (mover, verb, _) in enumerate(history):
        if verb != "sail" or mover == role:
            continue
        if i + 1 < n:
            asked = history[i + 1][0] == role and history[i + 1][1] in ("allow", "deny")
        else:
            top = state["stack"][-1] if state["stack"] else None
            asked = (top is not None and top["step"] == "permit" and "ship" in top
                     and state["roles"][top["p"]] == role)
        if asked:
            out[i] = None
    return out




# ---------------------------------------------------------------------- observation tensor
N_SEATS = 8


class KingmakerCodec(TensorCodec):
    """Kingmaker's observation tensor: every field read from the role's view. Seats are
    absolute (P1..P8; unused seats stay zero), with the viewer's own seat marked."""

    def __init__(self, phases: tuple[str, ...]) -> None:

        d = domains()
        board = load_board()
        self.parse = parse_square_id
        self.cols = max(1, max((parse_square_id(s) or (0, 0))[0] for s in board.squares))
        self.rows = max(1, max((parse_square_id(s) or (0, 0))[1] for s in board.squares))
        self.nobles = tuple(sorted(c.id for c in crown_data().cards if c.kind == "noble"))
        self.noble_at = positions(self.nobles)
        self.places = positions(d["place"])
        self.cards = positions(d["card"])
        self.heirs = d["heir"]
        self.seats = positions(d["player"][:N_SEATS])
        self.phases = positions(phases)
        lay = Layout()
        self.o_scalar = lay.add("scalars", 6, "round/30, Crown deck/80, Chancery/20, Event deck/130, Event "
                                "discard/130, Catastrophe")
        self.o_phase = lay.add("phase", len(phases), "one-hot phase: " + ", ".join(p or "(none)" for p in phases))
        self.o_seats = lay.add("seats", 5 * N_SEATS, "per seat P1..P8: is the viewer, in the game, may act now, "
                               "has the turn, Crown cards in hand/10")
        self.per_noble = 2 + N_SEATS + 1 + 3 + len(self.places)
        self.o_nobles = lay.add("nobles", len(self.nobles) * self.per_noble,
                                f"per noble (sorted ids, {len(self.nobles)}): column/{self.cols}, row/{self.rows}, "
                                "one-hot owner seat, captive, troops/300, awards/5, on the map, one-hot place "
                                f"inside ({len(self.places)})")
        self.per_heir = 5 + N_SEATS
        self.o_heirs = lay.add("heirs", len(self.heirs) * self.per_heir,
                               f"per heir (sorted ids, {len(self.heirs)}): dead, crowned, on the map, column, row, "
                               "one-hot controlling seat")
        self.o_places = lay.add("places", len(self.places) * (N_SEATS + 1),
                                "per place (sorted ids): one-hot owner seat, besieged")
        self.o_hand = lay.add("hand", len(self.cards), "own Crown cards in hand, multi-hot by card id")
        self.o_events = lay.add("event_hand", 1, "own Event cards held/5")
        self.layout = lay

    def _square(self, out: array[float], at: int, sid: Any) -> bool:
        cr = self.parse(sid) if isinstance(sid, str) else None
        if cr is None:
            return False
        out[at] = cr[0] / self.cols
        out[at + 1] = cr[1] / self.rows
        return True

    def encode(self, view: View) -> array[float]:
        out = zeros(self.layout.size)
        o = self.o_scalar
        out[o] = float(view.get("round") or 0) / 30
        for k, (key, scale) in enumerate((("crown_deck", 80), ("chancery", 20), ("event_deck", 130),
                                          ("event_discard", 130))):
            v = view.get(key)
            out[o + 1 + k] = float(len(v) if isinstance(v, list) else v or 0) / scale
        out[o + 5] = float(bool(view.get("catastrophe")))
        one_hot(out, self.o_phase, self.phases, view.get("phase", ""))
        active = set(view.get("active") or [])
        me = view.get("role")
        for p in view.get("players") or []:
            i = self.seats.get(p.get("role"))
            if i is None:
                continue
            b = self.o_seats + 5 * i
            out[b] = float(p.get("role") == me)
            out[b + 1] = 1.0
            out[b + 2] = float(p.get("role") in active)
            out[b + 3] = float(p.get("role") == view.get("turn_of"))
            hand = p.get("hand")
            out[b + 4] = float(len(hand) if isinstance(hand, list) else hand or 0) / 10
            for n in p.get("nobles") or []:
                j = self.noble_at.get(n.get("id"))
                if j is None:
                    continue
                nb = self.o_nobles + j * self.per_noble
                on_map = self._square(out, nb, n.get("square"))
                out[nb + 2 + i] = 1.0
                out[nb + 2 + N_SEATS] = float(n.get("captive_of") is not None)
                out[nb + 3 + N_SEATS] = float(n.get("troops") or 0) / 300
                out[nb + 4 + N_SEATS] = float(len(n.get("awards") or [])) / 5
                out[nb + 5 + N_SEATS] = float(on_map)
                one_hot(out, nb + 6 + N_SEATS, self.places, n.get("inside"))
        for j, h in enumerate(view.get("heirs") or []):
            if j >= len(self.heirs) or not isinstance(h, dict):
                break
            hb = self.o_heirs + self.heirs.index(h["id"]) * self.per_heir if h.get("id") in self.heirs else None
            if hb is None:
                continue
            out[hb] = float(bool(h.get("dead")))
            out[hb + 1] = float(bool(h.get("crowned")))
            out[hb + 2] = float(self._square(out, hb + 3, h.get("square")))
            one_hot(out, hb + 5, self.seats, h.get("controller"))
        for pid, place in (view.get("places") or {}).items():
            i = self.places.get(pid)
            if i is None or not isinstance(place, dict):
                continue
            pb = self.o_places + i * (N_SEATS + 1)
            one_hot(out, pb, self.seats, place.get("owner"))
            out[pb + N_SEATS] = float(place.get("besieged_by") is not None)
        multi_hot(out, self.o_hand, self.cards, [c.get("id") for c in view.get("hand") or [] if isinstance(c, dict)])
        out[self.o_events] = float(len(view.get("event_hand") or [])) / 5
        return out


@functools.cache
def tensor_codec(phases: tuple[str, ...]) -> KingmakerCodec:
    return KingmakerCodec(phases)


__all__ = ["PAIRS", "SINGLES", "WORDS", "KingmakerCodec", "UNSEEN", "action_space", "domains", "tensor_codec", "unseen_choices", "unseen_in_history"]
