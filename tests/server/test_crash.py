"""Crash test: bots play several games against a real server process over HTTP, the server is
killed with SIGKILL mid-play and restarted on the same database; every game continues from its
last accepted action and ``roses admin rebuild`` finds every stored state equal to its log."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from roses.server import db
from roses.server.db import Database
from roses.server.loadbench import (
    Accepted,
    GameRun,
    Player,
    ServerProcess,
    Stats,
    check_log,
    create_games,
    make_players,
)

from .conftest import make_database

GAMES = 4


def _stored(database: Database, ids: list[int]) -> dict[int, Any]:
    with database.read() as conn:
        return {int(r.id): r for r in conn.execute(
            sa.select(db.games.c.id, db.games.c.version, db.games.c.status).where(db.games.c.id.in_(ids)))}


def _log_entry(database: Database, gid: int, seq: int) -> tuple[str, str, Any] | None:
    with database.read() as conn:
        r = conn.execute(sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                         .where(db.actions.c.game_id == gid, db.actions.c.seq == seq)).first()
    return None if r is None else (r.role, r.verb, json.loads(r.arg))


def _players(base: str, games: list[tuple[int, dict[str, str]]], stats: Stats, moves: int,
             seed: int) -> list[Player]:
    rng = random.Random(seed)
    out = []
    for gid, seat in games:
        run = GameRun(moves)
        out += [Player(base, token, gid, role, stats, rng=random.Random(rng.random()), moves=moves,
                       use_ws=False, run=run) for role, token in seat.items()]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_mid_play_and_restart(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    database = make_database(backend, tmp_path, request, name="crash")
    url = database.url
    if backend == "postgres":
        _, schema = request.getfixturevalue("pg_schema")
        url += ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"
    tokens = make_players(database, GAMES * 2)
    first = ServerProcess(url, log_path=tmp_path / "server1.log")
    first.start()
    stats = Stats()

    async def play_then_kill() -> tuple[list[tuple[int, dict[str, str]]], list[Player]]:
        async with httpx.AsyncClient(timeout=30) as client:
            games = await create_games(client, first.base, "richard3", None, tokens, GAMES)
            players = _players(first.base, games, stats, 10**6, seed=7)
            tasks = [asyncio.create_task(p.play(client)) for p in players]
            for _ in range(3000):  # at most ~60 s
                if len(stats.accepted) >= 15 * GAMES or all(t.done() for t in tasks):
                    break
                await asyncio.sleep(0.02)
            first.kill()  # mid-play: requests are in flight
            await asyncio.wait_for(asyncio.gather(*tasks), 60)
            return games, players

    try:
        games, players = asyncio.run(play_then_kill())
    finally:
        first.kill()
    ids = [gid for gid, _ in games]
    assert len(stats.accepted) >= 15 * GAMES
    stored = _stored(database, ids)
    in_flight_committed: list[Accepted] = []
    for gid in ids:
        mine = [p for p in players if p.game_id == gid]
        last = max(p.last_accepted for p in mine)
        version = int(stored[gid].version)
        if version != last:
            # Only an action whose answer the kill cut off may be stored beyond what the players saw.
            assert version == last + 1, (gid, version, last)
            # Both sides may have an answer cut off at the same version (the Card Phase, 1.1, is simultaneous):
            # the stored entry must be one of them, and only that one counts as committed.
            entry = _log_entry(database, gid, version)
            pending = [p.pending for p in mine if p.pending is not None and p.pending.seq == version
                       and (p.pending.role, p.pending.verb, p.pending.arg) == entry]
            assert pending, (gid, version, entry, [p.pending for p in mine])
            in_flight_committed.append(pending[0])

    # Restart on the same database; every game goes on from where it was.
    second = ServerProcess(url, log_path=tmp_path / "server2.log")
    second.start()
    more = Stats()

    async def go_on() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            await asyncio.gather(*(p.play(client) for p in _players(second.base, games, more, 8, seed=8)))

    try:
        asyncio.run(go_on())
    finally:
        second.stop()
    assert more.errors == [] and more.refused == 0
    after = _stored(database, ids)
    for gid in ids:
        if stored[gid].status == "active":
            assert after[gid].version > stored[gid].version, gid
    assert check_log(database, stats.accepted + in_flight_committed + more.accepted, ids) == (0, 0)

    rebuilt = subprocess.run([sys.executable, "-m", "roses.cli", "admin", "rebuild", "all", "--db", url, "--json"],
                             capture_output=True, text=True, timeout=120)
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    lines = [json.loads(line) for line in rebuilt.stdout.splitlines() if line.strip()]
    assert {line["game_id"] for line in lines} >= set(ids)
    assert all(line["ok"] for line in lines), lines
    database.dispose()
