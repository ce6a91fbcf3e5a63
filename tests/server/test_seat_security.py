"""Seats change only in the open (roses/server/tables.py, GameService.join): in a running game
the creator cannot take a present player's seat (and read its hidden information), a seat
passes only when its holder leaves or is away by the game's abandonment rule, every change is
in the game's public record, and nobody holds two seats of a game whose roles hide things from
each other; the umpire's seat excludes every player seat for the whole game. On SQLite and
PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db, tables
from roses.server.auth import create_user
from roses.server.db import Database
from roses.server.errors import Conflict, Forbidden
from roses.server.service import GameService
from tests.server.conftest import new_game, user

# (game, options, the creator's role, the other player's role)
GAMES = [
    ("richard3", {}, "York", "Lancaster"),
    ("plantagenet", {}, "York", "Lancaster"),
    ("kingmaker", {"players": 2}, "P1", "P2"),
]


def _people(database: Database, prefix: str, n: int) -> list[Any]:
    with database.write() as conn:
        return [create_user(conn, f"{prefix}{i}", "correct horse") for i in range(n)]


def _two_player(database: Database, game: str, options: dict[str, Any], mine: str, theirs: str,
                prefix: str) -> tuple[GameService, int, list[Any]]:
    svc = GameService(database)
    people = _people(database, prefix, 3)
    gid = int(svc.create_game(people[0], game, options=options, role=mine, preview=True)["id"])
    svc.join(people[1], gid, theirs)
    assert svc.game(people[0], gid)["status"] == "active"
    return svc, gid, people


def _seat(svc: GameService, who: Any, gid: int, role: str) -> tuple[str | None, str | None]:
    return {s["role"]: (s["user"], s["bot"]) for s in svc.game(who, gid)["seats"]}[role]


def _wait(database: Database, gid: int, role: str, days: float) -> None:
    """The seat of ``role`` has waited ``days`` for its holder's decision."""
    with database.write() as conn:
        since = conn.execute(sa.select(db.seats.c.active_since).where(
            db.seats.c.game_id == gid, db.seats.c.role == role)).scalar()
        assert since is not None, f"{role} is not on the move"
        conn.execute(db.seats.update().where(db.seats.c.game_id == gid, db.seats.c.role == role)
                     .values(active_since=float(since) - days * 86400))


@pytest.mark.parametrize(("game", "options", "mine", "theirs"), GAMES)
def test_the_creator_cannot_take_a_present_players_seat(database: Database, game: str, options: dict[str, Any],
                                                        mine: str, theirs: str) -> None:
    """The creator asks to vacate the other player's seat (to give it to himself and read its
    hand): refused, nothing changes, nothing is recorded; he cannot be given it either."""
    svc, gid, (owner, other, _) = _two_player(database, game, options, mine, theirs, f"cr{game[:3]}")
    with pytest.raises(Conflict) as exc:
        tables.vacate(svc, owner, gid, theirs)
    assert exc.value.code == "player_present"
    assert _seat(svc, owner, gid, theirs) == (other.name, None)
    with pytest.raises(Conflict):
        tables.assign(svc, owner, gid, theirs, owner.name)
    with pytest.raises(Forbidden):
        svc.view(owner, gid, theirs)
    assert svc.game(other, gid)["seat_changes"] == []


@pytest.mark.parametrize(("game", "options", "mine", "theirs"), GAMES)
def test_a_seat_passes_when_its_holder_leaves_and_every_player_sees_it(
        database: Database, game: str, options: dict[str, Any], mine: str, theirs: str) -> None:
    svc, gid, (owner, other, newcomer) = _two_player(database, game, options, mine, theirs, f"lv{game[:3]}")
    tables.vacate(svc, other, gid, theirs, "random")
    tables.assign(svc, owner, gid, theirs, newcomer.name)
    texts = [c["text"] for c in svc.game(owner, gid)["seat_changes"]]
    assert texts == [f"{theirs}'s seat passed from {other.name} to the bot random: {other.name} left.",
                     f"{theirs}'s seat passed to {newcomer.name}: {owner.name} gave it."]
    assert [c["text"] for c in svc.game(newcomer, gid)["seat_changes"]] == texts
    assert _seat(svc, owner, gid, theirs) == (newcomer.name, None)


def test_the_creator_frees_the_seat_of_a_player_away_past_the_abandonment_rule(database: Database) -> None:
    """Away: the seat has waited tables.ABANDON_AFTER (a week) for its holder's decision. Six
    days is not enough; eight are, and the record says why."""
    svc, gid, (owner, other, newcomer) = _two_player(database, "kingmaker", {"players": 2}, "P1", "P2", "ab")
    on_move = [r for r in svc.game(owner, gid)["active"] if r == "P2"]
    role = on_move[0] if on_move else "P1"
    holder, creator = (other, owner) if role == "P2" else (owner, None)
    if creator is None:
        pytest.skip("P2 is not on the move at the start of this deal")
    _wait(database, gid, role, 6)
    with pytest.raises(Conflict):
        tables.vacate(svc, creator, gid, role)
    _wait(database, gid, role, 2)
    tables.vacate(svc, creator, gid, role)
    (change,) = svc.game(creator, gid)["seat_changes"]
    assert change["from"] == holder.name and change["to"] is None
    assert change["text"] == (f"{role}'s seat passed from {holder.name} to nobody: {holder.name} was away "
                              f"(7 days without his decision), {creator.name} freed it.")
    with pytest.raises(Conflict) as exc:  # he holds P1: he may not take P2 too
        tables.assign(svc, creator, gid, role, creator.name)
    assert exc.value.code == "one_seat"
    tables.assign(svc, creator, gid, role, newcomer.name)
    assert _seat(svc, creator, gid, role) == (newcomer.name, None)


def test_nobody_joins_two_seats_before_the_start(database: Database) -> None:
    svc = GameService(database)
    (alice, bob) = _people(database, "two", 2)
    gid = int(svc.create_game(alice, "richard3", role="York")["id"])
    with pytest.raises(Conflict) as exc:
        svc.join(alice, gid, "Lancaster")
    assert exc.value.code == "one_seat"
    with pytest.raises(Conflict):
        svc.join(alice, gid)  # a random free seat
    assert _seat(svc, alice, gid, "Lancaster") == (None, None)
    svc.join(bob, gid, "Lancaster")
    assert svc.game(alice, gid)["status"] == "active"


def _umpire_game(database: Database, prefix: str) -> tuple[GameService, int, list[Any]]:
    svc = GameService(database)
    people = _people(database, prefix, 4)
    gid = int(svc.create_game(people[0], "kingmaker", options={"players": 2, "umpire": True}, role="P1",
                              preview=True)["id"])
    return svc, gid, people


def test_a_player_never_holds_the_umpire_seat(database: Database) -> None:
    """Before the start: P1's player cannot join the umpire's seat. During the game: once the
    umpire's seat is vacated, neither a player nor the creator may claim it or be given it; a
    player who left his seat may not become the umpire either (he saw his hand), and the former
    umpire may not take a player's seat (he saw every hand)."""
    svc, gid, (p1, p2, ump, stranger) = _umpire_game(database, "um")
    with pytest.raises(Conflict) as exc:
        svc.join(p1, gid, "umpire")
    assert exc.value.code == "one_seat"
    svc.join(p2, gid, "P2")
    svc.join(ump, gid, "umpire")
    assert svc.game(p1, gid)["status"] == "active"
    tables.vacate(svc, ump, gid, "umpire")
    for who in (p1, p2):
        with pytest.raises(Conflict) as exc:
            tables.claim(svc, who, gid, "umpire")
        assert exc.value.code == "one_seat"
    with pytest.raises(Conflict):
        tables.assign(svc, p1, gid, "umpire", p1.name)
    with pytest.raises(Conflict):
        tables.assign(svc, p1, gid, "umpire", p2.name)
    tables.vacate(svc, p2, gid, "P2")
    with pytest.raises(Conflict):
        tables.claim(svc, p2, gid, "umpire")  # left P2: still no umpire
    with pytest.raises(Conflict):
        tables.claim(svc, ump, gid, "P2")  # the former umpire: no player seat
    assert _seat(svc, p1, gid, "umpire") == (None, None)
    tables.claim(svc, p2, gid, "P2")  # his own seat back
    tables.claim(svc, stranger, gid, "umpire")
    assert _seat(svc, p1, gid, "umpire") == (stranger.name, None)
    assert len(svc.game(stranger, gid)["seat_changes"]) == 4


def test_the_api_refuses_the_creators_vacate_with_a_clear_409(client: TestClient) -> None:
    alice, bob = user(client, "apialice"), user(client, "apibob")
    g = new_game(client, alice, game="richard3", role="York")
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/join", json={"role": "York"}, headers=alice)
    assert r.status_code == 409
    assert client.post(f"/api/games/{gid}/join", json={"role": "Lancaster"}, headers=bob).status_code == 200
    r = client.post(f"/api/games/{gid}/seats/Lancaster/vacate", json={}, headers=alice)
    assert r.status_code == 409 and r.json()["code"] == "player_present"
    seats = client.get(f"/api/games/{gid}", headers=bob).json()
    assert {s["role"]: s["user"] for s in seats["seats"]}["Lancaster"] == "apibob"
    assert seats["seat_changes"] == []


def test_the_administrators_seat_change_is_in_the_public_record(database: Database) -> None:
    """``roses admin seat`` on a running game: done, and recorded like every seat change."""
    svc, gid, (owner, other, newcomer) = _two_player(database, "richard3", {}, "York", "Lancaster", "adm")
    svc.admin_seat(gid, "Lancaster", user_name=newcomer.name)
    (change,) = svc.game(owner, gid)["seat_changes"]
    assert change["text"] == (f"Lancaster's seat passed from {other.name} to {newcomer.name}: "
                              "the server's administrator gave it.")


def test_the_seat_changes_are_in_the_exported_record(database: Database) -> None:
    svc, gid, (owner, other, newcomer) = _two_player(database, "richard3", {}, "York", "Lancaster", "exp")
    tables.vacate(svc, other, gid, "Lancaster")
    record = svc.admin_export(gid)
    assert [c["text"] for c in record["seat_changes"]] == [
        f"Lancaster's seat passed from {other.name} to nobody: {other.name} left."]
