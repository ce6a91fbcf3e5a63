"""Reminders before a deadline and vacation mode (roses/server/attendance.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import attendance, db, deadlines, gazette
from roses.server.auth import create_user
from roses.server.clocks import ClockScheduler
from roses.server.db import Database
from roses.server.errors import BadRequest, Forbidden
from roses.server.notify import REMINDER, _text
from roses.server.service import GameService
from tests.server.conftest import new_game, user
from tests.server.test_clocks import FakeTime, Recorder, fake_time  # noqa: F401 - the fixture
from tests.server.test_deadlines import _game, _play_until


def _two(database: Database, pace: str | None = "600+600") -> tuple[GameService, int, dict[str, Any]]:
    svc = GameService(database)
    with database.write() as conn:
        people = {r: create_user(conn, f"at{r.lower()}", "correct horse") for r in ("P1", "P2")}
    gid = int(svc.create_game(people["P1"], "kingmaker", options={"players": 2}, pace=pace, role="P1",
                              preview=True)["id"])
    svc.join(people["P2"], gid, "P2")
    return svc, gid, people


def _seat(database: Database, gid: int, role: str) -> Any:
    with database.read() as conn:
        return conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid, db.seats.c.role == role)).one()


def test_a_reminder_goes_out_once_before_each_deadline_even_with_two_workers(
        database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, people = _two(database)
    other = GameService(database)  # a second worker on the same database
    heard = Recorder()
    svc.notifiers.add(heard)
    other.notifiers.add(heard)
    t0 = fake_time.t
    assert attendance.send_reminders(svc, t0 + 100) == []  # 500 s left: more than the lead (150 s)
    first = attendance.send_reminders(svc, t0 + 460)
    second = attendance.send_reminders(other, t0 + 470)
    assert sorted(first + second) == [(gid, "P1"), (gid, "P2")]  # both arrange at the start
    assert second == [] and attendance.send_reminders(svc, t0 + 480) == []
    events = [e for e in heard.events if e.kind == REMINDER]
    assert len(events) == 2
    by_user = {e.users: e.data for e in events}
    assert by_user[(people["P1"].id,)]["role"] == "P1" and by_user[(people["P1"].id,)]["left"] == "2 minutes"
    assert by_user[(people["P1"].id,)]["due"] == pytest.approx(t0 + 600)
    assert attendance.send_reminders(svc, t0 + 600) == []  # the deadline itself is the scheduler's


def test_a_game_without_a_clock_sends_no_reminder(sqlite_db: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, _, _ = _two(sqlite_db, pace=None)
    assert attendance.send_reminders(svc, fake_time.t + 10**7) == []


def test_the_reminder_text_says_when_and_what_follows() -> None:
    subject, text = _text(REMINDER, "Wars", 7, {"role": "P3", "left": "6 hours"})
    assert subject == "Reminder: Wars"
    assert "P3's decision in Wars (game #7) is due in 6 hours" in text and "published default" in text


def test_a_vacation_with_a_bot_seats_it_for_the_period_only(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, people = _two(database)
    now = fake_time.t
    with pytest.raises(Forbidden):
        attendance.add_vacation(svc, people["P1"], gid, "P2", now + 1000, bot="random")
    for bad in ({"until": now - 1}, {"until": now + 61 * 86400}, {"until": now + 1000, "bot": "no-such-bot"},
                {"until": now + 10, "start": now + 20}):
        with pytest.raises(BadRequest):
            attendance.add_vacation(svc, people["P2"], gid, "P2", **bad)
    v = attendance.add_vacation(svc, people["P2"], gid, "P2", now + 1000, start=now + 100, bot="random")
    with pytest.raises(BadRequest):  # overlapping periods
        attendance.add_vacation(svc, people["P2"], gid, "P2", now + 2000, start=now + 900)
    assert attendance.run_vacations(svc, now + 50) == {"seated": [], "ended": [], "defaults": []}
    assert _seat(database, gid, "P2").bot is None
    assert attendance.run_vacations(svc, now + 100)["seated"] == [v["id"]]
    seat = _seat(database, gid, "P2")
    assert (seat.bot, seat.user_id) == ("random", people["P2"].id)  # the seat stays his
    assert svc.view(people["P2"], gid)["role"] == "P2"
    assert attendance.list_vacations(svc, None, gid)[0]["seated"] is True  # public
    assert attendance.run_vacations(svc, now + 200)["seated"] == []  # seated once
    assert attendance.run_vacations(svc, now + 1000)["ended"] == [v["id"]]
    seat = _seat(database, gid, "P2")
    assert (seat.bot, seat.user_id) == (None, people["P2"].id)
    assert attendance.list_vacations(svc, None, gid) == []


def test_a_vacation_without_a_bot_plays_the_published_defaults_at_once(database: Database) -> None:
    svc, gid, users = _game(database, "86400+86400")
    role, payload = _play_until(svc, gid, users, lambda v: bool(v.get("default")))
    version = payload["version"]
    default = payload["view"]["default"]
    now = attendance.game_service._now()
    attendance.add_vacation(svc, users[role], gid, role, now + 3600)
    done = attendance.run_vacations(svc, now + 1)
    assert done["defaults"]
    with database.read() as conn:
        first = conn.execute(sa.select(db.actions).where(db.actions.c.game_id == gid,
                                                         db.actions.c.seq == version + 1)).one()
    assert (first.role, first.verb, first.user_id) == (role, "by_default", None)  # played by the server
    assert json.loads(first.arg) == "vacation" and default is not None  # kingmaker/orders.py: logged as such
    assert any(f"{role} is away" in str(line) for line in svc.view(users[role], gid, role)["view"]["log"])
    assert deadlines.defaults_of(svc, gid)[0] == {"seq": version + 1, "role": role, "reason": "vacation"}
    assert svc.rebuild(gid)["ok"]


def test_vacation_routes(client: TestClient) -> None:
    p1, p2 = user(client, "vrp1"), user(client, "vrp2")
    g = new_game(client, p1, game="kingmaker", options={"players": 2}, role="P1", preview=True, pace="daily")
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/join", json={"role": "P2"}, headers=p2).status_code == 200
    until = attendance.game_service._now() + 7 * 86400
    r = client.post(f"/api/games/{gid}/vacations", json={"role": "P1", "until": until}, headers=p2)
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/vacations", json={"role": "P2", "until": until, "bot": "random"}, headers=p2)
    assert r.status_code == 201, r.text
    vid = r.json()["id"]
    listed = client.get(f"/api/games/{gid}/vacations").json()
    assert [(x["role"], x["bot"]) for x in listed] == [("P2", "random")]
    assert client.delete(f"/api/games/{gid}/vacations/{vid}", headers=p1).status_code == 404
    assert client.delete(f"/api/games/{gid}/vacations/{vid}", headers=p2).status_code == 204
    assert client.get(f"/api/games/{gid}/vacations").json() == []


def test_a_default_is_logged_as_such_in_the_api_and_the_gazette(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    """Issue 20 item 2: "when a deadline passes the published default is applied and logged as
    such": the move is marked (reason deadline or vacation), the API lists it, and the edition
    of its round says which seat's move was a default."""
    svc, gid, users = _game(database, "600+600")
    role, payload = _play_until(svc, gid, users, lambda v: bool(v.get("default")))
    version = payload["version"]
    round_no = payload["view"].get("round") or 0
    fake_time.t += 601
    assert ClockScheduler(svc, clock=fake_time).run_once() == [gid]
    assert deadlines.defaults_of(svc, gid) == [{"seq": version + 1, "role": role, "reason": "deadline"}]
    _play_until(svc, gid, users, lambda v: (v.get("round") or 0) > round_no)
    editions = gazette.render(gazette.load(svc, gid), None)
    ed = next(e for e in editions if e["round"] == round_no)
    assert ed["defaults"] == [f"{role} ran out of time: the published default was played for that seat."]
    assert all("defaults" not in e for e in editions if e["round"] != round_no)


def test_the_defaults_route(client: TestClient) -> None:
    p1, p2 = user(client, "dfp1"), user(client, "dfp2")
    g = new_game(client, p1, game="kingmaker", options={"players": 2}, role="P1", preview=True, pace="daily")
    assert client.post(f"/api/games/{g['id']}/join", json={"role": "P2"}, headers=p2).status_code == 200
    assert client.get(f"/api/games/{g['id']}/defaults").json() == []
    assert client.get("/api/games/999999/defaults").status_code == 404
