"""In real Chromium: log lines are styled by their structured kind (the view's ``log_kinds``),
never by matching their English text; action buttons take the server's ``labels``."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><body>
<p id="prompt"></p><dl id="status"></dl><ol id="log"></ol>
</body></html>"""


def _page(browser: Any, static_server: str) -> Any:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_server}/css/")  # any page of the static origin (module imports)
    page.set_content(PAGE)
    page.add_script_tag(type="module", content="""
        import { renderLog, renderView } from "/js/board.js";
        import { GenericGame } from "/js/games/generic.js";
        import { actionLabel } from "/js/actions.js";
        Object.assign(window, { renderLog, renderView, GenericGame, actionLabel });
        window.ready = true;""")
    page.wait_for_function("window.ready === true")
    page.errors = errors
    return page


def test_log_line_classes_come_from_kinds_not_text(browser: Any, static_server: str) -> None:
    page = _page(browser, static_server)
    page.evaluate("""() => renderLog(document.getElementById("log"),
        ["Battle of Kent: York attacks (6.1)", "Battle of Kent: round 1", "Game Turn 2", "Warwick rolls 6"],
        ["battle", "", "turn"])""")
    items = page.locator("#log li")
    assert items.count() == 4
    assert "log-battle" in (items.nth(0).get_attribute("class") or "")
    assert items.nth(0).get_attribute("data-kind") == "battle"
    # "Battle" in the text but no kind: no class at all (no guessing from English)
    for i in (1, 3):
        assert not (items.nth(i).get_attribute("class") or ""), items.nth(i).inner_text()
    assert "log-turn" in (items.nth(2).get_attribute("class") or "")
    # rule references are still emphasised
    assert page.locator("#log li").nth(0).locator(".rule-ref").inner_text() == "(6.1)"
    assert not page.errors


def test_view_log_kinds_and_labels_reach_the_page(browser: Any, static_server: str) -> None:
    page = _page(browser, static_server)
    out = page.evaluate("""() => {
        const game = new GenericGame();
        const view = {prompt: "Choose", log: ["Battle of Kent", "Battle won"], log_kinds: ["", "battle"],
                      actions: {play: [3, "x y"], keep: true, odd: [[1, "a"]]},
                      labels: {play: {"3": "Play Treason", "\\"x y\\"": "Play X"}, keep: {"null": "Keep the hand"}}};
        renderView({ game, hasMap: false }, { view, role: "York", version: 2, status: "active" }, { choices: [] });
        return { classes: [...document.querySelectorAll("#log li")].map((li) => li.className),
                 labels: game.choices(view).map((c) => c.label) };
    }""")
    assert out["classes"] == ["", "log-battle"]
    assert out["labels"] == ["Play Treason", "Play X", "Keep the hand", 'odd: [1,"a"]']
    assert not page.errors
