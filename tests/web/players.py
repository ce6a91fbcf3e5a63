"""Helpers that drive the game page like a person: choose from what the page offers and click it.

The policy reads only what the page itself shows this player (``window.roses``: the player's
own view and the choices built from it).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from roses.games.richard3.views import expand

Page = Any

#: ``page.evaluate(POST, [path, body])``: a JSON POST made by the page with its session and CSRF
#: token; the reply's JSON (an error's text is raised).
POST = """async ([path, body]) => {
    const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
    const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                                 body: JSON.stringify(body)});
    if (!r.ok) throw new Error(await r.text());
    return await r.json();
}"""
#: ``page.evaluate(GET, path)``: the page's GET of a JSON resource.
GET = """async (path) => { const r = await fetch(path); if (!r.ok) throw new Error(await r.text()); return await r.json(); }"""


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A JSON request made by the page with its session and CSRF token; the reply's JSON (None
    for 204; an error's text is raised)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const csrf = (document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')) || '=').split('=')[1];
            const r = await fetch(path, {method, headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                                         body: body === null ? undefined : JSON.stringify(body)});
            if (!r.ok) throw new Error(await r.text());
            return r.status === 204 ? null : r.json();
        }""", [method, path, body])


def people(browser: Any, base: str, roles: Any, prefix: str,
           viewport: dict[str, int]) -> tuple[dict[str, Any], dict[str, Page], list[str]]:
    """One browser context and page per role, each signed up as a new user ``prefix`` + role +
    a stamp: (contexts, pages, the page errors seen, as "role: error", filled as they come)."""
    stamp = str(int(time.time() * 1000))[-6:]
    contexts = {r: browser.new_context(viewport=viewport) for r in roles}
    pages = {r: contexts[r].new_page() for r in roles}
    errors: list[str] = []
    for r, page in pages.items():
        page.on("pageerror", lambda e, r=r: errors.append(f"{r}: {e}"))
        signup(page, base, f"{prefix}{r.lower()}{stamp}")
    return contexts, pages, errors


def signup(page: Page, base: str, name: str, password: str = "correct horse 1") -> None:
    page.goto(f"{base}/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/lobby")


def version(page: Page) -> int:
    v = page.evaluate("document.body.dataset.version")
    return -1 if v is None else int(v)


def wait_version(page: Page, above: int, timeout: float = 40.0) -> int:
    page.wait_for_function(f"Number(document.body.dataset.version || -1) > {above}", timeout=timeout * 1000)
    return version(page)


def payload(page: Page) -> dict[str, Any]:
    return page.evaluate("window.roses && window.roses.payload") or {}


def choices(page: Page) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate(
        "window.roses && !window.roses.pending ? window.roses.choices.map(c => ({verb: c.verb, arg: c.arg, kind: c.kind, ref: c.ref, label: c.label})) : []")
    return out


def snapshot(page: Page) -> tuple[int, list[dict[str, Any]]]:
    """The page's version and its choices read at one instant (one evaluation): a choice is only
    meaningful with the position it was offered in."""
    out = page.evaluate(
        """() => [Number(document.body.dataset.version ?? -1),
                  window.roses && !window.roses.pending ? window.roses.choices.map(c => ({verb: c.verb, arg: c.arg, kind: c.kind, ref: c.ref, label: c.label})) : []]""")
    return int(out[0]), list(out[1])


def overtaken(page: Page, version: int, choice: dict[str, Any]) -> bool:
    """Whether the position moved on (another player acted) since ``version`` and ``choice`` is
    no longer offered: a click on it then rightly does nothing."""
    now, opts = snapshot(page)
    return now > version and not any(
        c["verb"] == choice["verb"] and c["arg"] == choice["arg"] for c in opts)


def area_point(page: Page, area: str) -> tuple[float, float]:
    """A screen point inside the area where nothing else (a block, another area) is on top,
    nearest to its name label: where a person would click. Points are whole pixels (the
    pixel a mouse click lands on is the one tested), and a point whose neighbours 1, 2, 3 and
    6 px away are the area too is preferred to one at its edge."""
    pt = page.evaluate(
        """(area) => {
            const g = document.querySelector(`svg#map g.area[data-area="${area}"]`);
            const label = document.querySelector(`svg#map g.area-features[data-area="${area}"] text.area-label`);
            const svg = g.ownerSVGElement;
            const ctm = g.getScreenCTM();
            const toScreen = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(ctm); };
            const lx = Number(label.getAttribute("x")), ly = Number(label.getAttribute("y")) - 4;
            const box = g.getBBox();
            const inside = (x, y) => { const n = document.elementFromPoint(x, y); return !!n && n.closest("g.area") === g; };
            let best = null;
            for (let i = 0; i <= 24; i++) for (let j = 0; j <= 24; j++) {
                const x = box.x + box.width * i / 24, y = box.y + box.height * j / 24;
                const s = toScreen(x, y);
                const sx = Math.round(s.x), sy = Math.round(s.y);
                if (sx < 0 || sy < 0 || sx >= innerWidth || sy >= innerHeight) continue;
                if (!inside(sx, sy)) continue;
                // prefer points well inside: the area also under the points around
                let margin = 0;
                for (const r of [1, 2, 3, 6]) for (const [dx, dy] of [[r, 0], [-r, 0], [0, r], [0, -r]]) {
                    if (inside(sx + dx, sy + dy)) margin++;
                }
                const d = (x - lx) ** 2 + (y - ly) ** 2 - margin * 1e6;
                if (!best || d < best[2]) best = [sx, sy, d];
            }
            if (!best) { const s = toScreen(lx, ly); return [Math.round(s.x), Math.round(s.y)]; }
            return [best[0], best[1]];
        }""", area)
    return float(pt[0]), float(pt[1])


#: The smallest on-screen size (CSS px) of an area's own shape that a person clicks without
#: zooming in first (a castle's mark on the whole map of a laptop is about 4 px).
SMALL_TARGET = 12


def zoom_to_click(page: Page, area: str, tries: int = 10) -> None:
    """Zoom the map in with the wheel over an area whose shape is too small on screen to hit
    surely (under :data:`SMALL_TARGET` px), as a person would before clicking it."""
    for _ in range(tries):
        size = page.evaluate(
            """(area) => { const g = document.querySelector(`svg#map g.area[data-area="${area}"]`);
                const s = (g.querySelector('.area-shape') || g).getBoundingClientRect();
                return [Math.min(s.width, s.height), s.left + s.width / 2, s.top + s.height / 2]; }""", area)
        small, cx, cy = float(size[0]), float(size[1]), float(size[2])
        if small >= SMALL_TARGET or not area_visible(page, area):
            return
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(50)


def area_visible(page: Page, area: str) -> bool:
    """Whether some point of the area can be clicked in the current view."""
    return bool(page.evaluate(
        """(area) => {
            const g = document.querySelector(`svg#map g.area[data-area="${area}"]`);
            const svg = g.ownerSVGElement, ctm = g.getScreenCTM(), box = g.getBBox();
            const holder = svg.getBoundingClientRect();
            for (let i = 0; i <= 12; i++) for (let j = 0; j <= 12; j++) {
                const p = svg.createSVGPoint();
                p.x = box.x + box.width * i / 12; p.y = box.y + box.height * j / 12;
                const s = p.matrixTransform(ctm);
                if (s.x < holder.left || s.y < holder.top || s.x >= holder.right || s.y >= holder.bottom) continue;
                if (s.x >= innerWidth || s.y >= innerHeight || s.x < 0 || s.y < 0) continue;
                const hit = document.elementFromPoint(s.x, s.y);
                if (hit && hit.closest("g.area") === g) return true;
            }
            return false;
        }""", area))


def show_tab_of(page: Page, selector: str) -> None:
    """On a phone the page has tabs: open the one holding ``selector``, as a person would."""
    tab = page.evaluate(
        """(sel) => { const tabs = document.getElementById('tabs');
            if (!tabs || getComputedStyle(tabs).display === 'none') return null;
            const el = document.querySelector(sel); const holder = el && el.closest('[data-tab]');
            return holder ? holder.dataset.tab : null; }""", selector)
    if tab and page.evaluate("document.getElementById('game').dataset.tab") != tab:
        page.click(f'#tabs button[data-tab="{tab}"]')


def into_view(page: Page, target: Any) -> bool:
    """Drag the map, as a person would, until ``target`` (a piece on the map) is clear of the
    map's edges and of the choices sheet lying over the map on a phone; whether it moved."""
    gap = page.evaluate("""(g) => {
        const r = g.getBoundingClientRect();
        const m = document.getElementById('map').getBoundingClientRect();
        const sheet = document.getElementById('promptbar');
        let bottom = Math.min(m.bottom, innerHeight);  // the map may go on below the window
        if (sheet && getComputedStyle(sheet).position === 'absolute') bottom = Math.min(bottom, sheet.getBoundingClientRect().top);
        const dy = r.bottom > bottom - 8 ? bottom - 24 - r.bottom : r.top < m.top + 8 ? m.top + 24 - r.top : 0;
        const dx = r.right > m.right - 56 ? m.right - 72 - r.right : r.left < m.left + 8 ? m.left + 24 - r.left : 0;
        return [dx, dy, (m.left + m.right) / 2, (m.top + bottom) / 2];
    }""", target.element_handle())
    dx, dy, cx, cy = gap
    if not dx and not dy:
        return False
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + dx / 2, cy + dy / 2, steps=4)
    page.mouse.move(cx + dx, cy + dy, steps=4)
    page.mouse.up()
    page.wait_for_timeout(50)
    return True


#: Whether the page took up a click: an action is on its way or was answered, or an error is
#: shown.
TAKEN = """(before) => !!(window.roses && (window.roses.pending || window.roses.queued))
    || Number(document.body.dataset.version ?? -1) > before
    || !!(document.getElementById('action-error') && document.getElementById('action-error').textContent.trim())"""


def click_choice(page: Page, choice: dict[str, Any], tries: int = 3) -> None:
    """Click the thing on the page that makes this choice (card, area, block, or button).

    A click that the page did not take up at all (nothing sent, no menu, no error: the map
    moved or was redrawn under the pointer between aiming and clicking) is made again, as a
    person would click again; a click that sent something is never repeated."""
    before = version(page)
    LAST_POINT.clear()
    for attempt in range(tries):
        _click_once(page, choice)
        try:
            page.wait_for_function(TAKEN, arg=before, timeout=3000)
            return
        except Exception:
            if attempt == tries - 1:
                raise
            if version(page) != before or not any(
                    c["verb"] == choice["verb"] and c["arg"] == choice["arg"] for c in choices(page)):
                return  # the position moved on: the caller sees it was overtaken


#: Where the last click on an area was made (for the message of a click that did nothing).
LAST_POINT: list[float] = []


def under_pointer(page: Page) -> str:
    """What the last area click landed on: the area (or other element) at its point."""
    if not LAST_POINT:
        return "no area clicked"
    return str(page.evaluate(
        """([x, y]) => { const n = document.elementFromPoint(x, y); if (!n) return 'nothing';
            const a = n.closest('g.area'); return a ? `area ${a.dataset.area}` : `${n.tagName}.${n.getAttribute('class') || ''}`; }""",
        LAST_POINT)) + f" at {LAST_POINT}"


def _click_once(page: Page, choice: dict[str, Any]) -> None:
    kind, verb, arg = choice["kind"], choice["verb"], choice["arg"]
    before = version(page)
    if kind == "card":  # the card the choice is on (its ref: the argument may be [card, noble])
        card = choice.get("ref") or arg
        show_tab_of(page, f'#hand button.card[data-card="{card}"]')
        page.click(f'#hand button.card[data-card="{card}"]')
    elif kind == "area":
        show_tab_of(page, "svg#map")
        page.evaluate("window.scrollTo(0, 0)")
        if not area_visible(page, choice["ref"]):
            page.click("#zoom [data-zoom=reset]")  # show the whole map, as a person would
        if not area_visible(page, choice["ref"]):  # below the window's edge: scroll the page to it
            page.locator(f'svg#map g.area[data-area="{choice["ref"]}"]').first.scroll_into_view_if_needed()
        if not area_visible(page, choice["ref"]):  # under the choices sheet (a phone): move the map
            label = page.locator(f'svg#map g.area-features[data-area="{choice["ref"]}"] text.area-label').first
            into_view(page, label if label.count() else page.locator(f'svg#map g.area[data-area="{choice["ref"]}"]').first)
        zoom_to_click(page, choice["ref"])
        x, y = area_point(page, choice["ref"])
        # Shift+click offers every choice of the area (a plain click makes the usual one)
        LAST_POINT[:] = [x, y]
        page.keyboard.down("Shift")
        page.mouse.click(x, y)
        page.keyboard.up("Shift")
    elif kind == "block":
        show_tab_of(page, "svg#map")
        on_map = page.locator(f'svg#map g.block.legal[data-block="{choice["ref"]}"]')
        if on_map.count():
            inside = page.evaluate(
                """(key) => { const b = document.querySelector(`svg#map g.block.legal[data-block="${key}"]`).getBoundingClientRect();
                    const m = document.getElementById("map").getBoundingClientRect();
                    return b.left >= m.left && b.top >= m.top && b.right <= m.right && b.bottom <= m.bottom; }""", choice["ref"])
            if not inside:
                page.click("#zoom [data-zoom=reset]")
            on_map.first.scroll_into_view_if_needed()
            into_view(page, on_map.first)
            if on_map.first.evaluate("(g) => !!g.closest('g.stack.compact')"):
                # a reduced stack opens out under the pointer first
                on_map.first.hover()
                page.wait_for_function("(k) => document.querySelector(`svg#map g.stack.fanned g.block[data-block='${k}']`)",
                                       arg=choice["ref"])
                if into_view(page, on_map.first):  # the map moved: open it out again
                    on_map.first.hover()
            on_map.first.click(modifiers=["Shift"])  # every choice of the block, then the one wanted
        else:
            show_tab_of(page, f'button.chip.legal[data-block="{choice["ref"]}"]')
            chip = page.locator(f'button.chip.legal[data-block="{choice["ref"]}"]').first
            chip.scroll_into_view_if_needed()
            chip.click()
    else:  # every choice is a button in the choices bar
        if arg is None:
            sel = f'#buttons button.choice[data-verb="{verb}"]:not([data-arg])'
        else:
            sel = f'#buttons button.choice[data-verb="{verb}"][data-arg={json.dumps(json.dumps(arg, separators=(",", ":")))}]'
        btn = page.locator(sel)
        if not btn.first.is_visible():  # in a group of the choices bar: open it first
            page.click(f'#buttons button.group-toggle[data-group="{verb}"]')
        btn.first.scroll_into_view_if_needed()
        btn.first.click()
    # The page answers a click with a menu of the thing's choices or by sending the action; on a
    # loaded machine either may come a moment after the click, so wait for one of them first.
    with contextlib.suppress(Exception):
        page.wait_for_function(f"(before) => !!document.querySelector('.popup') || ({TAKEN})(before)",
                               arg=before, timeout=3000)
    popup = page.locator(".popup")
    if popup.count():  # a menu of the thing's choices: the one wanted (gone if the page was redrawn)
        with contextlib.suppress(Exception):
            popup.get_by_role("button", name=choice["label"], exact=True).click(timeout=5000)


Policy = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


def aggressive(view: dict[str, Any], opts: list[dict[str, Any]]) -> dict[str, Any]:
    """Play a strong Action card, move towards the enemy, attack, fire, end when nothing better
    (a Richard III view, read in its full form as the page draws it)."""
    view = expand(view) if "shown" in view else view
    me = view.get("role")
    hidden = view.get("hidden") or {}
    enemy_areas = {a for a, by in hidden.items() if any(r != me and n for r, n in by.items())}

    def pick(verb: str, pred: Callable[[dict[str, Any]], bool] = lambda c: True) -> dict[str, Any] | None:
        return next((c for c in opts if c["verb"] == verb and pred(c)), None)

    hand = {c["id"]: c for c in view.get("hand", [])}
    order = [
        pick("keep"),
        max((c for c in opts if c["verb"] == "play" and not hand.get(c["arg"], {}).get("event")),
            key=lambda c: hand.get(c["arg"], {}).get("ap", 0), default=None),
        pick("play"),
        pick("to", lambda c: c["ref"] in enemy_areas),
        pick("battle"), pick("fire"), pick("hit"), pick("keep_treason"), pick("end_regroup"),
        pick("main"), pick("stop"),
        pick("move", lambda c: c["ref"] not in enemy_areas and _near_enemy(view, c["ref"], enemy_areas)),
        pick("block"), pick("to"), pick("end_group"), pick("end"),
        pick("reduce"), pick("disband"), pick("home"), pick("enter"), pick("spare"),
    ]
    for c in order:
        if c is not None:
            return c
    return opts[0]


NEIGHBOURS: dict[str, set[str]] = {}


def _near_enemy(view: dict[str, Any], area: str, enemy: set[str]) -> bool:
    return bool(NEIGHBOURS.get(area, set()) & enemy)


def load_neighbours(layout: dict[str, Any]) -> None:
    for b in layout["borders"]:
        NEIGHBOURS.setdefault(b["a"], set()).add(b["b"])
        NEIGHBOURS.setdefault(b["b"], set()).add(b["a"])


def play_until(pages: list[Page], done: Callable[[], bool], policy: Policy = aggressive,
               max_actions: int = 400, on_step: Callable[[Page, dict[str, Any]], None] | None = None,
               timeout: float = 360.0) -> int:
    """Let whichever page may act choose and click, until ``done()``; returns actions made."""
    made = 0
    start = time.time()
    while not done():
        if made >= max_actions or time.time() - start > timeout:
            raise AssertionError(f"gave up after {made} actions")
        acted = False
        for page in pages:
            before, opts = snapshot(page)
            if not opts:
                continue
            view = payload(page).get("view") or {}
            if int(payload(page).get("version", before)) != before:
                break  # the position moved on while it was read: read it again
            choice = policy(view, opts)
            try:
                click_choice(page, choice)
                wait_version(page, before)
            except Exception as exc:
                if overtaken(page, before, choice):  # the other player's move came first
                    break
                from tests.web.conftest import screenshot_path
                page.screenshot(path=str(screenshot_path("failed-click.png")))
                err = page.evaluate("document.getElementById('action-error') && document.getElementById('action-error').textContent")
                hit = under_pointer(page) if choice["kind"] == "area" else ""
                raise AssertionError(f"clicking {choice} (version {before}, error {err!r}, {hit}) did nothing") from exc
            made += 1
            acted = True
            if on_step:
                on_step(page, choice)
            break
        if not acted:
            time.sleep(0.1)
    return made
