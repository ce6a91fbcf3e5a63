// Roses: Richard III on the page. Draws one role's view (and nothing else) onto the map and
// the side panels, and turns clicks into the view's legal actions.
// The view comes from roses/games/richard3/views.py: areas, blocks, cards and borders are ids
// (the layout's area_order / borders list give the names).

import { el } from "./map.js";
import { h } from "./api.js";

// How each verb's argument is to be found on the page.
export const VERB_TARGET = {
  play: "card",
  move: "area", to: "area", sea_to: "area", place: "area", muster: "area", plague: "area",
  battle: "area", enter: "area", home: "area",
  block: "block", sea: "block", recruit: "block", reduce: "block", disband: "block",
  main: "border",
};

const PLAIN = {
  keep: "Keep the hand", redeal: "Ask for a redeal", stop: "Stop here", end_group: "End this group",
  end: "End the Action Phase", execute: "Execute him", spare: "Spare him", pass: "Pass", done: "Done",
  undo: "Undo",
};
const AREA_VERB = {
  move: "Activate the group in", to: "Move to", sea_to: "Sea move to", place: "Deploy in",
  muster: "Muster at", plague: "Plague on", battle: "Fight the battle in", enter: "Enter in",
  home: "Send home to",
};
const BLOCK_VERB = { block: "Move", sea: "Sea move", recruit: "Recruit", reduce: "Reduce", disband: "Send to the pool" };

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
  }

  areaName(id) { return typeof id === "number" ? this.areaNames[id] : String(id); }
  borderName(id) {
    const b = this.borders[id];
    if (b) return `${b.a}–${b.b} (${b.type}, limit ${b.limit})`;
    const zones = ["North Sea", "English Channel", "Irish Sea"];
    return zones[id - this.borders.length] || `border ${id}`;
  }

  blockIndex(view) {
    const idx = {};
    for (const b of view.blocks || []) idx[b.id] = b;
    for (const b of revealedBlocks(view)) if (b && b.id !== undefined && !(b.id in idx)) idx[b.id] = b;
    return idx;
  }

  label(view, verb, arg) {
    if (arg === null || arg === undefined) return PLAIN[verb] || verb.replace(/_/g, " ");
    const kind = VERB_TARGET[verb];
    if (kind === "card") {
      const c = (view.hand || []).find((x) => x.id === arg);
      return `Play ${c ? `${c.name}${c.event ? "" : ""} (${c.ap} AP)` : `card ${arg}`}`;
    }
    if (kind === "area") return `${AREA_VERB[verb] || verb} ${this.areaName(arg)}`;
    if (kind === "block") {
      const b = this.blockIndex(view)[arg];
      const where = b && b.where ? ` (${b.where})` : "";
      return `${BLOCK_VERB[verb] || verb} ${b ? b.name : `block ${arg}`}${where}`;
    }
    if (kind === "border") return `Main Attack across ${this.borderName(arg)}`;
    return `${verb.replace(/_/g, " ")} ${typeof arg === "object" ? JSON.stringify(arg) : arg}`;
  }

  /** Flatten view.actions into [{verb, arg, kind, label}]. */
  choices(view) {
    const out = [];
    for (const [verb, args] of Object.entries(view.actions || {})) {
      if (args === true) out.push({ verb, arg: null, kind: "button", label: this.label(view, verb, null) });
      else for (const arg of args || []) out.push({ verb, arg, kind: VERB_TARGET[verb] || "button", label: this.label(view, verb, arg) });
    }
    return out;
  }

  // ------------------------------------------------------------------ the board
  /** Draw pieces for `view` into the map (`map` from drawMap). `ui` supplies handlers. */
  drawPieces(map, view, ui) {
    const layer = map.pieceLayer;
    layer.replaceChildren();
    const me = view.role || ui.role;
    const choices = ui.choices || [];
    const legalAreas = new Map();
    const legalBlocks = new Map();
    const legalBorders = new Map();
    for (const c of choices) {
      const bucket = c.kind === "area" ? legalAreas : c.kind === "block" ? legalBlocks : c.kind === "border" ? legalBorders : null;
      if (!bucket) continue;
      const key = c.kind === "area" ? this.areaName(c.arg) : c.arg;
      if (!bucket.has(key)) bucket.set(key, []);
      bucket.get(key).push(c);
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
    for (const b of map.svg.querySelectorAll(".border")) {
      const id = Number(b.dataset.borderId);
      b.classList.toggle("legal", legalBorders.has(id));
    }
    // battle area marker
    const battleArea = view.battle && view.battle.area !== undefined ? this.areaName(view.battle.area) : null;
    for (const [name, node] of Object.entries(map.areaNodes)) node.classList.toggle("battle-area", name === battleArea);

    // blocks per area: own (full), revealed enemy (full), hidden enemy (backs)
    const byArea = {};
    const push = (area, item) => { (byArea[area] = byArea[area] || []).push(item); };
    const shown = new Set();
    for (const b of view.blocks || []) {
      if (typeof b.loc === "number" && b.loc < this.areaNames.length) {
        push(this.areaNames[b.loc], { ...b, side: b.side || me, known: true });
        shown.add(b.id);
      }
    }
    const revealed = revealedBlocks(view);
    const revealedCount = {};
    for (const b of revealed) {
      if (!b || shown.has(b.id)) continue;
      const area = b.loc !== undefined ? this.areaName(b.loc) : battleArea;
      if (!area) continue;
      push(area, { ...b, known: true });
      shown.add(b.id);
      const key = `${area}|${b.side}`;
      revealedCount[key] = (revealedCount[key] || 0) + 1;
    }
    const counts = view.counts || {};
    for (const side of Object.keys(counts)) {
      if (side === me) continue;
      counts[side].forEach((n, i) => {
        const area = this.areaNames[i];
        const hidden = n - (revealedCount[`${area}|${side}`] || 0);
        for (let k = 0; k < hidden; k++) push(area, { side, known: false });
      });
    }
    for (const [area, items] of Object.entries(byArea)) {
      const anchor = map.anchors[area];
      if (!anchor) continue;
      items.sort((a, b) => (a.side === me ? 0 : 1) - (b.side === me ? 0 : 1));
      const perRow = area in { France: 1, Scotland: 1, Ireland: 1, Calais: 1 } ? 5 : 4;
      const size = 46;
      const gap = 3;
      const rows = Math.ceil(items.length / perRow);
      items.forEach((item, i) => {
        const row = Math.floor(i / perRow);
        const inRow = row === rows - 1 ? items.length - row * perRow : perRow;
        const col = i % perRow;
        const x = anchor[0] - (inRow * (size + gap) - gap) / 2 + col * (size + gap);
        const y = anchor[1] + row * (size + gap);
        const g = this.drawBlock(layer, item, x, y, size, me);
        const legal = item.known && legalBlocks.has(item.id);
        if (legal) {
          g.classList.add("legal");
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          const opts = legalBlocks.get(item.id);
          g.setAttribute("aria-label", `${blockText(item, area)} — ${opts.map((c) => c.label).join("; ")}`);
          const act = (ev) => { ev.stopPropagation(); ui.onChoices(opts, g); };
          g.addEventListener("click", act);
          g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(ev); } });
        } else if (item.known && item.side === me) {
          g.setAttribute("tabindex", "-1");
        }
        if (ui.selectedBlock !== undefined && item.id === ui.selectedBlock) g.classList.add("selected");
      });
    }
    return { legalAreas, legalBlocks, legalBorders };
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
      title.textContent = `${side} block (hidden)`;
      const t = el("text", { x: size / 2, y: size / 2 + 6, "text-anchor": "middle", class: "block-back" }, g);
      t.textContent = side === "York" ? "Y" : side === "Lancaster" ? "L" : "R";
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

  renderPlayed(view) {
    const played = view.played || {};
    const items = Object.entries(played).map(([role, card]) => {
      const text = card === null || card === undefined ? "not played yet" : card === "hidden" ? "played, face down" : card;
      return h("li", {}, h("strong", {}, `${role}: `), text);
    });
    return items.length ? h("div", {}, h("h3", {}, "Cards played this turn"), h("ul", { class: "played" }, items)) : null;
  }

  renderForces(view) {
    const out = [];
    const me = view.role;
    const blocks = view.blocks || [];
    const off = blocks.filter((b) => !(typeof b.loc === "number" && b.loc < this.areaNames.length));
    const groups = {};
    for (const b of off) (groups[b.where] = groups[b.where] || []).push(b);
    if (blocks.length) {
      out.push(h("h3", {}, `Your blocks off the map (${me || "you"})`));
      for (const [where, list] of Object.entries(groups)) {
        out.push(h("p", {}, h("strong", {}, `${where}: `), list.map((b) => `${b.name} ${b.steps}/${b.max} ${b.rating}`).join(", ")));
      }
      if (!off.length) out.push(h("p", { class: "muted" }, "None."));
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

  renderBattle(view) {
    const b = view.battle;
    if (!b) return null;
    const parts = [];
    const area = b.area !== undefined ? this.areaName(b.area) : "?";
    parts.push(h("p", { class: "battle-head" }, h("strong", {}, `Battle in ${area}`),
      b.round ? ` — round ${b.round}` : "",
      b.attacker ? ` — attacker ${b.attacker}` : "", b.defender ? `, defender ${b.defender}` : ""));
    const blocks = revealedBlocks(view);
    if (blocks.length) {
      const bySide = {};
      for (const x of blocks) (bySide[x.side || "?"] = bySide[x.side || "?"] || []).push(x);
      for (const [side, list] of Object.entries(bySide)) {
        parts.push(h("h3", {}, side));
        parts.push(h("ul", { class: "battle-blocks" }, list.map((x) => h("li", {},
          `${x.name || x.key} ${x.rating || ""} — ${x.steps}/${x.max || "?"} steps`,
          x.reserve ? " (reserve)" : "", x.fired ? " (fired)" : ""))));
      }
    }
    for (const [k, v] of Object.entries(b.reserves || {})) parts.push(h("p", {}, `${k} reserves: ${Array.isArray(v) ? v.length : v}`));
    const rolls = b.rolls || (b.last_roll ? [b.last_roll] : b.roll ? [b.roll] : []);
    for (const r of rolls) {
      const dice = r.dice || [];
      parts.push(h("div", { class: "roll" },
        h("span", {}, `${r.block || r.name || "Roll"}: `),
        dice.map((d) => h("span", { class: `die${r.hit_on && d <= r.hit_on ? " hit" : ""}`, "aria-label": `die ${d}${r.hit_on && d <= r.hit_on ? " hit" : ""}` }, String(d))),
        r.hits !== undefined ? h("strong", {}, ` ${r.hits} hit${r.hits === 1 ? "" : "s"}`) : ""));
    }
    const skip = new Set(["area", "round", "attacker", "defender", "blocks", "revealed", "rolls", "last_roll", "roll", "reserves", "prompt", "name"]);
    const extra = Object.entries(b).filter(([k, v]) => !skip.has(k) && (typeof v !== "object" || v === null));
    if (extra.length) parts.push(h("dl", { class: "facts" }, extra.flatMap(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, String(v))])));
    return parts;
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
