"""Browser test fixtures: Debian's Chromium driven by Playwright.

Tests fail (not skip) when ``ROSES_CHROMIUM`` or ``CI`` is set and Chromium is missing; on a
developer machine without Chromium they skip.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roses.engine import get_rules

STATIC = Path(__file__).resolve().parents[2] / "roses" / "web" / "static"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    """ROSES_CHROMIUM if set (and only it), else Debian's /usr/bin/chromium or one on PATH."""
    explicit = os.environ.get("ROSES_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).exists() else None
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def _required() -> bool:
    return bool(os.environ.get("ROSES_CHROMIUM") or os.environ.get("CI"))


def missing_chromium() -> None:
    """Fail when Chromium is required (ROSES_CHROMIUM or CI set), else skip."""
    if _required():
        pytest.fail("Chromium is required (ROSES_CHROMIUM or CI is set) but was not found")
    pytest.skip("Chromium not installed (install Debian's chromium to run browser tests)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        missing_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dev dependency
        if _required():
            pytest.fail("playwright is required for browser tests")
        pytest.skip("playwright not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield TestBrowser(b)
        finally:
            b.close()


class TestBrowser:
    """The browser for tests: its contexts let Playwright evaluate expressions in pages that
    forbid eval (the server's Content-Security-Policy); tests/server/test_csp.py and
    :func:`csp_violations` check the pages under the real policy."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        kwargs.setdefault("bypass_csp", True)
        return self._browser.new_context(**kwargs)

    def strict_context(self, **kwargs: Any) -> Any:
        """A context that keeps the pages' Content-Security-Policy."""
        return self._browser.new_context(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


#: Collects Content-Security-Policy violations of a page in ``window.__csp`` (add_init_script).
CSP_WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture(scope="session")
def static_server() -> Iterator[str]:
    """Serve roses/web/static over HTTP (module scripts and fetch() need http://)."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def module_page(browser: Any, static_server: str, body: str, script: str) -> tuple[Any, list[str]]:
    """A new page on the static server whose ``<body>`` is ``body``, with the module ``script``
    run (it imports the client's modules by path, ``/js/...``, and puts what the test calls on
    ``window``); returns once it has run, with the list the page's errors go to."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_server}/css/")
    page.set_content(f"<!doctype html><html><body>{body}</body></html>")
    page.add_script_tag(type="module", content=script + "\nwindow.ready = true;")
    page.wait_for_function("window.ready === true")
    return page, errors


def route_view_tables(page: Any, static_server: str, game: str = "richard3") -> None:
    """Answer the page's request for the game's view tables (``GET /api/rules/GAME/tables``,
    which the game's module makes when created) as the server does, on the static server."""
    body = json.dumps(get_rules(game).view_tables())
    page.route(f"{static_server}/api/rules/{game}/tables",
               lambda route: route.fulfill(status=200, content_type="application/json", body=body))


def screenshot_path(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name


# ------------------------------------------------------------------ a real server
class LiveServer:
    """uvicorn in a thread on a free loopback port, with a temp SQLite database."""

    def __init__(self, db_path: Path) -> None:
        import socket

        import uvicorn

        from roses.app import create_app
        from roses.server.config import Settings
        from roses.web import pages

        self.app = create_app(Settings(database_url=f"sqlite:///{db_path}", secure_cookies=False))
        pages.install(self.app)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws="auto", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        import time

        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def services(self) -> Any:
        return self.app.state.roses

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path_factory.mktemp("roses-web") / "roses.sqlite3")
    try:
        yield srv
    finally:
        srv.stop()
