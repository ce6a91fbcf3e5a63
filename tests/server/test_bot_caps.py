"""Bot thought is capped by the server: a budget above the per-move caps is refused when the
bot is seated, every move is cut at the per-move cap, a game's bots stop searching once they
used the per-game time; bots of different games share the CPU fairly; shutdown (SIGTERM)
stops searches at once and no think process outlives the server, not even after kill -9."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.ai import factory
from roses.ai.bot import RandomBot
from roses.engine import get_rules
from roses.engine.errors import UnknownGame
from roses.server import botcaps, bots, db
from roses.server.botcaps import BotCaps
from roses.server.db import Database
from roses.server.loadbench import ServerProcess

from .conftest import build_client, new_game, user

try:
    get_rules("richard3")
    HAVE_R3 = True
except UnknownGame:
    HAVE_R3 = False
needs_r3 = pytest.mark.skipif(not HAVE_R3, reason="richard3 is not installed")


@pytest.mark.parametrize("name", ["ismcts:99999", "ismcts:11", "ismcts:i10000000", "ismcts:i20001",
                                  "heuristic:100000", "ismcts:1:r100000", "ismcts:1:h99", "ismcts:1:w100000"])
def test_budgets_above_the_caps_are_refused(client: TestClient, name: str) -> None:
    owner = user(client, "greedy")
    r = client.post("/api/games", json={"game": "toy", "bots": {"South": name}}, headers=owner)
    assert r.status_code == 400 and r.json()["code"] == "bot_budget", r.text
    assert "per move" in r.json()["detail"] or "allows" in r.json()["detail"] or "at most" in r.json()["detail"]
    g = new_game(client, owner)
    r = client.post(f"/api/games/{g['id']}/bot", json={"role": "South", "bot": name}, headers=owner)
    assert r.status_code == 400 and r.json()["code"] == "bot_budget", r.text
    with pytest.raises(Exception, match="per move|allows|at most"):
        client.app.state.roses.games.admin_seat(g["id"], "South", bot=name)
    # Within the caps: accepted.
    r = client.post(f"/api/games/{g['id']}/bot", json={"role": "South", "bot": "ismcts:2"}, headers=owner)
    assert r.status_code == 200, r.text


def test_game_cap_also_bounds_one_move() -> None:
    with pytest.raises(botcaps.BotBudgetError):
        botcaps.check_budget("ismcts:5", BotCaps(move_seconds=10, move_iterations=100, game_seconds=4))
    botcaps.check_budget("hard", BotCaps())


@needs_r3
def test_every_move_stops_at_the_move_cap(sqlite_db: Database) -> None:
    """A budget of a million iterations (allowed here) still stops at the 0.3 s per-move cap."""
    caps = BotCaps(move_seconds=0.3, move_iterations=10**7, game_seconds=3600)
    with build_client(sqlite_db, bot_caps=caps) as client:
        owner = user(client, "capped")
        g = new_game(client, owner, game="richard3", role="Lancaster", bots={"York": "ismcts:i1000000"})
        runner = client.app.state.roses.bots
        started = time.monotonic()
        assert runner.wait_idle(20), "the bot did not stop at the cap"
        assert time.monotonic() - started < 15
        assert client.get(f"/api/games/{g['id']}").json()["version"] >= 1
        with sqlite_db.read() as conn:
            used = conn.execute(sa.select(db.seats.c.bot_seconds).where(db.seats.c.role == "York")).scalar()
        assert 0 < used < 3.0


class Slow(RandomBot):
    """A random bot that takes ``pause`` seconds per move (stands for a big search budget)."""

    name = "slow"
    pause = 0.2

    def decide(self, rules: Any, view: Any, role: str, determinize: Any = None) -> Any:
        time.sleep(self.pause)
        return super().decide(rules, view, role, determinize)


def _with_slow_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    real = factory.make_bot

    def fake(name: str, seed: int = 0, **kw: Any) -> Any:
        return Slow(seed) if name == "slow" else real(name, seed=seed, **kw)

    monkeypatch.setattr(botcaps, "make_bot", fake)
    monkeypatch.setattr(bots, "make_bot", fake)


def test_bots_share_the_cpu_fairly_across_games(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games of slow bots keep both bot threads busy; a third game of quick bots still
    finishes at once instead of waiting for them (one move per turn, least-used game first)."""
    _with_slow_bot(monkeypatch)
    with build_client(sqlite_db) as client:
        owner = user(client, "fair")
        slow = [new_game(client, owner, game="toy", scenario="standard", bots={"North": "slow", "South": "slow"})
                for _ in range(2)]
        time.sleep(0.5)  # both slow games are thinking
        quick = new_game(client, owner, game="toy", bots={"North": "random", "South": "random"})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if client.get(f"/api/games/{quick['id']}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        info = client.get(f"/api/games/{quick['id']}").json()
        assert info["status"] == "finished", info
        moved = [client.get(f"/api/games/{g['id']}").json()["version"] for g in slow]
        client.app.state.roses.bots.close()
    # The slow games moved as well (each kept its share), and the quick one did not wait for them.
    assert all(v > 0 for v in moved), moved


def test_game_time_cap_switches_to_the_quick_fallback(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    _with_slow_bot(monkeypatch)
    caplog.set_level("INFO", logger="roses.server")
    caps = BotCaps(move_seconds=5, move_iterations=1000, game_seconds=0.5)
    with build_client(sqlite_db, bot_caps=caps) as client:
        owner = user(client, "budget")
        g = new_game(client, owner, game="toy", scenario="standard", bots={"North": "slow", "South": "slow"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and client.get(f"/api/games/{g['id']}").json()["status"] != "finished":
            time.sleep(0.05)
        assert client.get(f"/api/games/{g['id']}").json()["status"] == "finished"
    with sqlite_db.read() as conn:
        used = conn.execute(sa.select(sa.func.sum(db.seats.c.bot_seconds))).scalar()
    assert used < 0.5 + 2 * Slow.pause + 0.5, used  # the slow bots stopped at the cap
    assert f"plays as {botcaps.FALLBACK}" in caplog.text


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _thinking_server(tmp_path: Path) -> tuple[ServerProcess, list[int]]:
    """A server whose bot process is deep in a 300-second search."""
    server = ServerProcess(f"sqlite:///{tmp_path}/think.db", log_path=tmp_path / "server.log",
                           env={"ROSES_BOT_MOVE_SECONDS": "600", "ROSES_BOT_GAME_SECONDS": "3600"})
    server.start()
    r = httpx.post(server.base + "/api/auth/signup", json={"name": "thinker", "password": "correct horse"})
    csrf = r.json()["csrf_token"]
    r = httpx.post(server.base + "/api/games", cookies=r.cookies, headers={"X-CSRF-Token": csrf},
                   json={"game": "richard3", "role": "Lancaster", "bots": {"York": "ismcts:300"}})
    assert r.status_code == 201, r.text
    assert server.proc is not None
    deadline = time.monotonic() + 30
    kids: list[int] = []
    while time.monotonic() < deadline:
        kids = _children(server.proc.pid)
        if kids:
            break
        time.sleep(0.2)
    time.sleep(3)  # the spawned process has imported the game and is searching
    kids = _children(server.proc.pid)
    assert kids, "no bot process"
    return server, kids


@needs_r3
@pytest.mark.slow
def test_sigterm_stops_searches_promptly(tmp_path: Path) -> None:
    server, kids = _thinking_server(tmp_path)
    assert server.proc is not None
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    try:
        server.proc.wait(timeout=20)
    except Exception:
        server.kill()
        for pid in kids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        raise AssertionError("the server did not stop within 20 s of SIGTERM") from None
    assert time.monotonic() - started < 20
    server.stop()  # (already stopped) closes its log
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(p) for p in kids):
        time.sleep(0.1)
    assert not any(_alive(p) for p in kids)
    # The think pool's semaphores were released at shutdown, not left to the resource
    # tracker (which warns of "leaked semaphore objects" on the server's stderr).
    log = (tmp_path / "server.log").read_text()
    assert "leaked" not in log, log[-2000:]


@needs_r3
@pytest.mark.slow
def test_no_think_process_outlives_a_killed_server(tmp_path: Path) -> None:
    server, kids = _thinking_server(tmp_path)
    server.kill()  # SIGKILL: no shutdown code runs in the server
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(p) for p in kids):
        time.sleep(0.1)
    left = [p for p in kids if _alive(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "a think process kept computing after its server was killed"
