"""The page routes without a browser: redirects, escaping, unknown games (FastAPI TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from roses.web import pages


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from roses.server.app import create_app
    from roses.server.config import Settings

    db = Path(tmp_path_factory.mktemp("pages")) / "roses.sqlite3"
    app = create_app(Settings(database_url=f"sqlite:///{db}", bots=False, secure_cookies=False))
    pages.install(app)
    pages.install(app)  # idempotent
    with TestClient(app) as c:
        yield c


def test_front_page_and_static(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "Sign up" in r.text
    assert client.get("/static/richard3/layout.json").status_code == 200
    assert client.get("/static/js/game.js").status_code == 200


def test_pages_need_login_and_redirect_back(client: TestClient) -> None:
    r = client.get("/lobby", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=%2Flobby"
    assert client.get("/profile", follow_redirects=False).status_code == 303


@pytest.mark.parametrize("target", ["//evil.example", "/\\evil.example", "https://evil.example", "/x\nSet-Cookie"])
def test_no_open_redirect(client: TestClient, target: str) -> None:
    r = client.get("/login", params={"next": target})
    assert 'data-next="/lobby"' in r.text


def test_unknown_game_page(client: TestClient) -> None:
    r = client.get("/games/999999")
    assert r.status_code == 200 and "Game not found" in r.text


def test_json_in_pages_cannot_close_the_script_element() -> None:
    text = pages.json_script({"title": "</script><script>alert(1)</script>&"})
    assert "<" not in text and ">" not in text and "&" not in text


def test_title_is_escaped_in_the_lobby_and_game_page(client: TestClient) -> None:
    assert client.post("/api/auth/signup", json={"name": "pagesuser", "password": "pw-pages-1"}).status_code == 201
    csrf = client.cookies.get("roses_csrf")
    evil = "<img src=x onerror=alert(1)>"
    g = client.post("/api/games", json={"game": "richard3", "title": evil, "role": "York"},
                    headers={"X-CSRF-Token": csrf}).json()
    lobby = client.get("/lobby").text
    assert evil not in lobby and "&lt;img src=x onerror=alert(1)&gt;" in lobby
    page = client.get(f"/games/{g['id']}").text
    assert evil not in page
