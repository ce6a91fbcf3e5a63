"""The other players' last moves marked on the Plantagenet and Kingmaker boards, in real Chromium
at 1366x768 and 390x844 (Richard III's are in test_game_end_and_log.py).

A seeded game is played with the engine until a player is to act just after the others moved,
imported into the live server with that player's seat given to a signed-up user, and opened in
his page: each of the others' moves since his own last one (read here from his view's log, as
the rules wrote it) is marked on the board, at the place the piece went to, with who moved and
what; none of his own moves is marked.

* Plantagenet: the Lancastrian Lords' March (4.3.2) or Sail (4.6.1) after York's last move, an
  arrow from the Locale left to the Locale reached; an observer sees the same moves.
* Kingmaker: the other seats' moves of nobles (Movement) and ships (Sea Transportation) since
  P1's last turn, a ring on the square or place each went to, and once the page has seen a
  noble move, an arrow from where he stood.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from roses.engine import Game, get_rules
from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}

#: The move lines of Plantagenet's log: March, Intercept and Sail (4.3.2, 4.3.4, 4.6.1).
PL_MOVE = re.compile(r"^(.+?) (March|Intercept|Sail) from (.+?) to (.+?)(?: by |: | \(|\.$)")
#: Kingmaker's move lines: a noble's move (Movement), a ship's voyage (Sea Transportation).
KM_MOVE = re.compile(r"^(.+?) (?:moves to|sails to|sails into) (.+)\.$")
KM_TURN = re.compile(r"^Round \d+: (.+)'s turn\.$")

MARKS = """() => [...document.querySelectorAll('svg#map g.last-move')].map((g) => {
    const ring = g.querySelector('circle.last-move-to'), line = g.querySelector('line.last-move-path');
    const r = ring.getBoundingClientRect();
    return {side: g.dataset.side, to: g.dataset.to, from: g.dataset.from, title: g.querySelector('title').textContent,
            ring: [Number(ring.getAttribute('cx')), Number(ring.getAttribute('cy'))],
            line: line ? [1, 2].map((k) => [Number(line.getAttribute('x' + k)), Number(line.getAttribute('y' + k))]) : null,
            screen: [r.left + r.width / 2, r.top + r.height / 2]};
})"""


def _page(browser: Any, base: str, size: str, name: str) -> tuple[Any, Any, list[str]]:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, base, name)
    return ctx, page, errors


def _open(page: Any, base: str, game_id: int) -> None:
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.payload && window.roses.payload.view", timeout=40000)
    players.show_tab_of(page, "svg#map")
    page.wait_for_timeout(300)


def _zoom_on_last(page: Any) -> None:
    """The whole map, then the wheel turned over the last mark, as a person looks closer."""
    page.click("#zoom [data-zoom=reset]")
    page.wait_for_timeout(200)
    x, y = page.evaluate(MARKS)[-1]["screen"]
    page.mouse.move(x, y)
    for _ in range(4):
        page.mouse.wheel(0, -100)
        page.wait_for_timeout(80)
    page.mouse.move(2, 2)  # off the map: no hover label over it
    page.wait_for_timeout(200)


# ------------------------------------------------------------------ Plantagenet
PL = get_rules("plantagenet")


def _pl_expected(view: dict[str, Any], me: str) -> list[tuple[str, str, str]]:
    """The other side's moves since ``me``'s last one: (side, from, to), oldest first."""
    side_of = {lord["name"]: lord["side"] for lord in view["lords"].values() if lord.get("name")}
    out: list[tuple[str, str, str]] = []
    for line, kind in reversed(list(zip(view["log"], view["log_kinds"], strict=True))):
        if kind == "turn" and out:
            break
        m = PL_MOVE.match(line) if kind == "move" else None
        if not m:
            continue
        side = side_of[m.group(1).split(", ")[0]]
        if side == me:
            if out:
                break
            continue
        out.append((side, m.group(3), m.group(4)))
    return out[::-1]


def _pl_game() -> dict[str, Any]:
    """Ia (Henry VI), seeded random play until York is to act just after a Lancastrian March."""
    for seed in range(20):
        game = Game.new(PL, seed, "ia-henry-vi", {})
        rnd = random.Random(seed)
        for _ in range(1500):
            if game.result() is not None:
                break
            role = game.active()[0]
            if role == "York" and _pl_expected(game.view("York"), "York"):
                return game.record()
            legal = PL.legal_actions(game.state, role)
            good = [a for a in legal if a[0] not in {"remove", "cancel", "leave", "disband", "exile", "undo"}] or legal
            marches = [a for a in good if a[0] in ("march", "sail")]
            verb, arg = rnd.choice(marches) if marches and rnd.random() < 0.7 else rnd.choice(good)
            game.apply(role, verb, arg)
    raise AssertionError("no seeded game had a Lancastrian March before York's turn")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_plantagenet_marks_the_other_sides_last_moves(browser: Any, live_server: LiveServer, size: str) -> None:
    base = live_server.url
    name = f"plm{size[:2]}{str(int(time.time() * 1000))[-6:]}"
    ctx, page, errors = _page(browser, base, size, name)
    record = {**_pl_game(), "title": f"Last moves {name}", "players": [{"role": "York", "user": name}]}
    game_id = live_server.services.games.import_record(record, private=False)
    _open(page, base, game_id)
    view = players.payload(page)["view"]
    expected = _pl_expected(view, "York")
    assert expected and all(side == "Lancaster" for side, _, _ in expected)
    marks = page.evaluate(MARKS)
    assert [(m["side"], m["from"], m["to"]) for m in marks] == expected, (marks, expected)
    board = page.evaluate(players.GET, "/static/plantagenet/board.json")
    for m in marks:
        assert m["title"].startswith("Lancaster's last move: ") and m["to"] in m["title"], m
        to = board["locales"][m["to"]]
        frm = board["locales"][m["from"]]
        assert m["ring"] == [to["x"], to["y"]], m  # ringed at the Locale reached
        # the arrow runs from the Locale left toward the Locale reached, its ends off their markers
        (x1, y1), (x2, y2) = m["line"]
        assert abs(x1 - frm["x"]) + abs(y1 - frm["y"]) < 60 and abs(x2 - to["x"]) + abs(y2 - to["y"]) < 60, m
        assert (x2 - x1) * (to["x"] - frm["x"]) + (y2 - y1) * (to["y"] - frm["y"]) > 0, m
    _zoom_on_last(page)
    page.screenshot(path=str(screenshot_path(f"plantagenet-last-moves-{size}.png")))
    # an observer sees the moves of the side that moved last
    octx = browser.new_context(viewport=SIZES[size])
    obs = octx.new_page()
    obs.on("pageerror", lambda e: errors.append(str(e)))
    _open(obs, base, game_id)
    seen = obs.evaluate(MARKS)
    assert [(m["side"], m["from"], m["to"]) for m in seen] == expected
    octx.close()
    assert not errors, errors
    ctx.close()


# ------------------------------------------------------------------ Kingmaker
KM = get_rules("kingmaker")


def _km_expected(view: dict[str, Any], me: str) -> list[tuple[str, str, str, str]]:
    """The other seats' moves of nobles and ships since ``me``'s last move or the start of one
    of his earlier turns: (seat, noble or ship, where in words, the line), oldest first."""
    owner = {n["name"]: p["role"] for p in view["players"] for n in p["nobles"]}
    owner.update({f"The {s['name']}": s["controller"] for s in view.get("ships") or [] if s.get("controller")})
    out: list[tuple[str, str, str, str]] = []
    for line, kind in reversed(list(zip(view["log"], view["log_kinds"], strict=True))):
        if kind == "turn":
            t = KM_TURN.match(line)
            if t and t.group(1) == me and out:
                break
            continue
        m = KM_MOVE.match(line) if kind == "move" else None
        if not m or m.group(1) not in owner:
            continue
        if owner[m.group(1)] == me:
            if out:
                break
            continue
        out.append((owner[m.group(1)], m.group(1), m.group(2), line))
    return out[::-1]


def _km_game() -> dict[str, Any]:
    """A 4-seat campaign, seeded random play until P1 is to act after moves of two other seats."""
    for seed in range(20):
        game = Game.new(KM, seed, "campaign", None)
        rnd = random.Random(seed)
        for n in range(3000):
            if game.result() is not None:
                break
            role = game.active()[0]
            if role == "P1" and n > 50:
                seen = _km_expected(game.view("P1"), "P1")
                if len(seen) >= 3 and len({s for s, _, _, _ in seen}) >= 2:
                    return game.record()
            view = game.view(role)
            acts = [(v, a) for v, args in (view.get("actions") or {}).items() if v != "undo"
                    for a in ([None] if args is True else args)]
            moves = [x for x in acts if x[0] in ("to", "select")]
            verb, arg = rnd.choice(moves if moves and rnd.random() < 0.6 else acts)
            game.apply(role, verb, arg)
    raise AssertionError("no seeded campaign had two other seats move before P1's turn")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_kingmaker_marks_the_other_seats_last_moves(browser: Any, live_server: LiveServer, size: str) -> None:
    base = live_server.url
    name = f"kmm{size[:2]}{str(int(time.time() * 1000))[-6:]}"
    ctx, page, errors = _page(browser, base, size, name)
    record = {**_km_game(), "title": f"Last moves {name}", "players": [{"role": "P1", "user": name}]}
    game_id = live_server.services.games.import_record(record, private=False)
    _open(page, base, game_id)
    view = players.payload(page)["view"]
    expected = _km_expected(view, "P1")
    board = page.evaluate(players.GET, f"/games/{game_id}/board.json")
    by_name = {words: f"sq:{sq}" for sq, words in board["square_names"].items()}
    by_name.update({p["name"]: pid for pid, p in board["places"].items()})
    marks = page.evaluate(MARKS)
    assert [(m["side"], m["to"]) for m in marks] == [(seat, by_name[where]) for seat, _, where, _ in expected], (marks, expected)
    for m, (seat, _, _, line) in zip(marks, expected, strict=True):
        assert m["title"] == f"{seat}'s last move: {line}", m
        assert seat != "P1"
        # the ring lies on the square the noble went to (a place: on its square)
        sq = m["to"][3:] if m["to"].startswith("sq:") else board["places"][m["to"]]["square"]
        inside = page.evaluate(
            """([sq, x, y]) => { const shape = document.querySelector(`svg#map g.km-sq[data-area="sq:${sq}"] .area-shape`);
                const p = new DOMPoint(x, y).matrixTransform(shape.getScreenCTM().inverse()); return shape.isPointInFill(p); }""",
            [sq, *m["screen"]])
        assert inside, (m, sq)
    # the noble stands where his mark is (unless he moved again since): the view puts him there
    nobles = {n["name"]: n for p in view["players"] for n in p["nobles"]}
    last = {piece: where for _, piece, where, _ in expected}
    for noble, where in last.items():
        if noble in nobles:
            n = nobles[noble]
            assert by_name[where] in (n.get("inside"), f"sq:{n.get('square')}"), (noble, where, n)
    _zoom_on_last(page)
    page.screenshot(path=str(screenshot_path(f"kingmaker-last-moves-{size}.png")))
    assert not errors, errors
    ctx.close()


def test_kingmaker_draws_an_arrow_once_the_page_saw_the_noble_move(browser: Any, live_server: LiveServer) -> None:
    """P1's page open while P2 moves a noble: the ring at the square reached and an arrow from
    the square he stood on (the page saw both)."""
    base = live_server.url
    stamp = str(int(time.time() * 1000))[-6:]
    ctx, page, errors = _page(browser, base, "laptop", f"kma{stamp}")
    # the same campaign, cut where P2 is to move a noble who has not moved this turn
    record = _km_game()
    game = Game.new(KM, record["seed"], record["scenario"], record.get("options"))
    rnd = random.Random(7)
    for a in record["actions"]:
        game.apply(a["role"], a["verb"], a.get("arg"))
    while True:
        role = game.active()[0]
        view = game.view(role)
        acts = view.get("actions") or {}
        if role == "P2" and "select" in acts and acts["select"] is not True and acts["select"]:
            break
        flat = [(v, a) for v, args in acts.items() if v != "undo" for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(flat)
        game.apply(role, verb, arg)
    cut = game.record()
    names = {"P1": f"kma{stamp}", "P2": f"kmb{stamp}"}
    ctx2, page2, errors2 = _page(browser, base, "laptop", names["P2"])
    game_id = live_server.services.games.import_record(
        {**cut, "title": f"Arrow {stamp}", "players": [{"role": r, "user": n} for r, n in names.items()]}, private=False)
    _open(page, base, game_id)
    _open(page2, base, game_id)
    before = players.version(page)
    # P2 selects a noble and moves him, by clicking his page's choices
    sel = next(c for c in players.choices(page2) if c["verb"] == "select")
    players.click_choice(page2, sel)
    page2.wait_for_function("window.roses.choices.some((c) => c.verb === 'to')", timeout=20000)
    to = next(c for c in players.choices(page2) if c["verb"] == "to")
    players.click_choice(page2, to)
    page.wait_for_function(f"Number(document.body.dataset.version) >= {before + 2}", timeout=30000)
    page.wait_for_function("document.querySelector('svg#map g.last-move[data-side=\"P2\"] line.last-move-path')", timeout=20000)
    marks = [m for m in page.evaluate(MARKS) if m["side"] == "P2"]
    last = marks[-1]
    assert last["line"] is not None and last["from"] and last["from"] != last["to"], last
    _zoom_on_last(page)
    page.screenshot(path=str(screenshot_path("kingmaker-last-move-arrow-laptop.png")))
    assert not errors and not errors2, errors + errors2
    ctx.close()
    ctx2.close()
