"""Play through the HTTP API and the WebSocket: checks, versions, undo, resign, replay, export."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from roses.engine import Game, get_rules

from .conftest import act, new_game, started_toy, user


def test_health_and_openapi(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json()["status"] == "ok" and r.json()["schema_revision"]
    assert r.headers["referrer-policy"] == "same-origin" and r.headers["x-content-type-options"] == "nosniff"
    spec = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}/action", "/api/auth/login", "/api/games/{game_id}/replay/{step}"):
        assert path in spec["paths"]
    assert "Roses" in client.get("/").text


def test_views_per_role_and_observer(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    vn = client.get(f"/api/games/{gid}/view", headers=north).json()
    vs = client.get(f"/api/games/{gid}/view", headers=south).json()
    vo = client.get(f"/api/games/{gid}/view").json()
    assert vn["role"] == "North" and vs["role"] == "South" and vo["role"] == "Observer"
    assert vn["view"]["actions"] == {"pick": [1, 2, 3]}
    assert "actions" not in vo["view"]
    # North picks: South and observers must not learn the number.
    r = act(client, gid, north, "pick", 3, version=0)
    assert r.status_code == 200, r.text
    assert "You picked 3." in r.json()["view"]["log"]
    assert "You picked 3." not in client.get(f"/api/games/{gid}/view", headers=south).text
    assert "You picked 3." not in client.get(f"/api/games/{gid}/view").text
    # A user may not ask for a role they do not hold.
    r = client.get(f"/api/games/{gid}/view", params={"role": "North"}, headers=south)
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"


def test_action_checks_and_clear_errors(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    stranger = user(client, "stranger")
    assert act(client, 9999, north, "pick", 1, version=0).status_code == 404
    r = act(client, gid, stranger, "pick", 1, version=0)
    assert r.status_code == 403
    r = act(client, gid, south, "pick", 1, version=0, role="North")
    assert r.status_code == 403 and "North" in r.json()["detail"]
    r = act(client, gid, north, "pick", 7, version=0)
    assert r.status_code == 422 and r.json()["detail"] == "North cannot pick now."
    r = act(client, gid, north, "roll", None, version=0)
    assert r.status_code == 422
    # Malformed bodies: 400 with a message; nothing changes.
    r = client.post(f"/api/games/{gid}/action", json={"verb": "pick"}, headers=north)
    assert r.status_code == 400 and "version" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/action", content=b"{not json", headers={**north, "content-type": "application/json"})
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/action", json={"verb": ".finish", "arg": ["North", "x"], "version": 0}, headers=north)
    assert r.status_code == 400
    r = client.post("/api/games/abc/action", json={"verb": "pick", "version": 0}, headers=north)
    assert r.status_code == 400
    assert client.get(f"/api/games/{gid}").json()["version"] == 0
    # Stale version: 409 with a clear message.
    assert act(client, gid, north, "pick", 1, version=0).status_code == 200
    r = act(client, gid, south, "pick", 2, version=0)
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    assert "version 0" in r.json()["detail"] and "version 1" in r.json()["detail"]
    assert act(client, gid, south, "pick", 2, version=1).status_code == 200
    # Not your turn (the rules decide whose turn it is).
    r = act(client, gid, south, "roll", version=2)
    assert r.status_code == 422 and r.json()["code"] == "not_your_turn"


def test_undo_follows_engine_policy(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    act(client, gid, north, "pick", 1, version=0)
    act(client, gid, south, "pick", 1, version=1)
    r = act(client, gid, north, "step", version=2)
    body = r.json()
    assert body["can_undo"] is True and body["view"]["actions"]["undo"] is True
    r = client.post(f"/api/games/{gid}/undo", json={"version": 3}, headers=north)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 4 and r.json()["view"]["pos"]["North"] == 0
    assert r.json()["can_undo"] is False
    r = client.post(f"/api/games/{gid}/undo", json={"version": 4}, headers=north)
    assert r.status_code == 422 and r.json()["code"] == "cannot_undo"
    # "undo" as an action verb (as listed in the view) works too.
    act(client, gid, north, "step", version=4)
    assert act(client, gid, north, "undo", version=5).status_code == 200
    # A die roll cannot be undone.
    act(client, gid, north, "roll", version=6)
    r = client.post(f"/api/games/{gid}/undo", json={"version": 7}, headers=north)
    assert r.status_code == 422


def _play_to_end(client: TestClient, gid: int, players: dict[str, dict[str, str]]) -> dict[str, Any]:
    for _ in range(500):
        info = client.get(f"/api/games/{gid}").json()
        if info["status"] == "finished":
            return dict(info)
        role = info["active"][0]
        view = client.get(f"/api/games/{gid}/view", headers=players[role]).json()
        actions = view["view"]["actions"]
        verb = "pick" if "pick" in actions else "roll"
        arg = 2 if verb == "pick" else None
        r = act(client, gid, players[role], verb, arg, version=view["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("game did not end")


def test_replay_and_export_only_after_the_end(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    act(client, gid, north, "pick", 3, version=0)
    for path in ("replay", "replay/0", "export"):
        r = client.get(f"/api/games/{gid}/{path}", headers=north)
        assert r.status_code == 409 and r.json()["code"] == "game_running"
    info = _play_to_end(client, gid, {"North": north, "South": south})
    assert info["result"] in ("North", "South")
    rep = client.get(f"/api/games/{gid}/replay").json()
    assert rep["steps"] == info["version"] + 1 and rep["result"] == info["result"]
    s1n = client.get(f"/api/games/{gid}/replay/1", params={"role": "North"}).json()
    s1s = client.get(f"/api/games/{gid}/replay/1", params={"role": "South"}).json()
    assert "You picked 3." in s1n["view"]["log"]
    assert "You picked 3." not in str(s1s["view"])
    assert s1n["action"] == {"role": "North", "verb": "pick", "arg": 3}
    last = client.get(f"/api/games/{gid}/replay/{info['version']}").json()
    assert last["view"]["active"] == []
    assert client.get(f"/api/games/{gid}/replay/{info['version'] + 1}").status_code == 404
    record = client.get(f"/api/games/{gid}/export").json()
    game = Game.from_record(get_rules("toy"), record)
    assert game.result() == info["result"] and game.digest() == record["digest"]


def test_resign_records_result(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    r = client.post(f"/api/games/{gid}/resign", json={"version": 0}, headers=south)
    assert r.status_code == 200, r.text
    info = client.get(f"/api/games/{gid}").json()
    assert info["status"] == "finished" and info["result"] == "North"
    assert act(client, gid, north, "pick", 1, version=1).status_code == 409


def test_websocket_pushes_views_and_takes_actions(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=north) as wn, \
            client.websocket_connect(f"/api/games/{gid}/ws") as wo:
        first = wn.receive_json()
        assert first["type"] == "state" and first["role"] == "North" and first["version"] == 0
        assert wn.receive_json()["type"] == "chat"
        assert wn.receive_json() == {"type": "messages", "channels": [], "messages": []}  # private messages
        assert wo.receive_json()["role"] == "Observer"
        # An HTTP action by South is pushed to both.
        act(client, gid, south, "pick", 2, version=0)
        pushed = wn.receive_json()
        assert pushed["type"] == "state" and pushed["version"] == 1
        assert "You picked 2." not in str(pushed)
        assert wo.receive_json()["version"] == 1
        # Actions over the socket: stale refused, then accepted.
        wn.send_json({"type": "action", "verb": "pick", "arg": 1, "version": 0, "id": 7})
        err = wn.receive_json()
        assert err == {**err, "type": "error", "status": 409, "code": "stale_version", "id": 7}
        wn.send_json({"type": "action", "verb": "pick", "arg": 1, "version": 1, "id": 8})
        msgs = [wn.receive_json(), wn.receive_json()]
        assert {m["type"] for m in msgs} == {"ok", "state"}
        assert wo.receive_json()["version"] == 2
        wo.send_json({"type": "action", "verb": "roll", "version": 2})
        assert wo.receive_json()["code"] == "observer"
        wn.send_json({"type": "ping"})
        assert wn.receive_json()["type"] == "pong"
        wn.send_text("nonsense")
        assert wn.receive_json()["status"] == 400


def test_websocket_refuses_unknown_game_and_foreign_role(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    with client.websocket_connect("/api/games/4242/ws") as ws:
        assert ws.receive_json()["status"] == 404
    with client.websocket_connect(f"/api/games/{gid}/ws?role=North", headers=south) as ws:
        assert ws.receive_json()["status"] == 403


def test_chat_and_notes(client: TestClient) -> None:
    gid, north, south = started_toy(client)
    r = client.post(f"/api/games/{gid}/chat", json={"text": "good luck"}, headers=north)
    assert r.status_code == 201
    assert [m["text"] for m in client.get(f"/api/games/{gid}/chat", headers=south).json()] == ["good luck"]
    assert client.get(f"/api/games/{gid}/chat").status_code == 401
    other = user(client, "watcher")
    assert client.get(f"/api/games/{gid}/chat", headers=other).status_code == 403
    assert client.put(f"/api/games/{gid}/notes/North", json={"text": "bluff"}, headers=north).status_code == 200
    assert client.get(f"/api/games/{gid}/notes/North", headers=north).json()["text"] == "bluff"
    assert client.get(f"/api/games/{gid}/notes/North", headers=south).status_code == 403
    assert client.get(f"/api/games/{gid}/notes/South", headers=south).json()["text"] == ""


def test_one_person_holds_one_seat_of_a_game_with_hidden_choices(client: TestClient) -> None:
    """The toy game's picks are hidden from the other side: no hot seat, the second join is
    refused (409 ``one_seat``) and the game waits for another player."""
    solo = user(client, "solo")
    g = new_game(client, solo, role="North")
    r = client.post(f"/api/games/{g['id']}/join", json={"role": "South"}, headers=solo)
    assert r.status_code == 409 and r.json()["code"] == "one_seat"
    info = client.get(f"/api/games/{g['id']}", headers=solo).json()
    assert info["status"] == "open" and info["my_roles"] == ["North"]


def test_websocket_reports_seats_filling(client: TestClient) -> None:
    a, b = user(client, "wsa"), user(client, "wsb")
    g = new_game(client, a, role="North")
    with client.websocket_connect(f"/api/games/{g['id']}/ws", headers=a) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["status"] == "open" and first["view"] is None
        assert ws.receive_json()["type"] == "chat"
        assert ws.receive_json()["type"] == "messages"
        client.post(f"/api/games/{g['id']}/join", json={}, headers=b)
        seen = [ws.receive_json() for _ in range(2)]
        lobby = next(m for m in seen if m["type"] == "game")["game"]
        assert [s["user"] for s in lobby["seats"]] == ["wsa", "wsb"]
        while seen[-1]["type"] != "state" or seen[-1]["status"] != "active":
            seen.append(ws.receive_json())
        assert seen[-1]["view"]["actions"] == {"pick": [1, 2, 3]}
