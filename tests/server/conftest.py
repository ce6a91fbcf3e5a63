"""Fixtures: the toy test game in the registry, databases on SQLite and PostgreSQL, the app.

PostgreSQL tests use ``ROSES_TEST_POSTGRES_URL``; each test session works in a schema of its
own. When ``ROSES_REQUIRE_POSTGRES=1`` an unreachable PostgreSQL fails the tests; otherwise
they are skipped.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from roses.app import create_app
from roses.engine.registry import get_rules
from roses.server.config import Settings
from roses.server.db import ALL_TABLES, Database, normalize_url
from tests.engine import toygame

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes() -> Iterator[None]:
    """argon2id with a small cost: the tests hash hundreds of passwords on a shared machine."""
    from argon2 import PasswordHasher

    from roses.server import auth

    auth.configure_hasher(time_cost=1, memory_cost=1024, parallelism=1)
    yield
    default = PasswordHasher()
    auth.configure_hasher(default.time_cost, default.memory_cost, default.parallelism)


@pytest.fixture(autouse=True, scope="session")
def toy_game() -> Iterator[None]:
    """Register the engine's toy game as ``roses.games.toy`` (tests only)."""
    sys.modules["roses.games.toy"] = toygame
    get_rules.cache_clear()
    yield
    sys.modules.pop("roses.games.toy", None)
    get_rules.cache_clear()


def _pg_unavailable(message: str) -> None:
    if os.environ.get("ROSES_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"ROSES_REQUIRE_POSTGRES=1 but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[tuple[str, str]]:
    """(url, schema): a migrated schema of this test session on the test PostgreSQL."""
    url = os.environ.get("ROSES_TEST_POSTGRES_URL")
    if not url:
        _pg_unavailable("ROSES_TEST_POSTGRES_URL is not set")
        return
    url = normalize_url(url)
    schema = f"roses_t_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        admin = sa.create_engine(url, connect_args={"connect_timeout": 5})
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # noqa: BLE001
        _pg_unavailable(f"PostgreSQL at {url.split('@')[-1]} is unreachable: {type(exc).__name__}: {exc}")
        return
    database = Database(url, connect_args={"options": f"-csearch_path={schema}"})
    database.migrate()
    database.dispose()
    yield url, schema
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def make_database(backend: str, tmp_path: Any, request: pytest.FixtureRequest, name: str = "roses") -> Database:
    if backend == "sqlite":
        database = Database(f"sqlite:///{tmp_path}/{name}.db")
        database.migrate()
        return database
    url, schema = request.getfixturevalue("pg_schema")
    database = Database(url, connect_args={"options": f"-csearch_path={schema}"})
    with database.write() as conn:
        conn.execute(sa.text("TRUNCATE " + ", ".join(ALL_TABLES) + " RESTART IDENTITY CASCADE"))
    return database


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Database]:
    database = make_database(request.param, tmp_path, request)
    yield database
    database.dispose()


@pytest.fixture
def sqlite_db(tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Database]:
    database = make_database("sqlite", tmp_path, request)
    yield database
    database.dispose()


def build_client(database: Database, **settings: Any) -> TestClient:
    settings.setdefault("migrate", False)
    app = create_app(Settings(database_url=database.url, **settings), database=database)
    return TestClient(app)


@pytest.fixture
def client(database: Database) -> Iterator[TestClient]:
    with build_client(database) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_db: Database) -> Iterator[TestClient]:
    with build_client(sqlite_db) as c:
        yield c


def user(client: TestClient, name: str, password: str = "correct horse") -> dict[str, str]:
    """Sign up ``name`` and return Bearer headers for it (the client keeps no cookie)."""
    r = client.post("/api/auth/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf_token"]
    r = client.post("/api/tokens", json={"name": "tests"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def new_game(client: TestClient, owner: dict[str, str], **body: Any) -> dict[str, Any]:
    body.setdefault("game", "toy")
    r = client.post("/api/games", json=body, headers=owner)
    assert r.status_code == 201, r.text
    return dict(r.json())


def started_toy(client: TestClient) -> tuple[int, dict[str, str], dict[str, str]]:
    """A started toy game: (id, North's headers, South's headers)."""
    north = user(client, "north")
    south = user(client, "south")
    g = new_game(client, north, role="North")
    r = client.post(f"/api/games/{g['id']}/join", json={"role": "South"}, headers=south)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active"
    return g["id"], north, south


def act(client: TestClient, gid: int, who: dict[str, str], verb: str, arg: Any = None,
        version: int | None = None, role: str | None = None) -> Any:
    if version is None:
        version = client.get(f"/api/games/{gid}", headers=who).json()["version"]
    body: dict[str, Any] = {"verb": verb, "arg": arg, "version": version}
    if role:
        body["role"] = role
    return client.post(f"/api/games/{gid}/action", json=body, headers=who)


def next_message(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on a play socket (skipping chat and other side messages)."""
    for _ in range(20):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] in ("chat", "messages", "game"), msg
    raise AssertionError(f"no {kind} message")
