"""roses.engine.contract.copy_json: the copy of a part of a state that the games' copies use
(Kingmaker's copy_state, Richard III's copies beside their layout, Plantagenet's copy of a new
state)."""

from __future__ import annotations

import pickle

from roses.engine.contract import copy_json
from tests.engine.containers import containers


def test_lists_and_dicts_are_made_anew_at_every_depth() -> None:
    """Lists and dicts new at every depth, scalars as they are (the same objects), anything
    else (a tuple holding a list) deep-copied."""
    text = "a string of the state"
    value = {"flat": [1, text, None, True, 2.5], "nested": [[1, 2], {"k": [3]}, text], "d": {"x": 1},
             "t": (1, [2]), "s": text, "empty": [], "n": None}
    copy = copy_json(value)
    assert copy == value and pickle.dumps(copy) == pickle.dumps(value)  # key order kept too
    assert not set(containers(copy)) & set(containers(value))
    assert copy["s"] is text and copy["flat"][1] is text and copy["nested"][2] is text
    copy["nested"][1]["k"].append(4)
    copy["nested"][0].append(3)
    copy["t"][1].append(5)
    copy["d"]["y"] = 2
    assert value == {"flat": [1, text, None, True, 2.5], "nested": [[1, 2], {"k": [3]}, text], "d": {"x": 1},
                     "t": (1, [2]), "s": text, "empty": [], "n": None}


def test_scalars_are_returned_as_they_are() -> None:
    for scalar in (0, -3, 2.5, "x", True, None):
        assert copy_json(scalar) is scalar
