"""Every installed game runs through the server: a short random game over HTTP and WebSockets,
with every payload scanned for the other roles' hidden information (SQLite only, kept short;
Richard III has its own longer tests in test_richard3.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from roses.engine import available_games
from roses.server.db import Database

from .playthrough import RulesCrash, play_and_scan


@pytest.mark.parametrize("game", [g for g in available_games() if g != "richard3"])
def test_installed_game_through_the_server(game: str, sqlite_client: TestClient, sqlite_db: Database) -> None:
    try:
        out = play_and_scan(sqlite_client, sqlite_db, game, seed=11, max_steps=40, bad_every=10)
    except RulesCrash as exc:
        pytest.xfail(f"{game} rules error (not the server's): {exc}")
    assert out["leaks"] == [], out["leaks"][:5]
    assert out["steps"] > 0
