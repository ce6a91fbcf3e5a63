"""Combats fought on a table, on the page (docs/kingmaker/umpire.md; rulebook L203, L226, L271),
in real Chromium: a game with the options ``umpire`` and ``tabletop``, a person in the umpire's
seat, bots in the players' seats.

Each combat is put to the umpire first. His Battle panel shows the two sides and offers the
Event card (the published default) or a table; he lets the card decide the first combat. For
the second he gives the attacker's seat to a second person from the Table panel (a player who
left, replaced), who sees the pending combat and what the umpire is deciding;
the umpire has it fought on a table and enters its result in one form (the noble killed, who
won), which the page sends as the rules' verbs in order (``table``, ``kill``, ``done``,
``outcome``); no Event card is drawn, and the newcomer reads the result. Nothing hidden from
the umpire (the decks' order) or from the newcomer's seat reaches their browsers."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest

from roses.engine import get_rules
from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, screenshot_path
from tests.web.leaks import Secrets, Traffic

pytestmark = pytest.mark.browser

RULES = get_rules("kingmaker")




def _umpire_asked(server: LiveServer, game_id: int, after: int, timeout: float = 240.0) -> int:
    """Wait (the bots play) until the umpire is asked about a combat after version ``after``;
    its version."""
    end = time.time() + timeout
    while time.time() < end:
        info = server.services.games.game(None, game_id)
        assert info["status"] == "active", f"the game ended before a combat: {info['result']}"
        if info["active"] == ["umpire"] and info["version"] > after:
            return int(info["version"])
        time.sleep(0.2)
    raise AssertionError("no combat was put to the umpire in time")


def _scan(secrets: Secrets, role: str, page: Any, traffic: Traffic, since: int = 0) -> int:
    """No secret of ``role`` in a payload (against its version's secrets), in any other text
    (against those of every version from ``since``) or in the page (now); returns the payloads."""
    last = secrets.every_version([role])
    always = set.intersection(*(secrets.at(v, role) for v in range(since, last + 1)))
    views = 0
    for chunk in traffic.texts():
        data: Any = None
        with contextlib.suppress(ValueError):
            data = json.loads(chunk)
        if isinstance(data, dict) and data.get("game_id") == secrets.game_id and "view" in data:
            tags = secrets.at(int(data["version"]), role)
            views += 1
        else:
            tags = always
        leaked = [s for s in tags if s in chunk]
        assert not leaked, f"{role}'s browser received the secrets {leaked}"
    dom = page.content()
    leaked = [s for s in secrets.at(last, role) if s in dom]
    assert not leaked, f"{role}'s page shows the secrets {leaked}"
    return views


def test_the_umpire_lets_the_card_decide_or_enters_the_result_of_a_table(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    stamp = str(int(time.time() * 1000))[-6:]
    ctx_u, ctx_b = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    u, b = ctx_u.new_page(), ctx_b.new_page()
    errors: list[str] = []
    u.on("pageerror", lambda e: errors.append(f"umpire: {e}"))
    b.on("pageerror", lambda e: errors.append(f"newcomer: {e}"))
    u.on("dialog", lambda d: d.accept())
    traffic_u, traffic_b = Traffic(u), Traffic(b)
    players.signup(u, base, f"kmtu{stamp}")
    newcomer = f"kmtb{stamp}"
    players.signup(b, base, newcomer)
    game_id = int(u.evaluate(players.POST, ["/api/games", {"game": "kingmaker", "role": "umpire", "preview": True,
                                                   "options": {"players": 2, "umpire": True, "tabletop": True},
                                                   "bots": {"P1": "random", "P2": "random"}}])["id"])

    # The first combat: the umpire lets the Event card decide (the published default).
    first = _umpire_asked(live_server, game_id, 0)
    u.goto(f"{base}/games/{game_id}")
    u.wait_for_selector("[data-screen=tabletop] button.km-tabletop-cards", timeout=40000)
    assert players.version(u) == first
    t = players.payload(u)["view"]["tabletop"]
    assert t["stage"] == "mark" and t["attacker"] in ("P1", "P2")
    panel = u.inner_text("[data-screen=tabletop]")
    assert f"Attacker: {t['attacker']} ({t['attack']})" in panel and "The umpire decides how it is fought" in panel
    for n in t["attackers"] + t["defenders"]:
        assert n["name"] in panel
    assert players.payload(u)["view"]["default"] == ["cards", None]
    u.locator("#battle-panel").screenshot(path=str(screenshot_path("kingmaker-tabletop-mark.png")))
    u.click("[data-screen=tabletop] button.km-tabletop-cards")
    u.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=first, timeout=40000)
    record = live_server.services.games.admin_export(game_id)
    assert (record["actions"][first]["role"], record["actions"][first]["verb"]) == ("umpire", "cards")
    traffic_u.texts()
    u.goto("about:blank")  # the bots play on

    # The second combat: a person takes the attacker's seat, the umpire has it fought on a table.
    second = _umpire_asked(live_server, game_id, first)
    u.goto(f"{base}/games/{game_id}")
    u.wait_for_selector("[data-screen=tabletop] button.km-tabletop-table", timeout=40000)
    t = players.payload(u)["view"]["tabletop"]
    seat = t["attacker"]
    events_before = players.payload(u)["view"]["event_deck"]
    players.show_tab_of(u, "#table-panel")
    give = u.locator(f'#table form.give-form[data-role="{seat}"]')
    give.locator("input[name=user]").fill(newcomer)
    give.locator("button[type=submit]").click()
    u.wait_for_function("(s) => ![...document.querySelectorAll('#table form.give-form')].some(f => f.dataset.role === s)",
                        arg=seat, timeout=40000)
    seats = {s["role"]: (s["user"], s["bot"]) for s in live_server.services.games.game(None, game_id)["seats"]}
    assert seats[seat] == (newcomer, None)

    b.goto(f"{base}/games/{game_id}")
    b.wait_for_selector("[data-screen=tabletop]", timeout=40000)
    assert players.payload(b)["role"] == seat and players.version(b) == second
    shown = b.inner_text("[data-screen=tabletop]")
    assert "The umpire decides how it is fought" in shown and f"Attacker: {seat}" in shown
    assert b.locator("[data-screen=tabletop] button, [data-screen=tabletop] form").count() == 0
    assert "hands" not in players.payload(b)["view"] and "chancery_cards" not in players.payload(b)["view"]
    b.screenshot(path=str(screenshot_path("kingmaker-tabletop-player.png")))

    u.click("[data-screen=tabletop] button.km-tabletop-table")
    u.wait_for_selector("form.km-tabletop-result", timeout=40000)
    b.wait_for_function("() => document.querySelector('[data-screen=tabletop]') &&"
                        " document.querySelector('[data-screen=tabletop]').textContent.includes('fought on a table')",
                        timeout=40000)
    t = players.payload(u)["view"]["tabletop"]
    assert t["stage"] == "killed" and t["killed"] == []
    # Ruling K74: with every noble of a side ticked killed, that side's win is greyed out. The
    # bots made this combat: a side of ships alone has no such condition (nor a besieged
    # place), so the side looked at is one that fought with nobles.
    nobles = {"attacker": [n["id"] for n in t["attackers"]], "defender": [n["id"] for n in t["defenders"]]}
    needs = t["needs_survivor"]
    assert ("attacker" in needs) == bool(nobles["attacker"])
    for side, ids in needs.items():
        assert sorted(ids) == sorted(nobles[side])
    assert needs, "a combat in which no side needs a survivor: the greying cannot be checked"
    side, ids = next(iter(needs.items()))
    radio = f'form.km-tabletop-result input[name=outcome][value="{side}"]'
    assert not u.is_disabled(radio)
    for n in ids:
        u.check(f'form.km-tabletop-result input[name=killed][value="{n}"]')
    assert u.is_disabled(radio)
    assert not u.is_disabled('form.km-tabletop-result input[name=outcome][value="indecisive"]')
    u.locator("#battle-panel").screenshot(path=str(screenshot_path("kingmaker-tabletop-k74.png")))
    for n in ids:
        u.uncheck(f'form.km-tabletop-result input[name=killed][value="{n}"]')
    assert not u.is_disabled(radio)
    fallen = t["defenders"][:1]  # a defender falls (if there is one), and the attacker wins
    for n in fallen:
        u.check(f'form.km-tabletop-result input[name=killed][value="{n["id"]}"]')
    u.check('form.km-tabletop-result input[name=outcome][value="attacker"]')
    assert t["outcomes"]["attacker"] in u.inner_text("form.km-tabletop-result")
    u.locator("#battle-panel").screenshot(path=str(screenshot_path("kingmaker-tabletop-result-form.png")))
    u.click("form.km-tabletop-result button[type=submit]")
    entered = "Tabletop result entered by the umpire"
    u.wait_for_function("(t) => (window.roses.payload.view.log || []).some(l => String(l).includes(t))", arg=entered,
                        timeout=40000)
    b.wait_for_function("(t) => (window.roses.payload.view.log || []).some(l => String(l).includes(t))", arg=entered,
                        timeout=40000)
    assert "tabletop" not in players.payload(u)["view"]
    b.screenshot(path=str(screenshot_path("kingmaker-tabletop-after.png")))

    record = live_server.services.games.admin_export(game_id)
    made = [(a["role"], a["verb"], a["arg"]) for a in record["actions"][second:second + 3 + len(fallen)]]
    assert made == [("umpire", "table", None), *(("umpire", "kill", n["id"]) for n in fallen),
                    ("umpire", "done", None), ("umpire", "outcome", "attacker")]
    after = Secrets(live_server, game_id, RULES)
    state = after.state(second + 3 + len(fallen))
    assert len(state["edeck"]) == events_before  # no Event card was drawn for it
    line = next(x for x in RULES.log_for(state, seat) if entered in str(x))
    for n in fallen:
        assert n["name"] in str(line)

    # Nothing hidden reached the umpire's browser or the newcomer's (from the moment he sat).
    assert _scan(after, "umpire", u, traffic_u) > 3
    assert _scan(after, seat, b, traffic_b, since=second) > 2
    assert not errors, errors
    ctx_u.close()
    ctx_b.close()
