"""Bot-versus-bot matches with seats rotated, win rates and Wilson confidence intervals.

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
    #: How the game ended: the rules' milestones at its end (``Rules.milestones``), e.g.
    #: ``end_last_heir_crowned``; empty for a game that ended without one or did not end.
    ended: list[str] = field(default_factory=list)
    #: The game's round at its end, for a game whose state counts rounds (``state["round"]``).
    rounds: int | None = None
    #: bot label -> seconds of each decision with a choice (more than one legal action).
    times: dict[str, list[float]] = field(default_factory=dict)


def play_game(rules: Rules, scenario: str, seats: dict[str, tuple[str, Bot]], seed: int,
              options: dict[str, Any] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> GameOutcome:
    """One game; ``seats`` maps each role to ``(label, bot)``. Unfinished games have result None."""
    state = rules.setup(seed, scenario, options)
    think = {label: 0.0 for label, _ in seats.values()}
    moves = {label: 0 for label, _ in seats.values()}
    times: dict[str, list[float]] = {label: [] for label, _ in seats.values()}
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
        dt = time.perf_counter() - t0
        think[label] += dt
        moves[label] += 1
        if len(legal) > 1:
            times[label].append(round(dt, 4))
        if action_key((verb, arg)) not in {action_key(a) for a in legal}:
            raise IllegalAction(f"bot {label} chose an illegal action {verb!r} {arg!r} as {role}")
        state = rules.action(state, role, verb, arg)
        length += 1
    result = rules.result(state)
    rounds = state.get("round")
    return GameOutcome(seed, {r: lab for r, (lab, _) in seats.items()}, result,
                       length, time.perf_counter() - start, think, moves,
                       ended=rules.milestones(state) if result is not None else [],
                       rounds=rounds if isinstance(rounds, int) else None, times=times)


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
    """Play ``games`` games between the bots (one per role), seats rotated every game.

    With ``n`` roles, games ``nk`` to ``nk+n-1`` use the same setup seed with the bots
    rotated one seat each game, so each bot plays each seat equally often (two bots: sides
    swapped every other game). With
    ``jobs > 1`` the games run in that many processes (``rules`` and ``make`` must pickle);
    results are counted in game order, so the report is the same as with one process (but
    for times, and for bots whose budget is time, which then think on a shared machine).
    With ``cluster`` (a Ray address) the games are Ray tasks instead (:mod:`roses.ai.cluster`).
    """
    rules.check_scenario(scenario)
    roles = rules.roles(scenario, options)
    if len(bot_names) != len(roles):
        raise ValueError(f"{rules.title} with these options needs {len(roles)} bots, one per role "
                         f"({', '.join(roles)}); {len(bot_names)} given")
    labels = _labels(bot_names)
    wins = {lab: 0 for lab in labels}
    wins_as: dict[str, dict[str, int]] = {lab: {r: 0 for r in roles} for lab in labels}
    played_as: dict[str, dict[str, int]] = {lab: {r: 0 for r in roles} for lab in labels}
    think = {lab: 0.0 for lab in labels}
    moves = {lab: 0 for lab in labels}
    draws = unfinished = total_length = 0
    ended: dict[str, int] = {}
    rounds: list[int] = []
    times: dict[str, list[float]] = {lab: [] for lab in labels}
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
            for lab, ts in out.times.items():
                times[lab].extend(ts)
            if out.rounds is not None:
                rounds.append(out.rounds)
            kind = "unfinished" if out.result is None else (",".join(out.ended) or ("draw" if out.result == DRAW else "win"))
            ended[kind] = ended.get(kind, 0) + 1
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
            "think_s_per_choice": _spread(times[lab]),
        }
    return {
        "game": rules.id,
        "scenario": scenario,
        "seed": seed,
        "games": games,
        "draws": draws,
        "unfinished": unfinished,
        "mean_length": round(total_length / games, 2) if games else 0.0,
        "options": dict(options or {}),
        "ended": dict(sorted(ended.items())),
        "rounds": _spread([float(r) for r in rounds]) if rounds else None,
        "seconds": round(time.perf_counter() - start, 2),
        "bots": bots,
    }


def _spread(values: list[float]) -> dict[str, float]:
    """Count, mean, median, 95th percentile and maximum of ``values``."""
    if not values:
        return {"n": 0, "mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    xs = sorted(values)
    n = len(xs)
    return {"n": n, "mean": round(sum(xs) / n, 4), "median": round(xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2, 4),
            "p95": round(xs[min(n - 1, int(0.95 * n))], 4), "max": round(xs[-1], 4)}


def _arena_game(task: tuple[Any, ...]) -> GameOutcome:
    """Game ``g`` of an arena (module level, so process pools can run it)."""
    rules, scenario, roles, labels, bot_names, seed, g, options, max_actions, make = task
    gseed = game_seed(seed, g // len(labels))
    shift = g % len(labels)
    order = labels[shift:] + labels[:shift]
    names = dict(zip(labels, bot_names, strict=True))
    # A bot's seed: with two roles by seat (as always); with more, by bot, so that identical
    # bots rotated over the seats of one setup still play different games.
    seats = {role: (lab, make(names[lab], gseed * 4 + i if len(labels) <= 2 else gseed * 16 + labels.index(lab)))
             for i, (role, lab) in enumerate(zip(roles, order, strict=True))}
    return play_game(rules, scenario, seats, gseed, options, max_actions)


def format_report(report: dict[str, Any]) -> str:
    opts = report.get("options") or {}
    lines = [f"{report['game']} {report['scenario']}"
             + (" (" + ", ".join(f"{k}={v}" for k, v in sorted(opts.items())) + ")" if opts else "")
             + f": {report['games']} games (seed {report['seed']}, seats rotated), mean length "
             f"{report['mean_length']:.1f} actions, {report['draws']} draws, {report['unfinished']} unfinished, "
             f"{report['seconds']:.0f} s"]

    for lab, b in report["bots"].items():
        lo, hi = b["ci95"]
        sides = ", ".join(f"{w}/{b['games_as'][r]} as {r}" for r, w in b["wins_as"].items())
        lines.append(f"  {lab:>16}: {b['wins']} wins, win rate {100 * b['win_rate']:.1f}% "
                     f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%; {sides}); "
                     f"{b['think_s_per_move']:.3f} s/move")
        c = b.get("think_s_per_choice")
        if c and c["n"]:
            lines.append(f"  {'':>16}  s per decision with a choice: median {c['median']:.3f}, "
                         f"p95 {c['p95']:.3f}, max {c['max']:.3f} ({c['n']} decisions)")
    if report.get("ended"):
        lines.append("  ended: " + ", ".join(f"{k} {v}" for k, v in report["ended"].items()))
    if report.get("rounds"):
        r = report["rounds"]
        lines.append(f"  rounds per game: mean {r['mean']:.1f}, median {r['median']:.0f}, max {r['max']:.0f}")
    return "\n".join(lines)
