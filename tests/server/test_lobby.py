"""Lobby: create, seats, random seat, leave, start, private games and invites, lists, observing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import new_game, user


def test_create_join_leave_start(client: TestClient) -> None:
    a, b = user(client, "anne"), user(client, "ben")
    g = new_game(client, a, title="Friendly", scenario="short")
    assert g["status"] == "open" and g["title"] == "Friendly" and g["scenario"] == "short"
    assert [s["role"] for s in g["seats"]] == ["North", "South"]
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/start", headers=a)
    assert r.status_code == 409 and r.json()["code"] == "not_full"
    r = client.post(f"/api/games/{gid}/join", json={"role": "North"}, headers=a)
    assert r.json()["my_roles"] == ["North"]
    r = client.post(f"/api/games/{gid}/join", json={"role": "North"}, headers=b)
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert client.post(f"/api/games/{gid}/join", json={"role": "East"}, headers=b).status_code == 400
    assert client.post(f"/api/games/{gid}/leave", json={}, headers=b).status_code == 403
    assert client.post(f"/api/games/{gid}/leave", json={}, headers=a).json()["my_roles"] == []
    client.post(f"/api/games/{gid}/join", json={}, headers=a)  # random seat
    r = client.post(f"/api/games/{gid}/join", json={}, headers=b)
    assert r.status_code == 200 and r.json()["status"] == "active"  # full: starts by itself
    assert sorted(r.json()["my_roles"] + client.get(f"/api/games/{gid}", headers=a).json()["my_roles"]) == ["North", "South"]
    r = client.post(f"/api/games/{gid}/leave", json={}, headers=b)
    assert r.status_code == 409
    assert client.post(f"/api/games/{gid}/join", json={}, headers=user(client, "cat")).status_code == 409


def test_bad_creation_requests(client: TestClient) -> None:
    a = user(client, "dan")
    r = client.post("/api/games", json={"game": "nosuchgame"}, headers=a)
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    r = client.post("/api/games", json={"game": "toy", "scenario": "long"}, headers=a)
    assert r.status_code == 400 and "standard" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "toy", "options": {"speed": 2}}, headers=a)
    assert r.status_code == 400 and "speed" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "toy", "bots": {"North": "genius"}}, headers=a)
    assert r.status_code == 400
    r = client.post("/api/games", json={"game": "toy", "colour": "red"}, headers=a)
    assert r.status_code == 400
    assert client.post("/api/games", json={"game": "toy"}).status_code == 401
    assert client.get("/api/games/12345").status_code == 404


def test_private_game_needs_invite(client: TestClient) -> None:
    a, b, c = user(client, "eve"), user(client, "finn"), user(client, "gus")
    g = new_game(client, a, private=True, role="North")
    gid, invite = g["id"], g["invite_token"]
    assert invite and g["invite_link"] == f"/games/{gid}?invite={invite}"
    assert client.get(f"/api/games/{gid}", headers=b).status_code == 404
    assert client.get(f"/api/games/{gid}/view").status_code == 404
    assert all(x["id"] != gid for x in client.get("/api/games").json())
    assert client.post(f"/api/games/{gid}/join", json={}, headers=b).status_code == 404
    assert client.post(f"/api/games/{gid}/join", json={"invite": "wrong"}, headers=b).status_code == 404
    assert client.post(f"/api/games/{gid}/join", json={"invite": "wröng"}, headers=b).status_code == 404
    assert client.get(f"/api/games/{gid}", params={"invite": "ünïcode"}).status_code == 404
    seen = client.get(f"/api/games/{gid}", params={"invite": invite}, headers=c).json()
    assert seen["id"] == gid and seen["invite_token"] is None  # only the owner sees the token
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite}, headers=b)
    assert r.status_code == 200 and r.json()["status"] == "active"
    assert client.get(f"/api/games/{gid}/view", headers=b).json()["role"] == "South"
    assert client.get(f"/api/games/{gid}/view", headers=c).status_code == 404


def test_my_games_show_whose_turn(client: TestClient) -> None:
    a, b = user(client, "hana"), user(client, "ivan")
    g1 = new_game(client, a, role="North")
    client.post(f"/api/games/{g1['id']}/join", json={}, headers=b)
    g2 = new_game(client, a, role="South")
    mine = client.get("/api/me/games", headers=a).json()
    assert [g["id"] for g in mine] == [g1["id"], g2["id"]]
    assert {g["owner"] for g in mine} == {"hana"}
    assert mine[0]["your_turn"] is True and mine[0]["active"] == ["North", "South"]
    client.post(f"/api/games/{g1['id']}/action", json={"verb": "pick", "arg": 1, "version": 0}, headers=a)
    mine = client.get("/api/me/games", headers=a).json()
    assert all(not g["your_turn"] for g in mine)
    theirs = client.get("/api/me/games", headers=b).json()
    assert theirs[0]["your_turn"] is True and theirs[0]["active"] == ["South"]
    assert [g["status"] for g in client.get("/api/games", params={"status": "open"}).json()] == ["open"]
    assert client.get("/api/games", params={"status": "bogus"}).status_code == 400


def test_observe_public_game(client: TestClient) -> None:
    a, b, c = user(client, "jo"), user(client, "kim"), user(client, "lee")
    g = new_game(client, a, role="North")
    client.post(f"/api/games/{g['id']}/join", json={}, headers=b)
    listed = client.get("/api/games", params={"status": "active"}).json()
    assert [x["id"] for x in listed] == [g["id"]]
    v = client.get(f"/api/games/{g['id']}/view", headers=c).json()
    assert v["role"] == "Observer" and "actions" not in v["view"]
    r = client.post(f"/api/games/{g['id']}/action", json={"verb": "pick", "arg": 1, "version": 0}, headers=c)
    assert r.status_code == 403


def test_owner_seats_bot(client: TestClient) -> None:
    a, b = user(client, "max"), user(client, "ned")
    g = new_game(client, a, role="North")
    r = client.post(f"/api/games/{g['id']}/bot", json={"role": "South"}, headers=b)
    assert r.status_code == 403
    r = client.post(f"/api/games/{g['id']}/bot", json={"role": "North"}, headers=a)
    assert r.status_code == 409
    r = client.post(f"/api/games/{g['id']}/bot", json={"role": "South", "bot": "random"}, headers=a)
    assert r.status_code == 200 and r.json()["status"] == "active"
    assert r.json()["seats"][1]["bot"] == "random"


def test_creator_cancels_open_game(client: TestClient) -> None:
    a, b = user(client, "olga"), user(client, "pete")
    g = new_game(client, a, role="North")
    assert client.delete(f"/api/games/{g['id']}", headers=b).status_code == 403
    assert client.delete(f"/api/games/{g['id']}", headers=a).status_code == 204
    assert client.get(f"/api/games/{g['id']}").status_code == 404
    g = new_game(client, a, role="North")
    client.post(f"/api/games/{g['id']}/join", json={}, headers=b)
    r = client.delete(f"/api/games/{g['id']}", headers=a)
    assert r.status_code == 409 and r.json()["code"] == "not_open"


def test_bad_seat_requests_at_creation(client: TestClient) -> None:
    a = user(client, "quin")
    r = client.post("/api/games", json={"game": "toy", "role": "North", "bots": {"North": "random"}}, headers=a)
    assert r.status_code == 400
    r = client.post("/api/games", json={"game": "toy", "role": "random",
                                        "bots": {"North": "random", "South": "random"}}, headers=a)
    assert r.status_code == 400
    assert client.get("/api/me/games", headers=a).json() == []
    g = new_game(client, a)  # no seat taken: still listed among my games
    assert [x["id"] for x in client.get("/api/me/games", headers=a).json()] == [g["id"]]
