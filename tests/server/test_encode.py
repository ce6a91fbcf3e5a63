"""The server's JSON encodings, orjson's speed with the text ``json`` gives: views
(roses.server.service._encode, ``json.dumps(..., separators=(",", ":"), ensure_ascii=False)``)
and stored states (roses.server.store.state_text, ``canonical_json``)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.engine.contract import canonical_json
from roses.engine.fuzz import fuzz_picker, random_choice
from roses.engine.registry import get_rules
from roses.server.service import _encode
from roses.server.store import split_state, state_text

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


_STATES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text() | st.sampled_from(['a"b', "a\\b", "\x00\x1f", "\x7f", "\u2028", "→", "Warwick/Y"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=16)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _STATES, max_size=5))
def test_state_text_is_canonical_json(state: dict[str, Any]) -> None:
    """What a state holds (string keys, no floats; integers past 64 bits go to ``json``)."""
    assert state_text(state) == canonical_json(state)


def test_state_text_floats_and_keys() -> None:
    """A finite float reads back the same; keys that are not strings take ``json``'s text."""
    for x in (1.5, -0.0, 1e16, 1e-7, 2.0**70):
        assert json.loads(state_text({"x": x})) == {"x": x}
    assert state_text({2: "a", 1: "b"}) == canonical_json({2: "a", 1: "b"}) == '{"1":"b","2":"a"}'


def test_stored_states_of_every_game_are_canonical_json() -> None:
    """The states of random games of each game, as a snapshot stores them (split_state), are the
    text ``canonical_json`` gives: snapshots written before and after read back the same."""
    for game_id in ("richard3", "plantagenet", "kingmaker"):
        rules = get_rules(game_id)
        for scenario in rules.scenarios[:2]:
            state = rules.setup(7, scenario, None)
            picker = fuzz_picker(7)
            for _ in range(60):
                text, log_len = split_state(state)
                log = state.get("log")
                assert text == canonical_json({**state, "log": []} if isinstance(log, list) else state)
                assert log_len == (len(log) if isinstance(log, list) else None)
                if rules.result(state) is not None:
                    break
                picked = random_choice(rules, state, rules.active(state), picker)
                if picked is None:
                    break
                role, (verb, arg) = picked
                state = rules.action(state, role, verb, arg)


@settings(max_examples=400, deadline=None)
@given(_STATES)
def test_stored_arguments_are_what_json_writes(arg: Any) -> None:
    """An action's argument as stored (``_arg_json``): the common ones written directly, the
    same text as the sorted, ASCII-escaped ``json.dumps``."""
    from roses.server.service import _arg_json

    assert _arg_json(arg) == json.dumps(arg, sort_keys=True, separators=(",", ":"), allow_nan=False)


def test_stored_arguments_written_directly() -> None:
    """The arguments written without the encoder, and those next to them that need it."""
    from roses.server.service import _arg_json

    for plain in ("Kent", "Warwick/Y", 'a"b', "\x7f", "é", 12, -3, None, True):
        assert _arg_json(plain) == json.dumps(plain, sort_keys=True, separators=(",", ":"))
