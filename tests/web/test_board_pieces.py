"""Pieces drawn as what they are: a mercenary eliminated this campaign lies face down at home
(rules 6.85) and every player sees that; the board draws it as out of play, not as an army."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import Game, get_rules
from roses.games.richard3.data import BLOCK_ID
from roses.games.richard3.views import expand
from tests.web.conftest import STATIC, route_view_tables


def _state_with_scots_down() -> dict[str, Any]:
    rules = get_rules("richard3")
    state = Game.new(rules, seed=3, scenario="wars-of-the-roses").state
    scots = BLOCK_ID["Scots/L"]
    assert state["loc"][scots] == 0  # Scotland, alone there at the start (4.3)
    state["down"][scots] = 1
    return state


def test_face_down_enemy_blocks_are_counted_apart() -> None:
    """6.85: York (and an observer) see one Lancaster block face down in Scotland and no hidden
    army there; Lancaster sees its own Scots block with its flag; no secret is named."""
    rules = get_rules("richard3")
    state = _state_with_scots_down()
    for role in ("York", "Observer"):
        assert "Scots/L" not in str(rules.view(state, role))
        view = expand(rules.view(state, role))
        assert view["face_down"] == {"Scotland": {"Lancaster": 1}}
        assert "Scotland" not in view["hidden"]
        assert "Scots/L" not in str(view)
    own = expand(rules.view(state, "Lancaster"))
    assert own["face_down"] == {}
    assert next(b for b in own["blocks"] if b["key"] == "Scots/L")["down"] is True
    # other hidden counts are unchanged
    fresh = expand(rules.view(Game.new(rules, seed=3, scenario="wars-of-the-roses").state, "York"))
    assert {a: n for a, n in fresh["hidden"].items() if a != "Scotland"} == expand(rules.view(state, "York"))["hidden"]


@pytest.mark.browser
def test_the_board_draws_a_face_down_block_as_out_of_play(browser: Any, static_server: str) -> None:
    rules = get_rules("richard3")
    view = rules.view(_state_with_scots_down(), "York")
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(f"{static_server}/static/**", lambda route: route.fulfill(
        path=str(STATIC / route.request.url.split("/static/", 1)[1])))
    route_view_tables(page, static_server)
    page.goto(f"{static_server}/css/")
    page.set_content('<!doctype html><html><body><svg id="map" width="1200" height="900"></svg></body></html>')
    page.add_style_tag(url=f"{static_server}/css/map.css")
    page.add_script_tag(type="module", content="""
        import { create } from "/js/games/richard3.js";
        window.create = create; window.ready = true;""")
    page.wait_for_function("window.ready === true")
    out = page.evaluate("""async (view) => {
        const game = await create({ svg: document.getElementById("map") });
        game.drawPieces(game.map, view, { role: "York", choices: [], onChoices: () => {} });
        const down = document.querySelector('svg#map g.stack[data-area="Scotland"] g.block.down');
        return { down: !!down, title: down && down.querySelector('title').textContent,
                 text: down && [...down.querySelectorAll('text')].map((t) => t.textContent),
                 army: document.querySelectorAll('svg#map g.stack[data-area="Scotland"] g.block.hidden-block:not(.down)').length };
    }""", view)
    assert out["down"] and out["army"] == 0
    assert "eliminated" in out["title"] and "out" in out["text"]
    assert not errors, errors
