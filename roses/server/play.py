"""Play: views, the one way in for an action, undo, resignation, and the bots' turns. Part of
:class:`GameService` (``service.py``), over the store of :mod:`roses.server.gamestore`.

How an action goes through the server: every action, whoever sends it (an HTTP request, a
play socket, a bot, the clock and deadline schedulers, an order by e-mail, the umpire), comes
in through :meth:`Play.act`, where the calling thread waits for it, or :meth:`Play.act_async`,
the same action awaited on an event loop (the play socket). The request is first checked for
form (verb, argument, idempotency key: 400; a game id out of range: 404). Then, under the
game's lock, it is checked against the game's row and seats (the seat, the game's status, the
version it was made on: 403, 404, 409) and the rules apply it to the game in memory (read from
its last snapshot and the actions after it when it is not there; a refusal is 422 and drops
the game from memory, so nothing it changed is kept). The write that stores it
(:func:`_write`) goes to the group commit, which writes the actions of many games in one
transaction: ``UPDATE games ... WHERE id = ? AND version = ?`` first (so two processes never
both write: 409 before anything is written), the action appended to ``actions`` (the
authority) with ``seq = version + 1``, the log entries it added, and when the roles to act
change a snapshot, the clocks and the seats' turn marks. A failed write drops the game from
memory. Once committed, the game is kept in memory at its new version with the idempotency
key, and the acting player's view (the answer) and those of the players whose sockets follow
the game here are rendered; the lock is released; then an :class:`Event` (no state in it)
announces the change, the notifiers tell the players whose turn began (or that the game
ended), and bots may move. :meth:`Play.act_async` takes these steps on the event loop, with
no thread while the write waits for its commit, when the game is in memory at the version
named and its lock is free; otherwise it runs :meth:`Play.act` in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from roses.ai.bot import Determinizer
from roses.engine import OBSERVER, Game
from roses.engine.errors import (
    CannotUndo,
    NotYourTurn,
    RosesError,
)
from roses.engine.game import FINISH as FINISH_VERB
from roses.engine.game import RESIGN, UNDO
from roses.engine.log import visible_entries
from roses.server import clocks, db, gamestore, store
from roses.server.auth import User
from roses.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    StaleVersion,
)
from roses.server.events import (
    FINISHED,
    GAME_CHANGED,
    ROUND,
    TURN,
    Event,
    where,
)
from roses.server.gamestore import (
    ACTIVE,
    FINISHED_STATUS,
    IDEMPOTENCY_KEYS,
    LOCK_STRIPES,
    OPEN,
    STATE_MEMORY_FACTOR,
    Acted,
    GameStore,
    Seat,
    _active_list,
    _arg_json,
    _Cached,
    _check_text,
    _encode,
    _estimate_bytes,
    _log_len,
    _Repeated,
    _safe_message,
    log,
)
from roses.server.store import (
    ADVANCE_GAME,
    INSERT_ACTION,
    INSERT_SNAPSHOT,
    SEATS_ACTIVE,
    SEATS_INACTIVE,
    PlayRow,
    split_state,
)


@dataclass(frozen=True)
class _Request:
    """An action as asked for, checked for form (:meth:`Play._act_request`)."""

    #: Who asks: the seat's user (None: the seat's bot, or the server itself).
    user: User | None
    game_id: int
    role: str
    #: The verb as the engine knows it (``undo`` given as the engine's :data:`UNDO`).
    verb: str
    arg: Any
    #: ``arg`` as ``actions.arg`` stores it (and as a repeated idempotency key is compared).
    arg_json: str
    #: The game version the request was made on.
    version: int
    #: Asked by the bot in the seat.
    bot: bool
    #: Asked by the server itself: no seat check, and ``.finish`` allowed.
    system: bool
    #: The idempotency key as remembered, (game, role, user, the client's key); None: no key.
    key: tuple[int, str, int, str] | None


@dataclass(frozen=True)
class _Outcome:
    """The game after the action: what is stored, answered and announced."""

    #: The game's new version (the request's plus one), also the action's ``seq``.
    version: int
    #: The roles to act before the action.
    before: list[str]
    #: The roles to act after it.
    active: list[str]
    #: The game's result when the action ended it, else None.
    result: str | None
    #: The round the action began (a game played in rounds, ``state["round"]`` grown), else None.
    new_round: int | None = None

    @property
    def status(self) -> str:
        return ACTIVE if self.result is None else FINISHED_STATUS

    @property
    def turn_changed(self) -> bool:
        """The roles to act changed or the game ended: a snapshot is stored, clocks start and
        stop, players are told."""
        return self.active != self.before or self.result is not None

    @property
    def left(self) -> list[str]:
        """The roles whose turn ended."""
        return [r for r in self.before if r not in self.active]

    @property
    def arrived(self) -> list[str]:
        """The roles whose turn began."""
        return [r for r in self.active if r not in self.before]

    @functools.cached_property
    def active_json(self) -> str:
        """``active`` as the game's row stores it."""
        return json.dumps(self.active)


@dataclass(frozen=True)
class _Pending:
    """An action applied to the game in memory whose write is not yet committed: the request,
    the game, the outcome and the write. The game's lock is held for it until
    :meth:`Play._act_end`."""

    request: _Request
    #: The game in memory, already moved on by the action; its ``version``, ``log_rows`` and
    #: ``size`` are still those of before it (as stored).
    cached: _Cached
    #: The game's row (as before the action) and seats, which the request was checked against.
    row: PlayRow
    seats: list[Seat]
    outcome: _Outcome
    #: Stores the action in a write transaction of the group commit (:func:`_write`).
    write: Callable[[Connection], None]
    #: On whose behalf the game's lock is held: None for the thread that took it, or the token
    #: of an action awaited on an event loop (:class:`roses.server.gamestore._GameLock`).
    lock_owner: object


def _write(r: _Request, cached: _Cached, row: PlayRow, o: _Outcome) -> Callable[[Connection], None]:
    """The write that stores an action, for the group commit: the game's row moved to its new
    version if it is still at the request's (else :class:`StaleVersion`, before anything is
    written), the action appended, the game-log entries it added, and when the turn changed,
    a snapshot, the clocks and the seats' turn marks. What it stores is read now, under the
    game's lock."""
    game_id, version, new_version, active_json = r.game_id, r.version, o.version, o.active_json
    role, verb, arg_json, user_id = r.role, r.verb, r.arg_json, None if r.user is None else r.user.id
    result, status, pace = o.result, o.status, row.pace
    now = gamestore._now()
    entries = cached.game.state.get("log")
    log_rows = cached.log_rows if isinstance(entries, list) else -1
    snap: tuple[str, int | None] | None = split_state(cached.game.state) if o.turn_changed else None
    active = o.active
    left, arrived = (o.left, o.arrived) if snap is not None else ([], [])

    def write(conn: Connection) -> None:
        if ADVANCE_GAME.run(conn, (new_version, active_json, result, status, now,
                                   None if result is None else now, game_id, version)) != 1:
            raise StaleVersion("The game changed while your action was applied: reload and try again.")
        INSERT_ACTION.run(conn, (game_id, new_version, role, verb, arg_json, user_id, now))
        if log_rows >= 0 and isinstance(entries, list):
            store.write_log(conn, game_id, log_rows, entries)
        if snap is not None:
            INSERT_SNAPSHOT.run(conn, (game_id, new_version, active_json, snap[0], snap[1]))
            clocks.on_turn_change(conn, game_id, pace, left, arrived, active, now, finished=result is not None)
            for r in left:
                SEATS_INACTIVE.run(conn, (game_id, r))
            for r in arrived:
                SEATS_ACTIVE.run(conn, (now, game_id, r))

    return write


def _settle(written: asyncio.Future[BaseException | None], error: BaseException | None) -> None:
    """On the event loop: the write of an awaited action has ended (``error`` None: committed)."""
    if not written.done():
        written.set_result(error)


class Play(GameStore):
    """Play (module docstring)."""

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
            view = rendered.view if isinstance(rendered.view, dict) else {}
            if view.get("default") is not None and role in out["active"]:
                # an open decision with a published default: when its deadline falls (the seat's
                # clock), added at each request since the clock is not part of the cached view
                deadline = clocks.seat_deadline(conn, game_id, role)
                if deadline is not None:
                    out["deadline"] = deadline
                    return out, rendered.body[:-1] + f',"deadline":{_encode(deadline)}}}'
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

    # ----- an action: one way in ----------------------------------------------------------
    def act(self, user: User | None, game_id: int, role: str, verb: Any, arg: Any,
            version: int, *, bot: bool = False, system: bool = False, key: str | None = None) -> Acted:
        """Apply one action for ``role`` (held by ``user``, or by a bot when ``bot``): the one way
        in for an action. The calling thread waits until the action is stored; a caller on an
        event loop awaits the same action with :meth:`act_async`. The answer is the reply (the
        acting user's view, as ``GET .../view`` gives it; no view without a user) with its
        encoded body.

        ``system`` is for the server itself (e.g. the clock scheduler): no seat check, and the
        meta verb ``.finish`` (arg ``[result, reason]``) is allowed.

        ``key`` (an idempotency key chosen by a client, at most 64 characters; a user's action
        only) makes a retry safe: a request whose key this process has already applied for the
        same game and role is not applied again; the answer is then the role's view at the
        game's current version, marked ``repeated``, with the version the first request got.
        The keys of the last :data:`IDEMPOTENCY_KEYS` actions are held in memory (a restart
        forgets them; the version check still refuses the retry then, with 409)."""
        return self._act_answer(self._act_request(user, game_id, role, verb, arg, version, bot, system, key))

    async def act_async(self, user: User, game_id: int, role: str, verb: Any, arg: Any, version: int, *,
                        key: str | None = None,
                        in_thread: Callable[[Callable[[], Acted]], Awaitable[Acted]] | None = None) -> Acted:
        """:meth:`act` for a user's action, awaited on an event loop (a play socket): the same
        checks, outcome and answer. When the game is in memory at ``version`` with its seats and
        its lock is free, the action is applied and its views rendered on the loop, which then
        waits for the group commit of its write without a thread; the game's lock is held for
        the action meanwhile and released once the write has ended, also when the awaiting
        task is cancelled. Otherwise (the game to read from the database, its lock taken, the
        key seen before) the action waits as :meth:`act` does, in ``in_thread`` (a function
        that awaits ``fn()`` run in a thread; default :func:`asyncio.to_thread`)."""
        request = self._act_request(user, game_id, role, verb, arg, version, False, False, key)
        pending = self._act_begin_now(request)
        if pending is None:
            run = in_thread if in_thread is not None else asyncio.to_thread
            return await run(functools.partial(self._act_answer, request))
        loop = asyncio.get_running_loop()
        written: asyncio.Future[BaseException | None] = loop.create_future()

        def then(error: BaseException | None) -> None:  # on the writer's thread, once written
            try:
                loop.call_soon_threadsafe(_settle, written, error)
            except RuntimeError:  # the loop is closed: the action ends here (its lock released)
                self._act_end_quietly(pending, error)

        try:
            self._act_submit(pending, then)
        except Exception as exc:  # nothing queued: the game leaves memory, its lock is freed
            self._act_end(pending, exc)
            raise
        try:
            error = await asyncio.shield(written)
        except asyncio.CancelledError:
            # The awaiting task was cancelled (e.g. its socket closed): the action still ends
            # once it is written.
            written.add_done_callback(lambda done: self._act_end_quietly(pending, done.result()))
            raise
        return self._act_end(pending, error)

    @staticmethod
    def _idempotency_key(user: User | None, game_id: int, role: str,
                         key: str | None) -> tuple[int, str, int, str] | None:
        if key is None:
            return None
        if not isinstance(key, str) or not key or len(key) > 64:
            raise BadRequest("An idempotency key ('key') is a string of 1-64 characters.")
        if user is None:
            raise BadRequest("Only a user's action takes an idempotency key.")
        return game_id, role, user.id, key

    def _act_request(self, user: User | None, game_id: int, role: str, verb: Any, arg: Any, version: int,
                     bot: bool, system: bool, key: str | None) -> _Request:
        """The request checked for form (its key, verb, argument and game id), before the game
        is looked at."""
        ident = self._idempotency_key(user, game_id, role, key)
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
        self._check_id(game_id)
        return _Request(user, game_id, role, verb, arg, arg_json, version, bot, system, ident)

    def _act_answer(self, r: _Request) -> Acted:
        """:meth:`act`'s answer to a checked request, waiting in this thread."""
        try:
            return self._act_waiting(r)
        except _Repeated as seen:
            if (seen.verb, seen.arg_json) != (r.verb, r.arg_json):
                raise BadRequest("This idempotency key was used for another action.", code="key_reused") from None
            current, body = self._view(r.user, r.game_id, r.role, None)
            return Acted(current, body, seen.version, repeated=True)

    def _act_waiting(self, r: _Request) -> Acted:
        """The action's three steps, each waiting as long as it must: begin (the game's lock
        taken by this thread, the game read from the database if it is not in memory at the
        version named, the action applied), write (the group commit), end."""
        lock = self._locks[r.game_id % LOCK_STRIPES]
        lock.acquire()
        try:
            pending = self._act_apply(r, *self._act_game(r), lock_owner=None)
        except BaseException:
            lock.release()
            raise
        error: BaseException | None = None
        try:
            self.committer.run(pending.write)
        except BaseException as exc:  # noqa: BLE001 - raised by _act_end, after the game leaves memory
            error = exc
        return self._act_end(pending, error)

    def _act_begin_now(self, r: _Request) -> _Pending | None:
        """The action begun without waiting: the game's lock taken on behalf of a token of its
        own and the action applied to the game in memory. None when that would mean waiting
        (the lock is taken; the game is not in memory at the version named with its seats; the
        key was seen before); refusals raise."""
        token = object()
        lock = self._locks[r.game_id % LOCK_STRIPES]
        if not lock.acquire(token, blocking=False):
            return None
        try:
            with self._cache_lock:
                seen = r.key is not None and r.key in self._keys
            found = None if seen else self._cached_at(r.game_id, r.version)
            if found is not None:
                cached, row, seats = found
                self._check_play(row, seats, r)
                return self._act_apply(r, cached, row, seats, lock_owner=token)
        except BaseException:
            lock.release(token)
            raise
        lock.release(token)
        return None

    def _cached_at(self, game_id: int, version: int) -> tuple[_Cached, PlayRow, list[Seat]] | None:
        """The game in memory with its row and seats, if it is there at ``version``."""
        entry = self._entry(game_id)
        if entry is None or entry.meta is None or entry.version != version or entry.meta[0].version != version:
            return None
        return entry, entry.meta[0], entry.meta[1]

    def _act_game(self, r: _Request) -> tuple[_Cached, PlayRow, list[Seat]]:
        """(The game's lock held by this thread) the game the action applies to, with its row
        and seats, the request checked against them; :class:`_Repeated` when its key was
        applied before (checked under the game's lock: never applied twice)."""
        if r.key is not None:
            with self._cache_lock:
                seen = self._keys.get(r.key)
            if seen is not None:
                raise _Repeated(*seen)
        found = self._cached_at(r.game_id, r.version)
        if found is not None:
            # The request names the cached version: checked against the cache; the write's
            # conditional UPDATE refuses it if another process has moved the game on.
            self._check_play(found[1], found[2], r)
            return found
        with self.db.read() as conn:
            row, seats = self._play_row(conn, r.game_id)
            self._check_play(row, seats, r)
            game = self._load(conn, row, seats)
        entry = self._entry(r.game_id)
        if entry is None or entry.game is not game:  # evicted at once (cache too small)
            entry = _Cached(row.version, game, _log_len(game.state), _estimate_bytes(game.state))
        return entry, row, seats

    def _act_apply(self, r: _Request, cached: _Cached, row: PlayRow, seats: list[Seat], *,
                   lock_owner: object) -> _Pending:
        """The action applied to the game in memory (its lock held for ``lock_owner``, the
        request checked against ``row`` and ``seats``), with the write that stores it."""
        game = cached.game
        if not r.system and game.rules.default_verb is not None and r.verb == game.rules.default_verb:
            # "the published default, by deadline" is the server's to play (deadlines.py)
            raise BadRequest(f"Only the server plays {r.verb!r}, when a deadline passes.", code="server_only")
        before = list(game.active())
        rounds = game.rules.rounds
        round_before = game.state.get("round") if rounds else None
        try:
            self._apply(game, r.game_id, r.role, r.verb, r.arg)
        except BaseException:
            self._evict(r.game_id)  # the rules may have changed the state before refusing
            raise
        round_after = game.state.get("round") if rounds else None
        new_round = (round_after if isinstance(round_after, int) and isinstance(round_before, int)
                     and round_after > round_before else None)
        outcome = _Outcome(r.version + 1, before, list(game.active()), game.result(), new_round)
        return _Pending(r, cached, row, seats, outcome, _write(r, cached, row, outcome), lock_owner)

    def _act_submit(self, p: _Pending, then: Callable[[BaseException | None], None]) -> None:
        """Give the action's write to the group commit without waiting; ``then(error)`` is
        called on the writer's thread when it has ended. Runs the write here if the writer is
        closed."""
        if self.committer.submit(p.write, then):
            return
        error: BaseException | None = None
        try:
            self.committer.run(p.write)
        except BaseException as exc:  # noqa: BLE001 - handed on like the writer's
            error = exc
        then(error)

    def _act_end(self, p: _Pending, error: BaseException | None) -> Acted:
        """The action's last step, once its write has ended (``error`` None when it committed):
        the answer made (the game's lock still held), the lock released (from whichever thread
        calls this), then the change announced. ``error`` is raised, the game in memory (ahead
        of the store) dropped."""
        try:
            if error is not None:
                self._evict(p.request.game_id)
                raise error
            acted = self._act_done(p)
        finally:
            self._locks[p.request.game_id % LOCK_STRIPES].release(p.lock_owner)
        self._after_change(p.request.game_id, p.outcome, p.seats)
        return acted

    def _act_end_quietly(self, p: _Pending, error: BaseException | None) -> None:
        """:meth:`_act_end` for an action nobody awaits any more."""
        with contextlib.suppress(Exception):
            self._act_end(p, error)

    def _act_done(self, p: _Pending) -> Acted:
        """After the action's write committed (game lock still held): the game remembered at
        its new version, the key, the reply, and the views of every seated player rendered."""
        r, o, game = p.request, p.outcome, p.cached.game
        game_id = r.game_id
        entries = game.state.get("log")
        grown, log_rows = 0, -1
        if isinstance(entries, list):
            log_rows = len(entries)
            grown = STATE_MEMORY_FACTOR * sum(len(_encode(e)) for e in entries[max(p.cached.log_rows, 0):])
        row = p.row.advanced(o.version, o.active_json, o.result, o.status)
        self._remember(game_id, o.version, game, log_rows, p.cached.size + grown + 64 + len(r.arg_json),
                       (row, p.seats))
        if r.key is not None:
            with self._cache_lock:
                self._keys[r.key] = (o.version, r.verb, r.arg_json)
                while len(self._keys) > IDEMPOTENCY_KEYS:
                    self._keys.popitem(last=False)
        reply: dict[str, Any] = {
            "game_id": game_id, "version": o.version, "role": r.role, "status": o.status,
            "result": o.result, "active": list(o.active), "view": None, "can_undo": False}
        body: str | None = None
        roles = [r.role] if r.user is not None else []  # the acting player's own view
        watching = self.bus.roles(game_id)  # None among them: a socket whose role is not known yet
        if watching:
            # The views of the other players with a socket here, now: each push then finds its
            # text ready (no thread hop, no rendering when it is sent). A player without one
            # (away, or on another worker) gets the view rendered when it is asked for.
            roles.extend(seat.role for seat in p.seats
                         if seat.user_id is not None and seat.role != r.role
                         and (seat.role in watching or None in watching))
        if roles:  # rendered together, from the game just written
            rendered = self._rendered_many(game, game_id, o.version, roles)
            if r.user is not None:
                own = rendered[0]
                reply["view"], reply["can_undo"], body = own.view, own.can_undo, own.body
        return Acted(reply, body, o.version)

    def _check_play(self, row: PlayRow, seats: list[Seat], r: _Request) -> None:
        if not r.system:
            self._check_actor(row, seats, r.user, r.role, r.bot)
        if row.status == OPEN:
            raise Conflict("The game has not started yet.", code="not_started")
        if row.status == "paused":  # roses.server.umpiring: the umpire's pause
            raise Conflict("The umpire has paused the game: no move is taken until he resumes it.",
                           code="paused")
        if row.status != ACTIVE:
            raise Conflict("The game is over.", code="game_over")
        if r.version != row.version:
            raise StaleVersion(
                f"Your request was made on version {r.version} of the game, but it is now at "
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

    def _after_change(self, game_id: int, o: _Outcome, seats: list[Seat]) -> None:
        """After an action, the game's lock released: the change announced (the sockets), the
        players notified (the game's end, or the seats whose turn began), the bots let move."""
        active = tuple(o.active)
        self.bus.publish(Event(GAME_CHANGED, game_id, o.version, active))
        if o.new_round is not None and o.result is None:
            # a round's end is the gazette's edition, whether or not the roles to act changed
            seated = tuple(s.user_id for s in seats if s.user_id is not None)
            self.notifiers.notify(Event(ROUND, game_id, o.version, active, seated, {"round": o.new_round}))
        if o.result is not None:
            users = tuple(s.user_id for s in seats if s.user_id is not None)
            self.notifiers.notify(Event(FINISHED, game_id, o.version, (), users, {"result": o.result}))
        elif o.turn_changed:
            arrived = o.arrived
            users = tuple(s.user_id for s in seats if s.user_id is not None and s.role in arrived)
            if users:
                self.notifiers.notify(Event(TURN, game_id, o.version, active, users))
        self._bots_may_move(game_id, list(active), seats)

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
                                       db.games.c.updated_at <= gamestore._now() - older_than)).all()
        return sorted({r.id for r in rows if r.role in _active_list(r.active)})
