"""``roses arena`` and ``roses bench GAME --ai``: the AI's sub-commands (loaded by roses.cli)."""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from roses._compiled import compiled_summary, describe
from roses.ai.arena import arena, format_report
from roses.ai.bot import Determinizer, supports_determinize
from roses.ai.factory import make_bot
from roses.ai.ismcts import ISMCTSBot
from roses.ai.sim import acting
from roses.engine.contract import Rules
from roses.engine.errors import UnknownGame
from roses.engine.fuzz import game_seed
from roses.engine.registry import get_rules


def load_rules(game: str) -> Rules:
    """A game id (``richard3``) or ``package.module:ATTR`` naming a Rules object."""
    if ":" not in game:
        return get_rules(game)
    module_name, _, attr = game.partition(":")
    try:
        rules = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(f"Cannot load rules {game!r}: {exc}") from exc
    if not isinstance(rules, Rules):
        raise UnknownGame(f"{game!r} is not a Rules object")
    return rules


def arena_options(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """The game options of ``roses arena``: ``--option K=V`` (repeatable), ``--players N`` and
    ``--rules R`` (the options ``players`` and ``rules``), typed by the game's options schema."""
    schema = rules.options_schema()
    raw: list[tuple[str, str]] = []
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: use KEY=VALUE")
        raw.append((key.strip(), value.strip()))
    if args.players is not None:
        raw.append(("players", str(args.players)))
    if args.rules is not None:
        raw.append(("rules", args.rules))
    out: dict[str, Any] = {}
    for key, value in raw:
        spec = schema.get(key)
        if spec is None:
            known = ", ".join(sorted(schema)) or "none"
            raise ValueError(f"{rules.title} has no option {key!r} (its options: {known})")
        kind = spec.get("type")
        if kind == "int":
            try:
                out[key] = int(value)
            except ValueError:
                raise ValueError(f"option {key!r} must be a whole number, not {value!r}") from None
        elif kind == "bool":
            if value.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(f"option {key!r} must be true or false, not {value!r}")
            out[key] = value.lower() in ("1", "true", "yes", "on")
        elif kind == "object":
            out[key] = json.loads(value)
        else:
            out[key] = value
    return out


def bot_list(text: str) -> list[str]:
    """``--bots``: names separated by commas; ``NAME*K`` stands for K seats of NAME."""
    out: list[str] = []
    for item in (n.strip() for n in text.split(",")):
        if not item:
            continue
        name, star, count = item.rpartition("*")
        if star and count.strip().isdigit() and name.strip():
            out += [name.strip()] * int(count)
        else:
            out.append(item)
    return out


def cmd_arena(args: argparse.Namespace) -> int:
    rules = load_rules(args.game)
    scenario = args.scenario or rules.scenarios[0]
    names = bot_list(args.bots)
    try:
        options = arena_options(rules, args)
        for name in names:
            make_bot(name)  # fail early on a bad name
        rules.check_scenario(scenario)
        roles = rules.roles(scenario, options)
    except Exception as exc:  # noqa: BLE001 - bad options or names: a message, not a traceback
        print(f"roses arena: error: {exc}", file=sys.stderr)
        return 2
    if len(names) != len(roles):
        print(f"roses arena: error: {rules.title} needs {len(roles)} bots, one per role ({', '.join(roles)}); "
              f"--bots gave {len(names)}", file=sys.stderr)
        return 2
    progress = None
    if args.progress:
        def progress(g: int, out: Any) -> None:
            how = f" ({', '.join(out.ended)})" if out.ended else ""
            rounds = f", round {out.rounds}" if out.rounds is not None else ""
            print(f"game {g + 1}/{args.games}: {out.seats} -> {out.result}{how} in {out.length} actions{rounds} "
                  f"({out.seconds:.1f} s)", file=sys.stderr, flush=True)
    report = arena(rules, scenario, names, args.games, args.seed, options=options or None,
                   max_actions=args.max_actions, progress=progress, jobs=args.jobs,
                   cluster=getattr(args, "cluster", None))
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def bench_ai(rules: Rules, scenario: str, seconds: float, seed: int, budget: str = "0.5",
             max_positions: int = 1000) -> dict[str, Any]:
    """ISMCTS speed on positions from random play: iterations per second, think time per move."""
    rules.check_scenario(scenario)
    if not supports_determinize(rules):
        raise UnknownGame(f"{rules.title} has no determinisation: no AI benchmark")
    bot = make_bot(f"ismcts:{budget}", seed)
    assert isinstance(bot, ISMCTSBot)
    heur = make_bot("heuristic", seed)
    picker = random.Random(seed)
    times: list[float] = []
    cpu = 0.0  # the process's CPU seconds in the ISMCTS decisions (the wall-clock figure moves with the load)
    heur_times: list[float] = []
    iterations = 0
    start = time.perf_counter()
    index = 0
    while time.perf_counter() - start < seconds and len(times) < max_positions:
        state = rules.setup(game_seed(seed, index), scenario)
        index += 1
        while time.perf_counter() - start < seconds:
            turn = acting(rules, state)
            if turn is None:
                break
            role, legal = turn
            if len(legal) > 1 and picker.random() < 0.25:
                view = rules.view(state, role)
                det = Determinizer.bind(rules, state, role)
                t0, c0 = time.perf_counter(), time.process_time()
                decision = bot.decide(rules, view, role, det)
                times.append(time.perf_counter() - t0)
                cpu += time.process_time() - c0
                iterations += int(decision.stats.get("iterations", 0))
                t0 = time.perf_counter()
                heur.decide(rules, view, role, det)
                heur_times.append(time.perf_counter() - t0)
            verb, arg = legal[picker.randrange(len(legal))]
            state = rules.action(state, role, verb, arg)
    think = sum(times)
    return {
        "game": rules.id,
        "scenario": scenario,
        "bot": bot.name,
        "positions": len(times),
        "iterations": iterations,
        "iterations_per_s": round(iterations / think, 1) if think else 0.0,
        "iterations_per_cpu_s": round(iterations / cpu, 1) if cpu else 0.0,
        "think_s_per_move_mean": round(think / len(times), 4) if times else 0.0,
        "think_s_per_move_max": round(max(times), 4) if times else 0.0,
        "heuristic_s_per_move_mean": round(sum(heur_times) / len(heur_times), 4) if heur_times else 0.0,
        **compiled_summary(),
    }


def register(sub: argparse._SubParsersAction, parser: argparse.ArgumentParser) -> None:
    p = sub.add_parser("arena", help="bots against each other, seats rotated: win rates with 95%% CIs")
    p.add_argument("game", help="a game id, or package.module:ATTR naming a Rules object")
    p.add_argument("--scenario")
    p.add_argument("--bots", required=True,
                   help="one bot per role, e.g. ismcts:0.5,random or heuristic,random*3 (NAME, NAME:SECONDS "
                        "or NAME:iITERATIONS; levels easy, medium, hard; NAME*K for K seats)")
    p.add_argument("--players", type=int, help="the game's option 'players' (e.g. Kingmaker: 2 to 8)")
    p.add_argument("--rules", help="the game's option 'rules' (e.g. Kingmaker: basic, e1, e2)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a game option (repeatable), e.g. --option rounds=30")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-actions", type=int, default=20_000, help="count a longer game as unfinished")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="one line per game on stderr")
    p.add_argument("--jobs", type=int, default=1,
                   help="games played at once in separate processes (one per free core)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games as tasks on Ray (auto, ray://HOST:10001, or local; "
                        "needs the cluster extra)")
    p.set_defaults(func=cmd_arena)

    bench = sub.choices.get("bench")
    if bench is not None:
        bench.add_argument("--ai", action="store_true",
                           help="benchmark the ISMCTS bot (iterations/s, think time per move)")
        bench.add_argument("--budget", default="0.5",
                           help="with --ai: ISMCTS budget per move, seconds or iN (default 0.5)")
        plain: Callable[[argparse.Namespace], Any] | None = bench.get_default("func")

        def cmd_bench(args: argparse.Namespace) -> int:
            if not args.ai:
                assert plain is not None
                return int(plain(args) or 0)
            rules = load_rules(args.target)
            scenario = args.scenario or rules.scenarios[0]
            out = bench_ai(rules, scenario, args.seconds, args.seed, args.budget)
            if args.json:
                print(json.dumps(out))
            else:
                print(f"{rules.id} {scenario} {out['bot']}: {out['iterations_per_s']:.0f} iterations/s, "
                      f"think {out['think_s_per_move_mean']:.3f} s/move (max {out['think_s_per_move_max']:.3f}) "
                      f"over {out['positions']} positions; heuristic bot "
                      f"{out['heuristic_s_per_move_mean']:.4f} s/move (one core; {describe(out)})")
            return 0

        bench.set_defaults(func=cmd_bench)
