"""The typed records (records.py) say what the state holds: every state and every frame of
recorded games of every scenario and option set conforms to its type, key by key and value by
value (required keys present, no key the type does not name)."""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from roses.games.plantagenet import RULES
from roses.games.plantagenet.records import FRAME_TYPES, PlantagenetState
from tests.plantagenet.test_corpus import corpus


def problems(value: Any, hint: Any, where: str) -> list[str]:
    """Where ``value`` is not of type ``hint`` (TypedDicts, unions, lists and dicts of a type,
    the JSON scalars); empty if it is."""
    if hint is Any:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = [problems(value, h, where) for h in get_args(hint) if h is not type(None) or value is None]
        return [] if any(not p for p in options) else min(options, key=len)
    if is_typeddict(hint):
        if type(value) is not dict:
            return [f"{where}: {value!r} is not a {hint.__name__}"]
        hints = get_type_hints(hint)
        out = [f"{where}: {hint.__name__} lacks {k!r}" for k in hint.__required_keys__ if k not in value]
        out += [f"{where}: {hint.__name__} has no {k!r}" for k in value if k not in hints]
        for k, v in value.items():
            if k in hints:
                out += problems(v, hints[k], f"{where}.{k}")
        return out
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if type(value) is not dict:
            return [f"{where}: {value!r} is not a dict"]
        key, item = get_args(hint)
        return [p for k, v in value.items() for p in problems(k, key, where) + problems(v, item, f"{where}.{k}")]
    if hint in (str, int, bool, float):
        return [] if type(value) is hint else [f"{where}: {value!r} is not {hint.__name__}"]
    raise AssertionError(f"no check for {hint}")


def state_problems(state: dict[str, Any]) -> list[str]:
    out = problems(state, PlantagenetState, "state")
    for i, frame in enumerate(state["stack"]):
        kind = FRAME_TYPES.get(frame["step"])
        if kind is None:
            out.append(f"stack[{i}]: no type for step {frame['step']!r}")
        else:
            out += problems(frame, kind, f"stack[{i}] {frame['step']}")
    return out


def test_every_step_has_a_frame_type() -> None:
    assert set(FRAME_TYPES) == set(RULES.steps.by_name)


def test_the_checker_finds_a_wrong_value_a_missing_and_an_unknown_key() -> None:
    state = RULES.setup(1, "ia-henry-vi")
    assert state_problems(state) == []
    lord = next(iter(state["lords"]))
    state["lords"][lord]["box"] = "2"
    del state["rolls"]
    state["stack"][-1]["surprise"] = 1
    found = state_problems(state)
    assert any(f"state.lords.{lord}.box" in p for p in found)
    assert any("lacks 'rolls'" in p for p in found)
    assert any("has no 'surprise'" in p for p in found)


@pytest.mark.parametrize("scenario", RULES.scenarios)
def test_recorded_games_conform_to_the_typed_records(scenario: str) -> None:
    """Every state and frame of 6 recorded games of the scenario (default options, Hidden
    Mats, quick reactions), after setup and after every action."""
    records = [r for r in corpus() if r["scenario"] == scenario]
    picked = records[:2] + [r for r in records if r["options"]][:4]
    for record in picked:
        state = RULES.setup(record["seed"], scenario, record["options"])
        assert state_problems(state) == []
        for n, (role, verb, arg) in enumerate(record["actions"]):
            state = RULES.action(state, role, verb, arg)
            found = state_problems(state)
            assert not found, (record["seed"], n, found[:5])


def test_invariants_report_a_lord_on_the_map_at_no_locale() -> None:
    """What the types allow but the rules never make (a Lord on the map with no Locale,
    ``LordRecord.locale`` None) is reported by the invariants, not raised."""
    state = RULES.setup(1, "ia-henry-vi")
    lord = next(lid for lid, d in state["lords"].items() if d["where"] == "map")
    state["lords"][lord]["locale"] = None
    assert f"{lord}: on the map at no Locale" in RULES.check_invariants(state)


def test_a_long_random_game_of_the_wars_conforms_to_the_typed_records() -> None:
    """The same on the first 400 actions of a Wars of the Roses game of random play (fuzz seed
    1, game 77), which reaches frames the recorded games do not (a Pay of Troops with what each
    Lord owes, 3.2.1)."""
    from roses.engine.fuzz import fuzz_picker, game_seed, random_choice

    gseed = game_seed(1, 77)
    picker = fuzz_picker(gseed)
    state = RULES.setup(gseed, "wars-of-the-roses")
    kinds: set[str] = set()
    for n in range(400):
        picked = random_choice(RULES, state, RULES.active(state), picker)
        if picked is None:
            break
        state = RULES.action(state, picked[0], *picked[1])
        found = state_problems(state)
        assert not found, (n, found[:5])
        kinds |= {k for f in state["stack"] for k in f if f["step"] == "pay_troops"}
    assert "owed" in kinds
