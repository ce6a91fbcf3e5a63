"""Sockets opening at once (as after a restart) take turns: at most ``OPENING_AT_ONCE`` of
them read their first view in a thread at the same time, the others wait on the event loop,
and every one of them opens."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server import ws as ws_module

from .conftest import started_toy


def test_openings_take_turns_and_all_open(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, north, south = started_toy(client)
    monkeypatch.setattr(ws_module, "OPENING_AT_ONCE", 2)
    monkeypatch.setattr(ws_module, "_opening", type(ws_module._opening)())  # a fresh gate
    lock = threading.Lock()
    now = [0]
    most = [0]
    real_open = ws_module._open

    def slow_open(*args: Any) -> Any:
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        try:
            time.sleep(0.1)  # long enough for every socket to be waiting at once
            return real_open(*args)
        finally:
            with lock:
                now[0] -= 1

    monkeypatch.setattr(ws_module, "_open", slow_open)
    roles: list[str] = []
    errors: list[BaseException] = []

    def one(headers: dict[str, str]) -> None:
        try:
            with client.websocket_connect(f"/api/games/{gid}/ws", headers=headers) as sock:
                msg = sock.receive_json()
                assert msg["type"] == "state" and msg["version"] == 0, msg
                with lock:
                    roles.append(msg["role"])
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(h,)) for h in (north, south, {}, north, south, {})]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert sorted(roles) == ["North", "North", "Observer", "Observer", "South", "South"]
    assert most[0] == 2  # they did overlap, two at a time and never more


def test_each_loop_has_its_own_gate() -> None:
    import asyncio

    async def gate() -> asyncio.Semaphore:
        first = ws_module._opening_gate()
        assert ws_module._opening_gate() is first
        return first

    assert asyncio.run(gate()) is not asyncio.run(gate())
