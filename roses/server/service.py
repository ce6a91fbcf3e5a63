"""The game service: lobby, play, chat, notes, replay, export/import, rebuild.

Everything goes through the engine contract (:func:`roses.engine.get_rules`, :class:`Game`,
``Rules.view``); nothing here knows any game's internals.

Play: each action is one write transaction. The request names the game version it was made
on; the action is refused with :class:`StaleVersion` (409) when the game has moved on. The
action is appended to ``actions`` (the authority) with ``seq = version + 1``, the state is
written with ``UPDATE games ... WHERE id = ? AND version = ?`` (so two workers can never both
write), and a snapshot is stored whenever the set of active roles changes. A snapshot is
taken only where the engine's undo stack is empty, so a game can be rebuilt exactly (undo
included) from the last snapshot and the actions after it; an in-process cache keeps the
:class:`Game` objects of recently played games.

After commit, the service publishes an :class:`Event` (no state in it), calls the notifiers
and lets bots move.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from roses.ai.bot import Determinizer
from roses.engine import OBSERVER, Game, available_games, get_rules
from roses.engine.contract import Rules, canonical_json
from roses.engine.errors import (
    BadOptions,
    CannotUndo,
    NotYourTurn,
    RosesError,
    UnknownGame,
    UnknownScenario,
)
from roses.engine.game import FINISH as FINISH_VERB
from roses.engine.game import RESIGN, UNDO, digest
from roses.engine.labels import fallback_label
from roses.engine.log import visible_entries
from roses.server import clocks, db, guard, store
from roses.server.auth import User
from roses.server.botcaps import BotBudgetError, BotCaps, check_budget
from roses.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    StaleVersion,
    Unauthorized,
)
from roses.server.events import (
    FINISHED,
    GAME_CHANGED,
    STARTED,
    TURN,
    Event,
    EventBus,
    LocalBus,
    Notifiers,
    where,
)
from roses.server.store import (
    ADVANCE_GAME,
    INSERT_ACTION,
    INSERT_SNAPSHOT,
    SEATS_ACTIVE,
    SEATS_INACTIVE,
    SELECT_ACTIONS,
    SELECT_CHAT,
    SELECT_SNAPSHOT,
    GroupCommit,
    PlayRow,
    join_state,
    split_state,
    state_text,
)

log = logging.getLogger("roses.server")

OPEN, ACTIVE, FINISHED_STATUS = "open", "active", "finished"
MAX_CHAT = 2000
LOCK_STRIPES = 1024
VIEW_CACHE = 512
#: Idempotency keys of socket actions remembered (roses.server.ws ``act``).
IDEMPOTENCY_KEYS = 65536
MAX_NOTE = 20000
EXPORT_FORMAT = "roses-game/1"


@dataclass
class Seat:
    role: str
    position: int
    user_id: int | None
    user_name: str | None
    bot: str | None

    @property
    def taken(self) -> bool:
        return self.user_id is not None or self.bot is not None


@dataclass
class Rendered:
    """A role's view at one version: the view, whether it may undo, and the JSON body of
    ``GET /api/games/{id}/view`` (sent as it is over HTTP and, with its type, over sockets)."""

    view: dict[str, Any]
    can_undo: bool
    body: str


@dataclass
class _Cached:
    """A game held in memory at ``version``."""

    version: int
    game: Game
    #: Rows in ``log_entries`` for it (the length of its log; -1: its state has no list log).
    log_rows: int
    #: Estimated memory (bytes), for the cache's bound.
    size: int
    #: Its play row and seats, when read (None: read them from the database).
    meta: tuple[PlayRow, list[Seat]] | None = None


#: Bytes of Python objects per byte of a state's JSON (measured on Richard III states), plus
#: a fixed part for the game object, undo stack and indexes, and the caches its views keep
#: (roses.engine.memo: 33 KB of Python objects for a Richard III game with both seats' views
#: made; the server's resident memory grew by about 60 KB a game with them).
STATE_MEMORY_FACTOR = 8
GAME_MEMORY_BASE = 49_152
#: Default bound of the game cache (ROSES_GAME_CACHE_MB).
DEFAULT_CACHE_MB = 256


def _cache_bytes_from_env() -> int:
    return int(float(os.environ.get("ROSES_GAME_CACHE_MB") or DEFAULT_CACHE_MB) * 1024 * 1024)


def _estimate_bytes(state: dict[str, Any]) -> int:
    return GAME_MEMORY_BASE + STATE_MEMORY_FACTOR * len(json.dumps(state, separators=(",", ":")))


def _log_len(state: dict[str, Any]) -> int:
    entries = state.get("log")
    return len(entries) if isinstance(entries, list) else -1


def _encode(value: Any) -> str:
    """Compact JSON (UTF-8 as it is, no ASCII escapes): orjson, the same text as
    ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` about ten times faster
    (except floats, which orjson may write in another valid form, e.g. ``1.5e-7``, and NaN and
    infinities, which it writes as ``null``: valid JSON); ``json`` for
    what orjson refuses (e.g. integers beyond 64 bits). Keys that are not strings (written
    as ``json`` writes them) take a second pass: the option that allows them makes orjson
    about twice as slow on every dict, and no game's view has such keys."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _view_body(game_id: int, version: int, role: str, result: str | None, active: list[str],
               view_text: str, can_undo: bool) -> str:
    """The JSON text of a ViewOut (keys in its order) around an encoded view."""
    status = ACTIVE if result is None else FINISHED_STATUS
    return (f'{{"game_id":{game_id},"version":{version},"role":{_encode(role)},"status":"{status}",'
            f'"result":{_encode(result)},"active":{_encode(list(active))},"view":{view_text},'
            f'"can_undo":{"true" if can_undo else "false"}}}')


def state_message(body: str) -> str:
    """The socket message ``{"type": "state", ...}`` around a view body."""
    return '{"type":"state",' + body[1:]


def _now() -> float:
    return time.time()


def _active_list(text: str) -> list[str]:
    return json.loads(text) if text else []


class _GameLock:
    """A game's lock (striped): re-entrant for the thread that holds it, like ``RLock``; an
    action of a play socket may also hold it on behalf of a token (an object of its own,
    :attr:`_Pending.owner`) while the event loop waits for the action's write, and releases
    it from whichever thread ends that wait."""

    __slots__ = ("_cond", "_owner", "_count")

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: object = None
        self._count = 0

    def acquire(self, owner: object = None, *, blocking: bool = True) -> bool:
        me = threading.get_ident() if owner is None else owner
        with self._cond:
            if self._owner == me:
                self._count += 1
                return True
            while self._owner is not None:
                if not blocking:
                    return False
                self._cond.wait()
            self._owner, self._count = me, 1
            return True

    def release(self, owner: object = None) -> None:
        me = threading.get_ident() if owner is None else owner
        with self._cond:
            if self._owner != me:
                raise RuntimeError("release of a game lock not held")
            self._count -= 1
            if not self._count:
                self._owner = None
                self._cond.notify()

    def __enter__(self) -> None:
        self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass
class _Pending:
    """An action applied to the game in memory, its write not yet committed (see
    :meth:`GameService.act_begin`)."""

    user: User | None
    game_id: int
    role: str
    verb: str
    arg_json: str
    key: tuple[int, str, int, str] | None
    game: Game
    entry: _Cached
    row: Any
    seats: list[Seat]
    new_version: int
    before: list[str]
    active: list[str]
    #: ``active`` as the game row stores it.
    active_json: str
    result: str | None
    turn_changed: bool
    entries: Any
    log_rows: int
    write: Callable[[Connection], None]
    #: The owner on whose behalf the game's lock is held for the action (:class:`_GameLock`).
    owner: object = None


class GameService:
    """All game operations; thread-safe. HTTP handlers, WebSockets, bots and the CLI use it."""

    def __init__(self, database: db.Database, bus: EventBus | None = None,
                 notifiers: Notifiers | None = None, cache_bytes: int | None = None) -> None:
        self.db = database
        self.bus: EventBus = bus or LocalBus()
        self.notifiers = notifiers or Notifiers()
        #: Called with a game id after each change where a bot may have to move.
        self.on_bot_turn: Callable[[int], None] | None = None
        #: Check every rendered view against ``Rules.secrets`` before it leaves (defence in depth).
        self.guard_views = True
        #: The server's caps on bot thought, checked when a bot is seated.
        self.bot_caps = BotCaps()
        #: Called with the user before a chat message is stored; raises TooManyRequests when
        #: the user sends too many (the app sets it from its settings).
        self.limit_chat: Callable[[User], None] | None = None
        # Games in memory at their latest version, least recently used first, bounded by an
        # estimate of their memory (ROSES_GAME_CACHE_MB), with their row and seats.
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._cache_limit = int(cache_bytes if cache_bytes is not None else _cache_bytes_from_env())
        self._cache_used = 0
        self._cache_lock = threading.Lock()
        # Rendered views by (game, version, role): the view, its undo flag and the encoded
        # body of ``GET .../view`` (one rendering and one encoding for every socket of a role).
        self._views: OrderedDict[tuple[int, int, str], Rendered] = OrderedDict()
        # Striped per-game locks (bounded memory); no code path holds two games' locks.
        self._locks = [_GameLock() for _ in range(LOCK_STRIPES)]
        # Idempotency keys of committed socket actions: (game, role, user, key) -> (version,
        # verb, arg JSON); checked under the game's lock, the dict under the cache lock.
        self._keys: OrderedDict[tuple[int, str, int, str], tuple[int, str, str]] = OrderedDict()
        #: Writes the actions of many games in one transaction (roses.server.store).
        self.committer = GroupCommit(database, expected=(StaleVersion,))
        hook = getattr(self.bus, "on_remote", False)
        if hook is None:  # a bus shared by several processes: hear the others' changes
            self.bus.on_remote = self._remote_event  # type: ignore[attr-defined]

    def close(self) -> None:
        """Stop the group-commit writer (after it has written what it was given)."""
        self.committer.close()

    # ----- helpers ---------------------------------------------------------------------
    @contextmanager
    def _game_lock(self, game_id: int) -> Iterator[None]:
        with self._locks[game_id % LOCK_STRIPES]:
            yield

    def _evict(self, game_id: int) -> None:
        with self._cache_lock:
            gone = self._cache.pop(game_id, None)
            if gone is not None:
                self._cache_used -= gone.size
            for key in [k for k in self._views if k[0] == game_id]:
                del self._views[key]

    def _forget_seats(self, game_id: int) -> None:
        """The game's row or seats changed outside play (lobby, admin): read them again."""
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                entry.meta = None

    def seats_changed(self, game_id: int) -> None:
        """The seats of a running game changed (a player left or came, a stand-in bot was
        seated or taken out): drop the cached game, tell every socket, and let the bots now
        seated in an active game move."""
        self._forget_seats(game_id)
        self._evict(game_id)
        self.bus.publish(Event(GAME_CHANGED, game_id))
        with self.db.read() as conn:
            row = self._row(conn, game_id)
            seats = self._seats(conn, game_id)
        if row.status == ACTIVE:
            self._bots_may_move(game_id, _active_list(row.active), seats)

    def _remote_event(self, event: Event) -> None:
        """Another process changed a game: a change without a version (lobby, seats) makes
        this process read the game's row and seats again; new versions are caught up on use."""
        if event.kind == GAME_CHANGED and not event.version:
            self._forget_seats(event.game_id)

    def _rendered(self, game: Game, game_id: int, version: int, role: str) -> Rendered:
        """``role``'s view at ``version`` (cached; callers must not mutate it)."""
        return self._rendered_many(game, game_id, version, (role,))[0]

    def _rendered_many(self, game: Game, game_id: int, version: int, roles: Sequence[str]) -> list[Rendered]:
        """The view of each of ``roles`` at ``version`` (cached; callers must not mutate them).
        The players' views missing from the cache are rendered together (``Game.views``)."""
        done: dict[str, Rendered] = {}
        with self._cache_lock:
            for role in roles:
                key = (game_id, version, role)
                hit = self._views.get(key)
                if hit is not None:
                    self._views.move_to_end(key)
                    done[role] = hit
        missing = [role for role in dict.fromkeys(roles) if role not in done]
        if missing:
            players = [role for role in missing if role != OBSERVER]
            views = dict(zip(players, game.views(players), strict=True)) if players else {}
            result, active = game.result(), game.active()
            fresh: dict[str, Rendered] = {}
            for role in missing:
                if role == OBSERVER:
                    view, undo = game.rules_view(OBSERVER), False
                else:
                    view, undo = views[role], game.can_undo(role)
                view_text = _encode(view)
                if self.guard_views and not self._view_is_clean(game, game_id, role, view_text,
                                                                 self._written_texts):
                    view, undo = _withheld_view(game, role), False
                    view_text = _encode(view)
                fresh[role] = Rendered(view, undo, _view_body(game_id, version, role, result, active, view_text, undo))
            with self._cache_lock:
                for role, rendered in fresh.items():
                    self._views[(game_id, version, role)] = rendered
                    # Pushes and replies ask for the newest version only: the older view of this
                    # role is of no more use.
                    self._views.pop((game_id, version - 1, role), None)
                while len(self._views) > VIEW_CACHE:
                    self._views.popitem(last=False)
            done.update(fresh)
        return [done[role] for role in roles]

    def _remember(self, game_id: int, version: int, game: Game, log_rows: int, size: int,
                  meta: tuple[PlayRow, list[Seat]] | None) -> None:
        with self._cache_lock:
            old = self._cache.pop(game_id, None)
            if old is not None:
                self._cache_used -= old.size
            self._cache[game_id] = _Cached(version, game, log_rows, size, meta)
            self._cache_used += size
            while self._cache_used > self._cache_limit and len(self._cache) > 1:
                gid, gone = self._cache.popitem(last=False)
                self._cache_used -= gone.size
                for key in [k for k in self._views if k[0] == gid]:
                    del self._views[key]

    def _entry(self, game_id: int) -> _Cached | None:
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                self._cache.move_to_end(game_id)
            return entry

    def cache_info(self) -> dict[str, int]:
        """Games held in memory and the estimate of their size (bytes), for benchmarks."""
        with self._cache_lock:
            return {"games": len(self._cache), "bytes": self._cache_used, "limit": self._cache_limit,
                    "views": len(self._views)}

    @staticmethod
    def _rules(game_id: str) -> Rules:
        try:
            return get_rules(game_id)
        except UnknownGame as exc:
            raise NotFound(str(exc), code="unknown_game") from exc

    @staticmethod
    def _check_id(game_id: int) -> None:
        if not -db.INT_MAX <= game_id <= db.INT_MAX:  # the database could not even compare it
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")

    def _row(self, conn: Connection, game_id: int, *, lock: bool = False) -> Any:
        """The game's row; ``lock`` takes the row lock on PostgreSQL (lobby changes)."""
        self._check_id(game_id)
        q = sa.select(db.games).where(db.games.c.id == game_id)
        if lock:
            q = q.with_for_update()
        row = conn.execute(q).first()
        if row is None:
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        return row

    def _play_row(self, conn: Connection, game_id: int) -> tuple[PlayRow, list[Seat]]:
        """The game's play fields (read now) and seats (from the cache when it holds them)."""
        self._check_id(game_id)
        row = PlayRow.read(conn, game_id)
        if row is None:
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        entry = self._entry(game_id)
        if entry is not None and entry.meta is not None:
            seats = entry.meta[1]
        else:
            seats = self._seats(conn, game_id)
        return row, seats

    @staticmethod
    def _seats(conn: Connection, game_id: int) -> list[Seat]:
        rows = conn.execute(
            sa.select(db.seats.c.role, db.seats.c.position, db.seats.c.user_id, db.seats.c.bot,
                      db.users.c.name)
            .select_from(db.seats.outerjoin(db.users, db.users.c.id == db.seats.c.user_id))
            .where(db.seats.c.game_id == game_id).order_by(db.seats.c.position)).all()
        return [Seat(r.role, r.position, r.user_id, r.name, r.bot) for r in rows]

    @staticmethod
    def _view_is_clean(game: Game, game_id: int, role: str, text: str,
                       written: Callable[[int], list[str]] | None = None) -> bool:
        """False (and logged, without the tokens) if ``text`` (the encoded view that is about
        to be sent) shows a secret of ``role``. What players wrote themselves into the game
        (``written``: e.g. the umpire's rulings, who sees every hand) is not the rules showing
        a secret: a secret found only inside such a text does not withhold the view."""
        try:
            tokens = game.rules.secrets(game.state, role)
            if not tokens:
                return True
        except Exception as exc:  # noqa: BLE001 - cannot check: do not send
            log.error("checking the view of %s in game %s failed: %s", role, game_id, where(exc))
            return False
        leaked = len(guard.leaks(text, tokens, (game.rules.id, role)))  # a pass per anchor
        if leaked and written is not None:
            rest = text
            for free in written(game_id):
                rest = rest.replace(_encode(free)[1:-1], "")
            leaked = len(guard.leaks(rest, tokens))
        if leaked:
            log.error("the rules' view of %s in game %s shows %d hidden item(s): withheld "
                      "(a rules bug; run `roses fuzz` on this game)", role, game_id, leaked)
        return not leaked

    def _written_texts(self, game_id: int) -> list[str]:
        """The free texts written into the game by its players' actions (a text argument
        with a space: a ruling, a note), longest first."""
        a = db.actions.c
        with self.db.read() as conn:
            rows = conn.execute(sa.select(a.arg).where(a.game_id == game_id, a.arg.like('"% %"'))).all()
        texts = {t for (arg,) in rows if isinstance(t := json.loads(arg), str)}
        return sorted(texts, key=lambda t: (-len(t), t))

    @staticmethod
    def _seats_of(conn: Connection, game_ids: list[int]) -> dict[int, list[Seat]]:
        out: dict[int, list[Seat]] = {}
        if not game_ids:
            return out
        rows = conn.execute(
            sa.select(db.seats.c.game_id, db.seats.c.role, db.seats.c.position, db.seats.c.user_id,
                      db.seats.c.bot, db.users.c.name)
            .select_from(db.seats.outerjoin(db.users, db.users.c.id == db.seats.c.user_id))
            .where(db.seats.c.game_id.in_(game_ids))
            .order_by(db.seats.c.game_id, db.seats.c.position)).all()
        for r in rows:
            out.setdefault(int(r.game_id), []).append(Seat(r.role, r.position, r.user_id, r.name, r.bot))
        return out

    @staticmethod
    def _may_see(row: Any, seats: list[Seat], user: User | None, invite: str | None) -> bool:
        if not row.is_private:
            return True
        if user is not None and (user.is_admin or user.id == row.owner_id
                                 or any(s.user_id == user.id for s in seats)):
            return True
        return bool(invite) and bool(row.invite_token) and secrets.compare_digest(
            str(invite).encode("utf-8"), str(row.invite_token).encode("utf-8"))

    def _visible_row(self, conn: Connection, game_id: int, user: User | None,
                     invite: str | None = None, *, lock: bool = False) -> tuple[Any, list[Seat]]:
        row = self._row(conn, game_id, lock=lock)
        seats = self._seats(conn, game_id)
        if not self._may_see(row, seats, user, invite):
            # A private game one may not see is reported as missing: ids are not secrets, but
            # its existence and title need not be confirmed either.
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        return row, seats

    def _load(self, conn: Connection, row: Any, seats: list[Seat] | None = None) -> Game:
        """The game at ``row.version``: the cached game, caught up with the actions another
        process stored since, or rebuilt from a snapshot (game lock held)."""
        meta = (row, seats) if seats is not None and isinstance(row, PlayRow) else None
        entry = self._entry(row.id)
        if entry is not None and entry.version == row.version:
            if meta is not None and entry.meta is None:
                entry.meta = meta
            return entry.game
        if entry is not None and entry.version < row.version:
            game = entry.game
            try:
                for role, verb, arg in SELECT_ACTIONS.all(conn, (row.id, entry.version, row.version)):
                    game.apply(role, verb, json.loads(arg))
            except BaseException:
                self._evict(row.id)
                raise
            log_rows = _log_len(game.state)
            self._remember(row.id, row.version, game, log_rows, entry.size, meta)
            return game
        game, size = self._fresh(conn, row)
        self._remember(row.id, row.version, game, _log_len(game.state), size, meta)
        return game

    def _fresh(self, conn: Connection, row: Any) -> tuple[Game, int]:
        """The game at ``row.version`` rebuilt from the store (its last snapshot, log rows and
        the actions after it), and an estimate of its memory in bytes."""
        rules = self._rules(row.game)
        snap = SELECT_SNAPSHOT.first(conn, (row.id, row.version))
        if snap is None:
            raise Conflict("The game has no stored snapshot; run `roses admin rebuild`.", code="corrupt")
        seq, text, log_len = snap
        try:
            state = join_state(text, log_len, lambda n: store.log_entries(conn, row.id, n))
        except LookupError as exc:
            raise Conflict("The game's stored log is incomplete; run `roses admin rebuild`.",
                           code="corrupt") from exc
        game = Game(rules=rules, seed=int(row.seed), scenario=row.scenario,
                    options=json.loads(row.options), actions=[], state=state)
        for role, verb, arg in SELECT_ACTIONS.all(conn, (row.id, seq, row.version)):
            game.apply(role, verb, json.loads(arg))
        return game, _estimate_bytes(game.state)

    def stored_state(self, game_id: int) -> dict[str, Any]:
        """The state of a game at its version as the store holds it (rebuilt from the
        database, not taken from the cache): for checks and tests."""
        with self.db.read() as conn:
            row = self._row(conn, game_id)
            if row.status == OPEN:
                raise Conflict("The game has not started.", code="not_started")
            return self._fresh(conn, row)[0].state

    def _game_info(self, row: Any, seats: list[Seat], user: User | None) -> dict[str, Any]:
        active = _active_list(row.active)
        mine = [s.role for s in seats if user is not None and s.user_id == user.id]
        rules = get_rules(row.game)
        options = json.loads(row.options)
        info: dict[str, Any] = {
            "id": row.id, "game": row.game, "scenario": row.scenario,
            "options": options, "title": row.title, "status": row.status,
            "private": bool(row.is_private), "version": row.version, "active": active,
            "result": row.result, "owner": None, "pace": row.pace,
            "created_at": row.created_at, "updated_at": row.updated_at,
            "seats": [{"role": s.role, "user": s.user_name, "bot": s.bot,
                       "active": s.role in active} for s in seats],
            "my_roles": mine,
            # a game the umpire has paused (roses.server.umpiring) waits for nobody
            "your_turn": row.status == ACTIVE and any(r in active for r in mine),
            "one_seat": rules.roles_hide_from_each_other,
            "played_with": rules.played_with(options),
        }
        if user is not None and row.owner_id == user.id and row.invite_token:
            info["invite_token"] = row.invite_token
            info["invite_link"] = f"/games/{row.id}?invite={row.invite_token}"
        return info

    def _owner_name(self, conn: Connection, owner_id: int | None) -> str | None:
        if owner_id is None:
            return None
        return conn.execute(sa.select(db.users.c.name).where(db.users.c.id == owner_id)).scalar()

    # ----- catalogue -------------------------------------------------------------------
    @staticmethod
    def catalogue() -> list[dict[str, Any]]:
        out = []
        for gid in available_games():
            rules = get_rules(gid)
            out.append(_describe_rules(rules))
        return out

    @staticmethod
    def describe(game: str) -> dict[str, Any]:
        return _describe_rules(GameService._rules(game))

    @staticmethod
    def view_tables(game: str) -> dict[str, Any]:
        """The public facts a client needs to draw the game's views (``Rules.view_tables``)."""
        return GameService._rules(game).view_tables()

    # ----- lobby -----------------------------------------------------------------------
    def create_game(self, user: User, game: str, scenario: str | None = None,
                    options: dict[str, Any] | None = None, title: str | None = None,
                    private: bool = False, role: str | None = None,
                    bots: dict[str, str] | None = None, pace: str | None = None,
                    preview: bool = False) -> dict[str, Any]:
        rules = self._rules(game)
        if rules.preview and not preview:
            raise BadRequest(f"{rules.title} is still in development: it can be created only as a "
                             "preview game (preview: true; the lobby's preview switch).", code="preview_game")
        scenario = scenario or rules.scenarios[0]
        opts = dict(options or {})
        clocks.check_pace(pace)
        try:
            rules.check_scenario(scenario)
            _check_options(rules, opts)
            roles = list(rules.roles(scenario, opts))
            rules.setup(0, scenario, opts)  # refuses bad options before anyone joins
        except (UnknownScenario, BadOptions) as exc:
            raise BadRequest(str(exc), code="bad_setup") from exc
        except RosesError as exc:
            raise BadRequest(str(exc), code="bad_setup") from exc
        except ValueError as exc:  # the rules refuse an option's content (an uploaded file, say)
            raise setup_refused(exc) from exc
        title = (title or "").strip() or f"{rules.title}: {rules.scenario_names().get(scenario, scenario)}"
        if len(title) > 120:
            raise BadRequest("A title has at most 120 characters.")
        bots = dict(bots or {})
        for r, name in bots.items():
            if r not in roles:
                raise BadRequest(f"{rules.title} has no role {r!r}; roles: {', '.join(roles)}.")
            _check_bot(name, self.bot_caps)
        if role is not None and role != "random" and role not in roles:
            raise BadRequest(f"{rules.title} has no role {role!r}; roles: {', '.join(roles)}.")
        if role in bots:
            raise BadRequest(f"{role} cannot be both your seat and a bot's.")
        if role == "random" and len(bots) >= len(roles):
            raise BadRequest("Every seat is given to a bot: there is none left for you.")
        now = _now()
        with self.db.write() as conn:
            gid = int(conn.execute(db.games.insert().values(
                game=rules.id, scenario=scenario, options=canonical_json(opts), title=title,
                owner_id=user.id, is_private=bool(private),
                invite_token=secrets.token_urlsafe(16) if private else None,
                status=OPEN, version=0, active="", pace=pace, created_at=now, updated_at=now,
            ).returning(db.games.c.id)).scalar_one())
            conn.execute(db.seats.insert(), [
                {"game_id": gid, "role": r, "position": i, "user_id": None, "bot": bots.get(r)}
                for i, r in enumerate(roles)])
        if role is not None:
            self.join(user, gid, None if role == "random" else role)
        else:
            self._maybe_autostart(gid)
        return self.game(user, gid)

    def game(self, user: User | None, game_id: int, invite: str | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._visible_row(conn, game_id, user, invite)
            info = self._game_info(row, seats, user)
            info["owner"] = self._owner_name(conn, row.owner_id)
            info["seat_changes"] = seat_changes(conn, game_id)
            return info

    def list_games(self, user: User | None, *, mine: bool = False, status: str | None = None,
                   limit: int = 100) -> list[dict[str, Any]]:
        if status is not None and status not in (OPEN, ACTIVE, FINISHED_STATUS):
            raise BadRequest("status is one of open, active, finished.")
        limit = max(1, min(int(limit), 500))
        with self.db.read() as conn:
            q = sa.select(db.games)
            if mine:
                if user is None:
                    raise Unauthorized("Log in to list your games.")
                q = q.where(sa.or_(db.games.c.owner_id == user.id, db.games.c.id.in_(
                    sa.select(db.seats.c.game_id).where(db.seats.c.user_id == user.id))))
            else:
                q = q.where(db.games.c.is_private == sa.false())
            if status == ACTIVE:  # a paused game is still a game in progress
                q = q.where(db.games.c.status.in_((ACTIVE, "paused")))
            elif status:
                q = q.where(db.games.c.status == status)
            rows = conn.execute(q.order_by(db.games.c.updated_at.desc(), db.games.c.id.desc())
                                .limit(limit)).all()
            seats_of = self._seats_of(conn, [row.id for row in rows])
            owner_ids = {row.owner_id for row in rows if row.owner_id is not None}
            owners: dict[int, str] = {}
            if owner_ids:
                owners = {int(r.id): str(r.name) for r in conn.execute(
                    sa.select(db.users.c.id, db.users.c.name).where(db.users.c.id.in_(owner_ids)))}
            out = []
            for row in rows:
                info = self._game_info(row, seats_of.get(row.id, []), user)
                info["owner"] = owners.get(row.owner_id)
                info.pop("invite_token", None)
                info.pop("invite_link", None)
                out.append(info)
        if mine:
            out.sort(key=lambda g: (not g["your_turn"], g["status"] == FINISHED_STATUS))
        return out

    def join(self, user: User, game_id: int, role: str | None = None,
             invite: str | None = None) -> dict[str, Any]:
        with self._game_lock(game_id), self.db.write() as conn:
            row, seats = self._visible_row(conn, game_id, user, invite, lock=True)
            if row.status != OPEN:
                raise Conflict("The game has already started.", code="not_open")
            held = [s.role for s in seats if s.user_id == user.id]
            if held and self._rules(row.game).roles_hide_from_each_other:
                raise Conflict(f"You already hold the seat of {held[0]}: in this game each role hides "
                               "things from the others, so a person holds one seat.", code="one_seat")
            free = [s for s in seats if not s.taken]
            if role is None:
                if not free:
                    raise Conflict("Every seat is taken.", code="full")
                seat = free[secrets.randbelow(len(free))]
            else:
                match = [s for s in seats if s.role == role]
                if not match:
                    raise BadRequest(f"This game has no role {role!r}; roles: {', '.join(s.role for s in seats)}.")
                seat = match[0]
                if seat.taken:
                    raise Conflict(f"The seat of {role} is taken.", code="seat_taken")
            # Conditional: on PostgreSQL another worker may take the seat at the same moment.
            taken = conn.execute(db.seats.update().where(
                db.seats.c.game_id == game_id, db.seats.c.role == seat.role,
                db.seats.c.user_id.is_(None), db.seats.c.bot.is_(None)).values(user_id=user.id)).rowcount
            if taken != 1:
                raise Conflict(f"The seat of {seat.role} was just taken.", code="seat_taken")
            opened = conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == OPEN)
                                  .values(updated_at=_now())).rowcount
            if opened != 1:
                raise Conflict("The game has already started.", code="not_open")
        self.bus.publish(Event(GAME_CHANGED, game_id))
        self._maybe_autostart(game_id)
        return self.game(user, game_id, invite)

    def leave(self, user: User, game_id: int, role: str | None = None) -> dict[str, Any]:
        with self._game_lock(game_id), self.db.write() as conn:
            row, seats = self._visible_row(conn, game_id, user, lock=True)
            mine = [s for s in seats if s.user_id == user.id and (role is None or s.role == role)]
            if not mine:
                raise Forbidden("You hold no seat in this game.", code="not_seated")
            if row.status != OPEN:
                raise Conflict("The game has started: resign instead of leaving.", code="not_open")
            opened = conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == OPEN)
                                  .values(updated_at=_now())).rowcount
            if opened != 1:
                raise Conflict("The game has started: resign instead of leaving.", code="not_open")
            conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.user_id == user.id,
                                                 db.seats.c.role.in_([s.role for s in mine]))
                         .values(user_id=None))
        self.bus.publish(Event(GAME_CHANGED, game_id))
        return self.game(user, game_id)

    def delete_open(self, user: User, game_id: int) -> None:
        """The creator cancels a game that has not started (started games are kept: resign)."""
        with self._game_lock(game_id), self.db.write() as conn:
            row, _ = self._visible_row(conn, game_id, user, lock=True)
            if row.owner_id != user.id and not user.is_admin:
                raise Forbidden("Only the game's creator may cancel it.", code="not_owner")
            if row.status != OPEN:
                raise Conflict("The game has started: it can no longer be cancelled.", code="not_open")
            gone = conn.execute(db.games.delete().where(db.games.c.id == game_id,
                                                        db.games.c.status == OPEN)).rowcount
            if gone != 1:
                raise Conflict("The game has started: it can no longer be cancelled.", code="not_open")
        self._evict(game_id)
        self.bus.publish(Event(GAME_CHANGED, game_id))

    def set_bot(self, user: User, game_id: int, role: str, bot: str | None) -> dict[str, Any]:
        """The owner puts a bot in a free seat (or takes it out) before the start."""
        if bot is not None:
            _check_bot(bot, self.bot_caps)
        with self._game_lock(game_id), self.db.write() as conn:
            row, seats = self._visible_row(conn, game_id, user, lock=True)
            if row.owner_id != user.id:
                raise Forbidden("Only the game's creator may seat bots.", code="not_owner")
            if row.status != OPEN:
                raise Conflict("The game has already started.", code="not_open")
            match = [s for s in seats if s.role == role]
            if not match:
                raise BadRequest(f"This game has no role {role!r}.")
            if match[0].user_id is not None:
                raise Conflict(f"The seat of {role} is taken by a player.", code="seat_taken")
            done = conn.execute(db.seats.update().where(
                db.seats.c.game_id == game_id, db.seats.c.role == role, db.seats.c.user_id.is_(None))
                .values(bot=bot)).rowcount
            opened = conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == OPEN)
                                  .values(updated_at=_now())).rowcount
            if done != 1 or opened != 1:
                raise Conflict(f"The seat of {role} was just taken, or the game started.", code="seat_taken")
        self.bus.publish(Event(GAME_CHANGED, game_id))
        self._maybe_autostart(game_id)
        return self.game(user, game_id)

    def start(self, user: User | None, game_id: int) -> dict[str, Any]:
        """Start an open game whose seats are all taken (by its owner, or automatically)."""
        with self._game_lock(game_id), self.db.write() as conn:
            row = self._row(conn, game_id, lock=True)
            seats = self._seats(conn, game_id)
            if user is not None and row.owner_id != user.id and not any(s.user_id == user.id for s in seats):
                raise Forbidden("Only the game's players may start it.", code="not_seated")
            if row.status != OPEN:
                raise Conflict("The game has already started.", code="not_open")
            if not all(s.taken for s in seats):
                raise Conflict("Every seat must be taken before the start.", code="not_full")
            rules = self._rules(row.game)
            seed = secrets.randbelow(2**31 - 1) + 1
            try:
                game = Game.new(rules, seed, row.scenario, json.loads(row.options))
            except RosesError as exc:
                raise BadRequest(str(exc), code="bad_setup") from exc
            active = game.active()
            now = _now()
            result = game.result()
            # Conditional: only one worker may start the game (its seed and snapshot 0).
            started = conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == OPEN)
                                   .values(status=ACTIVE if result is None else FINISHED_STATUS, seed=seed,
                                           version=0, state=None,
                                           active=json.dumps(active), result=result,
                                           started_at=now, updated_at=now)).rowcount
            if started != 1:
                raise Conflict("The game has already started.", code="not_open")
            text, log_len = split_state(game.state)
            INSERT_SNAPSHOT.run(conn, (game_id, 0, json.dumps(active), text, log_len))
            if log_len is not None:
                store.replace_log(conn, game_id, game.state["log"])
            conn.execute(db.seats.update().where(db.seats.c.game_id == game_id,
                                                 db.seats.c.role.in_(active)).values(active_since=now))
            clocks.on_start(conn, game_id, row.pace, [s.role for s in seats], active, now)
            users = tuple(s.user_id for s in seats if s.user_id is not None)
            active_users = tuple(s.user_id for s in seats if s.user_id is not None and s.role in active)
        # After the commit (a failed start caches nothing); the row and seats are read on use.
        self._evict(game_id)
        self._remember(game_id, 0, game, _log_len(game.state), _estimate_bytes(game.state), None)
        self.bus.publish(Event(GAME_CHANGED, game_id, 0, tuple(active)))
        self.notifiers.notify(Event(STARTED, game_id, 0, tuple(active), users))
        self.notifiers.notify(Event(TURN, game_id, 0, tuple(active), active_users))
        self._bots_may_move(game_id, active, seats)
        return self.game(user, game_id) if user is not None else {"id": game_id}

    def _maybe_autostart(self, game_id: int) -> None:
        with self.db.read() as conn:
            row = self._row(conn, game_id)
            seats = self._seats(conn, game_id)
        if row.status == OPEN and all(s.taken for s in seats):
            with contextlib.suppress(Conflict):  # someone else started it meanwhile
                self.start(None, game_id)

    # ----- play ------------------------------------------------------------------------
    def _role_for(self, seats: list[Seat], user: User | None, role: str | None) -> str:
        """The role whose view ``user`` asks for; ``Observer`` unless the user holds a seat."""
        if role == OBSERVER:
            return OBSERVER
        mine = [s.role for s in seats if user is not None and s.user_id == user.id]
        if role is None:
            return mine[0] if mine else OBSERVER
        if role not in [s.role for s in seats]:
            raise BadRequest(f"This game has no role {role!r}; roles: {', '.join(s.role for s in seats)}.")
        if role not in mine:
            raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")
        return role

    def view(self, user: User | None, game_id: int, role: str | None = None,
             invite: str | None = None) -> dict[str, Any]:
        return self._view(user, game_id, role, invite)[0]

    def view_body(self, user: User | None, game_id: int, role: str | None = None,
                  invite: str | None = None) -> tuple[dict[str, Any], str]:
        """(the view as :meth:`view` gives it, its encoded JSON body)."""
        return self._view(user, game_id, role, invite)

    def _seen_row(self, conn: Connection, game_id: int, user: User | None, role: str | None,
                  invite: str | None) -> tuple[PlayRow, list[Seat], str]:
        """The game's row and seats if ``user`` may see it, and the role he sees it as."""
        row, seats = self._play_row(conn, game_id)
        if not self._may_see(row, seats, user, invite):
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        return row, seats, self._role_for(seats, user, role)

    def _view(self, user: User | None, game_id: int, role: str | None,
              invite: str | None) -> tuple[dict[str, Any], str]:
        with self._game_lock(game_id), self.db.read() as conn:
            row, seats, role = self._seen_row(conn, game_id, user, role, invite)
            out: dict[str, Any] = {"game_id": game_id, "version": row.version, "role": role,
                                   "status": row.status, "result": row.result,
                                   "active": _active_list(row.active), "view": None,
                                   "can_undo": False}
            if row.status == OPEN:
                return out, _encode(out)
            game = self._load(conn, row, seats)
            rendered = self._rendered(game, game_id, row.version, role)
            out["view"], out["can_undo"] = rendered.view, rendered.can_undo
            return out, rendered.body

    def role_log(self, user: User | None, game_id: int, role: str | None = None,
                 invite: str | None = None) -> dict[str, Any]:
        """The whole log ``role`` may read (its own view of hidden things) with each line's
        kind, for the game page's log (a view carries only the recent lines). Checked against
        the rules' secrets as a view is; a log that would show one is withheld."""
        with self._game_lock(game_id), self.db.read() as conn:
            row, seats, role = self._seen_row(conn, game_id, user, role, invite)
            out: dict[str, Any] = {"game_id": game_id, "version": row.version, "role": role,
                                   "log": [], "log_kinds": []}
            if row.status == OPEN:
                return out
            game = self._load(conn, row, seats)
        entries = visible_entries(game.state.get("log", []), role)
        out["log"] = [t for t, _ in entries]
        out["log_kinds"] = [k for _, k in entries]
        if not self._view_is_clean(game, game_id, role, _encode(out)):
            out["log"], out["log_kinds"], out["withheld"] = [], [], True
        return out

    def _pushable(self, user: User | None, game_id: int, role: str, invite: str | None,
                  version: int) -> _Cached | None:
        """The cached game, if it is at ``version`` or later and the cached seats still let
        ``user`` see ``role``'s view (else None: the caller asks :meth:`view_body`)."""
        entry = self._entry(game_id)
        if entry is None or entry.meta is None or entry.version < version:
            return None
        row, seats = entry.meta
        if row.status == OPEN or not self._may_see(row, seats, user, invite):
            return None
        if role != OBSERVER and not any(s.role == role and user is not None and s.user_id == user.id
                                        for s in seats):
            return None
        return entry

    def pushed_body(self, user: User | None, game_id: int, role: str, invite: str | None,
                    version: int) -> tuple[int, str] | None:
        """(its version, the body of ``role``'s view) at ``version`` or later if it is already
        rendered (no database, no rendering: safe to call on the event loop), else None."""
        entry = self._pushable(user, game_id, role, invite, version)
        if entry is None:
            return None
        with self._cache_lock:
            hit = self._views.get((game_id, entry.version, role))
        return None if hit is None else (entry.version, hit.body)

    def push_body(self, user: User | None, game_id: int, role: str, invite: str | None,
                  version: int) -> tuple[int, str] | None:
        """(its version, the body of ``role``'s view) at ``version`` or later, rendered from
        the cached game without reading the database; None when the cache cannot answer (not
        cached, older than ``version``, seats not cached or no longer ``user``'s)."""
        with self._game_lock(game_id):
            entry = self._pushable(user, game_id, role, invite, version)
            if entry is None:
                return None
            return entry.version, self._rendered(entry.game, game_id, entry.version, role).body

    def explain(self, user: User | None, game_id: int, role: str | None, verb: str, arg: Any,
                invite: str | None = None) -> dict[str, Any]:
        """Whether ``role`` (a seat of ``user``) may make (verb, arg) now, and if not the rules'
        own reason: the action is tried on a copy of the state and nothing is stored. The reason
        passes the same secret guard as a refused action's."""
        if not isinstance(verb, str) or not verb or len(verb) > 80 or verb.startswith("."):
            raise BadRequest("verb must be a game action of at most 80 characters.")
        _check_text(verb, "verb")
        if len(_arg_json(arg)) > 10_000:
            raise BadRequest("arg is too large.")
        with self._game_lock(game_id), self.db.read() as conn:
            row, seats = self._visible_row(conn, game_id, user, invite)
            role = self._role_for(seats, user, role)
            if role == OBSERVER:
                raise Forbidden("Only a player of this game may ask about its actions.", code="not_seated")
            if row.status != ACTIVE:
                return {"allowed": False, "reason": "The game is not running."}
            game = self._load(conn, row)
        rules = game.rules
        state = rules.copy_state(game.state)
        try:
            rules.action(state, role, verb, arg)
        except RosesError as exc:
            return {"allowed": False, "reason": _safe_message(game, game_id, role, str(exc), verb, arg)}
        except Exception:  # noqa: BLE001 - a malformed argument: no detail (it could carry state)
            return {"allowed": False, "reason": "That is not an action of this game."}
        return {"allowed": True, "reason": None}

    def act(self, user: User | None, game_id: int, role: str, verb: str, arg: Any,
            version: int, *, bot: bool = False, system: bool = False) -> dict[str, Any]:
        """Apply one action for ``role`` (held by ``user``, or by a bot when ``bot``).

        ``system`` is for the server itself (e.g. the clock scheduler): no seat check, and the
        meta verb ``.finish`` (arg ``[result, reason]``) is allowed.
        """
        return self.act_body(user, game_id, role, verb, arg, version, bot=bot, system=system)[0]

    def act_body(self, user: User | None, game_id: int, role: str, verb: str, arg: Any,
                 version: int, *, bot: bool = False, system: bool = False,
                 key: tuple[int, str, int, str] | None = None) -> tuple[dict[str, Any], str | None]:
        """:meth:`act`, and the encoded body of its reply (None when there is no user);
        ``key`` (see :meth:`act_keyed`) is remembered once the action is committed."""
        verb, arg_json = self._act_request(verb, arg, system)
        self._check_id(game_id)
        with self._game_lock(game_id):
            if key is not None:
                with self._cache_lock:
                    seen = self._keys.get(key)
                if seen is not None:  # checked under the game's lock: never applied twice
                    raise _Repeated(*seen)
            entry = self._entry(game_id)
            if (entry is not None and entry.meta is not None and entry.version == version
                    and entry.meta[0].version == version):
                # The request names the cached version: checked against the cache; the
                # conditional UPDATE below refuses it if another process has moved the game on.
                row, seats = entry.meta
                self._check_play(row, seats, user, role, bot, system, version)
            else:
                with self.db.read() as conn:
                    row, seats = self._play_row(conn, game_id)
                    self._check_play(row, seats, user, role, bot, system, version)
                    game = self._load(conn, row, seats)
                entry = self._entry(game_id)
                if entry is None or entry.game is not game:  # evicted at once (cache too small)
                    entry = _Cached(row.version, game, _log_len(game.state), _estimate_bytes(game.state))
            pending = self._act_apply(user, game_id, role, verb, arg, arg_json, version, system, key,
                                      entry, row, seats)
            try:
                self.committer.run(pending.write)
            except BaseException:
                self._evict(game_id)  # the game in memory is ahead of the store
                raise
            reply, body = self._act_done(pending)
        self._act_after(pending)
        return reply, body

    @staticmethod
    def _act_request(verb: Any, arg: Any, system: bool) -> tuple[str, str]:
        """The action's verb (``undo`` as the engine's) and its argument's JSON, checked."""
        if not isinstance(verb, str) or not verb or len(verb) > 80:
            raise BadRequest("verb must be a non-empty string of at most 80 characters.")
        _check_text(verb, "verb")
        if verb == "undo":
            verb = UNDO
        elif verb.startswith(".") and verb not in (UNDO, RESIGN) and not (system and verb == FINISH_VERB):
            raise BadRequest(f"Unknown action {verb!r}.")
        arg_json = _arg_json(arg)
        if len(arg_json) > 10_000:
            raise BadRequest("arg is too large.")
        return verb, arg_json

    def _act_apply(self, user: User | None, game_id: int, role: str, verb: str, arg: Any, arg_json: str,
                   version: int, system: bool, key: tuple[int, str, int, str] | None, entry: _Cached,
                   row: Any, seats: list[Seat]) -> _Pending:
        """The action applied to the game in memory (game lock held, the request checked
        against ``row`` and ``seats``), with the write that stores it."""
        game = entry.game
        if not system and game.rules.default_verb is not None and verb == game.rules.default_verb:
            # "the published default, by deadline" is the server's to play (deadlines.py)
            raise BadRequest(f"Only the server plays {verb!r}, when a deadline passes.", code="server_only")
        before = list(game.active())
        try:
            self._apply(game, game_id, role, verb, arg)
        except BaseException:
            self._evict(game_id)  # the rules may have changed the state before refusing
            raise
        new_version = version + 1
        active = list(game.active())
        result = game.result()
        turn_changed = active != before or result is not None
        now = _now()
        entries = game.state.get("log")
        log_rows = entry.log_rows if isinstance(entries, list) else -1
        snap: tuple[str, int | None] | None = split_state(game.state) if turn_changed else None
        user_id = None if user is None else user.id
        pace = row.pace

        active_json = json.dumps(active)

        def write(conn: Connection) -> None:
            status = ACTIVE if result is None else FINISHED_STATUS
            if ADVANCE_GAME.run(conn, (new_version, active_json, result, status, now,
                                       None if result is None else now, game_id, version)) != 1:
                raise StaleVersion("The game changed while your action was applied: reload and try again.")
            INSERT_ACTION.run(conn, (game_id, new_version, role, verb, arg_json, user_id, now))
            if log_rows >= 0 and isinstance(entries, list):
                store.write_log(conn, game_id, log_rows, entries)
            if snap is not None:
                INSERT_SNAPSHOT.run(conn, (game_id, new_version, active_json, snap[0], snap[1]))
                gone = [r for r in before if r not in active]
                new = [r for r in active if r not in before]
                clocks.on_turn_change(conn, game_id, pace, gone, new, active, now,
                                      finished=result is not None)
                for r in gone:
                    SEATS_INACTIVE.run(conn, (game_id, r))
                for r in new:
                    SEATS_ACTIVE.run(conn, (now, game_id, r))

        return _Pending(user, game_id, role, verb, arg_json, key, game, entry, row, seats, new_version, before,
                        active, active_json, result, turn_changed, entries, log_rows, write)

    def _act_done(self, p: _Pending) -> tuple[dict[str, Any], str | None]:
        """After the action's write committed (game lock still held): the game remembered at
        its new version, the reply, and the views of every seated player rendered."""
        game, game_id, entries, log_rows = p.game, p.game_id, p.entries, p.log_rows
        grown = 0
        if isinstance(entries, list) and len(entries) > max(log_rows, 0):
            grown = STATE_MEMORY_FACTOR * sum(len(_encode(e)) for e in entries[max(log_rows, 0):])
        result = p.result
        row = p.row.advanced(p.new_version, p.active_json, result,
                             ACTIVE if result is None else FINISHED_STATUS)
        self._remember(game_id, p.new_version, game, len(entries) if isinstance(entries, list) else -1,
                       p.entry.size + grown + 64 + len(p.arg_json), (row, p.seats))
        if p.key is not None:
            with self._cache_lock:
                self._keys[p.key] = (p.new_version, p.verb, p.arg_json)
                while len(self._keys) > IDEMPOTENCY_KEYS:
                    self._keys.popitem(last=False)
        reply: dict[str, Any] = {
            "game_id": game_id, "version": p.new_version, "role": p.role,
            "status": ACTIVE if result is None else FINISHED_STATUS, "result": result,
            "active": list(p.active), "view": None, "can_undo": False}
        body: str | None = None
        roles = [p.role] if p.user is not None else []  # the acting player's own view
        watching = self.bus.roles(game_id)  # None among them: a socket whose role is not known yet
        if watching:
            # The views of the other players with a socket here, now: each push then finds its
            # text ready (no thread hop, no rendering when it is sent). A player without one
            # (away, or on another worker) gets the view rendered when it is asked for.
            roles.extend(seat.role for seat in p.seats
                         if seat.user_id is not None and seat.role != p.role
                         and (seat.role in watching or None in watching))
        if roles:  # rendered together, from the game just written
            rendered = self._rendered_many(game, game_id, p.new_version, roles)
            if p.user is not None:
                own = rendered[0]
                reply["view"], reply["can_undo"], body = own.view, own.can_undo, own.body
        return reply, body

    def _act_after(self, p: _Pending) -> None:
        """After the game's lock is released: the change announced, notifications, bots."""
        self._after_change(p.game_id, {"version": p.new_version, "active": p.active, "before": p.before,
                                       "result": p.result, "turn_changed": p.turn_changed}, p.seats)

    # ----- a socket's action on the event loop --------------------------------------------
    def act_begin(self, user: User, game_id: int, role: str, verb: Any, arg: Any, version: int,
                  key: str | None = None) -> _Pending | None:
        """The first half of :meth:`act_keyed`, for the event loop: the action checked against
        the game in memory and applied there, its game's lock held on behalf of the returned
        :class:`_Pending`, whose ``write`` the caller gives to the group commit
        (:meth:`act_commit`) and which it then ends with :meth:`act_end`.

        Never waits: None when this would have to (the game's lock is taken, the game is not
        in memory at ``version`` with its seats, the key was seen before): then
        :meth:`act_keyed` (in a thread) does the work. Refusals raise as there."""
        if key is not None and (not isinstance(key, str) or not key or len(key) > 64):
            raise BadRequest("An idempotency key ('key') is a string of 1-64 characters.")
        verb, arg_json = self._act_request(verb, arg, False)
        self._check_id(game_id)
        ident = None if key is None else (game_id, role, user.id, key)
        lock = self._locks[game_id % LOCK_STRIPES]
        token = object()
        if not lock.acquire(token, blocking=False):
            return None
        try:
            with self._cache_lock:
                seen = ident is not None and ident in self._keys
            entry = self._entry(game_id)
            if (seen or entry is None or entry.meta is None or entry.version != version
                    or entry.meta[0].version != version):
                lock.release(token)
                return None
            row, seats = entry.meta
            self._check_play(row, seats, user, role, False, False, version)
            pending = self._act_apply(user, game_id, role, verb, arg, arg_json, version, False, ident,
                                      entry, row, seats)
        except BaseException:
            lock.release(token)
            raise
        pending.owner = token
        return pending

    def act_commit(self, p: _Pending, then: Callable[[BaseException | None], None]) -> None:
        """Give the action's write to the group commit; ``then(error)`` is called on the
        writer's thread when it has ended. Runs the write here if the writer is closed."""
        if self.committer.submit(p.write, then):
            return
        error: BaseException | None = None
        try:
            self.committer.run(p.write)
        except BaseException as exc:  # noqa: BLE001 - handed on like the writer's
            error = exc
        then(error)

    def act_end(self, p: _Pending, error: BaseException | None) -> tuple[int, int, bool, str]:
        """The second half of a socket's action begun with :meth:`act_begin`, once its write
        has ended (``error`` None when it committed): as :meth:`act_keyed` answers. Releases
        the game's lock, from whichever thread calls it."""
        try:
            if error is not None:
                self._evict(p.game_id)  # the game in memory is ahead of the store
                raise error
            reply, body = self._act_done(p)
        finally:
            self._locks[p.game_id % LOCK_STRIPES].release(p.owner)
        self._act_after(p)
        assert body is not None
        return p.new_version, p.new_version, False, body

    def act_keyed(self, user: User, game_id: int, role: str, verb: str, arg: Any, version: int,
                  key: str | None = None) -> tuple[int, int, bool, str]:
        """:meth:`act` for the play socket: (the action's version, the version of the view
        returned, whether ``key`` had already been applied, the encoded body of ``role``'s
        view).

        ``key`` (an idempotency key chosen by the client, at most 64 characters) makes a
        retry safe: a request whose key this process has already applied for the same game
        and role is not applied again; the answer is the role's view at the game's current
        version and the version the first request got. The keys of the last
        :data:`IDEMPOTENCY_KEYS` actions are held in memory (a restart forgets them; the
        version check still refuses the retry then, with 409)."""
        if key is not None and (not isinstance(key, str) or not key or len(key) > 64):
            raise BadRequest("An idempotency key ('key') is a string of 1-64 characters.")
        ident = None if key is None else (game_id, role, user.id, key)
        try:
            reply, body = self.act_body(user, game_id, role, verb, arg, version, key=ident)
        except _Repeated as seen:
            if (seen.verb, seen.arg_json) != (UNDO if verb == "undo" else verb, _arg_json(arg)):
                raise BadRequest("This idempotency key was used for another action.", code="key_reused") from None
            current, body = self._view(user, game_id, role, None)
            return seen.version, int(current["version"]), True, body
        assert body is not None  # a user's action always gets its view
        return int(reply["version"]), int(reply["version"]), False, body

    def _check_play(self, row: Any, seats: list[Seat], user: User | None, role: str, bot: bool,
                    system: bool, version: int) -> None:
        if not system:
            self._check_actor(row, seats, user, role, bot)
        if row.status == OPEN:
            raise Conflict("The game has not started yet.", code="not_started")
        if row.status == "paused":  # roses.server.umpiring: the umpire's pause
            raise Conflict("The umpire has paused the game: no move is taken until he resumes it.",
                           code="paused")
        if row.status != ACTIVE:
            raise Conflict("The game is over.", code="game_over")
        if version != row.version:
            raise StaleVersion(
                f"Your request was made on version {version} of the game, but it is now at "
                f"version {row.version}: reload the game and try again.")

    def resign(self, user: User, game_id: int, role: str | None, version: int | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._visible_row(conn, game_id, user)
        mine = [s.role for s in seats if s.user_id == user.id]
        if role is None:
            if len(mine) != 1:
                raise BadRequest("Say which role resigns." if mine else "You hold no seat in this game.")
            role = mine[0]
        return self.act(user, game_id, role, RESIGN, None, row.version if version is None else version)

    @staticmethod
    def _check_actor(row: Any, seats: list[Seat], user: User | None, role: str, bot: bool) -> None:
        seat = next((s for s in seats if s.role == role), None)
        if seat is None:
            raise BadRequest(f"This game has no role {role!r}; roles: {', '.join(s.role for s in seats)}.")
        if bot:
            if seat.bot is None:
                raise Forbidden(f"{role} is not played by a bot.", code="not_your_seat")
            return
        if user is None or seat.user_id != user.id:
            if row.is_private and (user is None or not any(s.user_id == user.id for s in seats)):
                raise NotFound(f"There is no game {row.id}.", code="unknown_game")
            raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")

    @staticmethod
    def _apply(game: Game, game_id: int, role: str, verb: str, arg: Any) -> None:
        try:
            game.apply(role, verb, arg)
        except CannotUndo as exc:
            raise Invalid(_safe_message(game, game_id, role, str(exc), verb, arg), code="cannot_undo") from exc
        except NotYourTurn as exc:
            raise Invalid(_safe_message(game, game_id, role, str(exc), verb, arg), code="not_your_turn") from exc
        except RosesError as exc:  # IllegalAction and the like: the rules' own message
            raise Invalid(_safe_message(game, game_id, role, str(exc), verb, arg)) from exc
        except Exception as exc:
            # A rules module choking on a malformed argument: say so without any detail, which
            # could carry hidden information, and log only where it happened.
            log.warning("rules error on %s in game %s: %s", verb, game_id, where(exc))
            raise Invalid(f"The action {verb!r} with that argument is not valid.", code="malformed_action") from exc

    def _after_change(self, game_id: int, change: dict[str, Any], seats: list[Seat]) -> None:
        active = tuple(change["active"])
        version = int(change["version"])
        self.bus.publish(Event(GAME_CHANGED, game_id, version, active))
        if change["result"] is not None:
            users = tuple(s.user_id for s in seats if s.user_id is not None)
            self.notifiers.notify(Event(FINISHED, game_id, version, (), users,
                                        {"result": change["result"]}))
        elif change["turn_changed"]:
            new = [r for r in active if r not in change["before"]]
            users = tuple(s.user_id for s in seats if s.user_id is not None and s.role in new)
            if users:
                self.notifiers.notify(Event(TURN, game_id, version, active, users))
        self._bots_may_move(game_id, list(active), seats)

    def _bots_may_move(self, game_id: int, active: list[str], seats: list[Seat]) -> None:
        if self.on_bot_turn is not None and any(s.bot and s.role in active for s in seats):
            self.on_bot_turn(game_id)

    def bot_turns(self, game_id: int) -> tuple[int, str, list[tuple[str, str, dict[str, Any], Any]], float]:
        """For the bot runner: (version, game id, [(role, bot name, view, determiniser)], think
        seconds the game's bots used so far) of the active bot seats. The determiniser
        (``roses.ai.bot.Determinizer`` or None) only hands out re-sampled states consistent
        with the role's knowledge, never the true state."""
        with self._game_lock(game_id), self.db.read() as conn:
            row = self._row(conn, game_id)
            if row.status != ACTIVE:
                return row.version, row.game, [], 0.0
            seats = self._seats(conn, game_id)
            active = _active_list(row.active)
            bots = [s for s in seats if s.bot and s.role in active]
            if not bots:
                return row.version, row.game, [], 0.0
            used = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(db.seats.c.bot_seconds), 0.0))
                                .where(db.seats.c.game_id == game_id)).scalar()
            game = self._load(conn, row)
            return row.version, row.game, [
                (s.role, str(s.bot), game.view(s.role), Determinizer.bind(game.rules, game.state, s.role))
                for s in bots], float(used or 0.0)

    def add_bot_time(self, game_id: int, role: str, seconds: float) -> None:
        """Count ``seconds`` of thought of the bot in ``role``'s seat (the per-game cap)."""
        with self.db.write() as conn:
            conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role)
                         .values(bot_seconds=db.seats.c.bot_seconds + seconds))

    def pending_bot_games(self) -> list[int]:
        with self.db.read() as conn:
            rows = conn.execute(sa.select(db.games.c.id, db.games.c.active)
                                .join(db.seats, db.seats.c.game_id == db.games.c.id)
                                .where(db.games.c.status == ACTIVE, db.seats.c.bot.is_not(None))).all()
        return sorted({r.id for r in rows})

    def stalled_bot_games(self, older_than: float) -> list[int]:
        """Running games where a bot seat is to act and nothing happened for ``older_than``
        seconds: their bot's move was left to a server that is gone (or never scheduled)."""
        with self.db.read() as conn:
            rows = conn.execute(sa.select(db.games.c.id, db.games.c.active, db.seats.c.role)
                                .join(db.seats, db.seats.c.game_id == db.games.c.id)
                                .where(db.games.c.status == ACTIVE, db.seats.c.bot.is_not(None),
                                       db.games.c.updated_at <= _now() - older_than)).all()
        return sorted({r.id for r in rows if r.role in _active_list(r.active)})

    # ----- chat and notes ----------------------------------------------------------------
    def visible_play_row(self, conn: Connection, game_id: int, user: User | None,
                         invite: str | None = None) -> tuple[PlayRow, list[Seat]]:
        """:meth:`_visible_row` without the game's state and, when the game is in memory, with
        its cached seats (the reads of chat and messages)."""
        row, seats = self._play_row(conn, game_id)
        if not self._may_see(row, seats, user, invite):
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        return row, seats

    def _player_row(self, conn: Connection, game_id: int, user: User) -> tuple[Any, list[Seat]]:
        row, seats = self.visible_play_row(conn, game_id, user)
        if not any(s.user_id == user.id for s in seats):
            raise Forbidden("Only the game's players may use its chat.", code="not_seated")
        return row, seats

    def chat(self, user: User, game_id: int, since: int = 0) -> list[dict[str, Any]]:
        with self.db.read() as conn:
            return self.chat_in(conn, user, game_id, since)

    def chat_in(self, conn: Connection, user: User, game_id: int, since: int = 0) -> list[dict[str, Any]]:
        """:meth:`chat` inside the caller's read transaction."""
        self._player_row(conn, game_id, user)
        rows = SELECT_CHAT.all(conn, (game_id, since))
        return [{"id": r[0], "user": r[3], "text": r[1], "time": r[2]} for r in rows]

    def post_chat(self, user: User, game_id: int, text: str) -> dict[str, Any]:
        text = (text or "").strip()
        if not text or len(text) > MAX_CHAT:
            raise BadRequest(f"A chat message has 1-{MAX_CHAT} characters.")
        with self.db.read() as conn:
            self._player_row(conn, game_id, user)
        if self.limit_chat is not None:
            self.limit_chat(user)
        now = _now()
        with self.db.write() as conn:
            self._player_row(conn, game_id, user)
            cid = conn.execute(db.chat.insert().values(game_id=game_id, user_id=user.id, text=text,
                                                       created_at=now).returning(db.chat.c.id)).scalar_one()
        self.bus.publish(Event("chat", game_id, data={"id": int(cid)}))
        return {"id": int(cid), "user": user.name, "text": text, "time": now}

    def _note_role(self, conn: Connection, game_id: int, user: User, role: str) -> None:
        _, seats = self._visible_row(conn, game_id, user)
        if not any(s.role == role and s.user_id == user.id for s in seats):
            raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")

    def get_note(self, user: User, game_id: int, role: str) -> str:
        """``user``'s own notes for ``role`` (a later holder of the seat does not see them)."""
        n = db.notes.c
        with self.db.read() as conn:
            self._note_role(conn, game_id, user, role)
            text = conn.execute(sa.select(n.text).where(
                n.game_id == game_id, n.user_id == user.id, n.role == role)).scalar()
        return str(text or "")

    def put_note(self, user: User, game_id: int, role: str, text: str) -> str:
        if len(text) > MAX_NOTE:
            raise BadRequest(f"A note has at most {MAX_NOTE} characters.")
        n = db.notes.c
        mine = sa.and_(n.game_id == game_id, n.user_id == user.id, n.role == role)
        with self.db.write() as conn:
            self._note_role(conn, game_id, user, role)
            done = conn.execute(db.notes.update().where(mine).values(text=text, updated_at=_now())).rowcount
            if not done:
                try:
                    with conn.begin_nested():  # another worker may insert it at the same moment
                        conn.execute(db.notes.insert().values(game_id=game_id, user_id=user.id, role=role,
                                                              text=text, updated_at=_now()))
                except sa.exc.IntegrityError:
                    conn.execute(db.notes.update().where(mine).values(text=text, updated_at=_now()))
        return text

    # ----- replay and export -------------------------------------------------------------
    def _finished_row(self, conn: Connection, game_id: int, user: User | None,
                      invite: str | None) -> tuple[Any, list[Seat]]:
        row, seats = self._visible_row(conn, game_id, user, invite)
        if row.status != FINISHED_STATUS:
            raise Conflict("Replay and export open when the game is over: before that they would "
                           "reveal hidden information.", code="game_running")
        return row, seats

    @staticmethod
    def _actions(conn: Connection, game_id: int, upto: int | None = None) -> list[dict[str, Any]]:
        q = (sa.select(db.actions.c.seq, db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
             .where(db.actions.c.game_id == game_id).order_by(db.actions.c.seq))
        if upto is not None:
            q = q.where(db.actions.c.seq <= upto)
        return [{"role": a.role, "verb": a.verb, "arg": json.loads(a.arg)} for a in conn.execute(q)]

    def replay_info(self, user: User | None, game_id: int, invite: str | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            acts = self._actions(conn, game_id)
        return {"game_id": game_id, "steps": len(acts) + 1, "roles": [s.role for s in seats],
                "result": row.result, "actions": acts}

    def replay_step(self, user: User | None, game_id: int, step: int, role: str = OBSERVER,
                    invite: str | None = None) -> dict[str, Any]:
        """The view ``role`` had after ``step`` actions (0: after setup), of a finished game."""
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            if not 0 <= step <= row.version:
                raise NotFound(f"Step {step} is outside 0..{row.version}.", code="no_such_step")
            if role != OBSERVER and role not in [s.role for s in seats]:
                raise BadRequest(f"This game has no role {role!r}.")
            # The snapshot before the step's action (its label); its log is a prefix of the rows.
            seq, text, log_len = SELECT_SNAPSHOT.first(conn, (game_id, max(step - 1, 0))) or (0, "{}", None)
            state = join_state(text, log_len, lambda n: store.log_entries(conn, game_id, n))
            rows = conn.execute(sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                                .where(db.actions.c.game_id == game_id, db.actions.c.seq > seq,
                                       db.actions.c.seq <= step).order_by(db.actions.c.seq)).all()
            last = conn.execute(sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                                .where(db.actions.c.game_id == game_id, db.actions.c.seq == step)).first()
        rules = self._rules(row.game)
        game = Game(rules=rules, seed=int(row.seed), scenario=row.scenario,
                    options=json.loads(row.options), actions=[], state=state)
        label = None
        for i, a in enumerate(rows):
            if i == len(rows) - 1 and last is not None:  # the step's action, labelled as it was offered
                label = _label(rules, game.state, a.role, a.verb, json.loads(a.arg))
            game.apply(a.role, a.verb, json.loads(a.arg))
        return {"game_id": game_id, "step": step, "role": role,
                "action": None if last is None else {"role": last.role, "verb": last.verb,
                                                     "arg": json.loads(last.arg)},
                "action_label": label, "view": rules.view(game.state, role)}

    def export(self, user: User | None, game_id: int, invite: str | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            return self._record(conn, row, seats)

    def _record(self, conn: Connection, row: Any, seats: list[Seat]) -> dict[str, Any]:
        acts = self._actions(conn, row.id, row.version)
        stored = self._fresh(conn, row)[0].state
        return {
            "format": EXPORT_FORMAT, "game": row.game, "scenario": row.scenario,
            "options": json.loads(row.options), "seed": row.seed, "actions": acts,
            "title": row.title, "status": row.status, "result": row.result, "private": bool(row.is_private),
            "players": [{"role": s.role, "user": s.user_name, "bot": s.bot} for s in seats],
            "seat_changes": seat_changes(conn, row.id),
            "version": row.version,
            "digest": digest(stored),
            "created_at": row.created_at, "started_at": row.started_at, "finished_at": row.finished_at,
        }

    # ----- admin -------------------------------------------------------------------------
    def all_game_ids(self) -> list[int]:
        with self.db.read() as conn:
            return [int(r.id) for r in conn.execute(
                sa.select(db.games.c.id).where(db.games.c.status != OPEN).order_by(db.games.c.id))]

    def admin_export(self, game_id: int) -> dict[str, Any]:
        """The full record of any game, running or not (for ``roses admin export``)."""
        with self.db.read() as conn:
            row = self._row(conn, game_id)
            if row.status == OPEN:
                raise Conflict("The game has not started: there is nothing to export.", code="not_started")
            return self._record(conn, row, self._seats(conn, game_id))

    def admin_seat(self, game_id: int, role: str, user_name: str | None = None,
                   bot: str | None = None) -> None:
        """Give a seat to a user or a bot, at any time (e.g. after ``roses admin import``)."""
        if bot is not None:
            _check_bot(bot, self.bot_caps)
        with self._game_lock(game_id), self.db.write() as conn:
            running = self._row(conn, game_id).status != OPEN
            before = conn.execute(sa.select(db.seats.c.user_id, db.seats.c.bot).where(
                db.seats.c.game_id == game_id, db.seats.c.role == role)).first()
            uid = None
            if user_name is not None:
                uid = conn.execute(sa.select(db.users.c.id).where(
                    db.users.c.name_key == user_name.lower())).scalar()
                if uid is None:
                    raise NotFound(f"There is no user {user_name!r}.", code="unknown_user")
            done = conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role)
                                .values(user_id=uid, bot=bot)).rowcount
            if not done or before is None:
                raise BadRequest(f"Game {game_id} has no role {role!r}.")
            if running:  # in the game's public record, as every seat change of a running game
                names = dict(conn.execute(sa.select(db.users.c.id, db.users.c.name).where(
                    db.users.c.id.in_([i for i in (before.user_id, uid) if i is not None]))).all())
                old_name = names.get(before.user_id) or (f"the bot {before.bot}" if before.bot else "nobody")
                new_name = names.get(uid) or (f"the bot {bot}" if bot else "nobody")
                conn.execute(db.seat_changes.insert().values(
                    game_id=game_id, role=role, from_user_id=before.user_id, from_name=names.get(before.user_id),
                    to_user_id=uid, to_name=names.get(uid), created_at=_now(),
                    text=f"{role}'s seat passed from {old_name} to {new_name}: the server's administrator "
                         "gave it."))
        self._forget_seats(game_id)
        self.bus.publish(Event(GAME_CHANGED, game_id))
        with self.db.read() as conn:
            row = self._row(conn, game_id)
            seats = self._seats(conn, game_id)
        if row.status == OPEN:
            self._maybe_autostart(game_id)
        else:
            self._bots_may_move(game_id, _active_list(row.active), seats)

    def rebuild(self, game_id: int, *, fix: bool = False) -> dict[str, Any]:
        """Replay the action log from setup and check the stored state (and snapshots) against it.

        With ``fix``, a mismatching stored state and the snapshots are rewritten from the log.
        """
        with self._game_lock(game_id), self.db.write() as conn:
            row = self._row(conn, game_id)
            if row.status == OPEN:
                return {"game_id": game_id, "ok": True, "actions": 0, "message": "not started"}
            rules = self._rules(row.game)
            record = {"seed": row.seed, "scenario": row.scenario, "options": json.loads(row.options),
                      "actions": self._actions(conn, game_id, row.version)}
            game = Game.new(rules, int(row.seed), row.scenario, record["options"])
            snaps = {int(r.seq): (r.state, r.log_len) for r in conn.execute(
                sa.select(db.snapshots.c.seq, db.snapshots.c.state, db.snapshots.c.log_len)
                .where(db.snapshots.c.game_id == game_id))}

            def same(stored_snap: tuple[str, int | None] | None, state: dict[str, Any]) -> bool:
                if stored_snap is None:
                    return False
                if stored_snap[1] is None:  # a snapshot that holds its whole state
                    return stored_snap[0] == state_text(state)
                return stored_snap == split_state(state)

            bad_snaps: list[int] = []
            expected_snaps: dict[int, tuple[str, int | None]] = {0: split_state(game.state)}
            if not same(snaps.get(0), game.state):
                bad_snaps.append(0)
            for seq, entry in enumerate(record["actions"], start=1):
                before = list(game.active())
                game.apply(entry["role"], entry["verb"], entry["arg"])
                if list(game.active()) != before or game.result() is not None:
                    expected_snaps[seq] = split_state(game.state)
                    if not same(snaps.get(seq), game.state):
                        bad_snaps.append(seq)
            bad_snaps += [s for s in snaps if s not in expected_snaps]
            try:
                stored_digest: str | None = digest(self._fresh(conn, row)[0].state)
            except (Conflict, RosesError, LookupError, ValueError):
                stored_digest = None
            log_rows = [json.loads(r.entry) for r in conn.execute(
                sa.select(db.log_entries.c.entry).where(db.log_entries.c.game_id == game_id)
                .order_by(db.log_entries.c.idx))]
            final_log = game.state.get("log")
            log_ok = log_rows == (final_log if isinstance(final_log, list) else [])
            ok = (stored_digest == game.digest() and game.result() == row.result and not bad_snaps
                  and log_ok)
            out = {"game_id": game_id, "ok": ok, "actions": len(record["actions"]),
                   "stored_digest": stored_digest, "replayed_digest": game.digest(),
                   "bad_snapshots": sorted(set(bad_snaps)), "log_ok": log_ok, "fixed": False}
            if not ok and fix:
                active = list(game.active())
                result = game.result()
                conn.execute(db.snapshots.delete().where(db.snapshots.c.game_id == game_id))
                conn.execute(db.snapshots.insert(), [
                    {"game_id": game_id, "seq": seq, "state": text, "log_len": log_len,
                     "active": json.dumps(rules.active(json.loads(text)))}
                    for seq, (text, log_len) in sorted(expected_snaps.items())])
                store.replace_log(conn, game_id, final_log if isinstance(final_log, list) else [])
                conn.execute(db.games.update().where(db.games.c.id == game_id).values(
                    state=None, active=json.dumps(active), result=result,
                    status=ACTIVE if result is None else FINISHED_STATUS, ))
                out["fixed"] = True
            self._evict(game_id)
        if out["fixed"]:
            # No version: the state changed at the same version, so sockets read it again.
            self.bus.publish(Event(GAME_CHANGED, game_id))
        return out

    def import_record(self, record: dict[str, Any], *, private: bool | None = None) -> int:
        """Store a game exported by :meth:`admin_export` (or :meth:`Game.record`) as a new game.

        The log is replayed and checked; players are matched to existing users by name.
        """
        try:
            rules = self._rules(str(record["game"]))
            seed = int(record["seed"])
            scenario = str(record["scenario"])
            options = dict(record.get("options") or {})
            entries = [{"role": str(a["role"]), "verb": str(a["verb"]), "arg": a.get("arg")}
                       for a in record.get("actions", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRequest(f"Not a game record: {exc}") from exc
        game = Game.new(rules, seed, scenario, options)
        roles = list(game.state.get("roles") or rules.roles(scenario, options))
        snaps = [(0, game.active(), *split_state(game.state))]
        for seq, entry in enumerate(entries, start=1):
            before = list(game.active())
            try:
                game.apply(entry["role"], entry["verb"], entry["arg"])
            except RosesError as exc:
                raise BadRequest(f"Action {seq} does not replay: {exc}") from exc
            if list(game.active()) != before or game.result() is not None:
                snaps.append((seq, list(game.active()), *split_state(game.state)))
        if record.get("digest") and record["digest"] != game.digest():
            raise BadRequest("The replayed state does not match the record's digest.")
        players = {p.get("role"): p for p in record.get("players", []) if isinstance(p, dict)}
        now = _now()
        result = game.result()
        with self.db.write() as conn:
            gid = int(conn.execute(db.games.insert().values(
                game=rules.id, scenario=scenario, options=canonical_json(options),
                title=str(record.get("title") or f"{rules.title} (imported)")[:120], owner_id=None,
                is_private=bool(record.get("private", False) if private is None else private),
                invite_token=secrets.token_urlsafe(16), status=ACTIVE if result is None else FINISHED_STATUS,
                seed=seed, version=len(entries), state=None,
                active=json.dumps(game.active()), result=result,
                created_at=float(record.get("created_at") or now), updated_at=now,
                started_at=record.get("started_at") or now,
                finished_at=None if result is None else (record.get("finished_at") or now),
            ).returning(db.games.c.id)).scalar_one())
            seat_rows = []
            for i, role in enumerate(roles):
                p = players.get(role, {})
                uid = None
                if p.get("user"):
                    uid = conn.execute(sa.select(db.users.c.id).where(
                        db.users.c.name_key == str(p["user"]).lower())).scalar()
                seat_rows.append({"game_id": gid, "role": role, "position": i, "user_id": uid,
                                  "bot": p.get("bot")})
            conn.execute(db.seats.insert(), seat_rows)
            if entries:
                conn.execute(db.actions.insert(), [
                    {"game_id": gid, "seq": seq, "role": e["role"], "verb": e["verb"],
                     "arg": json.dumps(e["arg"], sort_keys=True, separators=(",", ":")),
                     "user_id": None, "created_at": now}
                    for seq, e in enumerate(entries, start=1)])
            conn.execute(db.snapshots.insert(), [
                {"game_id": gid, "seq": seq, "active": json.dumps(active), "state": text, "log_len": log_len}
                for seq, active, text, log_len in snaps])
            final_log = game.state.get("log")
            if isinstance(final_log, list):
                store.replace_log(conn, gid, final_log)
        return gid


class _Repeated(Exception):  # noqa: N818 - a signal inside the service, not an error
    """An action whose idempotency key was already applied (version, verb, arg JSON)."""

    def __init__(self, version: int, verb: str, arg_json: str) -> None:
        super().__init__(version)
        self.version, self.verb, self.arg_json = version, verb, arg_json


def seat_changes(conn: Connection, game_id: int) -> list[dict[str, Any]]:
    """The public record of a running game's seat changes, oldest first (``roses.server.tables``)."""
    c = db.seat_changes.c
    rows = conn.execute(sa.select(c.role, c.from_name, c.to_name, c.text, c.created_at)
                        .where(c.game_id == game_id).order_by(c.id)).all()
    return [{"role": r.role, "from": r.from_name, "to": r.to_name, "text": r.text, "at": r.created_at}
            for r in rows]


def _check_text(text: str, what: str) -> None:
    """BadRequest unless ``text`` can be written as UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadRequest(f"{what} must be text: it holds a lone surrogate.") from exc


def _arg_json(arg: Any) -> str:
    """An action's argument as stored (``actions.arg``); BadRequest if it is not plain JSON.
    The arguments most actions have (none, a number, a plain ASCII string) are written
    directly, as ``json.dumps`` writes them."""
    kind = type(arg)
    if arg is None:
        return "null"
    if kind is int:  # not bool: type() is exact
        return str(arg)
    if kind is str and arg.isascii() and not _NEEDS_ESCAPE.search(arg):
        return f'"{arg}"'
    try:
        text = json.dumps(arg, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise BadRequest("arg must be plain JSON.") from exc
    if "\\ud" in text:  # an escaped surrogate: a pair (a character beyond the BMP) or a lone one
        try:
            json.dumps(arg, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            raise BadRequest("arg must be text: it holds a lone surrogate.") from exc
    return text


#: What ``json.dumps`` escapes in an ASCII string.
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\\x7f]')


def _label(rules: Rules, state: dict[str, Any], role: str, verb: str, arg: Any) -> str:
    """The text of an action as ``role`` was offered it (``Rules.label``; see roses.engine.labels)."""
    meta = {UNDO: "Undo", "undo": "Undo", RESIGN: "Resign", FINISH_VERB: "The game is ended"}
    if verb in meta:
        return meta[verb]
    try:
        return str(rules.label(state, role, verb, arg))
    except Exception:
        return fallback_label(verb, arg)


def _withheld_view(game: Game, role: str) -> dict[str, Any]:
    """What is sent instead of a view that would show hidden information."""
    return {"prompt": "This view is withheld: it would show hidden information (a rules error, "
                      "logged for the administrators).",
            "log": [], "active": list(game.active()), "withheld": True}


def _safe_message(game: Game, game_id: int, role: str, message: str, verb: str = "",
                  arg: Any = None) -> str:
    """The rules' refusal message, unless it names something ``role`` may not know.

    Rules messages must never carry hidden information; this is a second line of defence. A
    secret the request itself wrote (a refusal may quote the argument, as in "York cannot
    move Warwick/L now.") is not a leak: what the asker sent is given back whether or not it
    names a secret, so the answer never tells which side of the secret set an argument is on.
    """
    try:
        tokens = game.rules.secrets(game.state, role)
    except Exception as exc:  # noqa: BLE001 - cannot check it: withhold it
        log.warning("secrets() failed in game %s: %s", game_id, where(exc))
        return REFUSED
    sent = _request_texts(verb, arg)
    if any(token and token in message and not any(token in text for text in sent) for token in tokens):
        log.warning("a rules message to %s in game %s named hidden information; withheld", role, game_id)
        return REFUSED
    return message


#: What a refusal says instead of a rules message that names hidden information.
REFUSED = "That action is not allowed now."


def _request_texts(verb: str, arg: Any) -> list[str]:
    """The ways a rules message may quote a request: the verb, the argument as ``str``,
    ``repr`` and JSON, and every key and scalar inside it."""
    out = [verb]
    if arg is None:
        return out
    out += [str(arg), repr(arg)]
    with contextlib.suppress(TypeError, ValueError):
        out += [json.dumps(arg), json.dumps(arg, ensure_ascii=False)]
    stack = [arg]
    while stack and len(out) < 1000:
        item = stack.pop()
        if isinstance(item, dict):
            stack += list(item.keys()) + list(item.values())
        elif isinstance(item, (list, tuple)):
            stack += list(item)
        elif item is not None:
            out.append(str(item))
    return out


def _describe_rules(rules: Rules) -> dict[str, Any]:
    names = rules.scenario_names()
    return {"id": rules.id, "title": rules.title,
            "scenarios": [{"id": s, "name": names.get(s, s), "roles": list(rules.roles(s))}
                          for s in rules.scenarios],
            "options": rules.options_schema(), "preview": rules.preview,
            "umpire": None if rules.umpire is None else rules.umpire.role, "rounds": rules.rounds,
            "client": None if rules.client_module is None else f"/static/{rules.client_module}"}


#: The largest uploaded option (its canonical JSON), e.g. a board file.
MAX_UPLOAD = 2_000_000
#: The ``format`` of an option the player uploads as a file (:meth:`Rules.options_schema`).
UPLOAD = "roses-upload"


def setup_refused(exc: ValueError) -> BadRequest:
    """The 400 for options the rules' setup refused with ``exc``: its first line as the detail,
    and each fault it lists as ``errors`` (its ``errors`` attribute when it has one, else the
    lines of its message after the first, as "- fault")."""
    text = str(exc).strip() or "The rules refused these options."
    given = getattr(exc, "errors", None)
    if isinstance(given, list) and all(isinstance(e, str) for e in given):
        errors = list(given)
    else:
        errors = [ln.strip()[1:].strip() for ln in text.splitlines()[1:] if ln.strip().startswith("-")]
    return BadRequest(text.splitlines()[0], code="bad_setup", errors=errors[:200] or None)


def _check_options(rules: Rules, options: dict[str, Any]) -> None:
    schema = rules.options_schema()
    unknown = sorted(set(options) - set(schema))
    if unknown:
        known = ", ".join(sorted(schema)) or "none"
        raise BadOptions(f"Unknown option(s) {', '.join(unknown)}; this game's options: {known}.")
    # JSON values of the schema's types, as sent: a number given as a string is refused (the
    # rules may read "3" from a command line, a request says 3)
    kinds: dict[str, tuple[type, ...]] = {"int": (int,), "bool": (bool,), "object": (dict, type(None))}
    for name, value in options.items():
        kind = kinds.get(str(schema[name].get("type")))
        if kind is None:
            continue
        if (isinstance(value, bool) and bool not in kind) or not isinstance(value, kind):
            want = {"int": "a whole number", "bool": "true or false", "object": "a JSON object"}[schema[name]["type"]]
            raise BadOptions(f"Option {name!r} must be {want}, not {json.dumps(value)[:40]}.")
    for name, value in options.items():
        if schema[name].get("format") == UPLOAD and value is not None:
            _check_upload(name, schema[name], value)


def _check_upload(name: str, spec: dict[str, Any], value: Any) -> None:
    """An uploaded option: a JSON document (an object, for ``application/json``) of at most
    :data:`MAX_UPLOAD` bytes, with no number JSON cannot hold."""
    label = spec.get("label") or name
    if spec.get("contentMediaType", "application/json") == "application/json" and not isinstance(value, dict):
        raise BadOptions(f"{label}: the file must hold a JSON object.")
    try:
        size = len(json.dumps(value, allow_nan=False, separators=(",", ":")).encode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise BadOptions(f"{label}: the file is not plain JSON.") from exc
    if size > MAX_UPLOAD:
        raise BadOptions(f"{label}: the file is too large ({size // 1000} kB; at most {MAX_UPLOAD // 1000} kB).")


def _check_bot(name: str, caps: BotCaps) -> None:
    if not isinstance(name, str) or not name or len(name) > 80:
        raise BadRequest("A bot name is a short string, e.g. 'random'.")
    try:
        check_budget(name, caps)
    except BotBudgetError as exc:
        raise BadRequest(str(exc), code="bot_budget") from exc
    except (ValueError, KeyError) as exc:
        raise BadRequest(str(exc), code="unknown_bot") from exc
