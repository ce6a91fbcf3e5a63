"""One way in for an action: ``GameService.act`` (the caller's thread waits) and
``GameService.act_async`` (the same action awaited on an event loop, the play socket's way in)
give the same answer and store the same thing, share the idempotency keys, refuse bad input
alike without changing anything, and always release the game's lock."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import sqlalchemy as sa

from roses.engine import digest
from roses.server import auth, db, ws
from roses.server.auth import User
from roses.server.db import Database
from roses.server.errors import BadRequest, Invalid, ServerError, StaleVersion
from roses.server.service import LOCK_STRIPES, Acted, GameService


def _users(database: Database) -> tuple[User, User]:
    with database.write() as conn:
        return (auth.create_user(conn, "north1", "quiet harbour 1"),
                auth.create_user(conn, "south1", "quiet harbour 1"))


def _started(svc: GameService, n: User, s: User) -> int:
    g = svc.create_game(n, "toy", role="North")
    svc.join(s, g["id"], "South")
    return int(g["id"])


def _stored(database: Database, gid: int) -> list[tuple[int, str, str, str]]:
    with database.read() as conn:
        rows = conn.execute(sa.select(db.actions.c.seq, db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                            .where(db.actions.c.game_id == gid).order_by(db.actions.c.seq)).all()
    return [(int(r.seq), r.role, r.verb, r.arg) for r in rows]


def _assert_free(svc: GameService, gid: int) -> None:
    lock = svc._locks[gid % LOCK_STRIPES]
    assert lock.acquire(blocking=False)  # from another owner than the action's: free
    lock.release()


def _counted_thread(calls: list[int]) -> Callable[[Callable[[], Acted]], Awaitable[Acted]]:
    async def in_thread(fn: Callable[[], Acted]) -> Acted:
        calls.append(1)
        return await asyncio.to_thread(fn)
    return in_thread


def test_an_action_has_one_public_way_in_and_the_socket_takes_it() -> None:
    public = {name for name, _ in inspect.getmembers(GameService, callable) if name.startswith("act")}
    assert public == {"act", "act_async"}
    assert inspect.iscoroutinefunction(GameService.act_async)
    # The socket drives no step of an action itself: it awaits act_async.
    source = inspect.getsource(ws)
    assert "act_async(" in source
    assert "games._act" not in source and "committer" not in source


def test_awaited_and_waited_actions_answer_and_store_alike(database: Database) -> None:
    n, s = _users(database)
    svc = GameService(database)
    try:
        gid = _started(svc, n, s)
        svc.view(n, gid, "North")  # in memory with its row and seats
        threads: list[int] = []
        awaited = asyncio.run(svc.act_async(n, gid, "North", "pick", 3, 0, in_thread=_counted_thread(threads)))
        assert threads == []  # applied on the loop: the game was in memory at version 0
        assert awaited.seq == 1 and not awaited.repeated
        view, body = svc.view_body(n, gid, "North")
        assert dict(awaited) == view and awaited.body == body  # the answer is the view after it
        waited = svc.act(s, gid, "South", "pick", 1, 1)
        assert waited.seq == 2 and dict(waited) == svc.view(s, gid, "South")
        # Not in memory any more: the awaited action reads the game in a thread, as act does.
        svc._evict(gid)
        again = asyncio.run(svc.act_async(n, gid, "North", "roll", None, 2, in_thread=_counted_thread(threads)))
        assert threads == [1] and again.seq == 3
        assert dict(again) == svc.view(n, gid, "North")
        # Without a thread runner of its own it uses asyncio's.
        svc._evict(gid)
        last = asyncio.run(svc.act_async(s, gid, "South", "roll", None, 3))
        assert last.seq == 4
        assert [(seq, role, verb) for seq, role, verb, _ in _stored(database, gid)] == [
            (1, "North", "pick"), (2, "South", "pick"), (3, "North", "roll"), (4, "South", "roll")]
        cached = svc._entry(gid)
        assert cached is not None and digest(cached.game.state) == digest(svc.stored_state(gid))
        _assert_free(svc, gid)
    finally:
        svc.close()


def test_an_idempotency_key_is_one_whichever_way_the_action_came(database: Database) -> None:
    n, s = _users(database)
    svc = GameService(database)
    try:
        gid = _started(svc, n, s)
        svc.view(n, gid, "North")
        first = asyncio.run(svc.act_async(n, gid, "North", "pick", 3, 0, key="k1"))
        assert first.seq == 1 and not first.repeated
        # The retry, waited or awaited: not applied again, answered with the current view.
        retry = svc.act(n, gid, "North", "pick", 3, 0, key="k1")
        assert retry.repeated and retry.seq == 1 and retry["version"] == 1
        threads: list[int] = []
        retry2 = asyncio.run(svc.act_async(n, gid, "North", "pick", 3, 0, key="k1",
                                           in_thread=_counted_thread(threads)))
        assert retry2.repeated and retry2.seq == 1 and threads == [1]  # a key seen before: the thread's way
        # The same key for another action is refused, and nothing changes.
        with pytest.raises(BadRequest) as refused:
            asyncio.run(svc.act_async(n, gid, "North", "pick", 2, 0, key="k1"))
        assert refused.value.code == "key_reused"
        assert len(_stored(database, gid)) == 1
        _assert_free(svc, gid)
    finally:
        svc.close()


@pytest.mark.parametrize(("verb", "arg", "version", "error", "status"), [
    ("", None, 0, BadRequest, 400),                   # no verb
    (".secret", None, 0, BadRequest, 400),            # a meta verb only the server may play
    ("pick", float("nan"), 0, BadRequest, 400),       # not plain JSON
    ("pick", "x" * 10_001, 0, BadRequest, 400),       # too large
    ("pick", 3, 1, StaleVersion, 409),                # made on a version the game is not at
    ("roll", None, 0, Invalid, 422),                  # the rules refuse it
])
def test_bad_input_awaited_or_waited_is_refused_alike_and_changes_nothing(
        database: Database, verb: str, arg: Any, version: int, error: type[ServerError], status: int) -> None:
    n, s = _users(database)
    svc = GameService(database)
    try:
        gid = _started(svc, n, s)
        svc.view(n, gid, "North")
        before = digest(svc.stored_state(gid))
        refusals: list[ServerError] = []
        for way in ("awaited", "waited"):
            with pytest.raises(error) as caught:
                if way == "awaited":
                    asyncio.run(svc.act_async(n, gid, "North", verb, arg, version))
                else:
                    svc.act(n, gid, "North", verb, arg, version)
            refusals.append(caught.value)
            assert caught.value.status == status
            assert _stored(database, gid) == []
            assert digest(svc.stored_state(gid)) == before
            assert svc.view(n, gid, "North")["version"] == 0
            _assert_free(svc, gid)
        assert refusals[0].code == refusals[1].code and refusals[0].message == refusals[1].message
        # and the game goes on from where it was
        assert svc.act(n, gid, "North", "pick", 3, 0).seq == 1
    finally:
        svc.close()


def test_a_failed_write_of_a_waited_action_drops_the_game_and_frees_its_lock(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    n, s = _users(database)
    svc = GameService(database)
    try:
        gid = _started(svc, n, s)
        svc.act(n, gid, "North", "pick", 3, 0)

        def broken(work: Any) -> Any:
            raise OSError("the disk is full")

        with monkeypatch.context() as m:
            m.setattr(svc.committer, "run", broken)
            with pytest.raises(OSError):
                svc.act(s, gid, "South", "pick", 1, 1)
        assert svc._entry(gid) is None  # the game in memory was ahead of the store
        _assert_free(svc, gid)
        assert len(_stored(database, gid)) == 1
        assert svc.act(s, gid, "South", "pick", 1, 1).seq == 2
    finally:
        svc.close()
