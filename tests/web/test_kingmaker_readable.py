"""Kingmaker readable: places named wherever a person reads (labels, prompts, the log, the
gazette), never a square's grid id; every square named in words (names.py); choices on the map
with the square under the pointer named; a town's name picks the town; seats ("P2") apart from
squares (P2); counters drawn inside their square; every card in hand says what it does; no
developer words; the gazette one click from the game page; execution asked once more; the end
of the campaign says who won and by which rule (Victory Conditions, L402-419). The browser
checks run in real Chromium at 1366x768 and 390x844."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

from roses.engine import get_rules
from roses.games.kingmaker import board_web as kingmaker_board
from roses.games.kingmaker import views
from roses.games.kingmaker.board import load_board
from roses.games.kingmaker.common import W
from roses.games.kingmaker.names import COMPASS, square_names
from tests.web import players
from tests.web.conftest import LiveServer

RULES = get_rules("kingmaker")
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
#: A square's grid id ("Y25", "AH20"): never in a text a player reads (seats P1-P8 and the
#: expansions E1, E2 are not squares here).
GRID_ID = re.compile(r"\b(?!P[1-8]\b|E[12]\b)[A-Z]{1,2}[1-9][0-9]?\b")


def _played(seed: int, steps: int, players_: int = 4, rules: str = "e2") -> tuple[Any, list[str]]:
    """A game played at random for ``steps`` actions; the labels of every decision met."""
    rnd = random.Random(seed)
    state = RULES.setup(seed, "campaign", {"players": players_, "rules": rules})
    labels: list[str] = []
    for _ in range(steps):
        if RULES.result(state) is not None or not RULES.active(state):
            break
        role = rnd.choice(RULES.active(state))
        legal = RULES.legal_actions(state, role)
        here = [RULES.label(state, role, v, a) for v, a in legal]
        # where a counter goes: no two destinations of one decision read alike (two cards of a
        # kind, e.g. the two King's Pardons, may)
        going = [t for (v, _), t in zip(legal, here, strict=True) if v in ("to", "battle", "ambush")]
        assert len(set(going)) == len(going), "two destinations of one decision read alike"
        labels += here
        labels.append(RULES.view(state, role).get("prompt") or "")
        state = RULES.apply_legal(state, role, *rnd.choice(legal))
    return state, labels


# ----------------------------------------------------------------------------- names in words
def test_every_square_of_the_board_has_its_own_name_in_words() -> None:
    board = load_board()
    names = square_names(board)
    assert set(names) == set(board.squares)
    assert len(set(names.values())) == len(names), "two squares read alike"
    for sid, text in names.items():
        assert not GRID_ID.search(text), (sid, text)
    coventry = board.places["coventry"].square
    assert names[coventry] == "the open ground at Coventry"
    col, row = board.squares[coventry].col, board.squares[coventry].row
    north = next(s for s in board.squares.values() if (s.col, s.row) == (col, row - 1))
    assert names[north.id] == "the open ground north of Coventry"
    sea = next(s for s in board.squares.values() if not s.land and board.areas[s.area].id == "north_sea")
    assert names[sea.id].startswith("the North Sea ") and any(f" {c} of " in names[sea.id] for c in COMPASS)
    assert names[board.landmarks["cheviots"].square] == "the Cheviots"


def test_labels_prompts_and_the_log_name_places_never_grid_ids() -> None:
    """Every choice, prompt and log line of random games (movements, sailings, battles in the
    open) in words; within one decision no two choices read alike."""
    state, labels = _played(3, 900)
    lines = [str(e[1]) for e in state["log"]]
    moved = [t for t in lines if " moves to " in t or " sails to " in t]
    assert moved, "the game moved nothing"
    for text in labels + lines:
        assert not GRID_ID.search(text), text
    assert any(" moves to the open ground " in t or " moves to the forest " in t for t in lines)
    view = RULES.view(state, "P1")
    for p in view["players"]:
        for n in p["nobles"]:
            assert n["where"] and not GRID_ID.search(n["where"])


def test_the_gazette_tells_what_changed_in_words() -> None:
    """The gazette's "what changed since the last edition" (server/gazette.py) from the views'
    words: nobles move between named places and squares in words, places by their names."""
    from roses.engine.contract import OBSERVER
    rnd = random.Random(11)
    state = RULES.setup(11, "campaign", {"players": 3})
    before = None
    lines: list[str] = []
    for _ in range(500):
        if RULES.result(state) is not None or not RULES.active(state):
            break
        if state["round"] and before is None:
            before = RULES.view(state, OBSERVER)
        role = rnd.choice(RULES.active(state))
        state = RULES.apply_legal(state, role, *rnd.choice(RULES.legal_actions(state, role)))
    assert before is not None
    lines = RULES.gazette_changes(before, RULES.view(state, OBSERVER))
    assert any(" moves from " in t for t in lines), lines
    for t in lines:
        assert not GRID_ID.search(t), t
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", t), t  # no ids such as "tower_of_london"


def test_a_seat_is_a_seat_in_a_label_not_the_square_of_the_same_id() -> None:
    """Square P2 exists (Scotland): "ally P2" proposes an alliance to the seat P2 (L304)."""
    state = RULES.setup(1, "campaign", {"players": 3})
    assert "P2" in load_board().squares
    assert RULES.label(state, "P1", "ally", "P2") == "propose an alliance to P2"
    assert RULES.label(state, "P1", "end_alliance", "P3") == "end the alliance with P3"
    assert RULES.label(state, "P1", "to", "P2").startswith("move to the open ground ")


def test_every_card_in_hand_says_what_it_does() -> None:
    """Crown Card Key (L454-474) and Event Card Key (L476-519): each kind of card of the deck
    has its effect in words, and the hand in a view carries it."""
    state = RULES.setup(2, "campaign", {"players": 3, "rules": "e2"})
    w = W(state)
    for c, card in enumerate(w.cards):
        text = views.card_text(w, c)
        assert len(text) > 20 and not GRID_ID.search(text) and "L4" not in text, (card.id, text)
    assert "votes in the Lords" in views.card_text(w, w.codec.id("archbishop_of_canterbury"))
    for kind in ("writ", "free_move", "refuge", "parliament"):
        assert views.EVENT_TEXTS[kind]
    view = RULES.view(state, "P1")
    assert view["hand"] and all(c["text"] for c in view["hand"])


def test_the_end_of_the_campaign_says_who_won_and_by_which_rule() -> None:
    """§Victory Conditions: the last royal heir, crowned; Parliament's vote; the views
    give the rule in words (``end_text``) beside the winner."""
    from roses.games.kingmaker import play

    state = RULES.setup(4, "campaign", {"players": 3})
    play.win(state, 1, "controls Henry VI, the last royal heir, crowned", "last_heir_crowned")
    view = RULES.view(state, "P1")
    assert view["result"] == "P2" and view["end"] == "last_heir_crowned"
    assert "last royal heir" in view["end_text"] and "Victory Conditions" in view["end_text"]
    assert view["result_reason"] == view["end_text"]  # what the generic client shows over the board
    assert "Parliament" in views.END_TEXTS["parliament"]


def test_the_board_drawing_names_squares_and_cites_no_developer_file() -> None:
    data = kingmaker_board.board_data(load_board())
    assert data["square_names"]["AE32"] == "the open ground at London"
    assert ".py" not in data["notice"] and "not the published Kingmaker board" in data["notice"]


# ----------------------------------------------------------------------------- in the browser
def _page(browser: Any, static_server: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_server}/css/")
    page.set_content('<!doctype html><html><head><link rel="stylesheet" href="/css/map.css">'
                     '<link rel="stylesheet" href="/kingmaker/kingmaker.css"></head><body style="margin:0">'
                     '<div id="holder" style="width:100vw;height:100vh"><svg id="map" style="width:100%;height:100%">'
                     '</svg></div><div id="hand"></div></body></html>')
    page.add_script_tag(type="module", content="""
        import { Kingmaker } from "/js/games/kingmaker.js";
        window.Kingmaker = Kingmaker; window.ready = true;""")
    page.wait_for_function("window.ready === true")
    page.errors = errors
    return page


DRAW = """([b, v]) => {
    window.picked = [];
    const km = window.km = new window.Kingmaker(b, { onArea: (name) => window.picked.push(name) });
    const svg = document.getElementById("map");
    km.drawBoard(svg);
    const choices = km.choices(v);
    window.choices = choices;
    km.draw(v, { choices, onChoices: (cs) => window.picked.push(cs.map((c) => c.verb)) }, { status: "active" });
    return choices.map((c) => ({ verb: c.verb, arg: c.arg, kind: c.kind, ref: c.ref, label: c.label, confirm: c.confirm || null }));
}"""

#: Every counter's box inside its square's box (client pixels), as the page draws them.
PIECES_INSIDE = """() => {
    const out = [];
    for (const g of document.querySelectorAll("svg#map g.km-piece")) {
        const sq = document.querySelector(`svg#map g.km-sq[data-area="${g.dataset.square}"] rect`);
        if (!sq) { out.push([g.dataset.block, "no square"]); continue; }
        const a = g.querySelector(".block-body").getBoundingClientRect(), b = sq.getBoundingClientRect();
        if (a.left < b.left - 0.5 || a.right > b.right + 0.5 || a.top < b.top - 0.5 || a.bottom > b.bottom + 0.5)
            out.push([g.dataset.block, g.dataset.square]);
        for (const t of g.querySelectorAll("text")) {
            const r = t.getBoundingClientRect();
            if (r.left < a.left - 1 || r.right > a.right + 1) out.push([g.dataset.block, "text outside its counter"]);
        }
    }
    return out;
}"""


def _crowded_view() -> dict[str, Any]:
    """A view of a played game, with one square holding nine counters."""
    state, _ = _played(7, 700, players_=4)
    view = RULES.view(state, "P1")
    view = json.loads(json.dumps(view))
    nobles = [n for p in view["players"] for n in p["nobles"] if n["square"]]
    for n in nobles[:9]:
        n["square"], n["inside"], n["ship"] = "Y25", None, None
    view["actions"] = {}
    return view


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_every_counter_is_drawn_inside_its_square(browser: Any, static_server: str, viewport: dict[str, int]) -> None:
    data = kingmaker_board.board_data(load_board())
    page = _page(browser, static_server, viewport)
    view = _crowded_view()
    page.evaluate(DRAW, [data, view])
    count = page.locator("svg#map g.km-piece").count()
    assert count >= 12
    for zoom in (1, 3):  # the whole map, then zoomed in on the crowded square
        if zoom > 1:
            page.evaluate("""() => { const svg = document.getElementById('map'); const k = window.km.board.cell;
                const [x, y] = window.km.centre('Y25'); svg.setAttribute('viewBox', `${x - 2 * k} ${y - 2 * k} ${4 * k} ${4 * k}`); }""")
        assert page.evaluate(PIECES_INSIDE) == []
    assert page.locator('svg#map g.km-piece[data-square="sq:Y25"]').count() >= 9
    assert not page.errors, page.errors


@pytest.mark.browser
def test_a_noble_aboard_a_ship_is_drawn_on_the_ships_square(browser: Any, static_server: str) -> None:
    """A noble aboard a ship (no square of his own) is drawn in the ship's square, and says so
    (``data-square``), like every other counter (§Sea Transportation: he goes where it goes)."""
    data = kingmaker_board.board_data(load_board())
    page = _page(browser, static_server, LAPTOP)
    view = _crowded_view()
    ship = next(s for s in view["ships"] if s.get("at"))
    noble = next(n for p in view["players"] for n in p["nobles"] if n["square"] and n["square"] != "Y25")
    noble["square"], noble["inside"], noble["ship"] = None, None, ship["id"]
    page.evaluate(DRAW, [data, view])
    square = page.locator(f'svg#map g.km-ship[data-block="{ship["id"]}"]').get_attribute("data-square")
    assert square
    assert page.locator(f'svg#map g.km-noble[data-block="{noble["id"]}"]').get_attribute("data-square") == square
    assert page.evaluate(PIECES_INSIDE) == []
    assert not page.errors, page.errors


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_a_town_name_picks_the_town_and_the_square_under_the_pointer_is_named(
        browser: Any, static_server: str, viewport: dict[str, int]) -> None:
    """A noble's move: Coventry, its square and the square north of it are choices. A click
    on the name "Coventry" picks Coventry (not the square the name lies over); the hover label
    names the square under the pointer and what a click there does."""
    board = load_board()
    data = kingmaker_board.board_data(board)
    cov = board.places["coventry"].square
    page = _page(browser, static_server, viewport)
    view = {"role": "P1", "players": [{"role": r, "nobles": [], "assets": [], "hand": 0, "events": 0} for r in ("P1", "P2", "P3")],
            "heirs": [], "ships": [], "places": {}, "actions": {"to": ["coventry", cov, "Y25"]},
            "labels": {"to": {'"coventry"': "move into Coventry", f'"{cov}"': "move to the open ground at Coventry",
                              '"Y25"': "move to the open ground north of Coventry"}}}
    choices = page.evaluate(DRAW, [data, view])
    assert {c["ref"] for c in choices} == {"coventry", f"sq:{cov}", "sq:Y25"}
    page.evaluate("() => { const k = window.km.board.cell; const [x, y] = window.km.placePoint('coventry');"
                  "document.getElementById('map').setAttribute('viewBox', `${x - 2 * k} ${y - 2 * k} ${4 * k} ${4 * k}`); }")
    name = page.locator('svg#map g.km-place[data-area="coventry"] text.km-place-name')
    box = name.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.evaluate("window.picked") == ["coventry"]
    # the hover label over the square north of Coventry
    sq = page.locator('svg#map g.km-sq[data-area="sq:Y25"] rect').bounding_box()
    assert sq is not None
    page.mouse.move(sq["x"] + 6, sq["y"] + 6)
    page.mouse.move(sq["x"] + 8, sq["y"] + 8)
    hover = page.locator(".km-hover")
    assert hover.is_visible()
    text = hover.inner_text()
    assert text.startswith("The open ground north of Coventry") and "move to the open ground north of Coventry" in text
    assert not GRID_ID.search(text)
    # Coventry not a choice, its square one: the name picks the square Coventry stands in
    view["actions"] = {"to": [cov]}
    page.evaluate(DRAW, [data, view])
    page.evaluate("() => { const k = window.km.board.cell; const [x, y] = window.km.placePoint('coventry');"
                  "document.getElementById('map').setAttribute('viewBox', `${x - 2 * k} ${y - 2 * k} ${4 * k} ${4 * k}`); }")
    box = page.locator('svg#map g.km-place[data-area="coventry"] text.km-place-name').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.evaluate("window.picked") == [f"sq:{cov}"]
    assert not page.errors, page.errors


@pytest.mark.browser
def test_a_seat_choice_outlines_no_square_and_execution_is_marked_grave(browser: Any, static_server: str) -> None:
    """"ally P2/P3/P4" are choices of seats: no square P2-P4 is outlined; the execution of a
    heir is marked to be asked once more (game.js asks before sending it)."""
    data = kingmaker_board.board_data(load_board())
    page = _page(browser, static_server, LAPTOP)
    view = {"role": "P1", "players": [{"role": r, "nobles": [], "assets": [], "hand": 0, "events": 0} for r in ("P1", "P2", "P3", "P4")],
            "heirs": [], "ships": [], "places": {}, "actions": {"ally": ["P2", "P3", "P4"], "execute_heir": ["henry_vi"]},
            "labels": {"ally": {'"P2"': "propose an alliance to P2", '"P3"': "propose an alliance to P3", '"P4"': "propose an alliance to P4"},
                       "execute_heir": {'"henry_vi"': "execute Henry VI"}}}
    choices = page.evaluate(DRAW, [data, view])
    assert all(c["kind"] == "button" and c["ref"] is None for c in choices if c["verb"] == "ally")
    assert page.locator("svg#map g.km-sq.legal").count() == 0
    grave = [c for c in choices if c["verb"] == "execute_heir"]
    assert grave and grave[0]["confirm"] == "Execute Henry VI? This cannot be undone."
    assert not page.errors, page.errors


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_cards_in_hand_show_their_effect_and_the_panels_speak_plainly(
        browser: Any, static_server: str, viewport: dict[str, int]) -> None:
    data = kingmaker_board.board_data(load_board())
    page = _page(browser, static_server, viewport)
    state, _ = _played(5, 400, players_=3, rules="e1")
    view = RULES.view(state, "P1")
    view["hand"] = view["hand"] or RULES.view(RULES.setup(5, "campaign", {"players": 3}), "P1")["hand"]
    texts = page.evaluate("""([b, v]) => { const km = new window.Kingmaker(b, {});
        const out = km.renderCards(v, { choices: [] }); document.getElementById('hand').append(...out.hand);
        document.getElementById('hand').append(km.legend(), ...km.renderForces(v));
        return [...document.querySelectorAll('.km-card')].map((c) => c.querySelector('.km-card-text')?.textContent || ''); }""",
                          [data, view])
    assert texts and all(len(t) > 20 for t in texts)
    shown = page.inner_text("#hand")
    for word in (".py", "L122", "rules L", "GET /api"):
        assert word not in shown
    assert not GRID_ID.search(shown), GRID_ID.search(shown)
    # each card's text is inside the card, readable
    for card in page.locator(".km-card").all()[:5]:
        cb, tb = card.bounding_box(), card.locator(".km-card-text").bounding_box()
        assert cb and tb and tb["y"] + tb["height"] <= cb["y"] + cb["height"] + 1
    assert not page.errors, page.errors


# ----------------------------------------------------------------------------- a live game
def _create(page: Any) -> int:
    return int(page.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'kingmaker', role: 'P1', options: {players: 3}, preview: true,
                                    bots: {P2: 'random', P3: 'random'}})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }"""))


def _to_movement(page: Any) -> list[dict[str, Any]]:
    """Play P1's simplest answers until he chooses a noble to move."""
    deadline = time.time() + 150
    while time.time() < deadline:
        _, opts = players.snapshot(page)
        if any(c["verb"] == "select" for c in opts):
            return opts
        pick = next((c for pref in ("done", "place", "end", "pass", "decline", "answer", "accept")
                     for c in opts if c["verb"] == pref), opts[0] if opts else None)
        if pick is None:
            time.sleep(0.3)
            continue
        before = players.version(page)
        players.click_choice(page, {**pick, "kind": "button"})
        players.wait_version(page, before)
    raise AssertionError("P1 never came to move a noble")


@pytest.mark.browser
def test_a_live_game_reads_in_words_links_its_gazette_and_asks_before_a_grave_choice(
        browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, base, f"kmr{str(int(time.time() * 1000))[-6:]}")
    game_id = _create(page)
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_selector("svg#map g.km-place", timeout=60000)
    opts = _to_movement(page)
    noble = next(c for c in opts if c["verb"] == "select")
    before = players.version(page)
    players.click_choice(page, {**noble, "kind": "button"})
    players.wait_version(page, before)
    _, opts = players.snapshot(page)
    moves = [c for c in opts if c["verb"] == "to"]
    assert moves and all(not GRID_ID.search(c["label"]) for c in moves)
    assert any(c["label"].startswith("move to the open ground ") or c["label"].startswith("move to the forest ")
               for c in moves)
    bar = page.inner_text("#promptbar")
    assert not GRID_ID.search(bar), bar
    # a move on the map, then the log names where he went
    square = next(c for c in moves if str(c["ref"]).startswith("sq:"))
    before = players.version(page)
    page.evaluate("([v, a]) => { const b = [...document.querySelectorAll('#buttons button.choice')]"
                  ".find(x => x.dataset.verb === v && x.dataset.arg === JSON.stringify(a)); b.click(); }",
                  [square["verb"], square["arg"]])
    players.wait_version(page, before)
    log = page.inner_text("#log")
    assert " moves to " in log and not GRID_ID.search(log), log[-400:]
    # a grave choice is asked once more: refused, nothing is sent; accepted, it is
    _, opts = players.snapshot(page)
    first = opts[0]
    page.evaluate("() => { const c = window.roses.choices[0]; c.confirm = 'Execute? This cannot be undone.'; }")
    asked: list[str] = []

    def answer(accept: bool) -> Any:
        def on_dialog(dialog: Any) -> None:
            asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()
        return on_dialog

    page.once("dialog", answer(False))
    before = players.version(page)
    page.evaluate("([v, a]) => { const b = [...document.querySelectorAll('#buttons button.choice')]"
                  ".find(x => x.dataset.verb === v && (x.dataset.arg === undefined ? a === null : x.dataset.arg === JSON.stringify(a))); b.click(); }",
                  [first["verb"], first["arg"]])
    time.sleep(1.0)
    assert asked == ["Execute? This cannot be undone."] and players.version(page) == before
    page.once("dialog", answer(True))
    page.evaluate("([v, a]) => { const b = [...document.querySelectorAll('#buttons button.choice')]"
                  ".find(x => x.dataset.verb === v && (x.dataset.arg === undefined ? a === null : x.dataset.arg === JSON.stringify(a))); b.click(); }",
                  [first["verb"], first["arg"]])
    players.wait_version(page, before)
    assert len(asked) == 2
    # the gazette, one click away; it speaks plainly
    link = page.locator("a.km-gazette-link")
    players.show_tab_of(page, "a.km-gazette-link")
    assert link.count() == 1
    link.click()
    page.wait_for_url(f"**/games/{game_id}/gazette")
    text = page.inner_text("main")
    for word in ("GET /api", ".py", "Seed commitment"):
        assert word not in text
    assert not errors, errors
    ctx.close()


@pytest.mark.browser
def test_the_create_form_takes_an_event_deck_from_a_file_not_a_json_box(browser: Any, live_server: LiveServer) -> None:
    """The Event deck option: "the standard one" or "my own, from a file…" (a file chooser);
    no box to type JSON into. A chosen file is sent as the game's deck."""
    from roses.games.kingmaker.board import DATA_DIR

    base = live_server.url
    page = browser.new_context(viewport=LAPTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, base, f"kmf{str(int(time.time() * 1000))[-6:]}")
    page.goto(f"{base}/lobby?preview=1")
    page.select_option("#create-game", "kingmaker")
    assert page.locator("#create-options textarea").count() == 0
    source = page.locator("#create-options select[name=opt-event_deck-source]")
    assert source.locator("option").all_inner_texts() == ["the standard one", "my own, from a file…"]
    options_text = page.inner_text("#create-options")
    assert "JSON" not in options_text and "roses-kingmaker-events/1" not in options_text
    assert page.locator("#create-options input[name=opt-event_deck]").is_hidden()
    source.select_option("file")
    page.set_input_files("#create-options input[name=opt-event_deck]", str(DATA_DIR / "events-default.json"))
    page.wait_for_function("document.querySelector('#create-options input[name=opt-event_deck]').parsed !== undefined")
    page.fill("#create-form input[name=opt-players]", "2")
    page.dispatch_event("#create-form input[name=opt-players]", "change")
    page.wait_for_function("document.querySelectorAll('#create-role option').length === 4")  # random, P1, P2, none
    page.select_option("#create-role", "P1")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/games/*")
    game_id = int(page.url.split("/games/")[1].split("?")[0])
    info = page.evaluate("async ([gid]) => (await fetch(`/api/games/${gid}`)).json()", [game_id])
    deck = json.loads((DATA_DIR / "events-default.json").read_text())
    assert info["options"]["event_deck"]["cards"] == deck["cards"]
    assert not errors, errors


@pytest.mark.browser
def test_the_game_panel_says_who_won_and_by_which_rule(browser: Any, static_server: str) -> None:
    """Victory Conditions (L404): the Game panel's first fact is the result with its rule."""
    from roses.games.kingmaker import play

    state = RULES.setup(4, "campaign", {"players": 3})
    play.win(state, 1, "controls Henry VI, the last royal heir, crowned", "last_heir_crowned")
    data = kingmaker_board.board_data(load_board())
    page = _page(browser, static_server, PHONE)
    facts = page.evaluate("""([b, v]) => new window.Kingmaker(b, {}).statusFacts(v).map(([k, x]) => [k, String(x.textContent ?? x)])""",
                          [data, RULES.view(state, "P1")])
    assert facts[0][0] == "Result"
    assert facts[0][1].startswith("P2 wins: controls the last royal heir, crowned King (Victory Conditions")
    assert not page.errors, page.errors


def test_the_umpire_panel_names_the_cards_it_shows_and_only_those() -> None:
    """The umpire's view (umpire.py) names the cards of the hands, the Chancery and the
    face-down Treachery discards (for his panel), never a card still in a deck."""
    from roses.games.kingmaker.common import Z_DECK

    state = RULES.setup(6, "campaign", {"players": 3, "umpire": True})
    view = RULES.view(state, "umpire")
    names = view["card_names"]
    shown = {c for ids in view["hands"].values() for c in ids} | set(view["chancery_cards"])
    assert shown and shown <= set(names)
    w = W(state)
    in_deck = {w.cards[c].id for c, z in enumerate(state["cz"]) if z == Z_DECK}
    assert not in_deck & set(names)
    assert names["archbishop_of_canterbury"] == "Archbishop of Canterbury" or "archbishop_of_canterbury" not in shown


def test_a_battle_in_the_open_put_to_the_umpire_is_named_in_words(tmp_path: Any) -> None:
    """L203 with the umpire's table: the prompt, the view's ``tabletop.where`` and the log say
    where the battle is by the square's words, not its id."""
    from tests.kingmaker.test_umpire import _table_battle

    state, _, _ = _table_battle(tmp_path)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    RULES.action(state, "umpire", "table")
    words = square_names(W(state).board)["C2"]
    view = RULES.view(state, "P1")
    assert view["tabletop"]["where"] == words
    assert words in RULES.view(state, "umpire")["prompt"]
    assert any(f"at {words} fought on a table" in str(e[1]) for e in state["log"])
    for text in [view["prompt"], *(str(e[1]) for e in state["log"])]:
        assert "C2" not in text, text
