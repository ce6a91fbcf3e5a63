"""Checks of a game's AI methods, usable from any game's tests.

:func:`determinization_problems` plays seeded random games and, at sampled positions and for
every role, checks that ``Rules.determinize``

* leaves the true state unchanged;
* gives a state the role cannot tell from the truth: the same view (``view`` of the
  determinisation equals ``view`` of the true state), with the same legal actions;
* depends only on what the role knows: determinising the truth and determinising another
  state that looks the same to the role (itself a determinisation) give identical states
  for the same seed;
* re-draws the generator (``rng``) and passes the game's own invariants;
* can be played on (a few random actions apply without error).

It also checks that ``evaluate`` stays in [-1, 1].
"""

from __future__ import annotations

import random
from typing import Any

from roses.ai.sim import acting
from roses.engine.contract import Rules, canonical_json
from roses.engine.fuzz import game_seed
from roses.engine.game import digest


def determinization_problems(rules: Rules, scenario: str, games: int = 3, seed: int = 1,
                             every: int = 7, options: dict[str, Any] | None = None,
                             max_actions: int = 5000, playout: int = 5) -> list[str]:
    """Problems found (empty when all checks pass); see the module docs."""
    problems: list[str] = []
    picker = random.Random(seed)
    for g in range(games):
        state = rules.setup(game_seed(seed, g), scenario, options)
        roles = list(state.get("roles") or rules.roles(scenario, options))
        step = 0
        while step < max_actions and len(problems) < 20:
            turn = acting(rules, state)
            if turn is None:
                break
            if step % every == 0:
                for role in roles:
                    where = f"game {g} step {step} role {role}"
                    problems += [f"{where}: {p}" for p in
                                 _check_position(rules, state, role, picker, playout)]
            mover, legal = turn
            verb, arg = legal[picker.randrange(len(legal))]
            state = rules.action(state, mover, verb, arg)
            step += 1
    return problems


def _check_position(rules: Rules, state: dict[str, Any], role: str, picker: random.Random,
                    playout: int) -> list[str]:
    out: list[str] = []
    before = digest(state)
    true_view = canonical_json(rules.view(state, role))
    s1, s2 = picker.getrandbits(62), picker.getrandbits(62)
    world = rules.determinize(state, role, s1)
    if digest(state) != before:
        return ["determinize changed the true state"]
    if canonical_json(rules.view(world, role)) != true_view:
        out.append("the view of the determinisation differs from the true view")
    if world.get("rng") == state.get("rng") and "rng" in state:
        out.append("the generator was not re-drawn")
    out += [f"invariant: {p}" for p in rules.check_invariants(world)]
    again_true = rules.determinize(state, role, s2)
    again_world = rules.determinize(world, role, s2)
    if digest(again_true) != digest(again_world):
        out.append("determinize depends on more than the role's knowledge "
                   "(same view, same seed, different result)")
    for r in state.get("roles", []):
        v = float(rules.evaluate(world, r))
        if not -1.0 <= v <= 1.0:
            out.append(f"evaluate for {r} is {v}, outside [-1, 1]")
    sim = rules.copy_state(world)
    try:
        for _ in range(playout):
            turn = acting(rules, sim)
            if turn is None:
                break
            mover, legal = turn
            verb, arg = legal[picker.randrange(len(legal))]
            sim = rules.action(sim, mover, verb, arg)
    except Exception as exc:  # noqa: BLE001 - report any failure of play on a determinisation
        out.append(f"play on the determinisation failed: {type(exc).__name__}: {exc}")
    return out
