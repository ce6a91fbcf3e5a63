"""The revisions of the parts of a state (roses/engine/steps.py: ``Step.changes``,
``Steps.changed``, ``Steps.revision_of``): a view part kept with a state's revision is that
state's part while the revision has not moved, so the revision must move at every change that
may touch the part, and never come back to a value given before."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import State
from roses.engine.errors import IllegalAction
from roses.engine.steps import Frame, Step, StepRules, Steps, pop, push


class Mark(Step):
    """A decision that changes only the frame ("note", declared), the pile ("take", declared)
    or anything ("shout", not declared)."""

    name = "mark"
    changes = {"note": frozenset(), "take": frozenset(("pile",)), "later": frozenset(), "count": frozenset()}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return ["North"]

    def options(self, state: State, frame: Frame, role: str) -> list[tuple[str, Any]]:
        return [("note", None), ("take", None), ("shout", None), ("auto", None), ("later", None), ("count", None)]

    def on_note(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["notes"] = frame.get("notes", 0) + 1

    def on_take(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        state["pile"] -= 1

    def on_shout(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        state["shouts"] += 1

    def on_auto(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        push(state, {"step": "tidy"})

    def on_later(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        push(state, {"step": "settle"})

    def on_count(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        push(state, {"step": "count"})


class Tidy(Step):
    """An automatic step (it declares nothing: it may change any part)."""

    name = "tidy"

    def run(self, state: State, frame: Frame) -> None:
        state["shouts"] = 0
        pop(state)


class Settle(Step):
    """An automatic step declared to change only the frame (``run_changes``)."""

    name = "settle"
    run_changes = frozenset()

    def run(self, state: State, frame: Frame) -> None:
        pop(state)


class Count(Step):
    """An automatic step declared to change the pile."""

    name = "count"
    run_changes = frozenset(("pile",))

    def run(self, state: State, frame: Frame) -> None:
        state["pile"] += 1
        pop(state)


class Marks(StepRules):
    id, title, scenarios = "marks", "Marks", ("one",)
    steps = Steps(Mark(), Tidy(), Settle(), Count())

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["North"]

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        state: State = {"roles": ["North"], "log": [], "result": None, "pile": 9, "shouts": 0}
        rng.seed_state(state, seed)
        return self.start(state, {"step": "mark"})

    def view(self, state: State, role: str) -> dict[str, Any]:
        return self.step_view(state, role)


def test_a_handler_declared_to_change_nothing_moves_no_revision() -> None:
    rules = Marks()
    s = rules.setup(1, "one")
    before = rules.steps.revision_of("pile"), rules.steps.revision_of("other")
    rules.action(s, "North", "note")
    assert (rules.steps.revision_of("pile"), rules.steps.revision_of("other")) == before
    assert s["stack"][-1]["notes"] == 1


def test_a_declared_part_moves_alone_and_an_undeclared_verb_moves_every_part() -> None:
    rules = Marks()
    s = rules.setup(1, "one")
    pile, other = rules.steps.revision_of("pile"), rules.steps.revision_of("other")
    rules.action(s, "North", "take")
    assert rules.steps.revision_of("pile") != pile and rules.steps.revision_of("other") == other
    pile = rules.steps.revision_of("pile")
    rules.action(s, "North", "shout")
    assert rules.steps.revision_of("pile") != pile and rules.steps.revision_of("other") != other


def test_an_automatic_step_a_change_by_hand_and_forget_move_every_part() -> None:
    rules = Marks()
    s = rules.setup(1, "one")
    seen = {rules.steps.revision_of("pile")}
    rules.action(s, "North", "auto")  # a declared-nothing verb is not declared: Tidy runs after it
    seen.add(rules.steps.revision_of("pile"))
    rules.steps.changed()
    seen.add(rules.steps.revision_of("pile"))
    rules.steps.forget()
    seen.add(rules.steps.revision_of("pile"))
    assert len(seen) == 4


def test_a_refused_action_moves_no_revision() -> None:
    rules = Marks()
    s = rules.setup(1, "one")
    before = rules.steps.revision_of("pile")
    with pytest.raises(IllegalAction):
        rules.action(s, "North", "fly")
    assert rules.steps.revision_of("pile") == before


def test_revisions_never_repeat_when_threads_change_states_at_once() -> None:
    """Each change draws a new ticket (``next`` of one counter): a revision read once is never
    read again after a change, whatever other threads do."""
    rules = Marks()
    reads: list[list[int]] = []

    def play() -> None:
        s = rules.setup(1, "one")
        mine = [rules.steps.revision_of("pile")[1]]
        for _ in range(2000):
            rules.action(s, "North", "take")
            mine.append(rules.steps.revision_of("pile")[1])
        reads.append(mine)

    threads = [threading.Thread(target=play) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(reads) == 4
    for mine in reads:  # each read after the thread's own change differs from every read before it
        assert all(mine[i] not in mine[:i] for i in range(1, len(mine)))


def test_an_automatic_step_moves_only_what_its_run_changes_declare() -> None:
    rules = Marks()
    s = rules.setup(1, "one")
    pile, other = rules.steps.revision_of("pile"), rules.steps.revision_of("other")
    rules.action(s, "North", "later")  # Settle runs: declared to change nothing
    assert (rules.steps.revision_of("pile"), rules.steps.revision_of("other")) == (pile, other)
    rules.action(s, "North", "count")  # Count runs: the pile only
    assert rules.steps.revision_of("pile") != pile and rules.steps.revision_of("other") == other
    assert s["pile"] == 10 and s["stack"] == [{"step": "mark"}]
