// Roses: Richard III on the page (the game module for "richard3", see index.js). Loads the
// map layout and draws one role's view (and nothing else) onto the map and the side panels:
// pieces, cards, battle, forces, area details; turns clicks into the view's legal actions.
// The view comes from roses/games/richard3/views.py: areas, blocks, cards and borders are ids
// (the layout's area_order / borders list give the names). Action texts come from the
// server's `labels` (the rules' label()), through actions.js.

import { describeArea, drawMap, legendHTML } from "../map.js";
import { centroid, el, enablePanZoom } from "../mapkit.js";
import { h } from "../api.js";
import { actionLabel, byRef, choicesOf } from "../actions.js";

// Verbs whose argument is a card id; every other argument is an area name, a block key, a
// sea zone, or a list [acting block, target] (battle turns, retreats, regroups).
const CARD_VERBS = new Set(["play"]);

/** The module's entry point (games/index.js): load the layout and the tables of the pieces,
 * draw the map. */
export async function create(page) {
  const [layout, tables] = await Promise.all([
    fetch("/static/richard3/layout.json").then((r) => r.json()),
    fetch("/api/rules/richard3/tables").then((r) => r.json()),
  ]);
  const game = new Richard3(layout, tables);
  // the scenarios' names (the view gives the scenario's id)
  try {
    const info = await fetch("/api/rules/richard3").then((r) => (r.ok ? r.json() : null));
    for (const s of (info && info.scenarios) || []) game.scenarioNames[s.id] = s.name;
  } catch (e) { /* the id stays */ }
  game.cardText = page.cardText || (() => "");
  game.map = drawMap(page.svg, layout, { onArea: page.onArea });
  // a fanned-out stack closes with Escape or a tap elsewhere on the map
  const unfan = (except = null) => {
    for (const st of page.svg.querySelectorAll("g.stack.fanned")) if (st !== except) st.dispatchEvent(new Event("unfan"));
  };
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") unfan(); });
  page.svg.addEventListener("pointerdown", (ev) => unfan(ev.target.closest && ev.target.closest("g.stack")));
  game.pan = enablePanZoom(page.svg, layout, page.zoom);
  if (page.legend) page.legend.innerHTML = legendHTML();
  return game;
}

export function shortName(name) {
  return String(name)
    .replace(/^(Duke|Earl|Viscount|Lord|Prince) (of )?/, "")
    .replace(/ \((church|levy|mercenary)\)$/, "");
}

// The name on a block on the map: the short name of its key ("Warwick/Y" -> "Warwick"), or
// this abbreviation when that is too long for the block (the type mark tells a levy, a
// church or an heir from a noble of the same name; the full name is in the block's title).
const ABBREV = {
  "Duke of York": "York", "Prince Edward": "Edward", "Henry VI": "Henry VI", "Abp York": "York",
  "Abp Canterbury": "Canterb.", "York levy": "York", "London levy": "London",
  "Bristol levy": "Bristol", "Norwich levy": "Norwich", "Coventry levy": "Coventry",
  "Salisbury levy": "Salisb.", "Newcastle levy": "Newcastl", "Calais merc": "Calais",
  "Burgundian": "Burgund.", "Northumberland": "Northumb", "Westmoreland": "Westmor.",
  "Buckingham": "Buckingm", "Gloucester": "Glouc.", "Shrewsbury": "Shrewsb.",
  "Salisbury": "Salisb.", "Wiltshire": "Wiltsh.", "Worcester": "Worcest.",
};

/** The label of a block on the map (at most 8 letters; see ABBREV). */
export function blockLabel(item) {
  const base = item.key ? String(item.key).replace(/\/[A-Z]$/, "") : shortName(item.name || "");
  return ABBREV[base] || base;
}

// A block on the map, in map units (fonts in map.css): BW x BH, GAP between blocks.
export const BW = 66;
export const BH = 62;
const GAP = 5;
// How far the second back of a stack of hidden blocks shows, up and to the right of the first.
const UNDER = 4;
const SIDE_LETTER = { York: "Y", Lancaster: "L", Rebel: "R" };

// The phases and decisions of a view, in the words of the rules.
const PHASE_NAMES = { mulligan: "Card Phase: keep or redeal", card: "Card Phase", action: "Action Phase", battle: "Battle Phase",
  supply: "Supply Phase", political: "Political Turn", over: "Game over" };
const DECISION_NAMES = { reduce: "reduce blocks over the limit", disband: "disband blocks", main: "choose the main battle",
  enter: "enter a minor heir", execute: "execute or keep a prisoner", home: "send nobles home" };

const TYPE_MARK = { heir: "♔", church: "✝", levy: "⚑", merc: "$", bombard: "●", rebel: "✦", noble: "" };

// The parts of a view that expand() replaces (roses/games/richard3/views.py, module docs).
const COMPACT_KEYS = new Set(["own", "shown", "counts", "face_down", "heirs", "border_counts", "battles"]);

/** The full view of a view as sent (views.py `expand`, the same in Python): blocks as dicts
 * with their names and ratings (from `tables`, the rules' view_tables), the enemy's unseen
 * blocks counted per area, the heirs with their status, and so on. A full view is returned
 * as it is. */
export function expand(view, tables) {
  if (!view || !("shown" in view) || !tables) return view;
  const t = tables;
  if (!t.ids) t.ids = Object.fromEntries(t.blocks.map((b, i) => [b.key, i]));
  const roles = t.roles;
  const out = {};
  for (const [k, x] of Object.entries(view)) if (!COMPACT_KEYS.has(k)) out[k] = x;
  const side = roles.indexOf(view.role);
  const king = roles.indexOf(view.king);
  const counts = view.counts;
  out.counts = { [roles[0]]: [...counts[0]], [roles[1]]: [...counts[1]] };
  const heirs = {};
  let i = 0;
  for (const s of [0, 1]) {
    heirs[roles[s]] = t.heirs[s].map((h, rank) => {
      const lh = view.heirs[i++];
      const name = t.blocks[h].name;
      const status = lh === t.dead ? "dead" : lh === t.off ? "defected" : lh === t.minor ? "minor"
        : lh === t.prison ? "prisoner" : name === view.king_block && s === king ? "King"
          : name === view.pretender_block && s !== king ? "Pretender" : "alive";
      return { name, rank: rank + 1, status };
    });
  }
  out.heirs = heirs;
  out.battles = view.battles.map(([a, at, m]) => ({ area: a, name: t.where[a], attacker: at >= 0 ? roles[at] : null, main: m }));
  out.border_counts = {};
  for (const s of [0, 1]) out.border_counts[roles[s]] = view.border_counts[s].map((n, bid) => [bid, n]).filter(([, n]) => n);
  const dicts = [];
  if (side >= 0) {
    const own = view.own;
    const pool = [];
    own.keys.forEach((key, j) => {
      const where = own.where[j];
      if (where === t.pool) pool.push(key);
      if (where !== t.off && where !== t.dead) {
        dicts.push([t.ids[key], blockDict(t, t.ids[key], side, where, own.steps[j], own.down[j], own.moved[j], own.reserve[j], false)]);
      }
    });
    out.pool = pool;
    out.pools = { [view.role]: pool.length };
  }
  const unseen = {};
  for (const s of [0, 1]) if (s !== side) unseen[s] = [...counts[s]];
  for (const [key, o, where, steps, down, moved, reserve] of view.shown) {
    dicts.push([t.ids[key], blockDict(t, t.ids[key], o, where, steps, down, moved, reserve, true)]);
    unseen[o][where] -= 1;
  }
  dicts.sort((a, b) => a[0] - b[0]);
  out.blocks = dicts.map((d) => d[1]);
  const faceDown = {};
  for (const [area, o] of view.face_down) {
    const per = faceDown[t.where[area]] || (faceDown[t.where[area]] = {});
    per[roles[o]] = (per[roles[o]] || 0) + 1;
    unseen[o][area] -= 1;
  }
  out.face_down = faceDown;
  const hidden = {};
  for (let a = 0; a < t.areas; a++) {
    for (const [o, left] of Object.entries(unseen)) {
      if (left[a] > 0) (hidden[t.where[a]] || (hidden[t.where[a]] = {}))[roles[o]] = left[a];
    }
  }
  out.hidden = hidden;
  return out;
}

/** A block as the board draws it (views.py `_block_dict`): flags that are false are left out. */
function blockDict(t, b, owner, where, steps, down, moved, reserve, revealed) {
  const f = t.blocks[b];
  const d = { key: f.key, name: f.name, side: t.roles[owner], type: f.type, steps, max: f.max, rating: f.rating,
    where: t.where[where] };
  if (f.loyalty) d.loyalty = f.loyalty;
  if (down) d.down = true;
  if (moved) d[moved !== 3 ? "moved" : "recruited"] = true;
  if (reserve) d.reserve = reserve;
  if (revealed) d.revealed = true;
  return d;
}

export class Richard3 {
  constructor(layout, tables = null) {
    this.layout = layout;
    this.tables = tables;
    this.expanded = new WeakMap();
    this.areaNames = layout.area_order;
    this.borders = layout.borders;
    this.hasMap = true;
    this.map = null;
    this.pan = null;
    this.focused = false;
    this.lastBattle = null;
    this.history = { area: null, seen: new Set(), lines: [] };
    this.scenarioNames = {};
  }

  /** The full form of a view (expand), made once per view: every method the page calls with
   * a view (games/index.js) takes the view as sent and works on this. */
  full(view) {
    if (!view || typeof view !== "object" || !("shown" in view)) return view;
    let out = this.expanded.get(view);
    if (!out) {
      out = expand(view, this.tables);
      this.expanded.set(view, out);
    }
    return out;
  }

  areaName(id) { return typeof id === "number" ? this.areaNames[id] : String(id); }
  isArea(x) { return typeof x === "string" && x in this.layout.areas; }

  /** Every block the view lets this role identify, by key. */
  blockIndex(view) {
    const idx = {};
    for (const b of view.blocks || []) idx[b.key] = b;
    for (const b of revealedBlocks(view)) if (b && b.key && !(b.key in idx)) idx[b.key] = b;
    return idx;
  }

  blockName(view, key) {
    const b = this.blockIndex(view)[key];
    return b ? b.name : String(key).replace(/\/[A-Z]$/, "");
  }

  /** What a click must hit to choose (verb, arg): {kind: card|area|block|button, ref}. */
  classify(view, verb, arg) {
    if (arg === null || arg === undefined) return { kind: "button", ref: null };
    if (CARD_VERBS.has(verb)) return { kind: "card", ref: arg };
    const first = Array.isArray(arg) ? arg[0] : arg;
    if (typeof first === "number") return { kind: "area", ref: this.areaName(first) };
    if (this.isArea(first)) return { kind: "area", ref: first };
    if (typeof first === "string" && this.blockIndex(view)[first]) return { kind: "block", ref: first };
    return { kind: "button", ref: null };
  }

  label(view, verb, arg) { return actionLabel(view, verb, arg); }

  /** The usual one of several choices on one thing, made by a plain click (the others stay in
   * the menu of a right click or Shift+click, and in the choices bar): a land move (activate
   * the group, move this block, move to this area) before a sea move, a muster or anything
   * else. None when the choices are of another kind (a battle turn: fire, retreat, charge). */
  defaultChoice(opts) {
    for (const verb of ["move", "block", "to"]) {
      const hits = opts.filter((c) => c.verb === verb);
      if (hits.length === 1) return hits[0];
    }
    return null;
  }

  /** Flatten view.actions into [{verb, arg, kind, ref, label}]. */
  choices(view) {
    view = this.full(view);
    return choicesOf(view, (verb, arg) => this.classify(view, verb, arg));
  }

  // ------------------------------------------------------------------ the board
  /** Draw the view onto the map. The first view shows the whole map (exile areas included)
   * on a laptop, and opens at the reading zoom on the player's own forces on a phone
   * (observers: the middle of England); later, a new battle or choices that are all out of
   * view are brought into view at the present zoom. */
  draw(view, ui, payload = {}) {
    view = this.full(view);
    const map = this.map;
    this.drawPieces(map, view, ui);
    if (!this.pan) return;
    const at = (name) => (this.layout.areas[name] ? this.layout.areas[name].label : null);
    if (!this.focused && payload.status !== "open") {
      this.focused = true;
      const pts = (view.blocks || []).map((b) => at(b.where)).filter(Boolean);
      const [cx, cy] = pts.length ? centroid(pts) : [640, 820];
      if (map.svg.getBoundingClientRect().width > 760) this.pan.reset();
      else this.pan.readable(cx, cy);
    }
    const battleArea = view.battle && view.battle.area !== undefined ? this.areaName(view.battle.area) : null;
    if (battleArea && battleArea !== this.lastBattle && at(battleArea)) {
      // a new battle: its area at the reading zoom (the blocks fighting are legible)
      const [x, y] = at(battleArea);
      this.pan.readable(x, y + 40);
    } else if (ui.choices && ui.choices.length) {
      const targets = ui.choices.map((c) => (c.kind === "area" ? at(c.ref) : c.kind === "block" ? at(this.blockArea(view, c.ref)) : null)).filter(Boolean);
      if (targets.length && !targets.some((p) => this.onScreen(p[0], p[1]))) {
        // into the part of the map the choices sheet leaves uncovered (phones)
        const [x, y] = centroid(targets);
        this.pan.show(x, y + this.sheetCover() / 2 / (this.pan.scale || 1));
      }
    }
    this.lastBattle = battleArea;
  }

  /** CSS px of the map's bottom that the choices sheet covers (it lies over the map on
   * phones), 0 elsewhere. */
  sheetCover() {
    const sheet = document.getElementById("promptbar");
    if (!sheet || getComputedStyle(sheet).position !== "absolute") return 0;
    const m = this.map.svg.getBoundingClientRect();
    return Math.max(0, m.bottom - sheet.getBoundingClientRect().top);
  }

  /** Whether the map point (x, y) is on screen, out of the sheet's way (30 px in). */
  onScreen(x, y) {
    const ctm = this.map.svg.getScreenCTM && this.map.svg.getScreenCTM();
    if (!ctm) return this.pan.inView(x, y, 30);
    const p = new DOMPoint(x, y).matrixTransform(ctm);
    const m = this.map.svg.getBoundingClientRect();
    return p.x >= m.left + 30 && p.x <= m.right - 30 && p.y >= m.top + 30 && p.y <= m.bottom - this.sheetCover() - 30;
  }

  /** The area a block the view shows is in, or null. */
  blockArea(view, key) {
    const b = this.blockIndex(view)[key];
    if (!b) return null;
    if (typeof b.where === "string" && b.where in this.layout.areas) return b.where;
    return view.battle && view.battle.area !== undefined ? this.areaName(view.battle.area) : null;
  }

  /** What the page knows about an area: map facts and the pieces this view shows there. */
  areaInfo(name, view) {
    view = this.full(view);
    const area = this.layout.areas[name];
    if (!area) return null;
    const facts = describeArea(area, this.layout).split("; ");
    const own = (view.blocks || []).filter((b) => b.where === name);
    const hidden = (view.hidden || {})[name] || {};
    const items = [h("p", {}, h("strong", {}, facts[0])), h("ul", {}, facts.slice(1).map((f) => h("li", {}, f)))];
    const neighbours = this.layout.borders.filter((b) => b.a === name || b.b === name)
      .map((b) => `${b.a === name ? b.b : b.a} (${b.type}, limit ${b.limit})`);
    if (neighbours.length) items.push(h("p", {}, h("strong", {}, "Borders: "), neighbours.join(", ")));
    if (own.length) items.push(h("p", {}, h("strong", {}, "Your blocks: "), own.map((b) => `${b.name} ${b.rating} ${b.steps}/${b.max}`).join(", ")));
    for (const [side, n] of Object.entries(hidden)) if (n) items.push(h("p", {}, `${n} hidden ${side} block${n === 1 ? "" : "s"}`));
    return items;
  }

  /** Draw pieces for `view` into the map (`map` from drawMap). `ui` supplies handlers. */
  drawPieces(map, view, ui) {
    view = this.full(view);
    const layer = map.pieceLayer;
    layer.replaceChildren();
    const me = view.role || ui.role;
    const choices = ui.choices || [];
    const legalAreas = byRef(choices, "area");
    const legalBlocks = byRef(choices, "block");
    // areas: legal ones outlined and focusable
    for (const [name, node] of Object.entries(map.areaNodes)) {
      const legal = legalAreas.has(name);
      node.classList.toggle("legal", legal);
      node.setAttribute("tabindex", legal ? "0" : "-1");
      node.dataset.choices = legal ? legalAreas.get(name).map((c) => c.label).join("; ") : "";
      const base = node.getAttribute("aria-label").split(" — ")[0];
      node.setAttribute("aria-label", legal ? `${base} — ${node.dataset.choices}` : base);
    }
    // battle area marker
    const battleArea = view.battle && view.battle.area !== undefined ? this.areaName(view.battle.area) : null;
    for (const [name, node] of Object.entries(map.areaNodes)) node.classList.toggle("battle-area", name === battleArea);
    // border crossings this turn (5.21): own counts on the limit badges, e.g. "2/3"
    const used = new Map(((view.border_counts || {})[me] || []).map(([bid, n]) => [bid, n]));
    for (const badge of map.svg.querySelectorAll("g.limit")) {
      const bid = Number(badge.dataset.borderId);
      const b = this.borders[bid];
      const t = badge.querySelector("text");
      const n = used.get(bid) || 0;
      t.textContent = n ? `${n}/${b.limit}` : String(b.limit);
      badge.classList.toggle("used", n > 0);
      badge.classList.toggle("full", n >= b.limit);
    }
    // the group being moved and the path of the moving block (5.2)
    map.overLayer.replaceChildren();
    const act = view.action || {};
    const group = typeof act.group === "number" && act.group >= 0 ? this.areaName(act.group) : typeof act.group === "string" ? act.group : null;
    for (const [name, node] of Object.entries(map.areaNodes)) node.classList.toggle("group-area", name === group);
    const path = (act.path || []).map((x) => this.areaName(x)).filter((x) => map.anchors[x]);
    if (path.length > 1) {
      const pts = path.map((a) => { const [x, y] = this.layout.areas[a].label; return `${x},${y - 20}`; }).join(" ");
      el("polyline", { points: pts, class: "move-path", "marker-end": "url(#arrow)" }, map.overLayer);
    }

    // the other side's last moves (from the log's move lines: paths and counts, 5.1), drawn
    // as dashed orange arrows so a player sees at a glance what the opponent did
    for (const mv of lastMoves(view, me, this.layout)) {
      const pts = mv.path.map((a) => { const [x, y] = this.layout.areas[a].label; return `${x},${y - 20}`; }).join(" ");
      const g = el("g", { class: "last-move", "data-side": mv.side, "data-path": mv.path.join("|") }, map.overLayer);
      el("title", {}, g).textContent = `${mv.side}'s last move: ${mv.text}`;
      if (mv.path.length > 1) el("polyline", { points: pts, class: "last-move-path", "marker-end": "url(#arrow-last)" }, g);
      else { const [x, y] = this.layout.areas[mv.path[0]].label; el("circle", { cx: x, cy: y - 20, r: 16, class: "last-move-muster" }, g); }
    }

    // blocks per area: those the view identifies (own, revealed), then hidden enemy backs
    const byArea = {};
    const push = (area, item) => { (byArea[area] = byArea[area] || []).push(item); };
    const shown = new Set();
    const where = (b) => (typeof b.where === "string" && b.where in this.layout.areas ? b.where
      : typeof b.loc === "number" && b.loc < this.areaNames.length ? this.areaNames[b.loc] : null);
    for (const b of view.blocks || []) {
      const area = where(b);
      if (!area) continue;
      push(area, { ...b, side: b.side || me, known: true });
      shown.add(b.key);
    }
    for (const b of revealedBlocks(view)) {
      if (!b || shown.has(b.key)) continue;
      const area = where(b) || battleArea;
      if (!area) continue;
      push(area, { ...b, known: true });
      shown.add(b.key);
    }
    // hidden blocks of one side in one area: a single stack of block backs with its count
    if (view.hidden) {
      for (const [area, bySide] of Object.entries(view.hidden)) {
        for (const [side, n] of Object.entries(bySide)) if (n > 0) push(area, { side, known: false, count: n });
      }
    }
    // other sides' blocks lying face down (eliminated until the next campaign, 6.85)
    for (const [area, bySide] of Object.entries(view.face_down || {})) {
      for (const [side, n] of Object.entries(bySide)) if (n > 0) push(area, { side, known: false, down: true, count: n });
    }
    const selected = view.action && typeof view.action.selected === "string" ? view.action.selected : ui.selectedBlock;
    for (const [area, items] of Object.entries(byArea)) {
      // at rest a stack lies inside its area, its blocks made smaller where the area is small
      // (map.js fitStack); a reduced stack opens out at full size while pointed at or tapped
      // a stack of hidden blocks shows a second back under the first, UNDER up and to the
      // right: that offset is part of every piece's room, so it too lies inside the area
      const under = items.some((it) => !it.known && (it.count || 1) > 1) ? UNDER : 0;
      const fit = map.fitStack(area, items.length, BW + under, BH + under, GAP);
      if (!fit) continue;
      // own blocks first (drawn first, top left), then the enemy's, then those face down
      items.sort((a, b) => (a.side === me ? 0 : 1) - (b.side === me ? 0 : 1) || (a.down ? 1 : 0) - (b.down ? 1 : 0));
      const stack = el("g", { class: "stack", "data-area": area }, layer);
      const s = fit.scale;
      const rest = fit.places.map(([x, y]) => `translate(${x.toFixed(1)},${(y + under * s).toFixed(1)})${s < 1 ? ` scale(${s})` : ""}`);
      const [bx0, by0, bx1] = fit.box;
      const fan = onMap(stackPlaces(items.length, [(bx0 + bx1) / 2, by0], true), this.layout.viewBox)
        .map(([x, y]) => `translate(${x.toFixed(1)},${y.toFixed(1)})`);
      const overlapped = s < 1;
      if (overlapped) stack.classList.add("compact");
      stack.dataset.scale = String(s);
      const nodes = items.map((item, i) => {
        const g = this.drawBlock(stack, item, 0, 0, me, area);
        g.setAttribute("transform", rest[i]);
        const legal = item.known && legalBlocks.has(item.key);
        // a click on an own block is also a click on its area: the area's land move comes first
        const areaOpts = item.known && item.side === me ? legalAreas.get(area) || [] : [];
        const opts = legal ? [...legalBlocks.get(item.key), ...areaOpts] : areaOpts;
        if (opts.length) {
          g.classList.add(legal ? "legal" : "via-area");
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", `${blockText(item, area)} — ${opts.map((c) => c.label).join("; ")}`);
          const act = (ev) => {
            ev.stopPropagation();
            if (ev.type === "contextmenu") ev.preventDefault();
            // a tap on a crowded stack first fans it out (a mouse fans it on hover)
            if (overlapped && !stack.classList.contains("fanned")) { stack.dispatchEvent(new Event("fan")); return; }
            ui.onChoices(opts, g, { more: ev.type === "contextmenu" || ev.shiftKey });
          };
          g.addEventListener("click", act);
          g.addEventListener("contextmenu", act);
          g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(ev); } });
        } else if (item.known && item.side === me) {
          g.setAttribute("tabindex", "-1");
        }
        if (selected && item.key === selected) {
          g.classList.add("selected");
          g.querySelector("title").textContent += " (the block being moved)";
        }
        return g;
      });
      if (overlapped) {
        // a reduced stack opens out at full size while pointed at or focused
        const place = (to) => nodes.forEach((g, i) => g.setAttribute("transform", to[i]));
        const open = () => {
          if (stack.classList.contains("fanned")) return;
          stack.classList.add("fanned");
          const focused = document.activeElement;
          layer.appendChild(stack);  // drawn over its neighbours; moving it drops the focus: give it back
          if (focused && stack.contains(focused)) focused.focus();
          place(fan);
        };
        const close = (force = false) => {
          if (stack.classList.contains("fanned") && (force === true || !stack.contains(document.activeElement))) { stack.classList.remove("fanned"); place(rest); }
        };
        stack.addEventListener("unfan", () => close(true));
        stack.addEventListener("fan", open);
        stack.addEventListener("pointerenter", (ev) => { if (ev.pointerType === "mouse") open(); });
        stack.addEventListener("click", (ev) => { if (!stack.classList.contains("fanned")) { ev.stopPropagation(); open(); } });
        stack.addEventListener("focusin", open);
        stack.addEventListener("pointerleave", (ev) => { if (ev.pointerType === "mouse") close(); });
        stack.addEventListener("focusout", () => setTimeout(close, 0));
        const at = stackPlaces(items.length, [(bx0 + bx1) / 2, by0], true);
        const placed = onMap(at, this.layout.viewBox);
        const hit = el("rect", { class: "stack-hit", x: placed[0][0] - GAP, y: placed[0][1] - GAP, width: 1, height: 1 }, stack);
        stack.insertBefore(hit, stack.firstChild);
        const xs = placed.map((p) => p[0]);
        const ys = placed.map((p) => p[1]);
        hit.setAttribute("x", Math.min(...xs) - GAP);
        hit.setAttribute("y", Math.min(...ys) - GAP);
        hit.setAttribute("width", Math.max(...xs) - Math.min(...xs) + BW + 2 * GAP);
        hit.setAttribute("height", Math.max(...ys) - Math.min(...ys) + BH + 2 * GAP);
      }
    }
    return { legalAreas, legalBlocks };
  }

  /** One block at (x, y) (its top left corner), drawn at BW x BH map units. Own and revealed
   * blocks show name, rating, steps and side; hidden enemy stacks their side and count; a
   * block lying face down (eliminated until the next campaign, 6.84-6.86) is drawn as such. */
  drawBlock(layer, item, x, y, me, area = null) {
    const side = item.side || "Rebel";
    const down = !!item.down;
    const exile = area && this.layout.areas[area] && this.layout.areas[area].kind === "exile";
    const cls = ["block", `block-${side}`, item.known ? "" : "hidden-block", down ? "down" : "", item.moved ? "moved" : "", exile ? "in-exile" : ""];
    const g = el("g", { class: cls.filter(Boolean).join(" "), transform: `translate(${x},${y})` }, layer);
    if (item.known) g.dataset.block = item.key || String(item.id);
    g.dataset.side = side;
    el("rect", { x: 0, y: 0, width: BW, height: BH, rx: 5, class: "block-body" }, g);
    const title = el("title", {}, g);
    if (!item.known) {
      const n = item.count || 1;
      title.textContent = down
        ? `${n} ${side} block${n === 1 ? "" : "s"} face down: eliminated, out of play until the next campaign (6.85)`
        : `${n} hidden ${side} block${n === 1 ? "" : "s"}${exile ? " in exile" : ""}`;
      g.setAttribute("aria-label", title.textContent);
      g.dataset.count = String(n);
      if (n > 1) g.insertBefore(el("rect", { x: UNDER, y: -UNDER, width: BW, height: BH, rx: 5, class: "block-body block-under" }), g.firstChild);
      if (down) {
        el("text", { x: BW / 2, y: 28, "text-anchor": "middle", class: "block-out" }, g).textContent = "out";
        el("text", { x: BW / 2, y: 50, "text-anchor": "middle", class: "block-name" }, g).textContent = `${SIDE_LETTER[side] || "?"}${n > 1 ? ` ×${n}` : ""}`;
        return g;
      }
      el("text", { x: BW / 2, y: n > 1 ? 34 : 41, "text-anchor": "middle", class: "block-back" }, g).textContent = SIDE_LETTER[side] || "?";
      if (n > 1) el("text", { x: BW / 2, y: BH - 7, "text-anchor": "middle", class: "block-count" }, g).textContent = `×${n}`;
      return g;
    }
    title.textContent = blockText(item, area);
    fitText(el("text", { x: BW / 2, y: 17, "text-anchor": "middle", class: "block-name" }, g), blockLabel(item), BW - 6);
    if (down) {
      el("text", { x: BW / 2, y: 41, "text-anchor": "middle", class: "block-out" }, g).textContent = "out";
      return g;
    }
    const mark = TYPE_MARK[item.type] || "";
    el("text", { x: BW / 2, y: 40, "text-anchor": "middle", class: "block-rating" }, g).textContent = `${mark}${item.rating || ""}`;
    const max = item.max || item.steps || 0;
    const pip = 9;
    const startX = BW / 2 - (max * pip) / 2 + pip / 2;
    for (let i = 0; i < max; i++) {
      el("circle", { cx: startX + i * pip, cy: BH - 9, r: 3.3, class: i < item.steps ? "pip on" : "pip off" }, g);
    }
    // the side as a letter too, not by colour alone
    el("text", { x: 4, y: BH - 4, class: "block-side" }, g).textContent = SIDE_LETTER[side] || "?";
    if (item.moved) el("text", { x: BW - 4, y: BH - 4, "text-anchor": "end", class: "block-flag" }, g).textContent = "→";
    return g;
  }

  // ------------------------------------------------------------------ panels
  statusFacts(view) {
    view = this.full(view);
    const facts = [];
    if (view.scenario) facts.push(["Scenario", this.scenarioNames[view.scenario] || view.scenario.replace(/-/g, " ")]);
    if (view.campaign) facts.push(["Campaign", `${view.campaign} of ${view.last_campaign || 3}, turn ${view.turn} of 7`]);
    if (view.phase) facts.push(["Phase", PHASE_NAMES[view.phase] || view.phase]);
    if (view.king) facts.push(["King", `${view.king}${view.king_block ? ` (${view.king_block})` : ""}`]);
    if (view.pretender) facts.push(["Pretender", `${view.pretender}${view.pretender_block ? ` (${view.pretender_block})` : ""}`]);
    if (view.p1) facts.push(["Player 1", view.p1]);
    if (view.action) {
      const a = view.action;
      facts.push(["Acting", `${a.player}: ${a.ap} AP left${a.event ? `, ${a.event}` : ""}`]);
    }
    if (view.hand_size) facts.push(["Cards in hand", Object.entries(view.hand_size).map(([r, n]) => `${r} ${n}`).join(", ")]);
    if (view.counts) {
      facts.push(["Blocks on the map", Object.entries(view.counts).map(([r, arr]) => `${r} ${arr.reduce((s, n) => s + n, 0)}`).join(", ")]);
    }
    if (view.decision) facts.push(["Decision", `${view.decision.player}: ${DECISION_NAMES[view.decision.kind] || view.decision.kind}${view.decision.area !== undefined ? ` in ${this.areaName(view.decision.area)}` : ""}`]);
    return facts;
  }

  /** The "Cards" panel: the cards played this turn and the own hand (playable ones are
   * buttons). Every card shows what it does, in our own words (the rules reference). */
  renderCards(view, ui = {}) {
    view = this.full(view);
    const played = this.renderPlayed(view);
    const cards = (view.hand || []).map((c) => {
      const choice = (ui.choices || []).find((x) => x.kind === "card" && x.arg === c.id);
      const text = this.cardText(c.name);
      // the first clause of the card's text (its AP stand on the card already)
      const effect = c.event ? text.replace(/^[^:]*: /, "").split(/; |\. /)[0].replace(/ \(\d+(\.\d+)*\)\.?$/, "").replace(/\.$/, "") : `${c.ap} moves or recruits`;
      const card = h(choice ? "button" : "div", {
        class: `card${c.event ? " event" : ""}${choice ? " legal" : ""}`, type: choice ? "button" : null, title: text || null,
        dataset: { card: String(c.id) }, "aria-label": `${choice ? "Play " : ""}${c.name}, ${c.ap} action points${c.event ? ", event" : ""}${text ? `: ${text}` : ""}`,
      }, h("span", { class: "card-ap" }, String(c.ap)), h("span", { class: "card-name" }, c.name),
         h("span", { class: "card-text" }, effect),
         h("span", { class: "card-kind" }, c.event ? "Event" : "Action"));
      if (choice && ui.onChoices) card.addEventListener("click", () => ui.onChoices([choice], card));
      else if (!choice && ui.onWhy) {
        // a card that cannot be played now: the rules say why (asked of the server)
        card.setAttribute("role", "button");
        card.setAttribute("tabindex", "0");
        card.classList.add("why-able");
        const ask = () => ui.onWhy("play", c.id, `${c.name}: `);
        card.addEventListener("click", ask);
        card.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ask(); } });
      }
      return card;
    });
    const ap = (view.hand || []).reduce((s, c) => s + (c.ap || 0), 0);
    const hand = cards.length ? [h("h3", {}, `Your hand (${cards.length} cards, ${ap} AP)`), h("div", { class: "cards" }, cards)] : [];
    return { played, hand };
  }

  renderPlayed(view) {
    const played = view.played || {};
    const items = Object.entries(played).map(([role, card]) => {
      if (card === null || card === undefined) return h("li", {}, h("strong", {}, `${role}: `), "not played yet");
      if (card === "hidden") return h("li", {}, h("strong", {}, `${role}: `), "played, face down");
      if (typeof card !== "object") return h("li", {}, h("strong", {}, `${role}: `), String(card));
      const text = this.cardText(card.name);
      return h("li", { title: text || null, dataset: { card: String(card.id) } }, h("strong", {}, `${role}: `),
        `${card.name} (${card.ap} AP${card.event ? ", event" : ""})`,
        card.event && text ? h("span", { class: "played-text" }, ` — ${text}`) : null);
    });
    return items.length ? h("div", {}, h("h3", {}, "Cards played this turn"), h("ul", { class: "played" }, items)) : null;
  }

  /** A chip for a block outside the map; a button when the role may act on it. */
  blockChip(view, b, ui) {
    const text = `${b.name} ${b.rating || ""} ${b.steps ?? "?"}/${b.max ?? "?"}${b.down ? " (face down)" : ""}`;
    const opts = (ui && ui.choices ? ui.choices : []).filter((c) => c.kind === "block" && c.ref === b.key);
    if (opts.length && ui.onChoices) {
      const btn = h("button", { type: "button", class: `chip legal side-${b.side}`, dataset: { block: b.key }, "aria-label": `${text}: ${opts.map((c) => c.label).join("; ")}` }, text);
      btn.addEventListener("click", () => ui.onChoices(opts, btn));
      return btn;
    }
    return h("span", { class: `chip side-${b.side}`, dataset: { block: b.key } }, text);
  }

  renderForces(view, ui = {}) {
    view = this.full(view);
    const out = [];
    const blocks = view.blocks || [];
    const off = blocks.filter((b) => !(typeof b.where === "string" && b.where in this.layout.areas));
    const groups = {};
    for (const b of off) (groups[b.where] = groups[b.where] || []).push(b);
    const onMap = {};
    for (const b of blocks) if (typeof b.where === "string" && b.where in this.layout.areas) (onMap[b.where] = onMap[b.where] || []).push(b);
    if (Object.keys(onMap).length) {
      out.push(h("h3", {}, "Your blocks on the map"));
      for (const area of this.areaNames) {
        if (!onMap[area]) continue;
        out.push(h("p", { class: "chips" }, h("strong", {}, `${area}: `), onMap[area].map((b) => this.blockChip(view, b, ui))));
      }
    }
    if (blocks.length) {
      out.push(h("h3", {}, "Your blocks off the map"));
      const order = ["pool", "minor", "dead", "off-map"];
      const keys = Object.keys(groups).sort((a, b) => order.indexOf(a) - order.indexOf(b));
      for (const where of keys) {
        const name = { pool: "In the pool", minor: "Minor heirs, not yet entered", dead: "Eliminated", "off-map": "Off the map" }[where] || where;
        out.push(h("p", { class: "chips" }, h("strong", {}, `${name}: `), groups[where].map((b) => this.blockChip(view, b, ui))));
      }
      if (!off.length) out.push(h("p", { class: "muted" }, "None."));
    }
    if (view.pools) {
      out.push(h("p", {}, h("strong", {}, "Pools: "), Object.entries(view.pools).map(([r, n]) => `${r} ${n} block${n === 1 ? "" : "s"}`).join(", ")));
    }
    if (view.heirs) {
      out.push(h("h3", {}, "Heirs"));
      for (const [role, list] of Object.entries(view.heirs)) {
        out.push(h("p", {}, h("strong", {}, `${role}: `), list.map((x) => `${x.rank}. ${x.name} (${x.status})`).join("; ")));
      }
    }
    if (view.minors_owed && Object.values(view.minors_owed).some((n) => n)) {
      out.push(h("p", {}, `Minors to enter: ${Object.entries(view.minors_owed).map(([r, n]) => `${r} ${n}`).join(", ")}`));
    }
    if (view.counts) {
      out.push(h("h3", {}, "Blocks per area"));
      const rows = [];
      this.areaNames.forEach((area, i) => {
        const cells = Object.entries(view.counts).map(([r, arr]) => [r, arr[i]]);
        if (cells.some(([, n]) => n)) rows.push(h("tr", {}, h("th", { scope: "row" }, area), cells.map(([, n]) => h("td", {}, String(n || 0)))));
      });
      out.push(h("table", { class: "counts" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Area"), Object.keys(view.counts).map((r) => h("th", { scope: "col" }, r)))),
        h("tbody", {}, rows)));
    }
    return out;
  }

  renderBattle(view, ui = {}) {
    view = this.full(view);
    const b = view.battle;
    if (!b || !Object.keys(b).length) { this.battleHistory(view); return null; }
    const parts = [];
    const area = b.area !== undefined ? this.areaName(b.area) : "?";
    parts.push(h("p", { class: "battle-head" }, h("strong", {}, `Battle of ${area}`),
      b.round ? ` — round ${b.round} of 4` : "",
      b.attacker ? `. Attacker: ${b.attacker}` : "", b.defender ? `, defender: ${b.defender}.` : ""));
    if (b.turn) parts.push(h("p", {}, `To act: ${b.turn}${b.letter ? ` (${b.letter} blocks)` : ""}${b.pending_hits ? `, ${b.pending_hits} hit(s) to take` : ""}.`));
    const blocks = revealedBlocks(view);
    const sides = [b.attacker, b.defender].filter(Boolean);
    for (const x of blocks) if (!sides.includes(x.side)) sides.push(x.side);
    for (const side of sides) {
      const list = blocks.filter((x) => x.side === side);
      const hiddenN = (b.hidden_reserves || {})[side] || 0;
      parts.push(h("h3", {}, `${side}${side === b.attacker ? " (attacker)" : side === b.defender ? " (defender)" : ""}`));
      parts.push(h("ul", { class: "battle-blocks" }, list.map((x) => h("li", {},
        this.blockChip(view, { ...x, where: area }, ui),
        x.firepower !== undefined ? ` fires on ${x.firepower} or less` : "",
        x.reserve ? " · reserve" : "", x.acted ? " · has acted" : "", x.defected ? " · defected" : "")),
        hiddenN ? h("li", { class: "muted" }, `${hiddenN} hidden reserve block${hiddenN === 1 ? "" : "s"}`) : null));
    }
    const last = b.last;
    if (last && last.dice) {
      const fp = last.fp;
      parts.push(h("div", { class: "roll", "aria-label": "Last roll" },
        h("span", {}, `${last.what ? last.what[0].toUpperCase() + last.what.slice(1) : "Roll"}: ${last.block ? this.blockName(view, last.block) : ""}${fp ? ` (hits on ${fp} or less)` : ""} `),
        last.dice.map((d) => {
          const hit = fp !== undefined && d <= fp;
          return h("span", { class: `die${hit ? " hit" : ""}`, title: hit ? "hit" : "miss" }, String(d));
        }),
        last.hits !== undefined ? h("strong", {}, ` ${last.hits} hit${last.hits === 1 ? "" : "s"}`) : "",
        last.target ? ` on ${this.blockName(view, last.target)}` : ""));
      if (Array.isArray(last.reply)) {
        const rfp = last.reply_fp;
        parts.push(h("div", { class: "roll" },
          h("span", {}, `${last.target ? this.blockName(view, last.target) : "The target"} fires back${rfp ? ` (hits on ${rfp} or less)` : ""}: `),
          last.reply.map((d) => { const hit = rfp !== undefined && d <= rfp; return h("span", { class: `die${hit ? " hit" : ""}`, title: hit ? "hit" : "miss" }, String(d)); }),
          last.reply_hits !== undefined ? h("strong", {}, ` ${last.reply_hits} hit${last.reply_hits === 1 ? "" : "s"}`) : ""));
      }
      if (last.defected !== undefined) parts.push(h("p", {}, last.defected ? "The target defects." : "The target stays loyal."));
      if (Array.isArray(last.damage) && last.damage.length) {
        parts.push(h("p", { class: "damage" }, "Damage: ", last.damage.map(([key, n, dead]) =>
          `${this.blockName(view, key)} −${n} step${n === 1 ? "" : "s"}${dead ? " (eliminated)" : ""}`).join("; ")));
      }
    }
    const history = this.battleHistory(view);
    if (history.length > 1) {
      parts.push(h("h3", {}, "Rolls in this battle"),
        h("ol", { class: "battle-history" }, history.map((r) => h("li", {}, r))));
    }
    return parts;
  }

  /** The rolls of the current battle as this page saw them (from successive views only). */
  battleHistory(view) {
    const history = this.history;
    const b = view.battle;
    if (!b || !Object.keys(b).length) { history.area = null; history.seen.clear(); history.lines = []; return []; }
    if (history.area !== b.area) { history.area = b.area; history.seen.clear(); history.lines = []; }
    const last = b.last;
    if (last && last.dice) {
      const key = JSON.stringify([b.round, last]);
      if (!history.seen.has(key)) {
        history.seen.add(key);
        const who = last.block ? String(last.block).replace(/\/[A-Z]$/, "") : "";
        history.lines.push(`Round ${b.round}: ${last.what || "roll"} by ${who}: ${last.dice.join(" ")} → ${last.hits ?? 0} hit${last.hits === 1 ? "" : "s"}`);
      }
    }
    return history.lines;
  }
}

/** Set the text of an SVG <text>, narrowed (never made smaller) when it is wider than `room`:
 * the label stays whole and at its size whatever font the browser has. */
function fitText(t, text, room) {
  t.textContent = text;
  let w = 0;
  try { w = t.getComputedTextLength(); } catch (e) { w = 0; }
  if (w > room) {
    t.setAttribute("textLength", String(room));
    t.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return t;
}

/** Shift block places (top-left corners) so that every block lies inside the view box. */
function onMap(places, [vx, vy, vw, vh]) {
  const xs = places.map((p) => p[0]);
  const ys = places.map((p) => p[1]);
  const dx = Math.max(0, vx + 2 - Math.min(...xs)) - Math.max(0, Math.max(...xs) + BW - (vx + vw - 2));
  const dy = Math.max(0, vy + 2 - Math.min(...ys)) - Math.max(0, Math.max(...ys) + BH - (vy + vh - 2));
  return places.map(([x, y]) => [x + dx, y + dy]);
}

/** Top-left corners for n blocks of a stack whose top centre is `anchor`. At rest: one row of
 * two, a square of four, and beyond that two rows that overlap to keep the width of two
 * blocks (the name of the area beside it stays in view); with `oneRow` (an area with no room
 * for two rows), one row that overlaps to keep the width of two; fanned out (pointed at,
 * focused, tapped): rows of four without overlap. */
export function stackPlaces(n, anchor, fanned, oneRow = false) {
  const [ax, ay] = anchor;
  const perRow = fanned ? Math.min(4, n) : n <= 2 || oneRow ? n : Math.ceil(n / 2);
  const rows = Math.ceil(n / perRow);
  const maxW = 2 * BW + GAP;
  const out = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / perRow);
    const inRow = row === rows - 1 ? n - row * perRow : perRow;
    let step = BW + GAP;
    if (!fanned && inRow > 2) step = (maxW - BW) / (inRow - 1);
    const width = (inRow - 1) * step + BW;
    out.push([ax - width / 2 + (i % perRow) * step, ay + row * (BH + GAP)]);
  }
  return out;
}

/** The other side's moves in its latest turn of moves, read from the view's log (the move
 * lines give area paths and counts, never names): [{side, path: [area names], text}]. For
 * an observer, the moves of the side that moved last. */
export function lastMoves(view, me, layout) {
  const lines = view.log || [];
  const kinds = view.log_kinds || [];
  const out = [];
  let side = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = Array.isArray(lines[i]) ? String(lines[i][1]) : String(lines[i]);
    if (kinds[i] === "turn" && out.length) break;
    if (kinds[i] !== "move") continue;
    const m = /^(York|Lancaster) (moves|musters at) (.*)$/.exec(t);
    if (!m) continue;
    if (m[1] === me) { if (out.length) break; continue; }
    if (side && m[1] !== side) break;
    side = m[1];
    const rest = m[3].replace(/\.$/, "").replace(/ \(attack\)$/, "");
    if (m[2] === "musters at") {
      if (layout.areas[rest]) out.push({ side, path: [rest], text: `musters at ${rest}` });
      continue;
    }
    for (const part of rest.split("; ")) {
      const path = part.replace(/^\d+ blocks? (by sea )?/, "").split(" → ");
      if (path.length > 1 && path.every((a) => layout.areas[a])) out.push({ side, path, text: part });
    }
  }
  return out.reverse();
}

/** Blocks a battle part reveals, whatever the key it uses. */
export function revealedBlocks(view) {
  const b = view.battle;
  if (!b) return [];
  const list = b.blocks || b.revealed_blocks || [];
  if (Array.isArray(list)) return list.filter((x) => x && typeof x === "object");
  if (typeof list === "object") return Object.values(list).flat().filter((x) => x && typeof x === "object");
  return [];
}

export function blockText(b, area = null) {
  const parts = [`${b.side || ""} ${b.name || "block"}`.trim()];
  if (b.rating) parts.push(`combat ${b.rating}`);
  if (b.steps !== undefined) parts.push(`${b.steps} of ${b.max} steps`);
  if (b.loyalty) parts.push(`loyalty ${b.loyalty}`);
  if (b.down) parts.push("face down");
  if (b.moved) parts.push("moved this turn");
  if (area) parts.push(`in ${area}`);
  return parts.join(", ");
}
