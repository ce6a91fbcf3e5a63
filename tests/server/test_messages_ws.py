"""Private messages over the play WebSocket (roses/server/ws.py, roses/server/messages.py):
the sockets of a channel's seats receive a new message; another seat's socket receives nothing
of it."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.server.test_messages import _kingmaker, _send


def test_the_websocket_delivers_to_the_channels_seats_only(sqlite_client: TestClient) -> None:
    client = sqlite_client
    gid, heads = _kingmaker(client)
    secret = "P2: your Percy is safe with me qw88"
    with client.websocket_connect(f"/api/games/{gid}/ws?role=P2", headers=heads["P2"]) as p2, \
            client.websocket_connect(f"/api/games/{gid}/ws?role=P3", headers=heads["P3"]) as p3:
        first = {}
        for ws, r in ((p2, "P2"), (p3, "P3")):
            types = []
            while "messages" not in types:
                msg = ws.receive_json()
                types.append(msg["type"])
            first[r] = msg
        assert first["P3"]["messages"] == []
        assert _send(client, gid, heads["P1"], ["P2"], secret).status_code == 201
        got = p2.receive_json()
        assert got["type"] == "messages" and [m["text"] for m in got["messages"]] == [secret]
        # P3's socket: a chat line sent after the message arrives, and nothing before it.
        assert client.post(f"/api/games/{gid}/chat", json={"text": "public hello"}, headers=heads["P1"]).status_code == 201
        seen = []
        while True:
            msg = p3.receive_json()
            seen.append(json.dumps(msg))
            if msg["type"] == "chat":
                break
        assert not any(secret in s for s in seen)
