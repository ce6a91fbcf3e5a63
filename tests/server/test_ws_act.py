"""Actions over the play socket (``act``): the result on the same socket, idempotency keys,
the same checks as the HTTP action, and no hidden information in what the socket sends."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.server import db
from roses.server.db import Database

from .conftest import act, started_toy, user
from .conftest import next_message as _next


def _actions(database: Database, gid: int) -> list[tuple[int, str, str, str]]:
    with database.read() as conn:
        rows = conn.execute(sa.select(db.actions.c.seq, db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                            .where(db.actions.c.game_id == gid).order_by(db.actions.c.seq)).all()
    return [(int(r.seq), r.role, r.verb, r.arg) for r in rows]


def test_act_answers_with_the_result_and_pushes_to_the_others(client: TestClient, database: Database) -> None:
    gid, north, south = started_toy(client)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn, \
            client.websocket_connect(f"/api/games/{gid}/ws", headers=south) as ws, \
            client.websocket_connect(f"/api/games/{gid}/ws") as wo:
        assert _next(wn, "state")["version"] == 0
        assert _next(ws, "state")["version"] == 0
        assert _next(wo, "state")["version"] == 0
        wn.send_json({"type": "act", "id": 1, "key": "n-1", "verb": "pick", "arg": 3, "version": 0})
        res = _next(wn, "result")
        assert res["id"] == 1 and res["seq"] == 1 and res["duplicate"] is False
        assert res["version"] == 1 and res["role"] == "North" and res["status"] == "active"
        assert "You picked 3." in res["view"]["log"]  # North's own view, as the HTTP reply gives it
        http_view = client.get(f"/api/games/{gid}/view", headers=north).json()
        assert {k: res[k] for k in http_view} == http_view
        # The others get the new version pushed, without North's secret.
        pushed = _next(ws, "state")
        assert pushed["version"] == 1 and "You picked 3." not in str(pushed)
        seen = _next(wo, "state")
        assert seen["version"] == 1 and "You picked 3." not in str(seen)
        # South answers over its socket; North's next message is that push, not a second
        # copy of version 1 (the result already showed it).
        ws.send_json({"type": "act", "id": "s", "verb": "pick", "arg": 1, "version": 1})
        assert _next(ws, "result")["seq"] == 2
        assert _next(wn, "state")["version"] == 2
    assert _actions(database, gid) == [(1, "North", "pick", "3"), (2, "South", "pick", "1")]


def test_act_with_a_repeated_key_is_applied_once(client: TestClient, database: Database) -> None:
    gid, north, _south = started_toy(client)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn:
        _next(wn, "state")
        msg = {"type": "act", "id": 1, "key": "k-42", "verb": "pick", "arg": 2, "version": 0}
        wn.send_json(msg)
        first = _next(wn, "result")
        assert (first["seq"], first["duplicate"]) == (1, False)
        wn.send_json({**msg, "id": 2})  # a retry (say the answer was lost): not applied again
        again = _next(wn, "result")
        assert again["id"] == 2 and again["seq"] == 1 and again["duplicate"] is True
        assert again["version"] == 1 and again["view"] == first["view"]
        # The same key for another action is refused and changes nothing.
        wn.send_json({**msg, "id": 3, "arg": 1, "version": 1})
        err = _next(wn, "error")
        assert err["id"] == 3 and err["status"] == 400 and err["code"] == "key_reused"
        wn.send_json({**msg, "id": 4, "key": "x" * 65})
        assert _next(wn, "error")["status"] == 400
    assert _actions(database, gid) == [(1, "North", "pick", "2")]


def test_act_makes_the_checks_of_the_http_action(client: TestClient, database: Database) -> None:
    gid, north, south = started_toy(client)
    assert act(client, gid, south, "pick", 2, version=0).status_code == 200
    stranger = user(client, "stranger")
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn, \
            client.websocket_connect(f"/api/games/{gid}/ws", headers=stranger) as wx:
        _next(wn, "state")
        _next(wx, "state")
        wn.send_json({"type": "act", "id": 1, "verb": "pick", "arg": 1, "version": 0})  # stale
        err = _next(wn, "error")
        assert (err["id"], err["status"], err["code"]) == (1, 409, "stale_version")
        wn.send_json({"type": "act", "id": 2, "verb": "pick", "arg": 9, "version": 1})  # illegal
        err = _next(wn, "error")
        assert err["id"] == 2 and err["status"] == 422
        wn.send_json({"type": "act", "id": 3, "verb": "pick", "arg": 1})  # no version
        assert _next(wn, "error")["status"] == 400
        wn.send_json({"type": "act", "id": 4, "verb": "pick", "arg": {"bad": float("inf")}, "version": 1})
        assert _next(wn, "error")["status"] in (400, 422)
        wx.send_json({"type": "act", "id": 5, "verb": "pick", "arg": 1, "version": 1})  # an observer
        assert _next(wx, "error")["code"] == "observer"
        # Refusals changed nothing: the game is still at version 1 and North can act.
        wn.send_json({"type": "act", "id": 6, "verb": "pick", "arg": 1, "version": 1})
        assert _next(wn, "result")["seq"] == 2
    assert [a[:3] for a in _actions(database, gid)] == [(1, "South", "pick"), (2, "North", "pick")]
