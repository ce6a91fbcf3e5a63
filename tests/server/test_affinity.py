"""``roses serve --workers N``: one dispatcher on the port hands each connection to the worker
of the game it names (roses/server/affinity.py), so a game's sockets and pages are served by
one process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from roses.server import affinity
from roses.server.loadbench import ServerProcess, _processes, choices, create_games, make_players

from .conftest import make_database

pytestmark = pytest.mark.skipif(not affinity.available(), reason="needs SCM_RIGHTS (Unix)")


def test_the_game_a_request_line_names() -> None:
    assert affinity.game_of(b"GET /api/games/12/ws?role=York HTTP/1.1\r\n") == 12
    assert affinity.game_of(b"POST /api/games/7/action HTTP/1.1\r\n") == 7
    assert affinity.game_of(b"GET /games/40 HTTP/1.1\r\n") == 40
    assert affinity.game_of(b"GET /games/40/replay?step=3 HTTP/1.1\r\n") == 40
    assert affinity.game_of(b"GET /api/games/9") == 9  # the line cut short after the id
    # no game: the lobby, accounts, other paths that merely hold the word
    assert affinity.game_of(b"GET /lobby HTTP/1.1\r\n") is None
    assert affinity.game_of(b"GET /api/games HTTP/1.1\r\n") is None
    assert affinity.game_of(b"GET /api/games/12x HTTP/1.1\r\n") is None
    assert affinity.game_of(b"GET /static/games/12 HTTP/1.1\r\n") is None
    assert affinity.game_of(b"GET /players/x?next=/games/12 HTTP/1.1\r\n") is None
    assert affinity.game_of(b"\x16\x03\x01 binary") is None


def test_a_game_always_goes_to_one_worker_and_the_rest_by_turn() -> None:
    line = b"GET /api/games/%d/ws?role=York HTTP/1.1\r\n"
    for gid in range(1, 40):
        chosen = {affinity.worker_for(line % gid, 3, turn) for turn in range(10)}
        assert chosen == {gid % 3}
    assert [affinity.worker_for(b"GET /lobby HTTP/1.1\r\n", 3, t) for t in range(6)] == [0, 1, 2, 0, 1, 2]


def test_a_port_in_use_is_an_error_and_starts_no_worker() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        dispatcher = affinity.Dispatcher("127.0.0.1", taken.getsockname()[1], 2, {})
        assert dispatcher.run() == 1
    assert dispatcher._pool == []  # no worker was started


def _workers(root: int) -> list[int]:
    """The dispatcher's child processes (its workers), from /proc."""
    return sorted(pid for pid, stat in _processes() if int(stat.rsplit(")", 1)[1].split()[1]) == root)


async def _next_state(ws: Any, version: int) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if msg.get("type") == "state" and msg["version"] >= version:
            return dict(msg)


async def _one_action_heard(server: ServerProcess, gid: int, seat: dict[str, str], first: int | None) -> None:
    """Every player of game ``gid`` opens a socket; a player who may act acts over HTTP, on a
    connection of its own whose first request names game ``first`` (None: this game, as a
    browser's page of the game would); every socket must hear of the action."""
    sockets = {role: await websockets.connect(
        "ws" + server.base[4:] + f"/api/games/{gid}/ws?role={role}",
        additional_headers={"Authorization": f"Bearer {token}"}, max_size=2**24) for role, token in seat.items()}
    try:
        states = {role: await _next_state(ws, 0) for role, ws in sockets.items()}
        actor = next(r for r in seat if r in states[r]["active"] and choices(states[r]["view"]))
        verb, arg = choices(states[actor]["view"])[0]
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=1)) as client:
            if first is not None:
                assert (await client.get(f"{server.base}/api/games/{first}")).status_code == 200
            res = await client.post(f"{server.base}/api/games/{gid}/action",
                                    headers={"Authorization": f"Bearer {seat[actor]}"},
                                    json={"role": actor, "verb": verb, "arg": arg,
                                          "version": states[actor]["version"]})
        assert res.status_code == 200, res.text
        version = res.json()["version"]
        for ws in sockets.values():
            assert (await _next_state(ws, version))["version"] == version
    finally:
        for ws in sockets.values():
            await ws.close()


async def _every_socket_hears_every_action(server: ServerProcess, tokens: list[tuple[str, str]]) -> None:
    async with httpx.AsyncClient(timeout=30) as lobby:
        made = await create_games(lobby, server.base, "richard3", None, tokens, 4)
    ids = [gid for gid, _ in made]
    assert len({gid % 2 for gid in ids}) == 2  # both workers have games
    for k, (gid, seat) in enumerate(made):
        # the action on a connection of its own (in the game's worker), or on one first opened
        # for the next game (in the other worker)
        other = ids[(k + 1) % len(ids)] if k % 2 else None
        await _one_action_heard(server, gid, seat, other)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_every_socket_hears_every_action_whichever_worker_made_it(
        backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Two workers: an action made in the game's worker or in the other one reaches every
    socket of the game (SQLite: the dispatcher passes the events between the workers;
    PostgreSQL: LISTEN/NOTIFY)."""
    database = make_database(backend, tmp_path, request)
    tokens = make_players(database, 8)
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/roses.db"
    else:
        pg_url, schema = request.getfixturevalue("pg_schema")
        url = pg_url + ("&" if "?" in pg_url else "?") + f"options=-csearch_path%3D{schema}"
    server = ServerProcess(url, log_path=tmp_path / "server.log", workers=2)
    try:
        server.start()
        asyncio.run(_every_socket_hears_every_action(server, tokens))
    finally:
        server.stop()
        database.dispose()


#: A stand-in worker: answers every connection it is handed with its own index.
FAKE_WORKER = """
import socket, sys
channel = socket.socket(fileno=int(sys.argv[1]))
index = sys.argv[2].encode()
while True:
    msg, fds, _, _ = socket.recv_fds(channel, 65536, 16)
    if not msg and not fds:
        break
    for fd in fds:
        with socket.socket(fileno=fd) as conn:
            head = conn.recv(65536)
            body = b"worker=" + index + b" " + head.split(b" ")[1]
            conn.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n%s" % (len(body), body))
"""


def test_each_games_connections_go_to_its_worker(tmp_path: Path) -> None:
    """The dispatcher in a process of its own, with three stand-in workers that answer with
    their index: every connection naming game ID reaches worker ID mod 3, the others go round."""
    fake = tmp_path / "fake_worker.py"
    fake.write_text(FAKE_WORKER)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = ("import sys; from roses.server.affinity import Dispatcher; "
              f"sys.exit(Dispatcher('127.0.0.1', {port}, 3, {{}}, command=[sys.executable, {str(fake)!r}]).run())")
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the dispatcher did not listen"
                time.sleep(0.1)
        paths = [f"/api/games/{g}/ws?role=York" for g in range(1, 10)] + [f"/games/{g}" for g in range(1, 10)]
        for path in paths:
            got = _get(port, [b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode()], 0)
            gid = affinity.game_of(b"GET " + path.encode())
            assert gid is not None and got.endswith(b"worker=%d %s" % (gid % 3, path.encode())), got
        others = [_get(port, [b"GET /lobby HTTP/1.1\r\nHost: x\r\n\r\n"], 0).split(b"worker=")[1][:1]
                  for _ in range(6)]
        assert sorted(others) == [b"0", b"0", b"1", b"1", b"2", b"2"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def _get(port: int, pieces: list[bytes], pause: float) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        for piece in pieces:
            s.sendall(piece)
            time.sleep(pause)
        out = b""
        while chunk := s.recv(4096):  # every request here asks the server to close after it
            out += chunk
        return out


@pytest.mark.slow
def test_slow_clients_and_a_dead_worker(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A request line that arrives in pieces, or only after the dispatcher stopped waiting for
    it, is still served; a worker that dies is started again, and passes events as before."""
    database = make_database("sqlite", tmp_path, request)
    tokens = make_players(database, 8)
    database.dispose()
    server = ServerProcess(f"sqlite:///{tmp_path}/roses.db", log_path=tmp_path / "server.log", workers=2)
    try:
        server.start()
        request_line = b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        assert _get(server.port, [request_line[:7], request_line[7:]], 0.3).startswith(b"HTTP/1.1 200")
        late = affinity.PEEK_SECONDS + 0.5  # handed on by turn, then the request comes
        assert _get(server.port, [b"", request_line], late).startswith(b"HTTP/1.1 200")
        assert _get(server.port, [b"GET /games/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
                    0).startswith(b"HTTP/1.1 200")

        root = server.proc.pid  # type: ignore[union-attr]
        first = _workers(root)
        assert len(first) == 2
        victim = first[0]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            now = _workers(root)
            if victim not in now and len(now) == 2:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the dead worker was not started again")
        # every game's worker answers again (ids 1 and 2 land on different workers)
        for gid in (1, 2, 1, 2):
            deadline = time.monotonic() + 60
            while True:
                got = _get(server.port, [b"GET /games/%d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % gid], 0)
                if got.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
                    break
                time.sleep(0.3)
            assert got.startswith(b"HTTP/1.1 200"), got[:200]
        asyncio.run(_every_socket_hears_every_action(server, tokens))
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode == 0
    # no worker is left behind once the dispatcher stopped
    time.sleep(0.5)
    for pid in first:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_the_relay_bus_sends_its_events_and_delivers_the_others() -> None:
    """A worker's RelayBus, its socket's other end standing for the dispatcher: its own events
    reach its subscribers and the socket (the kind, game, version and active roles, no
    state); an event from the socket reaches its subscribers after the service's hook; a
    malformed one is ignored."""
    from roses.server.events import GAME_CHANGED, Event

    async def main() -> None:
        mine, dispatcher = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        mine.setblocking(False)
        bus = affinity.RelayBus(mine)
        heard: list[Event] = []
        bus.on_remote = heard.append
        await bus.start()
        try:
            sub = bus.subscribe(7)
            bus.publish(Event(GAME_CHANGED, 7, 3, ("York",), data={"result": None}))
            assert (await asyncio.wait_for(sub.get(), 5)).version == 3
            sent = await asyncio.to_thread(dispatcher.recv, affinity.MESSAGE_BYTES)
            assert sent.startswith(affinity.EVENT)
            assert json.loads(sent[1:]) == {"o": "", "k": GAME_CHANGED, "g": 7, "v": 3, "a": ["York"],
                                            "d": {"result": None}}
            bus.received_payload(b"{not json")
            bus.received_payload(sent[1:].replace(b'"v":3', b'"v":4'))
            got = await asyncio.wait_for(sub.get(), 5)
            assert got.version == 4 and [e.version for e in heard] == [4] and bus.received == 1
            assert sub.queue.empty()
            sub.close()
            assert bus.roles(7) == set()
        finally:
            await bus.stop()
            mine.close()
            dispatcher.close()

    asyncio.run(main())


def test_a_worker_whose_events_were_dropped_reads_every_game_again() -> None:
    """The dispatcher passes a worker's events to the others; when one of them does not read
    (its socket is full), the events it misses are dropped, and before the next event it gets
    the order to read every game again, which its relay bus turns into a reload of every game
    its sockets follow."""
    from roses.server.events import GAME_CHANGED, Event, encode

    dispatcher = affinity.Dispatcher("127.0.0.1", 0, 2, {})
    ends = [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in range(2)]
    for mine, _ in ends:
        mine.setblocking(False)
        mine.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    dispatcher._pool = [affinity._Worker(i, channel=ends[i][0]) for i in range(2)]
    source, target = dispatcher._pool
    sent_by_source, read_by_target = ends[0][1], ends[1][1]
    event = affinity.EVENT + encode(Event(GAME_CHANGED, 5, 1), "").encode()
    try:
        for _ in range(2000):  # the target reads nothing: its socket fills up
            sent_by_source.send(event)
            dispatcher._relay(source)
            if target.missed:
                break
        assert target.missed
        read_by_target.setblocking(False)
        got = []
        with contextlib.suppress(BlockingIOError):
            while True:
                got.append(read_by_target.recv(affinity.MESSAGE_BYTES))
        assert got and set(got) == {event}
        sent_by_source.send(event.replace(b'"v":1', b'"v":2'))
        dispatcher._relay(source)
        assert read_by_target.recv(affinity.MESSAGE_BYTES) == affinity.RELOAD
        assert b'"v":2' in read_by_target.recv(affinity.MESSAGE_BYTES)
        assert not target.missed
    finally:
        for a, b in ends:
            a.close()
            b.close()

    async def reload() -> None:
        bus = affinity.RelayBus(socket.socket())
        sub, other = bus.subscribe(5), bus.subscribe(6)
        bus.reload_all()
        got = [await asyncio.wait_for(s.get(), 5) for s in (sub, other)]
        assert [(e.kind, e.game_id, e.version) for e in got] == [(GAME_CHANGED, 5, 0), (GAME_CHANGED, 6, 0)]
        bus.channel.close()

    asyncio.run(reload())
