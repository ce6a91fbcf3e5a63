"""Pictures of the boards for the front page (``roses/web/static/img/board-GAME.jpg``) and the
README's screenshots (``docs/screenshots/``), taken in real Chromium from games on a test
server. Run again after a change to a board: ``.venv/bin/python -m tests.web.pictures``
(``--front`` or ``--docs`` for one kind only)."""

from __future__ import annotations

import random
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


def _person(browser: Any, srv: LiveServer, vp: dict[str, int], name: str) -> tuple[Any, Any]:
    phone = vp is PHONE
    ctx = browser.new_context(viewport=vp, is_mobile=phone, has_touch=phone, bypass_csp=True)
    page = ctx.new_page()
    players.signup(page, srv.url, f"{name}{str(int(time.time() * 1000))[-6:]}")
    return ctx, page


def _shot(page: Any, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=str(ROOT / "docs" / "screenshots" / name))


def docs_screenshots(browser: Any, srv: LiveServer) -> None:
    """The README's screenshots at 1366x768 and 390x844: Richard III as York against a bot a few
    turns in (the bot's last moves marked) and at its first battle (and the Battle tab on a phone);
    Plantagenet as York just after a Lancastrian March (marked on the map); Kingmaker as P1
    after the other seats moved, choosing where a noble goes, and his cards in hand."""
    from tests.web.test_board_walk import _r3_policy
    from tests.web.test_last_moves_board import _km_game, _pl_game, _zoom_on_last

    for size, vp in (("1366x768", LAPTOP), ("390x844", PHONE)):
        ctx, page = _person(browser, srv, vp, f"docs{size[:3]}")
        game_id = _game(page, {"game": "richard3", "scenario": "wars-of-the-roses", "role": "York",
                               "bots": {"Lancaster": "easy"}})
        page.goto(f"{srv.url}/games/{game_id}")
        page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
        players.play_until([page], lambda p=page: p.locator('svg#map g.last-move').count() > 0
                           and bool(players.choices(p)), max_actions=120)
        _shot(page, f"board-{size}.png")
        ctx.close()
        # a new game to its first battle: the Battle panel (its tab on a phone) with the blocks fighting
        ctx, page = _person(browser, srv, vp, f"dobt{size[:3]}")
        game_id = _game(page, {"game": "richard3", "scenario": "wars-of-the-roses", "role": "York",
                               "bots": {"Lancaster": "easy"}})
        page.goto(f"{srv.url}/games/{game_id}")
        page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
        players.play_until([page], lambda p=page: bool((players.payload(p).get("view") or {}).get("battle"))
                           and bool(players.choices(p)), policy=_r3_policy(random.Random(46)), max_actions=200, timeout=900)
        players.show_tab_of(page, "svg#map")
        if vp is not PHONE:  # the side column at its Battle panel
            page.locator("#battle-panel").evaluate("(n) => n.scrollIntoView({block: 'start'})")
            page.evaluate("window.scrollTo(0, 0)")
        _shot(page, f"battle-{size}.png")
        if vp is PHONE:
            players.show_tab_of(page, "#battle-panel")
            _shot(page, f"battle-panel-{size}.png")
        ctx.close()

        ctx, page = _person(browser, srv, vp, f"dopl{size[:3]}")
        game_id = srv.services.games.import_record(
            {**_pl_game(), "title": f"Plantagenet {size}", "players": [{"role": "York", "user": _user(page)}]}, private=False)
        page.goto(f"{srv.url}/games/{game_id}")
        page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
        players.show_tab_of(page, "svg#map")
        if vp is PHONE:  # the reading zoom, the choices sheet folded, the map dragged to the march
            page.click("#sheet-toggle")
            page.click("#zoom [data-zoom=read]")
            for _ in range(3):
                players.into_view(page, page.locator("svg#map g.last-move circle").last)
        else:
            _zoom_on_last(page)
        _shot(page, f"plantagenet-{size}.png")
        ctx.close()

        ctx, page = _person(browser, srv, vp, f"dokm{size[:3]}")
        game_id = srv.services.games.import_record(
            {**_km_game(), "title": f"Kingmaker {size}", "players": [{"role": "P1", "user": _user(page)}]}, private=False)
        page.goto(f"{srv.url}/games/{game_id}")
        page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
        if vp is PHONE:
            players.show_tab_of(page, "#hand")
            _shot(page, f"kingmaker-cards-{size}.png")
        else:
            noble = next(c for c in players.choices(page) if c["verb"] == "select")
            players.click_choice(page, {**noble, "kind": "button"})
            page.wait_for_function("window.roses.choices.some((c) => c.verb === 'to')", timeout=20000)
            players.show_tab_of(page, "svg#map")
            page.click("#zoom [data-zoom=read]")
            _shot(page, f"kingmaker-move-{size}.png")
        ctx.close()


def _user(page: Any) -> str:
    """The name the page's person signed up with (the lobby's header shows it)."""
    return str(page.evaluate(players.GET, "/api/me")["name"])


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
