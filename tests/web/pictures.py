"""Pictures of the boards for the front page (``roses/web/static/img/board-GAME.jpg``) and the
README's screenshots (``docs/screenshots/``), taken in real Chromium from games on a test
server. Run again after a change to a board: ``.venv/bin/python -m tests.web.pictures``
(``--front`` or ``--docs`` for one kind only)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.web import players
from tests.web.conftest import CHROMIUM_ARGS, PHONE, STATIC, LiveServer

ROOT = Path(__file__).resolve().parents[2]
LAPTOP = {"width": 1366, "height": 768}


def _game(page: Any, body: dict[str, Any]) -> int:
    return int(page.evaluate(players.POST, ["/api/games", body])["id"])


def _roles(page: Any, game: str, scenario: str) -> list[str]:
    out = page.evaluate(players.POST, [f"/api/rules/{game}/roles", {"scenario": scenario, "options": {}}])
    return list(out["roles"])


def front_pictures(browser: Any, srv: LiveServer) -> None:
    """Each game's board in a game of bots, as an observer sees it, 960x600."""
    ctx = browser.new_context(viewport={"width": 1340, "height": 700}, bypass_csp=True)
    page = ctx.new_page()
    players.signup(page, srv.url, f"pics{str(int(time.time() * 1000))[-6:]}")
    for rules in page.evaluate(players.GET, "/api/rules"):
        if rules.get("preview"):
            continue
        gid, scen = rules["id"], rules["scenarios"][0]["id"]
        roles = [r for r in _roles(page, gid, scen) if r != "umpire"]
        game_id = _game(page, {"game": gid, "scenario": scen, "role": None, "bots": dict.fromkeys(roles, "random")})
        deadline = time.time() + 20
        while time.time() < deadline and page.evaluate(players.GET, f"/api/games/{game_id}")["version"] < 30:
            time.sleep(0.5)
        page.goto(f"{srv.url}/games/{game_id}?role=Observer")
        page.wait_for_function("document.body.dataset.version !== undefined", timeout=40000)
        page.wait_for_timeout(1200)
        page.add_style_tag(content="#zoom { display: none !important; }")
        holder = page.locator(".map-holder").first
        box = holder.bounding_box()
        assert box is not None
        page.screenshot(path=str(STATIC / "img" / f"board-{gid}.jpg"), type="jpeg", quality=72,
                        clip={"x": box["x"], "y": box["y"], "width": min(960, box["width"]), "height": min(600, box["height"])})
    ctx.close()


def docs_screenshots(browser: Any, srv: LiveServer) -> None:
    """Richard III as York against a bot, a few turns in, at 1366x768 and 390x844."""
    for size, vp in (("1366x768", LAPTOP), ("390x844", PHONE)):
        phone = vp is PHONE
        ctx = browser.new_context(viewport=vp, is_mobile=phone, has_touch=phone, bypass_csp=True)
        page = ctx.new_page()
        players.signup(page, srv.url, f"docs{size[:3]}{str(int(time.time() * 1000))[-6:]}")
        game_id = _game(page, {"game": "richard3", "scenario": "wars-of-the-roses", "role": "York",
                               "bots": {"Lancaster": "easy"}})
        page.goto(f"{srv.url}/games/{game_id}")
        page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
        players.play_until([page], lambda p=page: p.locator('svg#map g.last-move').count() > 0
                           and bool(players.choices(p)), max_actions=120)
        page.wait_for_timeout(400)
        page.screenshot(path=str(ROOT / "docs" / "screenshots" / f"board-{size}.png"))
        ctx.close()


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    players.load_neighbours(__import__("json").loads((STATIC / "richard3" / "layout.json").read_text(encoding="utf-8")))
    srv = LiveServer(Path(tempfile.mkdtemp()) / "pictures.sqlite3")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            if "--docs" not in argv:
                front_pictures(browser, srv)
            if "--front" not in argv:
                docs_screenshots(browser, srv)
            browser.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
