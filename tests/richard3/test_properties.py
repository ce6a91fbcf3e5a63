"""Property tests (hypothesis): any seed and any sequence of legal choices keeps the invariants,
never leaks a secret to the Observer, and refuses illegal input without touching the state."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.game import digest
from tests.richard3.helpers import RULES


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), scenario=st.sampled_from(["wars-of-the-roses", "kingmaker", "richard-iii"]),
       choices=st.lists(st.integers(0, 10_000), min_size=20, max_size=120))
def test_random_choices_keep_invariants(seed: int, scenario: str, choices: list[int]) -> None:
    s = RULES.setup(seed, scenario)
    for c in choices:
        if RULES.result(s) is not None:
            break
        active = RULES.active(s)
        role = active[c % len(active)]
        legal = RULES.legal_actions(s, role)
        assert legal, "dead end"
        verb, arg = legal[c % len(legal)]
        RULES.action(s, role, verb, arg)
        assert RULES.check_invariants(s) == []
    json.dumps(s)
    text = canonical_json(RULES.view(s, OBSERVER))
    for token in RULES.secrets(s, OBSERVER):
        assert token not in text


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), verb=st.sampled_from(["move", "to", "sea", "recruit", "play", "main", "home",
                                                          "battle", "reduce", "keep", "end"]),
       arg=st.one_of(st.none(), st.integers(-5, 70), st.text(max_size=12),
                     st.sampled_from(["Kent", "Warwick/Y", "Calais", "Norfolk/Y"])))
def test_illegal_input_refused_without_change(seed: int, verb: str, arg: object) -> None:
    s = RULES.setup(seed, "richard-iii")
    for role in ("York", "Lancaster"):
        legal = RULES.legal_actions(s, role)
        if (verb, arg) in legal:
            continue
        before = digest(s)
        try:
            RULES.action(s, role, verb, arg)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"accepted {verb} {arg!r}")
        assert digest(s) == before
