"""Kingmaker in real Chromium: the board the game uses is drawn from the
board module's data (the shipped open board, and a supplied board the same way), with places,
stacks, heirs, ships, the player's own hand, and the Parliament screen with the tally; two
people (a desktop and a phone) and two bots play a 4-player campaign by clicking what the page
outlines; every click sends that very legal action; nothing hidden from a seat (another
player's hand, the decks' order, Chancery: Rules.secrets, research section 5 item 6) reaches
its browser over HTTP or the WebSocket, or shows in its page, nor an observer's; the gazette
page of a finished round draws its board and holds no secret either."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import pytest

from roses.engine import Game, get_rules
from roses.games.kingmaker import board_web as kingmaker_board
from roses.games.kingmaker.board import DATA_DIR, load_board
from tests.web import players
from tests.web.conftest import DESKTOP, PHONE, LiveServer, screenshot_path
from tests.web.leaks import Secrets, Traffic

pytestmark = pytest.mark.browser

RULES = get_rules("kingmaker")
#: Verbs that close a decision; taken often so that play moves on.
FINISH = {"done", "end", "pass", "decline", "deny", "open", "fight", "deal", "answer"}


def scan(secrets: Secrets, role: str, page: Any, traffic: Traffic) -> int:
    """No secret of ``role`` in anything its browser received (each view against the secrets of
    its own version) or in its page now; returns the number of views checked."""
    latest = secrets.at(None, role)
    views = 0
    for chunk in traffic.texts():
        version = None
        data: Any = None
        with contextlib.suppress(ValueError):
            data = json.loads(chunk)
        if isinstance(data, dict) and data.get("game_id") == secrets.game_id and "view" in data:
            version = int(data["version"])
            views += 1
        for s in (latest if version is None else secrets.at(version, role)):
            assert s not in chunk, f"{role}'s browser received the secret {s!r} (version {version})"
    dom = page.content()
    for s in latest:
        assert s not in dom, f"{role}'s page shows the secret {s!r}"
    return views


def _policy(rnd: random.Random, clicked: dict[str, int]) -> players.Policy:
    def choose(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
        good = [c for c in opts if c["verb"] not in ("undo", "resign")] or opts
        finish = [c for c in good if c["verb"] in FINISH]
        targets = [c for c in good if c["kind"] in ("area", "block", "card")]
        fresh = [c for c in targets if clicked.get(c["kind"], 0) < 3]
        if fresh and rnd.random() < 0.8:
            pick = rnd.choice(fresh)
        elif finish and rnd.random() < 0.6:
            pick = rnd.choice(finish)
        else:
            pick = rnd.choice(targets or good)
        # A thing with several choices opens a menu, which the page closes when a bot acts
        # meanwhile (a new position): those are made from the choices bar instead.
        # (players.click_choice finds a card by the action's argument: a card given to a noble,
        # [card, noble], is made from the bar too.)
        if pick["kind"] == "card" and pick["arg"] != pick["ref"]:
            return {**pick, "kind": "button"}
        if pick["kind"] != "button" and sum(1 for c in opts if c["kind"] == pick["kind"] and c["ref"] == pick["ref"]) > 1:
            return {**pick, "kind": "button"}
        return pick

    return choose


def _board_drawn(page: Any) -> None:
    board = load_board()
    page.wait_for_selector("svg#map g.km-place", timeout=40000)
    assert page.locator("svg#map g.km-sq").count() == len(board.squares)
    assert page.locator("svg#map g.km-place").count() == len(board.places)
    assert page.locator(".no-board").count() == 0


def test_two_people_and_two_bots_play_and_nothing_hidden_leaks(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    ctx_a = browser.new_context(viewport=DESKTOP)
    ctx_b = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
        # a grave choice (executing an heir) is asked once more: these players meant what they clicked
        p.on("dialog", lambda d: d.accept())
    traffic_a, traffic_b = Traffic(a), Traffic(b)
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(a, base, f"kma{stamp}")
    players.signup(b, base, f"kmb{stamp}")
    game_id: int = a.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'kingmaker', role: 'P1', options: {players: 4}, preview: true,
                                    bots: {P3: 'random', P4: 'random'}})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }""")
    b.evaluate(
        """async ([gid]) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch(`/api/games/${gid}/join`, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({role: 'P2'})});
            if (!r.ok) throw new Error(await r.text());
        }""", [game_id])
    for p in (a, b):
        p.goto(f"{base}/games/{game_id}")
        p.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        _board_drawn(p)
    a.screenshot(path=str(screenshot_path("kingmaker-start-desktop.png")))
    b.screenshot(path=str(screenshot_path("kingmaker-start-phone.png")))

    secrets = Secrets(live_server, game_id, RULES)
    clicked: dict[str, int] = {}
    steps: list[tuple[str, int, dict[str, Any]]] = []

    def on_step(page: Any, choice: dict[str, Any]) -> None:
        clicked[choice["kind"]] = clicked.get(choice["kind"], 0) + 1
        steps.append((players.payload(page)["role"], players.version(page), choice))

    def done() -> bool:
        view = players.payload(a).get("view") or {}
        return bool(players.payload(a).get("result")) or (
            (view.get("round") or 0) >= 1 and len(steps) >= 25
            and all(clicked.get(k, 0) >= 1 for k in ("area", "block")))

    players.play_until([a, b], done, policy=_policy(random.Random(5), clicked), max_actions=200,
                       on_step=on_step, timeout=600)
    record = live_server.services.games.admin_export(game_id)
    at = 0  # bots act meanwhile: each click is the next action of its seat with that verb and arg
    for role, after, choice in steps:
        while at < after and (record["actions"][at]["role"], record["actions"][at]["verb"],
                              record["actions"][at].get("arg")) != (role, choice["verb"], choice["arg"]):
            at += 1
        assert at < after, f"{role}'s click {choice} is not in the game record"
        before = Game.from_record(RULES, {**record, "actions": record["actions"][:at]}).state
        assert (choice["verb"], choice["arg"]) in [tuple(x) for x in RULES.legal_actions(before, role)]
        at += 1
    # the pieces of the view are on the board: every noble on a square, every ship
    view = players.payload(a)["view"]
    on_board = [n["id"] for p in view["players"] for n in p["nobles"] if n["square"] or n["ship"]]
    assert on_board
    for nid in on_board:
        assert a.locator(f'svg#map g.km-noble[data-block="{nid}"]').count() == 1, nid
    for s in view["ships"]:
        assert a.locator(f'svg#map g.km-ship[data-block="{s["id"]}"]').count() == 1
    owned = [pid for pid, st in view["places"].items() if st["owner"]]
    for pid in owned[:5]:
        assert a.locator(f'svg#map g.km-place[data-area="{pid}"]').get_attribute("data-owner") == view["places"][pid]["owner"]
    # the hand panel shows this seat's own cards, by name
    if view.get("hand"):
        players.show_tab_of(a, "#hand-panel")
        assert view["hand"][0]["name"] in a.inner_text("#hand-panel")
    a.screenshot(path=str(screenshot_path("kingmaker-play-desktop.png")))
    players.show_tab_of(b, "svg#map")
    b.screenshot(path=str(screenshot_path("kingmaker-play-phone.png")))

    assert scan(secrets, "P1", a, traffic_a) > 10
    assert scan(secrets, "P2", b, traffic_b) > 10
    # control: the scan can see a leak: each seat's own secret tags reached its browser
    sent = "\n".join(traffic_a.texts())
    mine = set()
    for v in range(1, len(record["actions"]) + 1):
        mine |= secrets.at(v, "P2")
    assert any(s in sent for s in mine), "none of P1's own card tags reached its browser: the scan proves nothing"
    ctx_o = browser.new_context(viewport=DESKTOP)
    o = ctx_o.new_page()
    traffic_o = Traffic(o)
    o.on("pageerror", lambda e: errors.append(str(e)))
    o.goto(f"{base}/games/{game_id}")
    o.wait_for_function("window.roses && window.roses.payload", timeout=40000)
    _board_drawn(o)
    scan(secrets, "Observer", o, traffic_o)
    # the gazette of the setup (published once round 1 began): the public page, its board picture
    o.goto(f"{base}/games/{game_id}/gazette/0")
    o.wait_for_selector("svg#map[data-drawn='1'] g.km-place", timeout=40000)
    assert o.locator("svg#map g.km-noble").count() > 0
    assert o.locator(".gz-lines li").count() > 0 and o.locator(".gz-report").count() == 0
    scan(secrets, "Observer", o, traffic_o)
    o.screenshot(path=str(screenshot_path("kingmaker-gazette-desktop.png")))
    b.goto(f"{base}/games/{game_id}/gazette/0")
    b.wait_for_selector("svg#map[data-drawn='1']", timeout=40000)
    assert b.locator(".gz-report[data-role='P2']").count() == 1
    scan(secrets, "P2", b, traffic_b)
    assert not errors, errors
    for ctx in (ctx_a, ctx_b, ctx_o):
        ctx.close()


def _module_page(browser: Any, static_server: str) -> Any:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{static_server}/css/")
    page.set_content('<!doctype html><html><body><h2 id="h-battle">Battle</h2><svg id="map"></svg></body></html>')
    page.add_script_tag(type="module", content="""
        import { Kingmaker } from "/js/games/kingmaker.js";
        window.Kingmaker = Kingmaker; window.ready = true;""")
    page.wait_for_function("window.ready === true")
    return page


def test_a_supplied_board_draws_from_its_own_data(browser: Any, static_server: str) -> None:
    """The format's example board (docs/kingmaker/board.md): its own squares, places, rivers."""
    path = str(DATA_DIR / "example-board.json")
    board = load_board(path, rulebook=False)
    data = kingmaker_board.board_data(board)
    page = _module_page(browser, static_server)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.evaluate("(b) => { window.km = new window.Kingmaker(b, {}); window.km.drawBoard(document.getElementById('map')); }", data)
    assert page.locator("svg#map g.km-sq").count() == len(board.squares)
    assert page.locator("svg#map g.km-place").count() == len(board.places)
    for pid, p in board.places.items():  # each place on its own square
        assert page.locator(f'svg#map g.km-sq[data-area="sq:{p.square}"]').count() == 1
        assert page.locator(f'svg#map g.km-place[data-area="{pid}"]').count() == 1
    kinds = {f.kind for f in board.features.values()}
    for kind in kinds - {"road"}:
        assert page.locator(f"svg#map path.km-{kind}").count() >= 1, kind
    assert not errors, errors
    page.close()


def test_parliament_screen_shows_the_tally(browser: Any, static_server: str) -> None:
    """During a session the Battle panel becomes the Parliament screen: the place, the motion,
    each player's Commons and Lords (L341-353), totals, the Commons majority (half + 1), who is
    still to vote, and the minutes (the political log lines). Ballots are never shown."""
    data = kingmaker_board.board_data(load_board())
    page = _module_page(browser, static_server)
    view = {
        "role": "P1", "phase": "parliament", "active": ["P2"], "prompt": "Parliament votes: ...",
        "players": [{"role": r, "nobles": [], "assets": [], "hand": 0, "events": 0} for r in ("P1", "P2", "P3")],
        "parliament": {"place": "london", "summoner": "P1", "motion": "victory",
                       "text": "That Edward IV be the one and only King.",
                       "tally": {"P1": [31, 12], "P2": [9, 4], "P3": [0, 0]}, "voted": ["P1"]},
        "log": ["Parliament is summoned to London.", "Round 3."], "log_kinds": ["political", "turn"],
    }
    out = page.evaluate("""([b, v]) => { const km = new window.Kingmaker(b, {});
        const parts = km.renderBattle(v); document.body.append(...parts);
        return document.getElementById("h-battle").textContent; }""", [data, view])
    assert out == "Parliament"
    text = page.inner_text("[data-screen=parliament]")
    assert "London" in text and "one and only King" in text
    rows = page.locator(".km-tally tbody tr")
    assert rows.count() == 3
    assert rows.nth(0).inner_text().split("\t")[:4] == ["P1", "31", "12", "answered"]
    assert rows.nth(1).inner_text().split("\t")[:4] == ["P2", "9", "4", "to vote"]
    assert "majority of the Commons: 21" in page.inner_text(".km-tally tfoot")
    assert "Parliament is summoned to London." in page.inner_text(".km-minutes")
    assert "Round 3." not in page.inner_text(".km-minutes")
    page.close()


def test_parliament_screen_draws_the_rules_view(browser: Any, static_server: str, tmp_path: Any) -> None:
    """The screen drawn from a real view of the rules during a vote (views.view's
    ``parliament``, L341-366): each seat's Commons and Lords as the rules count them, who has
    answered, the Chancery card debated, the player's own ballot in his own page only."""
    from tests.kingmaker.test_parliament import _session

    state, _ = _session(tmp_path)
    data = kingmaker_board.board_data(load_board())
    page = _module_page(browser, static_server)
    # the proposal stage: the summoner P3 is to answer (not to vote)
    page.evaluate("""([b, v]) => { const km = new window.Kingmaker(b, {}); document.body.append(...km.renderBattle(v)); }""",
                  [data, RULES.view(state, "P1")])
    assert page.locator(".km-tally tbody tr").nth(2).inner_text().split("\t")[:4] == ["P3", "1", "0", "to answer"]
    RULES.action(state, "P3", "propose", "audley")
    RULES.action(state, "P1", "accept")
    RULES.action(state, "P1", "vote", "yes")
    for role, ballot in (("P1", "Your vote: Yes"), ("P2", None)):
        view = RULES.view(state, role)
        page.evaluate("""([b, v]) => { document.querySelectorAll('.km-parliament').forEach(e => e.remove());
            const km = new window.Kingmaker(b, {}); document.body.append(...km.renderBattle(v)); }""", [data, view])
        rows = page.locator(".km-tally tbody tr")
        assert rows.count() == 3
        assert rows.nth(0).inner_text().split("\t")[:4] == ["P1", "23", "5", "answered"]
        assert rows.nth(1).inner_text().split("\t")[:4] == ["P2", "2", "5", "to vote"]
        text = page.inner_text("[data-screen=parliament]")
        assert "Earl of Essex" in text and "Audley" in text
        assert (ballot in text) if ballot else ("Your vote" not in text)
    page.close()


def test_standing_orders_panel_sets_an_order_that_is_then_applied(browser: Any, static_server: str, tmp_path: Any) -> None:
    """Issue 20 item 3 (orders.py, ruling K71): P2, whose place P1's noble will ask to enter,
    sets "allow P1" in his Standing orders panel; the page sends the standing verb; applied by
    the rules, P1's request is answered at once "by standing order", and the panel drawn again
    shows the order set. The storm-port order is typed by port names."""
    from tests.kingmaker.test_orders import _asking

    state = _asking(tmp_path)
    data = kingmaker_board.board_data(load_board())
    page = _module_page(browser, static_server)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    draw = """([b, v]) => { if (!window.km) window.km = new window.Kingmaker(b, {}); window.sent = window.sent || [];
        document.querySelectorAll('#hand-box').forEach(e => e.remove());
        const box = document.createElement('div'); box.id = 'hand-box'; document.body.append(box);
        const out = window.km.renderCards(v, { onChoices: (list) => window.sent.push(...list.map(c => [c.verb, c.arg])) });
        box.append(...out.hand); }"""
    page.evaluate(draw, [data, RULES.view(state, "P2")])
    page.click("details.km-standing summary")
    assert "none" in page.inner_text("details.km-standing summary")
    page.select_option('details.km-standing select[name="permit:P1"]', "allow")
    sent = page.evaluate("window.sent")
    assert sent == [["set_order", {"kind": "permit:P1", "value": "allow"}]]
    RULES.action(state, "P2", *sent[0])
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])  # answered at once by the order
    assert RULES.active(state) == ["P1"]
    view = RULES.view(state, "P2")
    assert any("P2 answers by standing order: allow." in str(line) for line in view["log"])
    page.evaluate(draw, [data, view])
    assert "1 set" in page.inner_text("details.km-standing summary")
    assert page.eval_on_selector('details.km-standing select[name="permit:P1"]', "s => s.value") == "allow"
    page.fill("form.km-standing-storm input", "King's Lynn, Hull")
    page.click("form.km-standing-storm button")
    assert page.evaluate("window.sent")[-1] == ["set_order", {"kind": "storm_port", "value": ["kings_lynn", "hull"]}]
    page.select_option('details.km-standing select[name="permit:P1"]', "")
    assert page.evaluate("window.sent")[-1] == ["clear_order", "permit:P1"]
    # P1's page has no panel of P2's orders: his view holds only his own (none)
    page.evaluate(draw, [data, RULES.view(state, "P1")])
    assert "none" in page.inner_text("details.km-standing summary")
    assert not errors, errors
    page.close()


def test_the_umpire_panel_shows_chancery_and_hands_and_sends_a_ruling(browser: Any, static_server: str) -> None:
    """The umpire's view (his seat only: every hand, the Chancery, face-down Treachery cards)
    is shown in his panel, and a ruling typed there is sent as his standing verb ``rule``."""
    data = kingmaker_board.board_data(load_board())
    page = _module_page(browser, static_server)
    view = {
        "role": "umpire", "players": [{"role": "P1", "nobles": [], "assets": [], "hand": 1, "events": 0}],
        "hands": {"P1": ["earl_of_kent"]}, "event_hands": {"P1": []}, "chancery_cards": ["chancellor", "marshal"],
        "treachery_discards": ["bishop_of_ely"], "refuge_turns": [], "rulings": [[2, "The Tees is a river."]],
        "umpire": {"standing": {"rule": "a ruling", "adjudicate": ["P1", "Draw"]}},
    }
    sent = page.evaluate("""([b, v]) => { const km = new window.Kingmaker(b, {}); window.sent = [];
        const out = km.renderCards(v, { onChoices: (list) => window.sent.push(...list.map(c => [c.verb, c.arg])) });
        document.body.append(...out.hand);
        return km.statusFacts(v).map(([k, t]) => `${k}: ${t}`); }""", [data, view])
    assert "Ruling (round 2): The Tees is a river." in sent
    text = page.inner_text("body")
    assert "Chancellor, Marshal" in text and "Earl of Kent" in text and "Bishop of Ely" in text
    page.fill("form.km-ruling textarea", "Calais counts as a port of England.")
    page.click("form.km-ruling button")
    assert page.evaluate("window.sent") == [["rule", "Calais counts as a port of England."]]
    page.close()


def test_an_umpire_seat_online_sees_the_chancery_and_publishes_a_ruling(browser: Any, live_server: LiveServer) -> None:
    """A game with the umpire option (docs/kingmaker/umpire.md), a person and a bot in the
    players' seats: the person in the umpire's seat sees the Chancery and every hand in his panel, publishes
    a ruling from the page (his standing verb ``rule``: in the action log, in everyone's log),
    and receives nothing his seat may not know (the decks' order)."""
    base = live_server.url
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    traffic = Traffic(page)
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(page, base, f"kmu{stamp}")
    game_id: int = page.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'kingmaker', role: 'umpire', options: {players: 2, umpire: true}, preview: true,
                                    bots: {P2: 'random'}})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }""")
    # P1 is a person who does not answer yet: the game waits for him while the umpire rules
    ctx_p1 = browser.new_context(viewport=DESKTOP)
    other = ctx_p1.new_page()
    players.signup(other, base, f"kmp{stamp}")
    other.evaluate(
        """async ([gid]) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch(`/api/games/${gid}/join`, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({role: 'P1'})});
            if (!r.ok) throw new Error(await r.text());
        }""", [game_id])
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
    _board_drawn(page)
    page.wait_for_selector(".km-chancery", timeout=40000)
    view = players.payload(page)["view"]
    assert "chancery_cards" in view and set(view["hands"]) == {"P1", "P2"}
    assert view["chancery"] == len(view["chancery_cards"])
    players.show_tab_of(page, "#hand-panel")
    assert "Chancery (umpire only)" in page.inner_text("#hand-panel")
    shown = page.inner_text(".km-hands")
    assert all(r in shown for r in ("P1", "P2"))
    ruling = "The Tees counts as a river for movement."
    page.fill("form.km-ruling textarea", ruling)
    page.click("form.km-ruling button")
    page.wait_for_function("(t) => (window.roses.payload.view.log || []).some(l => String(l).includes(t))", arg=ruling,
                           timeout=40000)
    record = live_server.services.games.admin_export(game_id)
    assert any(a["role"] == "umpire" and a["verb"] == "rule" and a["arg"] == ruling for a in record["actions"])
    page.screenshot(path=str(screenshot_path("kingmaker-umpire-desktop.png")))
    scan(Secrets(live_server, game_id, RULES), "umpire", page, traffic)
    assert not errors, errors
    ctx.close()
    ctx_p1.close()


def test_a_standing_order_set_online_is_the_seats_own(browser: Any, live_server: LiveServer) -> None:
    """Issue 20 item 3 online: a person in P1 (a bot in P2) sets a standing order from the page
    while the game runs (his standing verb ``set_order``, sent with the current version, not
    only when he is asked); it is in his view and his own log, in no other seat's view, and
    nothing hidden reaches his browser."""
    base = live_server.url
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    traffic = Traffic(page)
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(page, base, f"kms{stamp}")
    game_id: int = page.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'kingmaker', role: 'P1', options: {players: 2}, preview: true,
                                    bots: {P2: 'random'}})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }""")
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
    _board_drawn(page)
    players.show_tab_of(page, "#hand-panel")
    page.click("details.km-standing summary")
    page.select_option('details.km-standing select[name="vote:victory"]', "no")
    page.wait_for_function("() => (window.roses.payload.view.log || []).some(l => String(l).includes('Standing order set'))",
                           timeout=40000)
    mine = players.payload(page)["view"]["standing_orders"]["orders"]
    assert mine == {"vote:victory": "no"}
    page.wait_for_function("() => document.querySelector('details.km-standing summary').textContent.includes('1 set')",
                           timeout=40000)
    record = live_server.services.games.admin_export(game_id)
    assert any(a["role"] == "P1" and a["verb"] == "set_order" for a in record["actions"])
    state = Game.from_record(RULES, record).state
    for role in ("P2", "Observer"):
        other = RULES.view(state, role)
        assert (other.get("standing_orders") or {}).get("orders", {}) == {}
        assert "Standing order set" not in json.dumps(other)
    scan(Secrets(live_server, game_id, RULES), "P1", page, traffic)
    assert not errors, errors
    ctx.close()


def test_the_umpire_correction_form_sends_what_the_rules_take(browser: Any, static_server: str) -> None:
    """The umpire's correction form (docs/kingmaker/umpire.md, his standing verb ``correct``) is
    built from his view: the kinds it offers (no undo before a correction, no takeback before a
    player's order), the pieces and places to choose from; it sends ``{kind, piece, to, reason}``,
    which the rules apply; the next view offers undo."""
    data = kingmaker_board.board_data(load_board())
    game = Game.new(RULES, 5, RULES.scenarios[0], options={"players": 2, "umpire": True})
    view = RULES.view(game.state, "umpire")
    page = _module_page(browser, static_server)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    draw = """([b, v]) => { if (!window.km) window.km = new window.Kingmaker(b, {}); window.sent = [];
        document.querySelectorAll('#hand-box').forEach(e => e.remove());
        const box = document.createElement('div'); box.id = 'hand-box'; document.body.append(box);
        const out = window.km.renderCards(v, { onChoices: (list) => window.sent.push(...list.map(c => [c.verb, c.arg])) });
        box.append(...out.hand); }"""
    page.evaluate(draw, [data, view])
    kinds = page.eval_on_selector_all("form.km-correct select[name=kind] option", "os => os.map(o => o.value)")
    assert kinds == ["move", "remove", "card", "place", "track"]
    noble = next(n for p in view["players"] for n in p["nobles"])
    page.select_option("form.km-correct select[name=kind]", "move")
    pieces = page.eval_on_selector_all("form.km-correct select[name=piece] option", "os => os.map(o => o.value)")
    assert noble["id"] in pieces
    page.select_option("form.km-correct select[name=piece]", noble["id"])
    page.select_option("form.km-correct select[name=to]", "york")
    page.click("form.km-correct button[type=submit]")
    assert page.evaluate("window.sent") == []  # no reason given: nothing is sent
    page.fill("form.km-correct textarea[name=reason]", "He rode there last evening.")
    page.click("form.km-correct button[type=submit]")
    sent = page.evaluate("window.sent")
    assert sent == [["correct", {"kind": "move", "piece": noble["id"], "to": "york",
                                 "reason": "He rode there last evening."}]]
    game.apply("umpire", *sent[0])
    assert "York" in str(game.state["log"][-1])
    page.evaluate(draw, [data, RULES.view(game.state, "umpire")])
    kinds = page.eval_on_selector_all("form.km-correct select[name=kind] option", "os => os.map(o => o.value)")
    assert kinds[-1] == "undo"
    page.select_option("form.km-correct select[name=kind]", "undo")
    assert page.locator("form.km-correct .km-correct-fields select").count() == 0
    page.select_option("form.km-correct select[name=kind]", "track")
    assert page.eval_on_selector_all("form.km-correct select[name=track] option", "os => os.map(o => o.value)") == [
        "round", "catastrophe"]
    assert not errors, errors
    page.close()
