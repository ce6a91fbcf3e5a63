"""Scheduled work with several server processes on one database: the leader lock
(:mod:`roses.server.leader`) lets one process at a time run the attendance tick and poll the
mail-in mailbox, and is taken over when its holder dies; the gazette's mailer queues each
edition once when two servers mail the same game at once; two servers' clock schedulers play a
passed deadline's published default once."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from roses.server import db, deadlines, gazette
from roses.server.db import Database
from roses.server.gazette import GazetteMailer
from roses.server.jobs import PeriodicJob
from roses.server.leader import Leader
from tests.server.conftest import build_client, make_database, user
from tests.server.test_clocks import FakeTime, fake_time, run_two_schedulers  # noqa: F401 - the fixture
from tests.server.test_deadlines import _game, _play_until
from tests.server.test_gazette import _play_api
from tests.server.test_notify import Mailbox, mailbox, wait_for  # noqa: F401 - the fixture


def _url(database: Database, request: pytest.FixtureRequest, backend: str) -> str:
    if backend == "sqlite":
        return database.url
    _, schema = request.getfixturevalue("pg_schema")
    return database.url + ("&" if "?" in database.url else "?") + f"options=-csearch_path%3D{schema}"


HOLD = """
import sys, time
from roses.server.db import Database
from roses.server.leader import Leader
from roses.server.service import GameService
leader = Leader(Database(sys.argv[1]), "attendance")
print(leader.held(), flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_one_holder_at_a_time_and_taken_over_when_it_dies(backend: str, tmp_path: Path,
                                                          request: pytest.FixtureRequest) -> None:
    database = make_database(backend, tmp_path, request, name="leader")
    url = _url(database, request, backend)
    other = Database(url)
    # another server process holds the lock
    proc = subprocess.Popen([sys.executable, "-c", HOLD, url], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "True"
        mine = Leader(other, "attendance")
        assert not mine.held()
        assert Leader(other, "mailin").held()  # another name is another lock
        proc.kill()  # SIGKILL: no shutdown code runs; the lock goes with the process
        proc.wait(10)
        deadline = time.monotonic() + 10
        while not mine.held():
            assert time.monotonic() < deadline, "the lock of a dead process was not freed"
            time.sleep(0.05)
        assert mine.held()  # kept
        mine.release()
    finally:
        proc.kill()
        proc.wait(10)
        other.dispose()
        database.dispose()


class _Count(PeriodicJob):
    label = "count"

    def __init__(self) -> None:
        super().__init__(0.01)
        self.ticks = 0

    def run_once(self) -> Any:
        self.ticks += 1


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_job_with_a_leader_ticks_in_one_process_only(backend: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    database = make_database(backend, tmp_path, request, name="leader")
    url = _url(database, request, backend)
    first, second = Database(url), Database(url)
    a, b = _Count(), _Count()
    a.leader, b.leader = Leader(first, "attendance"), Leader(second, "attendance")

    async def run() -> None:
        await a.start()
        await asyncio.sleep(0.3)
        await b.start()
        await asyncio.sleep(0.5)
        assert a.ticks > 0 and b.ticks == 0
        await a.stop()  # releases the lock: the other process takes the work over
        await asyncio.sleep(0.5)
        await b.stop()

    asyncio.run(run())
    assert b.ticks > 0
    for d in (first, second, database):
        d.dispose()


def test_two_servers_mailing_one_game_queue_each_edition_once(sqlite_db: Database, mailbox: Mailbox,  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with build_client(sqlite_db) as client:
        alice, bob = user(client, "alice"), user(client, "bob")
        with sqlite_db.write() as conn:
            for name in ("alice", "bob"):
                conn.execute(db.users.update().where(db.users.c.name == name).values(
                    email=f"{name}@example.test", email_verified=True, notify=True))
        gid = client.post("/api/games", json={"game": "kingmaker", "role": "P1", "preview": True, "title": "Barnet",
                                               "options": {"players": 2}}, headers=alice).json()["id"]
        client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=bob)
        _play_api(client, gid, {"P1": alice, "P2": bob}, 2, seed=6)
        games = client.app.state.roses.games  # type: ignore[attr-defined]
        marked = db.outbox.c.payload.like('%"gazette": %')

        def queued() -> int:
            with sqlite_db.read() as conn:
                return int(conn.execute(sa.select(sa.func.count()).select_from(db.outbox).where(marked)).scalar_one())

        wait_for(lambda: queued() >= 4)
        time.sleep(1.5)  # the app's own mailer has nothing more to do
        with sqlite_db.write() as conn:
            conn.execute(db.outbox.delete().where(marked))
        # Server A renders its mails; meanwhile server B queues the same editions.
        a, b = GazetteMailer(games), GazetteMailer(games)
        render = gazette.edition_text
        calls: list[int] = []
        busy: list[bool] = []

        def meanwhile(*args: Any, **kwargs: Any) -> str:
            if not busy:
                busy.append(True)
                calls.append(b.mail_game(gid))
            return render(*args, **kwargs)

        monkeypatch.setattr(gazette, "edition_text", meanwhile)
        assert a.mail_game(gid) == 0
        assert calls == [4]  # two editions (setup, round 1) for two readers
        assert queued() == 4


def test_a_deadline_is_handled_once_by_two_servers_schedulers(database: Database, fake_time: FakeTime,  # noqa: F811
                                                              request: pytest.FixtureRequest) -> None:
    """Two servers' clock schedulers (two services, two connection pools) find the same passed
    deadline of a decision with a published default at once: the default is played once, and
    marked once (roses/server/deadlines.py)."""
    svc, gid, users = _game(database, "600+600")
    # a decision of one seat alone (with two seats active, both banks would lapse together and
    # each scheduler would rightly play one of them)
    role, payload = _play_until(svc, gid, users,
                                lambda v: bool(v.get("default")) and len(v.get("active") or []) == 1)
    version = payload["version"]
    fake_time.t += 601
    workers = run_two_schedulers(database, request, fake_time)
    with database.read() as conn:
        after = [(int(r.seq), r.role, r.verb, r.user_id) for r in conn.execute(
            sa.select(db.actions.c.seq, db.actions.c.role, db.actions.c.verb, db.actions.c.user_id)
            .where(db.actions.c.game_id == gid, db.actions.c.seq > version).order_by(db.actions.c.seq))]
    # The lapsed deadline's default, once. A seat still active after it has no time left (it
    # earns its bonus only when it stops being active), so its next decision may lapse at once
    # too: each lapse is one action of the server, handled by one scheduler, marked once.
    assert after[0][:3] == (version + 1, role, "by_default")
    assert [a[0] for a in after] == list(range(version + 1, version + 1 + len(after)))
    assert all(a[2] in ("by_default", ".finish") and a[3] is None for a in after)
    assert sorted(workers[0].handled + workers[1].handled) == [gid] * len(after)
    marked = [d for d in deadlines.defaults_of(svc, gid) if d["seq"] > version]
    assert marked == [{"seq": a[0], "role": a[1], "reason": "deadline"} for a in after if a[2] == "by_default"]
    workers[1].games.db.dispose()  # the second server's pool
