"""The play path's storage: states split from their log, plain SQL statements, group commit.

A game's state is stored without its log (``state["log"]``, which grows with every action):

* ``log_entries`` holds the log, one row per entry (``game_id``, ``idx``); the rows always
  hold the log of the game at ``games.version``. An action appends the entries it wrote; an
  undo (which returns to an earlier state) deletes the entries after the restored log's end.
  Log entries are only ever appended (roses.engine.log), so a log is a prefix of every later
  log of the same game, except across an undo, which the row deletion mirrors.
* a snapshot stores the state with an empty log and ``log_len``, the length of its log; the
  log comes back from the first ``log_len`` rows. Snapshots are taken where the undo stack is
  empty, so no later undo reaches back behind a snapshot's log.
* a snapshot with ``log_len`` NULL holds its whole state, log included (a state without a
  list ``log``, or a snapshot written before the log had rows of its own).

So the cost of an action (one ``UPDATE`` of the game's version, one ``INSERT`` into
``actions``, the new log rows, and a snapshot of the log-less state when the turn passes)
does not grow with the length of the game.

:class:`Sql` runs fixed statements through the driver's own cursor (no expression building
or compilation per call); :class:`GroupCommit` writes the actions of many games in one
transaction, so that one ``fsync`` (SQLite ``synchronous=FULL``) or one commit round trip
(PostgreSQL) serves all the actions that arrived while the previous commit was on its way.
An action is acknowledged only after the commit that holds it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import orjson
from sqlalchemy.engine import Connection

from roses.engine.contract import canonical_json
from roses.server.db import Database

log = logging.getLogger("roses.server")

T = TypeVar("T")


# ----- states and their logs ----------------------------------------------------------------
def state_text(state: dict[str, Any]) -> str:
    """``canonical_json(state)`` (sorted keys, no spaces), about five times faster: orjson
    writes the same text for states, which hold no NaN or infinities (the contract; the
    fuzzer checks) and, in every game so far, no floats at all (a finite float would be
    written in another notation of the same number, e.g. ``1e16`` for ``1e+16``, which reads
    back the same). ``json`` for what orjson refuses (keys that are not strings, integers
    beyond 64 bits)."""
    try:
        return orjson.dumps(state, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        return canonical_json(state)


def split_state(state: dict[str, Any]) -> tuple[str, int | None]:
    """(JSON of ``state`` with an empty log, length of its log), or (whole JSON, None) for a
    state without a list ``log``."""
    entries = state.get("log")
    if not isinstance(entries, list):
        return state_text(state), None
    state["log"] = []
    try:
        return state_text(state), len(entries)
    finally:
        state["log"] = entries


def join_state(text: str, log_len: int | None, entries: Callable[[int], list[Any]]) -> dict[str, Any]:
    """The state stored by :func:`split_state`; ``entries(n)`` gives the first ``n`` log entries."""
    state: dict[str, Any] = json.loads(text)
    if log_len is not None:
        state["log"] = entries(log_len) if log_len else []
    return state


def entry_json(entry: Any) -> str:
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False)


# ----- plain SQL --------------------------------------------------------------------------------
class Sql:
    """Fixed statements written with ``?`` placeholders, run on the connection's driver cursor
    (``%s`` placeholders on PostgreSQL). Inside the caller's SQLAlchemy transaction."""

    def __init__(self, text: str) -> None:
        self.qmark = text
        self.format = text.replace("%", "%%").replace("?", "%s")

    def _sql(self, conn: Connection) -> str:
        return self.qmark if conn.dialect.name == "sqlite" else self.format

    def run(self, conn: Connection, params: Sequence[Any] = ()) -> int:
        """Execute; the number of rows changed."""
        cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cur.execute(self._sql(conn), tuple(params))
            return int(cur.rowcount)
        finally:
            cur.close()

    def many(self, conn: Connection, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if not rows:
            return
        cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cur.executemany(self._sql(conn), rows)
        finally:
            cur.close()

    def all(self, conn: Connection, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cur.execute(self._sql(conn), tuple(params))
            return [tuple(r) for r in cur.fetchall()]
        finally:
            cur.close()

    def first(self, conn: Connection, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self.all(conn, params)
        return rows[0] if rows else None


#: The columns of ``games`` the play path reads (never ``state``).
PLAY_COLUMNS = ("id", "game", "scenario", "options", "owner_id", "is_private", "invite_token", "status",
                "seed", "version", "active", "result", "pace")
SELECT_PLAY_ROW = Sql(f"SELECT {', '.join(PLAY_COLUMNS)} FROM games WHERE id = ?")
ADVANCE_GAME = Sql("UPDATE games SET version = ?, active = ?, result = ?, status = ?, updated_at = ?, "
                   "finished_at = ? WHERE id = ? AND version = ? AND status = 'active'")
INSERT_ACTION = Sql("INSERT INTO actions (game_id, seq, role, verb, arg, user_id, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)")
INSERT_LOG = Sql("INSERT INTO log_entries (game_id, idx, entry) VALUES (?, ?, ?)")
DELETE_LOG_FROM = Sql("DELETE FROM log_entries WHERE game_id = ? AND idx >= ?")
SELECT_LOG = Sql("SELECT entry FROM log_entries WHERE game_id = ? AND idx < ? ORDER BY idx")
INSERT_SNAPSHOT = Sql("INSERT INTO snapshots (game_id, seq, active, state, log_len) VALUES (?, ?, ?, ?, ?)")
SELECT_SNAPSHOT = Sql("SELECT seq, state, log_len FROM snapshots WHERE game_id = ? AND seq <= ? "
                      "ORDER BY seq DESC LIMIT 1")
SELECT_ACTIONS = Sql("SELECT role, verb, arg FROM actions WHERE game_id = ? AND seq > ? AND seq <= ? "
                     "ORDER BY seq")
SELECT_CHAT = Sql("SELECT chat.id, chat.text, chat.created_at, users.name FROM chat "
                  "LEFT OUTER JOIN users ON users.id = chat.user_id WHERE chat.game_id = ? AND chat.id > ? "
                  "ORDER BY chat.id")
SELECT_CHANNELS = Sql("SELECT id, members, umpire FROM channels WHERE game_id = ? ORDER BY id")
SEATS_INACTIVE = Sql("UPDATE seats SET active_since = NULL WHERE game_id = ? AND role = ?")
SEATS_ACTIVE = Sql("UPDATE seats SET active_since = ? WHERE game_id = ? AND role = ?")


@dataclass
class PlayRow:
    """The fields of a game row the play path uses (``games`` without ``state``)."""

    id: int
    game: str
    scenario: str
    options: str
    owner_id: int | None
    is_private: bool
    invite_token: str | None
    status: str
    seed: int | None
    version: int
    active: str
    result: str | None
    pace: str | None

    @classmethod
    def read(cls, conn: Connection, game_id: int) -> PlayRow | None:
        r = SELECT_PLAY_ROW.first(conn, (game_id,))
        if r is None:
            return None
        values = dict(zip(PLAY_COLUMNS, r, strict=True))
        values["is_private"] = bool(values["is_private"])
        return cls(**values)

    def advanced(self, version: int, active: str, result: str | None, status: str) -> PlayRow:
        """This row after an action (``dataclasses.replace`` without its cost per call)."""
        return PlayRow(self.id, self.game, self.scenario, self.options, self.owner_id, self.is_private,
                       self.invite_token, status, self.seed, version, active, result, self.pace)


def log_entries(conn: Connection, game_id: int, count: int) -> list[Any]:
    """The first ``count`` log entries of a game (fewer rows than asked: a damaged store)."""
    rows = SELECT_LOG.all(conn, (game_id, count))
    if len(rows) != count:
        raise LookupError(f"game {game_id}: {len(rows)} of {count} log entries stored")
    return [json.loads(r[0]) for r in rows]


def write_log(conn: Connection, game_id: int, stored: int, entries: list[Any]) -> int:
    """Make the rows hold ``entries`` (the rows held the first ``stored`` of an earlier log of
    which ``entries`` is a continuation, or a prefix after an undo); the new row count."""
    new = len(entries)
    if new < stored:
        DELETE_LOG_FROM.run(conn, (game_id, new))
    elif new > stored:
        INSERT_LOG.many(conn, ((game_id, i, entry_json(entries[i])) for i in range(stored, new)))
    return new


def replace_log(conn: Connection, game_id: int, entries: list[Any]) -> None:
    """Rewrite all of a game's log rows (start, import, rebuild)."""
    DELETE_LOG_FROM.run(conn, (game_id, 0))
    INSERT_LOG.many(conn, ((game_id, i, entry_json(e)) for i, e in enumerate(entries)))


# ----- group commit -------------------------------------------------------------------------
@dataclass
class _Item(Generic[T]):
    work: Callable[[Connection], T]
    #: Set once the transaction has ended, for a caller that waits (``run``; ``submit`` has
    #: ``then`` instead, and no event: making one costs more than the rest of the item).
    done: threading.Event | None = None
    result: Any = None
    error: BaseException | None = None
    #: Called (on the writer thread) with the error or None once the transaction has ended.
    then: Callable[[BaseException | None], None] | None = None


class GroupCommit:
    """One writer thread that runs queued units of work in shared transactions.

    ``run(work)`` queues ``work`` (a function of a connection inside a write transaction) and
    waits until the transaction that ran it has committed; it returns what ``work`` returned or
    raises what it raised. While one transaction commits, new work queues up and the next
    transaction takes all of it (up to ``max_batch``). A unit of work must write nothing before
    it raises an expected error (e.g. a stale version found by its first ``UPDATE``): that
    error goes to its caller and the others are committed. Any other failure (or a failed
    commit) rolls the whole batch back and each unit is then run in a transaction of its own,
    so one bad unit never takes the others down with it.
    """

    def __init__(self, database: Database, *, max_batch: int = 256,
                 expected: tuple[type[BaseException], ...] = ()) -> None:
        self.db = database
        self.max_batch = max_batch
        self.expected = expected
        self._queue: queue.SimpleQueue[_Item[Any] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        #: The writer thread's connection (None: take one at the next transaction).
        self._conn: Connection | None = None
        #: Counters (for benchmarks and tests): transactions committed, units committed.
        self.commits = 0
        self.units = 0

    def run(self, work: Callable[[Connection], T]) -> T:
        if threading.current_thread() is self._thread:
            raise RuntimeError("a unit of work may not queue another (its transaction holds the writer)")
        if self._closed:
            with self.db.write() as conn:  # after close (shutdown): a transaction of its own
                return work(conn)
        self._ensure_thread()
        done = threading.Event()
        item: _Item[T] = _Item(work, done)
        self._queue.put(item)
        done.wait()
        if item.error is not None:
            raise item.error
        return item.result

    def submit(self, work: Callable[[Connection], Any], then: Callable[[BaseException | None], None]) -> bool:
        """Queue ``work`` without waiting: ``then(error)`` is called on the writer thread once
        its transaction has ended (``error`` None when it committed). False when the writer is
        closed (nothing queued: use :meth:`run`). ``then`` must be quick and must not raise."""
        if self._closed:
            return False
        self._ensure_thread()
        self._queue.put(_Item(work, then=then))
        return True

    def close(self) -> None:
        self._closed = True
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(30)
            self._thread = None
        # Work queued while the writer was told to stop (after its last batch): each in a
        # transaction of its own, so no caller waits for ever.
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self._write_alone(item)
                self._finish(item)

    def _ensure_thread(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="roses-group-commit", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        try:
            self._serve()
        finally:
            self._drop_connection()

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _serve(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch: list[_Item[Any]] = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Item[Any]]) -> None:
        try:
            # The writer thread keeps its connection between transactions (no checkout, no
            # reset on return); after any failure it takes a fresh one.
            if self._conn is None:
                self._conn = self.db.engine.connect()
            with self.db.write_on(self._conn) as conn:
                for item in batch:
                    try:
                        item.result = item.work(conn)
                    except self.expected as exc:
                        item.error = exc
        except BaseException as exc:  # noqa: BLE001 - the batch is rolled back; retried one by one
            self._drop_connection()
            if len(batch) == 1:
                batch[0].error, batch[0].result = exc, None
            else:
                log.warning("a group commit of %d units failed (%s); retrying them one by one",
                            len(batch), type(exc).__name__)
                for item in batch:
                    self._write_alone(item)
        else:
            self.commits += 1
            self.units += sum(1 for item in batch if item.error is None)
        for item in batch:
            self._finish(item)

    def _write_alone(self, item: _Item[Any]) -> None:
        item.error, item.result = None, None
        try:
            with self.db.write() as conn:
                item.result = item.work(conn)
        except BaseException as one:  # noqa: BLE001 - goes to its caller
            item.error = one

    @staticmethod
    def _finish(item: _Item[Any]) -> None:
        if item.done is not None:
            item.done.set()
        if item.then is not None:
            try:
                item.then(item.error)
            except Exception as exc:  # noqa: BLE001 - the writer goes on for the others
                log.error("a group commit's callback failed: %s", type(exc).__name__)
