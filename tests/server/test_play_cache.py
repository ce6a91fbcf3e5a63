"""The play path's caches and writes: views pushed from the game in memory, encoded once per
version and role; no eviction on a stale version; the game cache bounded by memory; group
commits; a process catching up with another's actions (roses.server.service, roses.server.store)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from roses.engine import digest
from roses.server import auth
from roses.server.auth import User
from roses.server.db import Database
from roses.server.errors import StaleVersion
from roses.server.service import GameService


def _users(database: Database, count: int = 2) -> list[User]:
    with database.write() as conn:
        return [auth.create_user(conn, f"player{i}", "quiet harbour 1") for i in range(count)]


def _started(svc: GameService, n: User, s: User) -> int:
    g = svc.create_game(n, "toy", role="North")
    svc.join(s, g["id"], "South")
    return int(g["id"])


@contextmanager
def _no_database(monkeypatch: pytest.MonkeyPatch, database: Database) -> Iterator[None]:
    """Any read or write transaction fails while inside."""

    def refuse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the database was used")

    with monkeypatch.context() as m:
        m.setattr(database, "read", refuse)
        m.setattr(database, "write", refuse)
        yield


def test_push_serves_cached_views_without_the_database(database: Database,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    n, s = _users(database)
    svc = GameService(database)
    gid = _started(svc, n, s)
    svc.view(n, gid, "North")  # the row and seats are read once
    reply = svc.act(n, gid, "North", "pick", 2, 0)
    with _no_database(monkeypatch, database):
        north = svc.push_body(n, gid, "North", None, reply["version"])
        again = svc.pushed_body(n, gid, "North", None, reply["version"])
        south = svc.push_body(s, gid, "South", None, reply["version"])
        observer = svc.push_body(None, gid, "Observer", None, reply["version"])
    # One rendering and one encoding per version and role: every socket gets the same text.
    assert north is not None and again is not None and north[1] is again[1]
    assert south is not None and observer is not None
    assert north[0] == south[0] == observer[0] == reply["version"]
    # Exactly what GET .../view answers.
    assert svc.view_body(n, gid, "North")[1] == north[1]
    assert svc.view_body(s, gid, "South")[1] == south[1]
    # A user who does not hold the seat gets nothing from the cache (the database path then
    # refuses with the usual error).
    assert svc.push_body(s, gid, "North", None, reply["version"]) is None
    # A version the cache does not have yet: not answered from memory.
    assert svc.push_body(n, gid, "North", None, reply["version"] + 1) is None


def test_hidden_pick_never_in_the_other_roles_pushed_view(database: Database) -> None:
    """The hidden pick (toy game) is in its owner's pushed view only."""
    n, s = _users(database)
    svc = GameService(database)
    gid = _started(svc, n, s)
    svc.view(n, gid, "North")
    version = svc.act(n, gid, "North", "pick", 3, 0)["version"]
    south = svc.push_body(s, gid, "South", None, version) or ""
    observer = svc.push_body(None, gid, "Observer", None, version) or ""
    for token in svc._entry(gid).game.rules.secrets(svc._entry(gid).game.state, "South"):  # type: ignore[union-attr]
        assert token not in south and token not in observer


def test_stale_version_keeps_the_game_cached(database: Database) -> None:
    n, s = _users(database)
    svc = GameService(database)
    gid = _started(svc, n, s)
    svc.act(n, gid, "North", "pick", 2, 0)
    entry = svc._entry(gid)
    assert entry is not None and entry.version == 1
    with pytest.raises(StaleVersion):
        svc.act(s, gid, "South", "pick", 3, 0)
    assert svc._entry(gid) is entry  # not evicted: the next action needs no rebuild
    svc.act(s, gid, "South", "pick", 3, 1)
    assert svc._entry(gid).game is entry.game  # type: ignore[union-attr]


def test_cache_is_bounded_by_memory(database: Database) -> None:
    users = _users(database, 6)
    svc = GameService(database, cache_bytes=1)  # room for one game only
    gids = [_started(svc, users[2 * i], users[2 * i + 1]) for i in range(3)]
    for i, gid in enumerate(gids):
        svc.act(users[2 * i], gid, "North", "pick", 1, 0)
    info = svc.cache_info()
    assert info["games"] == 1 and info["limit"] == 1
    # Evicted games are rebuilt from the store and play on.
    for i, gid in enumerate(gids):
        svc.act(users[2 * i + 1], gid, "South", "pick", 2, 1)
        assert svc.view(users[2 * i], gid, "North")["version"] == 2
    big = GameService(database)
    for gid in gids:
        big.view(users[0], gid, "Observer")
    assert big.cache_info()["games"] == 3 and 0 < big.cache_info()["bytes"] <= big.cache_info()["limit"]


def test_group_commit_batches_many_games_and_loses_nothing(database: Database) -> None:
    users = _users(database, 16)
    svc = GameService(database)
    gids = [_started(svc, users[2 * i], users[2 * i + 1]) for i in range(8)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(gids))

    def play(i: int, gid: int) -> None:
        try:
            barrier.wait()
            svc.act(users[2 * i], gid, "North", "pick", 1 + i % 3, 0)
            svc.act(users[2 * i + 1], gid, "South", "pick", 1 + (i + 1) % 3, 1)
            for v, role in ((2, "North"), (3, "North"), (4, "North"), (5, "South")):
                svc.act(users[2 * i] if role == "North" else users[2 * i + 1], gid, role, "step", None, v)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i, gid)) for i, gid in enumerate(gids)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert svc.committer.units >= len(gids) * 2
    fresh = GameService(database)
    for gid in gids:
        assert fresh.rebuild(gid)["ok"] is True
        assert digest(fresh.stored_state(gid)) == digest(svc._entry(gid).game.state)  # type: ignore[union-attr]


def test_second_process_catches_up_from_its_cache(database: Database) -> None:
    """A process whose cached game is behind applies only the actions stored since."""
    n, s = _users(database)
    a, b = GameService(database), GameService(database)
    gid = _started(a, n, s)
    b.view(n, gid, "North")
    cached = b._entry(gid)
    assert cached is not None and cached.version == 0
    a.act(n, gid, "North", "pick", 2, 0)
    a.act(s, gid, "South", "pick", 1, 1)
    view = b.view(n, gid, "North")
    assert view["version"] == 2 and b._entry(gid).game is cached.game  # type: ignore[union-attr]
    assert view == a.view(n, gid, "North")
    b.act(n, gid, "North", "step", None, 2)
    assert digest(a.stored_state(gid)) == digest(b._entry(gid).game.state)  # type: ignore[union-attr]


def test_group_commit_one_transaction_for_the_waiting_units(sqlite_db: Database) -> None:
    """Units queued while a transaction commits go together into the next one; an expected
    error goes to its own caller only; an unexpected one rolls back its batch, whose other
    units are then written one by one."""
    import sqlalchemy as sa

    from roses.server import db
    from roses.server.store import GroupCommit

    gc = GroupCommit(sqlite_db, expected=(StaleVersion,))
    gate, inside = threading.Event(), threading.Event()
    results: dict[str, Any] = {}

    def note(text: str, *, wait: bool = False, fail: type[BaseException] | None = None) -> Any:
        def work(conn: Any) -> str:
            if wait:
                inside.set()
                gate.wait(30)
            if fail is StaleVersion:
                raise StaleVersion("stale")
            conn.execute(db.throttle.insert().values(key=text, count=1, since=0.0, blocked_until=0.0))
            if fail is not None:
                raise fail("boom")
            return text
        return work

    def call(name: str, work: Any) -> None:
        try:
            results[name] = gc.run(work)
        except BaseException as exc:  # noqa: BLE001 - recorded
            results[name] = exc

    first = threading.Thread(target=call, args=("first", note("first", wait=True)))
    first.start()
    assert inside.wait(30)
    others = [threading.Thread(target=call, args=(f"u{i}", note(f"u{i}"))) for i in range(5)]
    others.append(threading.Thread(target=call, args=("stale", note("stale", fail=StaleVersion))))
    for t in others:
        t.start()
    deadline = time.monotonic() + 30
    while gc._queue.qsize() < len(others) and time.monotonic() < deadline:
        time.sleep(0.01)
    gate.set()
    for t in [first, *others]:
        t.join(30)
    assert gc.commits == 2 and gc.units == 6  # the first alone, then five together
    assert isinstance(results["stale"], StaleVersion)
    assert [results[f"u{i}"] for i in range(5)] == [f"u{i}" for i in range(5)]
    # An unexpected failure in a batch: the others are still written.
    gate.clear()
    inside.clear()
    first = threading.Thread(target=call, args=("head", note("head", wait=True)))
    first.start()
    assert inside.wait(30)
    bad = threading.Thread(target=call, args=("bad", note("bad", fail=RuntimeError)))
    good = threading.Thread(target=call, args=("good", note("good")))
    bad.start()
    good.start()
    while gc._queue.qsize() < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    gate.set()
    for t in (first, bad, good):
        t.join(30)
    gc.close()
    assert isinstance(results["bad"], RuntimeError) and results["good"] == "good"
    with sqlite_db.read() as conn:
        texts = sorted(conn.execute(sa.select(db.throttle.c.key)).scalars())
    assert texts == sorted(["first", "head", "good", *[f"u{i}" for i in range(5)]])
