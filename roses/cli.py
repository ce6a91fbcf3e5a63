"""The ``roses`` command: serve, play, fuzz, bench, replay, and what other packages add.

Packages that bring their own sub-commands (the server, the AI) expose
``register(subparsers, parser)`` in a module listed in ``EXTENSIONS``; a game names its own such module
in its rules (``Rules.cli_commands``). A missing optional module is simply skipped.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from roses._compiled import describe
from roses.engine.errors import RosesError
from roses.engine.fuzz import bench, fuzz
from roses.engine.game import Game
from roses.engine.registry import available_games, get_rules

#: Modules that add sub-commands, each with ``register(subparsers, parser) -> None``; the games' own
#: come after them (:func:`extensions`).
EXTENSIONS = ("roses.server.commands", "roses.ai.commands")

#: Handlers for ``roses bench TARGET`` when TARGET is not a game id (e.g. "server").
BENCH_TARGETS: dict[str, Any] = {}


def _add_option_args(p: argparse.ArgumentParser) -> None:
    """Game options (the rules' ``options_schema``) for play, fuzz and bench."""
    p.add_argument("--players", type=int, help="number of players (games with a variable count)")
    p.add_argument("--rules", help="rules level or variant (games that have one, e.g. basic, e1, e2)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other game option (VALUE read as JSON when it parses, else as text); repeatable")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RosesError(f"--option needs KEY=VALUE, not {item!r}")
        try:
            opts[key] = json.loads(value)
        except ValueError:
            opts[key] = value
    if getattr(args, "players", None) is not None:
        opts["players"] = args.players
    if getattr(args, "rules", None) is not None:
        opts["rules"] = args.rules
    return opts


def cmd_play(args: argparse.Namespace) -> int:
    # imported on use: keeps `roses` start-up fast
    from roses.ai.factory import make_bot
    from roses.terminal import play_terminal

    rules = get_rules(args.game)
    scenario = args.scenario or rules.scenarios[0]
    rules.check_scenario(scenario)
    options = _options(args)
    roles = rules.roles(scenario, options)
    bots = {}
    if args.vs and args.vs != "human":
        human = args.side or roles[0]
        if human not in roles:
            print(f"--side must be one of {', '.join(roles)}", file=sys.stderr)
            return 2
        for i, role in enumerate(r for r in roles if r != human):
            bots[role] = make_bot(args.vs, seed=args.seed + i)
    play_terminal(rules, scenario, args.seed, bots, save=Path(args.save) if args.save else None,
                  options=options)
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    rules = get_rules(args.game)
    scenarios = list(rules.scenarios) if args.scenario == "all" else [args.scenario or rules.scenarios[0]]
    totals: dict[str, Any] = {"games": 0, "actions": 0, "dead_ends": 0, "errors": 0,
                              "invariant_failures": 0, "ended_by_rule": 0, "results": {}, "milestones": {}}
    if args.reload_check:
        totals["divergences"] = 0
    details = []
    for scenario in scenarios:
        report = fuzz(
            rules, scenario, args.games, args.seed, _options(args),
            replay_every=args.replay_every, check_views_every=args.views_every,
            save_dir=Path(args.save_dir), reload_check=args.reload_check,
        )
        for key in totals:
            if key in ("results", "milestones"):
                for res, n in getattr(report, key).items():
                    totals[key][res] = totals[key].get(res, 0) + n
            else:
                totals[key] += getattr(report, key)
        details.append(report.summary())
        if not args.json:
            print(f"{rules.id} {scenario}: {report.games} games, {report.actions} actions, "
                  f"{report.dead_ends} dead ends, {report.errors} errors, "
                  f"{report.invariant_failures} invariant failures"
                  + (f" ({report.divergences} reload divergences)" if args.reload_check else "") + "; "
                  f"{report.ended_by_rule} ended by a rule {dict(sorted(report.results.items()))}"
                  + (f"; milestones {dict(sorted(report.milestones.items()))}" if report.milestones else ""))
            for f in report.failures[:10]:
                print(f"  {f.kind} in game {f.game_index} (seed {f.seed}) at step {f.step}: "
                      f"{f.message.splitlines()[0]}" + (f" [saved {f.file}]" if f.file else ""))
    if args.json:
        print(json.dumps({**totals, "scenarios": details}))
    bad = totals["dead_ends"] + totals["errors"] + totals["invariant_failures"]
    return 1 if bad else 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.target in BENCH_TARGETS:
        result = BENCH_TARGETS[args.target](args)
        return int(result or 0)
    rules = get_rules(args.target)
    scenario = args.scenario or rules.scenarios[0]
    out = bench(rules, scenario, args.seconds, args.seed, _options(args), views=args.views,
                fixed_games=args.fixed_games)
    if args.json:
        print(json.dumps(out))
    else:
        extra = (f"; every role's view rendered at every step, "
                 f"{out['actions_per_game']} actions per game" if args.views else "")
        print(f"{rules.id} {scenario}: {out['actions_per_s']:.0f} actions/s, "
              f"{out['games_per_s']:.1f} games/s ({out['actions']} actions, {out['games']} games "
              f"in {out['seconds']:.1f} s, one core{extra}); per CPU second: "
              f"{out['actions_per_cpu_s']:.0f} actions, {out['games_per_cpu_s']:.1f} games "
              f"({out['python']}, {out['python_executable']}; {describe(out)})")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = json.loads(Path(args.file).read_text())
    rules = get_rules(record["game"])
    if "chance" in record or "logs" in record:  # an audit record (GET /api/games/{id}/audit)
        from roses.engine.chance import audit_record

        audit = audit_record(rules, record)
        print(audit.summary())
        if not audit.ok:
            return 1
    game = Game.from_record(rules, record)
    role = args.role or "Observer"
    if args.log:
        for line in rules.log_for(game.state, role):
            print(line)
    print(f"{len(record['actions'])} actions replayed; result: {game.result()}; digest {game.digest()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="roses", description=__doc__.splitlines()[0] if __doc__ else "")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a game in the terminal (hot-seat or against a bot)")
    p.add_argument("game")
    p.add_argument("--scenario")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--vs", default="random", help="'human' for hot-seat, or a bot name (default: random)")
    p.add_argument("--side", help="the role you play against a bot (default: the first role)")
    p.add_argument("--save", help="write the game record to this file at the end")
    _add_option_args(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("fuzz", help="seeded random play with invariant checks")
    p.add_argument("game")
    p.add_argument("--scenario", help="a scenario id, or 'all'")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--replay-every", type=int, default=10, help="replay-check every Nth game (0: never)")
    p.add_argument("--views-every", type=int, default=1, help="check views every Nth step (0: never)")
    p.add_argument("--save-dir", default="fuzz-failures", help="where failing games are saved")
    p.add_argument("--reload-check", action="store_true",
                   help="also play a copy reloaded from its stored JSON (sorted keys) before every step; "
                        "it must stay byte-identical to the copy in memory (state and log)")
    _add_option_args(p)
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("bench", help="throughput benchmarks: a game id, or another target")
    p.add_argument("target")
    p.add_argument("--scenario")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--views", action="store_true",
                   help="render every role's view at every step and pick from the view's actions")
    p.add_argument("--fixed-games", type=int, metavar="N",
                   help="play N random games, however long they take, instead of --seconds (the same "
                        "work at every run: for bench/instructions.sh)")
    _add_option_args(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("replay", help="replay a saved game record and check it (an audit record from "
                                      "/api/games/{id}/audit: its seed, rolls and shuffles too)")
    p.add_argument("file")
    p.add_argument("--role", help="print the log as this role sees it")
    p.add_argument("--log", action="store_true", help="print the log")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("games", help="list the installed games and scenarios")
    p.set_defaults(func=lambda a: _list_games())

    for name in extensions():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.register(sub, parser)
    return parser


def extensions() -> list[str]:
    """The modules that add sub-commands: :data:`EXTENSIONS`, then each installed game's
    (its rules' ``cli_commands``), in the order of the games."""
    games = [get_rules(gid).cli_commands for gid in available_games()]
    return list(EXTENSIONS) + [m for m in games if m]


def _list_games() -> int:
    for gid in available_games():
        rules = get_rules(gid)
        print(f"{gid}: {rules.title}")
        for sid, name in rules.scenario_names().items():
            print(f"  {sid}: {name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except RosesError as exc:
        print(f"roses: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    # `python -m roses.cli`: this module runs as ``__main__``, while the extensions register
    # their bench targets with ``roses.cli``; run that module's main so they are found.
    from roses import cli as _cli

    sys.exit(_cli.main())
