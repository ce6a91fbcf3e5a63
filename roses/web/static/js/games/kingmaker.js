// Roses: Kingmaker on the page (the game module for "kingmaker", see index.js). Loads the board
// the game is played on (/games/{id}/board.json, built by roses/games/kingmaker/board_web.py
// from the game's board module, so a supplied board draws like the shipped open one) and draws
// one role's view, and nothing else, on it: the grid of squares (sea, open, forest; areas),
// rivers, estuaries, roads, places (owner, siege, ports, cathedrals), the nobles' stacks, the
// heirs, the ships, the player's own hand, and the Parliament screen with the tally. Choices
// come only from the view's actions and their labels: a square, place, noble, heir, ship or
// card is outlined when choosing it makes one of them; every choice is also a button.
// Our own drawing: no publisher art.

import { centroid, drawLastMoves, el, enablePanZoom, lastMoveMarker, lastMoves } from "../mapkit.js";
import { h } from "../api.js";
import { actionLabel, byRef, choicesOf } from "../actions.js";

/** Faction colours by seat (P1..P8): distinct, and each with a letter drawn on its pieces. */
const FACTION = ["#a61f1a", "#1a4fd6", "#0b6b2f", "#b8860b", "#6b3fa0", "#c2571a", "#00796b", "#4a4a4a"];
const TERRAIN_FILL = { ".": "#bcd7e6", o: "#efe6cf", f: "#bcd19f" };
const SQUARE_ID = /^[A-Z]+[1-9][0-9]*$/;
/** A square's id on the page ("sq:Y25"): squares, places, cards and seats ("P2") have ids in
 * one name space in the rules' arguments; on the page a square's id is prefixed, so a choice of
 * seat P2 never outlines the square P2. */
const SQ = "sq:";
export const sqRef = (id) => SQ + id;
const unRef = (ref) => (typeof ref === "string" && ref.startsWith(SQ) ? ref.slice(SQ.length) : ref);
/** Verbs whose argument (or its first element) is a square: a move, a battle or ambush in a square. */
const SQUARE_VERBS = new Set(["to", "battle", "ambush"]);
/** Choices that cannot be taken back and kill: asked once more before they are sent. */
const GRAVE = new Set(["execute_heir", "execute"]);
/** Verbs whose argument (or first element) is a card of the player's hand. */
const CARD_VERBS = new Set(["play", "assign", "asset", "give", "offer_card", "discard", "use", "keep"]);

let stylesAdded = false;
function addStyles() {
  if (stylesAdded || document.querySelector("link[data-km-styles]")) return;
  stylesAdded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/kingmaker/kingmaker.css", dataset: { kmStyles: "1" } }));
}

function pageConfig() {
  const node = document.getElementById("config");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
}

/** The module's entry point (games/index.js): load this game's board, draw it. */
export async function create(page) {
  addStyles();
  const cfg = pageConfig();
  const q = cfg.invite ? `?invite=${encodeURIComponent(cfg.invite)}` : "";
  const res = await fetch(`/games/${encodeURIComponent(cfg.gameId)}/board.json${q}`);
  if (!res.ok) throw new Error(`the board of this game could not be loaded (${res.status})`);
  const board = await res.json();
  const game = new Kingmaker(board, page);
  if (page.svg) {
    game.drawBoard(page.svg);
    game.pan = enablePanZoom(page.svg, board, page.zoom);
  }
  if (page.legend) page.legend.replaceChildren(game.legend());
  return game;
}

const SMALL_WORDS = new Set(["of", "the", "and", "in", "to"]);
/** The kinds of cards in words. */
const KIND_WORDS = { noble: "Noble", plantagenet: "Noble (Plantagenet)", title: "Title", office: "Office", bishop: "Bishop",
  ship: "Ship", town: "Town", royal_castle: "Royal castle", mercenary: "Mercenaries", french_aid: "French Aid",
  pardon: "King's Pardon", event: "Event" };
/** A card or place id as words: "earl_of_essex" -> "Earl of Essex", "burgundians_2" -> "Burgundians 2". */
const pretty = (id) => String(id).split("_").map((w, i) => (i && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
const abbrev = (name, n = 4) => {
  const plain = String(name).replace(/^(Earl|Duke|Lord|Bishop|Archbishop) of /, "").replace(/,/g, "");
  if (plain.length <= n) return plain;
  const words = plain.split(/[\s-]+/);
  return words.length > 1 && words[0].length <= 2 ? words.slice(0, 2).join(" ").slice(0, n) : words[0].slice(0, n);
};

export class Kingmaker {
  constructor(board, page = {}) {
    this.board = board;
    this.page = page;
    this.hasMap = true;
    this.pan = null;
    this.focused = false;
    this.nodes = {};
    this.squares = new Map();  // id -> [col, row, terrain, area code]
    this.squareNames = board.square_names || {};
    this.codeArea = {};
    for (const [id, a] of Object.entries(board.areas)) this.codeArea[a.code] = id;
    board.terrain.forEach((line, r) => {
      for (let c = 0; c < line.length; c++) {
        if (line[c] === " ") continue;
        this.squares.set(squareId(c, r), [c, r, line[c], board.area_map[r][c]]);
      }
    });
  }

  // ------------------------------------------------------------------ geometry
  centre(sq) {
    const s = this.squares.get(sq);
    const k = this.board.cell;
    return s ? [(s[0] + 0.5) * k, (s[1] + 0.5) * k] : null;
  }
  placePoint(pid) {
    const p = this.board.places[pid];
    if (!p) return null;
    const s = this.squares.get(p.square);
    const k = this.board.cell;
    return [(s[0] + p.at[0]) * k, (s[1] + p.at[1]) * k];
  }
  /** Where a position of the view (a square, a place or a ship) is on the map. */
  point(at) {
    if (!at) return null;
    if (this.board.places[at]) return this.placePoint(at);
    return this.centre(unRef(at));
  }

  // ------------------------------------------------------------------ names
  placeName(pid) { const p = this.board.places[pid]; return p ? p.name : String(pid); }
  /** A place by name, a square in words ("the open ground north of Coventry"): never a grid id. */
  whereText(x) {
    if (!x) return "off the board";
    if (this.board.places[x]) return this.placeName(x);
    const id = unRef(x);
    if (this.squares.has(id)) {
      if (this.squareNames[id]) return this.squareNames[id];
      const [, , t, code] = this.squares.get(id);
      const area = this.board.areas[this.codeArea[code]];
      return `${t === "." ? "a sea square" : t === "f" ? "a forest square" : "open ground"}${area ? ` in ${area.name}` : ""}`;
    }
    return String(x);
  }
  /** The area of a square, for the hover label. */
  areaName(x) {
    const s = this.squares.get(unRef(x));
    const area = s ? this.board.areas[this.codeArea[s[3]]] : null;
    return area ? area.name : "";
  }
  roleIndex(view, role) {
    const i = (view.players || []).findIndex((p) => p.role === role);
    return i < 0 ? 7 : i % FACTION.length;
  }
  colour(view, role) { return role ? FACTION[this.roleIndex(view, role)] : "#d7d1c2"; }

  // ------------------------------------------------------------------ choices
  pieceIds(view) {
    const ids = new Set();
    for (const p of view.players || []) for (const n of p.nobles) if (n.square || n.ship) ids.add(n.id);
    for (const hh of view.heirs || []) if (!hh.dead && (hh.square || hh.ship)) ids.add(hh.id);
    for (const s of view.ships || []) ids.add(s.id);
    return ids;
  }

  /** What a click must hit to choose (verb, arg): {kind: card|area|block|button, ref}. */
  classify(view, verb, arg, pieces, hand, seats = new Set()) {
    // a seat ("P2") is never a square, though square P2 exists; but the square of a move or a
    // battle ([square, seat]) is a square
    const squareAt = SQUARE_VERBS.has(verb);
    if (squareAt && Array.isArray(arg) && typeof arg[0] === "string" && this.squares.has(arg[0])) return { kind: "area", ref: sqRef(arg[0]) };
    const isSquare = (x) => typeof x === "string" && (squareAt || !seats.has(x)) && SQUARE_ID.test(x) && this.squares.has(x);
    const isArea = (x) => typeof x === "string" && (this.board.places[x] !== undefined || isSquare(x));
    const ref = (x) => (isSquare(x) ? sqRef(x) : x);
    if (typeof arg === "string") {
      if (hand.has(arg) && (CARD_VERBS.has(verb) || !pieces.has(arg))) return { kind: "card", ref: arg };
      if (isArea(arg)) return { kind: "area", ref: ref(arg) };
      if (pieces.has(arg)) return { kind: "block", ref: arg };
    } else if (Array.isArray(arg) && arg.length) {
      const [a, b] = arg;
      if (typeof a === "string" && hand.has(a)) return { kind: "card", ref: a };
      if (isArea(b)) return { kind: "area", ref: ref(b) };
      if (isArea(a) && !pieces.has(a)) return { kind: "area", ref: ref(a) };
      if (typeof a === "string" && pieces.has(a)) return { kind: "block", ref: a };
    }
    return { kind: "button", ref: null };
  }

  label(view, verb, arg) { return actionLabel(view, verb, arg); }

  choices(view) {
    const pieces = this.pieceIds(view);
    const hand = new Set((view.hand || []).map((c) => c.id));
    const seats = new Set([...(view.players || []).map((p) => p.role), ...(view.order || []), ...(view.active || [])]);
    const out = choicesOf(view, (verb, arg) => this.classify(view, verb, arg, pieces, hand, seats));
    // a grave choice that cannot be taken back is asked once more (game.js)
    for (const c of out) if (GRAVE.has(c.verb)) c.confirm = `${c.label.charAt(0).toUpperCase()}${c.label.slice(1)}? This cannot be undone.`;
    return out;
  }

  defaultChoice() { return null; }

  // ------------------------------------------------------------------ the static board
  drawBoard(svg) {
    const b = this.board;
    const k = b.cell;
    svg.replaceChildren();
    this.placeDrawn = {};  // what draw() last put on each place and on the pieces' layer
    this.piecesDrawn = null;
    svg.setAttribute("viewBox", b.viewBox.join(" "));
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", `Kingmaker board: ${b.name}`);
    svg.classList.add("roses-map", "km-map");
    const root = el("g", { class: "km-root" }, svg);
    el("rect", { x: -4000, y: -4000, width: b.viewBox[2] + 8000, height: b.viewBox[3] + 8000, fill: TERRAIN_FILL["."] }, root);
    const grid = el("g", { class: "km-squares" }, root);
    this.nodes.squares = {};
    for (const [id, [c, r, t, code]] of this.squares) {
      const area = b.areas[this.codeArea[code]] || {};
      const ref = sqRef(id);
      const g = el("g", { class: `area km-sq km-${t === "." ? "sea" : t === "f" ? "forest" : "open"}${area.refuge ? " km-refuge" : ""}`, "data-area": ref, tabindex: "-1" }, grid);
      el("rect", { x: c * k, y: r * k, width: k, height: k, class: "area-shape", fill: TERRAIN_FILL[t] }, g);
      if (t === "f") el("path", { d: treePath(c * k, r * k, k), class: "km-trees" }, g);
      el("title", {}, g).textContent = this.whereText(id);
      // an empty label at the centre: where a person clicks a square (tests find it too)
      el("text", { x: (c + 0.5) * k, y: (r + 0.5) * k, class: "area-label km-sq-label" }, el("g", { class: "area-features", "data-area": ref }, g));
      g.addEventListener("click", (ev) => { if (this.dragged()) return; this.page.onArea && this.page.onArea(ref, ev); });
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.page.onArea && this.page.onArea(ref, ev); } });
      this.nodes.squares[ref] = g;
    }
    // borders between areas and the coast
    const lines = el("g", { class: "km-borders", "aria-hidden": "true" }, root);
    let coast = "";
    let border = "";
    for (const [, [c, r, t, code]] of this.squares) {
      for (const [dc, dr] of [[1, 0], [0, 1]]) {
        const n = this.squares.get(squareId(c + dc, r + dr));
        if (!n) continue;
        const seg = dc ? `M${(c + 1) * k} ${r * k}v${k}` : `M${c * k} ${(r + 1) * k}h${k}`;
        if ((t === ".") !== (n[2] === ".")) coast += seg;
        else if (t !== "." && code !== n[3]) border += seg;
      }
    }
    el("path", { d: border, class: "km-area-border" }, lines);
    el("path", { d: coast, class: "km-coast" }, lines);
    // areas named at their middle
    const names = el("g", { class: "km-area-names", "aria-hidden": "true" }, root);
    const sums = {};
    for (const [, [c, r, , code]] of this.squares) {
      const s = (sums[code] = sums[code] || [0, 0, 0]);
      s[0] += c; s[1] += r; s[2] += 1;
    }
    for (const [code, [sc, sr, n]] of Object.entries(sums)) {
      const area = b.areas[this.codeArea[code]];
      if (!area || n < 4) continue;
      el("text", { x: ((sc / n) + 0.5) * k, y: ((sr / n) + 0.5) * k, "text-anchor": "middle", class: `km-area-name km-${area.kind}-name` }, names).textContent = area.name.toUpperCase();
    }
    // rivers, estuaries, crossings and roads
    const feats = el("g", { class: "km-features", "aria-hidden": "true" }, root);
    for (const f of b.features) {
      if (f.kind === "road") {
        const pts = f.squares.map((s) => this.centre(s)).filter(Boolean);
        if (pts.length > 1) el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "km-road" }, feats);
        continue;
      }
      // the sides between orthogonal neighbours; a diagonal edge (a corner) gets a dot only
      // where no side of the same line already reaches that corner
      let d = "";
      const corners = new Set();
      const diagonal = [];
      for (const [a, c] of f.edges) {
        const sa = this.squares.get(a);
        const sc = this.squares.get(c);
        if (!sa || !sc) continue;
        if (sa[0] !== sc[0] && sa[1] !== sc[1]) { diagonal.push([Math.max(sa[0], sc[0]), Math.max(sa[1], sc[1])]); continue; }
        d += edgePath(sa, sc, k);
        const [x0, y0] = sa[1] === sc[1] ? [Math.max(sa[0], sc[0]), sa[1]] : [sa[0], Math.max(sa[1], sc[1])];
        corners.add(`${x0},${y0}`);
        corners.add(sa[1] === sc[1] ? `${x0},${y0 + 1}` : `${x0 + 1},${y0}`);
      }
      for (const [cx, cy] of diagonal) if (!corners.has(`${cx},${cy}`)) d += `M${cx * k - 6} ${cy * k}a6 6 0 1 0 12 0a6 6 0 1 0 -12 0`;
      el("path", { d, class: `km-${f.kind}` }, feats);
    }
    // landmarks
    for (const [, m] of Object.entries(b.landmarks)) {
      const p = this.centre(m.square);
      if (p) el("text", { x: p[0], y: p[1] + k * 0.42, "text-anchor": "middle", class: "km-landmark" }, feats).textContent = m.name;
    }
    // places: the click targets for places
    const places = el("g", { class: "km-places" }, root);
    this.nodes.places = {};
    this.covered = {};  // square -> [[top, bottom]] in the square's own units, covered by marks and names
    const named = this.nameSides();
    for (const [pid, p] of Object.entries(b.places)) {
      const [x, y] = this.placePoint(pid);
      const g = el("g", { class: `area km-place km-${p.type}`, "data-area": pid, tabindex: "-1", role: "button", "aria-label": this.placeText(pid) }, places);
      el("title", {}, g).textContent = this.placeText(pid);
      if (p.type === "castle") el("rect", { x: x - 8, y: y - 8, width: 16, height: 16, class: "area-shape km-mark" }, g);
      else el("circle", { cx: x, cy: y, r: p.type === "city" ? 11 : 8, class: "area-shape km-mark" }, g);
      if (!p.fortified) g.classList.add("km-open-town");
      if (p.cathedral) el("path", { d: `M${x - 2} ${y - 22}h4v5h5v4h-5v8h-4v-8h-5v-4h5z`, class: "km-cathedral" }, g);
      if (p.port && p.port.length) el("path", { d: `M${x + 12} ${y - 2}v10m-4 -7h8m-10 4c1 5 11 5 12 0`, class: "km-port" }, g);
      const nameG = el("g", { class: "area-features", "data-area": pid }, g);
      const [lx, ly, anchor] = named[pid].at;
      // the band of the square the mark and its name cover (counters keep clear of it)
      const top0 = Math.min(y - (p.cathedral ? 24 : 12), ly - 15) - this.squares.get(p.square)[1] * k;
      const bottom0 = Math.max(y + 12, ly + 3) - this.squares.get(p.square)[1] * k;
      (this.covered[p.square] = this.covered[p.square] || []).push([top0, bottom0]);
      el("text", { x: lx, y: ly, "text-anchor": anchor, class: `area-label km-place-name${p.type === "city" ? " km-city-name" : ""}` }, nameG).textContent = p.name;
      el("g", { class: "km-place-marks" }, g);
      // a click on the mark or the name picks the place; when the place is not a choice but its
      // square is (a move into its open ground), the square: never the square the name lies over
      const pick = (ev) => { if (this.page.onArea) this.page.onArea(this.choiceAt(pid), ev); };
      g.addEventListener("click", (ev) => { ev.stopPropagation(); if (this.dragged()) return; pick(ev); });
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(ev); } });
      this.nodes.places[pid] = g;
    }
    // the other players' last moves: over the places, under the counters
    this.nodes.lastMoves = el("g", { class: "km-last-moves", "aria-hidden": "true" }, root);
    lastMoveMarker(svg);
    this.nodes.pieces = el("g", { class: "km-pieces" }, root);
    this.svg = svg;
    this.hoverLabel(svg);
  }

  /** Where each place's name goes ({pid: {side, at: [x, y, anchor]}}): below its mark, or
   * above it when another place of the square lies below; when that name would cross another
   * place's name or mark, the first side of below, above, right and left where it crosses
   * none (widths measured with the names' font). Deterministic: places in the board's order. */
  nameSides() {
    const b = this.board;
    const ctx = document.createElement("canvas").getContext("2d");
    const family = '"DejaVu Sans", "Segoe UI", Arial, sans-serif';
    const marks = {};
    const spots = {};
    for (const [pid, p] of Object.entries(b.places)) {
      const [x, y] = this.placePoint(pid);
      const r = p.type === "city" ? 11 : 8;
      marks[pid] = [x - r, y - (p.cathedral ? 24 : r), x + r + (p.port && p.port.length ? 12 : 0), y + r];
      if (ctx) ctx.font = p.type === "city" ? `800 18px ${family}` : `600 15px ${family}`;
      const w = ctx ? ctx.measureText(p.name).width : p.name.length * 9;
      const hgt = p.type === "city" ? 18 : 15;
      const box = ([lx, ly, anchor]) => {
        const x0 = anchor === "middle" ? lx - w / 2 : anchor === "end" ? lx - w : lx;
        // the font's ascent and descent, and a margin for fonts a little wider
        return [x0 - 4, ly - hgt * 0.95 - 1, x0 + w + 4, ly + hgt * 0.25 + 1];
      };
      const below = [x, y + (p.type === "city" ? 26 : 23), "middle"];
      const above = [x, y - (p.cathedral ? 26 : 14), "middle"];
      const right = [x + r + (p.port && p.port.length ? 16 : 5), y + 5, "start"];
      const left = [x - r - 5, y + 5, "end"];
      const under = Object.values(b.places).some((q) => q !== p && q.square === p.square && q.at[1] > p.at[1]);
      const first = under ? above : below;
      spots[pid] = [first, below, above, right, left].map((at) => ({ at, box: box(at) }));
    }
    const overlaps = (a, c) => a[0] < c[2] && c[0] < a[2] && a[1] < c[3] && c[1] < a[3];
    const out = {};
    for (const pid of Object.keys(b.places)) out[pid] = spots[pid][0];
    const free = (pid, box) => Object.keys(b.places).every((q) => q === pid || (!overlaps(box, out[q].box) && !overlaps(box, marks[q])));
    for (const pid of Object.keys(b.places)) {
      if (free(pid, out[pid].box)) continue;
      const spot = spots[pid].find((sp) => free(pid, sp.box));
      if (spot) out[pid] = spot;
    }
    return out;
  }

  dragged() { return this.svg && this.svg.dataset.dragged === "1"; }

  /** What a click on place `pid` chooses: the place, or its square when only the square is a choice. */
  choiceAt(pid) {
    const legal = this.legalAreas || new Set();
    const sq = sqRef(this.board.places[pid].square);
    return !legal.has(pid) && legal.has(sq) ? sq : pid;
  }

  /** The label that follows the pointer over the map: the name of the square or place under
   * it, and what a click there does. */
  hoverLabel(svg) {
    const holder = svg.parentElement;
    if (!holder || this.hoverBox) return;
    if (getComputedStyle(holder).position === "static") holder.style.position = "relative";
    const box = document.createElement("div");
    box.className = "km-hover";
    box.hidden = true;
    box.setAttribute("role", "status");
    holder.appendChild(box);
    this.hoverBox = box;
    svg.addEventListener("pointermove", (ev) => {
      if (ev.pointerType === "touch") return;
      const hit = ev.target.closest ? ev.target.closest("g.km-piece, g.km-place, g.km-sq") : null;
      if (!hit) { box.hidden = true; return; }
      let name;
      let ref;
      if (hit.classList.contains("km-piece")) {
        const t = hit.querySelector("title");
        name = t ? t.textContent : "";
        ref = null;
      } else {
        ref = hit.dataset.area;
        name = this.board.places[ref] ? this.placeName(ref) : this.whereText(ref);
        if (!this.board.places[ref]) {
          const area = this.areaName(ref);
          if (area && !name.includes(area)) name += ` (${area})`;
        } else ref = this.choiceAt(ref);
      }
      const acts = ref && this.choiceLabels ? this.choiceLabels.get(ref) : null;
      box.replaceChildren();
      const head = document.createElement("strong");
      head.textContent = name.charAt(0).toUpperCase() + name.slice(1);
      box.appendChild(head);
      if (acts && acts.length) {
        const more = document.createElement("span");
        more.textContent = ` — click: ${acts.join("; ")}`;
        box.appendChild(more);
      }
      box.dataset.area = ref || "";
      box.hidden = false;
      const r = holder.getBoundingClientRect();
      const x = ev.clientX - r.left + 14;
      const y = ev.clientY - r.top + 16;
      box.style.left = `${Math.min(x, Math.max(0, r.width - box.offsetWidth - 4))}px`;
      box.style.top = `${y + box.offsetHeight > r.height ? ev.clientY - r.top - box.offsetHeight - 10 : y}px`;
    });
    svg.addEventListener("pointerleave", () => { box.hidden = true; });
  }

  placeText(pid, view = null) {
    const p = this.board.places[pid];
    const parts = [`${p.name}: ${p.fortified ? "" : "open "}${p.type}${p.royal ? " (royal)" : ""}`];
    parts.push(`garrison ${p.garrison}, holds ${p.capacity}`);
    if (p.cathedral) parts.push("cathedral");
    if (p.port && p.port.length) parts.push("port");
    if (p.commons) parts.push(`Commons: ${p.commons === "city" ? 4 : 3} votes`);
    if (!p.parliament) parts.push("no Parliament here");
    if (p.level !== "basic") parts.push(`${p.level.toUpperCase()} only`);
    const st = view && view.places ? view.places[pid] : null;
    if (st && st.owner) parts.push(`held by ${st.owner}`);
    if (st && st.besieged_by) parts.push(`besieged by ${st.besieged_by}`);
    return parts.join("; ");
  }

  // ------------------------------------------------------------------ drawing a view
  draw(view, ui, payload = {}) {
    if (!this.svg) return;
    const choices = ui.choices || [];
    const byArea = byRef(choices, "area");
    const byPiece = byRef(choices, "block");
    this.byPiece = byPiece;
    this.legalAreas = new Set(byArea.keys());
    this.choiceLabels = new Map([...byArea].map(([ref, cs]) => [ref, cs.map((c) => c.label)]));
    const mark = (g, name, text) => {
      const legal = byArea.has(name);
      g.classList.toggle("legal", legal);
      g.setAttribute("tabindex", legal ? "0" : "-1");
      if (legal) g.setAttribute("aria-label", `${text} — ${byArea.get(name).map((c) => c.label).join("; ")}`);
      else if (g.getAttribute("role")) g.setAttribute("aria-label", text);
    };
    for (const [id, g] of Object.entries(this.nodes.squares)) {
      if (byArea.has(id) || g.classList.contains("legal")) mark(g, id, this.whereText(id));
    }
    const parl = view.parliament && view.parliament.place ? view.parliament.place : null;
    // only the places whose drawing changes are touched: every change of the big map costs its
    // layout and paint, at every move of every player
    this.placeDrawn = this.placeDrawn || {};
    for (const [pid, g] of Object.entries(this.nodes.places)) {
      const st = (view.places || {})[pid] || {};
      const text = this.placeText(pid, view);
      const key = JSON.stringify([text, st.owner || "", this.colour(view, st.owner), st.besieged_by || "", parl === pid,
        byArea.has(pid) ? byArea.get(pid).map((c) => c.label) : null]);
      if (this.placeDrawn[pid] === key) continue;
      this.placeDrawn[pid] = key;
      mark(g, pid, text);
      g.querySelector("title").textContent = text;
      const shape = g.querySelector(".km-mark");
      shape.setAttribute("fill", st.owner ? this.colour(view, st.owner) : "#fffaf0");
      g.dataset.owner = st.owner || "";
      const marks = g.querySelector(".km-place-marks");
      marks.replaceChildren();
      const [x, y] = this.placePoint(pid);
      if (st.besieged_by) {
        const s = el("g", { class: "km-siege", transform: `translate(${x - 16},${y - 16})` }, marks);
        el("circle", { r: 8, fill: this.colour(view, st.besieged_by) }, s);
        el("text", { y: 4, "text-anchor": "middle" }, s).textContent = "S";
      }
      if (parl === pid) {
        const s = el("g", { class: "km-parliament-mark", transform: `translate(${x + 18},${y - 16})` }, marks);
        el("rect", { x: -9, y: -9, width: 18, height: 18, rx: 3 }, s);
        el("text", { y: 5, "text-anchor": "middle" }, s).textContent = "P";
      }
    }
    this.drawPieces(view, ui);
    this.drawLastMoves(view);
    this.focus(view, ui, payload);
  }

  /** Where each piece stands in this view ({id: place or square}), and where a piece that this
   * page saw move stood before (this.cameFrom): the start of a last move's arrow. */
  notePositions(view) {
    const now = {};
    for (const p of view.players || []) for (const n of p.nobles) if (n.inside || n.square) now[n.id] = n.inside || n.square;
    for (const s of view.ships || []) if (s.at) now[s.id] = s.at;
    this.cameFrom = this.cameFrom || {};
    for (const [id, at] of Object.entries(now)) {
      const before = (this.seenAt || {})[id];
      if (before && before !== at) this.cameFrom[id] = [before, at];
    }
    this.seenAt = now;
  }

  /** The other players' moves since this player's last move or the start of his turn (for an
   * observer, the last player's), read from the view's log: nobles' moves (§Movement) and
   * ships' voyages (§Sea Transportation), [{side, piece, place, fromPlace, from, to, text}]. */
  lastMoves(view) {
    const byName = new Map();
    for (const p of view.players || []) for (const n of p.nobles) byName.set(n.name, { id: n.id, side: p.role });
    for (const s of view.ships || []) byName.set(`The ${s.name}`, { id: s.id, side: s.controller || null });
    if (!this.atByName) {
      this.atByName = new Map();
      for (const [id, name] of Object.entries(this.squareNames)) this.atByName.set(name, id);
      for (const [pid, pl] of Object.entries(this.board.places)) this.atByName.set(pl.name, pid);
    }
    const parse = (t) => {
      const m = /^(.+?) (?:moves to|sails to|sails into) (.+)\.$/.exec(t);
      const piece = m ? byName.get(m[1]) : null;
      const at = m ? this.atByName.get(m[2]) : null;
      return piece && at ? [{ side: piece.side, piece: piece.id, place: at, text: t }] : null;
    };
    const seated = (view.players || []).some((p) => p.role === view.role);
    const turnOf = (t) => { const m = /^Round \d+: (.+)'s turn\.$/.exec(t); return m ? m[1] : null; };
    const moves = lastMoves(view, view.role, parse, { seated, turnOf });
    const came = this.cameFrom || {};
    for (const mv of moves) {
      const seen = came[mv.piece];
      mv.fromPlace = seen && seen[1] === mv.place ? seen[0] : null;
      mv.from = mv.fromPlace ? this.point(mv.fromPlace) : null;
      mv.to = this.point(mv.place);
      mv.place = this.board.places[mv.place] ? mv.place : sqRef(mv.place);
      if (mv.fromPlace && !this.board.places[mv.fromPlace]) mv.fromPlace = sqRef(mv.fromPlace);
    }
    return moves;
  }

  drawLastMoves(view) {
    if (!this.nodes.lastMoves) return;
    this.notePositions(view);
    const moves = this.lastMoves(view);
    const key = JSON.stringify(moves.map((m) => [m.side, m.fromPlace, m.place, m.text]));
    if (key === this.lastMovesDrawn) return;
    this.lastMovesDrawn = key;
    const k = this.board.cell;
    drawLastMoves(this.nodes.lastMoves, moves, { ring: k * 0.6, gap: k * 0.3 });
  }

  /** The first view opens on the player's own nobles at the reading zoom; later, targets all
   * out of view are brought into view. */
  focus(view, ui, payload) {
    if (!this.pan) return;
    const targets = (ui.choices || []).map((c) => (c.kind === "area" ? this.point(c.ref) : c.kind === "block" ? (this.nodes.pieceAt || {})[c.ref] : null)).filter(Boolean);
    if (!this.focused && payload.status !== "open") {
      // the first view: where the player has something to choose, else his own nobles
      this.focused = true;
      const me = (view.players || []).find((p) => p.role === view.role);
      const own = (me ? me.nobles : []).map((n) => this.point(n.inside || n.square)).filter(Boolean);
      const pts = targets.length ? targets : own;
      const [cx, cy] = pts.length ? centroid(pts) : this.point("london") || [this.board.viewBox[2] / 2, this.board.viewBox[3] / 2];
      this.pan.readable(cx, cy);
    } else if (targets.length && !targets.some((p) => this.pan.inView(p[0], p[1], 30))) {
      this.pan.show(...centroid(targets));
    }
  }

  drawPieces(view, ui) {
    const layer = this.nodes.pieces;
    // drawn again only when a piece or a choice on one changes (see draw)
    const key = JSON.stringify([view.role, view.players, view.heirs, view.ships,
      [...(this.byPiece || new Map())].map(([id, cs]) => [id, cs.map((c) => [c.verb, c.arg, c.label])])]);
    if (key === this.piecesDrawn && ui.onChoices === this.piecesUi) return;
    this.piecesDrawn = key;
    this.piecesUi = ui.onChoices;
    layer.replaceChildren();
    this.nodes.pieceAt = {};
    const k = this.board.cell;
    const shipAt = {};
    for (const s of view.ships || []) shipAt[s.id] = s.at;
    const groups = new Map();  // square -> [{kind, ...}]
    const add = (sq, item) => { if (!sq) return; if (!groups.has(sq)) groups.set(sq, []); groups.get(sq).push(item); };
    const squareOf = (at) => (this.board.places[at] ? this.board.places[at].square : at);
    for (const p of view.players || []) {
      for (const n of p.nobles) {
        const sq = n.square || (n.ship ? squareOf(shipAt[n.ship]) : null);
        add(sq, { kind: "noble", id: n.id, role: p.role, data: n });
      }
    }
    for (const hh of view.heirs || []) {
      if (hh.dead) continue;
      const sq = hh.square || (hh.ship ? squareOf(shipAt[hh.ship]) : null);
      add(sq, { kind: "heir", id: hh.id, role: hh.controller, data: hh });
    }
    for (const s of view.ships || []) add(squareOf(s.at), { kind: "ship", id: s.id, role: s.controller, data: s });
    for (const [sq, items] of groups) {
      const s = this.squares.get(sq);
      if (!s) continue;
      items.sort((a, b) => (a.role === view.role ? 0 : 1) - (b.role === view.role ? 0 : 1) || String(a.role).localeCompare(String(b.role)) || a.id.localeCompare(b.id));
      // every counter inside its square, however many: one column of wide counters up to
      // three, then two columns, smaller as the stack grows
      const n = items.length;
      const cols = n <= 2 ? 1 : 2;
      const rows = Math.ceil(n / cols);
      const gap = 2;
      const cw = cols === 1 ? k * 0.94 : (k * 0.94 - gap) / 2;
      // a counter alone in its square has room for two lines: the name, and the troops under it
      const ch = n === 1 ? k * 0.42 : Math.min(k * 0.3, (k - 6 - (rows - 1) * gap) / rows);
      const height = rows * ch + (rows - 1) * gap;
      // the stack at the top or the bottom of the square, whichever hides less of the places' marks and names
      const covered = (this.covered || {})[sq] || [];
      const overlap = (a, b) => covered.reduce((sum, [c0, c1]) => sum + Math.max(0, Math.min(b, c1) - Math.max(a, c0)), 0);
      const top = overlap(k - 3 - height, k - 3) < overlap(3, 3 + height) ? k - 3 - height : 3;
      const left = (k - cols * cw - (cols - 1) * gap) / 2;
      items.forEach((item, i) => {
        const x = s[0] * k + left + (i % cols) * (cw + gap) + cw / 2;
        const y = s[1] * k + top + Math.floor(i / cols) * (ch + gap) + ch / 2;
        this.drawPiece(layer, view, ui, { ...item, square: sq }, x, y, cw, ch);
        this.nodes.pieceAt[item.id] = [x, y];
      });
    }
  }

  drawPiece(layer, view, ui, item, x, y, w, hgt) {
    const d = item.data;
    const name = d.name;
    // the square the piece is drawn on (a noble or heir aboard a ship: the ship's)
    const at = item.kind === "ship" ? d.at : d.square || d.inside;
    const square = item.square || (this.board.places[at] ? this.board.places[at].square : at);
    const g = el("g", { class: `block km-piece km-${item.kind}`, "data-block": item.id, "data-square": square ? sqRef(square) : "", transform: `translate(${x},${y})` }, layer);
    const text = this.pieceText(view, item);
    el("title", {}, g).textContent = text;
    const colour = item.role ? this.colour(view, item.role) : "#8a8270";
    if (item.kind === "heir") {
      el("rect", { x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: hgt / 2, class: "block-body km-heir-body", stroke: colour }, g);
    } else if (item.kind === "ship") {
      el("path", { d: `M${-w / 2} ${-hgt / 2}h${w}l-5 ${hgt}h${-w + 10}z`, class: "block-body km-ship-body", fill: "#17324d", stroke: colour }, g);
    } else {
      el("rect", { x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: 3, class: "block-body", fill: colour }, g);
      if (d.inside) g.classList.add("km-inside");
      if (d.captive_of) g.classList.add("km-captive");
    }
    // the name as long as the counter allows, and a noble's troops, inside the counter
    // a noble's troops at the right, his name as long as the rest allows (measured: a smaller
    // size down to 9, then the first letters), all inside the counter
    const two = hgt >= this.board.cell * 0.4;  // two lines: the name over the troops
    const tsize = two ? 10 : Math.max(6, Math.min(10, hgt * 0.5));
    let troopsW = 0;
    // a narrow counter (a stack of three or more) shows the name only: the troops are in its
    // hover label, its title and the Forces panel
    if (item.kind === "noble" && w >= this.board.cell * 0.6) {
      const t = el("text", two ? { x: 0, y: hgt / 2 - 4.5, "text-anchor": "middle", class: "km-troops", "font-size": tsize }
        : { x: w / 2 - 3, y: tsize * 0.36, "text-anchor": "end", class: "km-troops", "font-size": tsize.toFixed(1) }, g);
      t.textContent = two ? `${d.troops} troops` : String(d.troops);
      troopsW = two ? 0 : t.getComputedTextLength() + 3;
      if (troopsW > w * 0.5) { t.remove(); troopsW = 0; }
    }
    const room = w - 6 - troopsW;
    const size = Math.min(13, hgt * 0.62);
    const label = el("text", { x: troopsW ? -w / 2 + 3 : 0, y: two ? -1 : size * 0.36, "text-anchor": troopsW ? "start" : "middle", class: "km-piece-name", "font-size": size.toFixed(1) }, g);
    label.textContent = abbrev(name, 40);
    // the full name, else (a heir) his first name and house or title ("Richard York"), at a
    // size of 9 or more; else the first letters
    const words = String(name).replace(/,/g, "").split(/\s+/);
    const forms = [abbrev(name, 40)];
    if (item.kind === "heir" && words.length > 2) forms.push(`${words[0]} ${words[words.length - 1]}`);
    let width = 0;
    let fitted = false;
    for (const form of forms) {
      label.textContent = form;
      width = label.getComputedTextLength();
      if (width <= room || size * room / width >= 9) {
        if (width > room) {
          label.setAttribute("font-size", (size * room / width).toFixed(1));
          if (!two) label.setAttribute("y", (size * room / width * 0.36).toFixed(1));
        }
        fitted = true;
        break;
      }
    }
    if (!fitted) {
      const short = forms[forms.length - 1];
      for (let n = Math.max(1, Math.floor(short.length * room / width)); n >= 1; n--) {
        label.textContent = short.slice(0, n);
        width = label.getComputedTextLength();
        if (width <= room) break;
      }
    }
    const mine = (this.byPiece && this.byPiece.get(item.id)) || [];
    if (mine.length) {
      g.classList.add("legal");
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${text} — ${mine.map((c) => c.label).join("; ")}`);
      const act = (ev) => {
        ev.stopPropagation();
        if (ev.type === "contextmenu") ev.preventDefault();
        if (this.dragged()) return;
        if (ui.onChoices) ui.onChoices(mine, g, { more: ev.type === "contextmenu" || ev.shiftKey });
      };
      g.addEventListener("click", act);
      g.addEventListener("contextmenu", act);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(ev); } });
    } else {
      // a click on a piece without choices shows its square
      const at = item.kind === "ship" ? d.at : d.square;
      const sq = at && !this.board.places[at] ? sqRef(at) : at;
      g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!this.dragged() && this.page.onArea && sq) this.page.onArea(sq, ev); });
    }
  }

  pieceText(view, item) {
    const d = item.data;
    if (item.kind === "noble") {
      const parts = [`${d.name} (${item.role}), ${d.troops} troops`, d.ship ? `aboard ${this.shipName(view, d.ship)}` : `at ${this.whereText(d.inside || d.square)}`];
      if (d.captive_of) parts.push(`captive of ${d.captive_of}`);
      if (d.awards && d.awards.length) parts.push(`with ${(d.award_names || d.awards.map(pretty)).join(", ")}`);
      return parts.join(", ");
    }
    if (item.kind === "heir") {
      return `${d.name} (${d.house === "york" ? "York" : "Lancaster"}${d.crowned ? ", crowned King" : ""}), ${d.ship ? `aboard ${this.shipName(view, d.ship)}` : `at ${this.whereText(d.inside || d.square)}`}${d.controller ? `, held by ${d.controller}` : ", free"}`;
    }
    return `Ship ${d.name} (capacity ${d.capacity}) at ${this.whereText(d.at)}${d.controller ? `, of ${d.controller}` : ""}${d.passengers && d.passengers.length ? `, carrying ${d.passengers.map(pretty).join(", ")}` : ""}`;
  }

  areaTitle(id) { const a = this.board.areas[id]; return a ? a.name : pretty(id); }

  shipName(view, sid) {
    const s = (view.ships || []).find((x) => x.id === sid);
    return s ? s.name : pretty(sid);
  }

  // ------------------------------------------------------------------ panels
  statusFacts(view) {
    const facts = [];
    facts.push(["Round", view.round ? String(view.round) : "setup"]);
    if (view.turn_of) facts.push(["Turn of", view.turn_of]);
    if (view.order && view.order.length) facts.push(["Order", view.order.join(", ")]);
    facts.push(["Rules", { basic: "basic", e1: "basic + E1", e2: "basic + E1 + E2" }[view.rules] || String(view.rules)]);
    facts.push(["Crown cards", `${view.crown_deck} in the deck, ${view.crown_discard} discarded, ${view.chancery} in Chancery`]);
    facts.push(["Event cards", `${view.event_deck} in the deck, ${view.event_discard} discarded${view.last_event ? ` (last: ${view.last_event_title || pretty(view.last_event)})` : ""}`]);
    if (view.catastrophe) facts.push(["Catastrophe", "in force"]);
    for (const r of view.refuges || []) facts.push(["Refuge", `${r.role} in ${this.areaTitle(r.area)}`]);
    if (view.default) facts.push(["Default if the deadline passes", actionLabel(view, view.default[0], view.default[1])]);
    for (const [round, text] of view.rulings || []) facts.push([`Ruling (round ${round})`, text]);
    facts.push(["Board", this.board.name]);
    if (view.end_text) facts.unshift(["Result", `${view.result && view.result !== "Draw" ? `${view.result} wins: ` : ""}${view.end_text}`]);
    const cfg = pageConfig();
    if (cfg.gameId !== undefined) {
      const q = cfg.invite ? `?invite=${encodeURIComponent(cfg.invite)}` : "";
      facts.push(["Gazette", h("a", { href: `/games/${encodeURIComponent(cfg.gameId)}/gazette${q}`, class: "km-gazette-link" }, "Read the gazette: one edition per round")]);
    }
    return facts;
  }

  renderCards(view, ui = {}) {
    if (view.chancery_cards !== undefined) return this.renderUmpire(view, ui);
    if (!view.hand && !view.event_hand) return null;
    const byCard = byRef(ui.choices, "card");
    const card = (c, kind, title) => {
      const opts = byCard.get(c.id) || [];
      const node = h(opts.length ? "button" : "div", {
        class: `card km-card km-card-${kind}${opts.length ? " legal" : ""}`, type: opts.length ? "button" : null,
        dataset: { card: c.id }, "aria-label": `${title}${c.text ? `: ${c.text}` : ""}${opts.length ? ` — ${opts.map((o) => o.label).join("; ")}` : ""}`,
      }, h("span", { class: "card-name" }, title), h("span", { class: "card-kind" }, KIND_WORDS[kind] || pretty(kind)),
      c.text ? h("span", { class: "card-text km-card-text" }, c.text) : null);
      if (opts.length && ui.onChoices) node.addEventListener("click", () => ui.onChoices(opts, node));
      return node;
    };
    const crown = (view.hand || []).map((c) => card(c, c.kind, c.name));
    const events = (view.event_hand || []).map((e) => card(e, "event", `${e.title}${e.turns ? ` (${e.turns} turns)` : ""}`));
    const hand = [];
    hand.push(h("h3", {}, `Your Crown cards (${crown.length})`), crown.length ? h("div", { class: "cards" }, crown) : h("p", { class: "muted" }, "none"));
    if (events.length) hand.push(h("h3", {}, `Your Event cards (${events.length})`), h("div", { class: "cards" }, events));
    const standing = this.renderStanding(view, ui);
    if (standing) hand.push(standing);
    return { played: null, hand };
  }

  /** The Standing orders panel (the seat's own `standing_orders`, orders.py): one choice per
   * kind of recurring question, "ask me" to clear it; each change is sent at once as the
   * player's standing verb `set_order` / `clear_order` (at any time, not only when asked). */
  renderStanding(view, ui = {}) {
    const so = view.standing_orders;
    if (!so || !so.kinds || !ui.onChoices) return null;
    this.standingUi = ui;
    const orders = so.orders || {};
    const send = (verb, arg, node) => { if (this.standingUi && this.standingUi.onChoices) this.standingUi.onChoices([{ verb, arg, kind: "button", ref: null, label: verb === "set_order" ? "Set the standing order" : "Clear the standing order" }], node); };
    const rows = [];
    for (const [kind, info] of Object.entries(so.kinds)) {
      const current = orders[kind];
      if (kind === "storm_port") {
        // kept across redraws (the panel is drawn again at every move): typed text survives
        if (!this.stormForm) {
          const input = h("input", { type: "text", name: "storm_port", "aria-label": "Storm ports, in order of preference" });
          const form = h("form", { class: "km-standing-storm" }, input, h("button", { type: "submit" }, "Set"));
          form.addEventListener("submit", (ev) => {
            ev.preventDefault();
            const names = input.value.split(",").map((x) => x.trim()).filter(Boolean);
            const ids = names.map((n) => this.portId(n)).filter(Boolean);
            if (!names.length) { if (this.stormCurrent) send("clear_order", "storm_port", form); return; }
            if (ids.length === names.length) send("set_order", { kind: "storm_port", value: ids }, form);
            else input.setCustomValidity("Unknown port name");
          });
          input.addEventListener("input", () => input.setCustomValidity(""));
          this.stormForm = form;
          this.stormInput = input;
        }
        const shown = (current || []).map((id) => this.placeName(id)).join(", ");
        if (shown !== this.stormShown) { this.stormInput.value = shown; this.stormShown = shown; }
        this.stormCurrent = current;
        rows.push(h("li", { dataset: { kind } }, h("label", {}, info.text), this.stormForm));
        continue;
      }
      const select = h("select", { name: kind, "aria-label": info.text },
        h("option", { value: "" }, "ask me"),
        ...info.values.map((v) => h("option", { value: String(v), selected: current !== undefined && String(current) === String(v) ? "selected" : null }, pretty(String(v)))));
      select.addEventListener("change", () => {
        const raw = select.value;
        if (raw === "") { if (current !== undefined) send("clear_order", kind, select); return; }
        send("set_order", { kind, value: /^\d+$/.test(raw) ? Number(raw) : raw }, select);
      });
      rows.push(h("li", { dataset: { kind } }, h("label", {}, info.text, select)));
    }
    const count = Object.keys(orders).length;
    const box = h("details", { class: "km-standing", open: this.standingOpen ? "open" : null },
      h("summary", {}, `Standing orders (${count ? `${count} set` : "none"})`),
      h("p", { class: "small" }, "Answers given in advance to questions asked in other players' turns; played at once as your answer and logged \"by standing order\". Only you see them."),
      h("ul", { class: "km-standing-list" }, rows));
    box.addEventListener("toggle", () => { this.standingOpen = box.open; });
    return box;
  }

  /** A port's id from its id or its name (case and spaces ignored), or null. */
  portId(text) {
    const want = String(text).toLowerCase().replace(/[^a-z0-9]+/g, "");
    for (const [pid, p] of Object.entries(this.board.places || {})) {
      if (pid.replace(/_/g, "") === want || String(p.name || "").toLowerCase().replace(/[^a-z0-9]+/g, "") === want) return pid;
    }
    return null;
  }

  /** The umpire's panel: every hand, the Chancery, the face-down Treachery cards, the Refuge
   * turns (his view only), and a form to publish a ruling (his standing verb `rule`). */
  renderUmpire(view, ui = {}) {
    const names = view.card_names || {};
    const list = (ids) => (ids && ids.length ? ids.map((id) => names[id] || pretty(id)).join(", ") : "none");
    const out = [h("h3", {}, "Chancery (umpire only)"), h("p", { class: "km-chancery" }, list(view.chancery_cards))];
    out.push(h("h3", {}, "Hands"), h("dl", { class: "facts km-hands" }, Object.entries(view.hands || {}).flatMap(([role, ids]) => [
      h("dt", {}, role), h("dd", {}, `${list(ids)}; events: ${list((view.event_hands || {})[role])}`)])));
    if ((view.treachery_discards || []).length) out.push(h("p", {}, h("strong", {}, "Discarded face down by Treachery: "), list(view.treachery_discards)));
    for (const r of view.refuge_turns || []) out.push(h("p", { class: "small" }, `${r.role}: Refuge in ${this.areaTitle(r.area)}${r.turns !== undefined ? `, ${r.turns} turns left` : ""}`));
    const bySeat = (view.standing_orders && view.standing_orders.by_seat) || {};
    for (const [role, orders] of Object.entries(bySeat)) {
      const text = Object.entries(orders).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") : v}`).join("; ");
      if (text) out.push(h("p", { class: "small km-standing-seat" }, `${role}'s standing orders: ${text}`));
    }
    const standing = (view.umpire && view.umpire.standing) || {};
    this.umpireUi = ui;
    if (standing.rule && ui.onChoices) {
      // one form for the whole page: the panel is drawn again at every move of the players,
      // and a ruling being typed must survive that (same element, same text, same focus)
      if (!this.rulingForm) {
        const input = h("textarea", { name: "ruling", rows: "3", maxlength: "2000", "aria-label": "Ruling" });
        const form = h("form", { class: "km-ruling" }, h("label", {}, "Publish a ruling (it goes into the log for everyone)", input),
          h("button", { type: "submit" }, "Publish the ruling"));
        form.addEventListener("submit", (ev) => {
          ev.preventDefault();
          const text = input.value.trim();
          if (!text || !this.umpireUi || !this.umpireUi.onChoices) return;
          input.value = "";
          this.umpireUi.onChoices([{ verb: "rule", arg: text, kind: "button", ref: null, label: "Publish the ruling" }], form);
        });
        this.rulingForm = form;
      }
      out.push(h("h3", {}, "Rulings"), this.rulingForm);
    }
    if (standing.correct && ui.onChoices) out.push(h("h3", {}, "Corrections"), this.correctionForm(view));
    return { played: null, hand: out };
  }

  /** The umpire's correction (his standing verb `correct`, corrections.py): a kind from the
   * view's `umpire.standing.correct`, what it applies to (chosen among the pieces, cards, places
   * and roles of the view) and the stated reason. Like the ruling form it is one form for the
   * page, kept across the redraws at the players' moves; the fields follow the chosen kind. */
  correctionForm(view) {
    this.correctionView = view;
    const opts = (view.umpire.standing.correct) || {};
    const kinds = (opts.kinds || []).filter((k) => (k === "takeback" ? (opts.takeback || []).length : k === "undo" ? opts.undo : true));
    if (!this.correctForm) {
      const kind = h("select", { name: "kind", "aria-label": "Correction" });
      const fields = h("div", { class: "km-correct-fields" });
      const reason = h("textarea", { name: "reason", rows: "2", maxlength: "2000", "aria-label": "Reason" });
      const form = h("form", { class: "km-correct" },
        h("label", {}, "Correct the game ", kind), fields,
        h("label", {}, "Reason (logged for everyone)", reason),
        h("button", { type: "submit" }, "Make the correction"));
      kind.addEventListener("change", () => this.correctionFields());
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const text = reason.value.trim();
        if (!text || !kind.value || !this.umpireUi || !this.umpireUi.onChoices) return;
        const arg = { kind: kind.value, reason: text };
        for (const f of fields.querySelectorAll("select, input")) arg[f.name] = f.type === "number" ? Number(f.value) : f.value;
        reason.value = "";
        this.umpireUi.onChoices([{ verb: "correct", arg, kind: "button", ref: null, label: "Make the correction" }], form);
      });
      this.correctForm = form;
    }
    const sel = this.correctForm.elements.kind;
    const labels = { move: "move a piece", remove: "remove a piece", card: "give a card", place: "give a place", track: "set a track", takeback: "take back a player's last order", undo: "undo my last correction" };
    const keys = kinds.join(",");
    if (sel.dataset.kinds !== keys) {
      const was = sel.value;
      sel.replaceChildren(...kinds.map((k) => h("option", { value: k }, labels[k] || k)));
      if (kinds.includes(was)) sel.value = was;
      sel.dataset.kinds = keys;
      this.correctionFields();
    } else if (!this.correctForm.contains(document.activeElement)) this.correctionFields();
    return this.correctForm;
  }

  /** The fields of the chosen kind of correction, from the latest view (values kept when still offered). */
  correctionFields() {
    const view = this.correctionView;
    const form = this.correctForm;
    const opts = view.umpire.standing.correct || {};
    const names = view.card_names || {};
    const roles = (view.players || []).map((p) => p.role);
    const places = Object.entries(this.board.places || {}).map(([id, p]) => [id, p.name || pretty(id)])
      .sort((a, b) => a[1].localeCompare(b[1]));
    const nobles = (view.players || []).flatMap((p) => p.nobles.map((n) => [n.id, `${n.name} (${p.role})`]));
    const cards = [...new Set([...Object.values(view.hands || {}).flat(), ...(view.chancery_cards || []),
      ...(view.players || []).flatMap((p) => [...(p.assets || []), ...p.nobles.flatMap((n) => n.awards || [])])])]
      .map((id) => [id, names[id] || pretty(id)]).sort((a, b) => a[1].localeCompare(b[1]));
    const cardTo = [...roles.map((r) => [r, `${r}'s hand`]), ...roles.map((r) => [`asset:${r}`, `${r}'s assets`]),
      ...nobles, ["deck", "the Crown deck"], ["discard", "the discard pile"], ["chancery", "the Chancery"]];
    const spec = {
      move: [["piece", "Piece", nobles], ["to", "To", places]],
      remove: [["piece", "Piece", nobles]],
      card: [["card", "Card", cards], ["to", "To", cardTo]],
      place: [["place", "Place", places], ["to", "Held by", [...roles.map((r) => [r, r]), ["none", "no one"]]]],
      track: [["track", "Track", (opts.tracks || []).map((t) => [t, t])], ["value", "Value", null]],
      takeback: [["role", "Player", (opts.takeback || []).map((r) => [r, r])]],
      undo: [],
    }[form.elements.kind.value] || [];
    const box = form.querySelector(".km-correct-fields");
    const before = Object.fromEntries([...box.querySelectorAll("select, input")].map((f) => [f.name, f.value]));
    box.replaceChildren(...spec.map(([name, text, choices]) => {
      const field = choices
        ? h("select", { name }, choices.map(([v, l]) => h("option", { value: v }, l)))
        : h("input", { name, type: "number", min: "0", value: "0" });
      if (before[name] !== undefined && (!choices || choices.some(([v]) => v === before[name]))) field.value = before[name];
      return h("label", {}, `${text} `, field);
    }));
  }

  renderForces(view) {
    const out = [];
    for (const p of view.players || []) {
      const me = p.role === view.role;
      const rows = p.nobles.map((n) => h("tr", { dataset: { noble: n.id } },
        h("td", {}, n.name), h("td", { class: "num" }, String(n.troops)),
        h("td", {}, n.where || (n.ship ? `aboard ${this.shipName(view, n.ship)}` : this.whereText(n.inside || n.square))),
        h("td", {}, [...(n.award_names || (n.awards || []).map(pretty)), n.captive_of ? `captive of ${n.captive_of}` : null].filter(Boolean).join(", "))));
      out.push(h("section", { class: "km-faction", dataset: { role: p.role } },
        h("h3", {}, h("span", { class: `km-swatch km-seat-${this.roleIndex(view, p.role)}`, "aria-hidden": "true" }), `${p.role}${me ? " (you)" : ""}`),
        h("p", { class: "small" }, `${p.nobles.length} nobles; ${p.hand} Crown card${p.hand === 1 ? "" : "s"} and ${p.events} Event card${p.events === 1 ? "" : "s"} in hand${p.assets.length ? `; assets: ${(p.asset_names || p.assets.map(pretty)).join(", ")}` : ""}`),
        rows.length ? h("table", { class: "km-nobles" }, h("thead", {}, h("tr", {}, h("th", {}, "Noble"), h("th", {}, "Troops"), h("th", {}, "Where"), h("th", {}, "Cards"))), h("tbody", {}, rows)) : null));
    }
    const heirs = (view.heirs || []).map((hh) => h("li", {}, `${hh.name}${hh.crowned ? " (King)" : ""}: ${hh.dead ? "dead" : `${hh.ship ? `aboard ${this.shipName(view, hh.ship)}` : this.whereText(hh.inside || hh.square)}${hh.controller ? `, held by ${hh.controller}` : ""}`}`));
    out.push(h("section", { class: "km-heirs" }, h("h3", {}, "Royal heirs"), h("ul", {}, heirs)));
    if ((view.lying || []).length) out.push(h("p", { class: "small" }, `Lying on the board: ${(view.lying_names || view.lying.map(pretty)).join(", ")}`));
    return out;
  }

  /** The Parliament screen (motion, tally per player, who has answered) during a session, the
   * recent combat lines during combat; null otherwise (the panel is hidden). */
  renderBattle(view, ui = {}, payload = {}) {
    this.tabletopQueue = view.phase === "combat" ? this.tabletopQueue : null;
    const heading = document.getElementById("h-battle");
    const lines = (view.log || []).map((l, i) => [Array.isArray(l) ? String(l[1] ?? l[l.length - 1]) : String(l), (view.log_kinds || [])[i]]);
    if (view.parliament || view.phase === "parliament") {
      if (heading) heading.textContent = "Parliament";
      const parl = view.parliament || {};
      const parts = [h("div", { class: "km-parliament", dataset: { screen: "parliament" } })];
      const box = parts[0];
      if (parl.place) box.append(h("p", {}, h("strong", {}, "Sitting at "), this.placeName(parl.place), parl.summoner ? `, summoned by ${parl.summoner}` : ""));
      if (parl.card) box.append(h("p", { class: "km-chancery-card" }, h("strong", {}, "From Chancery: "), pretty(parl.card)));
      if (parl.text || parl.motion) box.append(h("p", { class: "km-motion" }, h("strong", {}, "Motion: "), parl.text || pretty(parl.motion)));
      else if (view.prompt) box.append(h("p", { class: "km-motion" }, view.prompt));
      if (parl.ballot) box.append(h("p", { class: "km-ballot" }, h("strong", {}, "Your vote: "), pretty(parl.ballot)));
      const tally = parl.tally || null;
      if (tally) {
        const voted = new Set(parl.voted || []);
        const waiting = new Set(view.active || []);
        let tc = 0; let tl = 0;
        const rows = Object.entries(tally).map(([role, [c, l]]) => {
          tc += c; tl += l;
          const state = voted.has(role) ? "answered" : waiting.has(role) ? (parl.stage && parl.stage !== "vote" ? "to answer" : "to vote") : "";
          return h("tr", { dataset: { role } }, h("td", {}, role), h("td", { class: "num" }, String(c)), h("td", { class: "num" }, String(l)), h("td", {}, state));
        });
        box.append(h("table", { class: "km-tally" },
          h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Commons"), h("th", {}, "Lords"), h("th", {}, ""))),
          h("tbody", {}, rows),
          h("tfoot", {}, h("tr", {}, h("th", {}, "Total"), h("th", { class: "num" }, String(tc)), h("th", { class: "num" }, String(tl)), h("th", {}, `majority of the Commons: ${Math.floor(tc / 2) + 1}`)))));
      } else if (view.active && view.active.length) {
        box.append(h("p", {}, h("strong", {}, "To answer: "), view.active.join(", ")));
      }
      const minutes = lines.filter(([, kind]) => kind === "political").slice(-8);
      if (minutes.length) box.append(h("h3", {}, "Minutes"), h("ul", { class: "km-minutes" }, minutes.map(([t]) => h("li", {}, t))));
      return parts;
    }
    if (view.phase === "combat") {
      if (heading) heading.textContent = "Combat";
      const recent = lines.filter(([, kind]) => kind === "battle").slice(-8);
      const tabletop = view.tabletop ? this.renderTabletop(view, ui, payload) : null;
      if (!view.tabletop) this.tabletopQueue = null;
      return [h("div", { class: "km-combat", dataset: { screen: "combat" } }, tabletop || h("p", {}, view.prompt || ""),
        recent.length ? h("ul", {}, recent.map(([t]) => h("li", {}, t))) : null)];
    }
    if (heading) heading.textContent = "Battle";
    return null;
  }

  /** A combat put to the umpire (option `tabletop`, umpire.py; the view's `tabletop`): every
   * seat sees the two sides and what the umpire is deciding. The umpire chooses the Event card
   * or a table; for a table he enters the result in one form (the nobles killed, who won),
   * which the page sends as the rules' verbs in order: `kill` each, `done`, `outcome`. */
  renderTabletop(view, ui = {}, payload = {}) {
    const t = view.tabletop;
    const box = h("div", { class: "km-tabletop", dataset: { screen: "tabletop", stage: t.stage } });
    box.append(h("p", { class: "km-tabletop-head" }, h("strong", {}, `${pretty(t.kind)} at ${t.place ? this.placeName(t.place) : t.where}`),
      `: ${t.attacker} ${t.attack} against ${t.defender || "the garrison"} ${t.defence}`));
    // a side without nobles fights with the place's garrison (or, at sea, its ships) alone
    const alone = (strength) => (strength > 0 ? (t.kind === "sea_battle" ? "its ships, no noble" : "the garrison, no noble") : "no noble");
    const side = (title, role, list, strength) => h("section", { class: "km-side", dataset: { side: title.toLowerCase() } },
      h("h4", {}, h("span", { class: `km-swatch km-seat-${this.roleIndex(view, role)}`, "aria-hidden": "true" }), `${title}: ${role || "the garrison"} (${strength})`),
      list.length ? h("ul", {}, list.map((n) => h("li", { dataset: { noble: n.id } }, `${n.name} (${n.troops})`))) : h("p", { class: "muted small" }, alone(strength)));
    box.append(h("div", { class: "km-sides" }, side("Attacker", t.attacker, t.attackers, t.attack), side("Defender", t.defender, t.defenders, t.defence)));
    const fought = t.stage !== "mark";
    box.append(h("p", { class: "km-tabletop-status" }, fought
      ? "It is being fought on a table: the umpire enters the result."
      : "The umpire decides how it is fought: by the Event card, or on a table."));
    const mine = view.role === "umpire" && view.actions && ui.onChoices;
    if (!mine) { this.tabletopQueue = null; return box; }
    const acts = view.actions;
    const has = (verb, arg = null) => {
      const v = acts[verb];
      return v === true ? arg === null : Array.isArray(v) && v.some((x) => JSON.stringify(x) === JSON.stringify(arg));
    };
    const choose = (verb, arg, node) => ui.onChoices([{ verb, arg, kind: "button", ref: null, label: actionLabel(view, verb, arg) }], node);
    // the rest of a result being sent: the next verb once the page shows the position after the last
    const q = this.tabletopQueue;
    if (q && q.list.length && (payload.version ?? 0) > q.sentAt) {
      const [verb, arg] = q.list[0];
      if (has(verb, arg)) {
        q.list.shift();
        q.sentAt = payload.version ?? 0;
        setTimeout(() => choose(verb, arg, box), 0);
      } else this.tabletopQueue = null;
    }
    const sending = this.tabletopQueue && this.tabletopQueue.list.length;
    const cardsButton = (text) => h("button", { type: "button", class: "km-tabletop-cards", disabled: sending ? "disabled" : null,
      onclick: (ev) => { this.tabletopQueue = null; choose("cards", null, ev.currentTarget); } }, text);
    if (!fought) {
      box.append(h("div", { class: "buttons km-tabletop-mark" },
        cardsButton("Let the Event card decide (the default)"),
        h("button", { type: "button", class: "km-tabletop-table primary", onclick: (ev) => choose("table", null, ev.currentTarget) }, "Have it fought on a table")));
      return box;
    }
    const killed = new Set(t.killed || []);
    const canKill = t.stage === "killed";
    const noble = (n, sideName) => h("label", { class: "km-killed" },
      h("input", { type: "checkbox", name: "killed", value: n.id, checked: killed.has(n.id) ? "checked" : null,
                   disabled: !canKill || killed.has(n.id) || sending ? "disabled" : null }),
      ` ${n.name} (${sideName}, ${n.role})`);
    const nobles = [...t.attackers.map((n) => noble(n, "attacker")), ...t.defenders.map((n) => noble(n, "defender"))];
    const outcomes = Object.entries(t.outcomes || {}).map(([key, text]) => h("label", { class: "km-outcome" },
      h("input", { type: "radio", name: "outcome", value: key, required: "required", disabled: sending ? "disabled" : null }), ` ${text}`));
    const form = h("form", { class: "km-tabletop-result" },
      h("fieldset", {}, h("legend", {}, "Killed on the table"), nobles.length ? nobles : h("p", { class: "muted small" }, "no noble takes part")),
      h("fieldset", {}, h("legend", {}, "Who won"), outcomes),
      h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", disabled: sending ? "disabled" : null }, sending ? "Sending the result…" : "Enter the result"),
        cardsButton("Let the Event card decide after all")));
    // ruling K74: a result that needs a noble of its side alive is greyed out while every one is ticked killed
    const needs = t.needs_survivor || {};
    const refresh = () => {
      const ticked = new Set([...form.querySelectorAll("input[name=killed]:checked")].map((i) => i.value));
      for (const radio of form.querySelectorAll("input[name=outcome]")) {
        const list = needs[radio.value];
        const closed = !!(list && list.length && list.every((id) => ticked.has(id) || killed.has(id)));
        if (closed && radio.checked) radio.checked = false;
        radio.disabled = closed || !!sending;
        radio.parentNode.classList.toggle("km-closed", closed);
        radio.parentNode.title = closed ? "Not open: every noble of that side is named killed (ruling K74)" : "";
      }
    };
    form.addEventListener("change", (ev) => { if (ev.target.name === "killed") refresh(); });
    refresh();
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const outcome = form.querySelector("input[name=outcome]:checked");
      if (!outcome) return;
      const list = [];
      if (canKill) {
        for (const box2 of form.querySelectorAll("input[name=killed]:checked")) if (!killed.has(box2.value)) list.push(["kill", box2.value]);
        list.push(["done", null]);
      }
      list.push(["outcome", outcome.value]);
      const [verb, arg] = list.shift();
      this.tabletopQueue = { list, sentAt: payload.version ?? 0 };
      choose(verb, arg, form);
    });
    box.append(form);
    return box;
  }

  areaInfo(name, view) {
    if (this.board.places[name]) {
      const facts = this.placeText(name, view).split("; ");
      const items = [h("p", {}, h("strong", {}, facts[0])), h("ul", {}, facts.slice(1).map((f) => h("li", {}, f)))];
      const here = this.piecesAt(view, (n) => n.inside === name);
      if (here.length) items.push(h("p", {}, h("strong", {}, "Inside: "), here.join(", ")));
      return items;
    }
    const sq = unRef(name);
    if (!this.squares.has(sq)) return null;
    const words = this.whereText(sq);
    const t = this.squares.get(sq)[2];
    const items = [h("p", {}, h("strong", {}, words.charAt(0).toUpperCase() + words.slice(1)),
      ` (${t === "." ? "sea" : t === "f" ? "forest" : "open ground"}, ${this.areaName(sq)})`)];
    const places = Object.entries(this.board.places).filter(([, p]) => p.square === sq).map(([pid]) => this.placeText(pid, view));
    if (places.length) items.push(h("ul", {}, places.map((t) => h("li", {}, t))));
    const here = this.piecesAt(view, (n) => n.square === sq);
    if (here.length) items.push(h("p", {}, h("strong", {}, "Here: "), here.join(", ")));
    return items;
  }

  piecesAt(view, test) {
    const out = [];
    for (const p of view.players || []) for (const n of p.nobles) if (test(n)) out.push(`${n.name} (${p.role}, ${n.troops})`);
    for (const hh of view.heirs || []) if (!hh.dead && test(hh)) out.push(`${hh.name}${hh.crowned ? " (King)" : ""}`);
    return out;
  }

  legend() {
    const row = (cls, text) => h("li", {}, h("span", { class: `km-key ${cls}`, "aria-hidden": "true" }), text);
    return h("div", { class: "km-legend" },
      h("p", { class: "small" }, `${this.board.name}. ${this.board.notice || ""}`),
      h("ul", {},
        row("km-key-open", "open land"), row("km-key-forest", "forest"), row("km-key-sea", "sea"),
        row("km-key-river", "river (may be crossed)"), row("km-key-estuary", "estuary (may not be crossed)"), row("km-key-road", "road (a noble starting on a road may follow it further)"),
        row("km-key-castle", "castle (square mark), town (circle), city (large circle); filled in the holder's colour"),
        row("km-key-piece", "a noble (troops above it), a heir (rounded), a ship (hull); coloured by faction"),
        row("km-key-last", "the other players' moves since yours: the square reached ringed in orange, an arrow from where the page saw the counter stand")));
  }
}

// ------------------------------------------------------------------ helpers
function columnName(col) {
  let name = "";
  let c = col + 1;
  while (c) { const rem = (c - 1) % 26; name = String.fromCharCode(65 + rem) + name; c = Math.floor((c - 1) / 26); }
  return name;
}

/** The id of the square in column `c`, row `r` (from 0): spreadsheet style, like the board module. */
export function squareId(c, r) { return `${columnName(c)}${r + 1}`; }

/** The path of the side between orthogonal neighbours `a` and `b` ([col, row, ...]). */
function edgePath(a, b, k) {
  if (b[1] === a[1]) { const x = Math.max(a[0], b[0]) * k; return `M${x} ${a[1] * k}v${k}`; }
  const y = Math.max(a[1], b[1]) * k;
  return `M${a[0] * k} ${y}h${k}`;
}

function treePath(x, y, k) {
  let d = "";
  for (const [fx, fy] of [[0.25, 0.7], [0.72, 0.3], [0.78, 0.8]]) {
    const tx = x + fx * k;
    const ty = y + fy * k;
    d += `M${tx} ${ty - 8}l6 10h-12z`;
  }
  return d;
}
