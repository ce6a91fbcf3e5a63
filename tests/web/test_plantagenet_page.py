"""Plantagenet in real Chromium: the board drawn from the data renders with no page error on a
desktop and a phone; two people play a game of Ia (Henry VI) by clicking what the page
outlines (Locales, Lords, Command cards, units) and buttons; every click sends one of the
view's legal actions; and nothing hidden from a side (its opponent's Held Events and drawn
cards, Plan, and with Hidden Mats the mats and Capabilities, 1.5.3, 1.9, 3.1, 4.1.2) reaches its
browser over HTTP or the WebSocket, or shows in its page, with Hidden Mats on and off."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from typing import Any

import pytest

from roses.engine import Game, get_rules
from tests.web import players
from tests.web.conftest import DESKTOP, PHONE, LiveServer, screenshot_path
from tests.web.leaks import Secrets, Traffic
from tests.web.test_plantagenet_pieces import CHECK

#: An internal id in a label: a Command card's "york-1", a snake_case id ("henry_vi").
INTERNAL = re.compile(r"\b[a-z][a-z_]*-\d\b|\b[a-z]+_[a-z_]+\b")


def walk_check(page: Any) -> None:
    """What a new player sees at every step of a walk: every piece inside its place, every
    choice in plain words, a board drawn."""
    out = page.evaluate(CHECK)
    assert not out["outside"] and not out["overlaps"], out
    for c in players.choices(page):
        assert not INTERNAL.search(c["label"]), c["label"]
    assert page.locator(".no-board").count() == 0

pytestmark = pytest.mark.browser

RULES = get_rules("plantagenet")
#: Verbs a test player avoids: they undo a step (and could loop) or give up a Lord.
AVOID = {"remove", "cancel", "leave", "disband", "exile", "undo"}
#: Verbs that close a decision; taken often so that play moves on.
FINISH = {"lock", "end", "done", "go", "pass", "decline", "pay"}


def scan(secrets: Secrets, role: str, page: Any, traffic: Traffic) -> tuple[int, int]:
    """Nothing secret from ``role`` was sent to its browser (each view checked against the
    secrets of its own version, anything else against the latest) or is in its page now; with
    Hidden Mats, no view sent to it holds an opponent's mat outside Battle (1.5.3). Returns
    (chunks checked, views checked)."""
    latest = secrets.at(None, role)
    checked = views = 0
    for chunk in traffic.texts():
        version = None
        data: Any = None
        with contextlib.suppress(ValueError):
            data = json.loads(chunk)
        if isinstance(data, dict) and data.get("game_id") == secrets.game_id and "view" in data:
            version = int(data["version"])
            views += 1
            view = data["view"] or {}
            state = secrets.state(version)
            if state["options"].get("hidden_mats"):
                battle = (state.get("battle") or {}).get("lords", {})
                for lid, lord in (view.get("lords") or {}).items():
                    if lord["side"] != role and "mat" in lord and lid not in battle:
                        assert lord["mat"] == "hidden", f"{role} received {lid}'s hidden mat (version {version})"
        for s in (latest if version is None else secrets.at(version, role)):
            assert s not in chunk, f"{role}'s browser received the secret {s!r} (version {version})"
        checked += 1
    dom = page.content()
    shown = " ".join(page.locator(sel).inner_text() for sel in ("#hand-panel", "#forces-panel", "#battle-panel")
                     if page.locator(sel).count())
    for s in latest:
        assert s not in dom, f"{role}'s page shows the secret {s!r}"
        token = s.strip('"')
        if re.fullmatch(r"[YL]\d+|[a-z_0-9]+-\d", token):  # an Arts of War or Command card id
            assert not re.search(rf"\b{re.escape(token)}\b", shown), f"{role}'s panels name the secret card {token}"
    return checked, views


def _create(page: Any, base: str, options: dict[str, Any]) -> int:
    game_id: int = page.evaluate(
        """async ([options]) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'plantagenet', scenario: 'ia-henry-vi', role: 'York', options, preview: true})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }""", [options])
    return game_id


def _join(page: Any, game_id: int) -> None:
    page.evaluate(
        """async ([gid]) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch(`/api/games/${gid}/join`, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({role: 'Lancaster'})});
            if (!r.ok) throw new Error(await r.text());
        }""", [game_id])


def _policy(rnd: random.Random, clicked: dict[str, int]) -> players.Policy:
    """A test player: a target on the board or a card when there is one (so every kind gets
    clicked), often the choice that closes a decision, never one that takes a step back."""

    def choose(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
        good = [c for c in opts if c["verb"] not in AVOID] or opts
        finish = [c for c in good if c["verb"] in FINISH]
        targets = [c for c in good if c["kind"] in ("area", "block", "card")]
        fresh = [c for c in targets if clicked.get(c["kind"], 0) < 2]
        if fresh:
            return rnd.choice(fresh)
        if finish and rnd.random() < 0.6:
            return rnd.choice(finish)
        return rnd.choice(targets or good)

    return choose


def _board_drawn(page: Any) -> None:
    page.wait_for_selector("svg#map g.pl-locale", timeout=40000)
    assert page.locator("svg#map g.pl-stronghold").count() == 54
    assert page.locator("svg#map g.pl-exile").count() == 4
    assert page.locator(".map-holder .pl-tracks .pl-cal-box").count() == 15  # the Calendar (2.2) along the board
    assert page.locator("svg#map .pl-way").count() == 83
    assert page.locator("svg#map g.pl-lord").count() > 0  # the Lords on the map and the Calendar
    assert page.locator(".no-board").count() == 0


@pytest.mark.parametrize("hidden_mats", [True, False], ids=["hidden-mats", "open-mats"])
def test_two_players_click_and_nothing_hidden_leaks(browser: Any, live_server: LiveServer, hidden_mats: bool) -> None:
    base = live_server.url
    ctx_a = browser.new_context(viewport=DESKTOP)
    ctx_b = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
    traffic_a, traffic_b = Traffic(a), Traffic(b)
    stamp = str(int(time.time() * 1000))[-6:] + ("h" if hidden_mats else "o")
    players.signup(a, base, f"plyork{stamp}")
    players.signup(b, base, f"pllanc{stamp}")
    game_id = _create(a, base, {"hidden_mats": hidden_mats})
    _join(b, game_id)
    for p in (a, b):
        p.goto(f"{base}/games/{game_id}")
        p.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        _board_drawn(p)
    assert a.locator(".preview-banner").count() == 0  # a finished game: no "in development" banner
    a.screenshot(path=str(screenshot_path(f"plantagenet-start-desktop-{'hidden' if hidden_mats else 'open'}.png")))
    b.screenshot(path=str(screenshot_path(f"plantagenet-start-phone-{'hidden' if hidden_mats else 'open'}.png")))
    if hidden_mats:  # the other side's mats are hidden from the start (1.5.3)
        view = players.payload(a)["view"]
        assert all(lord["mat"] == "hidden" for lord in view["lords"].values()
                   if lord["side"] == "Lancaster" and "mat" in lord)
        assert "Mat hidden" in a.inner_text("#forces-panel")

    secrets = Secrets(live_server, game_id, RULES)
    clicked: dict[str, int] = {}
    steps: list[tuple[str, int, dict[str, Any]]] = []

    def on_step(page: Any, choice: dict[str, Any]) -> None:
        clicked[choice["kind"]] = clicked.get(choice["kind"], 0) + 1
        role = players.payload(page)["role"]
        steps.append((role, players.version(page), choice))
        walk_check(page)

    def done() -> bool:
        view = players.payload(a).get("view") or {}
        return bool(players.payload(a).get("result")) or (
            all(clicked.get(k, 0) >= 2 for k in ("area", "block", "card")) and view.get("phase") == "campaign"
            and len(steps) >= 30)

    players.play_until([a, b], done, policy=_policy(random.Random(19 if hidden_mats else 23), clicked),
                       max_actions=160, on_step=on_step, timeout=600)
    # every click sent the very choice clicked, and it was legal there: the server applied it
    record = live_server.services.games.admin_export(game_id)
    for role, after, choice in steps:
        act = record["actions"][after - 1]
        assert (act["role"], act["verb"], act.get("arg")) == (role, choice["verb"], choice["arg"])
        before = Game.from_record(RULES, {**record, "actions": record["actions"][:after - 1]}).state
        assert (choice["verb"], choice["arg"]) in [tuple(x) for x in RULES.legal_actions(before, role)]
    assert clicked.get("area", 0) + clicked.get("block", 0) >= 2, clicked
    assert clicked.get("card", 0) >= 1, clicked  # the Plan was built by clicking Command cards (4.1)
    a.screenshot(path=str(screenshot_path(f"plantagenet-play-desktop-{'hidden' if hidden_mats else 'open'}.png")))
    b.screenshot(path=str(screenshot_path(f"plantagenet-play-phone-{'hidden' if hidden_mats else 'open'}.png")))

    # hidden information: every frame, response and the page of each side
    chunks_a, views_a = scan(secrets, "York", a, traffic_a)
    chunks_b, views_b = scan(secrets, "Lancaster", b, traffic_b)
    assert views_a > 10 and views_b > 10, (views_a, views_b)
    # control: the scan would see a leak: each side's own secrets reached it
    for role, traffic in (("York", traffic_a), ("Lancaster", traffic_b)):
        other = "Lancaster" if role == "York" else "York"
        mine: set[str] = set()
        for v in range(1, len(record["actions"]) + 1):
            mine |= secrets.at(v, other)
        sent = "\n".join(traffic.texts())
        assert mine, f"{role} never held anything secret from {other}: the scan proves nothing"
        assert any(s in sent for s in mine), f"none of {role}'s own secrets reached its browser"
    # an observer sees neither side's secrets
    ctx_o = browser.new_context(viewport=DESKTOP)
    o = ctx_o.new_page()
    traffic_o = Traffic(o)
    o.on("pageerror", lambda e: errors.append(str(e)))
    o.goto(f"{base}/games/{game_id}")
    o.wait_for_function("window.roses && window.roses.payload", timeout=40000)
    _board_drawn(o)
    assert o.locator("#actions-panel").is_hidden()
    scan(secrets, "Observer", o, traffic_o)
    assert not errors, errors
    for ctx in (ctx_a, ctx_b, ctx_o):
        ctx.close()


def test_clicking_an_outlined_lord_or_locale_sends_that_action(browser: Any, live_server: LiveServer) -> None:
    """On the board itself (not the choices bar): the outlined thing is clicked with the mouse
    and exactly its action is played (a Lord's own choice, or a Locale's, from a small menu
    when it has several)."""
    base = live_server.url
    ctx = browser.new_context(viewport=DESKTOP)
    ctx_b = browser.new_context(viewport=DESKTOP)
    a, b = ctx.new_page(), ctx_b.new_page()
    errors: list[str] = []
    a.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:] + "c"
    players.signup(a, base, f"plclk{stamp}")
    players.signup(b, base, f"plclb{stamp}")
    game_id = _create(a, base, {})
    _join(b, game_id)
    for p in (a, b):
        p.goto(f"{base}/games/{game_id}")
        p.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
    _board_drawn(a)
    rnd = random.Random(5)
    hits = 0
    for _ in range(120):
        if hits >= 3:
            break
        mover = next((p for p in (a, b) if players.choices(p)), None)
        if mover is None:
            time.sleep(0.2)
            continue
        opts = players.choices(mover)
        on_board = [c for c in opts if c["kind"] in ("area", "block") and c["verb"] not in AVOID]
        if mover is a and on_board:
            choice = rnd.choice(on_board)
            before = players.version(a)
            if choice["kind"] == "block":
                node = a.locator(f'.map-holder .pl-lord.legal[data-block="{choice["ref"]}"]').first
            else:
                node = a.locator(f'svg#map g.pl-locale.legal[data-area="{choice["ref"]}"] .area-shape').first
            assert node.count(), choice
            a.click("#zoom [data-zoom=reset]")
            node.click(modifiers=["Shift"])  # every choice on it: then the one wanted from the menu
            popup = a.locator(".popup")
            if popup.count():
                popup.get_by_role("button", name=choice["label"], exact=True).click()
            players.wait_version(a, before)
            act = live_server.services.games.admin_export(game_id)["actions"][before]
            assert (act["role"], act["verb"], act.get("arg")) == ("York", choice["verb"], choice["arg"])
            hits += 1
            continue
        good = [c for c in opts if c["verb"] not in AVOID] or opts
        finish = [c for c in good if c["verb"] in FINISH]
        choice = rnd.choice(finish) if finish and rnd.random() < 0.5 else rnd.choice(good)
        before = players.version(mover)
        players.click_choice(mover, choice)
        players.wait_version(mover, before)
    assert hits >= 1, "York never had a Locale or Lord to click"
    assert not errors, errors
    ctx.close()
    ctx_b.close()


def test_a_person_plays_ib_towton_against_a_bot_to_its_result(browser: Any, live_server: LiveServer) -> None:
    """Ib Towton (6.0, Test of Arms) with Hidden Mats (1.5.3): York is a person clicking what the
    page offers, Lancaster the server's heuristic bot (``easy``); the game is played through
    Levy, Plan, Command and Battle to its result, which the page shows; the stored record
    replays to the same result; nothing secret from York reached its browser or page."""
    base = live_server.url
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    traffic = Traffic(page)
    stamp = str(int(time.time() * 1000))[-6:] + "t"
    players.signup(page, base, f"towton{stamp}")
    game_id: int = page.evaluate(
        """async () => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'plantagenet', scenario: 'ib-towton', role: 'York', bots: {Lancaster: 'easy'},
                                    options: {hidden_mats: true}, preview: true})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).id;
        }""")
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
    _board_drawn(page)
    secrets = Secrets(live_server, game_id, RULES)
    phases: set[str] = set()
    clicked: dict[str, int] = {}

    def on_step(p: Any, choice: dict[str, Any]) -> None:
        clicked[choice["kind"]] = clicked.get(choice["kind"], 0) + 1
        phases.add(str((players.payload(p).get("view") or {}).get("phase")))

    def done() -> bool:
        return bool(players.payload(page).get("result"))

    made = players.play_until([page], done, policy=_policy(random.Random(1461), clicked),
                              max_actions=400, on_step=on_step, timeout=1200)
    result = players.payload(page)["result"]
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshot_path("plantagenet-towton-end-desktop.png")))
    record = live_server.services.games.admin_export(game_id)
    assert Game.from_record(RULES, record).result() == result
    york = [a for a in record["actions"] if a["role"] == "York"]
    bot = [a for a in record["actions"] if a["role"] == "Lancaster"]
    assert len(york) == made and bot, (made, len(york), len(bot))
    assert {"levy", "campaign"} <= phases, phases
    assert clicked.get("card", 0) >= 1, clicked  # a Plan of Command cards (4.1)
    checked, views = scan(secrets, "York", page, traffic)
    assert views >= made, (views, made)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshot_path("plantagenet-towton-end-phone.png")))
    assert not errors, errors
    ctx.close()


def _march_to_battle(max_seed: int = 40) -> tuple[dict[str, Any], list[tuple[str, str, Any]]]:
    """A seeded random Ia game (Hidden Mats) cut just before the March (4.3) whose Approach
    (4.3.5) leads to the first Battle (4.4) with a Hit assigned (4.4.2), and the actions from
    that March to the end of that Battle's first Hit assignments."""
    for seed in range(max_seed):
        game = Game.new(RULES, seed, "ia-henry-vi", {"hidden_mats": True})
        rnd = random.Random(seed)
        actions: list[tuple[str, str, Any]] = []
        last_march = None
        for _ in range(1500):
            if game.result() is not None:
                break
            role = game.active()[0]
            legal = RULES.legal_actions(game.state, role)
            good = [a for a in legal if a[0] not in AVOID] or legal
            marches = [a for a in good if a[0] == "march"]
            verb, arg = rnd.choice(marches) if marches and rnd.random() < 0.7 else rnd.choice(good)
            if verb == "march":
                last_march = len(actions)
            actions.append((role, verb, arg))
            game.apply(role, verb, arg)
            if verb == "hit" and last_march is not None:
                hits = [i for i, a in enumerate(actions) if a[1] == "hit"]
                rest = actions[last_march:]
                # go on to a few more Hits of the same Battle
                while len(hits) < 4 and game.result() is None and game.state.get("battle"):
                    role = game.active()[0]
                    legal = RULES.legal_actions(game.state, role)
                    good = [a for a in legal if a[0] not in AVOID] or legal
                    verb, arg = rnd.choice(good)
                    rest.append((role, verb, arg))
                    game.apply(role, verb, arg)
                    if verb == "hit":
                        hits.append(len(actions) + len(rest))
                record = Game.new(RULES, seed, "ia-henry-vi", {"hidden_mats": True})
                for r, v, a in actions[:last_march]:
                    record.apply(r, v, a)
                return record.record(), rest
    raise AssertionError("no seeded game reached a Battle with Hits after a March")


def test_two_players_click_a_march_into_a_battle_and_assign_hits(browser: Any, live_server: LiveServer) -> None:
    """Ia with Hidden Mats, imported at a Command card of a seeded game: York and Lancaster, each
    in a browser, click a March (4.3) into an Approach (4.3.5), the Battle array and rounds
    (4.4.1-4.4.2) and the Hits assigned unit by unit, each click the choice the page offers;
    the server applies exactly those actions, and nothing secret reaches either browser."""
    record, rest = _march_to_battle()
    rest = [(r, v, json.loads(json.dumps(a))) for r, v, a in rest]  # arguments as the page has them
    base = live_server.url
    stamp = str(int(time.time() * 1000))[-6:] + "m"
    names = {"York": f"plmy{stamp}", "Lancaster": f"plml{stamp}"}
    ctxs = {"York": browser.new_context(viewport=DESKTOP),
            "Lancaster": browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)}
    pages = {r: c.new_page() for r, c in ctxs.items()}
    errors: list[str] = []
    traffic = {}
    for role, p in pages.items():
        p.on("pageerror", lambda e: errors.append(str(e)))
        traffic[role] = Traffic(p)
        players.signup(p, base, names[role])
    record = {**record, "title": f"March {stamp}", "players": [{"role": r, "user": n} for r, n in names.items()]}
    game_id = live_server.services.games.import_record(record, private=False)
    start = len(record["actions"])
    for p in pages.values():
        p.goto(f"{base}/games/{game_id}")
        p.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        _board_drawn(p)
    clicked: list[str] = []
    shot = False
    for role, verb, arg in rest:
        page = pages[role]
        deadline = time.time() + 60
        while True:
            v, opts = players.snapshot(page)
            choice = next((c for c in opts if c["verb"] == verb and c["arg"] == arg), None)
            if choice is not None or time.time() > deadline:
                break
            page.wait_for_timeout(100)
        assert choice is not None, f"{role}'s page never offered {verb} {arg!r}"
        if verb == "hit" and not shot:
            shot = True
            for who, p in pages.items():
                players.show_tab_of(p, "#battle-panel")
                p.screenshot(path=str(screenshot_path(f"plantagenet-battle-hits-{'desktop' if who == 'York' else 'phone'}.png")))
                players.show_tab_of(p, "svg#map")
        walk_check(page)
        players.click_choice(page, choice)
        players.wait_version(page, v)
        clicked.append(verb)
    assert clicked[0] == "march" and "hit" in clicked, clicked
    done = live_server.services.games.admin_export(game_id)["actions"][start:]
    assert [(a["role"], a["verb"], a.get("arg")) for a in done] == rest
    secrets = Secrets(live_server, game_id, RULES)
    for role, p in pages.items():
        scan(secrets, role, p, traffic[role])
    assert not errors, errors
    for c in ctxs.values():
        c.close()


def test_replay_of_a_finished_game_from_either_side(browser: Any, live_server: LiveServer) -> None:
    """A finished Ib Towton (Hidden Mats) replays step by step in the browser from York's, then
    Lancaster's point of view on our board, with the result at the last step and no page error;
    the server's replay views for a side hold none of that side's secrets of that step."""
    game = Game.new(RULES, 7, "ib-towton", {"hidden_mats": True})
    rnd = random.Random(7)
    while game.result() is None:
        role = game.active()[0]
        legal = RULES.legal_actions(game.state, role)
        game.apply(role, *rnd.choice([a for a in legal if a[0] not in AVOID] or legal))
    stamp = str(int(time.time() * 1000))[-6:] + "r"
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    traffic = Traffic(page)
    players.signup(page, live_server.url, f"plrep{stamp}")
    game_id = live_server.services.games.import_record({**game.record(), "title": f"Towton {stamp}"}, private=False)
    page.goto(f"{live_server.url}/games/{game_id}/replay")
    page.wait_for_selector("svg#map g.pl-locale", timeout=40000)
    # the board is drawn before the replay's steps are fetched: the first step is shown last
    page.wait_for_selector("body[data-ready='1']", timeout=40000)
    steps = int(page.get_attribute("#step", "max") or 0)
    assert steps == len(game.record()["actions"]) > 10
    secrets = Secrets(live_server, game_id, RULES)
    for pov in ("York", "Lancaster"):
        page.select_option("#pov", pov)
        page.click("#first")
        page.wait_for_selector("body[data-step='0']")
        for n in (1, 2, 3):
            page.click("#next")
            page.wait_for_selector(f"body[data-step='{n}']")
        assert page.locator("svg#map g.pl-lord").count() > 0
        page.click("#last")
        page.wait_for_selector(f"body[data-step='{steps}']")
        page.wait_for_selector("#result-panel:not([hidden])")
        said = page.locator("#result-panel").inner_text()
        assert ("draw" in said) if game.result() == "Draw" else (f"{game.result()} wins" in said), said
        if pov == "Lancaster":
            page.screenshot(path=str(screenshot_path("plantagenet-replay-desktop.png")))
    # every replay view of a side, checked against that side's secrets at its step
    checked = 0
    for chunk in traffic.texts():
        data: Any = None
        with contextlib.suppress(ValueError):
            data = json.loads(chunk)
        if isinstance(data, dict) and "view" in data and data.get("game_id") == game_id:
            who, step = data.get("role"), data.get("step")
            if who in ("York", "Lancaster") and isinstance(step, int):
                for s in secrets.at(step, str(who)):
                    assert s not in chunk, f"the replay for {who} at step {step} holds {s!r}"
                checked += 1
    assert checked >= 8, checked
    assert not errors, errors
    ctx.close()
