// Roses: the generic page layer shared by live play and replay. It knows no game: it draws
// the prompt, the status facts, the result, the log (styled by each line's kind), and gives
// the battle, cards, forces and map containers to the game's module (games/index.js), which
// also turns the view's actions into choices.

import { h } from "./api.js";
import { gameModule } from "./games/index.js";

const RULE_REF = /(\((?:rule |rules |see )?\d+(?:\.\d+)*[a-z]?\))/g;
const REF_NUMBER = /\d+(?:\.\d+)*/;
const KIND = /^[a-z][a-z0-9_-]*$/;

// ------------------------------------------------------------------ the rules reference
let rulesGame = null;
let rulesData = null;  // {sections: [{number, title, level, anchor, html}], cards: {name: text}}

/** The game's rules reference (our own words, numbered like the rulebook), or null. */
export async function loadRules(gameType) {
  rulesGame = gameType;
  try {
    const res = await fetch(`/rules/${encodeURIComponent(gameType)}.json`);
    rulesData = res.ok ? await res.json() : null;
  } catch (e) { rulesData = null; }
  return rulesData;
}

/** The section `number` of the reference, or the nearest one above it (6.91 -> 6.9 -> 6). */
function findSection(number) {
  if (!rulesData) return null;
  const by = new Map(rulesData.sections.map((s) => [s.number, s]));
  if (!by.has(number)) {  // a heading the reference leaves out: its first subsection (1.9 -> 1.9.1)
    const child = rulesData.sections.find((s) => s.number.startsWith(`${number}.`));
    if (child) return child;
  }
  const parts = number.split(".");
  while (parts.length) {
    const key = parts.join(".");
    const hit = by.get(key) || (parts.length === 1 ? by.get(`${key}.0`) : null);
    if (hit) return hit;
    const last = parts[parts.length - 1];
    if (parts.length > 1 && last.length > 1) parts[parts.length - 1] = last.slice(0, -1);
    else parts.pop();
  }
  return null;
}

/** A section reference "(6.9)": a link to the reference, or emphasised text without one. */
function ruleLink(number, text) {
  const sec = rulesGame && rulesData ? findSection(number) : null;
  if (!sec) return h("span", { class: "rule-ref" }, text);
  return h("a", { class: "rule-ref rule-link", href: `/rules/${rulesGame}#${sec.anchor}`, dataset: { section: sec.number } }, text);
}

/** Text with every section reference "(6.9)" made a link to that section. */
export function withRuleLinks(text) {
  const out = [];
  for (const part of String(text).split(RULE_REF)) {
    if (!part) continue;
    RULE_REF.lastIndex = 0;
    out.push(RULE_REF.test(part) ? ruleLink(part.match(REF_NUMBER)[0], part) : part);
    RULE_REF.lastIndex = 0;
  }
  return out;
}

/** Show section `number` in the rules panel (the whole reference is one link away). */
export function showRule(number) {
  const panel = document.getElementById("rules-panel");
  const box = document.getElementById("rules-text");
  if (!panel || !box) return false;
  const sec = findSection(number);
  if (!sec) return false;
  const body = h("div", { class: "rules-section", id: `panel-${sec.anchor}`, dataset: { section: sec.number } });
  body.innerHTML = sec.html;  // our own reference text, rendered and escaped by the server
  box.replaceChildren(
    h("h3", {}, `${sec.number} ${sec.title}`), body,
    h("p", { class: "small" }, h("a", { href: `/rules/${rulesGame}#${sec.anchor}`, target: "_blank", rel: "noopener" }, "The whole rules reference"),
      " · ", h("button", { type: "button", class: "linklike", onclick: closeRules }, "Close")));
  openRulesPanel(panel);
  document.body.classList.add("rules-open");
  return true;
}

/** Show what every card does (the card panel), in the rules panel. */
export function showCards() {
  const panel = document.getElementById("rules-panel");
  const box = document.getElementById("rules-text");
  const cards = cardTexts();
  if (!panel || !box || !cards.length) return false;
  const list = h("dl", { class: "card-ref" }, cards.flatMap(([name, text]) => [h("dt", {}, name), h("dd", {}, withRuleLinks(text))]));
  box.replaceChildren(h("h3", { id: "card-ref-title" }, "The cards"), list,
    h("p", { class: "small" }, h("button", { type: "button", class: "linklike", onclick: closeRules }, "Close")));
  openRulesPanel(panel);
  document.body.classList.add("rules-open");
  return true;
}

/** The rules panel opens at the top of the side panel; on a phone it covers the page. */
function openRulesPanel(panel) {
  const small = window.matchMedia("(max-width: 760px)").matches;
  const side = document.querySelector(".side");
  if (small || !side) document.body.appendChild(panel);
  else side.prepend(panel);
  panel.hidden = false;
  panel.scrollTop = 0;
  if (!small) panel.scrollIntoView({ block: "nearest" });
}

export function closeRules() {
  const panel = document.getElementById("rules-panel");
  if (panel) panel.hidden = true;
  document.body.classList.remove("rules-open");
}

// a section link on the game or replay page opens the section beside the board
document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a.rule-link");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  if (showRule(a.dataset.section)) ev.preventDefault();
});

/** The text of a card, in our own words (from the reference), or "". */
export function cardText(name) {
  return (rulesData && rulesData.cards && rulesData.cards[name]) || "";
}

/** Every card's text, for the card panel: [[name, text]]. */
export function cardTexts() {
  return rulesData && rulesData.cards ? Object.entries(rulesData.cards) : [];
}

// ------------------------------------------------------------------ phone tabs (game and replay pages)
/** The tabs of a small screen (`#tabs`, panels marked with data-tab): show(name), news(name, on). */
export function setupTabs() {
  const layout = document.getElementById("game");
  const tabs = document.getElementById("tabs");
  const api = {
    get current() { return layout.dataset.tab; },
    show(name) {
      layout.dataset.tab = name;
      for (const b of tabs.querySelectorAll("button")) {
        b.setAttribute("aria-selected", String(b.dataset.tab === name));
        if (b.dataset.tab === name) b.classList.remove("has-news");
      }
      if (name === "log") {
        // the newest line in view: the list scrolls on a laptop, the side panel on a phone
        const log = document.getElementById("log");
        if (log) {
          log.scrollTop = log.scrollHeight;
          const side = log.closest(".side");
          if (side) side.scrollTop = side.scrollHeight;
        }
      }
    },
    news(name, on) {
      const b = tabs.querySelector(`[data-tab="${name}"]`);
      if (b && layout.dataset.tab !== name) b.classList.toggle("has-news", on);
    },
    /** Show the Battle tab while a battle is on (and leave it when the battle is over). */
    battle(on) {
      const b = tabs.querySelector('[data-tab="battle"]');
      if (b) b.hidden = !on;
      if (!on && layout.dataset.tab === "battle") api.show("board");
      api.news("battle", on);
    },
  };
  if (tabs) tabs.addEventListener("click", (ev) => { const b = ev.target.closest("button[data-tab]"); if (b) api.show(b.dataset.tab); });
  return api;
}

/** Whether the page has the small-screen layout (tabs, bottom sheet). */
export const smallScreen = () => window.matchMedia("(max-width: 760px)").matches;

/** Load the module of `gameType` (`client`: the one its rules name) and let it set up the map container. */
export async function loadBoard(gameId, handlers = {}, gameType = null, client = null) {
  const [mod] = await Promise.all([gameModule(gameType, client), loadRules(gameType)]);
  const game = await mod.create({
    svg: document.getElementById("map"),
    holder: document.querySelector(".map-holder"),
    zoom: document.getElementById("zoom"),
    legend: document.getElementById("legend"),
    onArea: (name, ev) => handlers.onArea && handlers.onArea(name, ev),
    cardText,
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
    li.append(...withRuleLinks(text));
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
  if (prompt) prompt.replaceChildren(...withRuleLinks(view.prompt || (payload.status === "open" ? "Waiting for players." : "")));
  const notes = document.getElementById("view-notes");
  if (notes) {
    // what the rules say about options not offered now (e.g. a Treason roll waiting)
    const list = Array.isArray(view.notes) ? view.notes : [];
    notes.replaceChildren(...list.map((n) => h("li", {}, withRuleLinks(n))));
    notes.hidden = !list.length;
  }
  const facts = document.getElementById("status");
  if (facts) {
    const list = g.statusFacts(view);
    if (payload.role) list.unshift([ui.replay ? "Point of view" : "You are", payload.role]);
    if (payload.active && payload.active.length) list.push(["To act", payload.active.join(", ")]);
    if (payload.version !== undefined) list.push([ui.replay ? "Moves shown" : "Moves made", String(payload.version)]);
    facts.replaceChildren(...list.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  }
  const res = payload.result || view.result;
  const reason = res ? String(view.result_reason || "") : "";
  const mine = res && payload.role && res.split(", ").includes(payload.role);
  const player = !ui.replay && payload.role && payload.role !== "Observer";
  const who = res ? (res === "Draw" ? "The game is a draw." : `${res} wins.`) : "";
  // the end over the board, on every tab: who won and why (the game's views give the cause,
  // `result_reason`, with its rule); the board stays as the game ended
  const banner = document.getElementById("result-banner");
  if (banner) {
    banner.hidden = !res;
    if (res) {
      // the prompt may say who won already: the banner then gives the cause
      const said = String(view.prompt || "").includes(who.replace(/\.$/, ""));
      banner.replaceChildren(said ? "" : h("strong", {}, `Game over: ${who}`), reason && !said ? " " : "",
        ...(reason ? [h("strong", {}, "Why: "), ...withRuleLinks(reason)] : []),
        player ? h("span", { class: "result-you" }, res === "Draw" ? " Nobody won." : mine ? " Victory: you won." : " Defeat: you lost.") : "");
    }
  }
  const result = document.getElementById("result-panel");
  if (result) {
    result.hidden = !res;
    if (res) {
      const lines = (view.log || []).slice(-3).map(lineText);
      result.replaceChildren(...[
        h("h2", {}, "Game over"),
        h("p", { class: "result-line" }, who),
        reason ? h("p", { class: "result-reason" }, h("strong", {}, "Why: "), ...withRuleLinks(reason)) : null,
        player ? h("p", { class: "result-you" }, res === "Draw" ? "Nobody won." : mine ? "Victory: you won." : "Defeat: you lost.") : null,
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
    if (!ui.replay && view.log_more && payload.game_id !== undefined) {
      // the view carries the recent lines: the whole log (as this role may read it) is asked
      // for on the Log tab's button, and kept whole from then on
      if (board.wholeLog) loadWholeLog(board, payload, log);
      else {
        renderLog(log, view.log, view.log_kinds);
        log.prepend(h("li", { class: "log-more" }, h("button", { type: "button", class: "linklike", id: "log-whole",
          onclick: () => { board.wholeLog = true; loadWholeLog(board, payload, log, true); } }, "Show the whole log")));
      }
    } else {
      renderLog(log, view.log, view.log_kinds);
      if (view.log_more) log.prepend(h("li", { class: "muted" }, "Earlier entries are not shown here (the replay has the whole game)."));
    }
  }
  if (board.hasMap) g.draw(view, ui, payload);
}

/** Fetch the whole log `payload.role` may read (its own view of hidden things) and show it,
 * newest last; `top` keeps the reader at the start of the game. */
async function loadWholeLog(board, payload, list, top = false) {
  const q = new URLSearchParams();
  if (payload.role) q.set("role", payload.role);
  const invite = new URLSearchParams(location.search).get("invite");
  if (invite) q.set("invite", invite);
  try {
    const res = await fetch(`/games/${payload.game_id}/log.json?${q}`, { credentials: "same-origin" });
    if (!res.ok) return;
    const out = await res.json();
    if (board.logVersion !== undefined && out.version < board.logVersion) return;  // an older answer
    board.logVersion = out.version;
    renderLog(list, out.log, out.log_kinds);
    list.dataset.whole = "1";
    if (top) list.scrollTop = 0;
  } catch (e) { /* offline: the recent lines stay */ }
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
