"""Rate limits on what a signed-in user can repeat cheaply: chat messages (HTTP and WebSocket),
invitations and test notifications. Counted per user in the database (every worker shares
them), each request counted atomically; a refused request stores and sends nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from roses.server.db import Database

from .conftest import build_client, new_game, started_toy, user


def test_chat_flood_is_refused(database: Database) -> None:
    with build_client(database, bots=False) as client:
        gid, north, south = started_toy(client)
        text = "x" * 2000
        codes = [client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=north).status_code
                 for _ in range(60)]
        assert codes.count(201) == 20 and codes.count(429) == 40, codes
        r = client.post(f"/api/games/{gid}/chat", json={"text": "again"}, headers=north)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert len(client.get(f"/api/games/{gid}/chat", headers=south).json()) == 20
        # The WebSocket goes through the same limit.
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as ws:
            assert [ws.receive_json()["type"] for _ in range(3)] == ["state", "chat", "messages"]
            ws.send_json({"type": "chat", "text": "through the socket", "id": 7})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == 429 and reply["id"] == 7
        # Another player is not held up by it.
        assert client.post(f"/api/games/{gid}/chat", json={"text": "hello"}, headers=south).status_code == 201


def test_invitation_flood_is_refused(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    with build_client(database, bots=False, invite_limit=5) as client:
        host, guest = user(client, "host"), user(client, "guest")
        g = new_game(client, host, role="North")
        notifier = client.app.state.notifier
        sent: list[object] = []
        monkeypatch.setattr(notifier, "notify", sent.append)
        codes = [client.post(f"/api/games/{g['id']}/invite", json={"user": "guest"}, headers=host).status_code
                 for _ in range(8)]
        assert codes == [202] * 5 + [429] * 3
        assert len(sent) == 5  # refused invitations notify nobody
        assert guest


def test_test_notification_flood_is_refused(client: TestClient) -> None:
    me = user(client, "tester")
    r = client.put("/api/me/settings", json={"notify": True, "webhook_url": "https://hooks.example.org/x"},
                   headers=me)
    assert r.status_code == 200, r.text
    codes = [client.post("/api/me/settings/test", headers=me).status_code for _ in range(10)]
    assert codes == [202] * 6 + [429] * 4
