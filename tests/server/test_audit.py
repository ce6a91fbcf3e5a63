"""Auditable chance on the server (roses/server/audit.py): the commitment to
the seed is public from the start and never changes; the seed and its nonce are published only
when the game is over; the audit record passes ``roses replay`` and a tampered one fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses import cli
from roses.engine.chance import SCHEME, commitment
from tests.server.conftest import act, new_game, user


@pytest.fixture(autouse=True)
def chance_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_CHANCE_KEY", "test key for the seed nonces")


def _finish(client: TestClient, gid: int, players: dict[str, dict[str, str]]) -> None:
    for _ in range(500):
        info = client.get(f"/api/games/{gid}").json()
        if info["status"] == "finished":
            return
        role = info["active"][0]
        view = client.get(f"/api/games/{gid}/view", headers=players[role]).json()
        actions = view["view"]["actions"]
        verb = "pick" if "pick" in actions else "roll"
        r = act(client, gid, players[role], verb, 2 if verb == "pick" else None, version=view["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_commitment_from_the_start_seed_at_the_end(client: TestClient, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    north, south = user(client, "north"), user(client, "south")
    gid = new_game(client, north, role="North")["id"]
    r = client.get(f"/api/games/{gid}/chance")
    assert r.status_code == 409 and r.json()["code"] == "not_started"
    client.post(f"/api/games/{gid}/join", json={"role": "South"}, headers=south)
    started = client.get(f"/api/games/{gid}/chance").json()  # public: no login needed
    assert started["scheme"] == SCHEME and len(started["commitment"]) == 64
    assert started["seed"] is None and started["nonce"] is None  # secret while the game runs
    assert client.get(f"/api/games/{gid}/audit").status_code == 409
    _finish(client, gid, {"North": north, "South": south})
    done = client.get(f"/api/games/{gid}/chance").json()
    assert done["commitment"] == started["commitment"]  # the same as published at the start
    assert commitment(done["seed"], done["nonce"]) == started["commitment"]
    record: dict[str, Any] = client.get(f"/api/games/{gid}/audit").json()
    assert record["seed"] == done["seed"] and record["chance"]["commitment"] == started["commitment"]
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path)]) == 0
    assert "chance audit passed: the seed matches its published commitment" in capsys.readouterr().out
    # a record whose seed is not the committed one fails
    record["seed"] += 1
    path.write_text(json.dumps(record))
    code = cli.main(["replay", str(path)])
    assert code == 1 and "FAILED" in capsys.readouterr().out


def test_private_games_keep_their_commitment_private(client: TestClient) -> None:
    north, south = user(client, "north"), user(client, "south")
    g = new_game(client, north, role="North", private=True)
    gid, invite = g["id"], g["invite_token"]
    r = client.post(f"/api/games/{gid}/join", json={"role": "South", "invite": invite}, headers=south)
    assert r.status_code == 200 and r.json()["status"] == "active", r.text
    assert client.get(f"/api/games/{gid}/chance").status_code == 404
    assert client.get(f"/api/games/{gid}/chance", headers=north).status_code == 200
    assert client.get(f"/api/games/{gid}/chance", params={"invite": invite}).status_code == 200
