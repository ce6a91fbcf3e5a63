"""The store every part of the game service works over: the database, the games held in memory
(bounded by an estimate of their size) with their rendered views, the per-game locks, the
idempotency keys of socket actions, reading a game's row, seats and state (from its last
snapshot and the actions after it), the catalogue of games, and the checks shared by the
parts. :class:`GameService` (``service.py``) is this store with its parts: lobby
(``lobby.py``), play (``play.py``), chat and notes (``chat.py``), replay and export
(``replay.py``) and administration (``admin.py``).

Everything goes through the engine contract (:func:`roses.engine.get_rules`, :class:`Game`,
``Rules.view``); nothing here knows any game's internals. A snapshot is taken only where the
engine's undo stack is empty, so a game can be rebuilt exactly (undo included) from the last
snapshot and the actions after it.
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

from roses.engine import OBSERVER, Game, available_games, get_rules
from roses.engine.contract import Rules, canonical_json
from roses.engine.errors import (
    BadOptions,
    UnknownGame,
)
from roses.engine.game import FINISH as FINISH_VERB
from roses.engine.game import RESIGN, UNDO, digest
from roses.engine.labels import fallback_label
from roses.server import db, guard, store
from roses.server.auth import User
from roses.server.botcaps import BotBudgetError, BotCaps, check_budget
from roses.server.errors import (
    BadRequest,
    Conflict,
    NotFound,
    StaleVersion,
)
from roses.server.events import (
    GAME_CHANGED,
    Event,
    EventBus,
    LocalBus,
    Notifiers,
    where,
)
from roses.server.store import (
    SELECT_ACTIONS,
    SELECT_SNAPSHOT,
    GroupCommit,
    PlayRow,
    join_state,
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
    action on an event loop may also hold it on behalf of a token (an object of its own, see
    :meth:`roses.server.play.Play.act_async`) while the loop waits for the action's write,
    and release it from whichever thread ends that wait."""

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


class Acted(dict[str, Any]):
    """The answer to an action (:meth:`roses.server.play.Play.act`): the reply, a dict in the
    shape of ``GET .../view`` (``game_id``, ``version``, ``role``, ``status``, ``result``,
    ``active``, ``view``, ``can_undo``; no view for an action without a user), with ``body``,
    its encoded text (None without a user), ``seq``, the action's own version, and
    ``repeated``, whether its idempotency key had been applied before (then the reply is the
    role's view at the game's current version)."""

    def __init__(self, reply: dict[str, Any], body: str | None, seq: int, *, repeated: bool = False) -> None:
        super().__init__(reply)
        self.body = body
        self.seq = seq
        self.repeated = repeated


class GameStore:
    """The store of the game service (module docstring); thread-safe."""

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
            # the umpire's seat the rules declare, when the game has it
            "umpire": (rules.umpire.role if rules.umpire is not None
                       and any(s.role == rules.umpire.role for s in seats) else None),
        }
        if user is not None and row.owner_id == user.id and row.invite_token:
            info["invite_token"] = row.invite_token
            info["invite_link"] = f"/games/{row.id}?invite={row.invite_token}"
        return info

    def _owner_name(self, conn: Connection, owner_id: int | None) -> str | None:
        if owner_id is None:
            return None
        return conn.execute(sa.select(db.users.c.name).where(db.users.c.id == owner_id)).scalar()

    @staticmethod
    def catalogue() -> list[dict[str, Any]]:
        out = []
        for gid in available_games():
            rules = get_rules(gid)
            out.append(_describe_rules(rules))
        return out

    @staticmethod
    def describe(game: str) -> dict[str, Any]:
        return _describe_rules(GameStore._rules(game))

    @staticmethod
    def view_tables(game: str) -> dict[str, Any]:
        """The public facts a client needs to draw the game's views (``Rules.view_tables``)."""
        return GameStore._rules(game).view_tables()

    def _bots_may_move(self, game_id: int, active: list[str], seats: list[Seat]) -> None:
        if self.on_bot_turn is not None and any(s.bot and s.role in active for s in seats):
            self.on_bot_turn(game_id)

    @staticmethod
    def _actions(conn: Connection, game_id: int, upto: int | None = None) -> list[dict[str, Any]]:
        q = (sa.select(db.actions.c.seq, db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
             .where(db.actions.c.game_id == game_id).order_by(db.actions.c.seq))
        if upto is not None:
            q = q.where(db.actions.c.seq <= upto)
        return [{"role": a.role, "verb": a.verb, "arg": json.loads(a.arg)} for a in conn.execute(q)]

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


def listed_options(rules: Rules, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as a listing of games shows them: an uploaded option (its schema's
    ``format`` is :data:`UPLOAD`, or a JSON object option, e.g. a board file of up to
    :data:`MAX_UPLOAD`) is replaced by a short stand-in, ``{"uploaded": true, "name": its
    "name" if it has one, "bytes": the size of its canonical JSON}``; the game's own
    description, export and record keep it whole."""
    schema = rules.options_schema()
    out: dict[str, Any] = {}
    for key, value in options.items():
        spec = schema.get(key) or {}
        if isinstance(value, (dict, list)) and (spec.get("format") == UPLOAD or spec.get("type") == "object"):
            name = value.get("name") if isinstance(value, dict) else None
            out[key] = {"uploaded": True, "name": name if isinstance(name, str) else None,
                        "bytes": len(canonical_json(value).encode("utf-8"))}
        else:
            out[key] = value
    return out


def setup_refused(exc: Exception) -> BadRequest:
    """The 400 for options the rules' setup refused with ``exc`` (a ``ValueError`` or
    :class:`RosesError`): each fault it lists as ``errors`` (its ``errors`` attribute when it has
    one, else the lines of its message after the first that begin with "-"), with its first line
    as the detail; a message that lists none is the detail whole."""
    text = str(exc).strip() or "The rules refused these options."
    given = getattr(exc, "errors", None)
    if isinstance(given, list) and all(isinstance(e, str) for e in given):
        errors = list(given)
    else:
        errors = [ln.strip()[1:].strip() for ln in text.splitlines()[1:] if ln.strip().startswith("-")]
    if not errors:
        return BadRequest(text, code="bad_setup")
    return BadRequest(text.splitlines()[0], code="bad_setup", errors=errors[:200])


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
