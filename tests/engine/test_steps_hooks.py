"""What a Step declares besides its options and handlers (roses/engine/steps.py): the label of
an option, the reason an action is refused, the default a lapsed deadline plays, the rule
section; the self-deciding :class:`Choice`; and a position's options worked out once for the
view and the legality check of the next action (``Steps.keep_options``)."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import Action, State, View
from roses.engine.errors import IllegalAction
from roses.engine.labels import add_labels
from roses.engine.steps import Choice, Frame, Step, StepRules, Steps, push


class Take(Step):
    """Take one or two stones; the player may also ask for the bag (a Choice pushed on top)."""

    name = "take"
    rule = "R1"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [state["roles"][frame["player"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        state["asked"] += 1  # how often the options are worked out
        out: list[Action] = [("take", n) for n in (1, 2) if n <= state["pile"]]
        return [*out, ("bag", None)] if state["bags"] else out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Take stones."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        return f"Take {arg} stone{'s' if arg != 1 else ''}" if verb == "take" else None

    def why_not(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "take" and isinstance(arg, int) and arg > state["pile"]:
            return f"only {state['pile']} stones are left (R1)."
        return None

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        return ("take", 1)

    def on_take(self, state: State, frame: Frame, role: str, n: int) -> None:
        state["pile"] -= n
        if state["pile"] <= 0:
            state["result"] = role
        frame["player"] = 1 - frame["player"]

    def on_bag(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        push(state, {"step": "bag", "role": role})


class Bag(Choice):
    """Pick a bag of stones to add to the pile; a single bag is taken without asking."""

    name = "bag"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        return [("pick", b) for b in state["bags"]]

    def on_pick(self, state: State, frame: Frame, role: str, b: int) -> None:
        state["bags"].remove(b)
        state["pile"] += b
        state["picked"].append((role, b))
        self.finish(state, frame)


class Nim(StepRules):
    id, title, scenarios = "nim-hooks", "Nim", ("seven",)
    steps = Steps(Take(), Bag())

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["North", "South"]

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        state: State = {"roles": ["North", "South"], "log": [], "result": None, "pile": 3,
                        "bags": [], "picked": [], "asked": 0}
        rng.seed_state(state, seed)
        return self.start(state, {"step": "take", "player": 0})

    def view(self, state: State, role: str) -> View:
        return self.step_view(state, role, pile=state["pile"])


class KeptNim(Nim):
    steps = Steps(Take(), Bag())
    steps.keep_options = True


def test_label_hook_names_the_option_and_falls_back_for_others() -> None:
    nim = Nim()
    state = nim.setup(1, "seven")
    state["bags"] = [4]
    assert nim.label(state, "North", "take", 2) == "Take 2 stones"
    assert nim.label(state, "North", "bag", None) == "bag"  # no label declared: the generic one
    view = add_labels(nim, state, "North", nim.view(state, "North"))
    assert view["labels"]["take"] == {"1": "Take 1 stone", "2": "Take 2 stones"}


def test_why_not_gives_the_reason_of_a_refusal_and_the_rule() -> None:
    nim = Nim()
    state = nim.setup(1, "seven")
    state["pile"] = 1
    with pytest.raises(IllegalAction) as err:
        nim.action(state, "North", "take", 2)
    assert "North cannot take 2 now: only 1 stones are left (R1)." in str(err.value)
    with pytest.raises(IllegalAction) as err:
        nim.action(state, "North", "jump", None)
    assert "jump is not a choice at this point (R1)" in str(err.value)  # the generic reason


def test_a_refusal_keeps_the_question_mark_of_the_prompt() -> None:
    """A prompt that asks a question ends the refusal's "Now:" part with its own mark."""

    class Ask(Take):
        def prompt(self, state: State, frame: Frame, role: str) -> str:
            return "How many stones?"

    state = Nim().setup(1, "seven")
    text = Ask().refusal(state, state["stack"][-1], "North", "jump", None)
    assert text == ("North cannot jump now: jump is not a choice at this point (R1). Now: How many stones? "
                    "You may: take.")


def test_default_is_the_current_steps_for_an_actor_only() -> None:
    nim = Nim()
    state = nim.setup(1, "seven")
    assert nim.default_action(state, "North") == ("take", 1)
    assert nim.default_action(state, "South") is None
    state["result"] = "South"
    assert nim.default_action(state, "North") is None


def test_a_choice_with_one_option_makes_itself_and_with_several_asks() -> None:
    nim = Nim()
    state = nim.setup(1, "seven")
    state["bags"] = [5]
    nim.action(state, "North", "bag", None)  # one bag: taken at once, North still to move
    assert state["picked"] == [("North", 5)] and state["pile"] == 8
    assert nim.active(state) == ["North"] and [f["step"] for f in state["stack"]] == ["take"]
    state["bags"] = [2, 4]
    nim.action(state, "North", "bag", None)
    assert nim.active(state) == ["North"] and nim.legal_actions(state, "North") == [("pick", 2), ("pick", 4)]
    nim.action(state, "North", "pick", 4)
    assert state["pile"] == 12 and [f["step"] for f in state["stack"]] == ["take"]


def test_a_choice_without_options_is_over() -> None:
    nim = Nim()
    state = nim.setup(1, "seven")
    push(state, {"step": "bag", "role": "North"})
    nim.steps.settle(state)
    assert [f["step"] for f in state["stack"]] == ["take"] and state["picked"] == []


def test_kept_options_serve_the_view_and_the_check_of_the_next_action() -> None:
    kept, plain = KeptNim(), Nim()
    for nim, asked in ((kept, 1), (plain, 2)):
        state = nim.setup(1, "seven")
        state["asked"] = 0
        nim.view(state, "North")
        nim.action(state, "North", "take", 1)
        assert state["asked"] == asked  # kept: the view's options checked the action
    state = kept.setup(1, "seven")
    kept.view(state, "North")
    kept.action(state, "North", "take", 1)
    state["asked"] = 0
    kept.action(state, "South", "take", 1)  # a new position: its options are worked out again
    assert state["asked"] == 1


def test_kept_options_refuse_what_they_do_not_hold_and_are_dropped_by_forget() -> None:
    nim = KeptNim()
    state = nim.setup(1, "seven")
    assert nim.legal_actions(state, "North") == [("take", 1), ("take", 2)]
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", 3)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", [1])  # unhashable: refused, not a crash
    state["bags"] = [4]  # a position changed by hand
    nim.steps.forget()
    nim.action(state, "North", "bag", None)
    assert state["pile"] == 7


def test_options_kept_by_a_thread_are_out_of_date_once_another_thread_acts() -> None:
    """A server renders a view in one thread and takes the next action in another: options a
    thread kept never check an action made after another thread changed the position."""
    import threading

    nim = KeptNim()
    state = nim.setup(1, "seven")
    state["pile"] = 5
    outcome: list[str] = []
    viewed, moved = threading.Event(), threading.Event()

    def worker() -> None:  # one thread: views, waits, then acts on what it saw
        assert nim.view(state, "North")["actions"] == {"take": [1, 2]}
        viewed.set()
        moved.wait(10)
        try:
            nim.action(state, "North", "take", 2)  # legal when its options were made
            outcome.append("taken")
        except IllegalAction:
            outcome.append("refused")

    thread = threading.Thread(target=worker)
    thread.start()
    viewed.wait(10)
    nim.action(state, "North", "take", 2)  # this thread: 3 left
    nim.action(state, "South", "take", 2)  # 1 left; the same frame, North to move again
    moved.set()
    thread.join(10)
    assert outcome == ["refused"] and state["pile"] == 1


def test_a_position_changed_by_hand_in_another_thread_is_not_checked_against_kept_options() -> None:
    """``Steps.forget`` after a change outside ``act`` (a game's standing verb) makes the
    options any thread kept out of date, not only its own."""
    import threading

    nim = KeptNim()
    state = nim.setup(1, "seven")
    state["pile"] = 5
    assert nim.legal_actions(state, "North") == [("take", 1), ("take", 2)]  # kept by this thread

    def by_hand() -> None:
        state["pile"] = 1
        nim.steps.forget()

    thread = threading.Thread(target=by_hand)
    thread.start()
    thread.join(10)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", 2)
    assert state["pile"] == 1


def test_every_action_is_handled_and_settled_in_the_steps_acting_context() -> None:
    """``Steps.acting``: a game's cache of a position is dropped around each action."""
    from contextlib import contextmanager

    seen: list[str] = []

    class Watched(Steps):
        @contextmanager
        def acting(self):  # type: ignore[no-untyped-def]
            seen.append("in")
            yield
            seen.append("out")

    class WatchedNim(Nim):
        steps = Watched(Take(), Bag())

    nim = WatchedNim()
    state = nim.setup(1, "seven")
    nim.action(state, "North", "take", 1)
    with pytest.raises(IllegalAction):
        nim.action(state, "South", "take", 9)  # refused before it is handled: no context
    assert seen == ["in", "out"]


class OfferedNim(Nim):
    """Keeps only the options its views offer (``Steps.keep_offered``)."""

    steps = Steps(Take(), Bag())
    steps.keep_offered = True

    def view(self, state: State, role: str) -> View:
        view: View = {"role": role, "pile": state["pile"]}
        if role in self.active(state):  # a view's options, kept for the check of the next action
            frame = state["stack"][-1]
            view["prompt"], opts = self.steps.prompt_and_options_of(state, frame, self.steps[frame["step"]], role)
            view["actions"] = {verb: [arg for v, arg in opts if v == verb] for verb, _ in opts}
        return view


def test_options_a_view_offered_check_the_next_action_and_legal_actions_keeps_none() -> None:
    """``Steps.keep_offered``: the options a view offered serve the check of the next action
    (worked out once per position); ``legal_actions`` (a search's question) keeps nothing."""
    nim = OfferedNim()
    state = nim.setup(1, "seven")
    state["asked"] = 0
    nim.view(state, "North")
    nim.action(state, "North", "take", 1)
    assert state["asked"] == 1  # the view's options checked the action
    state["asked"] = 0
    nim.action(state, "South", "take", 1)  # a new position, no view: its options worked out
    assert state["asked"] == 1
    state = nim.setup(1, "seven")
    state["asked"] = 0
    nim.legal_actions(state, "North")
    nim.action(state, "North", "take", 1)
    assert state["asked"] == 2  # legal_actions kept nothing
    assert nim.steps.kept_options(state, state["stack"][-1], "South") is None


def test_offered_options_refuse_what_they_do_not_hold_and_go_out_of_date() -> None:
    """What a view offered is out of date after any action (also one that keeps the frame)
    or ``Steps.forget``; an action it does not hold is asked of the step, and a role that
    does not act now is told so."""
    from roses.engine.errors import NotYourTurn

    nim = OfferedNim()
    state = nim.setup(1, "seven")
    nim.view(state, "North")
    with pytest.raises(NotYourTurn):
        nim.action(state, "South", "take", 1)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", 3)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", [1])  # unhashable: refused, not a crash
    nim.view(state, "North")
    state["pile"] = 1  # a position changed by hand, said so
    nim.steps.forget()
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", 2)  # offered before the change: asked of the step again
    nim.view(state, "North")
    nim.action(state, "North", "take", 1)
    assert state["result"] == "North"
