"""The cards: the deal and the mulligan (C4, 5.1), the Card Phase (1.1) and Player 1 (C5-C8).

Steps: :class:`Mulligan` (both players at once), :class:`MulliganReply`, :class:`CardPhase`
(both players at once, secret until both are in).
"""

from __future__ import annotations

from typing import Any

from roses.engine import rng, steps
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import CARD, TURN, private, public
from roses.engine.steps import Frame
from roses.games.richard3 import action
from roses.games.richard3.base import RichardStep, side_of
from roses.games.richard3.common import NONE
from roses.games.richard3.data import (
    CARD_AP,
    CARD_EVENT,
    CARD_NAME,
    MULLIGAN_MAX,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    N_CARDS,
    ROLES,
)
from roses.games.richard3.state import CardFrame, MulliganFrame, MulliganReplyFrame


# ======================================================================= the deal (C4, 5.1)
def deal(state: State) -> None:
    """Shuffle all 25 cards and deal 7 to each player (C4); then the mulligan question (5.1)."""
    deck = list(range(N_CARDS))
    rng.shuffle(state, deck)
    state["hands"] = [sorted(deck[:7]), sorted(deck[7:14])]
    state["deck"] = deck[14:]
    state["discard"] = []
    state["played"] = [-1, -1]
    state["mulligan_used"] = [0, 0]
    _ask_mulligan(state)


def _ask_mulligan(state: State) -> None:
    frame: MulliganFrame = {"step": "mulligan", "mull": [NONE, NONE]}
    state["stack"] = [frame]
    for s in (0, 1):
        private(state, ROLES[s], kind=CARD, text="Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s])
                + f" ({hand_ap(state, s)} AP).")


def hand_ap(state: State, s: int) -> int:
    return sum(CARD_AP[c] for c in state["hands"][s])


def _can_mulligan(state: State, s: int) -> bool:
    return not state["mulligan_used"][s] and hand_ap(state, s) <= MULLIGAN_MAX


def _redeal(state: State, sides: list[int]) -> None:
    """Reshuffle all available cards (the named hands and the undealt ones) and deal anew."""
    cards = list(state["deck"])
    for s in sides:
        cards.extend(state["hands"][s])
    rng.shuffle(state, cards)
    for s in sides:
        state["hands"][s] = sorted(cards[:7])
        cards = cards[7:]
    state["deck"] = cards


def _after_redeal(state: State) -> None:
    if all(state["mulligan_used"]):
        for s in (0, 1):
            private(state, ROLES[s], kind=CARD, text="Your hand: " + ", ".join(CARD_NAME[c] for c in state["hands"][s]) + ".")
        start_turn(state)
    else:
        _ask_mulligan(state)


_KEEP_OR_REDEAL: tuple[Action, ...] = (("keep", None), ("redeal", None))


class Mulligan(RichardStep):
    """Keep the hand or ask for a redeal, both players at once (5.1)."""

    name = "mulligan"
    phase = "mulligan"
    rule = "5.1"
    what = "the choice to keep a hand or ask for a redeal"
    doing = {"keep": "keep the hand", "redeal": "ask for a redeal"}
    labels = {"keep": "Keep the hand", "redeal": "Ask for a redeal"}
    highlighted = False

    def actors(self, state: State, frame: Frame) -> list[str]:
        mull = frame["mull"]
        return [ROLES[s] for s in (0, 1) if mull[s] < 0]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return list(_KEEP_OR_REDEAL) if _can_mulligan(state, side_of(role)) else [("keep", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return "Keep your hand, or ask for a redeal (hands of 13 AP or less, once per campaign)."
        return "Waiting for the mulligan decisions."

    def why_not_redeal(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return ("a redeal may be asked only for a hand of 13 action points or less, once "
                f"in a campaign (5.1).{self.instead(state, frame, role)}")

    def on_keep(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._answer(state, frame, side_of(role), 0)

    def on_redeal(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._answer(state, frame, side_of(role), 1)

    def _answer(self, state: State, frame: Frame, s: int, redeal: int) -> None:
        mull = frame["mull"]
        mull[s] = redeal
        if mull[1 - s] < 0:
            return
        req = [x for x in (0, 1) if mull[x] == 1]
        if not req:
            start_turn(state)
            return
        mark_reveal(state)
        for r in req:
            state["mulligan_used"][r] = 1
            public(state, kind=CARD, text=f"{ROLES[r]} shows a mulligan hand ({', '.join(CARD_NAME[c] for c in state['hands'][r])}, "
                          f"{hand_ap(state, r)} AP) and asks for a redeal (5.1).")
        if len(req) == 2:
            _redeal(state, [0, 1])
            public(state, kind=CARD, text="Both hands are redealt.")
            _after_redeal(state)
            return
        reply: MulliganReplyFrame = {"step": "mulligan_reply", "req": req[0]}
        steps.replace(state, reply)


class MulliganReply(RichardStep):
    """The opponent of a redeal request keeps or takes a new hand too (5.1)."""

    name = "mulligan_reply"
    phase = "mulligan"
    rule = "5.1"
    what = "the answer to a redeal request"
    doing = Mulligan.doing
    labels = Mulligan.labels
    highlighted = False

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[1 - frame["req"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return list(_KEEP_OR_REDEAL)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return "Your opponent asked for a redeal: keep your hand or take a new one too."
        return "Waiting for the opponent's answer to the redeal."

    def on_keep(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        r = frame["req"]
        _redeal(state, [r])
        public(state, kind=CARD, text=f"{role} keeps their hand; {ROLES[r]} gets a new hand.")
        _after_redeal(state)

    def on_redeal(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _redeal(state, [0, 1])
        public(state, kind=CARD, text=f"{role} also takes a new hand; both hands are redealt.")
        _after_redeal(state)


# ======================================================================= the Card Phase (1.1)
def start_turn(state: State) -> None:
    """A new Game Turn: the turn's bookkeeping is cleared and both players lay a card (1.1)."""
    frame: CardFrame = {"step": "card"}
    state["stack"] = [frame]
    state["played"] = [NONE, NONE]
    n = N_BORDERS
    state["bc"] = [[0] * n, [0] * n]
    state["atk"] = [-1] * N_AREAS
    state["main"] = [-1] * N_AREAS
    state["ent"] = [[[] for _ in range(N_AREAS)], [[] for _ in range(N_AREAS)]]
    state["moved"] = [0] * N_BLOCKS
    state["via"] = [-1] * N_BLOCKS
    state["reserve"] = [0] * N_BLOCKS
    state["pirate"] = [0] * N_BLOCKS
    state["piracy"] = state["treason"] = state["surprise"] = state["force_march"] = NONE
    public(state, kind=TURN, text=f"Campaign {state['campaign']}, Game Turn {state['turn']}: Card Phase.")


#: The state field set to the side that played each event card with a lasting effect.
_EVENT_FIELDS = {"Piracy": "piracy", "Treason": "treason", "Surprise": "surprise", "Force March": "force_march"}


def _reveal_cards(state: State) -> None:
    """Both cards are in: reveal them and find Player 1 (1.1, C5-C8)."""
    mark_reveal(state)
    played = state["played"]
    pret = 1 - state["king"]
    keys = []
    for s in (0, 1):
        c = played[s]
        keys.append((1 if CARD_EVENT[c] else 0, CARD_AP[c]))
        state["hands"][s].remove(c)
        state["discard"].append(c)
    if keys[0] > keys[1]:
        p1 = 0
    elif keys[1] > keys[0]:
        p1 = 1
    else:
        p1 = pret
    state["p1"] = p1
    public(state, kind=CARD, text=f"Cards: York {CARD_NAME[played[0]]}, Lancaster {CARD_NAME[played[1]]}. "
                  f"Player 1: {ROLES[p1]}.")
    for s in (0, 1):
        field = _EVENT_FIELDS.get(CARD_EVENT[played[s]] or "")
        if field is not None:
            state[field] = s
    action.start_action(state, p1)


class CardPhase(RichardStep):
    """Both players play a card at once, secret until both are in (1.1)."""

    name = "card"
    phase = "card"
    rule = "1.1"
    what = "the Card Phase, where both players lay a card"
    doing = {"play": "play a card"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        played = state["played"]
        return [ROLES[s] for s in (0, 1) if played[s] < 0]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("play", c) for c in state["hands"][side_of(role)]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Play a card." if role in self.actors(state, frame) else "Waiting for the other card."

    def why_not_play(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return "that card is not in your hand; play one of the cards you hold (1.1)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "play":
            return None
        if isinstance(arg, int) and 0 <= arg < N_CARDS:
            return f"Play {CARD_NAME[arg]} ({CARD_AP[arg]} AP{', event' if CARD_EVENT[arg] else ''})"
        return f"Play card {arg}"

    def on_play(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        s = side_of(role)
        state["played"][s] = arg
        private(state, ROLES[s], kind=CARD, text=f"You play {CARD_NAME[arg]}.")
        public(state, kind=CARD, text=f"{ROLES[s]} has played a card.")
        if state["played"][1 - s] >= 0:
            _reveal_cards(state)


STEPS = (Mulligan(), MulliganReply(), CardPhase())

__all__ = ["STEPS", "deal", "hand_ap", "start_turn"]
