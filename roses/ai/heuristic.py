"""The heuristic bot: greedy search over the game's evaluation.

For every action in its view it applies the action to a few determinisations (full states
re-sampled from what the role knows, see :class:`roses.ai.bot.Determinizer`), follows up
with its own best next actions while it keeps the move (a small beam search, ``depth``
actions in all), scores the results with ``Rules.evaluate`` and plays the best average. The game's knowledge lives in
its ``evaluate`` / ``evaluation_terms`` (for Richard III: heirs, nobles, areas, supply,
threats); the rationale names the terms that the chosen move improves most.

A game may make the bot cheaper, or judge its lines differently, with its
``Rules.search_hints`` (:class:`roses.engine.contract.SearchHints`): ``follow_worlds`` runs the
follow-up search in only the first worlds and replays the line it found in the others (their
dice and hidden cards still count), ``follow_filter`` drops actions from the follow-up search
that cannot change its value (the move itself is always chosen among all actions), and
``best_on_line`` values a line by the best state reached on it rather than its last.
"""

from __future__ import annotations

import random
from typing import Any

from roses.ai.bot import BaseBot, Decision, Determinizer, call_seed, safe_label, view_actions
from roses.ai.sim import search_acting, search_choices, state_values
from roses.engine.contract import Action, Rules, SearchHints, State, View

#: Weight of a move's own result against what the following moves reach (ties only).
SOONER = 1e-6


class HeuristicBot(BaseBot):
    """Greedy over ``Rules.evaluate`` averaged on ``samples`` determinisations."""

    def __init__(self, seed: int = 0, samples: int = 3, depth: int = 3, beam: int = 3,
                 name: str = "heuristic") -> None:
        super().__init__(seed)
        self.samples = max(1, samples)
        self.depth = max(1, depth)
        self.beam = max(1, beam)
        self.name = name

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
        choices = view_actions(view)
        if not choices:
            raise ValueError(f"{role} has no action to choose from")
        rng = random.Random(call_seed(self.seed, view, role))
        if len(choices) == 1:
            return Decision(choices[0], "the only possible action")
        if determinize is None:
            action = choices[rng.randrange(len(choices))]
            return Decision(action, "random: this game gives bots no determinisation")
        worlds = [determinize(rng.getrandbits(62)) for _ in range(self.samples)]
        choices = search_choices(rules, worlds[0], role, choices)
        if len(choices) == 1:
            return Decision(choices[0], "the only action worth choosing")
        order = list(range(len(choices)))
        rng.shuffle(order)  # ties go to a seeded random one of the best
        scored, results = self.score(rules, role, choices, worlds, order)
        scored.sort(key=lambda t: -t[0])  # stable: keeps the shuffled order among ties
        best_value, best = scored[0]
        action = choices[best]
        rationale = self._rationale(rules, worlds[0], results.get(best), role, action, best_value,
                                    scored[1] if len(scored) > 1 else None, choices)
        stats: dict[str, Any] = {"value": best_value, "actions": len(choices), "samples": len(worlds)}
        return Decision(action, rationale, stats)

    def score(self, rules: Rules, role: str, choices: list[Action], worlds: list[State],
              order: list[int]) -> tuple[list[tuple[float, int]], dict[int, State]]:
        """``(value, index)`` of each choice (in ``order``), averaged over ``worlds``, and the
        state each leads to in the first world. Sort by value (stably) to rank them."""
        hints = rules.search_hints
        searched = len(worlds) if hints.follow_worlds is None else max(1, hints.follow_worlds)
        scored: list[tuple[float, int]] = []
        results: dict[int, State] = {}
        for i in order:
            total, n = 0.0, 0
            line: list[Action] | None = None
            for w, world in enumerate(worlds):
                after = _apply(rules, world, role, choices[i])
                if after is None:
                    continue
                own = state_values(rules, after, [role])[role]
                if w < searched or line is None:
                    value, final, found = self._follow(rules, after, role, self.depth - 1, own, hints)
                    if line is None:
                        line = found
                else:
                    value, final = self._replay(rules, after, role, line, own, hints.best_on_line)
                if w == 0:
                    results[i] = final
                # Equal values: the move whose own result is better first (the best is reached
                # sooner), so undoing and redoing a step never ties with finishing it.
                total += value + SOONER * own
                n += 1
            scored.append((total / n if n else -2.0, i))
        return scored, results

    def _follow(self, rules: Rules, state: State, role: str, depth: int, here: float | None = None,
                hints: SearchHints | None = None) -> tuple[float, State, list[Action]]:
        """The best value ``role`` can reach with its own next ``depth`` actions while it keeps
        the move (beam search: only the ``beam`` best children by their own value go deeper),
        the state reached and the line of actions to it. ``here``: the value of ``state`` if
        known. Games that split one turn into several small choices need this to see a move's
        point. A line is worth its last state's value, or with ``hints.best_on_line`` the best
        value on it (then the line stops at that state)."""
        hints = hints or rules.search_hints
        if here is None:
            here = state_values(rules, state, [role])[role]
        if depth <= 0:
            return here, state, []
        turn = search_acting(rules, state)
        if turn is None or turn[0] != role:
            return here, state, []
        keep = hints.follow_filter
        legal = turn[1] if keep is None else keep(state, role, turn[1])
        children: list[tuple[float, State, Action]] = []
        for action in legal:
            after = _apply(rules, state, role, action, checked=False)
            if after is not None:
                children.append((state_values(rules, after, [role])[role], after, action))
        if not children:
            return here, state, []
        children.sort(key=lambda c: -c[0])
        best = (children[0][0], children[0][1], [children[0][2]])
        for own, child, action in children[: self.beam]:
            value, final, line = self._follow(rules, child, role, depth - 1, own, hints)
            if value > best[0]:
                best = (value, final, [action, *line])
        if hints.best_on_line and here >= best[0]:
            return here, state, []
        return best

    def _replay(self, rules: Rules, state: State, role: str, line: list[Action],
                here: float, best_on_line: bool = False) -> tuple[float, State]:
        """The value reached by playing ``line`` from ``state`` while ``role`` keeps the move
        and each action is legal (a line found in another world; module docs); with
        ``best_on_line`` the best value on the way and the state where it was reached."""
        best = (here, state)
        for action in line:
            turn = search_acting(rules, state)
            if turn is None or turn[0] != role or action not in turn[1]:
                break
            after = _apply(rules, state, role, action, checked=False)
            if after is None:
                break
            state = after
            here = state_values(rules, state, [role])[role]
            if not best_on_line or here > best[0]:
                best = (here, state)
        return best

    def _rationale(self, rules: Rules, before: State, after: State | None, role: str,
                   action: Action, value: float, runner_up: tuple[float, int] | None,
                   choices: list[Action]) -> str:
        text = f"{safe_label(rules, before, role, action)}: value {value:+.2f}"
        if after is not None:
            t0 = rules.evaluation_terms(before, role)
            t1 = rules.evaluation_terms(after, role)
            deltas = sorted(((t1.get(k, 0.0) - t0.get(k, 0.0), k) for k in set(t0) | set(t1)),
                            key=lambda d: -abs(d[0]))
            parts = [f"{k} {d:+.2f}" for d, k in deltas[:3] if abs(d) >= 0.005]
            if parts:
                text += " (" + ", ".join(parts) + ")"
        if runner_up is not None:
            other = choices[runner_up[1]]
            text += f"; next best {safe_label(rules, before, role, other)} {runner_up[0]:+.2f}"
        return text


def _apply(rules: Rules, world: State, role: str, action: Action, checked: bool = True) -> State | None:
    """``action`` applied to a copy of ``world`` (None on a rules error). ``checked=False``
    for an action taken from ``legal_actions`` of this very state (``Rules.apply_legal``)."""
    state = rules.copy_state(world)
    try:
        if not checked:
            return rules.apply_legal(state, role, action[0], action[1])
        return rules.action(state, role, action[0], action[1])
    except Exception:  # noqa: BLE001 - a rules error on one sample must not lose the move
        return None
