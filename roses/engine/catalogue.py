"""Action catalogues built from a game's data: what :meth:`Rules.action_space` returns.

A catalogue lists every ``(verb, arg)`` a game can offer, in a fixed order, so that an
action's index is a stable integer id (the research adapters, :mod:`roses.ai`). A game
declares, for each verb, the *forms* its argument takes, and the *domains* (sorted lists of
ids from the game's data: lords, places, cards...) that fill a form's slots. The order
depends only on these declarations: verbs sorted by name, then the verb's forms in their
declared order, then the slot values in the order of their domains (each domain is sorted).
Nothing comes from the order in which a game happens to list its legal actions.

A form is a tuple of parts; a part ``"$name"`` is a slot filled from domain ``name``, any
other part is literal text:

* ``()``: no argument (``None``);
* ``("$lord",)``: the domain value itself (a string or an int);
* ``("$card", ":", "$lord")``: a string made of the parts, e.g. ``"Y1:york"``;
* ``("[", "$office", "$noble")``: a list of slot values, e.g. ``["admiral", "audley"]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from roses.engine.contract import Action, canonical_json

Form = tuple[str, ...]
LIST = "["


def sorted_domain(values: Iterable[Any]) -> tuple[Any, ...]:
    """A domain: distinct values in a fixed order (numbers first, then strings, each sorted)."""
    distinct = set(values)
    return tuple(sorted(distinct, key=lambda v: (isinstance(v, str), v)))


def _slots(form: Form) -> list[str]:
    return [p[1:] for p in form if p.startswith("$")]


def expand(form: Form, domains: Mapping[str, Sequence[Any]]) -> list[Any]:
    """Every argument of ``form``, in catalogue order."""
    if not form:
        return [None]
    names = _slots(form)
    missing = [n for n in names if n not in domains]
    if missing:
        raise KeyError(f"form {form!r} uses unknown domains {missing}")
    pools = [domains[n] for n in names]
    if form[0] == LIST:
        if len(form) - 1 != len(names):
            raise ValueError(f"a list form holds slots only: {form!r}")
        return [list(combo) for combo in itertools.product(*pools)]
    if len(form) == 1:
        return list(pools[0])
    out: list[Any] = []
    for combo in itertools.product(*pools):
        it = iter(combo)
        out.append("".join(str(next(it)) if p.startswith("$") else p for p in form))
    return out


def build(forms: Mapping[str, Sequence[Form]], domains: Mapping[str, Sequence[Any]]) -> list[Action]:
    """The catalogue of ``forms`` (``{verb: [form, ...]}``) over ``domains``; duplicates (an
    argument two forms of a verb both make) are kept once, at their first place."""
    out: list[Action] = []
    seen: set[tuple[str, Any]] = set()
    for verb in sorted(forms):
        for form in forms[verb]:
            for arg in expand(form, domains):
                key = catalogue_key((verb, arg))
                if key not in seen:
                    seen.add(key)
                    out.append((verb, arg))
    return out


def _frozen(value: Any) -> Any:
    t = type(value)
    if t is list:
        return tuple(map(_frozen, value))
    if t is dict:
        return ("{}", canonical_json(value))
    return value


def catalogue_key(action: Action) -> tuple[str, Any]:
    """The key of an action in an index of a catalogue: the action itself, with its lists made
    tuples (and a dict its canonical JSON), so that no JSON is encoded for the usual actions."""
    verb, arg = action
    t = type(arg)
    if t is list or t is dict:
        return verb, _frozen(arg)
    return verb, arg


def index(catalogue: Sequence[Action]) -> dict[tuple[str, Any], int]:
    """``{catalogue_key(action): id}`` for a catalogue."""
    return {catalogue_key(a): i for i, a in enumerate(catalogue)}


__all__ = ["LIST", "Form", "build", "catalogue_key", "expand", "index", "sorted_domain"]
