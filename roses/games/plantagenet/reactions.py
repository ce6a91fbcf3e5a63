"""Reaction windows: the moments at which a side may play a Held Event or use a reactive
Capability while the game waits for it (3.1.3, 1.9.1; RULINGS R50-R51).

A window is a frame ``{"step": "react", "side": S, "window": W, ...}`` (Battle windows use the
step ``battle_event``, same machinery). Each window ``W`` is described once in
:data:`WINDOWS` (filled by :mod:`cards`): the Event keys that may be played at that moment,
the Capability keys that may be used, what must hold for them from public knowledge, and what
playing them does.

The pause itself must not tell the other side what the side holds (RULINGS R50). By default a
window waits for the side whenever, from what the other side can know, it *could* play
something there: the public conditions of the moment hold, the side has Held Events, and a
card of that Event is not known to be elsewhere (in effect, on a visible mat...). The side
then may play a card it holds or answer "pass" (the only answer when it holds none). With the
game option ``quick_reactions_<side>`` the window waits only when the side really holds a card
it may play now: faster, but the pause then tells the other side that it does. A reactive
Capability on a visible mat is public, so its window waits whenever the Capability may be used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from roses.engine.contract import Action, State
from roses.engine.steps import Frame, Step, pop
from roses.games.plantagenet import arts
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet.common import CAMPAIGN
from roses.games.plantagenet.components import load


def _always(state: State, frame: Frame) -> bool:
    return True


def _any_card(state: State, frame: Frame, card: str) -> bool:
    return True


def _no_lords(state: State, frame: Frame) -> list[str]:
    return []


@dataclass(frozen=True)
class Window:
    """One kind of reaction moment."""

    #: What the moment is, for prompts ("at this Approach").
    moment: str
    #: Event keys that may be played here (Held Events, 3.1.3).
    events: frozenset[str] = frozenset()
    #: Public conditions of the moment (the same for both sides to see).
    public: Callable[[State, Frame], bool] = _always
    #: A card's own conditions at this moment (public ones: where the Battle is...).
    card_ok: Callable[[State, Frame, str], bool] = _any_card
    #: Capability keys that may be used here, and the Lords whose mats may hold them.
    capabilities: frozenset[str] = frozenset()
    cap_lords: Callable[[State, Frame], list[str]] = _no_lords
    #: What playing (``play``) or using (``use``) a card does; they must pop the frame or
    #: leave it for more plays. Defaults: play the Held Event (to its deck) and pop.
    on_play: Callable[[State, Frame, str], None] | None = None
    on_use: Callable[[State, Frame, str], None] | None = None
    #: Several cards may be played at this moment (the frame stays until "pass").
    several: bool = False
    #: Each Event key's cards (filled from ``events``).
    cards: frozenset[str] = field(default=frozenset())


#: Every kind of window, by name (filled by :mod:`cards`).
WINDOWS: Final[dict[str, Window]] = {}


def register(name: str, window: Window) -> Window:
    cards = frozenset(cid for key in window.events for cid in fx.event_cards(key))
    w = replace(window, cards=cards)
    WINDOWS[name] = w
    return w


def quick(state: State, side: str) -> bool:
    """The side chose to be asked only when it holds a card it may play (RULINGS R50)."""
    return bool(state["options"].get(f"quick_reactions_{side.lower()}"))


def playable_held(state: State, frame: Frame) -> list[str]:
    """The side's Held Events it may play in this window now."""
    w = WINDOWS[frame["window"]]
    cards = w.cards
    return [cid for cid in state["aow"][frame["side"]]["held"] if cid in cards and w.card_ok(state, frame, cid)]


def usable_capabilities(state: State, frame: Frame) -> list[str]:
    """Capability cards of the window's Lords that may be used now."""
    w = WINDOWS[frame["window"]]
    if not w.capabilities:
        return []
    keys, wanted = fx.CAPABILITY_KEYS, w.capabilities
    for d in state["lords"].values():
        mat = d["mat"]
        if mat and mat["capabilities"] and any(keys[cid] in wanted for cid in mat["capabilities"]):
            break
    else:
        return []  # no mat holds one: the window's Lords need not be found
    out = []
    for lid in w.cap_lords(state, frame):
        mat = state["lords"][lid]["mat"]
        if mat:
            out += [cid for cid in mat["capabilities"] if fx.CAPABILITY_KEYS[cid] in w.capabilities]
    return out


def could_hold(state: State, side: str, cards: frozenset[str]) -> bool:
    """From what the other side can know: ``side`` holds Events, and one of ``cards`` is not
    known to be elsewhere (it may be in its deck or hand, or under Hidden Mats on a mat)."""
    zones = state["aow"][side]
    if not zones["held"]:
        return False
    hidden = state["options"].get("hidden_mats")
    for cid in cards:
        if cid in zones["held"] or cid in zones["deck"] or cid in zones["drawn"]:
            return True
        if hidden and cid in zones["in_game"] and _on_hidden_mat(state, cid):
            return True
    return False


def _on_hidden_mat(state: State, card: str) -> bool:
    b = state.get("battle")
    for lid, d in state["lords"].items():
        mat = d["mat"]
        if mat and card in mat["capabilities"]:
            return not (b is not None and lid in b["lords"])
    return False


def _could_use(state: State, frame: Frame, w: Window) -> bool:
    """From public knowledge: a Lord of the window may hold one of its Capabilities (on his
    visible mat, or possibly on his hidden mat, RULINGS R50)."""
    if usable_capabilities(state, frame):
        return True
    if not state["options"].get("hidden_mats") or quick(state, frame["side"]):
        return False
    side = frame["side"]
    zones = state["aow"][side]
    lords = w.cap_lords(state, frame)
    if not lords:
        return False
    for key in w.capabilities:
        for cid in fx.capability_cards(key):
            if fx.card_side(cid) == side and cid in zones["in_game"] and (
                    cid in zones["deck"] or cid in zones["held"] or _on_hidden_mat(state, cid)):
                return True
    return False


def offered(state: State, frame: Frame) -> bool:
    """Whether the window waits for its side (module docs)."""
    w = WINDOWS[frame["window"]]
    side = frame["side"]
    if w.capabilities and _could_use(state, frame, w):
        return True
    if not w.cards or not state["aow"][side]["held"]:
        return False
    if not w.public(state, frame):
        return False
    if quick(state, side):
        return bool(playable_held(state, frame))
    return could_hold(state, side, frozenset(c for c in w.cards if fx.card_side(c) == side and w.card_ok(state, frame, c)))


def push_window(state: State, side: str, window: str, **ctx: Any) -> bool:
    """Push a window for ``side`` if it may wait (returns whether it was pushed)."""
    frame: Frame = {"step": "react", "side": side, "window": window, **ctx}
    if offered(state, frame):
        state["stack"].append(frame)
        return True
    return False


class React(Step):
    """A reaction window (module docs): play a Held Event, use a Capability, or pass."""

    name = "react"
    phase = CAMPAIGN
    rule = "3.1.3"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if offered(state, frame) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = [("play", cid) for cid in playable_held(state, frame)]
        out += [("use", cid) for cid in usable_capabilities(state, frame)]
        return out + [("pass", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = WINDOWS[frame["window"]]
        if role != frame["side"]:
            return f"{frame['side']} may play a card {w.moment} (3.1.3)."
        mine = playable_held(state, frame) + usable_capabilities(state, frame)
        if not mine:
            return f"{w.moment[0].upper()}{w.moment[1:]}: you hold no card to play now — Pass."
        return f"{w.moment[0].upper()}{w.moment[1:]}: play a card or Pass (3.1.3)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "play":
            return f"Play {arts.event_title(arg)} ({arg})"
        if verb == "use":
            return f"Use {arts.capability_title(arg)} ({arg})"
        return "Pass"

    def run(self, state: State, frame: Frame) -> None:
        pop(state)

    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def on_play(self, state: State, frame: Frame, role: str, cid: str) -> None:
        w = WINDOWS[frame["window"]]
        if w.on_play is not None:
            w.on_play(state, frame, cid)
            return
        arts.play_held(state, role, cid)
        if not w.several and state["stack"] and state["stack"][-1] is frame:
            pop(state)
        # With several plays allowed the window stays while it may wait (``offered``), so that
        # its closing does not tell the other side that nothing more is held.

    def on_use(self, state: State, frame: Frame, role: str, cid: str) -> None:
        w = WINDOWS[frame["window"]]
        if w.on_use is not None:
            w.on_use(state, frame, cid)
        else:  # pragma: no cover - every window with Capabilities says what they do
            pop(state)


def lord_name(lord: str) -> str:
    return str(load().lords[lord]["name"])


#: The reaction steps, for the game's step table.
REACT_STEPS: Final[list[Step]] = [React()]


# ----- Held Events played during the holder's own decisions -----------------------------------
@dataclass(frozen=True)
class OwnTime:
    """A Held Event its holder may play while deciding anyway (no window, so nothing leaks):
    ``where`` names the decisions that offer it ("muster": a side's Muster between its Lords'
    actions, "actions": an Active Lord's Command actions); ``condition`` is what must hold;
    ``play`` plays it (the card leaves the hand there)."""

    where: frozenset[str]
    condition: Callable[[State, str, str], bool]
    play: Callable[[State, str, str], None]


#: By Event key (filled by :mod:`cards`).
OWN_TIME: Final[dict[str, OwnTime]] = {}


def own_time_options(state: State, side: str, where: str) -> list[Action]:
    """``("event", card)`` for each Held Event ``side`` may play now at ``where``."""
    held = state["aow"][side]["held"]
    if not held:
        return []
    out: list[Action] = []
    for cid in held:
        spec = OWN_TIME.get(fx.EVENT_KEYS[cid])
        if spec is not None and where in spec.where and spec.condition(state, side, cid):
            out.append(("event", cid))
    return out


def could_play_own_time(state: State, side: str, where: str) -> bool:
    """Whether ``side``'s own decision at ``where`` stays open for Held Events after everything
    else is done, from what the other side can know (RULINGS R50, R51): the side holds Events and
    one of the cards it could play there now (public conditions) is not known to be elsewhere.
    With the side's quick reactions, only when it really holds one."""
    if not state["aow"][side]["held"]:
        return False
    if quick(state, side):
        return bool(own_time_options(state, side, where))
    cards = frozenset(cid for key, spec in OWN_TIME.items() if where in spec.where
                      for cid in fx.event_cards(key)
                      if fx.card_side(cid) == side and spec.condition(state, side, cid))
    return could_hold(state, side, cards)


def play_own_time(state: State, side: str, cid: str) -> None:
    OWN_TIME[fx.EVENT_KEYS[cid]].play(state, side, cid)


# ----- moments the parts announce to the cards --------------------------------------------------
#: Callbacks by moment (filled by :mod:`cards`): ``end_of_levy`` ``(state)`` (3.4.6 NOTE,
#: before This Levy Events end); ``moved`` ``(state, lords)`` (Lords arrived at a Locale).
HOOKS: Final[dict[str, list[Callable[..., None]]]] = {"end_of_levy": [], "moved": []}


def moved(state: State, lords: list[str]) -> None:
    for fn in HOOKS["moved"]:
        fn(state, lords)


def end_of_levy(state: State) -> None:
    for fn in HOOKS["end_of_levy"]:
        fn(state)
