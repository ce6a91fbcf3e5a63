"""Small helpers the search bots share: who acts in a state, values, action keys."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from roses.engine.contract import DRAW, Action, Rules, State, canonical_json


def acting(rules: Rules, state: State) -> tuple[str, list[Action]] | None:
    """The role that moves next in a simulation and its legal actions.

    Several active roles (simultaneous choices) are serialised in the order ``active`` lists
    them; what one of them chooses stays hidden from the others through their views.
    ``None`` when the game is over or nobody can act.
    """
    if rules.result(state) is not None:
        return None
    for role in rules.active(state):
        legal = rules.legal_actions(state, role)
        if legal:
            return role, legal
    return None


def search_acting(rules: Rules, state: State) -> tuple[str, list[Action]] | None:
    """:func:`acting` for a search: the mover's actions narrowed by the game's
    ``search_hints.choices`` (never to nothing). Not for checking a move's legality."""
    found = acting(rules, state)
    return None if found is None else (found[0], search_choices(rules, state, found[0], found[1]))


def search_choices(rules: Rules, state: State, role: str, actions: list[Action]) -> list[Action]:
    """``actions`` of ``role`` in ``state`` narrowed by the game's ``search_hints.choices``
    (never to nothing)."""
    pick = rules.search_hints.choices
    if pick is None:
        return actions
    return pick(state, role, actions) or actions


def result_values(result: str, roles: list[str]) -> dict[str, float]:
    """+1 for the winners, -1 for the others, 0 for everyone on a draw."""
    if result == DRAW:
        return {r: 0.0 for r in roles}
    winners = set(result.split(", "))
    return {r: (1.0 if r in winners else -1.0) for r in roles}


def state_values(rules: Rules, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
    """Each role's value of ``state`` in [-1, 1]: the result if over, else the evaluation
    (with the threat ``horizon`` of :meth:`Rules.evaluate_all`)."""
    res = rules.result(state)
    if res is not None:
        return result_values(res, roles)
    values = rules.evaluate_all(state, roles, horizon) if horizon != 1 else rules.evaluate_all(state, roles)
    return {r: max(-1.0, min(1.0, float(values[r]))) for r in roles}


def action_key(action: Action) -> Hashable:
    """A hashable key for an action whose argument may be a list or a dict."""
    verb, arg = action
    try:
        hash(arg)
    except TypeError:
        return (verb, canonical_json(arg))
    return (verb, arg)


def roles_of(rules: Rules, state: State) -> list[str]:
    roles: Any = state.get("roles")
    if isinstance(roles, list) and roles:
        return [str(r) for r in roles]
    return list(rules.roles(str(state.get("scenario", ""))))
