"""An action awaited on the event loop (``GameService.act_async``, the play socket's way in):
no thread for a game in memory, a thread when the game's lock is taken, the same outcome
either way, and the lock always released, also when the socket closes while the action is
being written. With the pieces it rests on: the group commit's ``submit`` and the game locks
held on behalf of an action."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db, ws
from roses.server.db import Database
from roses.server.errors import StaleVersion
from roses.server.service import LOCK_STRIPES, GameService, _GameLock
from roses.server.store import GroupCommit, _Item

from .conftest import next_message as _next
from .conftest import started_toy


def _seqs(database: Database, gid: int) -> list[int]:
    with database.read() as conn:
        return [int(r.seq) for r in conn.execute(
            sa.select(db.actions.c.seq).where(db.actions.c.game_id == gid).order_by(db.actions.c.seq))]


def _counting_threads(games: GameService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A socket's actions that went through a thread (the socket's pool), counted."""
    calls: list[int] = []
    in_thread = ws._in_thread

    async def counted(fn: Any, *args: Any) -> Any:
        calls.append(1)
        return await in_thread(fn, *args)

    monkeypatch.setattr(ws, "_in_thread", counted)
    return calls


def _assert_free(games: GameService, gid: int) -> None:
    """The game's lock is free (no action holds it any more)."""
    lock = games._locks[gid % LOCK_STRIPES]
    assert lock.acquire(blocking=False)
    lock.release()


# ----- the group commit's submit --------------------------------------------------------------
def test_submit_calls_back_after_the_commit_with_the_error_of_its_unit(sqlite_db: Database) -> None:
    gc = GroupCommit(sqlite_db, expected=(StaleVersion,))
    done: list[tuple[BaseException | None, int]] = []
    ended = threading.Event()

    def insert(conn: Any) -> None:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS t (x INTEGER)"))
        conn.execute(sa.text("INSERT INTO t VALUES (1)"))

    def refused(conn: Any) -> None:
        raise StaleVersion("moved on")

    def then(error: BaseException | None) -> None:
        with sqlite_db.read() as conn:  # committed before the call back
            rows = int(conn.execute(sa.text("SELECT count(*) FROM t")).scalar_one())
        done.append((error, rows))
        if len(done) == 2:
            ended.set()

    assert gc.submit(insert, then)
    assert gc.submit(refused, then)
    assert ended.wait(10)
    gc.close()
    assert done[0] == (None, 1)
    assert isinstance(done[1][0], StaleVersion) and done[1][1] == 1
    assert gc.submit(insert, then) is False  # closed: nothing queued


def test_close_writes_what_was_queued_after_the_writer_was_told_to_stop(sqlite_db: Database) -> None:
    gc = GroupCommit(sqlite_db)
    gate = threading.Event()
    seen: list[BaseException | None] = []
    gc.submit(lambda conn: gate.wait(10), seen.append)  # holds the writer in its transaction
    time.sleep(0.05)
    closer = threading.Thread(target=gc.close)
    closer.start()
    time.sleep(0.05)  # the stop is queued behind the first unit; this one comes after it
    late = threading.Event()
    gc._queue.put(_Item(lambda conn: late.set(), then=seen.append))
    gate.set()
    closer.join(30)
    assert late.is_set() and seen == [None, None]


# ----- the game locks -------------------------------------------------------------------------
def test_a_game_lock_is_reentrant_for_its_thread_and_held_by_a_token_from_any_thread() -> None:
    lock = _GameLock()
    assert lock.acquire() and lock.acquire()  # re-entrant, like RLock
    lock.release()
    token = object()
    assert lock.acquire(token, blocking=False) is False  # the thread still holds it once
    lock.release()
    assert lock.acquire(token, blocking=False)
    # Held by the token: the same thread does not enter it (another action on the loop's
    # thread must not think it holds the game), another thread waits.
    assert lock.acquire(blocking=False) is False
    got = threading.Event()

    def other() -> None:
        with lock:
            got.set()

    t = threading.Thread(target=other)
    t.start()
    assert not got.wait(0.1)
    with pytest.raises(RuntimeError):
        lock.release()  # not this thread's
    releaser = threading.Thread(target=lock.release, args=(token,))
    releaser.start()
    releaser.join()
    assert got.wait(5)
    t.join()


# ----- over the socket ------------------------------------------------------------------------
def test_an_action_on_a_game_in_memory_takes_no_thread(client: TestClient, database: Database,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    gid, north, south = started_toy(client)
    games: GameService = client.app.state.roses.games  # type: ignore[attr-defined]
    calls = _counting_threads(games, monkeypatch)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn, \
            client.websocket_connect(f"/api/games/{gid}/ws", headers=south) as ws:
        _next(wn, "state")
        _next(ws, "state")
        wn.send_json({"type": "act", "id": 1, "key": "a", "verb": "pick", "arg": 3, "version": 0})
        assert _next(wn, "result")["seq"] == 1
        assert _next(ws, "state")["version"] == 1
        ws.send_json({"type": "act", "id": 2, "key": "b", "verb": "pick", "arg": 1, "version": 1})
        assert _next(ws, "result")["seq"] == 2
        assert _next(wn, "state")["version"] == 2
        assert calls == []  # the game was in memory at the version named: no thread
        # Refused on the loop (South has no move now) as in a thread: nothing changes.
        ws.send_json({"type": "act", "id": 3, "verb": "pick", "arg": 2, "version": 2})
        err = _next(ws, "error")
        assert err["id"] == 3 and err["status"] == 422
        assert calls == []
        # A stale version: the game in memory is not at that version, so a thread asks the
        # database, and refuses it.
        wn.send_json({"type": "act", "id": 4, "verb": "pick", "arg": 2, "version": 1})
        err = _next(wn, "error")
        assert err["id"] == 4 and err["status"] == 409
        assert calls == [1]
    assert _seqs(database, gid) == [1, 2]
    _assert_free(games, gid)


def test_an_action_renders_the_views_of_the_players_with_a_socket_here(client: TestClient,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """After an action, the views of the other players whose sockets follow the game in this
    process are rendered at once, so that their push finds its text ready; a player without a
    socket here (away, or on another worker) gets his view rendered when it is asked for."""
    gid, north, south = started_toy(client)
    games: GameService = client.app.state.roses.games  # type: ignore[attr-defined]
    rendered: list[tuple[int, str]] = []
    calls: list[list[str]] = []
    render = games._rendered_many

    def counted(game: Any, game_id: int, version: int, roles: Any) -> Any:
        rendered.extend((version, role) for role in roles)
        calls.append(list(roles))
        return render(game, game_id, version, roles)

    monkeypatch.setattr(games, "_rendered_many", counted)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn:
        _next(wn, "state")
        rendered.clear()
        wn.send_json({"type": "act", "id": 1, "key": "a", "verb": "pick", "arg": 3, "version": 0})
        assert _next(wn, "result")["seq"] == 1
        assert rendered == [(1, "North")]  # South follows the game nowhere: not rendered
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=south) as ws:
            assert _next(ws, "state")["version"] == 1  # rendered when asked for
            rendered.clear()
            calls.clear()
            ws.send_json({"type": "act", "id": 2, "key": "b", "verb": "pick", "arg": 1, "version": 1})
            assert _next(ws, "result")["seq"] == 2
            assert _next(wn, "state")["version"] == 2
            # North's view rendered with the action, once, together with South's: its push
            # found it ready
            assert sorted(rendered) == [(2, "North"), (2, "South")]
            assert calls == [["South", "North"]]


def test_an_action_whose_game_is_locked_waits_in_a_thread(client: TestClient, database: Database,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    gid, north, _south = started_toy(client)
    games: GameService = client.app.state.roses.games  # type: ignore[attr-defined]
    calls = _counting_threads(games, monkeypatch)
    taken, free = threading.Event(), threading.Event()

    def hold() -> None:
        with games._game_lock(gid):
            taken.set()
            free.wait(10)

    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn:
        _next(wn, "state")
        holder = threading.Thread(target=hold)
        holder.start()
        assert taken.wait(5)
        wn.send_json({"type": "act", "id": 1, "verb": "pick", "arg": 3, "version": 0})
        time.sleep(0.2)
        assert _seqs(database, gid) == []  # waiting for the lock, in a thread
        assert calls == [1]
        free.set()
        assert _next(wn, "result")["seq"] == 1
    holder.join()
    assert calls == [1]
    assert _seqs(database, gid) == [1]


def test_a_socket_closed_while_its_action_is_written_still_ends_it(client: TestClient, database: Database,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    gid, north, _south = started_toy(client)
    games: GameService = client.app.state.roses.games  # type: ignore[attr-defined]
    calls = _counting_threads(games, monkeypatch)
    assert client.post(f"/api/games/{gid}/action", headers=north,
                       json={"verb": "pick", "arg": 3, "version": 0}).status_code == 200
    entry = games._entry(gid)
    assert entry is not None and entry.meta is not None  # in memory with its seats
    south = games_user(database, "south")
    gate = threading.Event()

    async def main() -> None:
        # The writer is busy with another unit until the gate opens.
        games.committer.submit(lambda conn: gate.wait(10), lambda error: None)
        task = asyncio.create_task(games.act_async(south, gid, "South", "pick", 1, 1, key="k",
                                                    in_thread=ws._in_thread))
        await asyncio.sleep(0.05)
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        gate.set()
        for _ in range(500):  # the action ends on this loop once written
            ended = games._entry(gid)
            if ended is not None and ended.version == 2:
                break
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert calls == []  # begun on the loop
    assert _seqs(database, gid) == [1, 2]
    ended = games._entry(gid)
    assert ended is not None and ended.version == 2
    _assert_free(games, gid)
    # and the game is served from there (its lock is free)
    assert client.get(f"/api/games/{gid}/view", headers=north).json()["version"] == 2


def games_user(database: Database, name: str) -> Any:
    from roses.server.auth import User
    with database.read() as conn:
        row = conn.execute(sa.select(db.users.c.id, db.users.c.name).where(db.users.c.name_key == name)).one()
    return User(int(row.id), row.name)


def test_an_action_whose_write_cannot_be_queued_is_refused_and_frees_its_game(
        client: TestClient, database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, north, _south = started_toy(client)
    assert client.post(f"/api/games/{gid}/action", headers=north,
                       json={"verb": "pick", "arg": 3, "version": 0}).status_code == 200
    games: GameService = client.app.state.roses.games  # type: ignore[attr-defined]
    south = games_user(database, "south")

    def broken(work: Any, then: Any) -> bool:
        raise OSError("the writer cannot start")

    monkeypatch.setattr(games.committer, "submit", broken)

    async def main() -> None:
        with pytest.raises(OSError):
            await games.act_async(south, gid, "South", "pick", 1, 1, in_thread=ws._in_thread)

    asyncio.run(main())
    assert _seqs(database, gid) == [1]
    assert games._entry(gid) is None  # the game in memory had moved on: dropped
    _assert_free(games, gid)
    monkeypatch.undo()
    assert client.get(f"/api/games/{gid}/view", headers=north).json()["version"] == 1
