"""``roses serve --workers N``: one dispatcher on the port hands each connection to the worker
of the game it names (roses/server/affinity.py), so a game's sockets and pages are served by
one process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
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
    assert dispatcher.handed == [] and dispatcher._pool == []  # no worker was started


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


async def _each_game_heard_by_both_sockets(server: ServerProcess, tokens: list[tuple[str, str]], games: int) -> None:
    async with httpx.AsyncClient(timeout=30) as lobby:
        made = await create_games(lobby, server.base, "richard3", None, tokens, games)
    for gid, seat in made:
        await _one_action_heard(server, gid, seat, None)


@pytest.mark.slow
def test_a_games_sockets_and_actions_meet_in_one_worker(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """On SQLite each worker's event bus is its own, so a push reaches only the sockets of the
    worker that made the change: every socket of every game hears every action only if each
    game's connections all went to one worker. (With connections spread by the kernel, each of
    the eight games had even odds of its two sockets landing in different workers.)"""
    database = make_database("sqlite", tmp_path, request)
    tokens = make_players(database, 16)
    server = ServerProcess(f"sqlite:///{tmp_path}/roses.db", log_path=tmp_path / "server.log", workers=2)
    try:
        server.start()
        asyncio.run(_each_game_heard_by_both_sockets(server, tokens, 8))
    finally:
        server.stop()
        database.dispose()


def _get(port: int, pieces: list[bytes], pause: float) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        for piece in pieces:
            s.sendall(piece)
            time.sleep(pause)
        out = b""
        while b"\r\n\r\n" not in out:
            chunk = s.recv(4096)
            if not chunk:
                break
            out += chunk
        return out


@pytest.mark.slow
def test_slow_clients_and_a_dead_worker(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A request line that arrives in pieces, or only after the dispatcher stopped waiting for
    it, is still served; a worker that dies is started again."""
    database = make_database("sqlite", tmp_path, request)
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
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode == 0
    # no worker is left behind once the dispatcher stopped
    time.sleep(0.5)
    for pid in first:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def _action_through_the_other_worker(server: ServerProcess, tokens: list[tuple[str, str]]) -> None:
    async with httpx.AsyncClient(timeout=30) as lobby:
        (gid, seat), (other, _) = await create_games(lobby, server.base, "richard3", None, tokens, 2)
    assert gid % 2 != other % 2  # consecutive ids: the two games are in different workers
    # the action's connection first names the other game, so it is in the other worker; the
    # game's sockets hear of the action through PostgreSQL's LISTEN/NOTIFY
    await _one_action_heard(server, gid, seat, other)


@pytest.mark.slow
@pytest.mark.postgres
def test_on_postgresql_an_action_made_in_another_worker_reaches_the_games_sockets(
        request: pytest.FixtureRequest, tmp_path: Path) -> None:
    database = make_database("postgres", tmp_path, request)
    url, schema = request.getfixturevalue("pg_schema")
    tokens = make_players(database, 4)
    server = ServerProcess(url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}",
                           log_path=tmp_path / "server.log", workers=2)
    try:
        server.start()
        asyncio.run(_action_through_the_other_worker(server, tokens))
    finally:
        server.stop()
        database.dispose()
