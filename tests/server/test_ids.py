"""Ids and counters in paths and queries that no database column can hold are a 4xx, never a
500: ``/api/games/1e20``, ``/api/games/99999999999999999999``, ``?since=...``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roses.server.db import Database
from roses.server.errors import NotFound
from roses.server.service import GameService

from .conftest import started_toy

HUGE = ["1e20", "99999999999999999999", str(2**31), str(2**63), str(-(2**63) - 1)]


@pytest.mark.parametrize("number", HUGE)
def test_huge_ids_are_client_errors(client: TestClient, number: str) -> None:
    gid, north, _ = started_toy(client)
    gets = [f"/api/games/{number}", f"/api/games/{number}/view", f"/api/games/{number}/chat",
            f"/api/games/{number}/replay", f"/api/games/{number}/export", f"/api/games/{number}/clocks",
            f"/api/games/{gid}/chat?since={number}", f"/api/games?limit={number}",
            f"/api/games/{gid}/replay/{number}", f"/api/games/{number}/notes/North"]
    for path in gets:
        r = client.get(path, headers=north)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
        assert r.json()["code"] in ("malformed_request", "unknown_game", "game_running"), (path, r.text)
    posts = [(f"/api/games/{number}/join", {}), (f"/api/games/{number}/action", {"verb": "pick", "version": 0}),
             (f"/api/games/{number}/chat", {"text": "hi"}), (f"/api/games/{number}/invite", {"user": "south"})]
    for path, body in posts:
        r = client.post(path, json=body, headers=north)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
    for path in (f"/api/tokens/{number}", f"/api/games/{number}"):
        r = client.delete(path, headers=north)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
    # The WebSocket refuses it too (closed as a policy violation, no internal error).
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/api/games/{number}/ws",
                                                                       headers=north) as ws:
        msg = ws.receive_json()
        assert msg.get("status", 404) < 500, msg
        ws.receive_json()
    # Nothing changed and the game still answers.
    assert client.get(f"/api/games/{gid}", headers=north).json()["version"] == 0


def test_service_refuses_ids_beyond_the_column(database: Database) -> None:
    """Callers other than HTTP (CLI, bots, the invitation route) get the 404 of an unknown game."""
    games = GameService(database)
    for number in (2**31, 2**63, -(2**63) - 1, 10**20):
        with pytest.raises(NotFound):
            games.game(None, number)
        with pytest.raises(NotFound):
            games.view(None, number)
