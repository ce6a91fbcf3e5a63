"""Upkeep: Pay (3.2) in the Levy and Feed (4.7) after every Command card.

Pay Troops (3.2.1) and Feed (4.7) are one procedure on two Assets, Coin and Provender:

1. every Lord who must Pay (Feed) spends one Asset per six Troop units on his mat, rounded up,
   from his own mat first; no withholding, no overpaying (3.2.1 GREED, 1.7.2);
2. SHARING: Lords of the side at the same Locale who paid in full and have Assets left must
   cover the Lords there who spent everything and are still short (1.5.3, 3.2.1). Who gives
   to whom is the owner's choice wherever it changes anything (several givers with more than
   is needed, or several takers with less than is needed); otherwise it is done at once;
3. PILLAGE: a Lord still short at an Unexhausted Stronghold must Pillage it (one Pillager per
   Stronghold, chosen by the owner; :func:`services.pillage`), then pays (feeds) what he still
   owes from the Assets gained and shares them as in step 2 (RULINGS R21);
4. UNPAID/UNFED DISBAND: Lords still short (at an Exhausted Stronghold, in an Exile box, or
   short again after the Pillage) Disband, and the side loses the sum of their printed
   Influence ratings plus one per Vassal on their mats.

The order in which a side's Lords pay their own Troops changes nothing (each pays his own
first, 3.2.1 SHARING), and neither does the order of Pillages at different Strongholds, so
neither is asked (RULINGS R21).

Pay Lords (3.2.2) and Pay Vassals (3.2.3) are the steps :class:`PayLords` and
:class:`PayVassals`.

Frames: ``{"step": "pay_troops" | "feed", "side": S, "owed": None | {lord: n}}``; a Feed
frame may carry ``"lords": [ids]`` to Feed only those Lords (e.g. at Disembark, 4.8.2), else
it Feeds the side's Lords in ``state["moved"]`` (4.7). ``owed`` is None until the step has
run its first, automatic part. When a Feed frame pops, its side's Lords leave
``state["moved"]`` (4.7 REMOVE MARKERS).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import SUPPLY, private, public
from roses.engine.steps import Frame, Step, pop
from roses.games.plantagenet import card_rules as cr
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import (
    BOARD_AND_TRACKS,
    CAMPAIGN,
    LEVY,
    LORDS_PART,
    NOT_CARDS,
    TRACKS_PART,
    changed,
    disband_parts,
)
from roses.games.plantagenet.components import TROOP_TYPES
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.services import load

#: Troop units paid (fed) by one Coin (Provender), rounded up (3.2.1, 4.7).
UNITS_PER_ASSET: Final = 6


def troop_units(mat: dict[str, Any]) -> int:
    """Troop units on a mat: wooden pieces only, not the Retinue or Vassals (3.2.1 NOTE)."""
    return sum(map(mat["troops"].__getitem__, TROOP_TYPES))


def upkeep_need(mat: dict[str, Any]) -> int:
    """Coin to Pay (Provender to Feed) a mat's Troops: one per six units, rounded up (3.2.1, 4.7)."""
    return -(-troop_units(mat) // UNITS_PER_ASSET)


def hidden_mats(state: State) -> bool:
    return bool(state["options"].get("hidden_mats"))


def mat_log(state: State, side: str, text: str) -> None:
    """A line about mat contents: public, or only the owner's with Hidden Mats (1.5.3)."""
    if hidden_mats(state):
        private(state, side, text, SUPPLY)
    else:
        public(state, text, SUPPLY)


def lord_name(lord: str) -> str:
    return _LORD_NAMES.get(lord) or _name(lord)


def _name(lord: str) -> str:
    """A Lord's name, kept in :data:`_LORD_NAMES` (the component data never change)."""
    _LORD_NAMES[lord] = name = str(load().lords[lord]["name"])
    return name


_LORD_NAMES: Final[dict[str, str]] = {}


def _locale_of(state: State, lord: str) -> str:
    return str(state["lords"][lord]["locale"])


class Upkeep(Step):
    """Pay Troops (3.2.1) or Feed (4.7) for one side; see the module docstring."""

    # paying or feeding from the mats, Sharing, Madame La Grande's Coin: the mats; a Pillage and
    # an Unpaid/Unfed Disband count their wider changes themselves (common.changed)
    changes = {"share": LORDS_PART}
    run_changes = LORDS_PART

    #: The Asset spent: "coin" (Pay) or "provender" (Feed).
    asset: ClassVar[str] = ""
    #: Words for prompts and the log.
    verb_done: ClassVar[str] = ""
    asset_word: ClassVar[str] = ""
    short_word: ClassVar[str] = ""
    section: ClassVar[str] = ""

    # ----- who pays -------------------------------------------------------------------------
    def payers(self, state: State, frame: Frame) -> list[str]:
        raise NotImplementedError

    # ----- the current situation -----------------------------------------------------------
    def _sharing(self, state: State, frame: Frame) -> tuple[list[Action], bool]:
        """The (giver, taker) pairs of the first Locale where Sharing is still possible, and
        whether the owner has a real choice there."""
        owed: dict[str, int] = frame["owed"]
        if not owed:
            return [], False
        side = frame["side"]
        lords = state["lords"]
        asset = self.asset
        by_locale: dict[str, list[str]] = {}
        for lid in owed:
            by_locale.setdefault(_locale_of(state, lid), []).append(lid)
        for loc in sorted(by_locale):
            takers = sorted(by_locale[loc])
            givers = [lid for lid in sv.lords_at(state, loc, side)
                      if lid not in owed and lords[lid]["mat"]["assets"][asset] > 0]
            if not givers:
                continue
            givers.sort()
            have = sum(lords[g]["mat"]["assets"][asset] for g in givers)
            short = sum(owed[t] for t in takers)
            choice = (len(givers) > 1 and have > short) or (len(takers) > 1 and have < short)
            return [("share", f"{g}>{t}") for g in givers for t in takers], choice
        return [], False

    def _pillagers(self, state: State, frame: Frame) -> list[str]:
        """The short Lords at the first Unexhausted Stronghold holding any (3.2.1 PILLAGE)."""
        c = load()
        by_locale: dict[str, list[str]] = {}
        for lid in frame["owed"]:
            loc = _locale_of(state, lid)
            if c.locales[loc]["kind"] == "stronghold" and not sv.is_exhausted(state, loc):
                by_locale.setdefault(loc, []).append(lid)
        if not by_locale:
            return []
        return sorted(by_locale[min(by_locale)])

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame.get("owed") is None:
            return []
        pairs, choice = self._sharing(state, frame)
        if pairs:
            return [frame["side"]] if choice else []
        return [frame["side"]] if len(self._pillagers(state, frame)) > 1 else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        pairs, choice = self._sharing(state, frame)
        if pairs:
            return pairs if choice else []
        return [("pillage", lid) for lid in self._pillagers(state, frame)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        owed = frame.get("owed") or {}
        shorts = ", ".join(f"{lord_name(lid)} {n}" for lid, n in sorted(owed.items()))
        if role != side:
            return f"{self.section}: waiting for {side} ({self.short_word}: {shorts})."
        pairs, _choice = self._sharing(state, frame)
        if pairs:
            return (f"{self.section}: Sharing — choose who gives one {self.asset_word} to whom "
                    f"(still short: {shorts}).")
        return (f"{self.section} PILLAGE: choose the one Lord who Pillages "
                f"{_locale_of(state, self._pillagers(state, frame)[0])} (short: {shorts}).")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "share":
            g, t = str(arg).split(">")
            return f"{lord_name(g)} gives 1 {self.asset_word} to {lord_name(t)}"
        if verb == "pillage":
            return f"{lord_name(arg)} Pillages {_locale_of(state, arg)}"
        return f"{verb} {arg}"

    # ----- automatic progress -------------------------------------------------------------
    def run(self, state: State, frame: Frame) -> None:
        if frame.get("owed") is None:
            self._pay_own(state, frame)
            return
        pairs, _choice = self._sharing(state, frame)
        if pairs:
            self._share_all(state, frame, pairs)
            return
        pillagers = self._pillagers(state, frame)
        if pillagers:
            self._pillage(state, frame, pillagers[0])
            return
        self._disband_short(state, frame)
        self.finish(state, frame)

    def _pay_own(self, state: State, frame: Frame) -> None:
        """Every Lord pays his own Troops from his own mat, as far as he can (3.2.1)."""
        side, asset = frame["side"], self.asset
        owed: dict[str, int] = {}
        spent: list[str] = []
        for lid in self.payers(state, frame):
            mat = state["lords"][lid]["mat"]
            need = upkeep_need(mat)
            paid = min(need, mat["assets"][asset])
            mat["assets"][asset] -= paid
            if paid:
                spent.append(f"{lord_name(lid)} {paid}")
            if need > paid:
                owed[lid] = need - paid
        frame["owed"] = owed
        if spent:
            mat_log(state, side, f"{self.section}: {side} {self.verb_done} ({self.asset_word}: {', '.join(spent)}).")
        if owed:
            # 1.5.3 Hidden Mats: a shortfall is declared to verify the Pillage or Disband.
            public(state, f"{self.section}: {', '.join(lord_name(lid) for lid in sorted(owed))} "
                          f"{'is' if len(owed) == 1 else 'are'} short of {self.asset_word} "
                          f"({', '.join(str(owed[lid]) for lid in sorted(owed))}).", SUPPLY)
            if hidden_mats(state):
                mark_reveal(state)

    def _give(self, state: State, frame: Frame, giver: str, taker: str, n: int) -> None:
        owed = frame["owed"]
        state["lords"][giver]["mat"]["assets"][self.asset] -= n
        owed[taker] -= n
        if owed[taker] == 0:
            del owed[taker]
        mat_log(state, frame["side"], f"Sharing: {lord_name(giver)} gives {n} {self.asset_word} "
                                      f"for {lord_name(taker)}'s Troops (1.5.3).")

    def _share_all(self, state: State, frame: Frame, pairs: list[Action]) -> None:
        """Sharing at one Locale where the owner has no choice: all that can be given is."""
        givers: list[str] = []
        takers: list[str] = []
        for _verb, arg in pairs:
            g, t = str(arg).split(">")
            if g not in givers:
                givers.append(g)
            if t not in takers:
                takers.append(t)
        owed = frame["owed"]
        for t in takers:
            for g in givers:
                if t not in owed:
                    break
                n = min(owed[t], state["lords"][g]["mat"]["assets"][self.asset])
                if n:
                    self._give(state, frame, g, t, n)

    def _pillage(self, state: State, frame: Frame, lord: str) -> None:
        """3.2.1 PROCEDURE, then the Pillager pays (feeds) what he still owes from what he gained."""
        side = frame["side"]
        here = _locale_of(state, lord)
        row = load().tables["strongholds"][load().locales[here]["type"]]
        changed(NOT_CARDS)  # the Assets, the Influence track, the Exhaustion, the Favour
        lost = sv.pillage(state, lord)
        public(state, f"{lord_name(lord)} Pillages {here}: +{row['tax']} Coin, +{row['supply']} Provender; "
                      f"{side} loses {lost} Influence; {here} Exhausted and Enemy, its neighbours "
                      f"shift toward {sv.other(side)} (3.2.1).", SUPPLY)
        owed = frame["owed"]
        mat = state["lords"][lord]["mat"]
        n = min(owed[lord], mat["assets"][self.asset])
        mat["assets"][self.asset] -= n
        owed[lord] -= n
        if owed[lord] == 0:
            del owed[lord]

    def _disband_short(self, state: State, frame: Frame) -> None:
        """3.2.1 UNPAID/UNFED DISBAND with its Influence penalty."""
        owed = frame["owed"]
        if not owed:
            return
        side = frame["side"]
        short = sorted(owed)
        changed(TRACKS_PART.union(*(disband_parts(state, lid) for lid in short)))
        penalty = sv.unpaid_disband_penalty(state, short)
        sv.lose_influence(state, side, penalty)
        for lid in short:
            sv.disband_lord(state, lid)
        frame["owed"] = {}
        public(state, f"{', '.join(lord_name(lid) for lid in short)} "
                      f"Disband{'s' if len(short) == 1 else ''} {self.short_word}: {side} loses "
                      f"{penalty} Influence (3.2.1).", SUPPLY)

    def finish(self, state: State, frame: Frame) -> None:
        pop(state)

    # ----- the owner's choices ----------------------------------------------------------
    def on_share(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        g, t = str(arg).split(">")
        self._give(state, frame, g, t, 1)

    def on_pillage(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._pillage(state, frame, str(arg))


class PayTroops(Upkeep):
    """3.2.1 Pay Troops: every Mustered Lord of the side on the map pays Coin."""

    name = "pay_troops"
    phase = LEVY
    rule = "3.2.1"
    asset = "coin"
    asset_word = "Coin"
    verb_done = "pays its Troops"
    short_word = "Unpaid"
    section = "Pay Troops (3.2.1)"

    def payers(self, state: State, frame: Frame) -> list[str]:
        free = cr.percys_power(state, frame["side"])  # L14 Percy's Power: Pay in the North is free
        return sorted(lid for lid in sv.on_map(state, frame["side"]) if lid not in free)

    def run(self, state: State, frame: Frame) -> None:
        if frame.get("owed") is None:  # L37 Madame La Grande: 1 Coin as the Pay segment begins
            for lid in cr.madame_la_grande(state, frame["side"]):
                mat_log(state, frame["side"], f"Madame La Grande (L37): {lord_name(lid)} gains 1 Coin.")
        super().run(state, frame)


class Feed(Upkeep):
    """4.7 Feed: the side's Lords marked Moved/Fought spend Provender (on the map or at Sea)."""

    name = "feed"
    phase = CAMPAIGN
    rule = "4.7"
    asset = "provender"
    asset_word = "Provender"
    verb_done = "feeds its Troops"
    short_word = "Unfed"
    section = "Feed (4.7)"

    def _due(self, state: State, frame: Frame) -> list[str]:
        side = frame["side"]
        lords = state["lords"]
        wanted = frame.get("lords")
        pool = state["moved"] if wanted is None else wanted
        return sorted(lid for lid in pool
                      if lords[lid]["where"] in (Where.MAP, Where.SEA) and sv.side_of(lid) == side)

    def payers(self, state: State, frame: Frame) -> list[str]:
        due = self._due(state, frame)
        skip = state.get("cards", {}).get("skip_feed")  # L28 Rebel Supply Depot: this Feed is skipped
        return [lid for lid in due if lid not in skip] if skip else due

    def finish(self, state: State, frame: Frame) -> None:
        side = frame["side"]
        skip = state.get("cards", {}).get("skip_feed")
        if skip:  # the skipped Feed is over for those who were due to Feed now
            due = set(self._due(state, frame))
            state["cards"]["skip_feed"] = [lid for lid in skip if lid not in due]
        state["moved"] = [lid for lid in state["moved"] if sv.side_of(lid) != side]
        pop(state)


class PayLords(Step):
    """3.2.2 Pay Lords: the side may first Disband any of its Lords on the map, then pays one
    Influence point per Lord at a Stronghold and two per Lord in an Exile box."""

    name = "pay_lords"
    phase = LEVY
    rule = "3.2.2"
    # paying moves the Influence track; a Disband counts what it changes (common.disband_parts)
    changes = {"pay": TRACKS_PART, "disband": frozenset()}
    run_changes = TRACKS_PART

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if sv.any_on_map(state, frame["side"]) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("disband", lid) for lid in sorted(sv.on_map(state, frame["side"]))] + [("pay", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        if role != side:
            return f"Pay Lords (3.2.2): waiting for {side}."
        return (f"Pay Lords (3.2.2): Disband any Lords first, or pay {lords_cost(state, side)} "
                "Influence for those on the map (1 per Stronghold, 2 per Exile box).")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "disband":
            return f"Disband {lord_name(arg)} (3.2.4)"
        return f"Pay {lords_cost(state, frame['side'])} Influence for the Lords"

    def on_disband(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        changed(disband_parts(state, arg))  # (declared: nothing)
        sv.disband_lord(state, arg)
        public(state, f"{frame['side']} Disbands {lord_name(arg)} (3.2.2, 3.2.4).", SUPPLY)

    def on_pay(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self.run(state, frame)

    def run(self, state: State, frame: Frame) -> None:
        side = frame["side"]
        cost = lords_cost(state, side)
        if cost:
            sv.lose_influence(state, side, cost)
            public(state, f"Pay Lords: {side} pays {cost} Influence (3.2.2).", SUPPLY)
        pop(state)


def lords_cost(state: State, side: str) -> int:
    """3.2.2: 1 Influence per Lord at a Stronghold, 2 per Lord in an Exile box."""
    c = load()
    free = cr.percys_power(state, side)  # L14 Percy's Power
    return sum(2 if c.locales[state["lords"][lid]["locale"]]["kind"] == "exile" else 1
               for lid in sv.on_map(state, side) if lid not in free)


def vassals_due(state: State, side: str) -> list[str]:
    """3.2.3: the side's Mustered Vassals whose face-up marker is in the current Turn's box."""
    out = []
    for vid, v in state["vassals"].items():
        if v["where"] == "mat" and v["box"] == state["box"] and v["lord"] and sv.side_of(v["lord"]) == side:
            out.append(vid)
    return sorted(out)


class PayVassals(Step):
    """3.2.3 Pay Vassals: for each due Vassal, pay 1 Influence and shift its marker one box
    right, or Disband it (3.2.4)."""

    name = "pay_vassals"
    phase = LEVY
    rule = "3.2.3"
    # paying moves the Influence track and the Vassal's marker (a Disband: any part, 3.2.4)
    changes = {"pay": BOARD_AND_TRACKS}
    run_changes = frozenset()  # the frame popped

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if vassals_due(state, frame["side"]) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        due = vassals_due(state, frame["side"])
        return [("pay", v) for v in due] + [("disband", v) for v in due]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        if role != side:
            return f"Pay Vassals (3.2.3): waiting for {side}."
        names = ", ".join(vassal_name(v) for v in vassals_due(state, side))
        return f"Pay Vassals (3.2.3): pay 1 Influence to keep each Vassal due now, or Disband it ({names})."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "pay":
            return f"Pay 1 Influence for {vassal_name(arg)}"
        return f"Disband {vassal_name(arg)}"

    def on_pay(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        v = state["vassals"][arg]
        if v["lord"] not in cr.percys_power(state, frame["side"]):  # L14 Percy's Power: the shift is free
            sv.lose_influence(state, frame["side"], 1)
        v["box"] = sv.calendar_shift(v["box"], 1)
        public(state, f"{frame['side']} pays 1 Influence for Vassal {vassal_name(arg)}: "
                      f"its marker moves to box {v['box']} (3.2.3).", SUPPLY)

    def on_disband(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        sv.disband_vassal(state, arg)
        public(state, f"Vassal {vassal_name(arg)} Disbands (3.2.3, 3.2.4).", SUPPLY)

    def run(self, state: State, frame: Frame) -> None:
        pop(state)


def vassal_name(vid: str) -> str:
    return str(load().vassals[vid]["name"])


#: The upkeep steps, for the game's step table.
UPKEEP_STEPS: Final[list[Step]] = [PayTroops(), Feed(), PayLords(), PayVassals()]
