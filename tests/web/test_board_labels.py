"""Names a player can read on the Plantagenet and Kingmaker boards, in real Chromium at 1366x768
and 390x844, at the page's reading zoom (its "1:1" button):

* no two place names overlap (Plantagenet's Locales, 1.3.1; Kingmaker's towns, cities and
  castles, crowded ones such as Pontefract, Wakefield and Sandal included), and no name crosses
  another place's marker;
* Plantagenet: no Locale's name lies under the Lords, Seats or Vassals standing at another
  Locale (the start of Ia), and every Calendar box (2.2) shows its notes in full: the Plan size
  (4.1) and the turn's end steps (Gain Lords Influence 4.8.1, Grow 4.8.4, Waste 4.8.5), none cut,
  with the rule in the box's title.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}

#: Pairs of names that overlap, names across another place's marker (and, with ``pieces``,
#: under another place's pieces), from the boxes on the screen.
CROWDED = """([names, marks, pieces]) => {
  const box = (n) => n.getBoundingClientRect();
  const placeOf = (n) => n.closest('[data-area]').dataset.area;
  const labels = [...document.querySelectorAll(names)].map((t) => [placeOf(t), t.textContent, box(t)]);
  const hit = (a, b, m = 0) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > m
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > m;
  const out = [];
  for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
    if (hit(labels[i][2], labels[j][2])) out.push(`names ${labels[i][1]} and ${labels[j][1]}`);
  }
  for (const m of document.querySelectorAll(marks)) {
    const at = placeOf(m);
    for (const [place, text, r] of labels) if (place !== at && hit(r, box(m))) out.push(`name ${text} on the marker of ${at}`);
  }
  if (pieces) for (const p of document.querySelectorAll(pieces)) {
    for (const [place, text, r] of labels) if (place !== p.dataset.at && hit(r, box(p), 1)) out.push(`name ${text} under a piece at ${p.dataset.at}`);
  }
  return [labels.length, out];
}"""


def _game(browser: Any, srv: LiveServer, size: str, body: dict[str, Any], prefix: str) -> tuple[Any, Any, list[str]]:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, srv.url, f"{prefix}{size[:2]}{str(int(time.time() * 1000))[-6:]}")
    out = page.evaluate(players.POST, ["/api/games", body])
    page.goto(f"{srv.url}/games/{out['id']}")
    page.wait_for_function("window.roses && window.roses.payload && window.roses.payload.view", timeout=60000)
    players.show_tab_of(page, "svg#map")
    page.click("#zoom [data-zoom=read]")  # the reading zoom
    page.wait_for_timeout(300)
    return ctx, page, errors


@pytest.mark.parametrize("size", sorted(SIZES))
def test_plantagenet_names_and_calendar_notes_read_in_full(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx, page, errors = _game(browser, live_server, size, {
        "game": "plantagenet", "scenario": "ia-henry-vi", "role": "York", "preview": True,
        "bots": {"Lancaster": "easy"}}, "pln")
    count, crowded = page.evaluate(CROWDED, ["svg#map g.pl-stronghold text.pl-locale-name",
                                             "svg#map g.pl-stronghold .pl-marker",
                                             "svg#map g.pl-lord[data-at], svg#map g.pl-seat, svg#map g.pl-vassal-counter"])
    assert count == 54 and crowded == [], crowded
    # the Calendar: every note of every box in full, inside its box
    boxes = page.evaluate("""() => [...document.querySelectorAll('.pl-cal > li.pl-cal-box')].map((li) => {
        const b = li.getBoundingClientRect();
        return [li.dataset.box, li.title, [...li.querySelectorAll('.pl-cal-head, .pl-cal-mark')].map((n) => {
            const r = n.getBoundingClientRect();
            return [n.textContent, r.left >= b.left - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1];
        })];
    })""")
    assert len(boxes) == 15
    rows = page.evaluate(players.GET, "/static/plantagenet/board.json")["calendar"]["rows"]
    for (box, title, notes), row in zip(boxes, rows, strict=True):
        assert int(box) == row["box"]
        texts = [t for t, _ in notes]
        assert f"Plan {row['plan']}" in texts, texts
        assert ("Influence" in texts) == row["gain_lords"] and ("4.8.1" in title) == row["gain_lords"], (texts, title)
        assert ("Grow" in texts) == row["grow"] and ("Waste" in texts) == row["waste"], texts
        for text, inside in notes:  # none cut off by its box
            assert inside, (box, text, notes)
            assert "…" not in text and "..." not in text
    page.screenshot(path=str(screenshot_path(f"plantagenet-names-{size}.png")))
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_kingmaker_place_names_never_overlap(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx, page, errors = _game(browser, live_server, size, {
        "game": "kingmaker", "role": "P1", "options": {"players": 3}, "preview": True,
        "bots": {"P2": "random", "P3": "random"}}, "kmn")
    count, crowded = page.evaluate(CROWDED, ["svg#map g.km-place text.km-place-name", "svg#map g.km-place .km-mark", ""])
    assert count > 100 and crowded == [], crowded
    # Pontefract, Wakefield and Sandal (three places in neighbouring squares): each name by its own mark
    near = page.evaluate("""() => ['Pontefract', 'Wakefield', 'Sandal'].map((name) => {
        const t = [...document.querySelectorAll('svg#map text.km-place-name')].find((x) => x.textContent === name);
        const m = t.closest('g.km-place').querySelector('.km-mark').getBBox(), b = t.getBBox();
        return [name, Math.max(0, b.x - (m.x + m.width), m.x - (b.x + b.width)), Math.max(0, b.y - (m.y + m.height), m.y - (b.y + b.height))];
    })""")
    for name, dx, dy in near:
        assert dx <= 8 and dy <= 12, (name, dx, dy)
    page.evaluate("""() => { const t = [...document.querySelectorAll('svg#map text.km-place-name')].find((x) => x.textContent === 'Pontefract');
        const svg = document.getElementById('map'); const b = t.getBBox(); const r = svg.getBoundingClientRect();
        const w = r.width / 0.75, h = r.height / 0.75;
        svg.setAttribute('viewBox', `${b.x - w / 2} ${b.y - h / 2} ${w} ${h}`); }""")
    page.screenshot(path=str(screenshot_path(f"kingmaker-names-{size}.png")))
    assert not errors, errors
    ctx.close()
