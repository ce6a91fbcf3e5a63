"""Kingmaker tables of 2 to 8 on the server: seats for N players, bots in any
seat, invitations, the seat order published at the start from the game's seed, and a player
who leaves replaced by a newcomer who sees only that seat's view (roses/server/tables.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.engine import Game, get_rules
from roses.engine.game import digest
from roses.server import db, tables
from roses.server.auth import create_user
from roses.server.db import Database
from roses.server.errors import Conflict, Forbidden
from roses.server.service import GameService
from tests.server.conftest import new_game, user

RULES = get_rules("kingmaker")


def _users(database: Database, prefix: str, n: int) -> list[Any]:
    with database.write() as conn:
        return [create_user(conn, f"{prefix}{i}", "correct horse") for i in range(n)]


def _seed(database: Database, gid: int) -> int:
    with database.read() as conn:
        return int(conn.execute(sa.select(db.games.c.seed).where(db.games.c.id == gid)).scalar_one())


@pytest.mark.parametrize("n", range(2, 9))
def test_a_table_of_n_players_with_bots_in_any_seats_starts_with_the_seeded_seat_order(
        sqlite_db: Database, n: int) -> None:
    """Kingmaker is for 2 to 8 players: N seats P1..PN; the person takes any seat and bots the
    others; the game starts when every seat is taken, and its deal follows from the seed."""
    svc = GameService(sqlite_db)
    (owner,) = _users(sqlite_db, f"t{n}_", 1)
    rnd = random.Random(n)
    roles = [f"P{i + 1}" for i in range(n)]
    mine = rnd.choice(roles)
    info = svc.create_game(owner, "kingmaker", options={"players": n}, role=mine, preview=True,
                           bots={r: "random" for r in roles if r != mine})
    assert [s["role"] for s in info["seats"]] == roles
    assert info["status"] == "active"  # every seat taken: the game starts
    assert {s["role"]: s["bot"] for s in info["seats"]} == {r: None if r == mine else "random" for r in roles}
    assert info["my_roles"] == [mine]
    seed = _seed(sqlite_db, info["id"])
    again = Game.new(RULES, seed, info["scenario"], info["options"])
    assert again.state["roles"] == roles
    assert digest(svc.stored_state(info["id"])) == again.digest()  # the deal follows from the seed
    view = svc.view(owner, info["id"], mine)
    assert view["role"] == mine and view["view"] == again.view(mine)


def test_nine_players_or_one_are_refused(sqlite_db: Database) -> None:
    svc = GameService(sqlite_db)
    (owner,) = _users(sqlite_db, "nine", 1)
    for n in (1, 9):
        with pytest.raises(Exception) as exc:  # noqa: PT011 - BadRequest from the options check
            svc.create_game(owner, "kingmaker", options={"players": n}, preview=True)
        assert getattr(exc.value, "status", 400) == 400


def test_the_lobby_api_creates_a_private_table_with_invitations_and_bots(client: TestClient) -> None:
    """Through the API as the lobby form sends it: a private 4-player campaign, two bots, the
    creator in P1; the invitation link lets a friend take P3, and the game starts; without the
    link the game is not found."""
    alice, bob, carol = user(client, "kmalice"), user(client, "kmbob"), user(client, "kmcarol")
    g = new_game(client, alice, game="kingmaker", options={"players": 4}, private=True, role="P1",
                 preview=True, bots={"P2": "random", "P4": "random"})
    assert g["status"] == "open" and len(g["seats"]) == 4
    gid, token = g["id"], g["invite_token"]
    assert client.get(f"/api/games/{gid}", headers=carol).status_code == 404
    r = client.post(f"/api/games/{gid}/join", json={"role": "P3"}, headers=bob)
    assert r.status_code == 404  # no invitation, no game
    r = client.post(f"/api/games/{gid}/join", json={"role": "P3", "invite": token}, headers=bob)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active"
    assert r.json()["my_roles"] == ["P3"]


def _started(database: Database, prefix: str, n: int = 3) -> tuple[GameService, int, list[Any]]:
    svc = GameService(database)
    people = _users(database, prefix, n + 1)
    gid = int(svc.create_game(people[0], "kingmaker", options={"players": n}, role="P1", preview=True)["id"])
    for i in range(1, n):
        svc.join(people[i], gid, f"P{i + 1}")
    assert svc.game(people[0], gid)["status"] == "active"
    return svc, gid, people


def test_a_player_who_leaves_is_replaced_and_the_newcomer_sees_only_his_seat(database: Database) -> None:
    """P2 leaves; a bot stands in; the creator gives the seat to a newcomer, who gets P2's view
    (the same as the rules give P2), none of another seat's secrets, and cannot ask for
    another seat's view. The old player no longer sees P2's view."""
    svc, gid, people = _started(database, "rep")
    owner, leaver, newcomer = people[0], people[1], people[3]
    before = svc.view(leaver, gid, "P2")
    assert tables.vacate(svc, leaver, gid, "P2", "random") == {"game_id": gid, "role": "P2", "user": None,
                                                                 "bot": "random"}
    info = svc.game(owner, gid)
    assert {s["role"]: (s["user"], s["bot"]) for s in info["seats"]}["P2"] == (None, "random")
    assert svc.view(leaver, gid)["role"] == "Observer"  # his seat's view is gone
    with pytest.raises(Forbidden):
        svc.act(leaver, gid, "P2", "x", None, before["version"])
    with pytest.raises(Forbidden):  # only the creator assigns
        tables.assign(svc, leaver, gid, "P2", newcomer.name)
    info = tables.assign(svc, owner, gid, "P2", newcomer.name)
    assert {s["role"]: (s["user"], s["bot"]) for s in info["seats"]}["P2"] == (newcomer.name, None)
    view = svc.view(newcomer, gid)
    assert view["role"] == "P2"
    assert view["view"] == before["view"]  # nothing moved: exactly P2's view
    with pytest.raises(Forbidden):
        svc.view(newcomer, gid, "P1")
    game = Game.from_record(RULES, svc.admin_export(gid))
    text = json.dumps(view["view"])
    hidden = RULES.secrets(game.state, "P2")
    assert hidden and not [t for t in hidden if t and t in text]
    p1_cards = game.view("P1").get("hand") or []
    assert not any(json.dumps(c) in text for c in p1_cards if c not in (game.view("P2").get("hand") or []))


def test_an_empty_seat_is_claimed_with_the_invitation(client: TestClient) -> None:
    alice, bob, dave, eve = (user(client, n) for n in ("clalice", "clbob", "cldave", "cleve"))
    g = new_game(client, alice, game="kingmaker", options={"players": 2}, private=True, role="P1", preview=True)
    gid, token = g["id"], g["invite_token"]
    r = client.post(f"/api/games/{gid}/join", json={"role": "P2", "invite": token}, headers=bob)
    assert r.json()["status"] == "active"
    r = client.post(f"/api/games/{gid}/seats/P2/vacate", json={}, headers=dave)
    assert r.status_code == 404  # a stranger does not even see the private game
    r = client.post(f"/api/games/{gid}/seats/P2/vacate", json={}, headers=bob)
    assert r.status_code == 200, r.text
    seat = {s["role"]: s for s in client.get(f"/api/games/{gid}", headers=alice).json()["seats"]}["P2"]
    assert seat["user"] is None and seat["bot"] is None
    assert client.post(f"/api/games/{gid}/seats/P2/claim", headers=dave).status_code == 404
    r = client.post(f"/api/games/{gid}/seats/P2/claim?invite={token}", headers=dave)
    assert r.status_code == 200, r.text
    assert r.json()["my_roles"] == ["P2"]
    r = client.post(f"/api/games/{gid}/seats/P2/claim?invite={token}", headers=eve)
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = client.post(f"/api/games/{gid}/seats/P1/vacate", json={"bot": "no-such-bot"}, headers=alice)
    assert r.status_code == 400
    assert {s["role"]: s["user"] for s in client.get(f"/api/games/{gid}", headers=alice).json()["seats"]}["P1"] \
        == "clalice"  # a refused request changes nothing


def test_seat_changes_before_the_start_are_the_lobbys(sqlite_db: Database) -> None:
    svc = GameService(sqlite_db)
    a, b = _users(sqlite_db, "open", 2)
    gid = int(svc.create_game(a, "kingmaker", options={"players": 3}, role="P1", preview=True)["id"])
    with pytest.raises(Conflict):
        tables.claim(svc, b, gid, "P2")


def test_the_lobby_asks_for_the_seats_of_the_chosen_options(client: TestClient) -> None:
    """The lobby's form rebuilds its seats when the number of players or the umpire option
    changes; bad options get the rules' reason."""
    r = client.post("/api/rules/kingmaker/roles", json={"options": {"players": 5, "umpire": True}})
    assert r.status_code == 200, r.text
    assert r.json()["roles"] == ["P1", "P2", "P3", "P4", "P5", "umpire"]
    assert client.post("/api/rules/kingmaker/roles", json={"options": {}}).json()["roles"] == ["P1", "P2", "P3", "P4"]
    r = client.post("/api/rules/kingmaker/roles", json={"options": {"players": 9}})
    assert r.status_code == 400 and r.json()["code"] == "bad_setup"
    r = client.post("/api/rules/kingmaker/roles", json={"options": {"colour": "red"}})
    assert r.status_code == 400 and "colour" in r.json()["detail"]
    assert client.post("/api/rules/nosuchgame/roles", json={}).status_code == 404
