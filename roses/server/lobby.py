"""The lobby: create a game, list and describe games, take and leave seats, seat bots, start
a game when every seat is taken (with the seed drawn then). Part of :class:`GameService`
(``service.py``), over the store of :mod:`roses.server.gamestore`."""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import Any

import sqlalchemy as sa

from roses.engine import Game
from roses.engine.contract import canonical_json
from roses.engine.errors import (
    RosesError,
)
from roses.server import clocks, db, gamestore, store
from roses.server.auth import User
from roses.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Unauthorized,
)
from roses.server.events import (
    GAME_CHANGED,
    STARTED,
    TURN,
    Event,
)
from roses.server.gamestore import (
    ACTIVE,
    FINISHED_STATUS,
    OPEN,
    GameStore,
    _check_bot,
    _check_options,
    _estimate_bytes,
    _log_len,
    listed_options,
    seat_changes,
    setup_refused,
)
from roses.server.store import (
    INSERT_SNAPSHOT,
    split_state,
)


class Lobby(GameStore):
    """The lobby (module docstring)."""

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
        except (RosesError, ValueError) as exc:  # bad options, or an option's content (a file)
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
        now = gamestore._now()
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
                # an uploaded board (up to 2 MB) is not sent in every listing: a stand-in
                info["options"] = listed_options(self._rules(row.game), info["options"])
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
                                  .values(updated_at=gamestore._now())).rowcount
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
                                  .values(updated_at=gamestore._now())).rowcount
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
                                  .values(updated_at=gamestore._now())).rowcount
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
            now = gamestore._now()
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
