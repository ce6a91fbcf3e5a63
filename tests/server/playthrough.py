"""Play a whole game of any registered game through the HTTP API and WebSockets with random
legal actions, collecting every payload each role receives and scanning it for the other
roles' hidden information (``Rules.secrets``)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from fastapi.testclient import TestClient

from roses.engine import OBSERVER, get_rules
from roses.server.db import Database
from roses.server.service import GameService

from .conftest import user


class RulesCrash(AssertionError):
    """The rules module raised an unexpected error on an action its own view listed."""


def _state(database: Database, gid: int) -> dict[str, Any]:
    """The game's state as stored (snapshot, log rows and actions; not the server's cache)."""
    return dict(GameService(database).stored_state(gid))


def play_and_scan(client: TestClient, database: Database, game: str, scenario: str | None = None,
                  seed: int = 1, max_steps: int = 400, use_ws: bool = True,
                  bad_every: int = 3) -> dict[str, Any]:
    """Returns a summary; raises AssertionError on a leak or a refused legal action."""
    rules = get_rules(game)
    scenario = scenario or rules.scenarios[0]
    roles = rules.roles(scenario)
    picker = random.Random(seed)
    heads = {r: user(client, f"p{i}_{seed}") for i, r in enumerate(roles)}
    watcher = user(client, f"watch_{seed}")
    created = client.post("/api/games", json={"game": game, "scenario": scenario, "role": roles[0],
                                              "preview": bool(rules.preview)},  # games in development too
                          headers=heads[roles[0]])
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    for r in roles[1:]:
        res = client.post(f"/api/games/{gid}/join", json={"role": r}, headers=heads[r])
        assert res.status_code == 200, res.text
    everyone = [*roles, OBSERVER]
    heads[OBSERVER] = watcher
    received: dict[str, list[str]] = {r: [] for r in everyone}
    leaks: list[str] = []
    stack = contextlib.ExitStack()
    sockets: dict[str, Any] = {}
    if use_ws:
        for r in everyone:
            params = "" if r == OBSERVER else f"?role={r}"
            sockets[r] = stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws{params}", headers=heads[r]))
            first = sockets[r].receive_json()
            received[r].append(json.dumps(first))
            if r != OBSERVER:
                received[r].append(json.dumps(sockets[r].receive_json()))  # chat backlog

    def scan(version: int) -> None:
        state = _state(database, gid)
        for r in everyone:
            secrets = rules.secrets(state, r)
            for payload in received[r]:
                for token in secrets:
                    if token in payload:
                        at = payload.index(token)
                        leaks.append(f"{r} received {token!r} at version {version}: "
                                     f"...{payload[max(0, at - 120):at + 40]}...")
            received[r].clear()

    def get(r: str, path: str, **params: Any) -> Any:
        res = client.get(path, params=params, headers=heads[r])
        received[r].append(res.text)
        return res

    steps = 0
    refused = 0
    with stack:
        scan(0)
        while steps < max_steps:
            info = get(OBSERVER, f"/api/games/{gid}").json()
            if info["status"] != "active":
                break
            version = info["version"]
            for r in everyone:
                seen = get(r, f"/api/games/{gid}/view", **({} if r == OBSERVER else {"role": r})).json()
                assert seen["role"] == r and seen["version"] == version
                if steps % 10 == 0:
                    get(r, "/api/games", status="active")
            active = info["active"]
            role = picker.choice(active)
            view = get(role, f"/api/games/{gid}/view", role=role).json()
            choices = [(v, a) for v, args in view["view"].get("actions", {}).items()
                       for a in ([None] if args is True else (args or []))]
            assert choices, f"{role} is active but has no action at version {version}"
            # Every so often, bad requests by another role: they must change nothing and leak nothing.
            if steps % bad_every == 1:
                other = picker.choice([r for r in everyone if r != role])
                bad = client.post(f"/api/games/{gid}/action", headers=heads[other],
                                  json={"role": None if other == OBSERVER else other,
                                        "verb": choices[0][0], "arg": choices[0][1], "version": version - 1})
                received[other].append(bad.text)
                assert bad.status_code in (403, 409, 422), bad.text
                refused += 1
                if other != OBSERVER:
                    bad = client.post(f"/api/games/{gid}/action", headers=heads[other],
                                      json={"role": other, "verb": "no-such-verb", "arg": [1, {"x": 2}],
                                            "version": version})
                    received[other].append(bad.text)
                    assert bad.status_code == 422, bad.text
                    for path in ("export", "replay", "replay/0"):
                        res = get(other, f"/api/games/{gid}/{path}")
                        assert res.status_code == 409
            scan(version)  # what was received so far reflects this version
            real = [c for c in choices if c[0] != "undo"] or choices
            verb, arg = picker.choice(real)
            res = client.post(f"/api/games/{gid}/action", headers=heads[role],
                              json={"role": role, "verb": verb, "arg": arg, "version": version})
            received[role].append(res.text)
            if res.status_code == 422 and res.json().get("code") == "malformed_action":
                raise RulesCrash(f"{game}: {verb} {arg!r} by {role} at version {version} made the rules fail")
            assert res.status_code == 200, f"{verb} {arg!r} by {role} refused: {res.text}"
            for r, ws in sockets.items():
                while True:
                    msg = ws.receive_json()
                    received[r].append(json.dumps(msg))
                    assert msg.get("type") != "state" or msg["role"] == r, f"{r}'s socket got {msg['role']}'s view"
                    if msg.get("type") == "state" and msg["version"] >= version + 1:
                        break
            steps += 1
            scan(version + 1)
    final = client.get(f"/api/games/{gid}").json()
    return {"game_id": gid, "steps": steps, "refused": refused, "leaks": leaks, "status": final["status"],
            "result": final["result"], "roles": roles, "heads": heads}
