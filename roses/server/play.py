"""Play: views, the one way in for an action (:meth:`Play.act`, and its steps for a socket on
the event loop), undo, resignation, and the bots' turns. Part of :class:`GameService`
(``service.py``), over the store of :mod:`roses.server.gamestore`.

Each action is one write transaction: the request names the game version it was made on; the
action is refused with :class:`StaleVersion` (409) when the game has moved on. The action is
appended to ``actions`` (the authority) with ``seq = version + 1``, the state is written with
``UPDATE games ... WHERE id = ? AND version = ?`` (so two workers can never both write), and a
snapshot is stored whenever the set of active roles changes. After commit the service
publishes an :class:`Event` (no state in it), calls the notifiers and lets bots move."""

from __future__ import annotations

import json
from collections.abc import Callable
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
    _Pending,
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

    def act(self, user: User | None, game_id: int, role: str, verb: Any, arg: Any,
            version: int, *, bot: bool = False, system: bool = False, key: str | None = None) -> Acted:
        """Apply one action for ``role`` (held by ``user``, or by a bot when ``bot``): the one way
        in for an action (a socket on the event loop takes the same steps without waiting:
        :meth:`act_begin`, :meth:`act_commit`, :meth:`act_end`). The answer is the reply (the
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
        ident = self._idempotency_key(user, game_id, role, key)
        try:
            reply, body = self._act_locked(user, game_id, role, verb, arg, version, bot, system, ident)
        except _Repeated as seen:
            if (seen.verb, seen.arg_json) != (UNDO if verb == "undo" else verb, _arg_json(arg)):
                raise BadRequest("This idempotency key was used for another action.", code="key_reused") from None
            current, body = self._view(user, game_id, role, None)
            return Acted(current, body, seen.version, repeated=True)
        return Acted(reply, body, int(reply["version"]))

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

    def _act_locked(self, user: User | None, game_id: int, role: str, verb: Any, arg: Any, version: int,
                    bot: bool, system: bool, key: tuple[int, str, int, str] | None) -> tuple[dict[str, Any], str | None]:
        """:meth:`act` under the game's lock: the reply and its encoded body (None when there is
        no user); ``key`` is remembered once the action is committed."""
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
        now = gamestore._now()
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

    def act_begin(self, user: User, game_id: int, role: str, verb: Any, arg: Any, version: int,
                  key: str | None = None) -> _Pending | None:
        """:meth:`act`'s steps for a user's action on the event loop, the first: the action
        checked against the game in memory and applied there, its game's lock held on behalf of
        the returned :class:`_Pending`, whose ``write`` the caller gives to the group commit
        (:meth:`act_commit`) and which it then ends with :meth:`act_end`.

        Never waits: None when this would have to (the game's lock is taken, the game is not
        in memory at ``version`` with its seats, the key was seen before): then :meth:`act`
        (in a thread) does the work. Refusals raise as there."""
        ident = self._idempotency_key(user, game_id, role, key)
        verb, arg_json = self._act_request(verb, arg, False)
        self._check_id(game_id)
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

    def act_end(self, p: _Pending, error: BaseException | None) -> Acted:
        """The last of :meth:`act`'s steps on the event loop (:meth:`act_begin`), once its write
        has ended (``error`` None when it committed): as :meth:`act` answers. Releases the
        game's lock, from whichever thread calls it."""
        try:
            if error is not None:
                self._evict(p.game_id)  # the game in memory is ahead of the store
                raise error
            reply, body = self._act_done(p)
        finally:
            self._locks[p.game_id % LOCK_STRIPES].release(p.owner)
        self._act_after(p)
        return Acted(reply, body, p.new_version)

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
