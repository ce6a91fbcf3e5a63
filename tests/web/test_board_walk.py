"""A new user plays a game to its first battle, in real Chromium at 1366x768 and 390x844, by
clicking what the page offers (the bots of the server play the other seats), and at every step
of the walk the page holds:

* no internal id in any text a player reads (panels, the choices bar, the names of buttons,
  places and pieces, the board's titles; test_plain_words.internal_ids), and in Kingmaker no
  square's grid id ("Y25") either;
* every piece drawn inside its place (tests/web/placement.py): a Richard III block inside its
  area (4.3), a Kingmaker counter inside its square;
* a board drawn (never blank, never withheld).

Richard III: York against the random bot, until a Battle is fought (6.1). Plantagenet: York in
Ia (Henry VI) against the easy bot, marching toward the nearest Lancastrian Lords, until a
Battle (4.4; every piece inside its Locale's plate, Exile box or Calendar box, Lords of one
place never over each other: test_plantagenet_pieces.CHECK). Kingmaker: P1 of a 3-seat
campaign against two random bots, until a combat is fought to its card (Combat: the Event card
read for the battle).
"""

from __future__ import annotations

import json
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import pytest

from roses.games.richard3.views import expand
from tests.web import players
from tests.web.conftest import PHONE, STATIC, LiveServer, screenshot_path
from tests.web.placement import pieces_outside
from tests.web.test_kingmaker_readable import GRID_ID
from tests.web.test_plain_words import PAGE_TEXTS, internal_ids
from tests.web.test_plantagenet_pieces import CHECK as PL_CHECK

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}
# Richard III's borders, for the policy that marches toward the enemy (players.aggressive)
players.load_neighbours(json.loads((STATIC / "richard3" / "layout.json").read_text(encoding="utf-8")))


def _log(page: Any) -> list[tuple[str, str]]:
    view = players.payload(page).get("view") or {}
    return list(zip(view.get("log") or [], view.get("log_kinds") or [], strict=False))


class Walk:
    """The checks made at every step of a walk, and what they found."""

    def __init__(self, page: Any, pieces: str, place_attr: str, shape: str, places: str,
                 grid_ids: bool = False, outside: Callable[[Any], list[Any]] | None = None) -> None:
        self.page, self.pieces, self.place_attr, self.shape, self.places = page, pieces, place_attr, shape, places
        self.grid_ids = grid_ids
        self.outside = outside
        self.bad: list[str] = []
        self.steps = 0

    def check(self, _page: Any = None, _choice: Any = None) -> None:
        page = self.page
        self.steps += 1
        for where, text in page.evaluate(PAGE_TEXTS):
            self.bad.extend(f"step {self.steps} {where}: {hit}" for hit in internal_ids(text))
            if self.grid_ids:
                self.bad.extend(f"step {self.steps} {where}: grid id {m.group(0)!r} in {text[:80]!r}"
                                for m in GRID_ID.finditer(text))
        # the board as the player looks at it (on a phone: its tab)
        players.show_tab_of(page, "svg#map")
        assert page.locator(".no-board").count() == 0, f"step {self.steps}: no board"
        assert page.locator(self.places).count() > 0, f"step {self.steps}: the board is blank"
        assert "withheld" not in page.locator("#prompt").inner_text(), f"step {self.steps}: the view is withheld"
        outside = self.outside(page) if self.outside else pieces_outside(
            page, pieces=self.pieces, place_attr=self.place_attr, shape=self.shape)
        assert outside == [], f"step {self.steps}: pieces outside their places: {outside}"


def _start(browser: Any, base: str, size: str, body: dict[str, Any], prefix: str) -> tuple[Any, Any, list[str]]:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.dismiss())  # nothing grave is chosen on this walk
    players.signup(page, base, f"{prefix}{size[:2]}{str(int(time.time() * 1000))[-6:]}")
    out = page.evaluate(players.POST, ["/api/games", body])
    page.goto(f"{base}/games/{out['id']}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=60000)
    return ctx, page, errors


def _walk(page: Any, walk: Walk, done: Callable[[], bool], policy: players.Policy, max_actions: int,
          may_end: bool = False) -> int:
    """Play until ``done()``; the actions made. A game that ends first fails the walk, or, with
    ``may_end``, gives -1 (the server draws each game's seed, so some games end early)."""
    walk.check()

    def over() -> bool:  # the first battle, or the game's end (then the test fails below)
        return done() or bool(players.payload(page).get("result"))

    try:
        made = players.play_until([page], over, policy=policy, max_actions=max_actions, on_step=walk.check,
                                  timeout=780)
    finally:
        page.screenshot(path=str(screenshot_path(f"walk-last-{walk.steps}.png")))
    if may_end and not done() and players.payload(page).get("result"):
        return -1
    assert done(), f"the game ended before its first battle: {players.payload(page).get('result')}"
    walk.check()
    assert page.locator(walk.pieces).count() > 0, "no piece on the board at the first battle"
    assert sorted(set(walk.bad)) == [], sorted(set(walk.bad))[:20]
    return made


# ------------------------------------------------------------------ Richard III
def _r3_policy(rnd: random.Random) -> players.Policy:
    """players.aggressive, but a group is moved (5.2) rather than the Action Phase ended, and a
    block goes to the area nearest the enemy's blocks."""
    def choose(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
        c = players.aggressive(view, opts)
        if c["verb"] == "end":
            moves = [o for o in opts if o["verb"] in ("move", "recruit")]
            if moves:
                return rnd.choice(moves)
        if c["verb"] == "to":
            full = expand(view) if "shown" in view else view
            me = full.get("role")
            enemy = sorted(a for a, by in (full.get("hidden") or {}).items() if any(r != me and n for r, n in by.items()))
            far = dict.fromkeys(enemy, 0)
            todo = deque(enemy)
            while todo:
                x = todo.popleft()
                for y in sorted(players.NEIGHBOURS.get(x, ())):
                    if y not in far:
                        far[y] = far[x] + 1
                        todo.append(y)
            return min((o for o in opts if o["verb"] == "to"), key=lambda o: (far.get(str(o["ref"]), 99), o["label"]))
        return c
    return choose


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_new_user_plays_richard3_to_its_first_battle(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx, page, errors = _start(browser, live_server.url, size, {
        "game": "richard3", "scenario": "wars-of-the-roses", "role": "York", "bots": {"Lancaster": "random"}}, "w3")
    walk = Walk(page, "svg#map g.stack g.block", "data-area", 'svg#map g.area[data-area="{place}"] polygon.area-shape',
                "svg#map g.area")

    def battle() -> bool:  # 6.1: a Battle begins (its first line names the area and the sides)
        return any(kind == "battle" and line.startswith("Battle of ") for line, kind in _log(page))

    made = _walk(page, walk, battle, _r3_policy(random.Random(46)), 200)
    assert made > 0 and battle()
    page.screenshot(path=str(screenshot_path(f"walk-richard3-{size}.png")))
    assert not errors, errors
    ctx.close()


# ------------------------------------------------------------------ Plantagenet
def _pl_policy(rnd: random.Random) -> players.Policy:
    """March toward the nearest Lords of the other side (by Ways, 1.3.1), else any choice but
    one that gives up a Lord or takes a step back."""
    board = json.loads((STATIC / "plantagenet" / "board.json").read_text(encoding="utf-8"))
    ways: dict[str, set[str]] = {}
    for a, b, _ in board["ways"]:
        ways.setdefault(a, set()).add(b)
        ways.setdefault(b, set()).add(a)

    def steps_to(targets: list[str]) -> dict[str, int]:
        far = dict.fromkeys(targets, 0)
        todo = deque(targets)
        while todo:
            x = todo.popleft()
            for y in sorted(ways.get(x, ())):
                if y not in far:
                    far[y] = far[x] + 1
                    todo.append(y)
        return far

    def choose(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
        good = [c for c in opts if c["verb"] not in PL_AVOID] or opts
        marches = [c for c in good if c["verb"] == "march" and c["kind"] == "area"]
        enemy = sorted({lord["locale"] for lord in (view.get("lords") or {}).values()
                        if lord.get("where") == "map" and lord.get("side") != view.get("role") and lord.get("locale")})
        if marches and enemy:
            far = steps_to(enemy)
            return min(marches, key=lambda c: (far.get(str(c["ref"]), 99), c["label"]))
        return rnd.choice(good)
    return choose


PL_AVOID = {"remove", "cancel", "leave", "disband", "exile", "undo"}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_new_user_plays_plantagenet_to_its_first_battle(browser: Any, live_server: LiveServer, size: str) -> None:
    def outside(p: Any) -> list[Any]:
        out = p.evaluate(PL_CHECK)
        return list(out["outside"]) + list(out["overlaps"])

    # A game may end before any Battle (the server draws each game's seed; 5.2, 5.3): the user
    # then starts another one (at most three), as a person would.
    for attempt in range(3):
        ctx, page, errors = _start(browser, live_server.url, size, {
            "game": "plantagenet", "scenario": "ia-henry-vi", "role": "York", "preview": True,
            "bots": {"Lancaster": "easy"}}, f"wp{attempt}")
        walk = Walk(page, "svg#map g.pl-lord", "data-at", "", "svg#map g.pl-locale", outside=outside)

        def battle(page: Any = page) -> bool:  # 4.4: a Battle is on (the view's Battle mat)
            return bool((players.payload(page).get("view") or {}).get("battle"))

        made = _walk(page, walk, battle, _pl_policy(random.Random(46 + attempt)), 250, may_end=attempt < 2)
        if made >= 0:
            break
        assert not errors, errors
        ctx.close()
    assert made > 0 and battle()
    page.screenshot(path=str(screenshot_path(f"walk-plantagenet-{size}.png")))
    assert not errors, errors
    ctx.close()


# ------------------------------------------------------------------ Kingmaker
#: Verbs this walk leaves alone: talks with other seats (they open their own forms), a step
#: back, grave or final choices.
KM_AVOID = ("deal", "offer", "propose", "back", "undo", "resign", "execute", "leave", "give", "set_order",
            "clear_order", "free_move")
#: Verbs that start or fight a combat (Combat, Sieges), taken whenever offered.
KM_FIGHT = ("battle", "attack", "ambush", "assault", "siege", "fight")


def _km_policy(rnd: random.Random) -> players.Policy:
    def choose(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
        good = [c for c in opts if not c["verb"].startswith(KM_AVOID)] or opts
        fight = [c for c in good if c["verb"] in KM_FIGHT]
        if fight:
            return fight[0]
        moves = [c for c in good if c["verb"] in ("select", "to", "sail")]
        if moves and rnd.random() < 0.8:
            return rnd.choice(moves)
        return rnd.choice(good)
    return choose


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_new_user_plays_kingmaker_to_its_first_battle(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx, page, errors = _start(browser, live_server.url, size, {
        "game": "kingmaker", "role": "P1", "options": {"players": 3}, "preview": True,
        "bots": {"P2": "random", "P3": "random"}}, "wk")
    walk = Walk(page, "svg#map g.km-piece", "data-square", 'svg#map g.km-sq[data-area="{place}"] .area-shape',
                "svg#map g.km-sq", grid_ids=True)

    def battle() -> bool:  # a combat fought: its Event card read (Combat)
        return any(kind == "battle" and "the card reads" in line for line, kind in _log(page))

    made = _walk(page, walk, battle, _km_policy(random.Random(46)), 300)
    assert made > 0 and battle()
    page.screenshot(path=str(screenshot_path(f"walk-kingmaker-{size}.png")))
    assert not errors, errors
    ctx.close()
