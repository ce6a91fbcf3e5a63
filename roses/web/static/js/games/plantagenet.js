// Roses: Plantagenet on the page (the game module for "plantagenet", see index.js). Loads the
// board data (static/plantagenet/board.json, made by roses/games/plantagenet/board_drawing.py: Locales at
// their real towns, Ways, Seas, Exile boxes, the Calendar and the Influence track, and the
// game's Lords, Vassals and Arts of War cards in our own words) and draws one role's view, and
// nothing else, onto the board and the side panels. Choices come only from the view's actions
// (the rules' legal actions) and their labels: a Locale, a Lord, a card or a unit in the
// Battle is outlined when choosing it makes one of them; everything is also a button.
// Our own drawing: no publisher art.

import { centroid, drawLastMoves, el, enablePanZoom, lastMoveMarker, lastMoves } from "../mapkit.js";
import { h } from "../api.js";
import { actionLabel, byRef, choicesOf } from "../actions.js";

const SIDES = ["York", "Lancaster"];
const SIDE_LETTER = { York: "Y", Lancaster: "L" };
const FILL = { York: "#f7f3e8", Lancaster: "#a61f1a", null: "#d7d1c2" };
const INK = { York: "#1d1a14", Lancaster: "#ffffff", null: "#1d1a14" };
const SEA_TINT = { "North Sea": "#cbe2ea", "English Channel": "#cfdcf3", "Irish Sea": "#dcd3ea" };
const SEA_COLOUR = { "North Sea": "#0f5e7a", "English Channel": "#1a4fd6", "Irish Sea": "#6a3d9a" };
const WAY_STYLE = {
  Highway: { width: 7, dash: null, colour: "#7a5a2e", label: "Highway: wide solid line (a March may follow two, 4.3.2)" },
  Road: { width: 3.5, dash: null, colour: "#8d7a57", label: "Road: thin solid line" },
  Path: { width: 3, dash: "2 7", colour: "#6f5a3a", label: "Path: dotted line" },
};
const TROOP_NAMES = {
  men_at_arms: "Men-at-Arms", longbowmen: "Longbowmen", militia: "Militia", mercenaries: "Mercenaries", handgunners: "Handgunners",
};
const ASSET_NAMES = { provender: "Provender", coin: "Coin", carts: "Carts", ships: "Ships" };
const TIMING = { hold: "Hold", this_levy: "This Levy", this_campaign: "This Campaign", now: "Now" };
const STAGE_NAMES = { levy: "Levy", campaign: "Campaign", battle: "Battle", over: "Game over" };
// Verbs whose argument is a Vassal (not a Lord: some ids are both, e.g. "oxford").
const VASSAL_VERBS = new Set(["levy_vassal"]);
const AOW_CARD = /^[YL]\d+$/;
const COMMAND_CARD = /^[a-z0-9_]+-\d+$/;

let stylesAdded = false;
function addStyles() {
  if (stylesAdded || document.querySelector('link[data-pl-styles]')) return;
  stylesAdded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/plantagenet/plantagenet.css", dataset: { plStyles: "1" } }));
}

/** The module's entry point (games/index.js): load the board data, draw the board. */
export async function create(page) {
  addStyles();
  const board = await (await fetch("/static/plantagenet/board.json")).json();
  const game = new Plantagenet(board, page);
  if (page.svg) {
    game.drawBoard(page.svg);
    game.drawTracks(page.svg.parentElement);
    game.pan = enablePanZoom(page.svg, board, page.zoom);
  }
  if (page.legend) page.legend.replaceChildren(legend());
  return game;
}

/** A Lord's name without the version mark: "Somerset (1)" -> "Somerset". */
function shortName(name) {
  return String(name).replace(/ \(\d\)$/, "");
}
const ABBREV = { Northumberland: "Northumb.", Buckingham: "Buckingm", Gloucester: "Glouc.", "Jasper Tudor": "J. Tudor", "Henry Tudor": "H. Tudor", "Richard III": "Rich. III" };

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export class Plantagenet {
  constructor(board, page = {}) {
    this.board = board;
    clearLabels(board);
    this.page = page;
    this.hasMap = true;
    this.pan = null;
    this.focused = false;
    this.lastBattle = null;
    this.nodes = {};
  }

  // ------------------------------------------------------------------ names
  lordName(id) { const l = this.board.lords[id]; return l ? l.name : String(id); }
  lordLabel(id) { const n = shortName(this.lordName(id)); return ABBREV[n] || n; }
  vassalName(id) {
    const v = this.board.vassals[id] || this.board.special_vassals[id];
    return v ? v.name : String(id);
  }
  cardTitle(cid) {
    if (COMMAND_CARD.test(cid)) return this.commandTitle(cid);
    const c = this.board.cards[cid];
    return c ? `${c.event.title} / ${c.capability.title}` : String(cid);
  }
  commandTitle(cid) {
    const badge = String(cid).replace(/-\d+$/, "");
    if (badge === "pass") return "Pass";
    const lord = Object.entries(this.board.lords).find(([, l]) => l.badge === badge);
    return lord ? shortName(lord[1].name) : badge;
  }
  isLocale(x) { return typeof x === "string" && x in this.board.locales; }
  isLord(x) { return typeof x === "string" && x in this.board.lords; }
  unitName(u) {
    if (u === "retinue") return "Retinue";
    if (u in TROOP_NAMES) return TROOP_NAMES[u];
    return this.vassalName(u);
  }

  // ------------------------------------------------------------------ choices
  /** What a click must hit to choose (verb, arg): {kind: card|area|block|button, ref}. */
  classify(view, verb, arg) {
    if (arg === null || arg === undefined || typeof arg !== "string") return { kind: "button", ref: null };
    if (VASSAL_VERBS.has(verb)) {
      const v = this.board.vassals[arg];
      return v ? { kind: "area", ref: v.seat } : { kind: "button", ref: null };
    }
    if (AOW_CARD.test(arg) && this.board.cards[arg]) return { kind: "card", ref: arg };
    if (verb === "add" && COMMAND_CARD.test(arg)) return { kind: "card", ref: arg };
    if (this.isLocale(arg)) return { kind: "area", ref: arg };
    if (this.isLord(arg)) return { kind: "block", ref: arg };
    for (const sep of ["@", ">", ":"]) {
      if (!arg.includes(sep)) continue;
      const [a, b] = arg.split(sep);
      if (AOW_CARD.test(a) && this.board.cards[a]) return { kind: "card", ref: a };
      if (this.isLocale(b) && sep !== ":") return { kind: "area", ref: b };
      if (this.isLord(a)) return { kind: "block", ref: a };
      if (this.isLord(b)) return { kind: "block", ref: b };
    }
    return { kind: "button", ref: null };
  }

  label(view, verb, arg) { return actionLabel(view, verb, arg); }

  choices(view) {
    return choicesOf(view, (verb, arg) => this.classify(view, verb, arg));
  }

  /** Several choices on one thing: a Lord's own turn to act (Muster) before the rest; else a menu. */
  defaultChoice(opts) {
    const pick = opts.filter((c) => c.verb === "lord");
    return pick.length === 1 ? pick[0] : null;
  }

  // ------------------------------------------------------------------ the static board
  drawBoard(svg) {
    const b = this.board;
    svg.replaceChildren();
    svg.setAttribute("viewBox", b.viewBox.join(" "));
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "Plantagenet board: England, Wales and the lands around them");
    svg.classList.add("roses-map", "pl-map");
    const defs = el("defs", {}, svg);
    const arrow = el("marker", { id: "pl-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0 0 L10 5 L0 10 Z", fill: "#5a4630" }, arrow);
    const seaArrow = el("marker", { id: "pl-sea-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, defs);
    el("path", { d: "M0 0 L10 5 L0 10 Z", fill: "#2d5773" }, seaArrow);
    const root = el("g", { class: "pl-root" }, svg);
    const [, , W, H] = b.viewBox;
    el("rect", { x: -2000, y: -2000, width: W + 4000, height: H + 4000, fill: "#cfe3ef" }, root);
    // the three Seas (1.3.1): tinted zones of the water, the land drawn over them
    const zones = el("g", { class: "pl-sea-zones", "aria-hidden": "true" }, root);
    for (const [name, pts] of Object.entries(b.sea_zones || {})) {
      el("polygon", { points: pts.map((q) => q.join(",")).join(" "), class: "pl-sea-zone", fill: SEA_TINT[name] || "#cfe3ef", "data-sea": name }, zones);
    }
    // the land: the real coastline (lakes as holes), stroked under, filled over
    const land = el("g", { class: "pl-land", "aria-hidden": "true" }, root);
    const d = (b.coast || []).map((ring) => `M${ring.map((q) => q.join(" ")).join("L")}Z`).join("");
    el("path", { d, fill: "none", stroke: "#6f8ea3", "stroke-width": 5, "stroke-linejoin": "round" }, land);
    el("path", { d, "fill-rule": "evenodd", fill: "#efe6cf", stroke: "#efe6cf", "stroke-width": 1, class: "pl-coast" }, land);
    for (const [, pts] of Object.entries(b.borders || {})) {
      el("polyline", { points: pts.map((q) => q.join(",")).join(" "), class: "pl-border" }, land);
    }
    for (const [name, [x, y]] of Object.entries(b.countries || {})) {
      el("text", { x, y, class: "pl-country", "text-anchor": "middle" }, land).textContent = name;
    }
    // Areas (1.3.1): a faint outline around their Strongholds
    const areas = el("g", { class: "pl-areas", "aria-hidden": "true" }, root);
    for (const [name, a] of Object.entries(b.areas)) {
      el("polygon", { points: a.hull.map((q) => q.join(",")).join(" "), class: `pl-area pl-area-${name}` }, areas);
      el("text", { x: a.label[0], y: a.label[1], class: "pl-area-label", "text-anchor": "middle" }, areas).textContent = name.toUpperCase();
    }
    // Seas
    const seas = el("g", { class: "pl-seas", "aria-hidden": "true" }, root);
    for (const [name, s] of Object.entries(b.locales)) {
      if (s.kind !== "sea") continue;
      el("text", { x: s.x, y: s.y, class: "pl-sea-label", "text-anchor": "middle", fill: SEA_COLOUR[name] }, seas).textContent = name.toUpperCase();
    }
    // Ways (1.3.1)
    const ways = el("g", { class: "pl-ways", "aria-hidden": "true" }, root);
    for (const [a, c, type] of b.ways) {
      const p = b.locales[a];
      const q = b.locales[c];
      const st = WAY_STYLE[type];
      el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: st.colour, "stroke-width": st.width, "stroke-dasharray": st.dash, "stroke-linecap": "round", class: `pl-way pl-way-${type}` }, ways);
    }
    for (const [a, c] of b.one_way) {
      const p = b.locales[a];
      const q = b.locales[c];
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const d = Math.hypot(dx, dy);
      const start = p.kind === "exile" ? edgePoint(p, q, p.w / 2, p.h / 2) : edgePoint(p, q);
      el("line", { x1: start[0], y1: start[1], x2: q.x - (dx / d) * 16, y2: q.y - (dy / d) * 16, stroke: WAY_STYLE.Path.colour, "stroke-width": 3, "stroke-dasharray": WAY_STYLE.Path.dash, "stroke-linecap": "round", "marker-end": "url(#pl-arrow)", class: "pl-way pl-way-oneway" }, ways);
    }
    // the plates of the Locales with Lords (under the markers, drawn with each view)
    this.nodes.plates = el("g", { class: "pl-plates", "aria-hidden": "true" }, root);
    // the other side's last moves: over the Ways and plates, under the markers and the Lords
    this.nodes.lastMoves = el("g", { class: "pl-last-moves", "aria-hidden": "true" }, root);
    lastMoveMarker(svg);
    // Exile boxes and Locales: the click targets
    const places = el("g", { class: "pl-places" }, root);
    this.nodes.locales = {};
    for (const [name, d] of Object.entries(b.locales)) {
      if (d.kind === "sea") continue;
      const g = el("g", { class: `area pl-locale pl-${d.kind}`, "data-area": name, tabindex: "-1", role: "button", "aria-label": this.localeText(name) }, places);
      el("title", {}, g).textContent = this.localeText(name);
      if (d.kind === "exile") {
        const sea = b.locales[d.sea];
        const [ex, ey] = edgePoint(d, sea, d.w / 2, d.h / 2);
        // the box's arrow toward its Sea (1.3.1): a short arrow, its Sea named in the box
        const len = Math.hypot(sea.x - ex, sea.y - ey) || 1;
        const reach = Math.min(70, len);
        el("line", { x1: ex, y1: ey, x2: ex + ((sea.x - ex) / len) * reach, y2: ey + ((sea.y - ey) / len) * reach, class: "pl-exile-sea", "marker-end": "url(#pl-sea-arrow)" }, places);
        el("rect", { x: d.x - d.w / 2, y: d.y - d.h / 2, width: d.w, height: d.h, rx: 8, class: "area-shape pl-exile-box", "data-place": name }, g);
        const named = el("g", { class: "area-features", "data-area": name }, g);
        el("text", { x: d.x, y: d.y - d.h / 2 + 19, "text-anchor": "middle", class: "area-label pl-exile-name" }, named).textContent = `${name} (Exile)`;
        el("text", { x: d.x, y: d.y + d.h / 2 - 8, "text-anchor": "middle", class: "pl-exile-side" }, g);
        el("text", { x: d.x, y: d.y - d.h / 2 + 35, "text-anchor": "middle", class: "pl-exile-sea-name" }, g).textContent = `→ ${d.sea}`;
      } else {
        stronghold(g, d);
        const [lx, ly, anchor] = labelAt(d);
        const named = el("g", { class: "area-features", "data-area": name }, g);
        el("text", { x: lx, y: ly, "text-anchor": anchor, class: `area-label pl-locale-name${d.type === "London" ? " pl-capital" : ""}` }, named).textContent = name;
        if (d.port) {
          const a = el("g", { class: "pl-port", transform: `translate(${d.x - 19},${d.y + 13})` }, g);
          el("circle", { r: 8.5, fill: "#fff", stroke: SEA_COLOUR[d.port], "stroke-width": 1.6 }, a);
          el("path", { d: "M0 -5 V5 M-3.5 -2.5 H3.5 M-5.5 1.5 C-4.5 6 4.5 6 5.5 1.5", fill: "none", stroke: SEA_COLOUR[d.port], "stroke-width": 1.7, "stroke-linecap": "round" }, a);
        }
        el("g", { class: "pl-markers" }, g);
      }
      g.addEventListener("click", (ev) => { if (this.dragged()) return; this.page.onArea && this.page.onArea(name, ev); });
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.page.onArea && this.page.onArea(name, ev); } });
      this.nodes.locales[name] = g;
    }
    this.nodes.pieces = el("g", { class: "pl-pieces" }, root);
    this.svg = svg;
  }

  dragged() { return this.svg && this.svg.dataset.dragged === "1"; }

  /** The Influence track (1.4.1) and the Calendar (2.2) in a strip along the top of the board,
   * outside the pan and zoom, so that both are always in view (on a phone the Calendar scrolls
   * sideways to the present box). */
  drawTracks(holder) {
    if (!holder) return;
    const old = holder.querySelector(".pl-tracks");
    if (old) old.remove();
    const strip = h("div", { class: "pl-tracks", role: "group", "aria-label": "Influence track and Calendar" });
    const inf = h("div", { class: "pl-influence" },
      h("span", { class: "pl-track-title" }, "Influence"),
      h("span", { class: "pl-track-end" }, "Lancaster"),
      h("div", { class: "pl-inf-bar" }),
      h("span", { class: "pl-track-end" }, "York"),
      h("span", { class: "pl-inf-text" }));
    const cal = h("ol", { class: "pl-cal", "aria-label": "Calendar" });
    this.nodes.calRows = {};
    for (const r of this.board.calendar.rows) {
      // what the box does, each on its own line in full (the title says it in a sentence)
      const marks = [[`Plan ${r.plan}`, `Plans of ${r.plan} cards`]];
      if (r.gain_lords) marks.push(["Influence", "Gain Lords Influence: at the turn's end each side gains its Lords' Influence ratings (4.8.1)"]);
      if (r.grow) marks.push(["Grow", "Grow: at the turn's end Depleted markers go, Exhausted become Depleted (4.8.4)"]);
      if (r.waste) marks.push(["Waste", "Waste: at the turn's end Lords halve Provender, Carts and Ships and go back to their card's Coin and Troops (4.8.5)"]);
      const li = h("li", { class: "pl-cal-box", "data-place": `Calendar box ${r.box}`, dataset: { box: r.box },
        title: `Calendar box ${r.box}: ${r.season}; ${marks.map(([, t]) => t).join("; ")}` },
      h("span", { class: "pl-cal-head" }, h("b", {}, String(r.box)), " ", h("span", { class: "pl-cal-season" }, r.season.replace(/-/g, "–"))),
      h("span", { class: "pl-cal-marks" }, marks.map(([m]) => h("span", { class: "pl-cal-mark" }, m))),
      h("span", { class: "pl-cal-pieces" }));
      cal.appendChild(li);
      this.nodes.calRows[r.box] = li;
    }
    strip.append(inf, cal);
    holder.prepend(strip);
    holder.classList.add("pl-has-tracks");
    const size = () => holder.style.setProperty("--pl-tracks-h", `${strip.offsetHeight}px`);
    size();
    if (window.ResizeObserver) new ResizeObserver(size).observe(strip);
    this.nodes.tracks = strip;
  }

  // ------------------------------------------------------------------ descriptions
  localeText(name, view = null) {
    const d = this.board.locales[name];
    if (!d) return name;
    if (d.kind === "exile") {
      const side = view && view.exile_boxes ? view.exile_boxes[name] : null;
      return `${name}, Exile box (its Ships sail on the ${d.sea})${side ? `, Friendly to ${side}` : ""}`;
    }
    const parts = [`${name}: ${d.type === "London" || d.type === "Calais" || d.type === "Harlech" ? `${d.type} (special Stronghold)` : d.type}`];
    if (d.area) parts.push(`Area: ${d.area}`);
    if (d.port) parts.push(`Port on the ${d.port}`);
    if (view) {
      const f = (view.favour || {})[name];
      parts.push(f ? `${f} Favour` : "Neutral");
      const m = (view.exhaustion || {})[name];
      if (m) parts.push(cap(m));
    }
    return parts.join("; ");
  }

  /** What the page knows about a Locale: its facts, Ways, Seats, Vassals and the Lords there. */
  areaInfo(name, view) {
    const d = this.board.locales[name];
    if (!d) return null;
    const facts = this.localeText(name, view).split("; ");
    const items = [h("p", {}, h("strong", {}, facts[0])), h("ul", {}, facts.slice(1).map((f) => h("li", {}, f)))];
    if (d.kind === "stronghold") {
      const row = this.board.strongholds[d.type];
      if (row) items.push(h("p", { class: "small" }, `Supply ${row.supply}, Tax ${row.tax}, Tides of War ${row.tides}.`));
      const ways = this.board.ways.filter(([a, b]) => a === name || b === name).map(([a, b, t]) => `${a === name ? b : a} (${t})`);
      const from = this.board.one_way.filter(([, b]) => b === name).map(([a]) => `${a} (one-way Path in)`);
      if (ways.length || from.length) items.push(h("p", {}, h("strong", {}, "Ways: "), [...ways, ...from].join(", ")));
      const seats = Object.entries(view.seats || {}).filter(([, loc]) => loc === name).map(([lid]) => this.lordName(lid));
      if (seats.length) items.push(h("p", {}, h("strong", {}, "Seat of: "), seats.join(", ")));
      const vassals = Object.entries(this.board.vassals).filter(([, v]) => v.seat === name).map(([vid, v]) => {
        const at = (view.vassals || {})[vid];
        const where = !at ? "" : at.where === "seat" ? " (at its Seat)" : at.where === "mat" ? ` (with ${this.lordName(at.lord)})` : at.where === "calendar" ? ` (Calendar box ${at.box})` : " (not in this scenario)";
        return `${v.name}${where}`;
      });
      if (vassals.length) items.push(h("p", {}, h("strong", {}, "Vassals: "), vassals.join(", ")));
    } else {
      const ways = this.board.one_way.filter(([a]) => a === name).map(([, b]) => b);
      if (ways.length) items.push(h("p", {}, h("strong", {}, "One-way Paths to: "), ways.join(", ")));
    }
    const here = Object.entries(view.lords || {}).filter(([, l]) => l.locale === name && (l.where === "map" || l.where === "sea"));
    if (here.length) items.push(h("p", {}, h("strong", {}, "Lords: "), here.map(([lid, l]) => `${l.name} (${l.side})`).join(", ")));
    return items;
  }

  // ------------------------------------------------------------------ drawing a view
  draw(view, ui, payload = {}) {
    if (!this.svg) return;
    const choices = ui.choices || [];
    const byArea = byRef(choices, "area");
    const byLord = byRef(choices, "block");
    this.byLord = byLord;
    const battleAt = view.battle && view.battle.locale ? view.battle.locale : null;
    // Locales: Favour, markers, targets
    for (const [name, g] of Object.entries(this.nodes.locales)) {
      const d = this.board.locales[name];
      const legal = byArea.has(name);
      g.classList.toggle("legal", legal);
      g.classList.toggle("battle-area", name === battleAt);
      g.setAttribute("tabindex", legal ? "0" : "-1");
      const text = this.localeText(name, view);
      g.setAttribute("aria-label", legal ? `${text} — ${byArea.get(name).map((c) => c.label).join("; ")}` : text);
      g.querySelector("title").textContent = text;
      if (d.kind === "exile") {
        const side = (view.exile_boxes || {})[name] || null;
        g.dataset.side = side || "";
        g.querySelector(".pl-exile-side").textContent = side ? `Friendly to ${side}` : "";
        continue;
      }
      const side = (view.favour || {})[name] || null;
      g.dataset.favour = side || "";
      const shape = g.querySelector(".area-shape");
      shape.setAttribute("fill", FILL[side]);
      const letter = g.querySelector(".pl-favour");
      letter.textContent = side ? SIDE_LETTER[side] : "";
      letter.setAttribute("fill", INK[side]);
      const marks = g.querySelector(".pl-markers");
      marks.replaceChildren();
      const m = (view.exhaustion || {})[name];
      if (m) {
        const mg = el("g", { class: `pl-mark pl-${m}`, transform: `translate(${d.x + 15},${d.y - 15})` }, marks);
        el("circle", { r: 9 }, mg);
        el("text", { y: 4.5, "text-anchor": "middle" }, mg).textContent = m === "depleted" ? "D" : "E";
      }
    }
    this.drawLords(view, ui);
    this.drawLastMoves(view);
    this.drawCalendar(view, ui);
    this.drawInfluence(view);
    this.drawEnd(view);
    this.focus(view, ui, payload, battleAt);
  }

  /** The first view opens at the reading zoom on the player's Lord acting now, else on his
   * Lords on the map; later, a new Battle or targets all out of view are brought into view. */
  focus(view, ui, payload, battleAt) {
    if (!this.pan) return;
    const at = (name) => (this.board.locales[name] ? [this.board.locales[name].x, this.board.locales[name].y] : null);
    if (!this.focused && payload.status !== "open") {
      this.focused = true;
      // the Lord acting now, if he is yours; else your Lords on the map
      const actingId = view.activation ? view.activation.lord : view.muster ? view.muster.lord : null;
      const acting = actingId && view.lords && view.lords[actingId] && view.lords[actingId].side === view.role ? at(view.lords[actingId].locale) : null;
      const mine = Object.values(view.lords || {}).filter((l) => l.side === view.role && (l.where === "map" || l.where === "sea")).map((l) => at(l.locale)).filter(Boolean);
      const [cx, cy] = acting || (mine.length ? centroid(mine) : [900, 1100]);
      this.pan.readable(cx, cy);
    }
    if (battleAt && battleAt !== this.lastBattle && at(battleAt) && !this.pan.inView(...at(battleAt), 60)) {
      this.pan.show(...at(battleAt));
    } else if (ui.choices && ui.choices.length) {
      const targets = ui.choices.map((c) => (c.kind === "area" ? at(c.ref) : c.kind === "block" ? this.lordPoint(view, c.ref) : null)).filter(Boolean);
      if (targets.length && !targets.some((p) => this.pan.inView(p[0], p[1], 30))) this.pan.show(...centroid(targets));
    }
    this.lastBattle = battleAt;
  }

  /** The other side's last moves (4.3 March, 4.3.4 Intercept, 4.6.1 Sail, 4.8.2 landing), read
   * from the view's log: [{side, lords, fromPlace, place, from, to, text}], oldest first. */
  lastMoves(view) {
    const b = this.board;
    const point = (name) => (b.locales[name] ? [b.locales[name].x, b.locales[name].y] : null);
    // a Lord's side by the name the log gives him: the Lords in play first (a name such as
    // "Warwick" belongs to two Lords of the box, one of them in a scenario)
    const sideOf = (name) => {
      for (const l of Object.values(view.lords || {})) if (l.name === name && l.side) return l.side;
      for (const l of Object.values(b.lords)) if (l.name === name) return l.side;
      return null;
    };
    const lordsOf = (list) => list.split(", ").map((n) => n.trim()).filter(Boolean);
    const seated = view.role === "York" || view.role === "Lancaster";
    const parse = (t) => {
      let m = /^(.+?) (March|Intercept|Sail) from (.+?) to (.+?)(?: by |: | \(|\.$)/.exec(t);
      if (m && b.locales[m[3]] && b.locales[m[4]]) {
        const lords = lordsOf(m[1]);
        return [{ side: sideOf(lords[0]), lords, fromPlace: m[3], place: m[4], text: t.replace(/ \([0-9.]+\)\.$/, ".") }];
      }
      m = /^(.+?) March on along a second Highway to (.+?) \(/.exec(t);
      if (m && b.locales[m[2]]) {
        const lords = lordsOf(m[1]);
        return [{ side: sideOf(lords[0]), lords, fromPlace: null, place: m[2], text: t.replace(/ \([0-9.]+\)\.$/, "."), chained: true }];
      }
      m = /^(.+?) lands at (.+?) and must Feed/.exec(t);
      if (m && b.locales[m[2]]) return [{ side: sideOf(m[1]), lords: [m[1]], fromPlace: b.locales[m[2]].port || null, place: m[2], text: `${m[1]} lands at ${m[2]}.` }];
      return null;
    };
    const moves = lastMoves(view, view.role, parse, { seated });
    // a second Highway goes on from where the first March ended (4.3.3)
    moves.forEach((mv, i) => { if (mv.chained && !mv.fromPlace && i > 0) mv.fromPlace = moves[i - 1].place; });
    for (const mv of moves) { mv.from = mv.fromPlace ? point(mv.fromPlace) : null; mv.to = point(mv.place); }
    return moves;
  }

  drawLastMoves(view) {
    if (!this.nodes.lastMoves) return;
    const moves = this.lastMoves(view);
    const key = JSON.stringify(moves.map((m) => [m.side, m.fromPlace, m.place, m.text]));
    if (key === this.lastMovesDrawn) return;
    this.lastMovesDrawn = key;
    drawLastMoves(this.nodes.lastMoves, moves, { ring: 24, gap: 26 });
  }

  /** Where a Lord is drawn (map units), or null. */
  lordPoint(view, lid) {
    const n = this.nodes.lordAt && this.nodes.lordAt[lid];
    return n || null;
  }

  drawLords(view, ui) {
    const layer = this.nodes.pieces;
    layer.replaceChildren();
    const plates = this.nodes.plates;
    plates.replaceChildren();
    this.nodes.lordAt = {};
    const me = view.role;
    const moved = new Set(view.moved || []);
    const acting = view.activation ? view.activation.lord : view.muster ? view.muster.lord : null;
    const groups = {};
    for (const [lid, l] of Object.entries(view.lords || {})) {
      if ((l.where === "map" || l.where === "sea") && l.locale) (groups[l.locale] = groups[l.locale] || []).push(lid);
    }
    // Exile boxes take their Lords inside and grow to hold them
    for (const [name, g] of Object.entries(this.nodes.locales)) {
      const d = this.board.locales[name];
      if (d.kind !== "exile") continue;
      const box = this.exileBox(d, (groups[name] || []).map((lid) => this.pillWidth(lid)));
      const rect = g.querySelector(".pl-exile-box");
      rect.setAttribute("y", box.y);
      rect.setAttribute("height", box.h);
      rect.setAttribute("x", box.x);
      rect.setAttribute("width", box.w);
      g.querySelector(".pl-exile-side").setAttribute("y", box.y + box.h - 8);
    }
    // markers at a Stronghold besides its Lords (1.3.1): the Lords' Seat markers and the
    // counters of Vassals waiting at their Seat
    const tags = {};
    for (const [lid, loc] of Object.entries(view.seats || {}).sort(([a], [b]) => a.localeCompare(b))) {
      if (view.lords && view.lords[lid] && this.board.locales[loc]) (tags[loc] = tags[loc] || []).push({ kind: "seat", id: lid });
    }
    for (const [vid, v] of Object.entries(view.vassals || {}).sort(([a], [b]) => a.localeCompare(b))) {
      const seat = this.board.vassals[vid] && this.board.vassals[vid].seat;
      if (v.where === "seat" && seat && this.board.locales[seat]) (tags[seat] = tags[seat] || []).push({ kind: "vassal", id: vid });
    }
    const places = new Set([...Object.keys(groups), ...Object.keys(tags)]);
    for (const loc of [...places].sort()) {
      const d = this.board.locales[loc];
      if (!d) continue;
      const lids = groups[loc] || [];
      // your own Lords first (in front, never under the enemy's), then by name
      lids.sort((a, b) => (view.lords[a].side === me ? 0 : 1) - (view.lords[b].side === me ? 0 : 1) || a.localeCompare(b));
      const widths = lids.map((lid) => this.pillWidth(lid));
      // Seat markers and Vassal counters in a column beside the marker, away from its name
      const tagBoxes = [];
      const list = tags[loc] || [];
      const east = d.label !== "e";
      // small square counters, as on the table: the name is in their title and the Locale's panel
      list.forEach((t, i) => {
        const name = t.kind === "seat" ? shortName(this.lordName(t.id)) : this.vassalName(t.id);
        const w = 15;
        // in a row beside the marker: on the right under the corner where a Depleted or
        // Exhausted marker goes, on the left above the Port's anchor
        const x = east ? d.x + 19 + i * 17 : d.x - 19 - w - i * 17;
        const y = east ? d.y - 4 : d.y - 19;
        tagBoxes.push({ ...t, text: name.slice(0, t.kind === "seat" ? 1 : 2), name, x, y, w });
      });
      const tagsBottom = tagBoxes.length ? Math.max(...tagBoxes.map((t) => t.y + 15)) - d.y : 0;
      const places = this.lordPlaces(d, widths, tagsBottom);
      if (d.kind !== "exile") {
        // the Locale's plate: the marker and every piece standing there (the place's shape)
        const xs = [d.x - 20, d.x + 20];
        const ys = [d.y - 20, d.y + 20];
        places.forEach(([x, y], i) => { xs.push(x - widths[i] / 2, x + widths[i] / 2 + 6); ys.push(y - 19, y + 13); });
        for (const t of tagBoxes) { xs.push(t.x, t.x + t.w); ys.push(t.y, t.y + 15); }
        const x0 = Math.min(...xs) - 5;
        const y0 = Math.min(...ys) - 5;
        el("rect", { x: x0, y: y0, width: Math.max(...xs) + 5 - x0, height: Math.max(...ys) + 5 - y0, rx: 12,
          class: `pl-plate${d.kind === "sea" ? " pl-sea-plate" : ""}${lids.length ? "" : " pl-plate-quiet"}`, "data-place": loc }, plates);
      }
      for (const t of tagBoxes) {
        if (t.kind === "seat") {
          const side = view.lords[t.id].side;
          const g = el("g", { class: `pl-seat side-${side}`, "data-seat": t.id, "data-at": loc, transform: `translate(${t.x},${t.y})` }, layer);
          el("title", {}, g).textContent = `Seat of ${this.lordName(t.id)} (${side}, 1.3.1)`;
          el("path", { d: "M0 0 H15 V8 L7.5 15 L0 8 Z", class: "pl-seat-shield" }, g);
          el("text", { x: 7.5, y: 9.5, "text-anchor": "middle" }, g).textContent = t.text;
        } else {
          const v = this.board.vassals[t.id];
          const g = el("g", { class: "pl-vassal-counter", "data-vassal": t.id, "data-at": loc, transform: `translate(${t.x},${t.y})` }, layer);
          el("title", {}, g).textContent = `Vassal ${v.name} at its Seat (Service ${v.service}${v.loyalty ? `, Loyalty ${v.loyalty}` : ""})`;
          el("rect", { x: 0, y: 0, width: 15, height: 15, rx: 1.5 }, g);
          el("text", { x: 7.5, y: 11, "text-anchor": "middle" }, g).textContent = t.text;
        }
      }
      lids.forEach((lid, i) => {
        const [x, y] = places[i];
        this.nodes.lordAt[lid] = [x, y];
        this.drawLord(layer, view, ui, lid, x, y, { moved: moved.has(lid), acting: lid === acting, at: loc });
      });
    }
  }

  /** The width of a Lord's cylinder (map units). */
  pillWidth(lid) { return Math.max(66, this.lordLabel(lid).length * 8.4 + 28); }

  /** An Exile box grown to hold Lords of these widths in rows of two under its name. */
  exileBox(d, widths) {
    const rows = Math.ceil(widths.length / 2);
    let w = d.w;
    for (let r = 0; r < rows; r++) w = Math.max(w, widths.slice(r * 2, r * 2 + 2).reduce((a, x) => a + x + 8, 0) + 12);
    const h = Math.max(d.h, 50 + rows * 33 + 22);
    return { x: d.x - w / 2, y: d.y - d.h / 2, w, h };
  }

  /** Centres for Lords of these widths at a Locale: on the side of the marker with more room
   * (the board's "stack"; at Sea under the Sea's name), rows of two; in an Exile box under its name. */
  lordPlaces(d, widths, tagsBottom = 0) {
    const out = [];
    const n = widths.length;
    if (d.kind === "exile") {
      const top = d.y - d.h / 2 + 50;
      for (let i = 0; i < n; i++) {
        const row = Math.floor(i / 2);
        const pair = widths.slice(row * 2, row * 2 + 2);
        const rowW = pair.reduce((a, x) => a + x, 0) + (pair.length - 1) * 8;
        const left = d.x - rowW / 2;
        const x = i % 2 === 0 ? left + pair[0] / 2 : left + pair[0] + 8 + pair[1] / 2;
        out.push([x, top + row * 33 + 19]);
      }
      return out;
    }
    const down = d.kind === "sea" || d.stack === "s";
    // below a marker whose name is below it, the Lords stand under the name
    const first = Math.max(down && d.kind !== "sea" && d.label === "s" ? 52 : 34, down ? tagsBottom + 22 : 0);
    for (let i = 0; i < n; i++) {
      const row = Math.floor(i / 2);
      const pair = widths.slice(row * 2, row * 2 + 2);
      const rowW = pair.reduce((a, x) => a + x, 0) + (pair.length - 1) * 6;
      const left = d.x - rowW / 2;
      const x = i % 2 === 0 ? left + pair[0] / 2 : left + pair[0] + 6 + pair[1] / 2;
      const y = down ? d.y + first + row * 33 : d.y - 34 - row * 33;
      out.push([x, y]);
    }
    return out;
  }

  drawLord(layer, view, ui, lid, x, y, opts = {}) {
    const l = view.lords[lid];
    const label = this.lordLabel(lid);
    const w = this.pillWidth(lid);
    const g = el("g", { class: `block pl-lord block-${l.side}`, "data-block": lid, "data-at": opts.place || opts.at || "", transform: `translate(${x},${y})` }, layer);
    const title = el("title", {}, g);
    title.textContent = this.lordText(view, lid);
    el("rect", { x: -w / 2, y: -12, width: w, height: 24, rx: 11, class: "block-body" }, g);
    el("text", { x: 6, y: 5, "text-anchor": "middle", class: "pl-lord-name" }, g).textContent = label;
    el("text", { x: -w / 2 + 5, y: 4.5, class: "pl-lord-side" }, g).textContent = SIDE_LETTER[l.side];
    if (opts.moved) {
      const m = el("g", { class: "pl-moved", transform: `translate(${w / 2 - 2},-11)` }, g);
      el("circle", { r: 7.5 }, m);
      el("text", { y: 4, "text-anchor": "middle" }, m).textContent = "M";
    }
    if (opts.acting) g.classList.add("selected");
    if (l.exile) g.classList.add("in-exile");
    const mine = (this.byLord && this.byLord.get(lid)) || [];
    const areaOpts = opts.at && l.side === view.role ? (ui.choices || []).filter((c) => c.kind === "area" && c.ref === opts.at) : [];
    const all = [...mine, ...areaOpts];
    if (all.length) {
      g.classList.add(mine.length ? "legal" : "via-area");
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${this.lordText(view, lid)} — ${all.map((c) => c.label).join("; ")}`);
      const act = (ev) => {
        ev.stopPropagation();
        if (ev.type === "contextmenu") ev.preventDefault();
        if (this.dragged()) return;
        if (ui.onChoices) ui.onChoices(all, g, { more: ev.type === "contextmenu" || ev.shiftKey });
      };
      g.addEventListener("click", act);
      g.addEventListener("contextmenu", act);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(ev); } });
    } else if (opts.at) {
      // a click on a Lord without choices shows his Locale
      g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!this.dragged() && this.page.onArea) this.page.onArea(opts.at, ev); });
    }
    return g;
  }

  lordText(view, lid) {
    const l = view.lords[lid];
    const c = this.board.lords[lid] || {};
    const parts = [`${l.side} Lord ${l.name}`];
    if (c.lordship !== undefined) parts.push(`Lordship ${c.lordship}, Command ${c.command}, Valour ${c.valour}, Influence ${c.influence}`);
    if (l.where === "map") parts.push(`${this.board.locales[l.locale] && this.board.locales[l.locale].kind === "exile" ? "in Exile in" : "at"} ${l.locale}`);
    else if (l.where === "sea") parts.push(`at Sea (${l.locale})`);
    else if (l.where === "calendar") parts.push(`Calendar box ${l.box}${l.exile ? " (Exile)" : ""}`);
    else parts.push(l.where);
    if ((view.moved || []).includes(lid)) parts.push("Moved/Fought");
    if (l.mat === "hidden") parts.push("mat hidden");
    return parts.join(", ");
  }

  drawCalendar(view, ui) {
    if (!this.nodes.calRows) return;
    const current = view.box;
    for (const r of this.board.calendar.rows) {
      const row = this.nodes.calRows[r.box];
      row.classList.toggle("current", r.box === current);
      row.classList.toggle("outside", view.first_box !== undefined && view.first_box !== null && (r.box < view.first_box || r.box > view.last_box));
      row.querySelector(".pl-cal-pieces").replaceChildren();
    }
    const me = view.role;
    const lords = Object.entries(view.lords || {}).filter(([, l]) => l.where === "calendar" && l.box !== null && l.box !== undefined)
      .sort(([a, la], [b, lb]) => (la.side === me ? 0 : 1) - (lb.side === me ? 0 : 1) || a.localeCompare(b));
    const clampBox = (n) => Math.max(1, Math.min(15, n));
    for (const [lid, l] of lords) {
      const row = this.nodes.calRows[clampBox(l.box)];
      const opts = (ui.choices || []).filter((c) => c.kind === "block" && c.ref === lid);
      const label = this.lordLabel(lid);
      const text = this.lordText(view, lid);
      const chip = h(opts.length ? "button" : "span", {
        type: opts.length ? "button" : null, class: `pl-cal-lord block pl-lord block-${l.side}${opts.length ? " legal" : ""}${l.exile ? " in-exile" : ""}`,
        dataset: { block: lid, at: `Calendar box ${clampBox(l.box)}` }, title: text,
        "aria-label": opts.length ? `${text} — ${opts.map((c) => c.label).join("; ")}` : text,
      }, label);
      if (opts.length && ui.onChoices) chip.addEventListener("click", () => ui.onChoices(opts, chip));
      row.querySelector(".pl-cal-pieces").appendChild(chip);
    }
    for (const [vid, v] of Object.entries(view.vassals || {}).sort(([a], [b]) => a.localeCompare(b))) {
      if (!((v.where === "calendar" || v.where === "mat") && v.box !== null && v.box !== undefined)) continue;
      const side = v.lord && view.lords[v.lord] ? view.lords[v.lord].side : null;
      const name = this.vassalName(vid);
      const row = this.nodes.calRows[clampBox(v.box)];
      row.querySelector(".pl-cal-pieces").appendChild(h("span", {
        class: `pl-cal-vassal${side ? ` side-${side}` : ""}`, dataset: { vassal: vid, at: `Calendar box ${clampBox(v.box)}` },
        title: `Vassal ${name}: ${v.where === "mat" ? `serves ${this.lordName(v.lord)} until box ${v.box}` : `ready in box ${v.box}`}`,
      }, name));
    }
    if (current && this.nodes.calRows[current] && this.nodes.tracks) {
      const cal = this.nodes.tracks.querySelector(".pl-cal");
      const li = this.nodes.calRows[current];
      // bring the present box into view only when it is not (the strip scrolls on a phone)
      const left = li.offsetLeft - cal.offsetLeft;
      if (left < cal.scrollLeft || left + li.offsetWidth > cal.scrollLeft + cal.clientWidth) cal.scrollLeft = Math.max(0, left - 8);
    }
  }

  /** A finished game: who won and by which rule, along the top of the board (the board stays as it ended). */
  drawEnd(view) {
    if (!this.nodes.tracks) return;
    let node = this.nodes.tracks.querySelector(".pl-end");
    const end = view.end;
    if (!end) { if (node) node.remove(); return; }
    if (!node) { node = h("p", { class: "pl-end", role: "status" }); this.nodes.tracks.prepend(node); }
    node.replaceChildren(h("strong", {}, end.winner === "Draw" ? "The game ends in a draw" : `${end.winner} wins`),
      ` by ${end.title} (${end.rule}): ${end.why}`);
  }

  drawInfluence(view) {
    if (!this.nodes.tracks) return;
    const t = this.board.influence;
    const bar = this.nodes.tracks.querySelector(".pl-inf-bar");
    const pct = (v) => `${((Math.max(-t.cap, Math.min(t.cap, v)) + t.cap) / (2 * t.cap)) * 100}%`;
    const net = view.influence ? view.influence.net : 0;
    const side = net > 0 ? "York" : net < 0 ? "Lancaster" : null;
    // placed through the style object (inline style attributes are not allowed by the page's policy)
    const at = (node, v) => { node.style.left = pct(v); return node; };
    const parts = [at(h("span", { class: "pl-inf-zero" }), 0)];
    if (view.threshold) {
      for (const v of [view.threshold, -view.threshold]) parts.push(at(h("span", { class: "pl-inf-threshold", title: `Victory threshold ${view.threshold} (5.2)` }), v));
    }
    // Lancaster's lead to the left, York's to the right
    parts.push(at(h("span", { class: `pl-inf-marker side-${side || "none"}` }, String(Math.abs(net))), net));
    bar.replaceChildren(...parts);
    const words = net === 0 ? "even" : `${side} ahead by ${Math.abs(net)}`;
    this.nodes.tracks.querySelector(".pl-inf-text").textContent = `${words}${view.threshold ? ` · a side wins at ${view.threshold} (5.2)` : ""}`;
    this.nodes.tracks.querySelector(".pl-influence").title = `Influence (1.4.1): ${words}`;
  }

  // ------------------------------------------------------------------ panels
  statusFacts(view) {
    const facts = [];
    if (view.end) facts.push(["Result", `${view.end.winner === "Draw" ? "A draw" : `${view.end.winner} wins`} by ${view.end.title} (${view.end.rule}): ${view.end.why}`]);
    if (view.scenario) facts.push(["Scenario", this.board.scenarios[view.scenario] || view.scenario]);
    if (view.box !== null && view.box !== undefined) {
      const r = this.board.calendar.rows[view.box - 1];
      facts.push(["Turn", `box ${view.box}${r ? ` (${r.season})` : ""} of ${view.first_box}–${view.last_box}`]);
    }
    if (view.phase) facts.push(["Phase", STAGE_NAMES[view.phase] || view.phase]);
    if (view.king) facts.push(["Sides", `${view.king} is the King's side, ${view.rebel} the Rebels`]);
    if (view.influence) {
      const i = view.influence;
      facts.push(["Influence", i.net === 0 ? "even" : `${i.net > 0 ? "York" : "Lancaster"} leads by ${Math.abs(i.net)}${view.threshold ? ` (Victory at ${view.threshold})` : ""}`]);
    }
    if (view.stronghold_markers) {
      facts.push(["Strongholds", Object.entries(view.stronghold_markers).map(([t, m]) => `${t} ${m.side ? `${m.side} +${m.value}` : "even"}`).join(", ")]);
    }
    if (view.activation) facts.push(["Acting", `${this.lordName(view.activation.lord)} (${view.activation.side}), ${plural(view.activation.left, "action")} left`]);
    if (view.muster && view.muster.lord) facts.push(["Mustering", `${this.lordName(view.muster.lord)}, ${plural(view.muster.left, "Levy action")} left`]);
    if (view.aow) {
      const held = SIDES.map((s) => { const x = view.aow[s].held; return `${s} ${Array.isArray(x) ? x.length : x}`; }).join(", ");
      facts.push(["Held Events", held]);
    }
    if (view.options && view.options.hidden_mats) facts.push(["Option", "Hidden Mats (1.5.3)"]);
    return facts;
  }

  /** A card of the Arts of War: a button when a choice plays it. */
  aowCard(view, cid, ui, { half = null, extra = null } = {}) {
    const c = this.board.cards[cid];
    const opts = (ui.choices || []).filter((x) => x.kind === "card" && x.ref === cid);
    const text = c ? `${cid} ${c.event.title} (Event, ${TIMING[c.event.timing] || c.event.timing}): ${c.event.effect} — ${c.capability.title} (Capability${c.capability.lords === "any" ? "" : `, ${c.capability.lords.join(", ")}`}): ${c.capability.effect}` : cid;
    const body = [];
    if (c) {
      if (half !== "capability") body.push(h("span", { class: "pl-card-title" }, c.event.title), h("span", { class: "pl-card-kind" }, `Event · ${TIMING[c.event.timing] || c.event.timing}`), h("span", { class: "pl-card-text" }, c.event.effect));
      if (half !== "event") body.push(h("span", { class: "pl-card-title" }, c.capability.title), h("span", { class: "pl-card-kind" }, `Capability${c.capability.lords === "any" ? "" : ` · ${c.capability.lords.map((b) => this.commandTitle(`${b}-1`)).join(", ")}`}`), h("span", { class: "pl-card-text" }, c.capability.effect));
    }
    const node = h(opts.length ? "button" : "div", {
      type: opts.length ? "button" : null, class: `pl-card card side-${c ? c.side : ""}${opts.length ? " legal" : ""}`, dataset: { card: cid }, title: text,
      "aria-label": `${opts.length ? `${opts.map((o) => o.label).join("; ")}: ` : ""}${text}`,
    }, h("span", { class: "pl-card-id" }, `${cid}${c ? ` · ${"✿".repeat(c.roses) || "no rose"}` : ""}`), extra, body);
    if (opts.length && ui.onChoices) node.addEventListener("click", () => ui.onChoices(opts, node));
    return node;
  }

  /** A Command card (4.1): a button when a choice adds it to the Plan. */
  commandCard(view, cid, ui, side) {
    const opts = (ui.choices || []).filter((x) => x.kind === "card" && x.ref === cid);
    const title = this.commandTitle(cid);
    const node = h(opts.length ? "button" : "span", {
      type: opts.length ? "button" : null, class: `chip pl-command side-${side}${opts.length ? " card legal" : ""}`, dataset: { card: cid },
      "aria-label": opts.length ? opts.map((o) => o.label).join("; ") : `Command card: ${title}`,
    }, title);
    if (opts.length && ui.onChoices) node.addEventListener("click", () => ui.onChoices(opts, node));
    return node;
  }

  renderCards(view, ui = {}) {
    const me = view.role;
    const played = [];
    const hand = [];
    // Command cards revealed this Campaign, Plans' sizes (4.1.2, 4.2)
    if (view.command) {
      const rows = SIDES.map((s) => {
        const cm = view.command[s];
        const left = Array.isArray(cm.plan) ? cm.plan.length : cm.plan;
        return h("li", {}, h("strong", {}, `${s}: `),
          cm.revealed.length ? cm.revealed.map((cid) => this.commandCard(view, cid, {}, s)) : "no card revealed",
          left ? ` · ${plural(left, "card")} left in the Plan` : "");
      });
      if (SIDES.some((s) => view.command[s].revealed.length || (Array.isArray(view.command[s].plan) ? view.command[s].plan.length : view.command[s].plan))) {
        played.push(h("h3", {}, "Command cards this Campaign"), h("ul", { class: "played" }, rows));
      }
    }
    const effect = SIDES.flatMap((s) => (view.aow ? view.aow[s].in_effect : []).map((cid) => this.aowCard(view, cid, ui, { half: "event" })));
    if (effect.length) played.push(h("h3", {}, "Events in effect"), h("div", { class: "pl-cards" }, effect));
    // the own Plan
    if (me && view.command && view.command[me]) {
      const draft = view.plan_draft;
      const adds = (ui.choices || []).filter((c) => c.verb === "add" && c.kind === "card");
      if (Array.isArray(draft) && (adds.length || draft.length || (view.actions && view.actions.lock))) {
        hand.push(h("h3", {}, `Your Plan being built (top first)${(view.plan_locked || []).includes(me) ? ": locked in" : ""}`),
          h("p", { class: "chips pl-plan" }, draft.length ? draft.map((cid, i) => h("span", { class: "pl-plan-slot" }, `${i + 1}. `, this.commandCard(view, cid, {}, me))) : "no card yet"));
        if (adds.length) hand.push(h("p", { class: "small" }, "Add a card (the three cards of a Lord are alike):"), h("p", { class: "chips" }, adds.map((c) => this.commandCard(view, c.ref, ui, me))));
      } else if (Array.isArray(view.command[me].plan) && view.command[me].plan.length) {
        hand.push(h("h3", {}, "Your Plan (next card first)"), h("p", { class: "chips" }, view.command[me].plan.map((cid) => this.commandCard(view, cid, ui, me))));
      }
      const other = SIDES.find((s) => s !== me);
      if (other && (view.plan_locked || []).length) hand.push(h("p", { class: "small" }, `${other} ${(view.plan_locked || []).includes(other) ? "has locked in its Plan" : "is building its Plan"} (hidden until both lock in, 4.1.2).`));
    }
    // Arts of War: own drawn and Held cards, the other side's count
    if (me && view.aow && view.aow[me]) {
      const a = view.aow[me];
      if (Array.isArray(a.drawn) && a.drawn.length) hand.push(h("h3", {}, "Drawn (3.1)"), h("div", { class: "pl-cards" }, a.drawn.map((cid) => this.aowCard(view, cid, ui))));
      if (Array.isArray(a.held) && a.held.length) hand.push(h("h3", {}, `Your Held Events (${a.held.length})`), h("div", { class: "pl-cards" }, a.held.map((cid) => this.aowCard(view, cid, ui, { half: "event" }))));
      // cards chosen from the deck (Levy Capability 3.4.6, Bosworth picks)
      const fromDeck = [...new Set((ui.choices || []).filter((c) => c.kind === "card" && AOW_CARD.test(c.ref) && !(a.held || []).includes(c.ref) && !(a.drawn || []).includes(c.ref)).map((c) => c.ref))];
      if (fromDeck.length) hand.push(h("h3", {}, "Cards you may take"), h("div", { class: "pl-cards" }, fromDeck.map((cid) => this.aowCard(view, cid, ui, { half: "capability" }))));
      const other = SIDES.find((s) => s !== me);
      const oa = view.aow[other];
      if (oa) hand.push(h("p", { class: "small" }, `${other}: ${plural(count(oa.held), "Held Event")}, ${plural(count(oa.deck), "card")} in its Arts of War deck. You: ${plural(count(a.deck), "card")} in your deck.`));
    }
    if (view.bosworth && view.bosworth.capabilities) {
      hand.push(h("h3", {}, "Your secret Bosworth choices"), h("ul", {}, view.bosworth.capabilities.map(([cid, lid]) => h("li", {}, `${cid} ${this.board.cards[cid] ? this.board.cards[cid].capability.title : ""} for ${this.lordName(lid)}`)),
        Object.entries(view.bosworth.front || {}).map(([slot, lid]) => h("li", {}, `Front ${slot}: ${this.lordName(lid)}`))));
    }
    return { played: played.length ? h("div", {}, played) : null, hand };
  }

  /** A Lord's mat (1.5.3) drawn as a mat: his card's ratings on top, then the spaces for
   * Troops (Forces), Vassals, Assets and Capabilities. Own Lords fully; the other side's under
   * Hidden Mats only in Battle (the rest of the mat is a blank). */
  matNodes(view, lid, ui, battleLord = null) {
    const l = view.lords[lid];
    const mat = l.mat;
    if (mat === undefined) return [];
    if (mat === "hidden") return [h("div", { class: "pl-mat pl-mat-hidden" }, h("span", { class: "muted small" }, "Mat hidden: Hidden Mats (1.5.3) show it only in Battle."))];
    const hits = (ui.choices || []).filter((c) => c.verb === "hit" && typeof c.arg === "string" && c.arg.startsWith(`${lid}:`));
    const unit = (u, text, routed = false) => {
      const opts = hits.filter((c) => c.arg === `${lid}:${u}`);
      if (opts.length && ui.onChoices) {
        const b = h("button", { type: "button", class: `chip legal side-${l.side}`, dataset: { unit: `${lid}:${u}` }, "aria-label": opts.map((c) => c.label).join("; ") }, text);
        b.addEventListener("click", () => ui.onChoices(opts, b));
        return b;
      }
      return h("span", { class: `chip${routed ? " pl-routed" : ""}`, dataset: { unit: `${lid}:${u}` } }, text);
    };
    const space = (title, cls, items, empty = "none") => h("div", { class: `pl-mat-space ${cls}` }, h("span", { class: "pl-mat-label" }, title),
      h("div", { class: "pl-mat-items" }, items.length ? items : h("span", { class: "muted small" }, empty)));
    // Forces: the Retinue (in Battle), each Troop type as a stack with its count
    const troops = [];
    if (battleLord) troops.push(unit("retinue", battleLord.retinue_routed ? "Retinue (Routed)" : "Retinue", battleLord.retinue_routed));
    for (const t of this.board.troop_types) {
      if (mat.troops[t]) troops.push(unit(t, `${mat.troops[t]} ${TROOP_NAMES[t]}`));
      if (mat.routed[t]) troops.push(h("span", { class: "chip pl-routed", title: "Routed (4.4.2)" }, `${mat.routed[t]} ${TROOP_NAMES[t]} Routed`));
    }
    const vassals = [...mat.vassals, ...mat.special_vassals].map((v) => {
      const routed = battleLord && battleLord.vassals_routed.includes(v);
      return unit(v, `${this.vassalName(v)}${routed ? " (Routed)" : ""}`, routed);
    });
    const assets = Object.keys(ASSET_NAMES).map((k) => h("span", { class: `pl-asset${mat.assets[k] ? "" : " none"}`, title: ASSET_NAMES[k] },
      h("b", {}, String(mat.assets[k] || 0)), ` ${ASSET_NAMES[k]}`));
    const caps = mat.capabilities.map((cid) => {
      const c = this.board.cards[cid];
      return h("span", { class: "pl-cap", title: c ? c.capability.effect : "" }, c ? c.capability.title : "Capability");
    });
    const events = mat.events.map((cid) => { const c = this.board.cards[cid]; return h("span", { class: "pl-cap", title: c ? c.event.effect : "" }, c ? c.event.title : "Event"); });
    return [h("div", { class: `pl-mat side-${l.side}`, dataset: { mat: lid } },
      space("Forces", "pl-mat-troops", troops),
      space("Vassals", "pl-mat-vassals", vassals),
      space("Assets", "pl-mat-assets", assets),
      space("Capabilities", "pl-mat-caps", [...caps, ...events]))];
  }

  /** A Lord's name: a button when a choice is about him. */
  lordChip(view, lid, ui) {
    const l = view.lords[lid];
    const opts = (ui.choices || []).filter((c) => c.kind === "block" && c.ref === lid);
    const text = l.name;
    if (opts.length && ui.onChoices) {
      const b = h("button", { type: "button", class: `chip legal side-${l.side}`, dataset: { block: lid }, "aria-label": `${this.lordText(view, lid)}: ${opts.map((c) => c.label).join("; ")}` }, text);
      b.addEventListener("click", () => ui.onChoices(opts, b));
      return b;
    }
    return h("span", { class: `chip side-${l.side}`, dataset: { block: lid } }, text);
  }

  /** Where a Lord is, in words. */
  whereText(l) {
    if (l.where === "map") return `${this.board.locales[l.locale] && this.board.locales[l.locale].kind === "exile" ? "in Exile in " : "at "}${l.locale}`;
    if (l.where === "sea") return `at Sea (${l.locale})`;
    if (l.where === "calendar") return `on the Calendar, box ${l.box}${l.exile ? " (in Exile)" : ""}`;
    return { removed: "removed from the game", held: "held captive", unused: "not in this scenario", ready: "ready to be Mustered" }[l.where] || l.where;
  }

  renderForces(view, ui = {}) {
    const out = [];
    const me = view.role;
    const order = [...SIDES].sort((a, b) => (a === me ? -1 : b === me ? 1 : 0));
    for (const side of order) {
      const lords = Object.entries(view.lords || {}).filter(([, l]) => l.side === side && l.where !== "unused");
      if (!lords.length) continue;
      out.push(h("h3", {}, `${side}${side === me ? " (you)" : ""}`));
      const list = h("ul", { class: "pl-lords" });
      for (const [lid] of lords) {
        const l = view.lords[lid];
        const c = this.board.lords[lid] || {};
        list.appendChild(h("li", { dataset: { lord: lid } },
          h("div", { class: `pl-mat-head side-${l.side}` }, this.lordChip(view, lid, ui), h("span", { class: "small" }, ` ${this.whereText(l)}`),
            (view.moved || []).includes(lid) ? h("span", { class: "small" }, " · has Moved or Fought") : null,
            h("span", { class: "pl-ratings", title: "The Lord's card (1.5.2)" },
              ["Lordship", "Command", "Valour", "Influence"].map((k) => h("span", { class: "pl-rating" }, h("b", {}, String(c[k.toLowerCase()] ?? "")), ` ${k}`)))),
          this.matNodes(view, lid, ui)));
      }
      out.push(list);
    }
    return out;
  }

  renderBattle(view, ui = {}) {
    const b = view.battle;
    if (!b) return this.battleSummary(view);
    const parts = [];
    parts.push(h("p", { class: "battle-head" }, h("strong", {}, b.locale ? `Battle at ${b.locale}` : "On Bosworth Field"),
      b.round ? ` — Round ${b.round}` : " — the sides Array", `. ${b.attacker} Attacks, ${b.defender} Defends.`));
    if (b.strike) {
      parts.push(h("p", { class: "pl-strike" }, `${cap(b.strike.kind)}: `, Object.entries(b.strike.hits).map(([s, n]) => `${s} takes ${plural(n, "Hit")}`).join(", "), " (4.4.2)."));
    }
    if (b.winner) parts.push(h("p", {}, h("strong", {}, `${b.winner} wins the Battle.`)));
    // the Battle mat: the Defender's array across the top, facing the Attacker's below it
    const mat = h("div", { class: "pl-battle-mat" });
    for (const side of [b.defender, b.attacker]) {
      const front = b.front[side] || {};
      const row = h("div", { class: `pl-battle-side side-${side}` }, h("div", { class: "pl-battle-side-name" }, `${side} — ${side === b.attacker ? "Attacker" : "Defender"}`));
      const grid = h("div", { class: "pl-battle-row" });
      for (const slot of ["left", "center", "right"]) {
        const lid = front[slot];
        grid.appendChild(h("div", { class: `pl-battle-slot${lid ? "" : " empty"}`, dataset: { slot: `${side}:${slot}` } },
          h("span", { class: "pl-slot-name" }, `Front ${slot === "center" ? "centre" : slot}`), lid ? this.battleLord(view, lid, ui) : h("span", { class: "muted small" }, "empty")));
      }
      const reserve = b.reserve[side] || [];
      const placed = new Set([...Object.values(front), ...reserve]);
      const others = Object.entries(b.lords).filter(([lid, d]) => d.side === side && !placed.has(lid)).map(([lid]) => lid);
      grid.appendChild(h("div", { class: `pl-battle-slot pl-reserve${reserve.length || others.length ? "" : " empty"}`, dataset: { slot: `${side}:reserve` } },
        h("span", { class: "pl-slot-name" }, "Reserve"),
        reserve.length || others.length ? [...reserve.map((lid) => this.battleLord(view, lid, ui)),
          ...others.map((lid) => h("div", {}, h("span", { class: "small" }, lid === b.late ? "Late: " : "Not arrayed: "), this.battleLord(view, lid, ui)))]
          : h("span", { class: "muted small" }, "empty")));
      row.appendChild(grid);
      mat.appendChild(row);
    }
    parts.push(mat);
    if (b.engagements && b.engagements.length) {
      parts.push(h("h3", {}, "Engagements"), h("ol", {}, b.engagements.map((eng, i) => h("li", { class: b.strike && b.strike.engagement === i ? "pl-current" : "" }, eng.map((lid) => this.lordName(lid)).join(" against ")))));
    }
    return parts;
  }

  /** After a Battle: its story from the log (who fought, who Fled or Routed, the winner, the
   * Influence, Spoils and losses), kept until the next Battle or the next Campaign card. */
  battleSummary(view) {
    const lines = (view.log || []).map((l) => (typeof l === "string" ? l : Array.isArray(l) ? l[l.length - 1] : String(l)));
    const kinds = view.log_kinds || [];
    let start = -1;
    for (let i = lines.length - 1; i >= 0; i--) if (/^Battle at .*\(4\.4\)|^On Bosworth Field/.test(lines[i])) { start = i; break; }
    if (start < 0) return null;
    const story = [];
    for (let i = start; i < lines.length; i++) {
      if (i > start && kinds[i] && kinds[i] !== "battle" && kinds[i] !== "event" && kinds[i] !== "card") break;
      story.push(lines[i]);
    }
    const won = story.find((t) => /wins the Battle|both sides lose the Battle/.test(t));
    return [h("div", { class: "pl-battle-summary" },
      h("p", {}, h("strong", {}, "The last Battle is over"), won ? `: ${won}` : "."),
      h("ol", { class: "small" }, story.map((t) => h("li", {}, t))))];
  }

  battleLord(view, lid, ui) {
    const d = view.battle.lords[lid];
    if (!view.lords[lid]) return h("span", {}, lid);
    const state = d.fled ? "Fled" : d.routed ? "Routed" : `Valour ${d.valour}`;
    return h("span", { class: "pl-battle-lord" }, this.lordChip(view, lid, ui), ` ${state}`, this.matNodes(view, lid, ui, d));
  }
}

function count(x) { return Array.isArray(x) ? x.length : Number(x) || 0; }

/** Where the line from box `p` (half sizes hw, hh; 0 for a point) toward `q` leaves the box. */
function edgePoint(p, q, hw = 0, hh = 0) {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  if (!hw && !hh) { const d = Math.hypot(dx, dy) || 1; return [p.x + (dx / d) * 36, p.y + (dy / d) * 36]; }
  const t = Math.min(hw / Math.abs(dx || 1e-9), hh / Math.abs(dy || 1e-9));
  return [p.x + dx * t, p.y + dy * t];
}

/** The marker of a Stronghold by type (not by colour alone): City a square, Town a circle,
 * Fortress a tower, London, Calais and Harlech larger with a double rim. */
function stronghold(g, d) {
  const { x, y } = d;
  let shape;
  if (d.type === "Town") shape = el("circle", { cx: x, cy: y, r: 10 }, g);
  else if (d.type === "City") shape = el("rect", { x: x - 11, y: y - 11, width: 22, height: 22 }, g);
  else if (d.type === "London") {
    el("rect", { x: x - 17, y: y - 17, width: 34, height: 34, class: "pl-rim" }, g);
    shape = el("rect", { x: x - 13, y: y - 13, width: 26, height: 26 }, g);
  } else {
    const r = d.type === "Fortress" ? 12 : 15;
    if (d.type !== "Fortress") el("path", { d: tower(x, y, r + 4), class: "pl-rim" }, g);
    shape = el("path", { d: tower(x, y, r) }, g);
  }
  shape.classList.add("area-shape", "pl-marker");
  el("text", { x, y: y + 5, "text-anchor": "middle", class: "pl-favour" }, g);
}

/** A small castle outline (battlements) of half-size r centred on (x, y). */
function tower(x, y, r) {
  const s = r / 3;
  return `M${x - r} ${y + r} V${y - r} H${x - r + s} V${y - r + s} H${x - s / 2} V${y - r} H${x + s / 2} V${y - r + s} H${x + r - s} V${y - r} H${x + r} V${y + r} Z`;
}

/** Where a Locale's name goes: [x, y, text-anchor]. */
/** A Locale's name drawn on side `side` of its marker: the box it covers (map units). */
function labelBox(d, side, width) {
  const [x, y, anchor] = labelAt({ ...d, label: side });
  const x0 = anchor === "middle" ? x - width / 2 : anchor === "end" ? x - width : x;
  const size = d.type === "London" ? 20 : 16;  // the font's ascent and descent, and a margin
  return [x0 - 4, y - size * 0.95 - 1, x0 + width + 4, y + size * 0.25 + 1];
}

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/** Every Locale's name clear of the other names and of the other Strongholds' markers and
 * Ports: a name that would cross one is drawn on another side of its marker (the board's
 * side first, then east, west, north, south), never on the side where its Lords stand (the
 * board's "stack"). Sets `label` of the board's Locales, which the whole drawing follows;
 * widths measured with the names' font. Deterministic: Locales in the board's order. */
function clearLabels(board) {
  if (board.labelsCleared) return;
  board.labelsCleared = true;
  const ctx = document.createElement("canvas").getContext("2d");
  const family = '"DejaVu Sans", "Segoe UI", Arial, sans-serif';
  const names = Object.entries(board.locales).filter(([, d]) => d.kind === "stronghold");
  const width = {};
  for (const [name, d] of names) {
    ctx.font = d.type === "London" ? `800 20px ${family}` : `600 16px ${family}`;
    width[name] = ctx ? ctx.measureText(name).width : name.length * 10;
  }
  const marks = [];
  for (const [name, d] of Object.entries(board.locales)) {
    if (d.kind === "exile") marks.push([name, [d.x - d.w / 2, d.y - d.h / 2, d.x + d.w / 2, d.y + d.h / 2]]);
    if (d.kind !== "stronghold") continue;
    const r = d.type === "London" ? 18 : 16;
    marks.push([name, [d.x - r, d.y - r, d.x + r, d.y + r]]);
    if (d.port) marks.push([name, [d.x - 28, d.y + 4, d.x - 10, d.y + 22]]);
    // where its first row of Lords stands (lordPlaces): another Locale's name is not put there
    marks.push([name, d.stack === "s" ? [d.x - 66, d.y + 22, d.x + 66, d.y + 46] : [d.x - 66, d.y - 46, d.x + 66, d.y - 22]]);
  }
  const box = {};
  for (const [name, d] of names) box[name] = labelBox(d, d.label, width[name]);
  const free = (name, b) => !names.some(([n]) => n !== name && overlaps(b, box[n]))
    && !marks.some(([n, m]) => n !== name && overlaps(b, m));
  for (const [name, d] of names) {
    if (free(name, box[name])) continue;
    for (const side of [d.label, "e", "w", "n", "s"]) {
      if (side === d.stack) continue;
      const b = labelBox(d, side, width[name]);
      if (free(name, b)) { d.label = side; box[name] = b; break; }
    }
    if (!free(name, box[name])) board.crowdedLabels = [...(board.crowdedLabels || []), name];
  }
}

function labelAt(d) {
  const big = d.type === "London" ? 22 : 16;
  switch (d.label) {
    case "n": return [d.x, d.y - big - 6, "middle"];
    case "e": return [d.x + big + 4, d.y + 5, "start"];
    case "w": return [d.x - big - 4, d.y + 5, "end"];
    default: return [d.x, d.y + big + 14, "middle"];
  }
}

/** The legend, as HTML (readable on phones). */
function legend() {
  const row = (svg, text) => h("li", {}, svgIcon(svg), ` ${text}`);
  const ul = h("ul", { class: "legend" });
  for (const [t, s] of Object.entries(WAY_STYLE)) {
    ul.appendChild(row(`<line x1="2" y1="9" x2="42" y2="9" stroke="${s.colour}" stroke-width="${Math.min(6, s.width)}" ${s.dash ? `stroke-dasharray="${s.dash}"` : ""} stroke-linecap="round"/>`, s.label));
  }
  ul.appendChild(row(`<line x1="2" y1="9" x2="36" y2="9" stroke="#6f5a3a" stroke-width="3" stroke-dasharray="2 7"/><path d="M34 4 L42 9 L34 14 Z" fill="#5a4630"/>`, "One-way Path from Scotland (1.3.1)"));
  ul.appendChild(row(`<rect x="13" y="1" width="16" height="16" fill="#d7d1c2" stroke="#1d1a14"/>`, "City (square)"));
  ul.appendChild(row(`<circle cx="21" cy="9" r="7.5" fill="#d7d1c2" stroke="#1d1a14"/>`, "Town (circle)"));
  ul.appendChild(row(`<path d="${tower(21, 9, 7)}" fill="#d7d1c2" stroke="#1d1a14"/>`, "Fortress (tower); London, Calais, Harlech larger with a rim"));
  ul.appendChild(row(`<rect x="13" y="1" width="16" height="16" fill="#f7f3e8" stroke="#1d1a14"/><text x="21" y="14" text-anchor="middle" font-size="11" font-weight="700">Y</text><rect x="31" y="1" width="12" height="16" fill="#a61f1a" stroke="#1d1a14"/><text x="37" y="14" text-anchor="middle" font-size="11" fill="#fff" font-weight="700">L</text>`, "Favour: Y York (light), L Lancaster (red); no letter: Neutral"));
  ul.appendChild(row(`<circle cx="12" cy="9" r="7.5" fill="#d9a441" stroke="#1d1a14"/><text x="12" y="13" text-anchor="middle" font-size="10" font-weight="700">D</text><circle cx="32" cy="9" r="7.5" fill="#5b3a1a" stroke="#1d1a14"/><text x="32" y="13" text-anchor="middle" font-size="10" fill="#fff" font-weight="700">E</text>`, "Depleted / Exhausted (1.3.1)"));
  ul.appendChild(row(`<circle cx="21" cy="9" r="7.5" fill="#fff" stroke="#0f5e7a" stroke-width="1.6"/><path d="M21 5 V13 M18 7 H24 M16.5 10.5 C17.5 14 24.5 14 25.5 10.5" fill="none" stroke="#0f5e7a" stroke-width="1.5"/>`, "Port, coloured by its Sea (North Sea teal, Channel blue, Irish Sea violet)"));
  ul.appendChild(row(`<rect x="2" y="2" width="40" height="14" rx="7" fill="#f7f3e8" stroke="#1d1a14"/><text x="8" y="13" font-size="8" font-weight="800">Y</text><text x="26" y="13" text-anchor="middle" font-size="9">York</text>`, "Lord cylinder: Y York, L Lancaster (M: Moved or Fought)"));
  ul.appendChild(row(`<path d="M4 2 H17 V9 L10.5 16 L4 9 Z" fill="#a61f1a" stroke="#1d1a14"/><rect x="24" y="2" width="14" height="14" fill="#e9d9a8" stroke="#6f5a3a"/><text x="31" y="12.5" text-anchor="middle" font-size="8">Be</text>`, "Beside a Stronghold: a Lord's Seat (shield in his side's colour, his initial) and a Vassal counter at its Seat (buff, the first letters of its name)"));
  ul.appendChild(row(`<rect x="2" y="1" width="40" height="16" rx="5" fill="#fffcf0" stroke="#8a7650"/><rect x="16" y="5" width="12" height="9" fill="#d7d1c2" stroke="#1d1a14"/>`, "A Locale's Lords stand on a pale plate around its marker"));
  ul.appendChild(row(`<rect x="2" y="3" width="18" height="12" fill="#fff1b8" stroke="#1d1a14"/><rect x="22" y="3" width="18" height="12" fill="#fffdf6" stroke="#8d826c"/>`, "Calendar (top of the board): the present box in yellow; Lords and Vassals due back in their boxes"));
  ul.appendChild(row(`<rect x="2" y="2" width="40" height="14" rx="3" fill="none" stroke="#0b6b2f" stroke-width="3" stroke-dasharray="6 3"/>`, "Outlined in green: you can choose it now"));
  ul.appendChild(row(`<line x1="2" y1="9" x2="26" y2="9" stroke="#d35400" stroke-width="3" stroke-dasharray="6 3"/><circle cx="35" cy="9" r="7" fill="none" stroke="#d35400" stroke-width="2" stroke-dasharray="3 2"/>`, "The other side's last moves: from where the Lords left to the Locale they reached (ringed)"));
  return ul;
}

function svgIcon(inner) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("width", "44");
  s.setAttribute("height", "18");
  s.setAttribute("aria-hidden", "true");
  s.innerHTML = inner;  // our own fixed markup (no view data)
  return s;
}
