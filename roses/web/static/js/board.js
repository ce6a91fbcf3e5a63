// Roses: the parts of the game page shared by live play and replay: draw a view (map pieces,
// prompt, status, cards, battle, forces, log) and offer its choices.

import { describeArea, drawMap, enablePanZoom, legendHTML } from "./map.js";
import { h } from "./api.js";
import { Richard3 } from "./richard3.js";
import { GenericGame } from "./generic.js";

const RULE_REF = /(\((?:rule |rules |see )?\d+(?:\.\d+)*[a-z]?\))/g;

export async function loadBoard(gameId, handlers = {}, gameType = "richard3") {
  if (gameType !== "richard3") {
    // no board drawing for this game yet: buttons, log and facts only
    const holder = document.querySelector(".map-holder");
    if (holder) holder.replaceChildren(h("p", { class: "no-board" }, "This game has no board drawing yet: play with the buttons; the panels show the position."));
    return { layout: null, map: null, pan: null, game: new GenericGame() };
  }
  const layout = await (await fetch("/static/richard3/layout.json")).json();
  const svg = document.getElementById("map");
  const map = drawMap(svg, layout, { onArea: (name, ev) => handlers.onArea && handlers.onArea(name, ev) });
  const pan = enablePanZoom(svg, layout, document.getElementById("zoom"));
  const legend = document.getElementById("legend");
  if (legend) legend.innerHTML = legendHTML();
  return { layout, map, pan, game: new Richard3(layout) };
}

/** Render the log: newest last, rule references emphasised. */
export function renderLog(list, lines) {
  const items = (lines || []).map((line) => {
    const text = Array.isArray(line) ? line[line.length - 1] : String(line);
    const li = document.createElement("li");
    for (const part of text.split(RULE_REF)) {
      if (!part) continue;
      if (RULE_REF.test(part)) li.appendChild(h("span", { class: "rule-ref" }, part));
      else li.appendChild(document.createTextNode(part));
      RULE_REF.lastIndex = 0;
    }
    if (/^(Battle|Round|\s*[A-Z][a-z]+ (rolls|fires))/.test(text)) li.classList.add("log-battle");
    if (/^(Campaign|Turn|Game Turn|==)/i.test(text)) li.classList.add("log-turn");
    return li;
  });
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...items);
  if (atBottom || !list.dataset.seen) list.scrollTop = list.scrollHeight;
  list.dataset.seen = "1";
}

/** Draw everything but the choices. `payload` is a ViewOut (or replay step) with `view`. */
export function renderView(board, payload, ui) {
  const view = payload.view || {};
  view.role = payload.role;
  const g = board.game;
  const prompt = document.getElementById("prompt");
  if (prompt) prompt.textContent = view.prompt || (payload.status === "open" ? "Waiting for players." : "");
  const facts = document.getElementById("status");
  if (facts) {
    const list = g.statusFacts(view);
    if (payload.role) list.unshift([ui.replay ? "Point of view" : "You are", payload.role]);
    if (payload.active && payload.active.length) list.push(["To act", payload.active.join(", ")]);
    if (payload.version !== undefined) list.push(["Version", String(payload.version)]);
    facts.replaceChildren(...list.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  }
  const result = document.getElementById("result-panel");
  if (result) {
    const res = payload.result || view.result;
    result.hidden = !res;
    if (res) {
      const mine = payload.role && res.split(", ").includes(payload.role);
      const player = !ui.replay && payload.role && payload.role !== "Observer";
      const lines = (view.log || []).slice(-3).map((l) => (Array.isArray(l) ? l[l.length - 1] : String(l)));
      result.replaceChildren(...[
        h("h2", {}, "Game over"),
        h("p", { class: "result-line" }, res === "Draw" ? "The game is a draw." : `${res} wins.`),
        player ? h("p", { class: "result-you" }, mine ? "Victory: you won." : "Defeat: you lost.") : null,
        lines.length ? h("ul", { class: "result-log" }, lines.map((l) => h("li", {}, l))) : null,
        !ui.replay && payload.game_id !== undefined ? h("p", {}, h("a", { href: `/games/${payload.game_id}/replay` }, "Replay the game step by step")) : null,
      ].filter(Boolean));
    }
  }
  // cards
  const handPanel = document.getElementById("hand-panel");
  if (handPanel) {
    const hand = document.getElementById("hand");
    const played = document.getElementById("played");
    const playedBlock = g.renderPlayed(view);
    played.replaceChildren(...(playedBlock ? [playedBlock] : []));
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
    hand.replaceChildren(...(cards.length ? [h("h3", {}, `Your hand (${cards.length} cards, ${ap} AP)`), h("div", { class: "cards" }, cards)] : []));
    handPanel.hidden = !cards.length && !playedBlock;
  }
  const battlePanel = document.getElementById("battle-panel");
  if (battlePanel) {
    const parts = g.renderBattle(view, ui);
    battlePanel.hidden = !parts;
    const history = battleHistory(view, payload.version);
    if (parts && history.length > 1) {
      parts.push(h("h3", {}, "Rolls in this battle"),
        h("ol", { class: "battle-history" }, history.map((r) => h("li", {}, r))));
    }
    document.getElementById("battle").replaceChildren(...(parts || []));
  }
  const forces = document.getElementById("forces");
  if (forces) forces.replaceChildren(...g.renderForces(view, ui));
  const log = document.getElementById("log");
  if (log) {
    renderLog(log, view.log);
    if (view.log_more) log.prepend(h("li", { class: "muted" }, "Earlier entries are not shown here (the replay has the whole game)."));
  }
  if (!board.map) {
    // generic games: every choice is a button under the prompt
    return;
  }
  g.drawPieces(board.map, view, ui);
  // On a small screen the first view is zoomed to the player's own forces (readable text);
  // the ⤢ button shows the whole map.
  if (!board.focused && board.pan && board.map.svg.clientWidth < 600 && payload.status !== "open") {
    board.focused = true;
    const pts = (view.blocks || []).filter((b) => b.where in board.layout.areas).map((b) => board.layout.areas[b.where].label);
    const [cx, cy] = pts.length
      ? [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length]
      : [700, 800];
    board.pan.focus(cx, cy, 640);
  }
  // On a small screen, a new battle brings its area into view (the zoom buttons undo it).
  const battleArea = view.battle && view.battle.area !== undefined ? g.areaName(view.battle.area) : null;
  if (battleArea && battleArea !== board.lastBattle && board.map.svg.clientWidth < 700 && board.pan) {
    const [x, y] = board.layout.areas[battleArea].label;
    board.pan.focus(x, y + 60, 520);
  }
  board.lastBattle = battleArea;
}

// The rolls of the current battle as this page saw them (from successive views only).
const history = { area: null, seen: new Set(), lines: [] };
function battleHistory(view, version) {
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

/** Show what the page knows about an area (map facts and the pieces this view shows there). */
export function showAreaInfo(board, name, view) {
  const panel = document.getElementById("area-panel");
  if (!panel || !board.layout) return;
  const area = board.layout.areas[name];
  const facts = describeArea(area, board.layout).split("; ");
  const own = (view.blocks || []).filter((b) => b.where === name);
  const hidden = (view.hidden || {})[name] || {};
  const items = [h("p", {}, h("strong", {}, facts[0])), h("ul", {}, facts.slice(1).map((f) => h("li", {}, f)))];
  const neighbours = board.layout.borders.filter((b) => b.a === name || b.b === name)
    .map((b) => `${b.a === name ? b.b : b.a} (${b.type}, limit ${b.limit})`);
  if (neighbours.length) items.push(h("p", {}, h("strong", {}, "Borders: "), neighbours.join(", ")));
  if (own.length) items.push(h("p", {}, h("strong", {}, "Your blocks: "), own.map((b) => `${b.name} ${b.rating} ${b.steps}/${b.max}`).join(", ")));
  for (const [side, n] of Object.entries(hidden)) if (n) items.push(h("p", {}, `${n} hidden ${side} block${n === 1 ? "" : "s"}`));
  document.getElementById("area-info").replaceChildren(...items);
  panel.hidden = false;
}
