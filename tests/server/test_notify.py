"""Notifications: settings API, webhook formats (Discord, Slack, JSON) to a local HTTP receiver,
e-mail to a local SMTP server (aiosmtpd), retries with backoff, the last failure shown to the
user, only players who are not connected, invitations."""

from __future__ import annotations

import email
import email.policy
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from roses.server import notify
from roses.server.db import Database
from roses.server.errors import BadRequest
from roses.server.events import TURN, Event
from roses.server.loadbench import free_port
from roses.server.notify import NotifyConfig, check_webhook_url, webhook_body

from .conftest import act, build_client, new_game, user


class Receiver:
    """A webhook receiver on 127.0.0.1: records JSON bodies; fails the first ``fail`` requests."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, dict[str, Any]]] = []
        self.fail = 0
        self.calls = 0
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                with outer.lock:
                    outer.calls += 1
                    failing = outer.fail > 0
                    if failing:
                        outer.fail -= 1
                    else:
                        outer.bodies.append((self.path, body))
                self.send_response(500 if failing else 204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append({"to": list(envelope.rcpt_tos), "data": envelope.content.decode("utf-8", "replace")})
        return "250 OK"


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    monkeypatch.setenv("ROSES_WEBHOOK_ALLOW_LOCAL", "1")
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def mailbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[Mailbox]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setenv("ROSES_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("ROSES_SMTP_PORT", str(port))
    monkeypatch.setenv("ROSES_SMTP_FROM", "roses@example.test")
    monkeypatch.setenv("ROSES_SMTP_TLS", "none")
    monkeypatch.setenv("ROSES_NOTIFY_RETRY_BASE", "0.05")
    monkeypatch.setenv("ROSES_NOTIFY_RETRY_CAP", "0.2")
    monkeypatch.setenv("ROSES_NOTIFY_POLL", "0.05")
    monkeypatch.setenv("ROSES_NOTIFY_ATTEMPTS", "3")
    monkeypatch.setenv("ROSES_WEBHOOK_ALLOW_LOCAL", "1")
    yield box
    controller.stop()


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def test_formats() -> None:
    d = webhook_body("discord", TURN, "It is your turn.", "http://x/games/1", 1, "T", {})
    assert d["content"] == "It is your turn. http://x/games/1" and d["allowed_mentions"] == {"parse": []}
    s = webhook_body("slack", TURN, "It is your turn.", "http://x/games/1", 1, "T", {})
    assert s == {"text": "It is your turn. <http://x/games/1|Open the game>"}
    j = webhook_body("json", TURN, "It is your turn.", "http://x/games/1", 1, "T", {"version": 3, "secret": 1})
    assert j["event"] == "turn" and j["game_id"] == 1 and j["version"] == 3 and "secret" not in j
    assert check_webhook_url("https://discord.com/api/webhooks/1/x")


@pytest.mark.parametrize("url", ["http://example.com/hook", "https://127.0.0.1/x", "http://localhost:8/x",
                                 "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[::1]/x",
                                 "ftp://example.com/", "https:///nohost"])
def test_webhook_urls_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No webhooks to this machine or private addresses (unless ROSES_WEBHOOK_ALLOW_LOCAL=1)."""
    monkeypatch.delenv("ROSES_WEBHOOK_ALLOW_LOCAL", raising=False)
    with pytest.raises(BadRequest):
        check_webhook_url(url)


def test_local_webhooks_when_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_WEBHOOK_ALLOW_LOCAL", "1")
    assert check_webhook_url("http://127.0.0.1:9/hook") and check_webhook_url("http://localhost/x")
    with pytest.raises(BadRequest):
        check_webhook_url("http://example.com/hook")


def test_backoff_is_bounded_with_jitter() -> None:
    c = NotifyConfig(retry_base=2.0, retry_cap=30.0)
    delays = [c.backoff(n) for n in range(1, 12)]
    assert all(0 < d <= 45.0 for d in delays)
    assert 1.0 <= c.backoff(1) <= 3.0
    assert len({round(c.backoff(3), 6) for _ in range(20)}) > 1  # jitter


def test_settings_api(database: Database) -> None:
    with build_client(database) as client:
        me = user(client, "setter")
        r = client.get("/api/me/settings", headers=me)
        assert r.status_code == 200
        assert r.json() == {"email": None, "email_verified": False, "notify": False, "webhook_url": None, "webhook_format": "json",
                            "webhook_error": None, "webhook_error_at": None, "retrying_error": None}
        assert client.get("/api/me/settings").status_code == 401
        for bad in ({"webhook_url": "http://example.com/x"}, {"webhook_url": "ftp://127.0.0.1/"},
                    {"webhook_format": "teams"}, {"email": "not-an-address"}, {"colour": "red"}):
            r = client.put("/api/me/settings", json=bad, headers=me)
            assert r.status_code == 400, (bad, r.text)
        r = client.put("/api/me/settings", json={"email": "a@example.test", "notify": True,
                                                 "webhook_url": "https://hooks.slack.com/services/T/B/x",
                                                 "webhook_format": "slack"}, headers=me)
        assert r.status_code == 200, r.text
        assert r.json()["notify"] is True and r.json()["webhook_format"] == "slack"
        r = client.put("/api/me/settings", json={"webhook_url": None}, headers=me)  # partial update
        assert r.json()["webhook_url"] is None and r.json()["email"] == "a@example.test"


def _enable(client: Any, who: dict[str, str], mailbox: Mailbox | None = None, **body: Any) -> None:
    r = client.put("/api/me/settings", json={"notify": True, **body}, headers=who)
    assert r.status_code == 200, r.text
    if body.get("email") and mailbox is not None:
        confirm(client, mailbox, body["email"])


def confirm(client: Any, mailbox: Mailbox, address: str) -> None:
    """Follow the confirmation link mailed to ``address`` (mail goes only to confirmed ones)."""
    mail = wait_for(lambda: [m for m in mailbox.messages if m["to"] == [address] and "confirm" in m["data"]])
    text = email.message_from_string(mail[-1]["data"], policy=email.policy.default).get_content()  # type: ignore[attr-defined]
    link = re.search(r"/api/auth/verify-email\?token=[\w-]+", text).group(0)  # type: ignore[union-attr]
    r = client.get(link)
    assert r.status_code == 200 and "confirmed" in r.text, r.text
    mailbox.messages.clear()


def test_game_notifications_only_to_players_not_connected(sqlite_db: Database, receiver: Receiver,
                                                          mailbox: Mailbox) -> None:
    with build_client(sqlite_db) as client:
        north, south = user(client, "north"), user(client, "south")
        _enable(client, north, mailbox, webhook_url=receiver.url + "/north", webhook_format="discord",
                email="north@example.test")
        _enable(client, south, webhook_url=receiver.url + "/south", webhook_format="slack")
        g = new_game(client, north, role="North", title="Bosworth")
        client.post(f"/api/games/{g['id']}/join", json={"role": "South"}, headers=south)
        # Started (both) and "your turn" (both active in the toy game's simultaneous pick).
        wait_for(lambda: len(receiver.bodies) >= 4 and len(mailbox.messages) >= 2)
        paths = sorted(p for p, _ in receiver.bodies)
        assert paths == ["/north", "/north", "/south", "/south"]
        north_texts = [b["content"] for p, b in receiver.bodies if p == "/north"]
        assert any("Bosworth" in t and "has started" in t for t in north_texts)
        assert any("your turn" in t for t in north_texts)
        assert all("text" in b for p, b in receiver.bodies if p == "/south")
        assert all(m["to"] == ["north@example.test"] for m in mailbox.messages)
        assert any("Subject: Your turn: Bosworth" in m["data"] for m in mailbox.messages)
        receiver.bodies.clear()
        # North watches the game: North's turn comes and North gets nothing; South (away) does.
        with client.websocket_connect(f"/api/games/{g['id']}/ws?role=North", headers=north) as ws:
            ws.receive_json()
            ws.receive_json()
            assert act(client, g["id"], north, "pick", 1).status_code == 200
            assert act(client, g["id"], south, "pick", 2).status_code == 200  # North's turn
            assert act(client, g["id"], north, "roll").status_code == 200  # South's turn
            wait_for(lambda: any(p == "/south" for p, _ in receiver.bodies))
            time.sleep(0.3)
            assert [p for p, _ in receiver.bodies] == ["/south"]
        client.app.state.presence.heartbeat()


def test_retry_then_success_and_last_failure_shown(sqlite_db: Database, receiver: Receiver,
                                                   mailbox: Mailbox) -> None:
    with build_client(sqlite_db) as client:
        me = user(client, "hooked")
        _enable(client, me, webhook_url=receiver.url + "/hook")
        receiver.fail = 2  # two failures, then success (3 attempts allowed)
        assert client.post("/api/me/settings/test", headers=me).status_code == 202
        wait_for(lambda: receiver.bodies)
        assert receiver.calls == 3
        assert receiver.bodies[0][1]["event"] == "test"
        assert client.get("/api/me/settings", headers=me).json()["webhook_error"] is None
        receiver.fail = 100  # always failing: gives up after 3 attempts and tells the user
        client.post("/api/me/settings/test", headers=me)
        error = wait_for(lambda: client.get("/api/me/settings", headers=me).json()["webhook_error"])
        assert "HTTP 500" in error and "3 attempts" in error
        assert receiver.calls == 6  # bounded
        # A new URL clears the error.
        _enable(client, me, webhook_url=receiver.url + "/other")
        assert client.get("/api/me/settings", headers=me).json()["webhook_error"] is None


def test_unreachable_webhook_error(sqlite_db: Database, mailbox: Mailbox) -> None:
    with build_client(sqlite_db) as client:
        me = user(client, "nowhere")
        _enable(client, me, webhook_url=f"http://127.0.0.1:{free_port()}/gone")
        client.post("/api/me/settings/test", headers=me)
        error = wait_for(lambda: client.get("/api/me/settings", headers=me).json()["webhook_error"])
        assert "Connect" in error


def test_invitation(sqlite_db: Database, receiver: Receiver, mailbox: Mailbox) -> None:
    with build_client(sqlite_db) as client:
        host, guest, stranger = user(client, "host"), user(client, "guest"), user(client, "stranger")
        _enable(client, guest, mailbox, webhook_url=receiver.url + "/guest", email="guest@example.test")
        g = new_game(client, host, role="North", private=True, title="Towton")
        r = client.post(f"/api/games/{g['id']}/invite", json={"user": "Guest"}, headers=host)
        assert r.status_code == 202, r.text
        body = wait_for(lambda: receiver.bodies)[0][1]
        assert body["event"] == "invited" and "host invites you" in body["text"]
        assert f"invite={g['invite_token']}" in body["url"]
        wait_for(lambda: mailbox.messages)
        assert client.post(f"/api/games/{g['id']}/invite", json={"user": "nobody"},
                           headers=host).status_code == 404
        # Someone who cannot see the private game cannot invite to it.
        assert client.post(f"/api/games/{g['id']}/invite", json={"user": "guest"},
                           headers=stranger).status_code == 404


def test_outbox_row_sent_once_by_two_workers(sqlite_db: Database, receiver: Receiver) -> None:
    """Two notifiers (two workers) on one database: each queued notification goes out once."""
    import asyncio

    from roses.server.auth import create_user

    with sqlite_db.write() as conn:
        u = create_user(conn, "twice", "correct horse")
    notify.put_settings(sqlite_db, u.id, {"notify": True, "webhook_url": receiver.url + "/w"})
    cfg = NotifyConfig(poll=0.05, retry_base=0.05)
    a, b = notify.Notifier(sqlite_db, None, cfg), notify.Notifier(sqlite_db, None, cfg)
    for n in range(10):
        a.notify(Event(notify.TEST, 0, n, users=(u.id,)))
    a.queue_events()

    async def both() -> None:
        await asyncio.gather(a.deliver_once(), b.deliver_once(), a.deliver_once(), b.deliver_once())

        await a.stop()
        await b.stop()

    asyncio.run(both())
    assert len(receiver.bodies) == 10
    assert a.stats.sent + b.stats.sent == 10



def test_users_without_a_channel_are_remembered_until_their_settings_change(sqlite_db: Database,
                                                                             receiver: Receiver) -> None:
    """The notifier does not ask again about a user who wants no notification
    (QUIET_SECONDS), and asks at once after that user's settings change through the API."""
    with build_client(sqlite_db, bots=False) as client:
        north, south = user(client, "quietn"), user(client, "quiets")
        north_id = client.get("/api/me", headers=north).json()["id"]
        notifier = client.app.state.notifier
        asked: list[set[int]] = []
        real = notifier._wanting

        def spy(ids: set[int]) -> set[int]:
            asked.append(set(ids))
            return real(ids)

        notifier._wanting = spy
        g = new_game(client, north, role="North")
        client.post(f"/api/games/{g['id']}/join", json={"role": "South"}, headers=south)

        def steps(who: dict[str, str]) -> None:  # three steps end a turn in the toy game
            for _ in range(3):
                assert act(client, g["id"], who, "step").status_code == 200

        assert act(client, g["id"], north, "pick", 1).status_code == 200
        assert act(client, g["id"], south, "pick", 2).status_code == 200  # North's turn
        wait_for(lambda: any(north_id in ids for ids in asked))
        before = len(asked)
        steps(north)  # South's turn
        steps(south)  # North's turn again: North is remembered, not asked about
        wait_for(lambda: len(asked) > before)
        time.sleep(2 * notify.BATCH_SECONDS + 0.2)
        assert all(north_id not in ids for ids in asked[before:])
        # North turns notifications on (through the API): the next turn of North's is sent.
        _enable(client, north, webhook_url=receiver.url + "/north")
        steps(north)
        steps(south)  # North's turn
        wait_for(lambda: any(p == "/north" for p, _ in receiver.bodies))
