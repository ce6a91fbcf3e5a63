"""Clocks: paces, time banks with a per-move bonus and a cap, loss on time through the action log,
and the lease-based scheduler that ends each game exactly once with several workers."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import sqlalchemy as sa

from roses.server import clocks, db, gamestore
from roses.server.auth import create_user
from roses.server.clocks import PACES, ClockScheduler, clocks_of, parse_pace
from roses.server.db import Database
from roses.server.errors import BadRequest
from roses.server.events import FINISHED, Event, Notifiers
from roses.server.service import GameService

from .conftest import build_client, new_game, user


class FakeTime:
    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Recorder:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def notify(self, event: Event) -> None:
        self.events.append(event)


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(gamestore, "_now", clock)
    return clock


def _players(database: Database, n: int = 2) -> list[Any]:
    with database.write() as conn:
        return [create_user(conn, f"clock{i}", "correct horse") for i in range(n)]


def _toy_game(svc: GameService, north: Any, south: Any, pace: str) -> int:
    gid = int(svc.create_game(north, "toy", pace=pace, role="North")["id"])
    svc.join(south, gid, "South")
    return gid


def _clock(database: Database, gid: int, now: float) -> dict[str, Any]:
    with database.read() as conn:
        return clocks_of(conn, gid, now)


def run_two_schedulers(database: Database, request: Any, fake_time: Any) -> list[ClockScheduler]:
    """Two clock schedulers (two services, two connection pools on the same database, as on two
    servers) each run three passes, starting together; returned once both are done."""
    if database.dialect == "postgresql":
        schema = request.getfixturevalue("pg_schema")[1]
        other_db = Database(database.url, connect_args={"options": f"-csearch_path={schema}"})
    else:
        other_db = Database(database.url)
    workers = [ClockScheduler(GameService(d), clock=fake_time) for d in (database, other_db)]
    barrier = threading.Barrier(2)

    def run(s: ClockScheduler) -> None:
        barrier.wait()
        for _ in range(3):
            s.run_once()

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return workers


def test_paces() -> None:
    assert parse_pace(None) is None and parse_pace("none") is None
    daily = parse_pace("daily")
    assert daily == PACES["daily"] and daily is not None and daily.bonus == 24 * 3600
    custom = parse_pace("600+30")
    assert custom is not None and (custom.bank, custom.bonus, custom.cap) == (600, 30, 600)
    for bad in ("hourly", "0+5", "-1+2", "10+", "1e9+1"):
        with pytest.raises(BadRequest):
            parse_pace(bad)


def test_bank_bonus_and_cap(database: Database, fake_time: FakeTime) -> None:
    """The active seat's clock runs; leaving the turn charges the time used and adds the bonus,
    never above the cap (bank 100 s, bonus 10 s, cap 100 s)."""
    svc = GameService(database)
    north, south = _players(database)
    t0 = fake_time.t
    gid = _toy_game(svc, north, south, "100+10")
    c = _clock(database, gid, t0)
    assert c["deadline"] == pytest.approx(t0 + 100)
    assert c["clocks"] == {"North": {"left": 100.0, "running": True, "deadline": t0 + 100},
                           "South": {"left": 100.0, "running": True, "deadline": t0 + 100}}
    fake_time.t = t0 + 30
    svc.act(north, gid, "North", "pick", 1, 0)  # North leaves the (simultaneous) pick: 100-30+10
    c = _clock(database, gid, fake_time.t)
    assert c["clocks"]["North"] == {"left": 80.0, "running": False, "deadline": None}
    assert c["clocks"]["South"]["running"] and c["deadline"] == pytest.approx(t0 + 100)
    fake_time.t = t0 + 50
    svc.act(south, gid, "South", "pick", 2, 1)  # South: 100-50+10; North's turn starts
    c = _clock(database, gid, fake_time.t)
    assert c["clocks"]["South"] == {"left": 60.0, "running": False, "deadline": None}
    assert c["clocks"]["North"] == {"left": 80.0, "running": True, "deadline": t0 + 50 + 80}
    assert c["deadline"] == pytest.approx(t0 + 50 + 80)
    fake_time.t = t0 + 52
    svc.act(north, gid, "North", "roll", None, 2)  # 80-2+10 = 88 (under the cap)
    fake_time.t = t0 + 53
    svc.act(south, gid, "South", "roll", None, 3)  # 60-1+10 = 69
    c = _clock(database, gid, fake_time.t)
    assert c["clocks"]["North"]["left"] == pytest.approx(88.0)
    assert c["clocks"]["South"]["left"] == pytest.approx(69.0)
    fake_time.t = t0 + 53.5
    svc.act(north, gid, "North", "roll", None, 4)  # 88-0.5+10 = 97.5
    fake_time.t = t0 + 54
    if svc.game(north, gid)["status"] == "active":
        svc.act(south, gid, "South", "roll", None, 5)  # 69-0.5+10 = 78.5
        fake_time.t = t0 + 54.1
        if svc.game(north, gid)["status"] == "active":
            svc.act(north, gid, "North", "roll", None, 6)  # 97.5-0.1+10 capped at 100
            over = svc.game(north, gid)["status"] == "finished"  # no bonus for the last move
            left = _clock(database, gid, fake_time.t)["clocks"]["North"]["left"]
            assert left == pytest.approx(97.4 if over else 100.0)


def test_loss_on_time_is_an_action(database: Database, fake_time: FakeTime) -> None:
    """A seat whose bank runs out loses: ``.finish`` in the action log, the game over, the
    players told (FINISHED event), and the log replays to the stored state."""
    rec = Recorder()
    svc = GameService(database, notifiers=Notifiers([rec]))
    north, south = _players(database)
    gid = _toy_game(svc, north, south, "60+0")
    svc.act(north, gid, "North", "pick", 3, 0)
    svc.act(south, gid, "South", "pick", 1, 1)  # North to move, 60 s - 0 s used... bank 60
    sched = ClockScheduler(svc, clock=fake_time)
    fake_time.t += 59
    assert sched.run_once() == []  # not yet
    fake_time.t += 2
    assert sched.run_once() == [gid]
    info = svc.game(north, gid)
    assert info["status"] == "finished" and info["result"] == "South"
    with database.read() as conn:
        last = conn.execute(sa.select(db.actions).where(db.actions.c.game_id == gid)
                            .order_by(db.actions.c.seq.desc()).limit(1)).one()
        deadline = conn.execute(sa.select(db.games.c.clock_deadline).where(db.games.c.id == gid)).scalar()
    assert (last.role, last.verb) == ("North", ".finish")
    assert json.loads(last.arg) == ["South", "North ran out of time."]
    assert deadline is None
    assert svc.rebuild(gid)["ok"]
    assert any(e.kind == FINISHED and e.game_id == gid for e in rec.events)
    assert sched.run_once() == []  # nothing left to do


def test_a_move_in_time_keeps_the_game(database: Database, fake_time: FakeTime) -> None:
    svc = GameService(database)
    north, south = _players(database)
    gid = _toy_game(svc, north, south, "60+0")
    fake_time.t += 30
    svc.act(north, gid, "North", "pick", 3, 0)
    svc.act(south, gid, "South", "pick", 1, 1)
    fake_time.t += 20  # North's turn began 20 s ago; North has 30 s left
    sched = ClockScheduler(svc, clock=fake_time)
    assert sched.run_once() == []
    fake_time.t += 11
    assert sched.run_once() == [gid]
    assert svc.game(north, gid)["result"] == "South"


def test_two_schedulers_race(database: Database, fake_time: FakeTime,
                             request: pytest.FixtureRequest) -> None:
    """Two workers (two services, two connection pools) check the same due games at once: every
    game is ended exactly once, by one of them (row leases)."""
    svc = GameService(database)
    north, south = _players(database)
    ids = [_toy_game(svc, north, south, "10+0") for _ in range(12)]
    fake_time.t += 100
    workers = run_two_schedulers(database, request, fake_time)
    a, b = set(workers[0].handled), set(workers[1].handled)
    assert not a & b
    assert a | b == set(ids)
    with database.read() as conn:
        finishes = conn.execute(sa.select(db.actions.c.game_id, sa.func.count())
                                .where(db.actions.c.verb == ".finish")
                                .group_by(db.actions.c.game_id)).all()
    assert {int(g): int(n) for g, n in finishes} == dict.fromkeys(ids, 1)
    workers[1].games.db.dispose()  # the second server's pool


def test_lease_is_exclusive(sqlite_db: Database, fake_time: FakeTime) -> None:
    """A game leased by one worker is not claimed by another until the lease expires."""
    svc = GameService(sqlite_db)
    north, south = _players(sqlite_db)
    gid = _toy_game(svc, north, south, "10+0")
    g = db.games.c
    now = fake_time.t + 100
    due = sa.and_(g.status == "active", g.clock_deadline <= now)
    first = clocks.lease_rows(sqlite_db, db.games, due, g.id, now, 30, 10, columns=[g.id])
    assert [r.id for r in first] == [gid]
    assert clocks.lease_rows(sqlite_db, db.games, due, g.id, now + 1, 30, 10, columns=[g.id]) == []
    again = clocks.lease_rows(sqlite_db, db.games, due, g.id, now + 31, 30, 10, columns=[g.id])
    assert [r.id for r in again] == [gid]


def test_clock_api(sqlite_db: Database) -> None:
    with build_client(sqlite_db) as client:
        north = user(client, "north")
        south = user(client, "south")
        r = client.post("/api/games", json={"game": "toy", "pace": "fortnightly"}, headers=north)
        assert r.status_code == 400 and r.json()["code"] == "bad_pace"
        g = new_game(client, north, role="North", pace="daily")
        assert g["pace"] == "daily"
        client.post(f"/api/games/{g['id']}/join", json={"role": "South"}, headers=south)
        c = client.get(f"/api/games/{g['id']}/clocks").json()
        assert c["pace"]["bank"] == 3 * 24 * 3600
        assert set(c["clocks"]) == {"North", "South"}
        assert all(v["running"] and v["left"] > 3 * 24 * 3600 - 60 for v in c["clocks"].values())
        plain = new_game(client, north, role="North")
        assert client.get(f"/api/games/{plain['id']}/clocks").json()["clocks"] == {}


def test_clocks_running_together_run_out_together(sqlite_db: Database, fake_time: FakeTime) -> None:
    """Both roles active at once (the toy game's simultaneous pick), neither moves: both run out
    at the same moment and the game is a draw, not a win for whichever role sorts last."""
    svc = GameService(sqlite_db)
    north, south = _players(sqlite_db)
    gid = _toy_game(svc, north, south, "30+5")
    fake_time.t += 31
    assert ClockScheduler(svc, clock=fake_time).run_once() == [gid]
    info = svc.game(north, gid)
    assert info["status"] == "finished" and info["result"] == "Draw"
    with sqlite_db.read() as conn:
        arg = conn.execute(sa.select(db.actions.c.arg).where(db.actions.c.game_id == gid)).scalar_one()
    assert json.loads(arg) == ["Draw", "North and South ran out of time."]
