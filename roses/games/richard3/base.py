"""What every Richard III step shares: its refusals (what the step is, its rule, what may be
done instead) and its labels, declared on each step class; and a few helpers of several
phases (sides of roles, the names in action arguments, rescue, eliminations).

A step declares:

* ``what`` and ``rule``: what the decision is and its rule section, for refusals
  ("York cannot stop now: this is a land move, taking the block on area by area (5.2).");
* ``doing``: what each of its verbs does, in the list of what may be done instead;
* ``labels``: the button text of each verb (``{block}`` the block's name and where it stands,
  ``{area}`` the area named, ``{arg}`` the argument as sent);
* ``why_not_<verb>`` methods for the reasons its rules give (:meth:`~roses.engine.steps.Step.why_not`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from roses.engine.contract import State, mark_reveal
from roses.engine.log import EVENT, private, public
from roses.engine.steps import Frame, Step
from roses.games.richard3 import common as C
from roses.games.richard3.common import Moved
from roses.games.richard3.data import (
    AREA_ID,
    AREA_NAMES,
    B_SIDE,
    B_TYPE,
    BLOCK_ID,
    BLOCK_NAME,
    CARD_NAME,
    HEIR,
    N_AREAS,
    N_CARDS,
    POOL,
    ROLES,
)

MIDDLESEX = AREA_ID["Middlesex"]


side_of = C.side_of
owner = C.owner


def area_of(arg: Any) -> int:
    """The area id named by an action argument."""
    return AREA_ID[arg]


def block_of(arg: Any) -> int:
    """The block id named by an action argument (a block key)."""
    return BLOCK_ID[arg]


#: How a refused action is named: "York cannot <this> now".
_HEAD_TEXT: dict[str, str] = {"play": "play {arg}", "move": "move a group from {arg}",
                              "sea": "make a sea move with {arg}", "recruit": "recruit {arg}"}


def _where(loc: int) -> str:
    if loc < N_AREAS:
        return AREA_NAMES[loc]
    return "pool" if loc == POOL else "off the map"


class RichardStep(Step):
    """A Richard III step: refusals and labels from what the step class declares."""

    #: What the decision is, for refusals ("this is <what> (<rule>)").
    what: ClassVar[str] = "this step"
    #: What each verb does, for "You may ...".
    doing: ClassVar[dict[str, str]] = {}
    #: The label of each verb: a text, with ``{block}``, ``{area}`` or ``{arg}``.
    labels: ClassVar[dict[str, str]] = {}
    #: Whether a refusal of one of its verbs points at the highlighted options.
    highlighted: ClassVar[bool] = True

    def instead(self, state: State, frame: Frame, role: str) -> str:
        """" You may <what its options do>." (empty when it has none)."""
        verbs = dict.fromkeys(v for v, _ in self.options(state, frame, role))
        text = ", ".join(self.doing.get(v, v) for v in verbs)
        return f" You may {text}." if text else ""

    def why_not_play(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return (f"cards are played only in the Card Phase at the start of a game turn (1.1); "
                f"this is {self.what} ({self.rule}).{self.instead(state, frame, role)}")

    def refusal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str:
        """What was refused, the rule that stops it and why, and what may be done now."""
        named = CARD_NAME[arg] if verb == "play" and isinstance(arg, int) and 0 <= arg < N_CARDS else arg
        doing = _HEAD_TEXT.get(verb, "{verb} {arg}") if arg is not None else "{verb}"
        head = f"{role} cannot {doing.format(verb=verb, arg=named)} now"
        reason = self.why_not(state, frame, role, verb, arg)
        if reason is None:
            verbs = {v for v, _ in self.options(state, frame, role)}
            if verb not in verbs:
                return f"{head}: this is {self.what} ({self.rule}).{self.instead(state, frame, role)}"
            reason = f"it is not one of the choices of {self.what} ({self.rule})"
            reason += "; the highlighted ones are." if self.highlighted else "."
        return f"{head}: {reason}" if reason.endswith(".") else f"{head}: {reason}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        text = self.labels.get(verb)
        if text is None:
            return None
        if "{block}" in text:
            if arg not in BLOCK_ID:
                return None
            b = BLOCK_ID[arg]
            where = state["loc"][b]
            return text.format(block=f"{BLOCK_NAME[b]} ({_where(where)})" if where < N_AREAS else BLOCK_NAME[b])
        if "{area}" in text:
            return text.format(area=arg) if isinstance(arg, str) and arg in AREA_ID else None
        return text.format(arg=arg)


def log_eliminations(state: State, dead: list[int], owner_side: int) -> None:
    """Heir deaths are public by name (6.82); other eliminations outside battle only to the owner."""
    for b in dead:
        if B_TYPE[b] == HEIR:
            public(state, f"{BLOCK_NAME[b]} ({ROLES[B_SIDE[b]]} heir) is dead.")
        else:
            private(state, ROLES[owner_side], f"{BLOCK_NAME[b]} is eliminated.")


def check_rescue(state: State) -> None:
    """Kingmaker: a Lancastrian block occupying London frees Henry VI (p.9 note)."""
    h = state["prisoner"]
    if h < 0:
        return
    occ = C.occupancy(state)
    if occ[1][MIDDLESEX] and not occ[0][MIDDLESEX]:
        state["loc"][h] = MIDDLESEX
        state["prisoner"] = -1
        state["moved"][h] = Moved.RECRUITED
        mark_reveal(state)
        public(state, kind=EVENT, text="Henry VI is rescued from the Tower and becomes the Lancastrian Pretender.")
