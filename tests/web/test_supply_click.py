"""In real Chromium: a Richard III Supply Phase decision is made by clicking (rule 7.1).

Rule 7.1: an area holding more friendly blocks than its supply limit (4, or 5 with a city) costs
its owner one step per block over the limit each Supply Phase, the owner choosing which block.
A seeded game that reaches such a decision is found with the engine, imported into the live
server with two signed-up browser users in its seats, and the deciding player clicks a block.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from roses.engine import Game, get_rules
from tests.richard3.helpers import phase
from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, screenshot_path

pytestmark = pytest.mark.browser


def _supply_record() -> tuple[dict[str, Any], str]:
    """A record of a seeded random game stopped where a role must take a 7.1 supply loss."""
    rules = get_rules("richard3")
    for seed in range(1, 400):
        game = Game.new(rules, seed, "richard-iii")
        rng = random.Random(seed)
        for _ in range(3000):
            if game.result() is not None:
                break
            role = game.active()[0]
            legal = rules.legal_actions(game.state, role)
            if phase(game.state) == "supply" and any(v == "reduce" for v, _ in legal):
                return game.record(), role
            verb, arg = legal[rng.randrange(len(legal))]
            game.apply(role, verb, arg)
    raise AssertionError("no seeded game reached a supply loss (7.1)")


def test_supply_loss_chosen_by_clicking_rule_7_1(browser: Any, live_server: LiveServer) -> None:
    """Rule 7.1: the owner picks, by clicking a highlighted block, which block loses a step."""
    record, role = _supply_record()
    other = "Lancaster" if role == "York" else "York"
    base = live_server.url
    ctx_me, ctx_them = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    me, them = ctx_me.new_page(), ctx_them.new_page()
    errors: list[str] = []
    for p in (me, them):
        p.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    names = {role: f"sup{role[:4].lower()}{stamp}", other: f"sup{other[:4].lower()}{stamp}"}
    players.signup(me, base, names[role])
    players.signup(them, base, names[other])
    record = {**record, "title": f"Supply {stamp}",
              "players": [{"role": r, "user": n} for r, n in names.items()]}
    game_id = live_server.services.games.import_record(record, private=False)
    seq = len(record["actions"])

    for p in (me, them):
        p.goto(f"{base}/games/{game_id}")
        p.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        p.wait_for_function(f"Number(document.body.dataset.version || -1) >= {seq}", timeout=40000)
    view = players.payload(me)["view"]
    assert view["role"] == role and view["phase"] == "supply"
    assert "lose a step" in view["prompt"] and "supply" in view["prompt"], view["prompt"]
    opts = players.choices(me)
    reduce = [c for c in opts if c["verb"] == "reduce"]
    assert reduce and all(c["verb"] in ("reduce", "undo") for c in opts), opts
    assert all(c["kind"] == "block" for c in reduce), reduce
    assert players.choices(them) == []  # the other side waits (7.1: the owner chooses)
    # the candidates are highlighted on the map (legal blocks)
    for c in reduce:
        assert me.locator(f'svg#map g.block.legal[data-block="{c["ref"]}"], '
                          f'button.chip.legal[data-block="{c["ref"]}"]').count() > 0, c
    me.screenshot(path=str(screenshot_path("supply-decision.png")))

    line = f"{role} loses a step in"

    def losses(p: Any) -> int:
        return sum(line in str(x) for x in (players.payload(p)["view"].get("log") or []))

    before, before_them = players.version(me), players.version(them)
    lost = {id(p): losses(p) for p in (me, them)}
    choice = reduce[0]
    players.click_choice(me, choice)
    after = players.wait_version(me, before)
    assert after > before
    players.wait_version(them, before_them)  # the other player's page updates too

    export = live_server.services.games.admin_export(game_id)
    last = export["actions"][seq]
    assert (last["role"], last["verb"], last["arg"]) == (role, "reduce", choice["arg"])
    for p in (me, them):
        assert losses(p) == lost[id(p)] + 1  # the step loss is in both players' logs
        p.wait_for_selector(f"text={line}", timeout=20000)
    assert not errors, errors
    ctx_me.close()
    ctx_them.close()
