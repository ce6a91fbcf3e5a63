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


def verb_index(ids: Mapping[tuple[str, Any], int]) -> dict[str, dict[Any, int]]:
    """An index of a catalogue by verb: ``{verb: {key of the argument: id}}`` (the argument's
    key as in :func:`catalogue_key`), for :func:`legal_ids`."""
    out: dict[str, dict[Any, int]] = {}
    for (verb, arg), i in ids.items():
        out.setdefault(verb, {})[arg] = i
    return out


def legal_ids(by_verb: Mapping[str, Mapping[Any, int]], actions: Mapping[str, Any], title: str = "") -> list[int]:
    """The sorted catalogue ids of a view's ``actions`` (``{verb: True | [arg, ...]}``);
    ``ValueError`` for an action the catalogue lacks. Plain arguments (numbers, strings) are
    looked up by C calls; a list or dict argument goes through :func:`catalogue_key`."""
    out: list[int] = []
    for verb, args in actions.items():
        if not args:
            continue
        table = by_verb.get(verb)
        try:
            if table is None:
                raise KeyError(verb)
            if args is True:
                out.append(table[None])
            else:
                try:
                    got = list(map(table.__getitem__, args))
                except TypeError:  # a list or dict argument: not hashable as it is
                    got = [table[catalogue_key((verb, a))[1]] for a in args]
                out += got
        except KeyError:
            missing = [a for a in ([None] if args is True else args)
                       if table is None or table.get(catalogue_key((verb, a))[1]) is None]
            raise ValueError(f"{title}: actions {[(verb, a) for a in missing]!r} are not in the action "
                             "catalogue") from None
    out.sort()
    return out


__all__ = ["LIST", "Form", "build", "catalogue_key", "expand", "index", "legal_ids", "sorted_domain", "verb_index"]
