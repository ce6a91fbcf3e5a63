"""Administration: every game's id, an export with the secrets, seating a user or a bot by
hand, rebuilding a game's state from its action log, importing a record. Part of
:class:`GameService` (``service.py``), over the store of :mod:`roses.server.gamestore`."""

from __future__ import annotations

import json
import secrets
from typing import Any

import sqlalchemy as sa

from roses.engine import Game
from roses.engine.contract import canonical_json
from roses.engine.errors import (
    RosesError,
)
from roses.engine.game import digest
from roses.server import db, gamestore, store
from roses.server.errors import (
    BadRequest,
    Conflict,
    NotFound,
)
from roses.server.events import (
    GAME_CHANGED,
    Event,
)
from roses.server.gamestore import (
    ACTIVE,
    FINISHED_STATUS,
    OPEN,
    _active_list,
    _check_bot,
)
from roses.server.lobby import Lobby
from roses.server.store import (
    split_state,
    state_text,
)


class Administration(Lobby):
    """Administration (module docstring)."""

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
                    to_user_id=uid, to_name=names.get(uid), created_at=gamestore._now(),
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
        now = gamestore._now()
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
