"""The umpire's controls on the server (roses/server/umpiring.py): pause and
resume (the clocks stop, players' actions are refused with the reason, the umpire may still
rule), extend a seat's deadline; each control is the umpire's logged ruling, so it is in
every player's log and a replay reproduces it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.engine import Game, get_rules
from roses.server import db, gazette, umpiring
from roses.server.auth import create_user
from roses.server.clocks import ClockScheduler
from roses.server.db import Database
from roses.server.errors import Conflict, Forbidden
from roses.server.service import GameService
from tests.server.conftest import act, new_game, user
from tests.server.test_clocks import FakeTime, fake_time  # noqa: F401 - the fixture

RULES = get_rules("kingmaker")


def _game(database: Database, pace: str | None = "600+600") -> tuple[GameService, int, dict[str, Any]]:
    svc = GameService(database)
    with database.write() as conn:
        people = {r: create_user(conn, f"u{r.lower()}", "correct horse") for r in ("P1", "P2", "umpire")}
    gid = int(svc.create_game(people["P1"], "kingmaker", options={"players": 2, "umpire": True}, pace=pace,
                              role="P1", preview=True)["id"])
    svc.join(people["P2"], gid, "P2")
    svc.join(people["umpire"], gid, "umpire")
    assert svc.game(people["P1"], gid)["status"] == "active"
    return svc, gid, people


def _first_choice(view: dict[str, Any]) -> tuple[str, Any]:
    for verb, args in view["actions"].items():
        if verb != "undo":
            return verb, None if args is True else args[0]
    raise AssertionError("no action")


def _seats(database: Database, gid: int) -> dict[str, Any]:
    with database.read() as conn:
        return {s.role: s for s in conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid))}


def _deadline(database: Database, gid: int) -> float | None:
    with database.read() as conn:
        return conn.execute(sa.select(db.games.c.clock_deadline).where(db.games.c.id == gid)).scalar()


def test_pause_stops_the_clocks_refuses_players_and_resume_restarts_them(
        database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, people = _game(database)
    fake_time.t += 100  # both players arrange at the start: 100 s of their banks are used
    umpiring.pause(svc, people["umpire"], gid, "a player's house is flooded")
    info = svc.game(people["P1"], gid)
    assert info["status"] == "paused"
    seats = _seats(database, gid)
    assert seats["P1"].active_since is None and seats["P2"].active_since is None
    assert seats["P1"].clock == pytest.approx(500) and seats["P2"].clock == pytest.approx(500)
    assert _deadline(database, gid) is None
    # A year later nothing has run out: the scheduler leaves a paused game alone.
    fake_time.t += 365 * 86400
    assert ClockScheduler(svc, clock=fake_time).run_once() == []
    payload = svc.view(people["P1"], gid, "P1")
    verb, arg = _first_choice(payload["view"])
    with pytest.raises(Conflict) as exc:
        svc.act(people["P1"], gid, "P1", verb, arg, payload["version"])
    assert exc.value.code == "paused" and "paused" in str(exc.value)
    assert svc.game(people["P1"], gid)["version"] == payload["version"]  # nothing changed
    # The umpire may still rule; the game stays paused.
    umpiring.rule(svc, people["umpire"], gid, "Ruling: the flood counts as a storm.")
    assert svc.game(people["P1"], gid)["status"] == "paused"
    with pytest.raises(Conflict):
        umpiring.pause(svc, people["umpire"], gid)
    umpiring.resume(svc, people["umpire"], gid)
    assert svc.game(people["P1"], gid)["status"] == "active"
    seats = _seats(database, gid)
    assert seats["P1"].active_since == fake_time.t and seats["P1"].clock == pytest.approx(500)
    assert _deadline(database, gid) == pytest.approx(fake_time.t + 500)
    payload = svc.view(people["P1"], gid, "P1")
    verb, arg = _first_choice(payload["view"])
    svc.act(people["P1"], gid, "P1", verb, arg, payload["version"])  # play goes on
    # Logged: every seat reads the pause and the resumption, in order, and a replay gives them.
    texts = json.dumps(svc.view(people["P2"], gid, "P2")["view"])
    for line in ("The umpire pauses the game: a player's house is flooded", "the flood counts as a storm",
                 "The umpire resumes the game."):
        assert line in texts
    assert texts.index("pauses the game") < texts.index("resumes the game")
    record = svc.admin_export(gid)
    rulings = [a["arg"] for a in record["actions"] if a["verb"] == "rule"]
    assert rulings == ["The umpire pauses the game: a player's house is flooded",
                       "Ruling: the flood counts as a storm.", "The umpire resumes the game."]
    assert svc.rebuild(gid)["ok"]
    assert Game.from_record(RULES, record).state["result"] is None


def test_a_paused_game_is_still_in_progress_and_waits_for_nobody(database: Database) -> None:
    """The lobby's "games in progress" (list_games status=active) keeps a paused game, and no
    seat reads "your turn" in it until the umpire resumes."""
    svc, gid, people = _game(database, pace=None)
    assert svc.game(people["P1"], gid)["your_turn"]
    umpiring.pause(svc, people["umpire"], gid, "waiting for a ruling")
    listed = {g["id"]: g for g in svc.list_games(people["P1"], status="active")}
    assert gid in listed and listed[gid]["status"] == "paused"
    mine = {g["id"]: g for g in svc.list_games(people["P1"], mine=True)}
    assert not mine[gid]["your_turn"] and not svc.game(people["P1"], gid)["your_turn"]
    umpiring.resume(svc, people["umpire"], gid)
    assert svc.game(people["P1"], gid)["your_turn"]


def test_only_the_umpire_controls_the_game(database: Database) -> None:
    svc, gid, people = _game(database)
    for who in ("P1", "P2"):
        with pytest.raises(Forbidden):
            umpiring.pause(svc, people[who], gid)
        with pytest.raises(Forbidden):
            umpiring.extend(svc, people[who], gid, "P1", 3600)
    assert svc.game(people["P1"], gid)["status"] == "active"
    with pytest.raises(Conflict):
        umpiring.resume(svc, people["umpire"], gid)  # not paused


def test_extend_a_deadline(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, people = _game(database)
    before = _deadline(database, gid)
    assert before is not None
    out = umpiring.extend(svc, people["umpire"], gid, "P2", 86400)
    assert out["paused"] is False
    assert _seats(database, gid)["P2"].clock == pytest.approx(600 + 86400)
    assert _deadline(database, gid) == pytest.approx(before)  # P1 still runs out first
    umpiring.extend(svc, people["umpire"], gid, "P1", 86400)
    assert _deadline(database, gid) == pytest.approx(before + 86400)
    fake_time.t += 601  # past the old deadline: nobody is out of time
    assert ClockScheduler(svc, clock=fake_time).run_once() == []
    assert "The umpire extends P2's time by 1 day." in json.dumps(svc.view(people["P1"], gid, "P1")["view"])
    for bad in (0, -5, 10**9):
        with pytest.raises(Exception) as exc:  # noqa: PT011 - BadRequest
            umpiring.extend(svc, people["umpire"], gid, "P1", bad)
        assert exc.value.status == 400  # type: ignore[attr-defined]
    with pytest.raises(Exception) as exc:  # noqa: PT011
        umpiring.extend(svc, people["umpire"], gid, "umpire", 60)
    assert exc.value.status == 400  # type: ignore[attr-defined]


def test_a_game_without_a_clock_has_no_deadline_to_extend(sqlite_db: Database) -> None:
    svc, gid, people = _game(sqlite_db, pace=None)
    with pytest.raises(Exception) as exc:  # noqa: PT011
        umpiring.extend(svc, people["umpire"], gid, "P1", 60)
    assert exc.value.code == "no_clock"  # type: ignore[attr-defined]
    umpiring.pause(svc, people["umpire"], gid)  # a pause needs no clock
    assert svc.game(people["P1"], gid)["status"] == "paused"


def test_the_umpire_routes(client: TestClient) -> None:
    p1, p2, ump = user(client, "rp1"), user(client, "rp2"), user(client, "rump")
    g = new_game(client, p1, game="kingmaker", options={"players": 2, "umpire": True}, role="P1",
                 preview=True, pace="3600+3600")
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=p2).status_code == 200
    assert client.post(f"/api/games/{gid}/join", json={"role": "umpire"}, headers=ump).status_code == 200
    r = client.post(f"/api/games/{gid}/umpire/pause", json={"reason": "holiday"}, headers=p1)
    assert r.status_code == 403 and r.json()["code"] == "not_umpire"
    r = client.post(f"/api/games/{gid}/umpire/pause", json={"reason": "holiday"}, headers=ump)
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}/umpire", headers=p2).json() == {"paused": True, "umpire": "rump"}
    view = client.get(f"/api/games/{gid}/view", headers=p1).json()
    verb, arg = _first_choice(view["view"])
    r = act(client, gid, p1, verb, arg, view["version"])
    assert r.status_code == 409 and r.json()["code"] == "paused"
    assert "umpire has paused" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/umpire/extend", json={"role": "P1", "seconds": 7200}, headers=ump)
    assert r.status_code == 200 and r.json()["paused"] is True
    assert client.post(f"/api/games/{gid}/umpire/rule", json={"text": "Noted."}, headers=ump).status_code == 200
    assert client.post(f"/api/games/{gid}/umpire/resume", headers=ump).status_code == 200
    clock = client.get(f"/api/games/{gid}/clocks", headers=p1).json()["clocks"]
    assert clock["P1"]["left"] > 3600 + 7000 and clock["P1"]["running"]
    view = client.get(f"/api/games/{gid}/view", headers=p1).json()
    verb, arg = _first_choice(view["view"])
    assert act(client, gid, p1, verb, arg, view["version"]).status_code == 200


def test_the_gazette_of_the_round_shows_the_umpires_controls(sqlite_db: Database) -> None:
    """The pause, the extension and the resumption are public log lines of their round, so the
    round's edition lists them in order."""
    svc, gid, people = _game(sqlite_db)
    umpiring.pause(svc, people["umpire"], gid, "waiting for a ruling")
    umpiring.extend(svc, people["umpire"], gid, "P1", 3600)
    umpiring.resume(svc, people["umpire"], gid)
    rnd = random.Random(5)
    for _ in range(3000):
        payload = svc.view(people["P1"], gid, "P1")
        if (payload["view"].get("round") or 0) >= 1:
            break
        role = svc.game(people["P1"], gid)["active"][0]
        payload = svc.view(people[role], gid, role)
        choices = [(v, a) for v, args in payload["view"]["actions"].items() if v != "undo"
                   for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(choices)
        svc.act(people[role], gid, role, verb, arg, payload["version"])
    editions = gazette.render(gazette.load(svc, gid), None)
    assert editions and editions[0]["round"] == 0
    texts = [line["text"] for line in editions[0]["lines"]]
    wanted = ["The umpire pauses the game: waiting for a ruling", "The umpire extends P1's time by 1 hour.",
              "The umpire resumes the game."]
    found = [next(i for i, t in enumerate(texts) if w in t) for w in wanted]
    assert found == sorted(found)


def test_the_umpire_seat_is_the_rules_declaration(sqlite_db: Database) -> None:
    """The server finds the umpire's seat through the rules (Rules.umpire), and says in a game's
    description which seat it is; a game created without the seat has none."""
    svc, gid, people = _game(sqlite_db, None)
    assert RULES.umpire is not None and RULES.umpire.role == "umpire"
    assert svc.game(people["P1"], gid)["umpire"] == "umpire"
    other = svc.create_game(people["P1"], "kingmaker", options={"players": 2}, role="P1", preview=True)
    assert other["umpire"] is None
    assert svc.describe("kingmaker")["umpire"] == "umpire"
