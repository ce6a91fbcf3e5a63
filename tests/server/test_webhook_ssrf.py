"""Webhooks cannot be aimed at this machine or the private network: not by another spelling
of a local address when the URL is saved, not by a public-looking name that resolves to a
private address when the webhook is sent (the address connected to is the one checked), and
not through a redirect (redirects are not followed)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from roses.server.db import Database
from roses.server.errors import BadRequest
from roses.server.notify import check_webhook_url

from .conftest import build_client, user

SPELLINGS = ["https://127.1/x", "https://2130706433/x", "https://0x7f000001/x", "https://017700000001/x",
             "https://0/x", "https://0.0.0.0/x", "https://localhost./x", "https://127.0.0.1./x",
             "https://[::ffff:127.0.0.1]/x", "https://[::ffff:7f00:1]/x", "https://[::]/x",
             "https://10.0.0.1./x", "https://012.0.0.1/x", "https://0xa000001/x", "https://167772161/x",
             "https://169.254.169.254./latest", "https://100.64.0.1/x", "https://192.168.1/x",
             "https://[fe80::1]/x", "https://[fc00::1]/x", "https://[2002:7f00:1::]/x", "https://x.localhost/x"]


@pytest.mark.parametrize("url", SPELLINGS)
def test_other_spellings_of_local_addresses_are_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROSES_WEBHOOK_ALLOW_LOCAL", raising=False)
    with pytest.raises(BadRequest):
        check_webhook_url(url)


def test_public_hosts_still_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROSES_WEBHOOK_ALLOW_LOCAL", raising=False)
    for url in ("https://hooks.slack.com/services/T/B/x", "https://8.8.8.8/x", "https://[2001:4860:4860::8888]/x",
                "https://discord.com./api/webhooks/1/x"):
        assert check_webhook_url(url) == url


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    one = Listener()
    yield one
    one.close()


def _wait(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_name_resolving_to_a_local_address_is_not_connected_to(
        sqlite_db: Database, listener: Listener, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS says the webhook's public-looking name is 127.0.0.1 (a rebinding attack, or an
    internal name): the URL is accepted when saved (names are not resolved then), but the
    delivery resolves it, refuses the address and never connects."""
    monkeypatch.delenv("ROSES_WEBHOOK_ALLOW_LOCAL", raising=False)
    monkeypatch.setenv("ROSES_NOTIFY_RETRY_BASE", "0.05")
    monkeypatch.setenv("ROSES_NOTIFY_RETRY_CAP", "0.1")
    monkeypatch.setenv("ROSES_NOTIFY_POLL", "0.05")
    monkeypatch.setenv("ROSES_NOTIFY_ATTEMPTS", "2")
    real = socket.getaddrinfo

    def fake_dns(host: Any, *args: Any, **kwargs: Any) -> Any:
        if str(host).rstrip(".") in ("hook.rebind.example", "private.rebind.example"):
            target = "127.0.0.1" if str(host).startswith("hook") else "10.9.8.7"
            return real(target, *args, **kwargs)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    with build_client(sqlite_db) as client:
        for host in ("hook.rebind.example", "private.rebind.example"):
            me = user(client, host.split(".")[0])
            r = client.put("/api/me/settings", headers=me, json={
                "notify": True, "webhook_url": f"https://{host}:{listener.port}/hook"})
            assert r.status_code == 200, r.text
            assert client.post("/api/me/settings/test", headers=me).status_code == 202
            error = _wait(lambda me=me: client.get("/api/me/settings", headers=me).json()["webhook_error"])
            assert "no public address" in error, error
            assert "127.0.0.1" not in error and "10.9.8.7" not in error  # internal DNS answers are not shown
    assert listener.accepted == 0


class Redirector:
    def __init__(self, location: str) -> None:
        self.calls = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                outer.calls += 1
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(307)
                self.send_header("Location", location)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_redirects_are_not_followed(sqlite_db: Database, listener: Listener, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_WEBHOOK_ALLOW_LOCAL", "1")  # the redirecting receiver runs locally
    monkeypatch.setenv("ROSES_NOTIFY_ATTEMPTS", "1")
    monkeypatch.setenv("ROSES_NOTIFY_POLL", "0.05")
    hop = Redirector(f"http://127.0.0.1:{listener.port}/internal")
    try:
        with build_client(sqlite_db) as client:
            me = user(client, "redirected")
            assert client.put("/api/me/settings", headers=me,
                              json={"notify": True, "webhook_url": hop.url}).status_code == 200
            client.post("/api/me/settings/test", headers=me)
            error = _wait(lambda: client.get("/api/me/settings", headers=me).json()["webhook_error"])
            assert "307" in error and "not followed" in error
    finally:
        hop.close()
    assert hop.calls == 1 and listener.accepted == 0
