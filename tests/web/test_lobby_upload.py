"""The lobby's form offers a file field for an option the game's rules mark as uploaded
(``"format": "roses-upload"``), sends the file's JSON, and shows the rules' refusal with each
fault listed; a good file creates the game, and the lobby says what it is played with. Played
in real Chromium with a stub game (``tests/server/plugged.py``) that declares such an option."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roses.server import gamestore
from tests.server.plugged import SMALL_BOARD, register, unregister
from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def plugged_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server whose catalogue lists the stub game beside the installed ones."""
    register()
    installed = gamestore.available_games
    gamestore.available_games = lambda: [*installed(), "plugged"]  # type: ignore[assignment]
    srv = LiveServer(tmp_path_factory.mktemp("roses-upload") / "roses.sqlite3")
    try:
        yield srv
    finally:
        srv.stop()
        gamestore.available_games = installed  # type: ignore[assignment]
        unregister()


def _choose_board(page: Any, path: Path) -> None:
    page.select_option("#create-form select[name=opt-board-source]", "file")
    page.set_input_files("#create-form input[name=opt-board]", str(path))
    page.wait_for_function("document.querySelector('#create-options [role=status]').textContent.includes('read')")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_upload_refused_with_its_faults_then_accepted(browser: Any, plugged_server: LiveServer, tmp_path: Path,
                                                      viewport: dict[str, int]) -> None:
    base = plugged_server.url
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(page, base, f"up{viewport['width']}{stamp}")
    page.goto(f"{base}/lobby")
    page.select_option("#create-game", "plugged")
    assert page.locator("#create-form input[type=file][name=opt-board]").count() == 1
    bad = tmp_path / "bad-board.json"
    bad.write_text(json.dumps({"squares": ["a1", "abc"]}), encoding="utf-8")
    _choose_board(page, bad)
    page.fill("#create-form input[name=title]", f"Upload {stamp}")
    page.click("#create-form button[type=submit]")
    alert = page.locator("#create-form .error")
    alert.wait_for(state="visible")
    assert alert.locator("li").all_inner_texts() == ["the board has no name", "square 'abc' is not a square id"]
    assert "board: 2 fault(s)" in alert.inner_text()
    alert.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path(f"lobby-upload-refused-{viewport['width']}.png")))
    assert page.url.endswith("/lobby")  # nothing was created

    good = tmp_path / "small-board.json"
    good.write_text(json.dumps(SMALL_BOARD), encoding="utf-8")
    _choose_board(page, good)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/games/*")
    game_id = int(page.url.split("/games/")[1].split("?")[0])
    info = page.evaluate("async ([gid]) => (await fetch(`/api/games/${gid}`)).json()", [game_id])
    assert info["options"]["board"] == SMALL_BOARD
    assert info["played_with"] == "Board: The Tiny Shire"
    page.goto(f"{base}/lobby")
    row = page.locator(f"#my-games li[data-game='{game_id}']")
    assert "Board: The Tiny Shire" in row.inner_text()
    page.screenshot(path=str(screenshot_path(f"lobby-upload-listed-{viewport['width']}.png")))
    assert not errors
