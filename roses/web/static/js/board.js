// Roses: the generic page layer shared by live play and replay. It knows no game: it draws
// the prompt, the status facts, the result, the log (styled by each line's kind), and gives
// the battle, cards, forces and map containers to the game's module (games/index.js), which
// also turns the view's actions into choices.

import { h } from "./api.js";
import { gameModule } from "./games/index.js";

const RULE_REF = /(\((?:rule |rules |see )?\d+(?:\.\d+)*[a-z]?\))/g;
const KIND = /^[a-z][a-z0-9_-]*$/;

/** Load the module of `gameType` and let it set up the map container. */
export async function loadBoard(gameId, handlers = {}, gameType = "richard3") {
  const mod = await gameModule(gameType);
  const game = await mod.create({
    svg: document.getElementById("map"),
    holder: document.querySelector(".map-holder"),
    zoom: document.getElementById("zoom"),
    legend: document.getElementById("legend"),
    onArea: (name, ev) => handlers.onArea && handlers.onArea(name, ev),
  });
  return { gameId, gameType, game, hasMap: !!game.hasMap };
}

function lineText(line) {
  return Array.isArray(line) ? String(line[1] ?? line[line.length - 1]) : String(line);
}

/** Render the log: newest last, rule references emphasised, each line classed by its kind
 * (`kinds[i]`, from the view's `log_kinds`: class `log-<kind>`; no kind, no class). */
export function renderLog(list, lines, kinds = []) {
  const items = (lines || []).map((line, i) => {
    const text = lineText(line);
    const li = document.createElement("li");
    for (const part of text.split(RULE_REF)) {
      if (!part) continue;
      if (RULE_REF.test(part)) li.appendChild(h("span", { class: "rule-ref" }, part));
      else li.appendChild(document.createTextNode(part));
      RULE_REF.lastIndex = 0;
    }
    const kind = (kinds || [])[i];
    if (typeof kind === "string" && KIND.test(kind)) {
      li.classList.add(`log-${kind}`);
      li.dataset.kind = kind;
    }
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
      const lines = (view.log || []).slice(-3).map(lineText);
      result.replaceChildren(...[
        h("h2", {}, "Game over"),
        h("p", { class: "result-line" }, res === "Draw" ? "The game is a draw." : `${res} wins.`),
        player ? h("p", { class: "result-you" }, mine ? "Victory: you won." : "Defeat: you lost.") : null,
        lines.length ? h("ul", { class: "result-log" }, lines.map((l) => h("li", {}, l))) : null,
        !ui.replay && payload.game_id !== undefined ? h("p", {}, h("a", { href: `/games/${payload.game_id}/replay` }, "Replay the game step by step")) : null,
      ].filter(Boolean));
    }
  }
  const handPanel = document.getElementById("hand-panel");
  if (handPanel) {
    const cards = g.renderCards(view, ui);
    document.getElementById("played").replaceChildren(...(cards && cards.played ? [cards.played] : []));
    document.getElementById("hand").replaceChildren(...(cards && cards.hand ? cards.hand : []));
    handPanel.hidden = !cards || (!cards.played && !(cards.hand && cards.hand.length));
  }
  const battlePanel = document.getElementById("battle-panel");
  if (battlePanel) {
    const parts = g.renderBattle(view, ui, payload);
    battlePanel.hidden = !parts;
    document.getElementById("battle").replaceChildren(...(parts || []));
  }
  const forces = document.getElementById("forces");
  if (forces) forces.replaceChildren(...g.renderForces(view, ui));
  const log = document.getElementById("log");
  if (log) {
    renderLog(log, view.log, view.log_kinds);
    if (view.log_more) log.prepend(h("li", { class: "muted" }, "Earlier entries are not shown here (the replay has the whole game)."));
  }
  if (board.hasMap) g.draw(view, ui, payload);
}

/** Show what the game module knows about an area (map facts and the pieces the view shows). */
export function showAreaInfo(board, name, view) {
  const panel = document.getElementById("area-panel");
  if (!panel) return;
  const items = board.game.areaInfo(name, view);
  if (!items) return;
  document.getElementById("area-info").replaceChildren(...items);
  panel.hidden = false;
}
