"""Bot seats: bots move off the event loop through the same checked path as players."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from roses.ai import factory as botmod
from roses.server import botcaps, bots
from roses.server.db import Database
from roses.server.service import GameService

from .conftest import act, build_client, new_game, user


def _wait_finished(client: TestClient, gid: int, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.app.state.roses.bots.wait_idle(timeout)
        info = client.get(f"/api/games/{gid}").json()
        if info["status"] == "finished":
            return dict(info)
        time.sleep(0.05)
    raise AssertionError("bot game did not finish")


def test_bots_play_a_whole_game(client: TestClient) -> None:
    a = user(client, "owner")
    g = new_game(client, a, bots={"North": "random", "South": "random"})
    info = _wait_finished(client, g["id"])
    assert info["result"] in ("North", "South")
    assert client.get(f"/api/games/{g['id']}/export").json()["actions"]


def test_bot_answers_a_human(client: TestClient) -> None:
    a = user(client, "human")
    g = new_game(client, a, role="North", bots={"South": "random"})
    gid = g["id"]
    assert client.app.state.roses.bots.wait_idle(90)
    info = client.get(f"/api/games/{gid}").json()
    assert info["active"] == ["North"] and info["version"] == 1  # the bot picked at once
    r = act(client, gid, a, "pick", 2, version=1)
    assert r.status_code == 200
    for _ in range(200):
        assert client.app.state.roses.bots.wait_idle(90)
        info = client.get(f"/api/games/{gid}").json()
        if info["status"] == "finished":
            break
        assert info["active"] == ["North"]
        assert act(client, gid, a, "roll", version=info["version"]).status_code == 200
    assert info["status"] == "finished"
    # Nobody may act for a bot's seat.
    r = client.post(f"/api/games/{gid}/action", json={"role": "South", "verb": "roll", "version": info["version"]}, headers=a)
    assert r.status_code == 403


def test_bot_moves_resume_after_restart(sqlite_db: Database) -> None:
    with build_client(sqlite_db, bots=False) as c:
        a = user(c, "late")
        g = new_game(c, a, bots={"North": "random", "South": "random"})
        assert c.get(f"/api/games/{g['id']}").json()["version"] == 0
    assert GameService(sqlite_db).pending_bot_games() == [g["id"]]
    with build_client(sqlite_db) as c:
        info = _wait_finished(c, g["id"])
        assert info["status"] == "finished"


def test_a_bot_move_left_by_a_server_that_died_is_taken_over(sqlite_db: Database) -> None:
    """Behind a balancer a bot's move is scheduled on the server that made the last action; if
    that server dies, the sweeping server (the ``bots`` leader) schedules it once the game has
    waited: here a game whose bots were never scheduled (bots off when it was made)."""
    with build_client(sqlite_db, bots=False) as c:
        a = user(c, "human")
        g = new_game(c, a, role="North", bots={"South": "random"})
        assert "South" in c.get(f"/api/games/{g['id']}").json()["active"]  # the bot's pick waits
    svc = GameService(sqlite_db)
    assert svc.stalled_bot_games(0) == [g["id"]]
    assert svc.stalled_bot_games(3600) == []  # not yet waited long enough
    runner = bots.BotRunner(svc, threads=1, sweep_every=0)
    try:
        assert g["id"] in runner.sweep(0)
        assert runner.wait_idle(60)
        with build_client(sqlite_db, bots=False) as c:
            info = c.get(f"/api/games/{g['id']}").json()
        assert info["version"] == 1 and info["active"] == ["North"]  # the bot picked; the human's turn
        assert g["id"] not in svc.stalled_bot_games(0)  # a human to act: nothing to sweep
    finally:
        runner.close()


def test_a_failing_bot_falls_back_to_random_moves(client: TestClient, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    real = botmod.make_bot

    class Broken:
        name = "broken"

        def choose(self, rules, view, role):  # type: ignore[no-untyped-def]
            raise RuntimeError("thinking failed")

    def fake(name: str, seed: int = 0, **kw):  # type: ignore[no-untyped-def]
        return Broken() if name == "broken" else real(name, seed=seed, **kw)

    # Both places that make bots: the service (checks the name) and the runner (plays).
    monkeypatch.setattr(botcaps, "make_bot", fake)
    monkeypatch.setattr(bots, "make_bot", fake)
    a = user(client, "tester")
    g = new_game(client, a, bots={"North": "broken", "South": "random"})
    assert _wait_finished(client, g["id"])["status"] == "finished"
