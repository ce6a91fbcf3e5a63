"""Steps: one way for every game to say who decides what now, from which options, and what
happens then.

A game is a stack of *frames* kept in the state (``state["stack"]``, a list of plain JSON
dicts). The frame on top is the decision being made now. Each frame names its :class:`Step`
(``frame["step"]``) and carries that step's own data (whose turn, which area, how many hits
are left...). The :class:`Step` object, stateless like the rules, says for a frame:

* :meth:`Step.actors`: the roles that decide now: one role, several at once (a simultaneous
  secret choice), or none (an automatic step: :meth:`Step.run` resolves it at once);
* :meth:`Step.options`: the legal ``(verb, arg)`` pairs of a role. They are the single source
  of the legal actions: ``legal_actions`` returns them, ``action`` accepts only them (or what
  :meth:`Step.is_legal` accepts: a fast check that a test pins to membership of the options)
  and a view lists them;
* :meth:`Step.prompt`: what the acting role is asked;
* one handler per verb, a method named ``on_<verb>(state, frame, role, arg)``;
* what the engine asks of every decision, declared on the step with defaults that fit most:
  :meth:`Step.option_label` (the text of one option, for menus and buttons), one
  ``why_not_<verb>(state, frame, role, arg)`` per verb that has a reason to give (why it is
  refused now, in the words of the rules; :meth:`Step.why_not` finds it),
  :meth:`Step.default_option` (the action a lapsed deadline plays, if the rules publish one)
  and :attr:`Step.rule` (the rule section).

:class:`Choice` is a decision of one role that makes itself when there is no real choice (no
option, or one). With :attr:`Steps.keep_options`, the options a view or ``legal_actions`` made
for a position are kept and check the next action (:meth:`Steps.options_of`): worked out once.

A handler may change the frame, :func:`pop` it (the decision is over: the frame below it
becomes the current decision again, so the game resumes where it was), :func:`push` new
frames on top (a reaction window, an interrupt for another player, a battle inside a turn,
a queue of decisions pushed last-first) or :func:`replace` it with the next step. After every
action :meth:`Steps.settle` runs the automatic steps on top until a role must decide or the
game is over.

Chance stays in the seeded generator (:mod:`roses.engine.rng`) and is used inside handlers
and ``run``; the undo policy of :mod:`roses.engine.game` is unchanged (it looks only at the
active roles, the rolls and the reveals).

Example: the whole of a game of Nim in which each player takes one or two stones and whoever
takes the last one wins::

    from roses.engine import rng
    from roses.engine.steps import Step, StepRules, Steps

    class Take(Step):
        name = "take"

        def actors(self, state, frame):
            return [state["roles"][frame["player"]]]

        def options(self, state, frame, role):
            return [("take", n) for n in (1, 2) if n <= state["pile"]]

        def prompt(self, state, frame, role):
            return f"Take one or two stones ({state['pile']} left)."

        def on_take(self, state, frame, role, n):
            state["pile"] -= n
            if state["pile"] == 0:
                state["result"] = role
            frame["player"] = 1 - frame["player"]

    class Nim(StepRules):
        id, title, scenarios = "nim", "Nim", ("seven",)
        steps = Steps(Take())

        def roles(self, scenario, options=None):
            return ["North", "South"]

        def setup(self, seed, scenario, options=None):
            state = {"roles": ["North", "South"], "log": [], "result": None, "pile": 7}
            rng.seed_state(state, seed)
            return self.start(state, {"step": "take", "player": 0})

        def view(self, state, role):
            return self.step_view(state, role, pile=state["pile"])

``docs/engine.md`` walks through writing a real game this way (tests/engine/test_steps.py
plays this one).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ClassVar, Final

from roses.engine.contract import Action, Rules, State, View
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.engine.logview import log_view

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # no mypy installed: the decorator matters only to mypyc (tools/compile.py)
    def mypyc_attr(*_: Any, **__: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls

#: A frame: ``{"step": name, ...the step's own data}``, stored in ``state["stack"]``.
Frame = dict[str, Any]

#: How many automatic steps :meth:`Steps.settle` may run after one action before it decides
#: that the game is looping (a bug in a step that neither pops, pushes nor ends the game).
MAX_AUTOMATIC: Final = 100_000


def refusal(role: str, verb: str, arg: Any) -> str:
    """The message of a refused action (it names only what the player sent)."""
    return f"{role} cannot {verb} {'' if arg is None else arg} now.".replace("  ", " ")


# The classes below may be compiled (tools/compile.py) while the games that subclass them are
# not: they allow interpreted subclasses. Compiled code reads an attribute declared on them from
# the instance's own slot, so what a subclass may set in its class body is a ClassVar here
# (``name``, ``phase``, ``rule``...), and ``Steps.keep_options`` set in a subclass's body is
# copied to the instance (``Steps.__init_subclass__``).
@mypyc_attr(allow_interpreted_subclasses=True)
class Step:
    """One kind of decision point. Subclasses set :attr:`name` and override what they need.

    Steps are stateless: everything lives in the state and the frame.
    """

    #: The step's name, the value of ``frame["step"]``.
    name: ClassVar[str] = ""
    #: The phase of play this step belongs to, for views (e.g. ``"action"``).
    phase: ClassVar[str] = ""
    #: Verbs with a handler, filled from the ``on_<verb>`` methods.
    verbs: ClassVar[frozenset[str]] = frozenset()
    #: True for a step that always has an actor while it is on top (never automatic), so
    #: :meth:`Steps.settle` need not ask it (a speed-up; a test should pin it).
    always_decides: ClassVar[bool] = False
    #: The rule section(s) the step applies (e.g. ``"3.4"``), named in refusals; a game may
    #: set it per class.
    rule: ClassVar[str] = ""
    #: What the handler of each verb named here may change, as the names of the parts of the
    #: state that the game's views keep between positions (names the game chooses, counted by
    #: :meth:`Steps.revision_of`): the handler changes no other such part. A verb not named
    #: here may change any part (the default, always right). Only the handler is declared: the
    #: automatic steps that run after it count as changing any part, unless they declare
    #: :attr:`run_changes`.
    changes: ClassVar[dict[str, frozenset[str]]] = {}
    #: What :meth:`run` may change (as :attr:`changes`), including what it runs for the step
    #: (a :class:`Choice` playing its only option); None (the default): any part.
    run_changes: ClassVar[frozenset[str] | None] = None

    #: The handler of each verb (the ``on_<verb>`` functions), filled with :attr:`verbs`.
    _handlers: ClassVar[dict[str, Callable[..., None]]] = {}
    #: The refusal reason of each verb that has one (the ``why_not_<verb>`` functions).
    _reasons: ClassVar[dict[str, Callable[..., str | None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = {n[3:]: getattr(cls, n) for n in dir(cls) if n.startswith("on_") and callable(getattr(cls, n))}
        cls.verbs = frozenset(cls._handlers)
        cls._reasons = {n[8:]: getattr(cls, n) for n in dir(cls)
                        if n.startswith("why_not_") and callable(getattr(cls, n))}

    # ----- what a step says ---------------------------------------------------------------
    def actors(self, state: State, frame: Frame) -> list[str]:
        """The roles that decide now; none means the step is automatic (see :meth:`run`)."""
        return []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        """Every legal ``(verb, arg)`` of ``role`` (one of :meth:`actors`) now."""
        return []

    def prompt_and_options(self, state: State, frame: Frame, role: str) -> tuple[str, list[Action]]:
        """:meth:`prompt` and :meth:`options` of an actor, together (a view shows both): a step
        whose prompt speaks of its options may work them out once."""
        return self.prompt(state, frame, role), self.options(state, frame, role)

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """Whether ``(verb, arg)`` is one of :meth:`options`. Override only with a faster check
        that gives the same answer, and pin it to membership in a test."""
        try:
            return (verb, arg) in self.options(state, frame, role)
        except TypeError:  # an unhashable or odd argument
            return False

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        """What ``role`` is asked now (an actor) or told (anyone else)."""
        return ""

    def refusal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str:
        """The message when ``role`` may act but ``(verb, arg)`` is not an option: what was
        refused, the rule of the step, what is asked now and which kinds of action may be
        taken instead (only ``role``'s own prompt and options, so nothing hidden)."""
        head = refusal(role, verb, arg)[:-1]
        verbs = list(dict.fromkeys(v for v, _ in self.options(state, frame, role)))
        where = f" ({self.rule})" if self.rule else ""
        reason = self.why_not(state, frame, role, verb, arg)
        if reason is not None:
            why = reason.rstrip(".")
        elif verb in verbs:
            why = f"that is not one of the {verb.replace('_', ' ')} choices open now{where}"
        else:
            why = f"{verb.replace('_', ' ')} is not a choice at this point{where}"
        asked = self.prompt(state, frame, role).strip().rstrip(".")
        end = "" if asked.endswith(("?", "!")) else "."  # a question keeps its own mark
        text = f"{head}: {why}." + (f" Now: {asked}{end}" if asked else "")
        if verbs:
            text += " You may: " + ", ".join(v.replace("_", " ") for v in verbs) + "."
        return text

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        """The text of the option ``(verb, arg)`` of ``role`` (a menu entry, a button), or
        None for the rules' generic label (:meth:`StepRules.label`)."""
        return None

    def why_not(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        """Why ``role``, who may act, may not take ``(verb, arg)`` now, in the rules' words (one
        sentence naming the rule, e.g. "no action points are left (1.2)."), or None for the
        generic reason. It must speak only of what ``role`` may know. :meth:`refusal` uses it.

        By default: the step's method ``why_not_<verb>(state, frame, role, arg)``, declared
        beside ``on_<verb>`` (a verb of another step may have one too: e.g. why a card cannot
        be played now)."""
        reason = self._reasons.get(verb) if isinstance(verb, str) else None
        return None if reason is None else reason(self, state, frame, role, arg)

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The option a lapsed deadline plays for ``role`` (an actor), when the rules publish
        one for this decision (e.g. "no answer means no"); None: no default, the seat loses on
        time."""
        return None

    def run(self, state: State, frame: Frame) -> None:
        """Resolve an automatic step (no actors): it must pop or replace its frame, push
        another, or end the game, possibly after several calls (each call makes progress)."""
        raise RuntimeError(f"step {self.name!r} has no actors and no run()")

    # ----- what happens then ----------------------------------------------------------------
    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        """Call the handler of ``verb``. Override to route verbs another way."""
        handler = self._handlers.get(verb)
        if handler is None:
            raise IllegalAction(refusal(role, verb, arg))
        handler(self, state, frame, role, arg)


@mypyc_attr(allow_interpreted_subclasses=True)
class Choice(Step):
    """A decision of one role (:meth:`chooser`) that makes itself when there is no real choice:
    with no option it is over (:meth:`finish`, by default :func:`pop`), and where
    :meth:`decides_itself` says so (by default: a single option) its first option is played
    for the role (:meth:`handle`), as if chosen. Override :meth:`choices` (the options), and
    :meth:`decides_itself` for another rule (e.g. "every candidate must go anyway").

    The step is automatic until :meth:`run` finds a real choice; it then marks the frame
    (``frame["ask"] = True``) and the role is asked, its options worked out when asked. Each
    answer clears the mark, so a decision with answers left (several blocks to pick) is looked
    at again: asked while there is a choice, made by itself once there is none.
    """

    def chooser(self, state: State, frame: Frame) -> str:
        """The role that decides (by default the frame's ``role``)."""
        role: str = frame["role"]
        return role

    def choices(self, state: State, frame: Frame) -> list[Action]:
        """The options of :meth:`chooser`."""
        return []

    def decides_itself(self, state: State, frame: Frame, choices: list[Action]) -> bool:
        """Whether the decision, whose options are ``choices`` (not empty), has no real choice:
        then its first option is played."""
        return len(choices) == 1

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [self.chooser(state, frame)] if frame.get("ask") else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return self.choices(state, frame)

    def run(self, state: State, frame: Frame) -> None:
        opts = self.choices(state, frame)
        if not opts:
            self.finish(state, frame)
        elif self.decides_itself(state, frame, opts):
            verb, arg = opts[0]
            self.handle(state, frame, self.chooser(state, frame), verb, arg)
        else:
            frame["ask"] = True

    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        frame["ask"] = False
        super().handle(state, frame, role, verb, arg)

    def finish(self, state: State, frame: Frame) -> None:
        """The decision has no option left: it is over."""
        pop(state)


# ----- the stack ------------------------------------------------------------------------------
def stack(state: State) -> list[Frame]:
    """The decision stack of ``state`` (bottom first)."""
    frames: list[Frame] = state["stack"]
    return frames


def top(state: State) -> Frame | None:
    """The current frame, or None when the stack is empty."""
    frames = state["stack"]
    return frames[-1] if frames else None


def push(state: State, frame: Mapping[str, Any]) -> None:
    """Put ``frame`` on top: it is decided before the one below it resumes."""
    state["stack"].append(frame)


def push_all(state: State, frames: Sequence[Mapping[str, Any]]) -> None:
    """Queue ``frames`` so that the first of the list is decided first."""
    state["stack"].extend(reversed(frames))


def pop(state: State) -> Frame:
    """Remove the current frame (its decision is over) and return it."""
    frame: Frame = state["stack"].pop()
    return frame


def replace(state: State, frame: Mapping[str, Any]) -> None:
    """Replace the current frame by ``frame`` (the next step of the same decision)."""
    state["stack"][-1] = frame


def find(state: State, name: str) -> Frame | None:
    """The topmost frame of step ``name``, or None."""
    for frame in reversed(state["stack"]):
        if frame["step"] == name:
            return frame
    return None


# ----- a game's table of steps -------------------------------------------------------------
@mypyc_attr(allow_interpreted_subclasses=True)
class Steps:
    """The steps of one game, by name, and the machinery that runs them."""

    #: Keep the options made for a view or ``legal_actions`` and check the next action against
    #: them (:meth:`options_of`). For a game whose state changes through :meth:`act` (no fork
    #: of it), or that calls :meth:`forget` after any other change. What is kept is one
    #: position's (the state's and frame's last worked out, in any thread: another thread's
    #: position replaces it, and the check then asks the step), and only until the next action
    #: on any state in any thread (:attr:`_acts` counts the actions begun and ended), so a
    #: position changed meanwhile by another thread is never checked against options made
    #: before.
    keep_options: bool = False
    #: Keep only the options a view offered (:meth:`prompt_and_options_of`) and check the next
    #: action against them; :meth:`options_of` and so ``legal_actions`` keep nothing and read the
    #: step as without :attr:`keep_options` (a search that asks them of many states pays for no
    #: keeping). The same contract as :attr:`keep_options`: the state changes through
    #: :meth:`act`, or :meth:`forget` is called after any other change.
    keep_offered: bool = False
    #: The ``keep_options`` of a new instance: a subclass may set ``keep_options`` in its body.
    _keep_options_default: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("keep_options")
        if isinstance(own, bool):  # (compiled, an instance reads its slot, not the class's value)
            cls._keep_options_default = own

    def __init__(self, *steps: Step) -> None:
        self.keep_options = self._keep_options_default
        self.by_name: dict[str, Step] = {}
        # the options kept (:meth:`_keep`): (state, frame, actions begun then, by role); a
        # tuple replaced whole, so a thread reads one position's or none
        self._known: tuple[State, Frame, int, dict[str, list[Action]]] | None = None
        self._acts = 0
        # The revisions (:meth:`revision_of`): tickets drawn from one counter, so a value is
        # never drawn twice, even by threads acting at once (``next`` of a count is atomic).
        self._tickets = itertools.count(1)
        #: The ticket drawn by the last change that may have changed any part.
        self.revision = 0
        #: The ticket drawn by the last change declared to change a part, by part.
        self.part_revisions: dict[str, int] = {}
        self._handling: dict[str, tuple[Step, ...]] = {}
        for step in steps:
            self.add(step)

    def options_of(self, state: State, frame: Frame, step: Step, role: str) -> list[Action]:
        """:meth:`Step.options` of ``role`` (an actor) at the current position. With
        :attr:`keep_options` they are kept, and the legality check of the next action (:meth:`act`)
        reuses them instead of asking the step again: a position's options are worked out once
        for the view (or ``legal_actions``) and the check. The list is shared: read it only."""
        if not self.keep_options:
            return step.options(state, frame, role)
        acts = self._acts
        opts = step.options(state, frame, role)
        self._keep(state, frame, acts, role, opts)
        return opts

    def prompt_and_options_of(self, state: State, frame: Frame, step: Step, role: str) -> tuple[str, list[Action]]:
        """:meth:`Step.prompt_and_options`, keeping the options as :meth:`options_of` does (also
        with :attr:`keep_offered`: a view's options)."""
        if not self.keep_options and not self.keep_offered:
            return step.prompt_and_options(state, frame, role)
        acts = self._acts
        prompt, opts = step.prompt_and_options(state, frame, role)
        self._keep(state, frame, acts, role, opts)
        return prompt, opts

    def _keep(self, state: State, frame: Frame, acts: int, role: str, opts: list[Action]) -> None:
        known = self._known
        if known is not None and known[0] is state and known[1] is frame and known[2] == acts:
            known[3][role] = opts  # (the same position's options: whichever thread made them)
        else:
            self._known = (state, frame, acts, {role: opts})

    def kept_options(self, state: State, frame: Frame, role: str) -> list[Action] | None:
        """The options :meth:`options_of` kept for this position and role, or None (none kept,
        or an action began since they were made)."""
        known = self._known
        if known is not None and known[0] is state and known[1] is frame and known[2] == self._acts:
            opts: list[Action] | None = known[3].get(role)
            return opts
        return None

    def forget(self) -> None:
        """Drop the kept options (done at every action; a caller that changes a position by
        hand between making its options and acting on it calls it too): this thread's, and
        those of every other thread are out of date. Counts as a change of every part
        (:meth:`changed`)."""
        self._known = None
        self._acts += 1
        self.changed()

    def changed(self, parts: frozenset[str] | None = None) -> None:
        """Count a change of ``parts`` (None: of any part) of a state (:meth:`revision_of`).
        :meth:`act` and :meth:`settle` count what they run; a caller that changes a state by
        hand, or a :meth:`watch` that changes a part, calls it too (or :meth:`forget`)."""
        if parts is None:
            self.revision = next(self._tickets)
        elif parts:
            ticket = next(self._tickets)
            for part in parts:
                self.part_revisions[part] = ticket

    def revision_of(self, part: str) -> tuple[int, int]:
        """The revision of ``part`` (a name a game chooses for a part of its states that its
        views keep between positions: :attr:`Step.changes`): it differs from every revision
        given before once any state may have changed that part through these steps (an action
        whose handler may change it, an automatic step, :meth:`changed`). So a view part made
        from a state, kept with that state (the object) and this revision, is still that
        state's part while both are the same: no need to compare it with the state. It holds
        for a state changed only through :meth:`act` and :meth:`settle` (and by hand with a
        call of :meth:`changed`): the same contract as :attr:`keep_options`. The revision is
        counted over every state these steps change, so other states' changes make it move too
        (a kept part is then compared with the state again, never wrong)."""
        return self.revision, self.part_revisions.get(part, 0)

    def acting(self) -> AbstractContextManager[object]:
        """The context each action is handled and settled in (:meth:`act`); by default none. A
        game that keeps what it works out from a position between two questions about it (a
        memo of its views' parts, say) drops it here."""
        return nullcontext()

    def add(self, step: Step) -> Step:
        if not step.name:
            raise ValueError(f"{type(step).__name__} has no name")
        if step.name in self.by_name:
            raise ValueError(f"two steps are named {step.name!r}")
        self.by_name[step.name] = step
        self._handling.clear()
        return step

    def handling(self, verb: str) -> tuple[Step, ...]:
        """The steps with a handler of ``verb``, in the order they were added."""
        found = self._handling.get(verb)
        if found is None:
            found = self._handling[verb] = tuple(step for step in self.by_name.values() if verb in step.verbs)
        return found

    def __getitem__(self, name: str) -> Step:
        return self.by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def current(self, state: State) -> tuple[Step, Frame] | None:
        """The step and frame deciding now, or None when the stack is empty."""
        frames = state["stack"]
        if not frames:
            return None
        frame = frames[-1]
        return self.by_name[frame["step"]], frame

    def act(self, state: State, role: str, verb: str, arg: Any = None, check: bool = True) -> None:
        """Apply one action of ``role`` and settle. With ``check`` (the default) the action
        must be legal, otherwise :class:`IllegalAction` is raised and ``state`` is untouched
        (handlers may rely on that: they run only on legal actions)."""
        if state["result"] is not None:
            raise IllegalAction("The game is over.")
        frames = state["stack"]
        if not frames:
            raise IllegalAction("Nobody may act now.")
        frame = frames[-1]
        step = self.by_name[frame["step"]]
        if check:
            # options are kept only for an actor at this very position: ``role`` acts now
            opts = self.kept_options(state, frame, role) if self.keep_options or self.keep_offered else None
            if opts is None:
                if role not in step.actors(state, frame):
                    raise NotYourTurn(f"It is not {role}'s turn.")
                legal = step.is_legal(state, frame, role, verb, arg)
            else:
                try:
                    legal = (verb, arg) in opts
                except TypeError:  # an unhashable or odd argument
                    legal = False
                if not legal:  # (the step's own check may read an argument more widely)
                    legal = step.is_legal(state, frame, role, verb, arg)
            if not legal:
                raise IllegalAction(step.refusal(state, frame, role, verb, arg))
        # counted before the handler runs: a kept part read while it runs is out of date
        changes = step.changes
        parts = changes.get(verb) if changes else None
        if parts is None:  # (changed(), inline)
            self.revision = next(self._tickets)
        elif parts:
            self.changed(parts)
        if not self.keep_options and type(self).acting is Steps.acting:  # (no context to enter)
            self._run(state, frame, step, role, verb, arg)
            return
        with self.acting():
            self._run(state, frame, step, role, verb, arg)

    def _run(self, state: State, frame: Frame, step: Step, role: str, verb: str, arg: Any) -> None:
        """The handler of an action, then the automatic steps; where options are kept
        (:attr:`keep_options`, :attr:`keep_offered`), counted as an action begun and ended
        (:attr:`_acts`), so that what any thread kept is out of date from its start."""
        if not self.keep_options and not self.keep_offered:
            step.handle(state, frame, role, verb, arg)
            self.settle(state)
            return
        self._acts += 1
        try:
            step.handle(state, frame, role, verb, arg)
            self.settle(state)
        finally:
            self._acts += 1

    def watch(self, state: State) -> None:
        """Called before every settling check: a game whose rules end it the moment a
        condition holds (an immediate victory) checks it here; where it changes the state it
        says so (:meth:`changed`). Default: nothing."""

    def settle(self, state: State) -> None:
        """Run automatic steps until a role must decide, the stack is empty or the game ends."""
        by_name = self.by_name
        watch = None if type(self).watch is Steps.watch else self.watch
        for _ in range(MAX_AUTOMATIC):
            if watch is not None:
                watch(state)
            if state["result"] is not None:
                return
            frames = state["stack"]
            if not frames:
                return
            frame = frames[-1]
            step = by_name[frame["step"]]
            if step.always_decides or step.actors(state, frame):
                return
            run_changes = step.run_changes  # (None: an automatic step may change any part)
            if run_changes is None:
                self.revision = next(self._tickets)
            elif run_changes:
                self.changed(run_changes)
            step.run(state, frame)
        raise RuntimeError("automatic steps did not come to a decision")

    def label(self, state: State, role: str, verb: str, arg: Any) -> str | None:
        """The :meth:`Step.option_label` of the current step; for a verb it does not label, that of
        the first step (in the order they were added) with a handler of ``verb`` that labels it
        (given the current frame); None when no step labels it."""
        frame = state["stack"][-1] if state["stack"] else None
        if frame is None:
            return None
        current = self.by_name[frame["step"]]
        text = current.option_label(state, frame, role, verb, arg)
        if text is not None:
            return text
        for step in self.handling(verb):
            if step is not current:
                text = step.option_label(state, frame, role, verb, arg)
                if text is not None:
                    return text
        return None

    def prompt(self, state: State, role: str) -> str:
        cur = self.current(state)
        if cur is None or state["result"] is not None:
            return ""
        step, frame = cur
        return step.prompt(state, frame, role)

    def phase(self, state: State) -> str:
        """The phase of the current step ("over" once the game has a result)."""
        if state["result"] is not None:
            return "over"
        cur = self.current(state)
        return "" if cur is None else cur[0].phase


@mypyc_attr(allow_interpreted_subclasses=True)
class StepRules(Rules):
    """A :class:`~roses.engine.contract.Rules` whose play is a table of :class:`Step` s.

    A subclass sets :attr:`steps`, writes ``setup`` (ending with :meth:`start`) and ``view``
    (:meth:`step_view` fills the common part), and inherits ``active``, ``legal_actions``,
    ``action`` and ``apply_legal``.
    """

    steps: ClassVar[Steps] = Steps()

    def start(self, state: State, *frames: Mapping[str, Any]) -> State:
        """Give a new state its stack (``frames`` bottom first) and settle it."""
        state["stack"] = [dict(f) for f in frames]
        self.steps.settle(state)
        return state

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        """The steps' label (:meth:`Steps.label`: the current step's :meth:`Step.option_label`, or
        that of a step with a handler of ``verb``); else the generic label."""
        text = self.steps.label(state, role, verb, arg)
        return super().label(state, role, verb, arg) if text is None else text

    def default_action(self, state: State, role: str) -> Action | None:
        """The option a lapsed deadline plays for ``role``: the current step's
        :meth:`Step.default_option` (None when ``role`` does not decide now or there is none)."""
        if state["result"] is not None or not state["stack"]:
            return None
        frame = state["stack"][-1]
        step = self.steps.by_name[frame["step"]]
        if role not in step.actors(state, frame):
            return None
        return step.default_option(state, frame, role)

    def active(self, state: State) -> list[str]:
        if state["result"] is not None or not state["stack"]:
            return []
        frame = state["stack"][-1]
        return self.steps.by_name[frame["step"]].actors(state, frame)

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if state["result"] is not None or not state["stack"]:
            return []
        frame = state["stack"][-1]
        step = self.steps.by_name[frame["step"]]
        if role not in step.actors(state, frame):
            return []
        if not self.steps.keep_options:
            return step.options(state, frame, role)
        return list(self.steps.options_of(state, frame, step, role))  # a copy: the kept list is shared

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        self.steps.act(state, role, verb, arg)
        return state

    def apply_legal(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        self.steps.act(state, role, verb, arg, check=False)
        return state

    def step_view(self, state: State, role: str, **parts: Any) -> View:
        """The common part of a view: prompt, phase, active roles, the role's recent log lines
        (:mod:`roses.engine.logview`) and, for an actor, its options as ``{verb: [args]}`` (``True`` for a verb without argument)."""
        active = self.active(state)
        view: View = {"role": role, "phase": self.steps.phase(state),
                      "prompt": self.steps.prompt(state, role), "active": active,
                      "result": self.result(state), **log_view(state["log"], role)}
        if role in active:
            frame = state["stack"][-1]
            view["actions"] = options_map(self.steps.options_of(state, frame, self.steps.by_name[frame["step"]], role))
        view.update(parts)
        return view


def options_map(actions: list[Action]) -> dict[str, Any]:
    """``[(verb, arg)...]`` as a view's ``{verb: [args...]}`` (``True`` for an argless verb)."""
    out: dict[str, Any] = {}
    last = None  # the verb of the list ``args``: options come grouped by verb, mostly
    args: list[Any] = []
    for verb, arg in actions:
        if arg is None:
            out[verb] = True
            last = None
        elif verb == last:
            args.append(arg)
        else:
            found = out.get(verb)
            if found is None:
                args = out[verb] = [arg]
            else:
                args = found
                args.append(arg)
            last = verb
    return out
