"""The hidden-information swap check: what a role sees must not change when something hidden
from it is exchanged for another possibility.

A view that prints a secret is caught by :meth:`Rules.secrets` (the fuzzer scans every view
for the secret strings). A leak by *behaviour* prints nothing secret: the game waits for a side
only when it holds some card, offers a choice only when a hidden piece is somewhere, ends a
step sooner when a mat holds less. This check catches both kinds. For a position and a role,
each game gives states that differ from it only in things hidden from that role
(:meth:`Rules.hidden_variants`: the other sides' held cards exchanged with cards of their
decks, a Plan's cards, a deck's order, the contents of a hidden mat...); the check asserts
that, in each of them,

* the role's view (prompt, log, who is active, its own actions: everything it is sent) is the
  same, byte for byte (canonical JSON), and so is :meth:`Rules.active`;
* after the action the game is about to take (when it is legal in the variant too), and if
  that action revealed nothing and drew on no chance (neither state's ``reveals`` nor ``rolls``
  count moved: every reveal of hidden information marks one, :func:`roses.engine.contract.mark_reveal`,
  and a shuffle of a swapped deck, or a deal from it, rightly gives other cards), the role's
  view and who is active are again the same. This catches the decisions taken on hidden things
  while the game settles after an action (a step that ends at once, or waits, depending on a
  hand).

The check uses only the contract, so it runs for every game; ``roses fuzz`` runs it at every
few steps (:func:`roses.engine.fuzz.fuzz`, ``swap_every``).
"""

from __future__ import annotations

import random
from typing import Any

from roses.engine.contract import OBSERVER, Rules, State, canonical_json


def _counts(state: State) -> tuple[Any, Any]:
    """The state's counts of reveals and of random events (dice, shuffles)."""
    return state.get("reveals", 0), state.get("rolls", 0)


def _seen(rules: Rules, state: State, role: str) -> str:
    return canonical_json([rules.active(state), rules.view(state, role)])


def swap_problems(rules: Rules, state: State, roles: list[str], rnd: random.Random,
                  action: tuple[str, str, Any] | None = None, per_role: int = 3) -> list[str]:
    """What changes in a role's view when something hidden from it is swapped (module docs).

    ``roles`` are the game's seats (the Observer is checked too); ``rnd`` picks the variants
    (at most ``per_role`` for each role); ``action`` is ``(role, verb, arg)``, the action about
    to be taken in ``state``, for the check after it. ``state`` is not changed."""
    problems: list[str] = []
    after: State | None = None
    for role in [*roles, OBSERVER]:
        variants = rules.hidden_variants(state, role, rnd)
        if not variants:
            continue
        if len(variants) > per_role:
            variants = rnd.sample(variants, per_role)
        seen = _seen(rules, state, role)
        for label, variant in variants:
            if _seen(rules, variant, role) != seen:
                problems.append(f"{role}'s view (or who is active) changes when {label}")
                continue
            if action is None or not rules.swap_after_action:
                continue
            actor, verb, arg = action
            if (verb, arg) not in [tuple(a) for a in rules.legal_actions(variant, actor)]:
                continue  # the actor's own hidden things decide what it may do
            if after is None:
                after = rules.action(rules.copy_state(state), actor, verb, arg)
            moved = rules.action(rules.copy_state(variant), actor, verb, arg)
            if _counts(after) != _counts(state) or _counts(moved) != _counts(variant):
                continue  # something was revealed, or a shuffle or die used: the views may rightly differ
            if _seen(rules, moved, role) != _seen(rules, after, role):
                problems.append(f"{role}'s view (or who is active) after {actor} {verb} {arg!r} "
                                f"changes when {label}")
    return problems
