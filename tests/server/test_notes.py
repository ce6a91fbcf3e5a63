"""Private notes belong to the person who wrote them, not to the seat: whoever takes the seat
later (leaving and joining, an administrator's reassignment) does not read them."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db
from roses.server.db import Database, migrate

from .conftest import new_game, user


def test_next_holder_of_a_seat_does_not_read_the_notes(client: TestClient) -> None:
    first, second, owner = user(client, "first"), user(client, "second"), user(client, "owner")
    g = new_game(client, owner, role="South")
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/join", json={"role": "North"}, headers=first).status_code == 200
    # The game started (both seats taken): notes are written during play.
    assert client.put(f"/api/games/{gid}/notes/North", json={"text": "my plan: pick 3"},
                      headers=first).status_code == 200
    # An administrator hands North to someone else.
    client.app.state.roses.games.admin_seat(gid, "North", user_name="second")
    r = client.get(f"/api/games/{gid}/notes/North", headers=second)
    assert r.status_code == 200 and r.json()["text"] == ""
    assert client.put(f"/api/games/{gid}/notes/North", json={"text": "second's own"},
                      headers=second).status_code == 200
    # The first player no longer holds the seat: no access at all.
    assert client.get(f"/api/games/{gid}/notes/North", headers=first).status_code == 403
    # Given the seat back, the first player finds their own notes, not the second's.
    client.app.state.roses.games.admin_seat(gid, "North", user_name="first")
    assert client.get(f"/api/games/{gid}/notes/North", headers=first).json()["text"] == "my plan: pick 3"
    client.app.state.roses.games.admin_seat(gid, "North", user_name="second")
    assert client.get(f"/api/games/{gid}/notes/North", headers=second).json()["text"] == "second's own"


def test_leaving_and_joining_does_not_hand_over_notes(client: TestClient) -> None:
    a, b, owner = user(client, "leaver"), user(client, "joiner"), user(client, "host")
    g = new_game(client, owner)  # nobody seated: the game stays open
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/join", json={"role": "North"}, headers=a).status_code == 200
    assert client.put(f"/api/games/{gid}/notes/North", json={"text": "opening idea"}, headers=a).status_code == 200
    assert client.post(f"/api/games/{gid}/leave", json={}, headers=a).status_code == 200
    assert client.post(f"/api/games/{gid}/join", json={"role": "North"}, headers=b).status_code == 200
    assert client.get(f"/api/games/{gid}/notes/North", headers=b).json()["text"] == ""


def test_migration_gives_old_notes_to_the_seat_holder(tmp_path: object) -> None:
    """From the first schema to the last, on data: notes go to the seat holders, and no other
    row is lost on the way (migrations that rebuild ``users`` must not cascade into the tables
    that refer to it)."""
    database = Database(f"sqlite:///{tmp_path}/old.db")
    migrate(database.engine, "0001")
    with database.engine.begin() as conn:
        for uid in (1, 2):
            conn.execute(sa.text("INSERT INTO users (id, name, name_key, password_hash, is_admin, notify, "
                                 "created_at) VALUES (:i, :n, :n, 'x', false, false, 0)"), {"i": uid, "n": f"u{uid}"})
        conn.execute(sa.text("INSERT INTO games (id, game, scenario, options, title, is_private, status, "
                             "version, active, created_at, updated_at) VALUES (1, 'toy', 'short', '{}', 't', "
                             "false, 'active', 0, '', 0, 0)"))
        conn.execute(sa.text("INSERT INTO seats (game_id, role, position, user_id) VALUES "
                             "(1, 'North', 0, 1), (1, 'South', 1, NULL)"))
        conn.execute(sa.text("INSERT INTO notes (game_id, role, text, updated_at) VALUES "
                             "(1, 'North', 'kept', 0), (1, 'South', 'orphan', 0)"))
        conn.execute(sa.text("INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) "
                             "VALUES ('h', 2, 'c', 0, 1e12)"))
    database.migrate()
    with database.read() as conn:
        rows = conn.execute(sa.select(db.notes.c.user_id, db.notes.c.role, db.notes.c.text)).all()
        seats = conn.execute(sa.select(db.seats.c.role, db.seats.c.user_id).order_by(db.seats.c.role)).all()
        sessions = conn.execute(sa.select(db.sessions.c.user_id)).scalars().all()
    assert [tuple(r) for r in rows] == [(1, "North", "kept")]
    assert [tuple(r) for r in seats] == [("North", 1), ("South", None)] and sessions == [2]
    database.dispose()
