"""``roses bench server``: a load benchmark of the game server with bot-driven players.

It starts ``roses serve`` as a subprocess on a free loopback port (a temporary SQLite database
unless ``--db``), creates users with API tokens directly in the database (set-up, not measured),
creates ``--games`` games over HTTP (every seat a player; ``options`` such as ``{"players": 8}``)
and drives them concurrently: every player holds a WebSocket on its game and seat; when the
view pushed to it lets it act, it waits a random think time and plays a random legal action
with the version it saw, as an ``act`` message on that socket with an idempotency key (answered
there by a ``result``), or with ``ws_actions=False`` as ``POST /api/games/{id}/action``. The
latency of each accepted action (request sent to answer read) is recorded.

Every loop is bounded: a game stops at its end, after ``--moves`` actions, or at ``--seconds``.
Afterwards the action log in the database is compared with what the players saw accepted:
``lost`` counts accepted actions missing from (or different in) the log, ``duplicated`` counts
log entries of those games that no player saw accepted, or that two acceptances claim.

The same pieces (:class:`ServerProcess`, :func:`make_players`, :class:`Player`) serve the
crash test (tests/server/test_crash.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa

from roses.engine import available_games, get_rules
from roses.server import auth, db
from roses.server.db import Database
from roses.server.gcpolicy import NEVER


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pick_game(name: str | None) -> str:
    """``name``, else the first installed game (the registry's order)."""
    games = available_games()
    if name:
        get_rules(name)
        return name
    if not games:
        raise SystemExit("no game is installed")
    return games[0]


class ServerProcess:
    """``roses serve`` in a subprocess on a loopback port (start, wait until healthy, stop/kill)."""

    def __init__(self, db_url: str, port: int | None = None, *, log_path: Path | None = None,
                 env: dict[str, str] | None = None, log_level: str = "warning", workers: int = 1,
                 cpus: set[int] | None = None) -> None:
        self.db_url = db_url
        #: The CPUs the server's processes may run on (Linux affinity; None: any).
        self.cpus = cpus
        self.workers = workers
        self.port = port or free_port()
        self.log_path = log_path
        self.env = dict(env or {})
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: Any = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        import httpx  # imported on use: keeps `roses` start-up fast

        env = {**os.environ, **self.env}
        env.pop("ROSES_DATABASE_URL", None)
        cmd = [sys.executable, "-m", "roses.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db_url, "--log-level", self.log_level]
        if self.workers > 1:
            cmd += ["--workers", str(self.workers)]
        self._log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        cpus = self.cpus
        # set in the child before it runs Python: every thread and worker it starts inherits it
        pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
        self.proc = subprocess.Popen(cmd, env=env, stdout=self._log, stderr=self._log,
                                     start_new_session=True, preexec_fn=pin)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}"
                                   + (f" (log: {self.log_path})" if self.log_path else ""))
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s")

    def rss_bytes(self) -> int:
        """Resident memory of the server and its worker processes (Linux /proc), 0 if unknown."""
        if self.proc is None:
            return 0
        return sum(_rss(pid) for pid in _tree(self.proc.pid))

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server and its worker processes used so far."""
        if self.proc is None:
            return 0.0
        return sum(_cpu(pid) for pid in _tree(self.proc.pid))

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (for the crash test)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._close_log()

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._close_log()

    def _close_log(self) -> None:
        if self._log not in (None, subprocess.DEVNULL):
            with contextlib.suppress(Exception):
                self._log.close()
        self._log = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _processes() -> Iterator[tuple[int, str]]:
    """(pid, the text of /proc/PID/stat) of every process of the machine (Linux)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / "stat").read_text()
        except OSError:
            continue


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for pid, stat in _processes():
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def split_cpus(workers: int) -> tuple[set[int], set[int]] | None:
    """(the server's CPUs, the bench client's CPUs) when the bench pins them apart: one
    server process on a core of its own and the client on the others, so that neither takes
    the other's core (on a 2-core machine, a server thread woken on the client's core, or
    the client woken on the server's, stalls the server while it holds the interpreter).
    None where that cannot be done: several server processes (they share the machine),
    fewer than 2 CPUs, or no affinity call (not Linux)."""
    if workers != 1 or not hasattr(os, "sched_getaffinity"):
        return None
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < 2:
        return None
    return {mine[0]}, set(mine[1:])


def _machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all the machine's cores so far (Linux /proc/stat), or
    (0, 0) where unknown."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    total = sum(fields[:8])  # guest time is already counted in user time
    return total - idle, total


def _database_cpu() -> float:
    """CPU time so far of this machine's PostgreSQL server processes (by their command
    name), 0 if there are none: the database's share of the load when it runs locally."""
    return sum(_cpu(pid) for pid, stat in _processes()
               if stat.split("(", 1)[1].split(")", 1)[0] in ("postgres", "postmaster"))


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def make_players(database: Database, count: int, prefix: str | None = None) -> list[tuple[str, str]]:
    """``count`` users with API tokens, made directly in the database: [(name, token)]."""
    prefix = prefix or f"b{secrets.token_hex(3)}"
    out = []
    now = time.time()
    with database.write() as conn:
        for i in range(count):
            name = f"{prefix}_{i}"
            uid = conn.execute(db.users.insert().values(
                name=name, name_key=name.lower(), password_hash="!", email=None, is_admin=False,
                notify=False, created_at=now).returning(db.users.c.id)).scalar_one()
            _, token = auth.create_token(conn, auth.User(int(uid), name), "bench")
            out.append((name, token))
    return out


def choices(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """Legal (verb, arg) pairs listed in a view, without undo."""
    out = []
    for verb, args in (view.get("actions") or {}).items():
        if verb == "undo":
            continue
        if args is True or args is None:
            out.append((verb, None))
        elif isinstance(args, list):
            out.extend((verb, a) for a in args)
    return out


@dataclass
class Accepted:
    game_id: int
    seq: int
    role: str
    verb: str
    arg: Any


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    #: When each action of ``latencies`` was sent (``time.monotonic()``), in the same order.
    sent: list[float] = field(default_factory=list)
    #: When play started, and when each player's socket brought its first view.
    started: float = 0.0
    first_views: list[float] = field(default_factory=list)
    accepted: list[Accepted] = field(default_factory=list)
    conflicts: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    ws_states: int = 0


class GameRun:
    """What the players of one game share: the number of actions made and a stop flag."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.actions = 0
        self.stopped = False
        self.players: list[Player] = []

    def stop(self) -> None:
        self.stopped = True
        for p in self.players:
            p._changed.set()

    def count(self) -> None:
        self.actions += 1
        if self.actions >= self.limit:
            self.stop()


class Player:
    """One seat of one game, played by a random bot over HTTP (actions) and WebSocket (views)."""

    def __init__(self, base: str, token: str, game_id: int, role: str, stats: Stats, *,
                 rng: random.Random, think: float = 0.0, moves: int = 100,
                 deadline: float = float("inf"), use_ws: bool = True, run: GameRun | None = None,
                 ws_actions: bool = False) -> None:
        self.base = base
        self.ws_base = "ws" + base[len("http"):]
        self.headers = {"Authorization": f"Bearer {token}"}
        self.game_id = game_id
        self.role = role
        self.stats = stats
        self.rng = rng
        self.think = think
        self.moves = moves
        self.deadline = deadline
        self.use_ws = use_ws
        #: Actions over the open socket (``act`` messages) instead of HTTP requests.
        self.ws_actions = ws_actions and use_ws
        self._socket: Any = None
        self._socket_ready = asyncio.Event()
        #: The socket request waiting for its answer: (id, future of the answer message).
        self._waiting: tuple[int, asyncio.Future[dict[str, Any]]] | None = None
        self._next_id = 0
        #: Version of the last action this player saw accepted (0: none).
        self.last_accepted = 0
        #: The request in flight (seq it would get, verb, arg), for the crash test.
        self.pending: Accepted | None = None
        self.made = 0
        self.done = False
        self._latest: dict[str, Any] | None = None
        self._changed = asyncio.Event()
        #: Shared with the other players of the game (``moves`` is then per game).
        self.run = run or GameRun(moves)
        self.run.players.append(self)

    def _offer(self, state: dict[str, Any]) -> None:
        if state.get("game_id") not in (None, self.game_id):
            return
        if self._latest is None or state.get("version", -1) >= self._latest.get("version", -1):
            self._latest = state
            self._changed.set()

    async def _read_ws(self) -> None:
        import websockets  # imported on use: keeps `roses` start-up fast

        url = f"{self.ws_base}/api/games/{self.game_id}/ws?role={self.role}"
        # No keep-alive pings and no compression: a thousand sockets in one client process
        # must not time out on pings the busy client could not answer in time.
        async with websockets.connect(url, additional_headers=self.headers, max_size=2**24,
                                      open_timeout=120, ping_interval=None, compression=None) as ws:
            self._socket = ws
            self._socket_ready.set()
            try:
                async for raw in ws:
                    msg = orjson.loads(raw)
                    kind = msg.get("type")
                    if kind == "state":
                        if self._latest is None:
                            self.stats.first_views.append(time.monotonic())
                        self.stats.ws_states += 1
                        self._offer(msg)
                    elif kind in ("result", "error") and self._waiting is not None \
                            and msg.get("id") == self._waiting[0]:
                        future = self._waiting[1]
                        if not future.done():
                            future.set_result(msg)
            finally:
                self._socket = None
                if self._waiting is not None and not self._waiting[1].done():
                    self._waiting[1].set_exception(ConnectionError("the socket closed"))

    async def _poll(self, client: Any) -> None:
        res = await client.get(f"{self.base}/api/games/{self.game_id}/view", params={"role": self.role},
                               headers=self.headers)
        if res.status_code == 200:
            self._offer(res.json())

    async def play(self, client: Any) -> None:
        """Play until the game ends, ``moves`` actions are made or the deadline; a network
        error (the server died) stops the player and leaves ``pending`` as it was."""
        import httpx  # imported on use: keeps `roses` start-up fast

        reader = asyncio.create_task(self._read_ws()) if self.use_ws else None
        try:
            await self._play(client, reader)
        except httpx.TransportError as exc:
            self.stats.errors.append(f"game {self.game_id} {self.role}: {type(exc).__name__}")
        finally:
            self.done = True
            self.run.stop()
            if reader is not None:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader

    async def _play(self, client: Any, reader: asyncio.Task[None] | None) -> None:
        if not self.use_ws:
            await self._poll(client)
        while not self.run.stopped and time.monotonic() < self.deadline:
            if reader is not None and reader.done():
                exc = reader.exception()
                self.stats.errors.append(f"websocket of game {self.game_id}: {exc!r}")
                reader = None
                self.use_ws = self.ws_actions = False
            state = self._latest
            if state is not None and state.get("status") != "active" and state.get("view") is not None:
                break
            options = choices((state or {}).get("view") or {}) if state else []
            if state is None or self.role not in state.get("active", []) or not options:
                self._changed.clear()
                wait = 30.0 if self.use_ws else 0.05  # with a socket, polling is only a safety net
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout=wait)
                if self.run.stopped:
                    break
                if not self.use_ws or (self._latest is state and time.monotonic() < self.deadline):
                    # No push within the wait (or no socket): ask.
                    await self._poll(client)
                continue
            if self.think:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            if self._latest is not state or self.run.stopped:
                continue  # something changed while thinking: look again
            verb, arg = self.rng.choice(options)
            version = int(state["version"])
            if self.ws_actions:
                await self._act_ws(verb, arg, version)
                continue
            self.pending = Accepted(self.game_id, version + 1, self.role, verb, arg)
            t0 = time.perf_counter()
            sent = time.monotonic()
            res = await client.post(f"{self.base}/api/games/{self.game_id}/action", headers=self.headers,
                                    json={"role": self.role, "verb": verb, "arg": arg, "version": version})
            took = time.perf_counter() - t0
            self.pending = None
            if res.status_code == 200:
                self.stats.latencies.append(took)
                self.stats.sent.append(sent)
                self.stats.accepted.append(Accepted(self.game_id, version + 1, self.role, verb, arg))
                self.last_accepted = version + 1
                self.made += 1
                self.run.count()
                self._offer(res.json())
            elif res.status_code == 409:
                self.stats.conflicts += 1
                await self._poll(client)
            else:
                self.stats.refused += 1
                self.stats.errors.append(f"game {self.game_id} {self.role} {verb} {arg!r}: "
                                         f"{res.status_code} {res.text[:200]}")
                await self._poll(client)


    async def _act_ws(self, verb: str, arg: Any, version: int) -> None:
        """One action over the socket (``act`` with an idempotency key), its answer awaited."""
        if self._socket is None:
            await asyncio.wait_for(self._socket_ready.wait(), 120)
        ws = self._socket
        if ws is None:
            raise ConnectionError("the socket closed")
        self._next_id += 1
        rid = self._next_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting = (rid, future)
        key = f"{self.role}-{self.game_id}-{version}-{rid}"
        t0 = time.perf_counter()
        sent = time.monotonic()
        await ws.send(orjson.dumps({"type": "act", "id": rid, "key": key, "verb": verb, "arg": arg,
                                    "version": version}).decode("utf-8"))
        try:
            msg = await asyncio.wait_for(future, 120)
        finally:
            self._waiting = None
        took = time.perf_counter() - t0
        if msg.get("type") == "result":
            seq = int(msg["seq"])
            if msg.get("duplicate"):
                self.stats.errors.append(f"game {self.game_id} {self.role}: key {key} answered as a duplicate")
                return
            self.stats.latencies.append(took)
            self.stats.sent.append(sent)
            self.stats.accepted.append(Accepted(self.game_id, seq, self.role, verb, arg))
            self.last_accepted = seq
            self.made += 1
            self.run.count()
            self._offer(msg)
        elif msg.get("status") == 409:
            # Another seat acted first on this version (both were active, e.g. Richard III's
            # simultaneous card play): the push of the newer version is on its way.
            self.stats.conflicts += 1
            latest = self._latest
            if latest is not None and int(latest.get("version", -1)) <= version:
                self._changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout=30)
        else:
            self.stats.refused += 1
            self.stats.errors.append(f"game {self.game_id} {self.role} {verb} {arg!r}: "
                                     f"{msg.get('status')} {msg.get('detail')!s:.200}")
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=30)


async def create_games(client: Any, base: str, game: str, scenario: str | None,
                       tokens: Sequence[tuple[str, str]], count: int,
                       concurrency: int = 8, options: dict[str, Any] | None = None) -> list[tuple[int, dict[str, str]]]:
    """``count`` started games, every seat a player: [(game id, {role: token})]."""
    rules = get_rules(game)
    scenario = scenario or rules.scenarios[0]
    options = dict(options or {})
    roles = list(rules.roles(scenario, options))
    per = len(roles)
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> tuple[int, dict[str, str]]:
        seat = {r: tokens[i * per + k][1] for k, r in enumerate(roles)}
        async with sem:
            res = await client.post(f"{base}/api/games", headers={"Authorization": f"Bearer {seat[roles[0]]}"},
                                    json={"game": game, "scenario": scenario, "role": roles[0],
                                          "options": options, "title": f"bench {i}",
                                          "preview": rules.preview})
            res.raise_for_status()
            gid = int(res.json()["id"])
            for r in roles[1:]:
                j = await client.post(f"{base}/api/games/{gid}/join", json={"role": r},
                                      headers={"Authorization": f"Bearer {seat[r]}"})
                j.raise_for_status()
        return gid, seat

    return list(await asyncio.gather(*(one(i) for i in range(count))))


@contextlib.contextmanager
def quiet_collector() -> Iterator[None]:
    """The bench client's garbage collector kept out of the measures while the games are
    played: what set-up made is frozen (``gc.freeze``) and only the youngest generation is
    collected, as the server does (roses.server.gcpolicy). The client holds every player's
    latest view (a thousand with 500 games): a collection of its oldest generation took up
    to a third of a second, and every action then on its way counted that pause as the
    server's latency (bench/server.md). Thresholds and frozen objects are handed back afterwards."""
    saved = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(saved[0], NEVER, NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()


def check_log(database: Database, accepted: Sequence[Accepted], game_ids: Sequence[int]) -> tuple[int, int]:
    """(lost, duplicated): the players' accepted actions against the stored action log."""
    by_key: dict[tuple[int, int], list[Accepted]] = {}
    for a in accepted:
        by_key.setdefault((a.game_id, a.seq), []).append(a)
    with database.read() as conn:
        rows = conn.execute(sa.select(db.actions.c.game_id, db.actions.c.seq, db.actions.c.role,
                                      db.actions.c.verb, db.actions.c.arg)
                            .where(db.actions.c.game_id.in_(list(game_ids)))).all()
    log = {(int(r.game_id), int(r.seq)): r for r in rows}
    lost = 0
    duplicated = 0
    for key, items in by_key.items():
        duplicated += len(items) - 1
        a = items[0]
        r = log.get(key)
        if r is None or r.role != a.role or r.verb != a.verb or json.loads(r.arg) != a.arg:
            lost += 1
    for key, r in log.items():
        if key not in by_key and not str(r.verb).startswith("."):
            duplicated += 1
    return lost, duplicated


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[k]


async def drive(base: str, games: list[tuple[int, dict[str, str]]], *, seed: int, think: float,
                moves: int, seconds: float, use_ws: bool = True,
                ws_actions: bool = True) -> tuple[Stats, list[Player], float]:
    import httpx  # imported on use: keeps `roses` start-up fast

    stats = Stats()
    master = random.Random(seed)
    deadline = time.monotonic() + seconds
    players = []
    for gid, seat in games:
        run = GameRun(moves)
        players += [Player(base, token, gid, role, stats, rng=random.Random(master.random()), think=think,
                           moves=moves, deadline=deadline, use_ws=use_ws, run=run, ws_actions=ws_actions)
                    for role, token in seat.items()]
    # Idle connections are dropped before the server's keep-alive timeout (uvicorn: 5 s) could
    # close one just as a request goes out on it.
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200, keepalive_expiry=2.0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        t0 = time.perf_counter()
        stats.started = time.monotonic()
        await asyncio.gather(*(p.play(client) for p in players))
        took = time.perf_counter() - t0
    return stats, players, took


def run(games: int = 200, *, db_url: str | None = None, game: str | None = None,
        scenario: str | None = None, moves: int = 10, think: float = 10.0, seconds: float = 300.0,
        seed: int = 1, log_path: Path | None = None, use_ws: bool = True,
        workers: int = 1, server_env: dict[str, str] | None = None, options: dict[str, Any] | None = None,
        ws_actions: bool = True, pin: bool = True, balancer: int = 0) -> dict[str, Any]:
    """Run the benchmark; returns the figures (see module doc). ``server_env`` is added to the
    server's environment (e.g. ``PYTHONPATH`` of another checkout, to compare two versions
    of the server with the same client); ``options`` are the games' options (e.g.
    ``{"players": 8}``); ``ws_actions`` False sends the actions as HTTP requests; ``pin``
    puts one server process and the client on different cores (:func:`split_cpus`);
    ``balancer`` N > 0 runs N servers behind HAProxy (:mod:`roses.server.cluster`; PostgreSQL
    only) and plays through it."""
    game = pick_game(game)
    if balancer > 0 and not (db_url or "").startswith("postgresql"):
        raise SystemExit("--balancer needs a PostgreSQL database (--db postgresql://...)")
    tmp = tempfile.TemporaryDirectory(prefix="roses-bench-")
    try:
        url = db_url or f"sqlite:///{tmp.name}/bench.db"
        rules = get_rules(game)
        options = dict(options or {})
        per = len(rules.roles(scenario or rules.scenarios[0], options))
        env = dict(server_env or {})
        processes = workers * max(1, balancer)
        if processes > 1:
            # Several processes share the database's connections (PostgreSQL: 100 by default).
            for var, total in (("ROSES_DB_POOL_SIZE", 60), ("ROSES_DB_MAX_OVERFLOW", 20)):
                if var not in env and var not in os.environ:
                    env[var] = str(max(2, total // processes))
        split = split_cpus(processes) if pin else None
        server: Any
        if balancer > 0:
            from roses.server.cluster import Cluster

            server = Cluster(url, balancer, workdir=Path(tmp.name), env=env)
        else:
            server = ServerProcess(url, log_path=log_path or Path(tmp.name) / "server.log", workers=workers,
                                   env=env, cpus=None if split is None else split[0])
        client_cpus = os.sched_getaffinity(0) if split is not None else None
        rss_after = 0
        #: (server CPU, client CPU, database CPU, machine busy ticks, machine ticks) at the
        #: start and at the end of play
        marks: list[tuple[float, float, float, int, int]] = []

        def mark() -> None:
            marks.append((server.cpu_seconds(), time.process_time(), _database_cpu(), *_machine_ticks()))

        try:
            if split is not None:
                os.sched_setaffinity(0, split[1])
            server.start()  # `roses serve` migrates the database before it listens
            database = Database(url)
            rss_idle = server.rss_bytes()
            tokens = make_players(database, games * per)

            async def main() -> tuple[list[tuple[int, dict[str, str]]], Stats, float]:
                import httpx  # imported on use: keeps `roses` start-up fast

                async with httpx.AsyncClient(timeout=60) as client:
                    made = await create_games(client, server.base, game, scenario, tokens, games,
                                              options=options)
                with quiet_collector():
                    mark()
                    stats, _players, took = await drive(server.base, made, seed=seed, think=think, moves=moves,
                                                        seconds=seconds, use_ws=use_ws, ws_actions=ws_actions)
                    mark()
                nonlocal rss_after
                rss_after = server.rss_bytes()  # every game played is still held in memory
                return made, stats, took

            made, stats, took = asyncio.run(main())
        finally:
            server.stop()
            if client_cpus is not None:
                os.sched_setaffinity(0, client_cpus)
        start, end = marks
        server_cpu, client_cpu, database_cpu, busy, ticks = (b - a for a, b in zip(start, end, strict=True))
        lost, duplicated = check_log(database, stats.accepted, [g for g, _ in made])
        database.dispose()
        lat = [x * 1000 for x in stats.latencies]
        opened, later = after_open(stats, sum(len(seat) for _, seat in made) if use_ws else 0)
        return {
            "games": games, "game": game, "options": options, "players_per_game": per,
            "transport": "websocket" if ws_actions and use_ws else "http", "database": database.dialect,
            "actions": len(stats.accepted),
            "seconds": round(took, 3),
            "actions_per_s": round(len(stats.accepted) / took, 1) if took else 0.0,
            "p50_ms": round(percentile(lat, 50), 2), "p95_ms": round(percentile(lat, 95), 2),
            "p99_ms": round(percentile(lat, 99), 2), "max_ms": round(max(lat, default=0.0), 2),
            # Split at the moment every socket had brought its first view: the sockets all
            # open at once at the start (as after a restart), and the actions sent while they
            # open wait behind the openings.
            "sockets_open_s": None if opened is None else round(opened, 3),
            "after_open_actions": len(later),
            "after_open_p50_ms": round(percentile(later, 50), 2),
            "after_open_p95_ms": round(percentile(later, 95), 2),
            "after_open_p99_ms": round(percentile(later, 99), 2),
            "lost": lost, "duplicated": duplicated, "conflicts": stats.conflicts,
            "refused": stats.refused, "ws_states": stats.ws_states,
            "errors": stats.errors[:10], "think_s": think, "moves_per_game": moves,
            "workers": workers, "balancer": balancer, "server_rss_mb": round(rss_after / 2**20, 1),
            "memory_per_game_kb": round(max(0, rss_after - rss_idle) / games / 1024, 1) if games else 0.0,
            # Server CPU (all its processes) while the games were played, per accepted action:
            # on a shared machine this varies far less than the rates and latencies.
            "server_cpu_s": round(server_cpu, 2),
            "server_cpu_ms_per_action": round(server_cpu * 1000 / len(stats.accepted), 2)
            if stats.accepted else 0.0,
            # What else used the machine while the games were played: the bench client (this
            # process), a local PostgreSQL server, and every core of the machine (busy share,
            # 1.0 = all cores busy all the time, other people's work included): together they
            # tell whether the server or the machine was the limit.
            "client_cpu_s": round(client_cpu, 2),
            "database_cpu_s": round(database_cpu, 2),
            "machine_cores": os.cpu_count() or 1,
            "pinned": split is not None,
            "machine_busy": round(busy / ticks, 3) if ticks > 0 else 0.0,
        }
    finally:
        tmp.cleanup()


def after_open(stats: Stats, players: int) -> tuple[float | None, list[float]]:
    """(seconds from the start of play until every one of ``players`` sockets had brought
    its first view, or None when some never did; the latencies in ms of the actions sent
    after that moment, all of them when None)."""
    if players <= 0 or len(stats.first_views) < players:
        return None, [x * 1000 for x in stats.latencies]
    at = max(stats.first_views)
    return at - stats.started, [x * 1000 for x, s in zip(stats.latencies, stats.sent, strict=True) if s >= at]


def cmd_bench_server(args: argparse.Namespace) -> int:
    from roses.cli import _options  # the bench's --players, --rules and --option

    out = run(args.games, db_url=args.db, game=args.game, scenario=args.scenario, moves=args.moves,
              think=args.think, seconds=args.max_seconds, seed=args.seed,
              workers=getattr(args, "workers", 1), options=_options(args),
              ws_actions=not getattr(args, "http_actions", False), pin=not getattr(args, "no_pin", False),
              balancer=getattr(args, "balancer", 0))
    if args.json:
        print(json.dumps(out))
    else:
        print(f"server bench ({out['game']}, {out['players_per_game']} players, {out['database']}, "
              f"actions over {out['transport']}): {out['games']} games, {out['actions']} "
              f"actions in {out['seconds']:.1f} s = {out['actions_per_s']:.1f} actions/s; latency p50 "
              f"{out['p50_ms']:.1f} ms, p95 {out['p95_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms "
              f"(max {out['max_ms']:.1f}); after the {out['sockets_open_s'] or 0:.1f} s the sockets took to open, "
              f"p50 {out['after_open_p50_ms']:.1f} ms, p99 {out['after_open_p99_ms']:.1f} ms over "
              f"{out['after_open_actions']} actions; lost {out['lost']}, duplicated {out['duplicated']}, "
              f"stale-version conflicts {out['conflicts']}, refused {out['refused']}; "
              f"{out['workers']} server process(es)"
              + (f" on each of {out['balancer']} servers behind HAProxy" if out["balancer"] else "")
              + f", {out['server_rss_mb']:.0f} MB resident, "
              f"{out['memory_per_game_kb']:.0f} KB per game; server CPU "
              f"{out['server_cpu_ms_per_action']:.1f} ms per action; client CPU {out['client_cpu_s']:.1f} s, "
              f"database CPU {out['database_cpu_s']:.1f} s, machine {100 * out['machine_busy']:.0f} % busy "
              f"({out['machine_cores']} cores)")
        for e in out["errors"]:
            print(f"  error: {e}")
    return 1 if out["lost"] or out["duplicated"] else 0
