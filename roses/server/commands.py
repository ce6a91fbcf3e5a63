"""``roses serve``, ``roses admin`` and ``roses bench server`` (registered into ``roses`` by roses.cli)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roses import cli

# The server's modules are imported inside the commands: every `roses` command loads this file.
if TYPE_CHECKING:
    from roses.server.service import GameService


def _friendly(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Print server errors (unknown game, bad record) as one line and exit with status 2."""

    def run(args: argparse.Namespace) -> int:
        # imported on use: keeps `roses` start-up fast
        from roses.server.errors import ServerError

        try:
            return fn(args)
        except ServerError as exc:
            print(f"roses: {exc.message}", file=sys.stderr)
            return 2

    return run


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="URL",
                   help="database URL (postgresql://... or sqlite:///path); default: $ROSES_DATABASE_URL, "
                        "else a SQLite file in the user data directory")


#: ``roses serve`` options that set environment variables (read by roses.server.notify).
SMTP_OPTIONS = {
    "smtp_host": "ROSES_SMTP_HOST", "smtp_port": "ROSES_SMTP_PORT", "smtp_from": "ROSES_SMTP_FROM",
    "smtp_user": "ROSES_SMTP_USER", "smtp_tls": "ROSES_SMTP_TLS", "base_url": "ROSES_BASE_URL",
}


def cmd_serve(args: argparse.Namespace) -> int:
    # imported on use: keeps `roses` start-up fast
    import uvicorn

    from roses.server import affinity
    from roses.server.db import Database, database_url_from_env

    for attr, var in SMTP_OPTIONS.items():
        value = getattr(args, attr, None)
        if value is not None:
            os.environ[var] = str(value)
    url = database_url_from_env(args.db)
    os.environ["ROSES_DATABASE_URL"] = url
    os.environ["ROSES_BOT_PROCESSES"] = str(args.bot_processes)
    database = Database(url)
    database.migrate()  # once, before any worker starts
    database.dispose()
    shown = url.split("@")[-1] if "@" in url else url
    print(f"roses: serving on http://{args.host}:{args.port} (database {shown})", file=sys.stderr)
    if args.workers > 1 and url.startswith("sqlite") and not affinity.available():
        print("roses: note: with several workers, live updates reach only sockets of the worker "
              "that made the change (in-process event bus)", file=sys.stderr)
    settings: dict[str, Any] = {
        "log_level": args.log_level, "proxy_headers": True,
        "ws_per_message_deflate": bool(getattr(args, "ws_deflate", False)),
        "forwarded_allow_ips": args.forwarded_allow_ips}
    if args.workers > 1 and affinity.available():
        # one dispatcher on the port, each game's connections in one worker (affinity.py)
        return affinity.serve(args.host, args.port, args.workers, settings)
    uvicorn.run("roses.app:app_from_env", factory=True, host=args.host, port=args.port,
                workers=args.workers, **settings)
    return 0


def _service(args: argparse.Namespace) -> GameService:
    # imported on use: keeps `roses` start-up fast
    from roses.server.db import Database, database_url_from_env
    from roses.server.service import GameService


    database = Database(database_url_from_env(args.db))
    database.migrate()
    return GameService(database)


def cmd_rebuild(args: argparse.Namespace) -> int:
    svc = _service(args)
    ids = svc.all_game_ids() if args.game == "all" else [int(args.game)]
    bad = 0
    for gid in ids:
        out = svc.rebuild(gid, fix=args.fix)
        bad += 0 if out["ok"] else 1
        if args.json:
            print(json.dumps(out))
        else:
            status = "ok" if out["ok"] else ("FIXED" if out.get("fixed") else "MISMATCH")
            print(f"game {gid}: {status}, {out['actions']} actions replayed"
                  + (f", bad snapshots {out['bad_snapshots']}" if out.get("bad_snapshots") else ""))
    return 1 if bad and not args.fix else 0


def cmd_export(args: argparse.Namespace) -> int:
    svc = _service(args)
    record = svc.admin_export(int(args.game))
    text = json.dumps(record, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n")
    else:
        print(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    svc = _service(args)
    record = json.loads(Path(args.file).read_text())
    gid = svc.import_record(record)
    print(f"imported as game {gid}")
    return 0


def cmd_seat(args: argparse.Namespace) -> int:
    svc = _service(args)
    svc.admin_seat(int(args.game), args.role, args.user, args.bot)
    who = args.user or (f"bot {args.bot}" if args.bot else "nobody")
    print(f"game {args.game}: {args.role} is played by {who}")
    return 0


def cmd_bench_server(args: argparse.Namespace) -> int:
    """``roses bench server`` (see roses.server.loadbench)."""
    # imported on use: keeps `roses` start-up fast
    from roses.server import loadbench

    return loadbench.cmd_bench_server(args)


def cmd_migrate(args: argparse.Namespace) -> int:
    # imported on use: keeps `roses` start-up fast
    from roses.server.db import Database, database_url_from_env

    database = Database(database_url_from_env(args.db))
    database.migrate()
    print("database schema is up to date")
    return 0


def cmd_create_user(args: argparse.Namespace) -> int:
    # imported on use: keeps `roses` start-up fast
    import getpass

    from roses.server import auth
    from roses.server.db import Database, database_url_from_env

    database = Database(database_url_from_env(args.db))
    database.migrate()
    password = args.password or getpass.getpass("password: ")
    with database.write() as conn:
        user = auth.create_user(conn, args.name, password, is_admin=args.admin)
    print(f"created user {user.name} (id {user.id}{', admin' if user.is_admin else ''})")
    return 0


def register(sub: argparse._SubParsersAction, parser: argparse.ArgumentParser) -> None:
    p = sub.add_parser("serve", help="run the game server (HTTP API, WebSockets)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log-level", default="info")
    p.add_argument("--bot-processes", type=int, default=1,
                   help="processes bots think in, per worker (0: in threads)")
    p.add_argument("--forwarded-allow-ips", default="127.0.0.1",
                   help="proxies trusted for X-Forwarded-* headers")
    p.add_argument("--ws-deflate", action="store_true",
                   help="compress WebSocket messages (permessage-deflate): less traffic, but each "
                        "view is compressed again for every socket, which costs CPU")
    _db_arg(p)
    g = p.add_argument_group("notifications (also from ROSES_SMTP_* variables; the password "
                             "only from ROSES_SMTP_PASSWORD)")
    g.add_argument("--smtp-host", help="SMTP server for e-mail notifications (none: no e-mail)")
    g.add_argument("--smtp-port", type=int)
    g.add_argument("--smtp-from", help="sender address")
    g.add_argument("--smtp-user")
    g.add_argument("--smtp-tls", choices=["none", "starttls", "ssl", "auto"])
    g.add_argument("--base-url", help="public address of the server, for links in notifications")
    p.set_defaults(func=cmd_serve)

    admin = sub.add_parser("admin", help="server administration: rebuild, export, import games")
    asub = admin.add_subparsers(dest="admin_command", required=True)
    p = asub.add_parser("rebuild", help="replay a game's action log and check the stored state")
    p.add_argument("game", help="game number, or 'all'")
    p.add_argument("--fix", action="store_true", help="rewrite the stored state and snapshots from the log")
    p.add_argument("--json", action="store_true")
    _db_arg(p)
    p.set_defaults(func=_friendly(cmd_rebuild))
    p = asub.add_parser("export", help="write a game (running or finished) as JSON")
    p.add_argument("game", help="game number")
    p.add_argument("-o", "--output", help="file (default: standard output)")
    _db_arg(p)
    p.set_defaults(func=_friendly(cmd_export))
    p = asub.add_parser("import", help="store a game exported by `roses admin export` as a new game")
    p.add_argument("file")
    _db_arg(p)
    p.set_defaults(func=_friendly(cmd_import))
    p = asub.add_parser("seat", help="give a game's seat to a user or a bot (e.g. after import)")
    p.add_argument("game", help="game number")
    p.add_argument("role")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--user", help="user name")
    who.add_argument("--bot", help="bot name, e.g. random or easy")
    who.add_argument("--free", action="store_true", help="leave the seat empty")
    _db_arg(p)
    p.set_defaults(func=_friendly(cmd_seat))
    p = asub.add_parser("migrate", help="create or upgrade the database schema")
    _db_arg(p)
    p.set_defaults(func=cmd_migrate)
    p = asub.add_parser("create-user", help="create an account (e.g. an admin)")
    p.add_argument("name")
    p.add_argument("--password", help="(default: asked)")
    p.add_argument("--admin", action="store_true")
    _db_arg(p)
    p.set_defaults(func=_friendly(cmd_create_user))

    _register_bench(sub)


def _register_bench(sub: argparse._SubParsersAction) -> None:
    """Add the ``roses bench server`` options and handler."""
    bench = sub.choices.get("bench")
    if bench is None:
        return
    g = bench.add_argument_group("roses bench server")
    g.add_argument("--games", type=int, default=200, help="games played at once (server bench)")
    g.add_argument("--db", help="database URL (server bench; default: a temporary SQLite file)")
    g.add_argument("--game", help="game to play (server bench; default: the first installed game)")
    g.add_argument("--moves", type=int, default=10, help="actions per game at most (server bench)")
    g.add_argument("--think", type=float, default=10.0,
                   help="mean think time of a bot before each action, seconds (server bench)")
    g.add_argument("--max-seconds", type=float, default=300.0, help="stop playing after this (server bench)")
    g.add_argument("--workers", type=int, default=1,
                   help="server processes behind the one port (server bench; several need PostgreSQL "
                        "for live updates between them)")
    g.add_argument("--balancer", type=int, default=0, metavar="N",
                   help="run N servers behind HAProxy and play through it (server bench; PostgreSQL "
                        "only; deploy/haproxy.cfg)")
    g.add_argument("--http-actions", action="store_true",
                   help="send the actions as HTTP requests instead of over the game's socket (server bench)")
    g.add_argument("--no-pin", action="store_true",
                   help="let the server and the bench client run on any core (server bench; by default "
                        "one server process gets a core of its own and the client the others)")
    cli.BENCH_TARGETS["server"] = cmd_bench_server
