"""Content-Security-Policy: every page (and API answer) carries a strict policy (scripts,
styles and connections only from this server, no inline script or style), and the pages work
under it in a real browser: no violation is reported while they load and run."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from roses.server.app import CONTENT_SECURITY_POLICY
from roses.server.loadbench import ServerProcess

from .conftest import new_game, user


def _policy(header: str) -> dict[str, str]:
    out = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition(" ")
        out[name] = value
    return out


def test_pages_and_api_carry_a_strict_policy(client: TestClient) -> None:
    owner = user(client, "csp")
    g = new_game(client, owner, role="North")
    for path in ("/", "/login", "/signup", "/lobby", f"/games/{g['id']}", "/static/js/api.js", "/api/health",
                 "/api/games/999999", "/openapi.json"):
        r = client.get(path, headers=owner)
        header = r.headers.get("content-security-policy")
        assert header == CONTENT_SECURITY_POLICY, (path, header)
    policy = _policy(CONTENT_SECURITY_POLICY)
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["default-src"] == "'none'" and policy["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "*" not in CONTENT_SECURITY_POLICY


def _chromium() -> str | None:
    explicit = os.environ.get("ROSES_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).exists() else None
    return shutil.which("chromium")


WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + e.lineNumber));
"""


@pytest.mark.browser
@pytest.mark.slow
def test_pages_run_under_the_policy_in_a_browser(tmp_path: Path) -> None:
    path = _chromium()
    if path is None:
        if os.environ.get("ROSES_CHROMIUM") or os.environ.get("CI"):
            pytest.fail("Chromium is required (ROSES_CHROMIUM or CI is set) but was not found")
        pytest.skip("Chromium not installed")
    from playwright.sync_api import sync_playwright

    server = ServerProcess(f"sqlite:///{tmp_path}/csp.db", log_path=tmp_path / "server.log")
    server.start()
    try:
        base = server.base
        # A second player with a running Richard III game against a bot.
        r = httpx.post(base + "/api/auth/signup", json={"name": "cspowner", "password": "correct horse 1"})
        assert r.status_code == 201, r.text
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.add_init_script(WATCH)
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
            seen: dict[str, Any] = {}

            def visit(url: str, ready: str | None = None) -> None:
                page.goto(base + url)
                page.wait_for_load_state("networkidle")
                if ready:
                    page.wait_for_selector(ready, state="attached", timeout=20000)
                seen[url] = page.evaluate("window.__csp")

            visit("/")
            visit("/login")
            page.goto(base + "/signup")
            page.fill("input[name=name]", "cspplayer")
            page.fill("input[name=password]", "correct horse 1")
            page.click("#signup-form button[type=submit]")
            page.wait_for_url("**/lobby")
            seen["signup"] = page.evaluate("window.__csp")
            visit("/lobby")
            visit("/profile")
            game = page.evaluate("""async () => {
                const csrf = (await (await fetch('/api/me')).json()).csrf_token;
                const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json',
                    'X-CSRF-Token': csrf}, body: JSON.stringify({game: 'richard3', role: 'York', bots: {Lancaster: 'random'}})});
                return await r.json();
            }""")
            visit(f"/games/{game['id']}", "#map g, #map path, #map rect")
            visit(f"/games/{game['id']}/replay")
            browser.close()
    finally:
        server.stop()
    assert all(v == [] for v in seen.values()), seen
    assert console == [], console
