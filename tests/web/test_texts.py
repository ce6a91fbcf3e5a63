"""Why an option is not offered, from the engine: the Treason card's roll (6.9) explained in
Richard III's views, the /why answer of the server (the rules' own refusal, nothing stored),
and the page showing both."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.engine import Game, get_rules
from roses.games.richard3 import common as C
from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, module_page


def _find(kind: str) -> tuple[Game, str]:
    """A seeded random game up to the first view of York or Lancaster carrying a Treason note
    that starts with ``kind``."""
    rules = get_rules("richard3")
    for seed in range(60):
        game = Game.new(rules, seed=seed, scenario="wars-of-the-roses")
        rnd = random.Random(seed)
        for _ in range(2500):
            active = game.active()
            if not active or game.result():
                break
            for role in ("York", "Lancaster"):
                notes = rules.view(game.state, role).get("notes") or []
                if any(n.startswith(kind) for n in notes):
                    return game, role
            role = active[0]
            game.apply(role, *rnd.choice(rules.legal_actions(game.state, role)))
    raise AssertionError(f"no game reached a Treason note {kind!r}")


def test_treason_roll_not_offered_says_why() -> None:
    """Treason card (6.9): in a battle where no enemy block outside the Reserve has a loyalty
    number the roll is not offered; the player's view says so, and that it waits."""
    rules = get_rules("richard3")
    game, role = _find("Your Treason roll was not offered")
    state = game.state
    side = ("York", "Lancaster").index(role)
    bt = state["battle"]
    assert bt is not None and state["treason"] == side and state["stack"][-1]["step"] != "treason"
    foes = [b for b in bt["revealed"] if C.owner(state, b) != side]
    assert foes and all(C.treachery_dice(state, b, C.TREASON) == 0 for b in foes)
    note = rules.view(state, role)["notes"][0]
    assert "loyalty number" in note and "(6.9)" in note and "waits" in note
    other = "Lancaster" if role == "York" else "York"
    assert "notes" not in rules.view(state, other) and "notes" not in rules.view(state, "Observer")


def test_treason_roll_ready_and_kept_notes() -> None:
    rules = get_rules("richard3")
    game, role = _find("Your Treason roll is ready")
    assert game.state["battle"] is None
    game, role = _find("You kept your Treason roll")
    assert any("makes no Treason roll" in line for line in rules.log_for(game.state, role))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from roses.app import create_app
    from roses.server.config import Settings

    db = Path(tmp_path_factory.mktemp("why")) / "roses.sqlite3"
    app = create_app(Settings(database_url=f"sqlite:///{db}", bots=False, secure_cookies=False))
    with TestClient(app) as c:
        yield c


def test_why_gives_the_rules_reason_and_changes_nothing(client: TestClient) -> None:
    assert client.post("/api/auth/signup", json={"name": "asker", "password": "pw-why-1"}).status_code == 201
    headers = {"X-CSRF-Token": client.cookies.get("roses_csrf") or ""}
    g = client.post("/api/games", json={"game": "richard3", "role": "York", "bots": {"Lancaster": "easy"}},
                    headers=headers).json()
    view = client.get(f"/api/games/{g['id']}/view").json()
    card = view["view"]["hand"][0]["id"]
    r = client.post(f"/api/games/{g['id']}/why", json={"verb": "play", "arg": card, "version": view["version"]},
                    headers=headers)
    assert r.status_code == 200 and r.json()["allowed"] is False and "cannot play" in r.json()["reason"]
    r = client.post(f"/api/games/{g['id']}/why", json={"verb": "keep", "version": view["version"]}, headers=headers)
    assert r.json() == {"allowed": True, "reason": None}
    assert client.get(f"/api/games/{g['id']}/view").json()["version"] == view["version"]  # nothing stored
    # observers may not ask
    client.post("/api/auth/logout", headers=headers)
    client.cookies.clear()
    r = client.post(f"/api/games/{g['id']}/why", json={"verb": "keep", "version": view["version"]})
    assert r.status_code == 403


@pytest.mark.browser
def test_the_page_shows_why_a_card_cannot_be_played(browser: Any, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"why{str(int(time.time() * 1000))[-6:]}")
    game_id = page.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'richard3', role: 'York', bots: {Lancaster: 'random'}})});
            return (await r.json()).id;
        }""")
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.choices.some(c => c.verb === 'keep')", timeout=40000)
    page.click("#hand .card.why-able >> nth=0")  # the mulligan decision comes before any card
    page.wait_for_selector("#hand-why:not([hidden])")
    text = page.inner_text("#hand-why")
    assert "cannot play" in text and "Now:" in text
    assert not errors, errors
    ctx.close()


@pytest.mark.browser
def test_view_notes_are_shown_under_the_prompt(browser: Any, static_server: str) -> None:
    page, errors = module_page(browser, static_server, '<p id="prompt"></p><ul id="view-notes" hidden></ul><ol id="log"></ol>', """
        import { renderView } from "/js/board.js";
        import { GenericGame } from "/js/games/generic.js";
        Object.assign(window, { renderView, GenericGame });""")
    page.evaluate("""() => renderView({ game: new GenericGame(), hasMap: false },
        { view: { prompt: "Fight", log: [], notes: ["Your Treason roll waits (6.9)."] }, role: "York", status: "active" }, {})""")
    assert page.locator("#view-notes li").inner_text() == "Your Treason roll waits (6.9)."
    assert page.locator("#view-notes").is_visible()
    assert page.locator("#view-notes .rule-ref").inner_text() == "(6.9)"
    assert not errors, errors
