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
from array import array
from collections.abc import Sequence
from typing import Any

from roses.engine.catalogue import Form, build, sorted_domain
from roses.engine.contract import Action, State, View
from roses.engine.tensor import Kept, Layout, TensorCodec, multi_hot, one_hot, positions, zeros

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
    "give": (("$lord", ":", "$asset"),),  # 4.4.3 Spoils: one Cart or Provender to a Lord
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
    "warden": (("$lord", ":", "$locale"),),
}
#: Every verb the rules offer (the compound ones too).
VERBS = (
    "add", "advance", "agitate", "approach", "array", "assign", "cade_parley", "cancel", "capability", "card",
    "center", "charge", "charity", "check", "continue", "decline", "disband", "discard", "disembark", "done",
    "end", "engagement", "escape", "event", "exile", "exile_pact", "fight", "fire", "flank", "flee",
    "forage", "free_parley", "free_troops", "front", "give", "give_all", "go", "heralds", "hit",
    "hold", "intercept", "king_richard", "land", "later", "leave", "levy", "levy_capability", "levy_lord", "levy_transport",
    "levy_troops", "levy_troops_by", "levy_vassal", "lock", "lord", "march", "merchants", "muster",
    "muster_exile", "name", "parley", "parley_sure", "pass", "pay", "pillage", "place", "play",
    "regroup", "remove", "reroll", "rout", "sail", "share", "spend", "stand", "supply", "sure_parley",
    "surrender", "take", "talbot", "tax", "use", "vanguard", "warden", "yeomen",
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


def unseen_choices(options: dict[str, Any] | None = None) -> list[list[Action]]:
    """:meth:`Rules.unseen_choices`: the choices the other side cannot tell apart (what
    :mod:`roses.games.plantagenet.hidden` keeps hidden). A Plan built in secret, card added or
    last card taken back (4.1.2; the lock is announced); On Bosworth Field the Capabilities
    chosen and the Lords placed at the Front, until both lock in; the Held Event discarded
    unplayed at Reset (4.8.6: only that one is discarded is told); the Lords taken or left
    behind for a Group March or Sail, each told to the side alone (4.3.1: the group is seen
    when it goes). Under Hidden Mats (1.5.3) also the Lord a first-Levy Capability is deployed
    on (3.1.2) and the Capability a Lord Levies (3.4.6). Everything else is seen: Commands,
    Marches, Levies, Battles, Events played."""
    d = domains()
    groups: list[list[Action]] = [
        [*(("add", c) for c in d["command"]), ("remove", None)],
        [("capability", f"{c}:{lord}") for c in d["card"] for lord in d["lord"]],
        [("front", f"{w}:{lord}") for w in d["word"] for lord in d["lord"]],
        [("discard", c) for c in d["card"]],
        [*(("take", lord) for lord in d["lord"]), *(("leave", lord) for lord in d["lord"])],
    ]
    if (options or {}).get("hidden_mats"):
        groups += [[("assign", lord) for lord in d["lord"]], [("levy_capability", c) for c in d["card"]]]
    return groups


@functools.cache
def _called_off() -> list[Action]:
    """What a March or Sail called off at its Group step is drawn from: every March and Sail to
    a Locale (the other side is told neither the destination nor which of the two it was)."""
    locales = domains()["locale"]
    return [*(("march", x) for x in locales), *(("sail", x) for x in locales)]


def unseen_in_history(state: State, history: Sequence[tuple[str, str, Any]],
                      role: str) -> dict[int, list[Action] | None]:
    """:meth:`Rules.unseen_in_history`: a March or Sail of the other side that has a Group
    step (4.3.1; Sail 4.6.1) says its destination to that side alone until the Group goes:
    the other side is asked only who goes with the Lord, and a ``cancel`` is told to the side
    alone. So a March or Sail followed by its Group's ``take``/``leave`` choices and then
    ``cancel``, or still at its Group step (the view names the step), is drawn from every
    March and Sail; one whose Group goes (the move is seen) or that had no Group keeps its id.
    (``cancel`` right after the side's own March or Sail is only the Group's: The King's Name,
    the other ``cancel``, is York's answer to a Lancastrian Levy action.)"""
    out: dict[int, list[Action] | None] = {}
    n = len(history)
    for i, (mover, verb, _) in enumerate(history):
        if mover == role or verb not in ("march", "sail"):
            continue
        j = i + 1
        while j < n and history[j][0] == mover and history[j][1] in ("take", "leave"):
            j += 1
        if j < n:
            hidden = history[j][0] == mover and history[j][1] == "cancel"
        else:
            stack = state["stack"]
            hidden = bool(stack) and state["result"] is None and stack[-1]["step"] == "group"
        if hidden:
            out[i] = _called_off()
    return out




# ---------------------------------------------------------------------- observation tensor
class PlantagenetCodec(TensorCodec):
    """Plantagenet's observation tensor: every field read from the role's view, from its side
    ("own" is the role's side; an Observer's vector puts York first). With Hidden Mats the
    enemy's mats are not in the view, so their fields stay zero."""

    def __init__(self, phases: tuple[str, ...]) -> None:
        d = domains()
        lay = Layout()
        self.lords = d["lord"]
        self.locales = positions(d["locale"])
        self.cards = positions(d["card"])
        self.commands = positions(d["command"])
        self.phases = positions(phases)
        n_loc = len(self.locales)
        self.per = 3 + n_loc + 2 + 2 * len(TROOPS) + len(ASSETS) + 3
        self.o_scalar = lay.add("scalars", 8, "calendar box/15, first box/15, last box/15, own side is King, own "
                                "Influence/40, enemy Influence/40, net Influence for own side/40, threshold/40")
        self.o_phase = lay.add("phase", len(phases), "one-hot phase: " + ", ".join(p or "(none)" for p in phases))
        self.o_active = lay.add("active", 2, "own, enemy: may act now")
        self.o_lords = lay.add("lords", len(self.lords) * self.per,
                               f"per Lord (sorted ids, {len(self.lords)}): own side, enemy side, on the map, one-hot "
                               f"Locale ({n_loc}), in exile, calendar box/15, troops/10 then routed/10 by type "
                               f"({', '.join(TROOPS)}), assets/10 ({', '.join(ASSETS)}), vassals/5, capabilities/2, "
                               "mat shown")
        self.o_favour = lay.add("favour", 2 * n_loc, "per Locale: own Favour, enemy Favour")
        self.o_exhaust = lay.add("exhaustion", n_loc, "per Locale: depleted or exhausted")
        self.o_held = lay.add("aow_held", len(self.cards), "own Arts of War cards held, multi-hot")
        self.o_effect = lay.add("aow_in_effect", len(self.cards), "Arts of War cards in effect (both sides), multi-hot")
        self.o_counts = lay.add("aow_counts", 4, "own deck/40, own held/10, enemy deck/40, enemy held/10")
        self.o_plan = lay.add("plan", len(self.commands), "own Command cards in the plan (draft), multi-hot")
        self.o_revealed = lay.add("revealed", len(self.commands), "Command cards revealed (both sides), multi-hot")
        self.layout = lay
        self.blank = zeros(lay.size)
        #: each Lord's numbers, kept by the values they are made from (roses.engine.tensor.Kept)
        self.lord_kept = Kept(self._lord)
        #: where each Lord's numbers start
        self.lord_at = {lid: self.o_lords + i * self.per for i, lid in enumerate(self.lords)}

    def _lord(self, key: tuple[Any, ...]) -> array[float]:
        """A Lord's numbers (the ``lords`` field's ``per`` of them) from the values
        :meth:`encode` reads from its entry of the view."""
        own_side, enemy_side, on_map, locale, exile, box, on_mat = key
        out = zeros(self.per)
        out[0], out[1], out[2] = float(own_side), float(enemy_side), float(on_map)
        one_hot(out, 3, self.locales, locale)
        b = 3 + len(self.locales)
        out[b] = float(exile)
        out[b + 1] = float(box or 0) / 15
        b += 2
        if on_mat is not None:
            troops, routed, assets, vassals, capabilities = on_mat
            out[b:b + 2 * len(TROOPS) + len(ASSETS)] = array("f", (float(c or 0) / 10 for c in (*troops, *routed, *assets)))
            e = b + 2 * len(TROOPS) + len(ASSETS)
            out[e] = float(vassals) / 5
            out[e + 1] = float(capabilities) / 2
            out[e + 2] = 1.0
        return out

    def encode(self, view: View) -> array[float]:
        out = self.blank[:]
        role = view.get("role")
        own = role if role in SIDES else SIDES[0]
        enemy = SIDES[1] if own == SIDES[0] else SIDES[0]
        infl = view.get("influence") or {}
        o = self.o_scalar
        out[o] = float(view.get("box") or 0) / 15
        out[o + 1] = float(view.get("first_box") or 0) / 15
        out[o + 2] = float(view.get("last_box") or 0) / 15
        out[o + 3] = float(view.get("king") == own)
        out[o + 4] = float(infl.get(own) or 0) / 40
        out[o + 5] = float(infl.get(enemy) or 0) / 40
        net = float(infl.get("net") or 0) / 40
        out[o + 6] = net if own == SIDES[0] else -net
        out[o + 7] = float(view.get("threshold") or 0) / 40
        one_hot(out, self.o_phase, self.phases, view.get("phase", ""))
        active = view.get("active") or []
        out[self.o_active] = float(own in active)
        out[self.o_active + 1] = float(enemy in active)
        lords = view.get("lords") or {}
        per = self.per
        lord_at = self.lord_at
        kept = self.lord_kept
        made = kept.kept.get  # (the kept vectors looked up by a C call; made on a miss)
        for lid, lord in lords.items():
            b = lord_at.get(lid)
            if b is not None and type(lord) is dict:
                # the Lord's numbers from the values they are read from, made once per values
                side = lord.get("side")
                mat = lord.get("mat")
                if isinstance(mat, dict):
                    troops, routed, assets = mat.get("troops") or {}, mat.get("routed") or {}, mat.get("assets") or {}
                    on_mat: Any = (tuple(map(troops.get, TROOPS)), tuple(map(routed.get, TROOPS)),
                                   tuple(map(assets.get, ASSETS)),
                                   len(mat.get("vassals") or ()) + len(mat.get("special_vassals") or ()),
                                   len(mat.get("capabilities") or ()))
                else:
                    on_mat = None
                key = (side == own, side == enemy, lord.get("where") == "map", lord.get("locale"),
                       bool(lord.get("exile")), lord.get("box"), on_mat)
                out[b:b + per] = made(key) or kept(key)
        for loc, side in (view.get("favour") or {}).items():
            at = self.locales.get(loc)
            if at is not None:
                out[self.o_favour + 2 * at + (0 if side == own else 1)] = 1.0
        for loc in view.get("exhaustion") or {}:
            one_hot(out, self.o_exhaust, self.locales, loc)
        aow = view.get("aow") or {}
        for k, side in enumerate((own, enemy)):
            mine = aow.get(side) or {}
            deck, held = mine.get("deck"), mine.get("held")
            out[self.o_counts + 2 * k] = float(len(deck) if isinstance(deck, list) else deck or 0) / 40
            out[self.o_counts + 2 * k + 1] = float(len(held) if isinstance(held, list) else held or 0) / 10
            if side == own and isinstance(held, list):
                multi_hot(out, self.o_held, self.cards, held)
            effect = mine.get("in_effect")
            if isinstance(effect, list):
                multi_hot(out, self.o_effect, self.cards, effect)
        multi_hot(out, self.o_plan, self.commands, [c for c in view.get("plan_draft") or [] if isinstance(c, str)])
        for side in SIDES:
            revealed = ((view.get("command") or {}).get(side) or {}).get("revealed")
            if isinstance(revealed, list):
                multi_hot(out, self.o_revealed, self.commands, [c for c in revealed if isinstance(c, str)])
        return out


TROOPS = ("men_at_arms", "longbowmen", "militia", "mercenaries", "handgunners")
ASSETS = ("provender", "coin", "carts", "ships")
SIDES = ("York", "Lancaster")


@functools.cache
def tensor_codec(phases: tuple[str, ...]) -> PlantagenetCodec:
    return PlantagenetCodec(phases)


__all__ = ["COMPOUND", "VERBS", "WORDS", "PlantagenetCodec", "action_space", "domains", "tensor_codec", "unseen_choices",
           "unseen_in_history"]
