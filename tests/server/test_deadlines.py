"""Deadlines with published defaults (roses/server/deadlines.py): when a seat's
time runs out on a Kingmaker decision that has a published default, the
scheduler plays that default for it through the action log, and the game goes on; on a decision
without one (a player's own turn) the seat loses on time as before."""

from __future__ import annotations

import json
import random
from typing import Any

import sqlalchemy as sa

from roses.engine import Game, get_rules
from roses.server import db
from roses.server.auth import create_user
from roses.server.clocks import ClockScheduler, clocks_of
from roses.server.db import Database
from roses.server.errors import BadRequest
from roses.server.service import GameService
from tests.server.test_clocks import FakeTime, fake_time  # noqa: F401 - the fixture

RULES = get_rules("kingmaker")


def _game(database: Database, pace: str) -> tuple[GameService, int, dict[str, Any]]:
    svc = GameService(database)
    with database.write() as conn:
        p1, p2 = create_user(conn, "dl1", "correct horse"), create_user(conn, "dl2", "correct horse")
    gid = int(svc.create_game(p1, "kingmaker", options={"players": 2}, pace=pace, role="P1", preview=True)["id"])
    svc.join(p2, gid, "P2")
    return svc, gid, {"P1": p1, "P2": p2}


def _play_until(svc: GameService, gid: int, users: dict[str, Any], want: Any, seed: int = 3) -> tuple[str, dict[str, Any]]:
    """Random legal play until ``want(view)`` holds for an active seat's view."""
    rnd = random.Random(seed)
    for _ in range(3000):
        info = svc.game(users["P1"], gid)
        for role in info["active"]:
            payload = svc.view(users[role], gid, role)
            if want(payload["view"]):
                return role, payload
        role = info["active"][0]
        payload = svc.view(users[role], gid, role)
        choices = [(v, a) for v, args in payload["view"]["actions"].items() if v != "undo"
                   for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(choices)
        svc.act(users[role], gid, role, verb, arg, payload["version"])
    raise AssertionError("no such decision was reached")


def test_the_published_default_is_played_when_the_time_runs_out(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, users = _game(database, "600+600")  # 10 minutes per decision
    # a decision of one seat alone (two seats active together would lapse together)
    role, payload = _play_until(svc, gid, users,
                                lambda v: bool(v.get("default")) and len(v.get("active") or []) == 1)
    default = payload["view"]["default"]
    version = payload["version"]
    sched = ClockScheduler(svc, clock=fake_time)
    fake_time.t += 601
    assert sched.run_once() == [gid]
    info = svc.game(users["P1"], gid)
    assert info["status"] == "active" and info["version"] == version + 1  # the game goes on
    with database.read() as conn:
        last = conn.execute(sa.select(db.actions).where(db.actions.c.game_id == gid)
                            .order_by(db.actions.c.seq.desc()).limit(1)).one()
    # Kingmaker's rules take the verb "by_default" (orders.py): the default is played and the
    # game's own log says so.
    assert (last.role, last.verb, json.loads(last.arg)) == (role, "by_default", "deadline")
    assert last.user_id is None  # played by the server, not by the player
    assert svc.view(users[role], gid, role)["can_undo"] is False  # nor taken back by him
    assert svc.rebuild(gid)["ok"]
    record = svc.admin_export(gid)
    state = Game.from_record(RULES, record).state
    assert state["result"] is None
    label = RULES.label(state, role, default[0], default[1])
    lines = svc.view(users[role], gid, role)["view"]["log"]
    said = [line for line in lines if f"{role}'s deadline passed" in str(line)]
    assert said and (f"{label} (the published default)" in str(said[-1]) or "the published default is played" in str(said[-1]))
    # the same default as the decision published
    replayed = Game.from_record(RULES, {**record, "actions": record["actions"][:-1]})
    direct = RULES.copy_state(replayed.state)
    RULES.action(direct, role, default[0], default[1])
    assert direct["stack"] == state["stack"]


def test_a_player_cannot_claim_his_own_deadline_passed(database: Database) -> None:
    """The verb that plays the published default "by deadline" (Kingmaker's ``by_default``) is
    the server's alone: a player who sends it is refused and nothing changes."""
    svc, gid, users = _game(database, "600+600")
    role, payload = _play_until(svc, gid, users, lambda v: bool(v.get("default")))
    version = payload["version"]
    try:
        svc.act(users[role], gid, role, "by_default", "deadline", version)
    except BadRequest as exc:
        assert exc.code == "server_only" and "by_default" in str(exc)
    else:
        raise AssertionError("a player played by_default")
    assert svc.game(users["P1"], gid)["version"] == version
    assert svc.rebuild(gid)["ok"]


def test_a_decision_without_default_still_loses_on_time(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    svc, gid, users = _game(database, "600+600")
    role, payload = _play_until(svc, gid, users, lambda v: (v.get("round") or 0) >= 1 and v.get("actions")
                                and v.get("default") is None and len(v.get("active") or []) == 1)
    fake_time.t += 601
    assert ClockScheduler(svc, clock=fake_time).run_once() == [gid]
    info = svc.game(users["P1"], gid)
    assert info["status"] == "finished" and info["result"] != role


def test_an_open_decision_with_a_default_says_when_its_deadline_falls(database: Database, fake_time: FakeTime) -> None:  # noqa: F811
    """The view of a seat whose open decision has a published default carries ``deadline``:
    its clock's end (``seats.active_since + seats.clock``), the moment the scheduler plays the
    default; the clocks say the same; a seat not asked has none."""
    svc, gid, users = _game(database, "600+600")
    role, _ = _play_until(svc, gid, users, lambda v: bool(v.get("default")))
    fake_time.t += 100
    payload = json.loads(svc.view_body(users[role], gid, role)[1])
    assert payload["view"]["default"] and payload["view"]["default_label"]
    with database.read() as conn:
        seat = conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid, db.seats.c.role == role)).one()
        clocks = clocks_of(conn, gid, now=fake_time.t)
    assert seat.active_since is not None
    due = float(seat.active_since) + float(seat.clock)
    assert payload["deadline"] == round(due, 3)
    assert payload["deadline"] - fake_time.t == 500  # 600 s from when he was asked, 100 s of it spent
    assert clocks["clocks"][role]["deadline"] == round(due, 3) and clocks["clocks"][role]["running"]
    other = next(r for r in ("P1", "P2") if r != role)
    if other not in payload["active"]:
        assert "deadline" not in json.loads(svc.view_body(users[other], gid, other)[1])
        assert clocks["clocks"][other]["deadline"] is None
    # at that moment, not before, the default is played
    sched = ClockScheduler(svc, clock=fake_time)
    fake_time.t = due - 1
    assert sched.run_once() == []
    fake_time.t = due
    assert sched.run_once() == [gid]


def test_a_decision_without_default_carries_no_deadline_in_its_view(database: Database) -> None:
    svc, gid, users = _game(database, "600+600")
    info = svc.game(users["P1"], gid)
    for role in info["active"]:
        payload = json.loads(svc.view_body(users[role], gid, role)[1])
        if not payload["view"].get("default"):
            assert "deadline" not in payload
