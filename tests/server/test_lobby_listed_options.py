"""The lobby's lists of games do not carry an uploaded option's body: a Kingmaker game on an
uploaded board (up to 2 MB, ``"format": "roses-upload"``) is listed with a short stand-in for
the board (its name and size), while the game's own description and its record keep the
board whole (the record is what replays it)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from roses.engine.contract import canonical_json
from tests.server.conftest import user

BOARD = json.loads((Path(__file__).resolve().parents[1] / "kingmaker" / "data" / "small-board.json")
                   .read_text(encoding="utf-8"))


def test_listings_carry_a_stand_in_for_an_uploaded_board_the_game_keeps_it_whole(client: TestClient) -> None:
    alice = user(client, "alice")
    r = client.post("/api/games", headers=alice, json={
        "game": "kingmaker", "role": "P1", "preview": True, "title": "Vale",
        "options": {"players": 3, "board": BOARD}, "bots": {"P2": "random", "P3": "random"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert r.json()["options"]["board"] == BOARD  # the game's own description: whole
    stand_in = {"uploaded": True, "name": BOARD["name"], "bytes": len(canonical_json(BOARD).encode("utf-8"))}
    for path in ("/api/games?status=active", "/api/games", "/api/me/games"):
        res = client.get(path, headers=alice)
        assert res.status_code == 200
        listed = [g for g in res.json() if g["id"] == gid]
        assert len(listed) == 1, path
        assert listed[0]["options"] == {**r.json()["options"], "board": stand_in}, path
        assert listed[0]["played_with"] == f"Board: {BOARD['name']}"
        assert "great_north_road" not in res.text  # nothing of the board's body
    assert client.get(f"/api/games/{gid}", headers=alice).json()["options"]["board"] == BOARD
    record = client.app.state.roses.games.admin_export(gid)  # type: ignore[attr-defined]
    assert record["options"]["board"] == BOARD


def test_listings_leave_other_options_as_they_are(client: TestClient) -> None:
    alice = user(client, "alice")
    r = client.post("/api/games", headers=alice, json={
        "game": "kingmaker", "role": "P1", "preview": True, "options": {"players": 4}})
    assert r.status_code == 201, r.text
    listed = [g for g in client.get("/api/games?status=open").json() if g["id"] == r.json()["id"]]
    assert listed[0]["options"] == r.json()["options"] and "board" not in listed[0]["options"]
