"""Checks, from the DOM, that every piece a board draws lies inside the place where the rules
have it (an area, a locale, a square): generic over games, each test names its pieces, how a
piece names its place and where the shape of a place is.

``pieces_outside(page, pieces=..., place_attr=..., shape=...)`` returns the pieces whose box
(its bounding box on the screen) has a point outside its place's shape: the four corners (a
pixel in), the middles of the sides and the centre are tested with the shape's own
``isPointInFill``, in the shape's coordinates, so any zoom, pan or transform is allowed for.

* ``pieces``: a CSS selector of the piece elements (e.g. ``svg#map g.stack g.block``);
* ``place_attr``: the attribute naming the place, read from the piece or its nearest ancestor
  that has it (e.g. ``data-area``);
* ``shape``: a CSS selector of the place's shape (an SVG geometry element) with ``{place}`` for
  the place's name (e.g. ``svg#map g.area[data-area="{place}"] .area-shape``).

``pieces_covered(page, pieces=..., mine=...)``: the pieces matching ``mine`` whose centre
another piece covers (``document.elementFromPoint``), for "own pieces never hidden under the
enemy's".
"""

from __future__ import annotations

from typing import Any

_OUTSIDE = """([pieces, placeAttr, shape]) => {
  const out = [];
  for (const piece of document.querySelectorAll(pieces)) {
    const holder = piece.closest(`[${placeAttr}]`);
    const place = holder && holder.getAttribute(placeAttr);
    const name = piece.dataset.block || piece.getAttribute('aria-label') || piece.textContent.trim().slice(0, 30);
    if (!place) { out.push([name, null, 'no place']); continue; }
    const shapeEl = document.querySelector(shape.replaceAll('{place}', CSS.escape(place)));
    if (!shapeEl) { out.push([name, place, 'no shape']); continue; }
    const r = piece.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not drawn
    const inv = shapeEl.getScreenCTM().inverse();
    const xs = [r.left + 1, r.left + r.width / 2, r.right - 1];
    const ys = [r.top + 1, r.top + r.height / 2, r.bottom - 1];
    const bad = [];
    for (const x of xs) for (const y of ys) {
      const p = new DOMPoint(x, y).matrixTransform(inv);
      if (!shapeEl.isPointInFill(p)) bad.push([Math.round(x), Math.round(y)]);
    }
    if (bad.length) out.push([name, place, bad]);
  }
  return out;
}"""

_COVERED = """([pieces, mine]) => {
  const out = [];
  const probe = document.createElement('style');
  probe.textContent = `${pieces} { pointer-events: all !important; }`;
  document.head.appendChild(probe);
  for (const piece of document.querySelectorAll(mine)) {
    const r = piece.getBoundingClientRect();
    if (!r.width) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    const by = hit && hit.closest(pieces);
    if (by && by !== piece) out.push([piece.dataset.block || piece.getAttribute('aria-label'), by.dataset.block || by.getAttribute('aria-label')]);
  }
  probe.remove();
  return out;
}"""


def pieces_outside(page: Any, *, pieces: str, place_attr: str, shape: str) -> list[Any]:
    """The pieces (name, place, points outside) not wholly inside their place's shape."""
    out: list[Any] = page.evaluate(_OUTSIDE, [pieces, place_attr, shape])
    return out


def pieces_covered(page: Any, *, pieces: str, mine: str) -> list[Any]:
    """The pieces of ``mine`` whose centre on the screen another piece covers."""
    out: list[Any] = page.evaluate(_COVERED, [pieces, mine])
    return out
