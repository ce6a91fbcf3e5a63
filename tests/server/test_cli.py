"""The `roses serve` and `roses admin` commands, run as a user would."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from roses.cli import main
from roses.server import auth
from roses.server.db import Database
from roses.server.service import GameService


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _finished_game(url: str) -> int:
    database = Database(url)
    database.migrate()
    svc = GameService(database)
    with database.write() as conn:
        n = auth.create_user(conn, "north", "quiet harbour 1")
        s = auth.create_user(conn, "south", "quiet harbour 1")
    gid = int(svc.create_game(n, "toy", scenario="short", role="North")["id"])
    svc.join(s, gid, "South")
    svc.act(n, gid, "North", "pick", 3, 0)
    svc.act(s, gid, "South", "pick", 3, 1)
    version = 2
    while svc.view(n, gid)["status"] == "active":
        who, role = (n, "North") if svc.view(n, gid)["active"] == ["North"] else (s, "South")
        svc.act(who, gid, role, "roll", None, version)
        version += 1
    database.dispose()
    return gid


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`roses --help` and each subcommand's --help print and exit 0 (argparse expands % in help)."""
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("play", "arena", "bench", "fuzz", "replay", "games", "serve", "admin"):
        assert command in out
    for command in ("play", "arena", "bench", "fuzz", "replay", "games", "serve", "admin"):
        with pytest.raises(SystemExit) as exc:
            main([command, "--help"])
        assert exc.value.code == 0, command


def test_admin_rebuild_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = f"sqlite:///{tmp_path}/a.db"
    dst = f"sqlite:///{tmp_path}/b.db"
    gid = _finished_game(src)
    assert main(["admin", "rebuild", str(gid), "--db", src]) == 0
    assert "ok" in capsys.readouterr().out
    out_file = tmp_path / "game.json"
    assert main(["admin", "export", str(gid), "--db", src, "-o", str(out_file)]) == 0
    record = json.loads(out_file.read_text())
    assert record["game"] == "toy" and record["result"] in ("North", "South")
    assert main(["admin", "import", str(out_file), "--db", dst]) == 0
    assert "imported as game 1" in capsys.readouterr().out
    assert main(["admin", "rebuild", "all", "--db", dst, "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["ok"] is True
    assert main(["admin", "export", "99", "--db", src]) == 2  # unknown game: clear error
    assert "no game 99" in capsys.readouterr().err
    assert main(["admin", "create-user", "boss", "--password", "long enough", "--admin", "--db", dst]) == 0
    assert main(["admin", "seat", "1", "South", "--user", "boss", "--db", dst]) == 0
    assert main(["admin", "seat", "1", "West", "--bot", "random", "--db", dst]) == 2
    assert main(["admin", "seat", "1", "South", "--user", "nobody", "--db", dst]) == 2
    capsys.readouterr()
    assert main(["admin", "export", "1", "--db", dst]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert players == [{"role": "North", "user": None, "bot": None}, {"role": "South", "user": "boss", "bot": None}]


def _serve(url: str, tmp_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("ROSES_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "roses.cli", "serve", "--port", str(port), "--db", url,
                             "--log-level", "warning", "--bot-processes", "0"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError(f"server did not start: {proc.communicate()[0].decode()[-2000:]}")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_serve_runs_and_answers(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/serve.db"
    else:
        base_url, schema = request.getfixturevalue("pg_schema")
        url = base_url.replace("postgresql+psycopg://", "postgresql://") + f"?options=-csearch_path%3D{schema}"
    proc, base = _serve(url, tmp_path)
    try:
        health: dict[str, Any] = httpx.get(base + "/api/health").json()
        assert health["database"] == ("sqlite" if backend == "sqlite" else "postgresql")
        assert "/api/games" in httpx.get(base + "/openapi.json").json()["paths"]
        with httpx.Client(base_url=base) as c:
            r = c.post("/api/auth/signup", json={"name": f"cli{backend}", "password": "long enough"})
            assert r.status_code == 201, r.text
            r = c.post("/api/games", json={"game": "richard3"},
                       headers={"X-CSRF-Token": r.json()["csrf_token"]})
            assert r.status_code in (201, 404)
    finally:
        proc.terminate()
        proc.wait(15)


def test_real_server_websocket_play(tmp_path: Path) -> None:
    """Through uvicorn's own WebSocket stack: cookie login, same-origin socket, an action over
    the socket against a bot, state pushes."""
    from websockets.sync.client import connect

    from roses.engine import available_games

    if "richard3" not in available_games():
        pytest.skip("needs roses.games.richard3")
    proc, base = _serve(f"sqlite:///{tmp_path}/ws.db", tmp_path)
    try:
        with httpx.Client(base_url=base) as c:
            r = c.post("/api/auth/signup", json={"name": "wsuser", "password": "long enough"})
            csrf = r.json()["csrf_token"]
            g = c.post("/api/games", json={"game": "richard3", "role": "York", "bots": {"Lancaster": "random"}},
                       headers={"X-CSRF-Token": csrf}).json()
            cookie = f"roses_session={c.cookies['roses_session']}"
        ws_url = base.replace("http://", "ws://") + f"/api/games/{g['id']}/ws"
        with connect(ws_url, additional_headers={"Cookie": cookie, "Origin": base}) as ws:
            state = json.loads(ws.recv(timeout=30))
            assert state["type"] == "state" and state["role"] == "York"
            assert json.loads(ws.recv(timeout=30))["type"] == "chat"
            deadline = time.monotonic() + 60
            for attempt in range(1, 20):
                while "actions" not in (state["view"] or {}) and time.monotonic() < deadline:
                    state = json.loads(ws.recv(timeout=60))  # wait for the bot
                actions = state["view"]["actions"]
                verb = next(v for v in actions if v != "undo")
                arg = None if actions[verb] is True else actions[verb][0]
                sent = state["version"]
                ws.send(json.dumps({"type": "action", "verb": verb, "arg": arg, "version": sent,
                                    "id": attempt}))
                reply = json.loads(ws.recv(timeout=30))
                while reply.get("id") != attempt:  # pushes (the bot's moves, or this action's) may come first
                    if reply["type"] == "state":
                        state = reply
                    reply = json.loads(ws.recv(timeout=30))
                if reply["type"] == "ok":
                    break
                # Simultaneous phase: the bot moved first, so the version was stale. Retry.
                assert reply["code"] == "stale_version", reply
            assert reply == {"type": "ok", "id": attempt}
            # the push of a state after the action: it may have come before the "ok"
            pushed = state
            while pushed["type"] != "state" or pushed["version"] <= sent:
                pushed = json.loads(ws.recv(timeout=30))
            ws.send(json.dumps({"type": "action", "verb": verb, "arg": arg, "version": sent, "id": 99}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m.get("id") == 99:
                    assert m["type"] == "error" and m["status"] in (409, 422)
                    break
        with connect(ws_url, additional_headers={"Cookie": cookie, "Origin": "https://evil.example"}) as ws:
            assert json.loads(ws.recv(timeout=30))["role"] == "Observer"  # cross-site: cookie ignored
    finally:
        proc.terminate()
        proc.wait(15)
