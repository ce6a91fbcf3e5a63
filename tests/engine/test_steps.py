"""The decision framework (roses/engine/steps.py): the documented example runs, and the stack
semantics every game relies on (resume after pop, simultaneous actors, automatic steps,
refused actions change nothing)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import roses
import roses.engine.steps as steps_module
from roses.engine import rng
from roses.engine.contract import State
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.engine.game import Game, digest
from roses.engine.log import public
from roses.engine.steps import Frame, Step, StepRules, Steps, pop, push, push_all


def example_namespace() -> dict[str, Any]:
    """Exec the example game of the module docstring, exactly as documented (read from the
    source: a compiled module, tools/compile.py, keeps no docstring)."""
    source = Path(roses.__file__ or "").parent / "engine" / "steps.py"
    doc = ast.get_docstring(ast.parse(source.read_text()), clean=False) or ""
    start = doc.index("::\n") + 3
    end = doc.index("``docs/engine.md``")
    code = textwrap.dedent(doc[start:end])
    ns: dict[str, Any] = {}
    exec(compile(code, "steps-example", "exec"), ns)  # noqa: S102 - our own docstring
    return ns


def test_the_documented_example_plays_to_a_result() -> None:
    nim = example_namespace()["Nim"]()
    game = Game.new(nim, seed=3, scenario="seven")
    assert game.active() == ["North"]
    assert nim.legal_actions(game.state, "North") == [("take", 1), ("take", 2)]
    assert nim.legal_actions(game.state, "South") == []
    view = game.view("North")
    assert view["actions"] == {"take": [1, 2]} and view["pile"] == 7
    assert "7 left" in view["prompt"]
    while game.result() is None:
        role = game.active()[0]
        game.apply(role, *nim.legal_actions(game.state, role)[-1])
    # 7 stones, two at a time: North 2, South 2, North 2, South takes the last one.
    assert game.result() == "South"
    assert game.replay() is not None
    assert nim.active(game.state) == [] and nim.legal_actions(game.state, "North") == []


def test_refused_actions_change_nothing() -> None:
    nim = example_namespace()["Nim"]()
    state = nim.setup(1, "seven")
    before = digest(state)
    with pytest.raises(NotYourTurn):
        nim.action(state, "South", "take", 1)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", 3)
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "take", [1])  # unhashable argument
    with pytest.raises(IllegalAction):
        nim.action(state, "North", "no-such-verb", None)
    assert digest(state) == before


def test_a_refusal_says_why_and_what_may_be_done() -> None:
    """The default refusal names the refused action, the rule of the step when it has one,
    what is asked now and the kinds of action open instead (the role's own prompt only)."""
    nim = example_namespace()["Nim"]()
    state = nim.setup(1, "seven")
    with pytest.raises(IllegalAction) as refused:
        nim.action(state, "North", "take", 3)
    text = str(refused.value)
    assert text.startswith("North cannot take 3 now: that is not one of the take choices open now.")
    assert "Now: Take one or two stones (7 left)." in text and text.endswith("You may: take.")
    step = nim.steps.by_name[state["stack"][-1]["step"]]
    step.rule = "N.1"
    try:
        with pytest.raises(IllegalAction, match=r"^North cannot pass now: pass is not a choice at this point \(N\.1\)\."):
            nim.action(state, "North", "pass", None)
    finally:
        del step.rule


# ----- a game that uses every part of the stack --------------------------------------------
class Turn(Step):
    """A player's turn: draw (a die) or call for a vote; the vote is pushed on top and the
    turn resumes after it, then passes."""

    name = "turn"
    phase = "play"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [state["roles"][frame["player"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[tuple[str, Any]]:
        if frame["voted"]:
            return [("done", None)]
        return [("roll", None), ("vote", None)] + ([] if frame.get("noted") else [("note", None)])

    def on_note(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["noted"] = True

    def on_roll(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        state["score"][role] += rng.roll(state)
        frame["voted"] = True

    def on_vote(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["voted"] = True
        push(state, {"step": "vote", "ballots": {}})

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        push(state, {"step": "turn", "player": 1 - frame["player"], "voted": False})


class Vote(Step):
    """Both players at once, secretly."""

    name = "vote"
    phase = "vote"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [r for r in state["roles"] if r not in frame["ballots"]]

    def options(self, state: State, frame: Frame, role: str) -> list[tuple[str, Any]]:
        return [("ballot", "yes"), ("ballot", "no")]

    def on_ballot(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["ballots"][role] = arg
        if len(frame["ballots"]) == 2:
            pop(state)
            push_all(state, [{"step": "count", "yes": list(frame["ballots"].values()).count("yes")},
                             {"step": "tidy"}])


class Count(Step):
    name = "count"

    def run(self, state: State, frame: Frame) -> None:
        public(state, f"{frame['yes']} yes.")
        if frame["yes"] == 2:
            state["result"] = "Draw"
        pop(state)


class Tidy(Step):
    name = "tidy"

    def run(self, state: State, frame: Frame) -> None:
        public(state, "Tidied.")
        pop(state)


class Loop(Step):
    name = "loop"

    def run(self, state: State, frame: Frame) -> None:
        frame["n"] = frame.get("n", 0) + 1


class StackGame(StepRules):
    id, title, scenarios = "stackgame", "Stack game", ("standard",)
    steps = Steps(Turn(), Vote(), Count(), Tidy(), Loop())

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["A", "B"]

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        state: State = {"roles": ["A", "B"], "log": [], "result": None, "score": {"A": 0, "B": 0}}
        rng.seed_state(state, seed)
        return self.start(state, {"step": "turn", "player": 0, "voted": False})

    def view(self, state: State, role: str) -> dict[str, Any]:
        return self.step_view(state, role, score=state["score"])


def test_a_pushed_step_for_both_players_then_the_turn_resumes() -> None:
    g = StackGame()
    s = g.setup(1, "standard")
    g.action(s, "A", "vote")
    assert g.active(s) == ["A", "B"] and g.steps.phase(s) == "vote"
    g.action(s, "B", "ballot", "no")
    assert g.active(s) == ["A"]  # simultaneous: B is done, A still to vote
    assert g.legal_actions(s, "B") == []
    g.action(s, "A", "ballot", "yes")
    # The automatic steps ran in queue order, then A's turn resumed where it was.
    assert s["log"][-2:] == ["1 yes.", "Tidied."]
    assert g.active(s) == ["A"] and g.legal_actions(s, "A") == [("done", None)]
    g.action(s, "A", "done")
    assert g.active(s) == ["B"] and [f["step"] for f in s["stack"]] == ["turn"]


def test_an_automatic_step_may_end_the_game() -> None:
    g = StackGame()
    s = g.setup(1, "standard")
    g.action(s, "A", "vote")
    g.action(s, "A", "ballot", "yes")
    g.action(s, "B", "ballot", "yes")
    assert g.result(s) == "Draw" and g.active(s) == [] and g.steps.phase(s) == "over"
    with pytest.raises(IllegalAction):
        g.action(s, "A", "done")


def test_dice_inside_handlers_come_from_the_seeded_generator() -> None:
    g = StackGame()
    s1, s2 = g.setup(9, "standard"), g.setup(9, "standard")
    s2["rigged"] = [6]
    g.action(s1, "A", "roll")
    g.action(s2, "A", "roll")
    assert s2["score"]["A"] == 6 and s1["rolls"] == s2["rolls"] == 1
    assert digest(g.setup(9, "standard")) == digest(g.setup(9, "standard"))


def test_undo_policy_is_unchanged_on_steps() -> None:
    g = StackGame()
    game = Game.new(g, seed=2, scenario="standard")
    game.apply("A", "note")  # no die, no reveal, A still the one to act: may be undone
    assert game.can_undo("A")
    game.apply("A", ".undo")
    assert g.legal_actions(game.state, "A") == [("roll", None), ("vote", None), ("note", None)]
    game.apply("A", "vote")  # now B decides too: the turn has passed
    assert not game.can_undo("A")
    game.apply("A", "ballot", "no")
    game.apply("B", "ballot", "no")
    game.apply("A", "done")
    game.apply("B", "roll")  # a die: no undo
    assert not game.can_undo("B")
    game.replay()


def test_a_step_that_never_comes_to_a_decision_is_reported() -> None:
    g = StackGame()
    s = g.setup(1, "standard")
    push(s, {"step": "loop"})
    with pytest.raises(RuntimeError, match="did not come to a decision"):
        g.steps.settle(s)


def test_view_lists_exactly_the_options() -> None:
    g = StackGame()
    s = g.setup(1, "standard")
    v = g.view(s, "A")
    assert v["actions"] == {"roll": True, "vote": True, "note": True} and v["phase"] == "play"
    assert "actions" not in g.view(s, "B")


def test_two_steps_may_not_share_a_name() -> None:
    with pytest.raises(ValueError):
        Steps(Count(), Count())


def test_views_carry_the_recent_log_with_kinds() -> None:
    """A view carries the last LOG_WINDOW lines its role may read, their kinds, and whether
    older readable lines exist (roses/engine/logview.py)."""
    from roses.engine.log import BATTLE, private
    from roses.engine.logview import LOG_WINDOW, recent_log

    g = StackGame()
    s = g.setup(1, "standard")
    public(s, "first")
    private(s, "B", "secret of B")
    for i in range(LOG_WINDOW):
        public(s, f"line {i}", BATTLE if i % 2 else None)
    v = g.view(s, "A")
    assert len(v["log"]) == LOG_WINDOW and v["log"][-1] == f"line {LOG_WINDOW - 1}"
    assert v["log_kinds"][-1] == BATTLE and v["log_kinds"][-2] == "" and v["log_more"] is True
    assert "secret of B" not in v["log"]
    lines, kinds, more = recent_log(s["log"], "A", window=LOG_WINDOW + 1)
    assert lines[0] == "first" and more is False  # only B's line is older
    assert recent_log(s["log"], "B", window=LOG_WINDOW + 1)[0][0] == "secret of B"


@given(st.lists(st.tuples(st.sampled_from(["move", "sea", "end", "pass"]),
                          st.one_of(st.none(), st.integers(0, 5), st.text(max_size=2)))))
def test_options_map_groups_the_arguments_of_each_verb_in_order(actions: list[tuple[str, Any]]) -> None:
    """A view's actions: ``{verb: [args in the order given]}``, ``True`` for a verb without an
    argument (a verb is given either way, never both)."""
    with_arg = {v for v, a in actions if a is not None}
    without = {v for v, a in actions if a is None}
    actions = [(v, a) for v, a in actions if not (v in with_arg and v in without)]
    expected: dict[str, Any] = {}
    for verb, arg in actions:
        if arg is None:
            expected[verb] = True
        else:
            expected[verb] = [*expected.get(verb, []), arg]
    got = steps_module.options_map(actions)
    assert got == expected
    assert list(got) == list(expected)  # the verbs in the order of their first option
