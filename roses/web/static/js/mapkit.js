// Roses: what every game's board drawing uses, whatever the game: SVG elements, points, a
// point-in-polygon test, the middle of points, and pan and zoom (wheel, drag, pinch, buttons)
// with the reading zoom. Each game draws its own board with these (games/*.js; Richard III's
// map is map.js).

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element `name` with `attrs` (null and undefined left out), appended to `parent`. */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** An SVG <text> saying `str` at (x, y). */
export function svgText(parent, x, y, str, attrs = {}) {
  const t = el("text", { x, y, ...attrs }, parent);
  t.textContent = str;
  return t;
}

/** Points [[x, y], ...] as an SVG `points` attribute. */
export const points = (list) => list.map((p) => p.join(",")).join(" ");

/** The mean of points [[x, y], ...]. */
export function centroid(pts) {
  const n = pts.length;
  return [pts.reduce((s, p) => s + p[0], 0) / n, pts.reduce((s, p) => s + p[1], 0) / n];
}

/** Whether (x, y) lies inside the polygon [[x, y], ...] (even-odd rule). */
export function insidePoly(x, y, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The reading zoom: map units to CSS px at which the smallest map text (15 units, map.css)
 * is 11.25 px. The page opens at this scale (or on the whole map when that is larger). */
export const READ_SCALE = 0.75;

/** Pan and zoom by changing the viewBox: wheel, drag, pinch, and buttons. */
export function enablePanZoom(svg, layout, controls = null) {
  const map = layout.viewBox.slice();
  let full = map.slice();
  let vb = full.slice();
  // Fit the whole map, widening the view box to the element's aspect (no letterbox).
  let shownWidth = 0;  // CSS px width the present view box was made for
  let whole = true;  // the whole map is shown (and stays so when the element is resized)
  const fit = () => {
    const r = svg.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const aspect = r.width / r.height;
    let [x, y, w, hh] = map;
    if (w / hh < aspect) { const nw = hh * aspect; x -= (nw - w) / 2; w = nw; } else { const nh = w / aspect; y -= (nh - hh) / 2; hh = nh; }
    const old = full;
    full = [x, y, w, hh];
    const cx = vb[0] + vb[2] / 2;
    const cy = vb[1] + vb[3] / 2;
    // keep the scale (CSS px per map unit) and the centre when the element is resized, so the
    // reading zoom stays the reading zoom; the first time, keep the zoom level
    const nw = shownWidth ? (vb[2] * r.width) / shownWidth : w * (vb[2] / old[2]);
    vb = whole ? full.slice() : [cx - nw / 2, cy - nw / aspect / 2, nw, nw / aspect];
    shownWidth = r.width;
    return true;
  };
  const apply = (all = false) => { whole = all; svg.setAttribute("viewBox", vb.map((v) => v.toFixed(1)).join(" ")); };
  if (fit()) apply(true);
  if (window.ResizeObserver) new ResizeObserver(() => { const all = whole; if (fit()) { if (!all) clamp(); apply(all); } }).observe(svg);
  const clamp = () => {
    const minW = full[2] / 10;
    vb[2] = Math.min(full[2] * 1.2, Math.max(minW, vb[2]));
    vb[3] = vb[2] * (full[3] / full[2]);
    // keep at least a third of the view over the map
    vb[0] = Math.min(map[0] + map[2] - vb[2] / 3, Math.max(map[0] - (2 * vb[2]) / 3, vb[0]));
    vb[1] = Math.min(map[1] + map[3] - vb[3] / 3, Math.max(map[1] - (2 * vb[3]) / 3, vb[1]));
  };
  const toSvg = (clientX, clientY) => {
    const r = svg.getBoundingClientRect();
    // preserveAspectRatio xMidYMid meet: compute the scale actually used
    const s = Math.min(r.width / vb[2], r.height / vb[3]);
    const ox = (r.width - vb[2] * s) / 2;
    const oy = (r.height - vb[3] * s) / 2;
    return [vb[0] + (clientX - r.left - ox) / s, vb[1] + (clientY - r.top - oy) / s];
  };
  const zoomAt = (factor, cx, cy) => {
    const nw = vb[2] / factor;
    const nh = vb[3] / factor;
    vb = [cx - (cx - vb[0]) * (nw / vb[2]), cy - (cy - vb[1]) * (nh / vb[3]), nw, nh];
    clamp();
    apply();
  };
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const [cx, cy] = toSvg(ev.clientX, ev.clientY);
    zoomAt(ev.deltaY < 0 ? 1.2 : 1 / 1.2, cx, cy);
  }, { passive: false });
  const pointers = new Map();
  let start = null;
  let pinch = null;
  svg.addEventListener("pointerdown", (ev) => {
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    svg.dataset.dragged = "0";
    if (pointers.size === 1) start = { x: ev.clientX, y: ev.clientY, vb: vb.slice() };
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), vb: vb.slice(), mid: toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
    }
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    if (ev.pointerType === "mouse" && ev.buttons === 0) { end(ev); return; }  // released elsewhere
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    const r = svg.getBoundingClientRect();
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      vb = pinch.vb.slice();
      zoomAt(d / pinch.d, pinch.mid[0], pinch.mid[1]);
      svg.dataset.dragged = "1";
      return;
    }
    if (!start) return;
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 6) {
      svg.dataset.dragged = "1";
      if (!svg.hasPointerCapture(ev.pointerId)) svg.setPointerCapture(ev.pointerId);
    }
    if (svg.dataset.dragged === "1") {
      const s = Math.min(r.width / start.vb[2], r.height / start.vb[3]);
      vb = [start.vb[0] - dx / s, start.vb[1] - dy / s, start.vb[2], start.vb[3]];
      clamp();
      apply();
    }
  });
  const end = (ev) => {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) start = null;
    // keep "dragged" until the click event that follows has been seen
    setTimeout(() => { if (pointers.size === 0) svg.dataset.dragged = "0"; }, 0);
  };
  // a button may be released over something else (a menu that opened under the pointer):
  // listen on the window, or the map would think the button still held and pan on the next move
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
  const api = {
    zoomIn: () => zoomAt(1.3, vb[0] + vb[2] / 2, vb[1] + vb[3] / 2),
    zoomOut: () => zoomAt(1 / 1.3, vb[0] + vb[2] / 2, vb[1] + vb[3] / 2),
    reset: () => { vb = full.slice(); apply(true); },
    focus: (x, y, width) => { vb = [x - width / 2, y - (width * full[3] / full[2]) / 2, width, width * full[3] / full[2]]; clamp(); apply(); },
    /** CSS px per map unit now. */
    get scale() { const r = svg.getBoundingClientRect(); return r.width ? Math.min(r.width / vb[2], r.height / vb[3]) : 0; },
    /** CSS px per map unit with the whole map in view. */
    get fitScale() { const r = svg.getBoundingClientRect(); return r.width ? Math.min(r.width / full[2], r.height / full[3]) : 0; },
    /** The reading zoom (READ_SCALE, or the whole map when that is larger) centred on (x, y). */
    readable: (x, y) => {
      const r = svg.getBoundingClientRect();
      if (!r.width || !r.height) return;
      if (Math.min(r.width / full[2], r.height / full[3]) >= READ_SCALE) { vb = full.slice(); apply(true); return; }
      const w = r.width / READ_SCALE;
      const hh = r.height / READ_SCALE;
      vb = [x - w / 2, y - hh / 2, w, hh];
      clamp();
      apply();
    },
    /** The reading zoom around the present centre (the "1:1" button). */
    read: () => api.readable(vb[0] + vb[2] / 2, vb[1] + vb[3] / 2),
    /** Whether the map point (x, y) is in view (with a margin of `m` map units). */
    inView: (x, y, m = 0) => x >= vb[0] + m && x <= vb[0] + vb[2] - m && y >= vb[1] + m && y <= vb[1] + vb[3] - m,
    /** Bring (x, y) into view at the present zoom. */
    show: (x, y) => { vb = [x - vb[2] / 2, y - vb[3] / 2, vb[2], vb[3]]; clamp(); apply(); },
    fit: () => { if (fit()) { vb = full.slice(); apply(true); } },
    get viewBox() { return vb.slice(); },
  };
  if (controls) {
    for (const btn of controls.querySelectorAll("[data-zoom]")) {
      btn.addEventListener("click", () => api[btn.dataset.zoom]());
    }
  }
  return api;
}

// ------------------------------------------------------------------ the other players' last moves

/** The other players' moves since this player's own last move, read from the view's log (the
 * lines of kind "move", newest last), so that a player sees at a glance what was done while he
 * waited; for an observer (`seated` false) the moves of the one side that moved last.
 * `parse(text)` reads a move line: [{side, ...}] (the game's own fields: where from, where to),
 * or null for a line that moves nothing on the board. A line of kind "turn" ends the walk once
 * a move is found; with `turnOf(text)` (games where each player has his own turn), only the
 * start of one of this player's own turns does (at the start of his turn, he sees what the
 * others did since his last one). Returns the moves, oldest first. */
export function lastMoves(view, me, parse, { seated = true, turnOf = null } = {}) {
  const lines = view.log || [];
  const kinds = view.log_kinds || [];
  const out = [];
  let side = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = Array.isArray(lines[i]) ? String(lines[i][1]) : String(lines[i]);
    if (kinds[i] === "turn") {
      if (turnOf && seated) { if (turnOf(t) === me && out.length) break; continue; }
      if (out.length) break;
      continue;
    }
    if (kinds[i] !== "move") continue;
    const moves = parse(t) || [];
    if (!moves.length || !moves[0].side) continue;
    const s = moves[0].side;
    if (s === me) { if (out.length) break; continue; }
    if (!seated) {
      if (side && s !== side) break;
      side = s;
    }
    for (let k = moves.length - 1; k >= 0; k--) out.push(moves[k]);
  }
  return out.reverse();
}

/** The arrow head of the last moves' arrows, defined once in `svg`. */
export function lastMoveMarker(svg, id = "arrow-last") {
  if (svg.querySelector(`marker#${id}`)) return id;
  const defs = svg.querySelector("defs") || el("defs", {}, svg);
  const m = el("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0 0 L10 5 L0 10 Z", fill: "#d35400" }, m);
  return id;
}

/** Draw `moves` into `layer` (emptied first), each a group `g.last-move` with its text as title:
 * a dashed arrow from `from` to `to` (map points; the ends drawn `gap` map units short of the
 * points, off the markers there), and a dashed ring of radius `ring` around `to`. A move's
 * `side`, `place` and `fromPlace` go on the group's data (data-side, data-to, data-from). */
export function drawLastMoves(layer, moves, { marker = "arrow-last", ring = 16, gap = 0, label = null } = {}) {
  layer.replaceChildren();
  for (const m of moves) {
    if (!m.to) continue;
    const g = el("g", { class: "last-move", "data-side": m.side, "data-to": m.place || "", "data-from": m.fromPlace || "" }, layer);
    el("title", {}, g).textContent = label ? label(m) : `${m.side}'s last move: ${m.text}`;
    const [x1, y1] = m.to;
    if (m.from && (m.from[0] !== x1 || m.from[1] !== y1)) {
      const [x0, y0] = m.from;
      const d = Math.hypot(x1 - x0, y1 - y0);
      const cut = Math.min(gap, d / 3);
      const ux = (x1 - x0) / d;
      const uy = (y1 - y0) / d;
      el("line", { x1: x0 + ux * cut, y1: y0 + uy * cut, x2: x1 - ux * cut, y2: y1 - uy * cut, class: "last-move-path", "marker-end": `url(#${marker})` }, g);
    }
    if (ring) el("circle", { cx: x1, cy: y1, r: ring, class: "last-move-to" }, g);
  }
}
