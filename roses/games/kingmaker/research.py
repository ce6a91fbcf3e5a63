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
from typing import Any

from roses.engine.catalogue import Form, build, sorted_domain
from roses.engine.contract import Action

#: The fixed words some choices use (a vote, an offer's kind, a faction as holder).
WORDS = ("abstain", "faction", "gift", "no", "trade", "yes")
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
    "ransom": (("[", "$card", "$int"),),
    "ransom_draws": (("[", "$card", "$int"),),
    "ransom_draws_held": (("[", "$card", "$int"),),
    "transfer": (("[", "$card", "$card"),),
}
#: Verbs whose argument is nothing, a number or one token.
SINGLES = (
    "accept", "allow", "ally", "announce", "answer", "asset", "attend", "back", "call_off", "deal",
    "decline", "deny", "done", "drop", "end", "end_alliance", "execute", "execute_heir", "fight",
    "free_move", "give_back", "give_card", "join", "keep", "leave", "meet", "pardon", "pass", "pay",
    "pick", "play", "port", "propose", "recall", "refuse", "release", "sail", "sally", "scuttle",
    "select", "send", "siege", "storm", "summon", "to", "town_attack", "town_fight", "vote",
)


@functools.cache
def domains() -> dict[str, tuple[Any, ...]]:
    from roses.games.kingmaker.board import load_board
    from roses.games.kingmaker.cards import crown_data

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


__all__ = ["PAIRS", "SINGLES", "WORDS", "action_space", "domains"]
