// Roses: Richard III on the page (the game module for "richard3", see index.js). Loads the
// map layout and draws one role's view (and nothing else) onto the map and the side panels:
// pieces, cards, battle, forces, area details; turns clicks into the view's legal actions.
// The view comes from roses/games/richard3/views.py: areas, blocks, cards and borders are ids
// (the layout's area_order / borders list give the names). Action texts come from the
// server's `labels` (the rules' label()), through actions.js.

import { describeArea, drawMap, el, enablePanZoom, legendHTML } from "../map.js";
import { h } from "../api.js";
import { actionLabel } from "../actions.js";

// Verbs whose argument is a card id; every other argument is an area name, a block key, a
// sea zone, or a list [acting block, target] (battle turns, retreats, regroups).
const CARD_VERBS = new Set(["play"]);

/** The module's entry point (games/index.js): load the layout, draw the map. */
export async function create(page) {
  const layout = await (await fetch("/static/richard3/layout.json")).json();
  const game = new Richard3(layout);
  game.map = drawMap(page.svg, layout, { onArea: page.onArea });
  game.pan = enablePanZoom(page.svg, layout, page.zoom);
  if (page.legend) page.legend.innerHTML = legendHTML();
  return game;
}

export function shortName(name) {
  return String(name)
    .replace(/^(Duke|Earl|Viscount|Lord|Prince) (of )?/, "")
    .replace(/ \((church|levy|mercenary)\)$/, "");
}

const TYPE_MARK = { heir: "♔", church: "✝", levy: "⚑", merc: "$", bombard: "●", rebel: "✦", noble: "" };

export class Richard3 {
  constructor(layout) {
    this.layout = layout;
    this.areaNames = layout.area_order;
    this.borders = layout.borders;
    this.hasMap = true;
    this.map = null;
    this.pan = null;
    this.focused = false;
    this.lastBattle = null;
    this.history = { area: null, seen: new Set(), lines: [] };
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

  /** Flatten view.actions into [{verb, arg, kind, ref, label}]. */
  choices(view) {
    const out = [];
    for (const [verb, args] of Object.entries(view.actions || {})) {
      const list = args === true ? [null] : args || [];
      for (const arg of list) {
        const { kind, ref } = this.classify(view, verb, arg);
        out.push({ verb, arg, kind, ref, label: this.label(view, verb, arg) });
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the board
  /** Draw the view onto the map; on a small screen, frame the own forces or a new battle. */
  draw(view, ui, payload = {}) {
    const map = this.map;
    this.drawPieces(map, view, ui);
    // On a small screen the first view is zoomed to the player's own forces (readable text);
    // the ⤢ button shows the whole map.
    if (!this.focused && this.pan && map.svg.clientWidth < 600 && payload.status !== "open") {
      this.focused = true;
      const pts = (view.blocks || []).filter((b) => b.where in this.layout.areas).map((b) => this.layout.areas[b.where].label);
      const [cx, cy] = pts.length
        ? [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length]
        : [700, 800];
      this.pan.focus(cx, cy, 640);
    }
    // On a small screen, a new battle brings its area into view (the zoom buttons undo it).
    const battleArea = view.battle && view.battle.area !== undefined ? this.areaName(view.battle.area) : null;
    if (battleArea && battleArea !== this.lastBattle && map.svg.clientWidth < 700 && this.pan) {
      const [x, y] = this.layout.areas[battleArea].label;
      this.pan.focus(x, y + 60, 520);
    }
    this.lastBattle = battleArea;
  }

  /** What the page knows about an area: map facts and the pieces this view shows there. */
  areaInfo(name, view) {
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
    const layer = map.pieceLayer;
    layer.replaceChildren();
    const me = view.role || ui.role;
    const choices = ui.choices || [];
    const legalAreas = new Map();
    const legalBlocks = new Map();
    for (const c of choices) {
      const bucket = c.kind === "area" ? legalAreas : c.kind === "block" ? legalBlocks : null;
      if (!bucket) continue;
      if (!bucket.has(c.ref)) bucket.set(c.ref, []);
      bucket.get(c.ref).push(c);
    }
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
    // hidden blocks of one side in one area: a single face-down stack with its count
    if (view.hidden) {
      for (const [area, bySide] of Object.entries(view.hidden)) {
        for (const [side, n] of Object.entries(bySide)) if (n > 0) push(area, { side, known: false, count: n });
      }
    }
    for (const [area, items] of Object.entries(byArea)) {
      const anchor = map.anchors[area];
      if (!anchor) continue;
      items.sort((a, b) => (a.side === me ? 0 : 1) - (b.side === me ? 0 : 1));
      const perRow = area === "France" || area === "Scotland" ? 5 : 3;
      const size = 40;
      const gap = 3;
      const rows = Math.ceil(items.length / perRow);
      items.forEach((item, i) => {
        const row = Math.floor(i / perRow);
        const inRow = row === rows - 1 ? items.length - row * perRow : perRow;
        const col = i % perRow;
        const x = anchor[0] - (inRow * (size + gap) - gap) / 2 + col * (size + gap);
        const y = anchor[1] + row * (size + gap);
        const g = this.drawBlock(layer, item, x, y, size, me);
        const legal = item.known && legalBlocks.has(item.key);
        if (legal) {
          g.classList.add("legal");
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          const opts = legalBlocks.get(item.key);
          g.setAttribute("aria-label", `${blockText(item, area)} — ${opts.map((c) => c.label).join("; ")}`);
          const act = (ev) => { ev.stopPropagation(); ui.onChoices(opts, g); };
          g.addEventListener("click", act);
          g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(ev); } });
        } else if (item.known && item.side === me) {
          g.setAttribute("tabindex", "-1");
        }
        const selected = view.action && typeof view.action.selected === "string" ? view.action.selected : ui.selectedBlock;
        if (selected && item.key === selected) {
          g.classList.add("selected");
          g.querySelector("title").textContent += " (the block being moved)";
        }
      });
    }
    return { legalAreas, legalBlocks };
  }

  drawBlock(layer, item, x, y, drawn, me) {
    const side = item.side || "Rebel";
    const size = 36;  // drawn at 36 units, scaled to `drawn`
    const g = el("g", { class: `block block-${side}${item.known ? "" : " hidden-block"}${item.down ? " down" : ""}${item.moved ? " moved" : ""}`, transform: `translate(${x},${y}) scale(${drawn / size})` }, layer);
    if (item.known) g.dataset.block = item.key || String(item.id);
    g.dataset.side = side;
    el("rect", { x: 0, y: 0, width: size, height: size, rx: 4, class: "block-body" }, g);
    const title = el("title", {}, g);
    if (!item.known) {
      const n = item.count || 1;
      title.textContent = `${n} hidden ${side} block${n === 1 ? "" : "s"}`;
      g.setAttribute("aria-label", title.textContent);
      g.dataset.count = String(n);
      if (n > 1) el("rect", { x: 3, y: -3, width: size, height: size, rx: 4, class: "block-body block-under" }, g).parentNode.insertBefore(g.lastChild, g.firstChild);
      const t = el("text", { x: size / 2, y: n > 1 ? size / 2 + 1 : size / 2 + 6, "text-anchor": "middle", class: "block-back" }, g);
      t.textContent = side === "York" ? "Y" : side === "Lancaster" ? "L" : "R";
      if (n > 1) el("text", { x: size / 2, y: size - 4, "text-anchor": "middle", class: "block-count" }, g).textContent = `×${n}`;
      return g;
    }
    title.textContent = blockText(item);
    const name = el("text", { x: size / 2, y: 10, "text-anchor": "middle", class: "block-name" }, g);
    name.textContent = shortName(item.name || "").slice(0, 9);
    const mark = TYPE_MARK[item.type] || "";
    const rating = el("text", { x: size / 2, y: 24, "text-anchor": "middle", class: "block-rating" }, g);
    rating.textContent = `${mark}${item.rating || ""}`;
    const max = item.max || item.steps || 0;
    const pip = 5.2;
    const startX = size / 2 - (max * pip) / 2 + pip / 2;
    for (let i = 0; i < max; i++) {
      el("circle", { cx: startX + i * pip, cy: size - 5.5, r: 2, class: i < item.steps ? "pip on" : "pip off" }, g);
    }
    // the side as a letter too, not by colour alone
    el("text", { x: 2.5, y: size - 3, class: "block-side" }, g).textContent = side === "York" ? "Y" : side === "Lancaster" ? "L" : "R";
    if (item.moved) el("text", { x: size - 3, y: 19, "text-anchor": "end", class: "block-flag" }, g).textContent = "→";
    if (item.down) el("text", { x: size / 2, y: size / 2 + 2, "text-anchor": "middle", class: "block-flag" }, g).textContent = "down";
    return g;
  }

  // ------------------------------------------------------------------ panels
  statusFacts(view) {
    const facts = [];
    if (view.scenario) facts.push(["Scenario", view.scenario]);
    if (view.campaign) facts.push(["Campaign", `${view.campaign} of ${view.last_campaign || 3}, turn ${view.turn} of 7`]);
    if (view.phase) facts.push(["Phase", view.phase]);
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
    if (view.decision) facts.push(["Decision", `${view.decision.player}: ${view.decision.kind}${view.decision.area !== undefined ? ` in ${this.areaName(view.decision.area)}` : ""}`]);
    return facts;
  }

  /** The "Cards" panel: the cards played this turn and the own hand (playable ones are buttons). */
  renderCards(view, ui = {}) {
    const played = this.renderPlayed(view);
    const cards = (view.hand || []).map((c) => {
      const choice = (ui.choices || []).find((x) => x.kind === "card" && x.arg === c.id);
      const card = h(choice ? "button" : "div", {
        class: `card${c.event ? " event" : ""}${choice ? " legal" : ""}`, type: choice ? "button" : null,
        dataset: { card: String(c.id) }, "aria-label": `${choice ? "Play " : ""}${c.name}, ${c.ap} action points${c.event ? ", event" : ""}`,
      }, h("span", { class: "card-ap" }, String(c.ap)), h("span", { class: "card-name" }, c.name),
         c.event ? h("span", { class: "card-kind" }, "Event") : h("span", { class: "card-kind" }, "Action"));
      if (choice && ui.onChoices) card.addEventListener("click", () => ui.onChoices([choice], card));
      return card;
    });
    const ap = (view.hand || []).reduce((s, c) => s + (c.ap || 0), 0);
    const hand = cards.length ? [h("h3", {}, `Your hand (${cards.length} cards, ${ap} AP)`), h("div", { class: "cards" }, cards)] : [];
    return { played, hand };
  }

  renderPlayed(view) {
    const played = view.played || {};
    const items = Object.entries(played).map(([role, card]) => {
      const text = card === null || card === undefined ? "not played yet" : card === "hidden" ? "played, face down"
        : typeof card === "object" ? `${card.name} (${card.ap} AP${card.event ? ", event" : ""})` : String(card);
      return h("li", {}, h("strong", {}, `${role}: `), text);
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
        out.push(h("p", { class: "chips" }, h("strong", {}, `${where[0].toUpperCase()}${where.slice(1)}: `), groups[where].map((b) => this.blockChip(view, b, ui))));
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
