"""The multi-host deployment, end to end on loopback: three ``roses serve`` processes on one
PostgreSQL schema behind HAProxy with the configuration of ``deploy/haproxy.cfg``
(:mod:`roses.server.cluster`). Bots play Richard III games with a clock through the balancer,
and Kingmaker games whose players leave every decision with a published default to its
deadline; one server is killed with SIGKILL mid-play. Its games go on on the other servers within
seconds (the players retry by themselves, observers' sockets open again), every game ends (on
time, the clock scheduler playing ``.finish``), no acknowledged action is lost or stored twice,
each game's time-out is in its log exactly once, and each lapsed deadline had its published
default played exactly once, when the seat's time was up, whichever server's scheduler found it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from roses.server import db
from roses.server.cluster import Cluster, haproxy_config
from roses.server.db import Database
from roses.server.loadbench import Accepted, choices, make_players

GAMES = 6
#: Actions per game before the players stop and let the clocks run out.
TARGET = 24
#: Bank + bonus per move (seconds), and the cap: a game ends this long after its last move.
PACE = "6+2"
#: Kingmaker games (2 players): their seats answer at once every decision without a published
#: default, and let the deadline play every one that has one; they stop once a deadline has
#: been played by default and the game is at ``KM_TARGET`` actions.
KM_GAMES = 2
KM_TARGET = 40
#: A seat's bank, its bonus per move and its cap (seconds). A seat earns its bonus when it
#: stops being active, and in Kingmaker's setup both seats stay active for some 40 actions:
#: the bank covers that on a loaded machine.
KM_PACE = "12+12"
KM_BANK = 12.0

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def test_the_sample_configuration_is_the_one_the_cluster_writes() -> None:
    sample = haproxy_config([("s1", "127.0.0.1:8001"), ("s2", "127.0.0.1:8002"), ("s3", "127.0.0.1:8003")])
    assert DEPLOY.read_text() == sample


def _need_haproxy() -> None:
    if shutil.which("haproxy") is None:
        if os.environ.get("ROSES_REQUIRE_POSTGRES") == "1":
            pytest.fail("ROSES_REQUIRE_POSTGRES=1 but haproxy is not installed (apt-get install haproxy)",
                        pytrace=False)
        pytest.skip("haproxy is not installed")


class Table:
    """What the players saw, shared by all of them."""

    def __init__(self) -> None:
        self.accepted: list[Accepted] = []
        #: Requests whose answer never came (the server died with them): maybe stored.
        self.cut: list[Accepted] = []
        self.errors: list[str] = []
        #: (game, when the request was sent, when its answer was read (monotonic), server) of
        #: every answer from a server.
        self.served: list[tuple[int, float, float, str]] = []
        self.unavailable = 0
        #: Games where a deadline has been played by default (their log says so).
        self.lapsed: set[int] = set()


async def _seat(client: httpx.AsyncClient, base: str, gid: int, role: str, token: str, rng: random.Random,
                table: Table, end: float, target: int) -> None:
    heads = {"Authorization": f"Bearer {token}"}
    while time.monotonic() < end:
        asked = time.monotonic()
        try:
            res = await client.get(f"{base}/api/games/{gid}/view", params={"role": role}, headers=heads)
        except httpx.TransportError:
            table.unavailable += 1
            await asyncio.sleep(0.1)
            continue
        if res.status_code != 200:
            table.unavailable += 1
            await asyncio.sleep(0.1)
            continue
        table.served.append((gid, asked, time.monotonic(), res.headers.get("x-roses-server", "?")))
        state = res.json()
        if state["status"] != "active":
            return
        view = state.get("view") or {}
        options = choices(view)
        waits = bool(view.get("default"))  # a decision with a published default: its deadline plays it
        if any("deadline passed" in str(line) for line in view.get("log") or []):
            table.lapsed.add(gid)
        over = state["version"] >= target and (target == TARGET or gid in table.lapsed)
        if over or role not in state.get("active", []) or not options or waits:
            await asyncio.sleep(0.3 if over or waits else 0.03)
            continue
        verb, arg = rng.choice(options)
        sent = Accepted(gid, int(state["version"]) + 1, role, verb, arg)
        asked = time.monotonic()
        try:
            res = await client.post(f"{base}/api/games/{gid}/action", headers=heads,
                                    json={"role": role, "verb": verb, "arg": arg, "version": state["version"]})
        except httpx.TransportError:
            table.cut.append(sent)
            continue
        if res.status_code == 200:
            table.accepted.append(sent)
            table.served.append((gid, asked, time.monotonic(), res.headers.get("x-roses-server", "?")))
        elif res.status_code in (502, 503, 504):
            table.cut.append(sent)
        elif res.status_code != 409:  # 409: the other seat moved first (simultaneous phase)
            table.errors.append(f"game {gid} {role} {verb} {arg!r}: {res.status_code} {res.text[:200]}")


async def _watch(port: int, gid: int, seen: dict[int, dict[str, Any]], end: float) -> None:
    """An observer's socket on the game through the balancer, opened again whenever it closes,
    until the game is over: which servers it was on, the last version pushed to it."""
    import websockets

    mine = seen.setdefault(gid, {"servers": [], "version": 0, "over": False})
    while time.monotonic() < end:
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws", open_timeout=10,
                                          ping_interval=None) as ws:
                assert ws.response is not None
                mine["servers"].append(ws.response.headers.get("X-Roses-Server", "?"))
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "state":
                        mine["version"] = max(mine["version"], int(msg["version"]))
                        if msg.get("status") != "active":
                            mine["over"] = True
                            return
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
            await asyncio.sleep(0.1)


async def _create(client: httpx.AsyncClient, base: str, tokens: list[tuple[str, str]]) -> list[tuple[int, dict[str, str]]]:
    out = []
    for i in range(GAMES):
        seat = {"York": tokens[2 * i][1], "Lancaster": tokens[2 * i + 1][1]}
        res = await client.post(f"{base}/api/games", headers={"Authorization": f"Bearer {seat['York']}"},
                                json={"game": "richard3", "role": "York", "pace": PACE, "title": f"cluster {i}"})
        res.raise_for_status()
        gid = int(res.json()["id"])
        joined = await client.post(f"{base}/api/games/{gid}/join", json={"role": "Lancaster"},
                                   headers={"Authorization": f"Bearer {seat['Lancaster']}"})
        joined.raise_for_status()
        out.append((gid, seat))
    for i in range(KM_GAMES):
        seat = {"P1": tokens[2 * (GAMES + i)][1], "P2": tokens[2 * (GAMES + i) + 1][1]}
        res = await client.post(f"{base}/api/games", headers={"Authorization": f"Bearer {seat['P1']}"},
                                json={"game": "kingmaker", "role": "P1", "pace": KM_PACE, "title": f"cluster km {i}",
                                      "options": {"players": 2}, "preview": True})
        res.raise_for_status()
        gid = int(res.json()["id"])
        joined = await client.post(f"{base}/api/games/{gid}/join", json={"role": "P2"},
                                   headers={"Authorization": f"Bearer {seat['P2']}"})
        joined.raise_for_status()
        out.append((gid, seat))
    return out


@pytest.mark.slow
@pytest.mark.postgres
def test_three_servers_behind_haproxy_one_killed_mid_play(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    _need_haproxy()
    pg_url, schema = request.getfixturevalue("pg_schema")
    database = Database(pg_url, connect_args={"options": f"-csearch_path={schema}"})
    with database.write() as conn:
        conn.execute(sa.text("TRUNCATE " + ", ".join(db.ALL_TABLES) + " RESTART IDENTITY CASCADE"))
    url = database.url + ("&" if "?" in database.url else "?") + f"options=-csearch_path%3D{schema}"
    tokens = make_players(database, (GAMES + KM_GAMES) * 2)
    env = {"ROSES_CLOCK_INTERVAL": "0.3", "ROSES_BOT_PROCESSES": "0"}
    cluster = Cluster(url, 3, workdir=tmp_path, env=env, inter="300ms")
    table = Table()
    killed: dict[str, Any] = {}
    sockets: dict[int, dict[str, Any]] = {}

    async def play() -> list[tuple[int, dict[str, str]]]:
        async with httpx.AsyncClient(timeout=30) as client:
            games = await _create(client, cluster.base, tokens)
            rng = random.Random(51)
            end = time.monotonic() + 80
            tasks = [asyncio.create_task(_seat(client, cluster.base, gid, role, token, random.Random(rng.random()),
                                               table, end, KM_TARGET if "P1" in seat else TARGET))
                     for gid, seat in games for role, token in seat.items()]
            tasks += [asyncio.create_task(_watch(cluster.port, gid, sockets, end)) for gid, _ in games]
            while len(table.accepted) < GAMES * TARGET // 3 and not all(t.done() for t in tasks):
                await asyncio.sleep(0.02)
            # kill the server that serves the most games, mid-play
            where = {gid: s for gid, _, _, s in table.served}
            killed["start"] = time.monotonic()
            victim = max(cluster.names(), key=lambda n: (sum(1 for s in where.values() if s == n), n))
            cluster.servers[cluster.names().index(victim)].kill()
            killed.update(name=victim, at=time.monotonic(), wall=time.time(), games=sorted(g for g, s in where.items() if s == victim),
                          accepted=len(table.accepted))
            await asyncio.gather(*tasks)
            return games

    cluster.start()
    try:
        games = asyncio.run(play())
    finally:
        cluster.stop()
    ids = [gid for gid, _ in games]
    assert table.errors == []
    assert killed["games"], "the killed server served no game"
    assert killed["accepted"] < len(table.accepted), "nothing was played after the kill"

    # Every game ended: on time, by one .finish in its log (one scheduler handled it).
    with database.read() as conn:
        status = dict(conn.execute(sa.select(db.games.c.id, db.games.c.status).where(db.games.c.id.in_(ids))).all())
        log = conn.execute(sa.select(db.actions.c.game_id, db.actions.c.seq, db.actions.c.role, db.actions.c.verb,
                                     db.actions.c.arg, db.actions.c.user_id, db.actions.c.created_at)
                           .where(db.actions.c.game_id.in_(ids))
                           .order_by(db.actions.c.game_id, db.actions.c.seq)).all()
        marks = conn.execute(sa.select(db.defaults_played).where(db.defaults_played.c.game_id.in_(ids))).all()
        turns = conn.execute(sa.select(db.snapshots.c.game_id, db.snapshots.c.seq, db.snapshots.c.active)
                             .where(db.snapshots.c.game_id.in_(ids)).order_by(db.snapshots.c.game_id, db.snapshots.c.seq)).all()
        started = dict(conn.execute(sa.select(db.games.c.id, db.games.c.started_at).where(db.games.c.id.in_(ids))).all())
    database.dispose()
    assert all(status[gid] == "finished" for gid in ids), status
    stored = {(r.game_id, r.seq): (r.role, r.verb, json.loads(r.arg)) for r in log}
    when = {(r.game_id, r.seq): float(r.created_at) for r in log}
    by_server = {(r.game_id, r.seq) for r in log if r.user_id is None}
    for gid in ids:
        seqs = sorted(seq for g, seq in stored if g == gid)
        assert seqs == list(range(1, len(seqs) + 1)), (gid, seqs)
        finishes = [seq for seq in seqs if stored[(gid, seq)][1] == ".finish"]
        assert finishes == [seqs[-1]], (gid, finishes)

    # 0 lost: every acknowledged action is stored as it was sent; 0 duplicated: every other
    # entry is a time-out or a request whose answer the kill cut off, each claimed once.
    claims: dict[tuple[int, int], int] = defaultdict(int)
    lost = 0
    for a in table.accepted:
        claims[(a.game_id, a.seq)] += 1
        if stored.get((a.game_id, a.seq)) != (a.role, a.verb, a.arg):
            lost += 1
    cut = {(c.game_id, c.seq): (c.role, c.verb, c.arg) for c in table.cut}
    duplicated = sum(1 for n in claims.values() if n > 1)
    for key, entry in stored.items():
        if claims.get(key) or entry[1] in (".finish", "by_default"):
            continue
        if cut.get(key) != entry:
            duplicated += 1
    assert (lost, duplicated) == (0, 0)

    # Deadlines with published defaults (the Kingmaker games): every lapsed one was played
    # exactly once, by the server (no user), marked once as a default, never before the seat's
    # time was up (a seat's bank is full after each of its moves: a second scheduler playing the
    # same deadline again would play the next decision's default at once), and some were played
    # after the kill by the servers left.
    km = [gid for gid, seat in games if "P1" in seat]
    defaults = sorted(k for k, e in stored.items() if k[0] in km and e[1] == "by_default")
    assert {(m.game_id, m.seq): m.role for m in marks} == {k: stored[k][0] for k in defaults}
    assert all(stored[k][2] == "deadline" and k in by_server for k in defaults)
    for gid in km:
        assert any(g == gid for g, _ in defaults), (f"game {gid}: no deadline lapsed", sorted(k for k in stored if k[0] == gid)[-3:])
    assert any(when[k] > killed["wall"] for k in defaults), "no deadline was handled after the kill"
    # A seat's clock runs from the action that began its turn (a snapshot is stored at each
    # change of the active roles), through all the moves it makes while it stays active.
    active_at: dict[int, list[tuple[int, list[str]]]] = defaultdict(list)
    for t in turns:
        active_at[t.game_id].append((t.seq, json.loads(t.active)))
    for gid, seq in defaults:
        role = stored[(gid, seq)][0]
        began: int | None = None
        was = False
        for at, active in active_at[gid]:
            if at >= seq:
                break
            if role in active and not was:
                began = at
            was = role in active
        assert began is not None, (gid, seq, role)
        since = float(started[gid]) if began == 0 else when[(gid, began)]
        assert when[(gid, seq)] - since >= KM_BANK - 0.5, (gid, seq, began, when[(gid, seq)] - since)

    # The balancer: before the kill each game was served by one server; after it (requests sent
    # after the kill), the games of the killed server were served by the others (by any, while
    # the balancer had not yet seen it down and redispatched its requests), and no other game
    # moved.
    before: dict[int, set[str]] = defaultdict(set)
    after: dict[int, set[str]] = defaultdict(set)
    first_after: dict[int, float] = {}
    for gid, asked, answered, server in table.served:
        if answered < killed["start"]:
            before[gid].add(server)
        elif asked > killed["at"]:
            after[gid].add(server)
            first_after.setdefault(gid, answered)
    assert all(len(s) == 1 for s in before.values()), dict(before)
    for gid in ids:
        if gid in killed["games"]:
            assert gid in after and killed["name"] not in after[gid], (gid, after.get(gid))
        elif gid in after:
            assert after[gid] == before[gid], (gid, before[gid], after[gid])
    # Sticky sockets: an observer's socket stays on its game's server and is told of every
    # change, whichever server made it (the players' actions, a scheduler's time-out); the
    # sockets on the killed server were opened again, on the others.
    final = {(g, seq) for g, seq in stored}
    for gid in ids:
        watched = sockets[gid]
        assert watched["over"] and watched["version"] == max(seq for g, seq in final if g == gid), (gid, watched)
        if gid in killed["games"]:
            assert watched["servers"][0] == killed["name"] and killed["name"] not in watched["servers"][1:], watched
        else:
            assert len(set(watched["servers"])) == 1, watched
    recovery = max(first_after[gid] - killed["at"] for gid in killed["games"])
    print(f"\ncluster: {len(table.accepted)} actions acknowledged, {len(table.cut)} cut off by the kill, "
          f"{len(killed['games'])} games moved, recovered within {recovery:.2f} s, lost 0, duplicated 0, "
          f"{len(defaults)} deadlines played by default once each")
    assert recovery < 10
