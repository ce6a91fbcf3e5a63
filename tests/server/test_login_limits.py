"""Login limits: counted atomically (concurrent guesses cannot all slip past a check made
before any failure was written), per address, per name and address and per name with
back-off, and never a hard lock of the real user: the per-name back-off does not hold up a
browser that user logged in from before."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from roses.app import create_app
from roses.server.config import Settings
from roses.server.db import Database
from roses.server.loadbench import ServerProcess

from .conftest import make_database

GUESSES = 30


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_concurrent_guesses_are_all_counted(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    database = make_database(backend, tmp_path, request, name="guesses")
    url = database.url
    if backend == "postgres":
        _, schema = request.getfixturevalue("pg_schema")
        url += ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"
    server = ServerProcess(url, log_path=tmp_path / "server.log")
    server.start()
    try:
        r = httpx.post(server.base + "/api/auth/signup", json={"name": "victim", "password": "correct horse"})
        assert r.status_code == 201, r.text

        async def guesses() -> list[int]:
            async with httpx.AsyncClient(timeout=60) as client:
                answers = await asyncio.gather(*(
                    client.post(server.base + "/api/auth/login", json={"name": "victim", "password": f"guess {i}"})
                    for i in range(GUESSES)))
            return [a.status_code for a in answers]

        codes = asyncio.run(guesses())
    finally:
        server.stop()
        database.dispose()
    assert set(codes) <= {401, 429}, codes
    # The default allows 10 failures before back-off: the other guesses were refused unchecked.
    assert codes.count(401) <= 10, codes
    assert codes.count(429) >= GUESSES - 10


def _client(database: Database, address: str, **settings: object) -> TestClient:
    app = create_app(Settings(database_url=database.url, migrate=False, bots=False, **settings),  # type: ignore[arg-type]
                     database=database)
    return TestClient(app, client=(address, 40000))


def test_an_attacker_cannot_lock_the_real_user_out(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    from roses.server import limits

    now = limits.time.time()
    monkeypatch.setattr(limits.time, "time", lambda: now)  # no back-off runs out during the test
    with _client(database, "198.51.100.7") as home, _client(database, "203.0.113.5") as attacker, \
            _client(database, "192.0.2.44") as elsewhere:
        assert home.post("/api/auth/signup", json={"name": "owner", "password": "correct horse"}).status_code == 201
        csrf = home.get("/api/me").json()["csrf_token"]
        assert home.post("/api/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
        codes = [attacker.post("/api/auth/login", json={"name": "owner", "password": f"guess {i}"}).status_code
                 for i in range(40)]
        assert codes[:10] == [401] * 10 and 429 in codes  # the attacker is slowed down
        r = attacker.post("/api/auth/login", json={"name": "owner", "password": "correct horse"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # The real user's browser (it logged in before) is not held up by the attack.
        r = home.post("/api/auth/login", json={"name": "owner", "password": "correct horse"})
        assert r.status_code == 200, r.text
        # A new browser elsewhere waits out a bounded back-off, never a lock.
        r = elsewhere.post("/api/auth/login", json={"name": "owner", "password": "correct horse"})
        assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 300


def test_backoff_grows_and_is_forgotten(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    from roses.server import limits

    clock = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: clock[0])
    with _client(sqlite_db, "203.0.113.9", login_limit=2, login_backoff_cap=8.0, login_window=100.0) as c:
        assert c.post("/api/auth/signup", json={"name": "slow", "password": "correct horse"}).status_code == 201
        c.cookies.clear()
        waits = []
        for _ in range(14):
            r = c.post("/api/auth/login", json={"name": "slow", "password": "wrong one"})
            if r.status_code == 429:  # waits out the back-off, then guesses again
                waits.append(int(r.headers["Retry-After"]))
                clock[0] += waits[-1]
            else:
                assert r.status_code == 401
        assert waits[:5] == [1, 2, 4, 8, 8]  # doubling, capped
        clock[0] += 101  # failures are forgotten after the window
        assert c.post("/api/auth/login", json={"name": "slow", "password": "correct horse"}).status_code == 200


def test_successful_logins_are_not_counted_as_failures(sqlite_db: Database) -> None:
    """Many people behind one address (a school, a NAT) logging in successfully never reach
    the per-address limit."""
    with _client(sqlite_db, "198.51.100.99", login_ip_limit=5) as c:
        for i in range(3):
            assert c.post("/api/auth/signup", json={"name": f"pupil{i}", "password": "correct horse"}).status_code == 201
        c.cookies.clear()
        for _ in range(4):
            for i in range(3):
                r = c.post("/api/auth/login", json={"name": f"pupil{i}", "password": "correct horse"})
                assert r.status_code == 200, r.text
