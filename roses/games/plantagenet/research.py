"""Plantagenet's action catalogue for the research adapters (roses.ai): every ``(verb, arg)``
the game's decisions can offer, built from the game's data (roses.engine.catalogue).

Domains (each sorted): ``lord``, ``vassal`` (regular and special), ``locale`` (strongholds,
exile boxes and seas), ``card`` (Arts of War), ``command`` (the Command cards of both sides,
``york-1``... ``pass-4``), ``unit`` (troop types, ``retinue`` and the vassals: what a hit
lands on), ``asset``, ``word`` (the fixed words some choices use), ``extra`` (the extra
Command a Parley or Levy may spend, 1 and 3), ``digit`` (0..9), ``int`` (0..63) and
``token``: every name above. Every verb takes nothing, a number or a token; the verbs whose
argument is a compound string (``"L10:oxford"``, ``"york>London+1"``) take the listed forms
as well. The catalogue is the same for every scenario and option.
"""

from __future__ import annotations

import functools
from typing import Any

from roses.engine.catalogue import Form, build, sorted_domain
from roses.engine.contract import Action

#: Fixed words of the rules' choices: battle array positions, hit targets, transport kinds,
#: the Levy-troops modes.
WORDS = ("at", "both", "carts", "center", "commons", "here", "left", "merc", "militia5", "mode", "right", "ship")
#: Verbs whose argument is a compound string, with its forms.
COMPOUND: dict[str, tuple[Form, ...]] = {
    "add": (("$lord", ":", "$word"), ("$lord", ":", "$unit"), ("$lord", ":", "$digit"), ("$lord", ":", "$digit", ":", "$digit")),
    "capability": (("$card", ":", "$lord"),),
    "check": (("$lord", ">", "$lord"), ("$lord", ">", "$lord", "+", "$extra")),
    "fire": (("$card", ":", "$lord"),),
    "free_parley": (("$locale", "+", "$extra"),),
    "front": (("$word", ":", "$lord"),),
    "hit": (("$lord", ":", "$unit"),),
    "levy": (("$lord", ">", "$vassal"), ("$lord", ">", "$vassal", "+", "$extra")),
    "levy_lord": (("$lord", "+", "$extra"),),
    "levy_troops_by": (("$word", "=", "$locale"), ("$word", "=", "$digit"), ("$word", "=", "$word"),
                       ("commons=", "$digit", ",merc=", "$digit")),
    "levy_vassal": (("$vassal", "+", "$extra"),),
    "merchants": (("$locale", "+", "$locale"),),
    "muster_exile": (("$lord", "@", "$locale"),),
    "name": (("$vassal", "@", "$lord"),),
    "parley": (("$locale", "+", "$extra"),),
    "remove": (("$lord", ":", "$unit"),),
    "share": (("$lord", ">", "$lord"),),
    "supply": (("$locale", ":", "$asset"),),
    "tax": (("$lord", ">", "$locale"), ("$lord", ">", "$locale", "+", "$extra")),
}
#: Every verb the rules offer (the compound ones too).
VERBS = (
    "add", "advance", "agitate", "approach", "array", "assign", "cancel", "capability", "card",
    "center", "charge", "charity", "check", "continue", "decline", "disband", "discard", "disembark", "done",
    "end", "engagement", "escape", "event", "exile", "exile_pact", "fight", "fire", "flank", "flee",
    "forage", "free_parley", "free_troops", "front", "give", "give_all", "go", "heralds", "hit",
    "hold", "intercept", "land", "leave", "levy", "levy_capability", "levy_lord", "levy_transport",
    "levy_troops", "levy_troops_by", "levy_vassal", "lock", "lord", "march", "merchants", "muster",
    "muster_exile", "name", "parley", "parley_sure", "pass", "pay", "pillage", "place", "play",
    "regroup", "remove", "reroll", "rout", "sail", "share", "spend", "stand", "supply", "sure_parley",
    "surrender", "take", "tax", "use", "vanguard",
)


@functools.cache
def domains() -> dict[str, tuple[Any, ...]]:
    from roses.games.plantagenet.components import ASSET_TYPES, TROOP_TYPES, load

    c = load()
    vassals = (*c.vassals, *c.special_vassals)
    out: dict[str, tuple[Any, ...]] = {
        "lord": sorted_domain(c.lords),
        "vassal": sorted_domain(vassals),
        "locale": sorted_domain((*c.locales, *c.seas)),
        "card": sorted_domain(c.cards),
        "command": sorted_domain(x for cards in c.command_cards.values() for x in cards),
        "unit": sorted_domain((*TROOP_TYPES, "retinue", *vassals)),
        "asset": sorted_domain(ASSET_TYPES),
        "word": sorted_domain(WORDS),
        "extra": (1, 3),
        "digit": tuple(range(10)),
        "int": tuple(range(64)),
    }
    out["token"] = sorted_domain(v for k in ("lord", "vassal", "locale", "card", "command", "unit", "asset", "word")
                                 for v in out[k])
    return out


@functools.cache
def _catalogue() -> tuple[Action, ...]:
    base: tuple[Form, ...] = ((), ("$int",), ("$token",))
    forms = {v: (*base, *COMPOUND.get(v, ())) for v in VERBS}
    return tuple(build(forms, domains()))


def action_space(scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
    """The catalogue (the same for every scenario and option)."""
    return list(_catalogue())


__all__ = ["COMPOUND", "VERBS", "WORDS", "action_space", "domains"]
