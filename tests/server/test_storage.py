"""Storage on SQLite and PostgreSQL: migrations, transactions, the action log as authority,
snapshots, rebuild, export/import between databases, and two workers on one database."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from roses.engine import Game, digest, get_rules
from roses.server import auth, db
from roses.server.auth import User
from roses.server.db import Database
from roses.server.errors import Conflict, StaleVersion
from roses.server.service import GameService

from .conftest import make_database


def _users(database: Database) -> tuple[User, User]:
    with database.write() as conn:
        return (auth.create_user(conn, "north", "quiet harbour 1"), auth.create_user(conn, "south", "quiet harbour 1"))


def _started(svc: GameService, n: User, s: User) -> int:
    g = svc.create_game(n, "toy", role="North")
    svc.join(s, g["id"], "South")
    return int(g["id"])


def _play(svc: GameService, gid: int, n: User, s: User) -> None:
    svc.act(n, gid, "North", "pick", 2, 0)
    svc.act(s, gid, "South", "pick", 3, 1)
    svc.act(n, gid, "North", "step", None, 2)
    svc.act(n, gid, "North", "step", None, 3)
    svc.act(n, gid, "North", "undo", None, 4)


def test_migrations_match_the_schema(database: Database) -> None:
    with database.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []
    database.migrate()  # idempotent


def test_sqlite_settings(sqlite_db: Database) -> None:
    with sqlite_db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        # Durability: the WAL is synced at every commit (FULL = 2), so an acknowledged action
        # survives an OS crash or power loss, not only a crash of the server process.
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_sqlite_synchronous_can_be_chosen(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_SQLITE_SYNCHRONOUS", "normal")
    database = Database(f"sqlite:///{tmp_path}/n.db")
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1
    database.dispose()
    monkeypatch.setenv("ROSES_SQLITE_SYNCHRONOUS", "off")
    with pytest.raises(ValueError):
        Database(f"sqlite:///{tmp_path}/o.db").engine.connect()


def test_log_snapshots_and_state(database: Database) -> None:
    svc = GameService(database)
    n, s = _users(database)
    gid = _started(svc, n, s)
    _play(svc, gid, n, s)
    with database.read() as conn:
        row = conn.execute(sa.select(db.games).where(db.games.c.id == gid)).one()
        acts = conn.execute(sa.select(db.actions.c.seq, db.actions.c.verb).where(db.actions.c.game_id == gid)
                            .order_by(db.actions.c.seq)).all()
        snaps = conn.execute(sa.select(db.snapshots.c.seq).where(db.snapshots.c.game_id == gid)
                             .order_by(db.snapshots.c.seq)).scalars().all()
    assert row.version == 5 and [a.seq for a in acts] == [1, 2, 3, 4, 5]
    assert [a.verb for a in acts] == ["pick", "pick", "step", "step", ".undo"]
    # Snapshots at setup and when the active roles changed (each pick), not within a turn.
    assert snaps == [0, 1, 2]
    record = {"seed": row.seed, "scenario": row.scenario, "options": {},
              "actions": [{"role": r, "verb": v, "arg": a} for r, v, a in
                          [("North", "pick", 2), ("South", "pick", 3), ("North", "step", None),
                           ("North", "step", None), ("North", ".undo", None)]]}
    replayed = Game.from_record(get_rules("toy"), record)
    assert replayed.digest() == digest(GameService(database).stored_state(gid))
    # The state is not rewritten by each action: snapshots hold it without its log, whose
    # entries are rows of their own (roses.server.store).
    assert row.state is None
    with database.read() as conn:
        stored = conn.execute(sa.select(db.snapshots.c.state, db.snapshots.c.log_len)
                              .where(db.snapshots.c.game_id == gid)).all()
        rows = conn.execute(sa.select(db.log_entries.c.idx, db.log_entries.c.entry)
                            .where(db.log_entries.c.game_id == gid).order_by(db.log_entries.c.idx)).all()
    assert all(json.loads(text)["log"] == [] and log_len is not None for text, log_len in stored)
    assert [r.idx for r in rows] == list(range(len(replayed.state["log"])))
    assert [json.loads(r.entry) for r in rows] == replayed.state["log"]


def test_second_worker_rebuilds_with_undo_stack(database: Database) -> None:
    svc = GameService(database)
    n, s = _users(database)
    gid = _started(svc, n, s)
    _play(svc, gid, n, s)
    other = GameService(database)  # a fresh process: no cache, rebuilt from snapshot + log
    v1, v2 = svc.view(n, gid, "North"), other.view(n, gid, "North")
    assert v1 == v2 and v2["can_undo"] is True
    other.act(n, gid, "North", "undo", None, 5)
    with pytest.raises(StaleVersion):
        svc.act(n, gid, "North", "step", None, 5)
    assert svc.view(n, gid, "North")["view"]["pos"]["North"] == 0
    assert svc.view(n, gid, "North")["can_undo"] is False


def test_concurrent_actions_one_wins(database: Database) -> None:
    """Two workers act on the same version at once: exactly one succeeds, the other gets 409."""
    n, s = _users(database)
    svc_a, svc_b = GameService(database), GameService(database)
    gid = _started(svc_a, n, s)
    svc_b.view(n, gid)  # both have the game cached at version 0
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(svc: GameService, who: User, role: str) -> None:
        barrier.wait()
        try:
            svc.act(who, gid, role, "pick", 1, 0)
            outcomes.append("ok")
        except StaleVersion:
            outcomes.append("stale")

    threads = [threading.Thread(target=run, args=(svc_a, n, "North")),
               threading.Thread(target=run, args=(svc_b, s, "South"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["ok", "stale"]
    with database.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.actions)).scalar() == 1
    assert svc_a.rebuild(gid)["ok"] and svc_b.rebuild(gid)["ok"]


def test_rebuild_detects_and_fixes_tampering(database: Database) -> None:
    svc = GameService(database)
    n, s = _users(database)
    gid = _started(svc, n, s)
    _play(svc, gid, n, s)
    assert svc.rebuild(gid) == {**svc.rebuild(gid), "ok": True, "actions": 5}
    with database.write() as conn:
        # The stored state is the last snapshot (without its log) plus the actions after it.
        last = conn.execute(sa.select(sa.func.max(db.snapshots.c.seq))
                            .where(db.snapshots.c.game_id == gid)).scalar_one()
        snap = db.snapshots.c
        state = json.loads(conn.execute(sa.select(snap.state).where(snap.game_id == gid, snap.seq == last))
                           .scalar_one())
        state["score"]["North"] = 99
        conn.execute(db.snapshots.update().where(snap.game_id == gid, snap.seq == last)
                     .values(state=json.dumps(state)))
        conn.execute(db.snapshots.delete().where(snap.game_id == gid, snap.seq == 1))
    bad = svc.rebuild(gid)
    assert last != 1
    assert bad["ok"] is False and bad["bad_snapshots"] == [1, last]
    assert bad["stored_digest"] != bad["replayed_digest"]
    assert svc.rebuild(gid, fix=True)["fixed"] is True
    assert svc.rebuild(gid)["ok"] is True
    assert svc.view(n, gid, "North")["view"]["score"]["North"] == 0


def test_export_import_between_databases(database: Database, tmp_path: Any,
                                         request: pytest.FixtureRequest) -> None:
    other_backend = "sqlite" if database.dialect == "postgresql" else "postgres"
    if other_backend == "postgres":
        target = make_database("postgres", tmp_path, request)
    else:
        target = make_database("sqlite", tmp_path, request, name="target")
    try:
        svc = GameService(database)
        n, s = _users(database)
        gid = _started(svc, n, s)
        _play(svc, gid, n, s)
        record = json.loads(json.dumps(svc.admin_export(gid)))
        with target.write() as conn:
            auth.create_user(conn, "north", "quiet harbour 1")
        svc2 = GameService(target)
        new_id = svc2.import_record(record)
        assert svc2.rebuild(new_id)["ok"]
        again = svc2.admin_export(new_id)
        assert again["digest"] == record["digest"] and again["actions"] == record["actions"]
        assert [p["user"] for p in again["players"]] == ["north", None]
        record["actions"][0]["arg"] = 9
        with pytest.raises(Exception, match="does not replay"):
            svc2.import_record(record)
    finally:
        target.dispose()


def test_racing_joins_fill_each_seat_once_and_start_once(database: Database) -> None:
    """Four users on two workers race for the two seats of a game: two win, the game starts once."""
    with database.write() as conn:
        owner = auth.create_user(conn, "owner", "quiet harbour 1")
        racers = [auth.create_user(conn, f"racer{i}", "quiet harbour 1") for i in range(4)]
    workers = [GameService(database), GameService(database)]
    gid = int(workers[0].create_game(owner, "toy")["id"])
    barrier = threading.Barrier(len(racers))
    outcomes: list[str] = []

    def race(i: int) -> None:
        barrier.wait()
        try:
            workers[i % 2].join(racers[i], gid, None if i % 2 else "North")
            outcomes.append("seated")
        except Conflict as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=race, args=(i,)) for i in range(len(racers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes.count("seated") == 2, outcomes
    info = workers[1].game(owner, gid)
    assert info["status"] == "active" and all(s["user"] for s in info["seats"])
    with database.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.snapshots)
                            .where(db.snapshots.c.game_id == gid)).scalar() == 1
    assert workers[0].rebuild(gid)["ok"]


def test_racing_signups_of_one_name(database: Database) -> None:
    barrier = threading.Barrier(3)
    outcomes: list[str] = []

    def signup() -> None:
        barrier.wait()
        try:
            with database.write() as conn:
                auth.create_user(conn, "samename", "quiet harbour 1")
            outcomes.append("ok")
        except Conflict as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=signup) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["name_taken", "name_taken", "ok"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0008_keeps_running_games(backend: str, tmp_path: Any,
                                            request: pytest.FixtureRequest) -> None:
    """A game stored before the log had rows of its own (the whole state, log included, in
    ``games.state`` and in each snapshot) loads, plays on, rebuilds and replays after migration
    0008 moves its log into ``log_entries``."""
    from roses.engine.contract import canonical_json
    from roses.server.db import migrate

    if backend == "sqlite":
        database = Database(f"sqlite:///{tmp_path}/old.db")
        admin = None
    else:
        url, _ = request.getfixturevalue("pg_schema")
        schema = f"roses_m8_{tmp_path.name[-12:].lower().replace('-', '_')}"  # type: ignore[attr-defined]
        admin = sa.create_engine(db.normalize_url(url))
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        database = Database(url, connect_args={"options": f"-csearch_path={schema}"})
    try:
        migrate(database.engine, "0007")
        rules = get_rules("toy")
        game = Game.new(rules, 7, rules.scenarios[0])
        played = [("North", "pick", 2), ("South", "pick", 3), ("North", "step", None)]
        snaps = [(0, list(game.active()), canonical_json(game.state))]
        for seq, (role, verb, arg) in enumerate(played, start=1):
            before = list(game.active())
            game.apply(role, verb, arg)
            if list(game.active()) != before:
                snaps.append((seq, list(game.active()), canonical_json(game.state)))
        assert game.state["log"]
        with database.engine.begin() as conn:
            for uid, name in ((1, "north"), (2, "south")):
                conn.execute(sa.text("INSERT INTO users (id, name, name_key, password_hash, is_admin, notify, "
                                     "created_at) VALUES (:i, :n, :n, 'x', false, false, 0)"), {"i": uid, "n": name})
            conn.execute(sa.text(
                "INSERT INTO games (id, game, scenario, options, title, is_private, status, seed, version, state, "
                "active, created_at, updated_at) VALUES (1, 'toy', :sc, '{}', 't', false, 'active', 7, 3, :st, "
                ":ac, 0, 0)"), {"sc": rules.scenarios[0], "st": json.dumps(game.state),
                                "ac": json.dumps(game.active())})
            conn.execute(sa.text("INSERT INTO seats (game_id, role, position, user_id) VALUES "
                                 "(1, 'North', 0, 1), (1, 'South', 1, 2)"))
            for seq, (role, verb, arg) in enumerate(played, start=1):
                conn.execute(sa.text("INSERT INTO actions (game_id, seq, role, verb, arg, created_at) "
                                     "VALUES (1, :s, :r, :v, :a, 0)"),
                             {"s": seq, "r": role, "v": verb, "a": json.dumps(arg)})
            for seq, active, text in snaps:
                conn.execute(sa.text("INSERT INTO snapshots (game_id, seq, active, state) VALUES (1, :s, :a, :t)"),
                             {"s": seq, "a": json.dumps(active), "t": text})
        database.migrate()
        with database.read() as conn:
            entries = [json.loads(e) for e in conn.execute(
                sa.select(db.log_entries.c.entry).where(db.log_entries.c.game_id == 1)
                .order_by(db.log_entries.c.idx)).scalars()]
        assert entries == game.state["log"]
        svc = GameService(database)
        assert digest(svc.stored_state(1)) == game.digest()
        assert svc.rebuild(1)["ok"] is True
        north = User(1, "north")
        assert svc.view(north, 1, "North")["version"] == 3
        svc.act(north, 1, "North", "step", None, 3)  # plays on
        game.apply("North", "step", None)
        assert digest(GameService(database).stored_state(1)) == game.digest()
        assert svc.rebuild(1)["ok"] is True
        svc.close()
    finally:
        database.dispose()
        if admin is not None:
            with admin.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()


def test_play_row_advanced_is_replace() -> None:
    """``PlayRow.advanced`` (the row after an action) changes the four fields an action
    changes and keeps every other one, as ``dataclasses.replace`` does."""
    import dataclasses

    from roses.server.store import PlayRow

    row = PlayRow(id=7, game="richard3", scenario="richard-iii", options="{}", owner_id=3, is_private=True,
                  invite_token="t", status="active", seed=11, version=4, active='["York"]', result=None,
                  pace="slow")
    after = row.advanced(5, '["Lancaster"]', "York", "finished")
    assert after == dataclasses.replace(row, version=5, active='["Lancaster"]', result="York", status="finished")
    assert [f.name for f in dataclasses.fields(PlayRow)] == [
        "id", "game", "scenario", "options", "owner_id", "is_private", "invite_token", "status", "seed",
        "version", "active", "result", "pace"]  # advanced() passes them in this order
