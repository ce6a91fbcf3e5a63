"""The page routes without a browser: redirects, escaping, unknown games (FastAPI TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from roses.engine.registry import get_rules
from roses.web import pages


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from roses.app import create_app
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


def _csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("roses_csrf") or ""}


def test_lobby_offers_only_playable_games_unless_preview(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games in development (Rules.preview) are not offered in the lobby; the preview switch
    lists them, marked; creating one needs preview=true."""
    catalogue = client.get("/api/rules").json()
    if not any(r["preview"] for r in catalogue):  # every shipped game is finished: mark one in development
        other = next(r["id"] for r in catalogue if r["id"] != "richard3")
        monkeypatch.setattr(get_rules(other), "preview", True)
        catalogue = client.get("/api/rules").json()
    previews = [r for r in catalogue if r["preview"]]
    playable = [r for r in catalogue if not r["preview"]]
    assert previews and playable and all(r["id"] != "richard3" for r in previews)
    if client.post("/api/auth/signup", json={"name": "previewer", "password": "pw-preview-1"}).status_code != 201:
        client.post("/api/auth/login", json={"name": "previewer", "password": "pw-preview-1"})
    dev = previews[0]
    roles = dev["scenarios"][0]["roles"]
    r = client.post("/api/games", json={"game": dev["id"], "role": roles[0]}, headers=_csrf(client))
    assert r.status_code == 400 and r.json()["code"] == "preview_game"
    r = client.post("/api/games", json={"game": dev["id"], "role": roles[0], "preview": True,
                                        "title": "Preview table"}, headers=_csrf(client))
    assert r.status_code == 201, r.text
    lobby = client.get("/lobby").text
    assert f'<option value="{dev["id"]}"' not in lobby
    assert "Show games in development (preview)" in lobby
    assert '<option value="richard3"' in lobby
    on = client.get("/lobby", params={"preview": 1}).text
    assert f'<option value="{dev["id"]}"' in on and "(preview: in development)" in on
    assert "Preview on:" in on
    # another player sees the open preview game only under the switch
    client.post("/api/auth/logout", headers=_csrf(client))
    assert client.post("/api/auth/signup", json={"name": "onlooker", "password": "pw-preview-2"}).status_code == 201
    assert "Preview table" not in client.get("/lobby").text
    assert "Preview table" in client.get("/lobby", params={"preview": 1}).text
    game_page = client.get(f"/games/{r.json()['id']}").text
    assert "preview-banner" in game_page
