"""Faults a new user met on the pages, each pinned by a test.

* The replay page of a game still running says so and links the game page (no page error).
* "Send me a test notification" says where it goes and what cannot be sent (no mail server,
  nothing set) instead of promising a failure message that never comes.
* An e-mail address given at sign-up is for turn notifications: they start on.
* A game without a clock never asks for clocks.

(`roses --help` is covered by tests/server/test_cli.py::test_help_lists_every_command.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server.notify import NotifyConfig, channels_for_test
from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from roses.app import create_app
    from roses.server.config import Settings

    db = Path(tmp_path_factory.mktemp("faults")) / "roses.sqlite3"
    app = create_app(Settings(database_url=f"sqlite:///{db}", bots=False, secure_cookies=False))
    with TestClient(app) as c:
        yield c


def _signup(client: TestClient, name: str, email: str | None = None) -> dict[str, str]:
    body: dict[str, Any] = {"name": name, "password": "pw-faults-1"}
    if email:
        body["email"] = email
    r = client.post("/api/auth/signup", json=body)
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": client.cookies.get("roses_csrf") or ""}


def test_email_given_at_signup_turns_notifications_on(client: TestClient) -> None:
    _signup(client, "mailer", email="mailer@example.test")
    s = client.get("/api/me/settings").json()
    assert s["email"] == "mailer@example.test" and s["notify"] is True
    _signup(client, "nomail")
    assert client.get("/api/me/settings").json()["notify"] is False


def test_signup_page_says_whether_the_server_sends_mail(client: TestClient) -> None:
    client.cookies.clear()
    page = client.get("/signup").text
    assert "this server sends no e-mail" in page  # the test app has no mail server


def test_test_notification_with_nothing_to_send_to_says_so(client: TestClient) -> None:
    headers = _signup(client, "silent")
    r = client.post("/api/me/settings/test", headers=headers)
    assert r.status_code == 409 and r.json()["code"] == "no_channel"
    assert "webhook URL" in r.json()["detail"]


def test_test_notification_to_email_without_mail_server_says_so(client: TestClient) -> None:
    headers = _signup(client, "lettered", email="lettered@example.test")
    r = client.post("/api/me/settings/test", headers=headers)
    assert r.status_code == 409
    assert "no mail server" in r.json()["detail"]


def test_test_notification_names_its_channels_and_problems(client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_WEBHOOK_ALLOW_LOCAL", "1")
    headers = _signup(client, "hooker", email="hooker@example.test")
    r = client.put("/api/me/settings", json={"webhook_url": "http://127.0.0.1:9/hook", "notify": False},
                   headers=headers)
    assert r.status_code == 200, r.text
    r = client.post("/api/me/settings/test", headers=headers)
    assert r.status_code == 202, r.text
    out = r.json()
    assert out["channels"] == ["webhook"]
    assert any("no mail server" in p for p in out["problems"])
    assert any("notifications are off" in p for p in out["problems"])


def test_channels_with_a_mail_server() -> None:
    with_mail = NotifyConfig(smtp_host="mail.example.test")
    assert channels_for_test(with_mail, {"email": "a@b.c", "email_verified": True, "notify": True}) == (["email"], [])
    # An address not confirmed yet by its link gets no mail, and the answer says why.
    channels, problems = channels_for_test(with_mail, {"email": "a@b.c", "notify": True})
    assert channels == [] and any("not confirmed" in p for p in problems)
    assert channels_for_test(NotifyConfig(), {"email": "a@b.c", "notify": True})[0] == []


# ------------------------------------------------------------------ in the browser


def _create(page: Any, body: str) -> int:
    game_id: int = page.evaluate(
        """async (body) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body});
            return (await r.json()).id;
        }""", body)
    return game_id


@pytest.mark.browser
def test_replay_of_a_running_game_says_so_without_a_page_error(browser: Any, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"early{str(int(time.time() * 1000))[-6:]}")
    game_id = _create(page, '{"game": "richard3", "role": "York", "bots": {"Lancaster": "random"}}')
    page.goto(f"{live_server.url}/games/{game_id}/replay")
    page.wait_for_selector("body[data-ready='error']", timeout=20000)
    assert "available when the game is over" in page.inner_text("#prompt")
    assert page.locator(f'#prompt a[href="/games/{game_id}"]').count() == 1
    assert page.locator("#replay-controls").is_hidden()
    page.wait_for_timeout(300)
    assert not errors, errors
    ctx.close()


@pytest.mark.browser
def test_a_game_without_a_clock_never_asks_for_clocks(browser: Any, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/clocks" in r.url else None)
    players.signup(page, live_server.url, f"noclock{str(int(time.time() * 1000))[-6:]}")
    game_id = _create(page, '{"game": "richard3", "role": "York", "bots": {"Lancaster": "random"}}')
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
    # play a few moves: every new view arrives, none of them asks for clocks
    for _ in range(3):
        opts = players.choices(page)
        if not opts:
            break
        v = players.version(page)
        players.click_choice(page, players.aggressive(players.payload(page)["view"], opts))
        players.wait_version(page, v)
    page.wait_for_timeout(1500)
    assert asked == []
    # control: a game with a pace does show its clocks
    paced = _create(page, '{"game": "richard3", "role": "York", "bots": {"Lancaster": "random"}, "pace": "daily"}')
    page.goto(f"{live_server.url}/games/{paced}")
    page.wait_for_selector("#clocks:not([hidden])", timeout=40000)
    assert any(f"/games/{paced}/clocks" in u for u in asked)
    ctx.close()
