"""Kingmaker standing orders through the server (roses/games/kingmaker/orders.py):
a seat sets one with the ordinary action route at any time, not only when asked; it is in that
seat's view payload and log only, never in another seat's or an observer's (the server's views
are the boundary of hidden information); bad orders are refused with a reason and change nothing."""

from __future__ import annotations

import json

import pytest

from roses.engine.contract import OBSERVER
from roses.server.db import Database
from roses.server.errors import ServerError
from tests.server.test_deadlines import _game


def test_a_standing_order_is_set_at_any_time_and_seen_by_its_seat_only(database: Database) -> None:
    svc, gid, users = _game(database, "86400+86400")
    info = svc.game(users["P1"], gid)
    version = int(info["version"])
    # P2 sets an order whether or not he is asked now (setup: both arrange at once)
    out = svc.act(users["P2"], gid, "P2", "set_order", {"kind": "permit:P1", "value": "deny"}, version)
    assert out["version"] == version + 1
    svc.act(users["P2"], gid, "P2", "set_order", {"kind": "ransom_answer", "value": 2}, version + 1)
    mine = svc.view(users["P2"], gid, "P2")["view"]
    assert mine["standing_orders"]["orders"] == {"permit:P1": "deny", "ransom_answer": 2}
    assert any("Standing order set" in str(line) for line in mine["log"])
    for who, role in ((users["P1"], "P1"), (None, OBSERVER)):
        payload = svc.view(who, gid, role) if who is not None else svc.view(None, gid, OBSERVER)
        view = payload["view"]
        assert (view.get("standing_orders") or {}).get("orders", {}) == {}, role
        text = json.dumps(payload)
        assert "Standing order set" not in text and "ransom_answer\": 2" not in text, role


def test_a_bad_standing_order_is_refused_and_changes_nothing(database: Database) -> None:
    svc, gid, users = _game(database, "86400+86400")
    version = int(svc.game(users["P1"], gid)["version"])
    with pytest.raises(ServerError) as err:
        svc.act(users["P2"], gid, "P2", "set_order", {"kind": "permit", "value": "perhaps"}, version)
    assert "takes one of" in str(err.value)
    with pytest.raises(ServerError):
        svc.act(users["P1"], gid, "P2", "set_order", {"kind": "permit", "value": "allow"}, version)  # not his seat
    assert int(svc.game(users["P1"], gid)["version"]) == version
