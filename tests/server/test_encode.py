"""The server's JSON encoding of views (roses.server.service._encode): orjson's speed, the text
``json.dumps(..., separators=(",", ":"), ensure_ascii=False)`` gives for what views hold."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.server.service import _encode

_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**80), max_value=2**80)
            | st.text() | st.sampled_from(['a"b', "a\\b", "tab\there", "\x00", "\x7f", "\u2028", "→", "Warwick/Y"]))
_KEYS = st.text(max_size=4) | st.integers(min_value=-5, max_value=5) | st.none() | st.booleans()
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                       | st.dictionaries(_KEYS, inner, max_size=3), max_leaves=14)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_encode_writes_what_json_writes(value: Any) -> None:
    """String keys, keys of other kinds (a second pass), integers past 64 bits (``json``)."""
    assert _encode(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_encode_examples() -> None:
    assert _encode({"a": [1, "→"], 2: None}) == '{"a":[1,"→"],"2":null}'
    assert _encode({"big": 2**70}) == '{"big":1180591620717411303424}'
    assert json.loads(_encode({"x": 1.5e-7})) == {"x": 1.5e-7}  # floats: valid, maybe written otherwise
