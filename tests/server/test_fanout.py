"""Several workers: two real ``roses serve`` processes on one PostgreSQL database, a WebSocket
client on each; an action made through either server reaches the sockets of both (PgBus over
LISTEN/NOTIFY). Plus the bus itself, in process."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from roses.server.events import GAME_CHANGED, Event
from roses.server.loadbench import ServerProcess, choices, create_games, make_players
from roses.server.pgbus import PgBus, decode, encode

from .conftest import make_database

pytestmark = pytest.mark.postgres


def test_encoding_carries_no_state() -> None:
    e = Event(GAME_CHANGED, 7, 3, ("York",), (1, 2), {"result": None})
    origin, back = decode(encode(e, "w1"))
    assert origin == "w1" and (back.kind, back.game_id, back.version, back.active) == ("game", 7, 3, ("York",))
    assert back.users == ()  # who is told stays in the worker


def test_two_buses_in_process(pg_schema: tuple[str, str]) -> None:
    url, _ = pg_schema
    channel = f"roses_t_{secrets.token_hex(4)}"

    async def main() -> None:
        a, b = PgBus(url, channel=channel), PgBus(url, channel=channel)
        await a.start()
        await b.start()
        try:
            sub_a, sub_b = a.subscribe(5), b.subscribe(5)
            a.publish(Event(GAME_CHANGED, 5, 1))
            got_b = await asyncio.wait_for(sub_b.get(), 10)
            got_a = await asyncio.wait_for(sub_a.get(), 10)
            assert got_a.version == got_b.version == 1
            await asyncio.sleep(0.3)
            assert sub_a.queue.empty()  # its own echo is ignored: delivered once
            assert b.received == 1 and a.received == 0
            sub_a.close()
            sub_b.close()
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(main())


def test_channel_per_schema(pg_schema: tuple[str, str]) -> None:
    """Each database schema gets its own channel: other deployments (test sessions) are not heard."""
    from roses.server.db import Database
    from roses.server.pgbus import channel_for

    url, schema = pg_schema
    mine = Database(url, connect_args={"options": f"-csearch_path={schema}"})
    public = Database(url)
    try:
        assert channel_for(mine) != channel_for(public)
        assert channel_for(mine) == channel_for(mine)
    finally:
        mine.dispose()
        public.dispose()


def _url_with_schema(url: str, schema: str) -> str:
    return url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"


@pytest.mark.slow
def test_two_server_processes(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    database = make_database("postgres", tmp_path, request)
    url, schema = request.getfixturevalue("pg_schema")
    served = _url_with_schema(url, schema)
    tokens = make_players(database, 2)
    servers = [ServerProcess(served, log_path=tmp_path / f"server{i}.log") for i in range(2)]
    try:
        for s in servers:
            s.start()
        asyncio.run(_play_across(servers, tokens))
    finally:
        for s in servers:
            s.stop()
        database.dispose()


async def _next_state(ws: Any, version: int) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if msg.get("type") == "state" and msg["version"] >= version:
            return dict(msg)


async def _play_across(servers: list[ServerProcess], tokens: list[tuple[str, str]]) -> None:
    a, b = servers
    async with httpx.AsyncClient(timeout=30) as client:
        [(gid, seat)] = await create_games(client, a.base, "richard3", None, tokens, 1)
        roles = list(seat)
        home = {roles[0]: a, roles[1]: b}  # each player's socket is on a different server
        sockets: dict[str, Any] = {}
        try:
            for role in roles:
                ws_url = "ws" + home[role].base[4:] + f"/api/games/{gid}/ws?role={role}"
                sockets[role] = await websockets.connect(
                    ws_url, additional_headers={"Authorization": f"Bearer {seat[role]}"}, max_size=2**24)
            states = {role: await _next_state(sockets[role], 0) for role in roles}
            for step in range(6):
                version = step
                actor = next(r for r in roles if r in states[r]["active"] and choices(states[r]["view"]))
                verb, arg = choices(states[actor]["view"])[0]
                via = servers[step % 2]  # through either server, whatever the actor's socket
                res = await client.post(f"{via.base}/api/games/{gid}/action",
                                        headers={"Authorization": f"Bearer {seat[actor]}"},
                                        json={"role": actor, "verb": verb, "arg": arg, "version": version})
                assert res.status_code == 200, res.text
                version = step + 1
                # Both sockets, one on each server, hear of it.
                for role in roles:
                    states[role] = await _next_state(sockets[role], version)
                    assert states[role]["version"] == version
        finally:
            for ws in sockets.values():
                await ws.close()


def test_listener_reconnects(pg_schema: tuple[str, str]) -> None:
    """The LISTEN connection is killed: the bus reconnects, tells local subscribers to reload
    (an event may have been missed) and hears the other worker again."""
    import psycopg

    from roses.server.pgbus import conninfo

    url, _ = pg_schema
    channel = f"roses_t_{secrets.token_hex(4)}"

    async def main() -> None:
        a, b = PgBus(url, channel=channel), PgBus(url, channel=channel)
        await a.start()
        await b.start()
        try:
            sub = b.subscribe(9)
            with psycopg.connect(conninfo(url), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE query = %s AND pid <> pg_backend_pid()", (f'LISTEN "{channel}"',))
            reload = await asyncio.wait_for(sub.get(), 20)
            assert (reload.kind, reload.game_id) == (GAME_CHANGED, 9)
            a.publish(Event(GAME_CHANGED, 9, 4))
            heard = await asyncio.wait_for(sub.get(), 20)
            assert heard.version == 4
            sub.close()
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(main())
