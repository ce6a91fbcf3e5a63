"""Action labels in views (roses.engine.labels): one text per legal action, from Rules.label."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.engine import Game
from roses.engine.labels import action_labels, arg_key, fallback_label
from tests.engine.toygame import RULES, ToyRules


def test_arg_key_is_what_json_stringify_gives() -> None:
    assert arg_key(None) == "null"
    assert arg_key(3) == "3"
    assert arg_key("Kent") == '"Kent"'
    assert arg_key(["Warwick/Y", "Kent"]) == '["Warwick/Y","Kent"]'
    assert arg_key("Étienne") == '"Étienne"'
    for text in ('a"b', "Kent", "tab\there"):  # strings are kept once written: the same twice
        assert arg_key(text) == arg_key(text) == json.dumps(text, ensure_ascii=False)


_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**80), max_value=2**80)
            | st.floats(allow_nan=False) | st.text() | st.sampled_from(['a"b', "a\\b", "tab\there", "\x00", "\x7f",
                                                                        "\u2028", "\ud800", "Warwick/Y"]))
_ARGS = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                     | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(_ARGS)
def test_arg_key_is_the_compact_json_of_any_argument(arg: Any) -> None:
    """The direct writing of common arguments gives exactly the encoder's text."""
    assert arg_key(arg) == json.dumps(arg, separators=(",", ":"), ensure_ascii=False)


def test_the_view_carries_a_label_for_every_action_and_undo() -> None:
    game = Game.new(RULES, 1, "short")
    view = game.view("North")
    assert view["actions"] == {"pick": [1, 2, 3]}  # unchanged
    assert view["labels"] == {"pick": {"1": "pick 1", "2": "pick 2", "3": "pick 3"}}
    game.apply("North", "pick", 2)
    assert "labels" not in game.view("North")  # no actions, no labels
    game.apply("South", "pick", 1)
    game.apply("North", "step")
    undo = game.view("North")
    assert undo["labels"]["step"] == {"null": "step"}
    assert undo["actions"]["undo"] is True and undo["labels"]["undo"] == {"null": "Undo"}
    assert "labels" not in game.view("Observer")


def test_labels_use_the_rules_and_fall_back_when_they_fail() -> None:
    class Labelled(ToyRules):
        def label(self, state: Any, role: str, verb: str, arg: Any) -> str:
            if arg == 3:
                raise ValueError("no label")
            return f"{role} picks {arg}" if verb == "pick" else verb.upper()

    rules = Labelled()
    state = rules.setup(1, "short")
    out = action_labels(rules, state, "South", {"pick": [1, 3], "step": True})
    assert out == {"pick": {"1": "South picks 1", "3": "pick: 3"}, "step": {"null": "STEP"}}
    assert fallback_label("end_group", None) == "end group"
    assert fallback_label("retreat", ["A", "B"]) == 'retreat: ["A","B"]'
