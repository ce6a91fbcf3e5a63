"""Bot-versus-bot matches with sides swapped, win rates and Wilson confidence intervals.

The arena owns the true state. Before each move it gives the bot to move only
``rules.view(state, role)`` and a :class:`roses.ai.bot.Determinizer` bound to ``(state,
role)`` (``None`` for a game without determinisation); it checks the returned action against
the legal ones and applies it. Simultaneous choices are serialised in the order the rules list
the active roles; what one role chose stays hidden in the other's view.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from roses.ai.bot import Bot, Determinizer
from roses.ai.factory import make_bot
from roses.ai.sim import acting, action_key
from roses.engine.contract import DRAW, Rules
from roses.engine.errors import IllegalAction
from roses.engine.fuzz import game_seed

DEFAULT_MAX_ACTIONS = 20_000


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameOutcome:
    seed: int
    seats: dict[str, str]  # role -> bot label
    result: str | None
    length: int
    seconds: float
    think: dict[str, float] = field(default_factory=dict)  # bot label -> seconds thinking
    moves: dict[str, int] = field(default_factory=dict)  # bot label -> decisions taken


def play_game(rules: Rules, scenario: str, seats: dict[str, tuple[str, Bot]], seed: int,
              options: dict[str, Any] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> GameOutcome:
    """One game; ``seats`` maps each role to ``(label, bot)``. Unfinished games have result None."""
    state = rules.setup(seed, scenario, options)
    think = {label: 0.0 for label, _ in seats.values()}
    moves = {label: 0 for label, _ in seats.values()}
    length = 0
    start = time.perf_counter()
    while length < max_actions:
        turn = acting(rules, state)
        if turn is None:
            break
        role, legal = turn
        label, bot = seats[role]
        view = rules.view(state, role)
        det = Determinizer.bind(rules, state, role)
        t0 = time.perf_counter()
        verb, arg = bot.choose(rules, view, role, det)
        think[label] += time.perf_counter() - t0
        moves[label] += 1
        if action_key((verb, arg)) not in {action_key(a) for a in legal}:
            raise IllegalAction(f"bot {label} chose an illegal action {verb!r} {arg!r} as {role}")
        state = rules.action(state, role, verb, arg)
        length += 1
    return GameOutcome(seed, {r: lab for r, (lab, _) in seats.items()}, rules.result(state),
                       length, time.perf_counter() - start, think, moves)


def _labels(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        label = name
        k = 2
        while label in out:
            label = f"{name}#{k}"
            k += 1
        out.append(label)
    return out


def arena(rules: Rules, scenario: str, bot_names: list[str], games: int, seed: int = 1,
          options: dict[str, Any] | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
          progress: Callable[[int, GameOutcome], None] | None = None,
          make: Callable[[str, int], Bot] = make_bot, jobs: int = 1,
          cluster: str | None = None) -> dict[str, Any]:
    """Play ``games`` games between two bots, seats swapped every other game.

    Games ``2k`` and ``2k+1`` use the same setup seed with the bots in swapped seats, so
    each bot plays each side in half the games (one more when ``games`` is odd). With
    ``jobs > 1`` the games run in that many processes (``rules`` and ``make`` must pickle);
    results are counted in game order, so the report is the same as with one process (but
    for times, and for bots whose budget is time, which then think on a shared machine).
    With ``cluster`` (a Ray address) the games are Ray tasks instead (:mod:`roses.ai.cluster`).
    """
    rules.check_scenario(scenario)
    roles = rules.roles(scenario, options)
    if len(bot_names) != len(roles):
        raise ValueError(f"{rules.title} needs {len(roles)} bots (one per role: {', '.join(roles)})")
    labels = _labels(bot_names)
    wins = {lab: 0 for lab in labels}
    wins_as: dict[str, dict[str, int]] = {lab: {r: 0 for r in roles} for lab in labels}
    played_as: dict[str, dict[str, int]] = {lab: {r: 0 for r in roles} for lab in labels}
    think = {lab: 0.0 for lab in labels}
    moves = {lab: 0 for lab in labels}
    draws = unfinished = total_length = 0
    start = time.perf_counter()
    tasks = [(rules, scenario, roles, labels, bot_names, seed, g, options, max_actions, make)
             for g in range(games)]
    pool = ProcessPoolExecutor(max_workers=min(jobs, games)) if jobs > 1 and games > 1 and cluster is None else None
    try:
        outcomes = pool.map(_arena_game, tasks) if pool is not None else map(_arena_game, tasks)
        if cluster is not None:
            from roses.ai.cluster import ray_map

            outcomes = ray_map(_arena_game, tasks, cluster)
        for g, out in enumerate(outcomes):  # in game order, as they finish
            total_length += out.length
            for lab in labels:
                think[lab] += out.think.get(lab, 0.0)
                moves[lab] += out.moves.get(lab, 0)
            for role, lab in out.seats.items():
                played_as[lab][role] += 1
            if out.result is None:
                unfinished += 1
            elif out.result == DRAW:
                draws += 1
            else:
                for role in out.result.split(", "):
                    if role in out.seats:
                        wins[out.seats[role]] += 1
                        wins_as[out.seats[role]][role] += 1
            if progress is not None:
                progress(g, out)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    bots: dict[str, Any] = {}
    for lab in labels:
        lo, hi = wilson(wins[lab], games)
        bots[lab] = {
            "wins": wins[lab],
            "win_rate": round(wins[lab] / games, 4) if games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "wins_as": wins_as[lab],
            "games_as": played_as[lab],
            "think_s_per_move": round(think[lab] / moves[lab], 4) if moves[lab] else 0.0,
        }
    return {
        "game": rules.id,
        "scenario": scenario,
        "seed": seed,
        "games": games,
        "draws": draws,
        "unfinished": unfinished,
        "mean_length": round(total_length / games, 2) if games else 0.0,
        "seconds": round(time.perf_counter() - start, 2),
        "bots": bots,
    }


def _arena_game(task: tuple[Any, ...]) -> GameOutcome:
    """Game ``g`` of an arena (module level, so process pools can run it)."""
    rules, scenario, roles, labels, bot_names, seed, g, options, max_actions, make = task
    gseed = game_seed(seed, g // 2)
    shift = g % 2
    order = labels[shift:] + labels[:shift]
    names = dict(zip(labels, bot_names, strict=True))
    seats = {role: (lab, make(names[lab], gseed * 4 + i)) for i, (role, lab)
             in enumerate(zip(roles, order, strict=True))}
    return play_game(rules, scenario, seats, gseed, options, max_actions)


def format_report(report: dict[str, Any]) -> str:
    lines = [f"{report['game']} {report['scenario']}: {report['games']} games "
             f"(seed {report['seed']}, sides swapped), mean length {report['mean_length']:.1f} actions, "
             f"{report['draws']} draws, {report['unfinished']} unfinished, {report['seconds']:.0f} s"]
    for lab, b in report["bots"].items():
        lo, hi = b["ci95"]
        sides = ", ".join(f"{w}/{b['games_as'][r]} as {r}" for r, w in b["wins_as"].items())
        lines.append(f"  {lab:>16}: {b['wins']} wins, win rate {100 * b['win_rate']:.1f}% "
                     f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%; {sides}); "
                     f"{b['think_s_per_move']:.3f} s/move")
    return "\n".join(lines)
