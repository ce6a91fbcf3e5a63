// Roses: the module for games that have no board drawing yet (see index.js): the prompt,
// every choice as a button (labelled by the server), the log, and the view's public facts
// as text.

import { h } from "../api.js";
import { actionLabel, choicesOf } from "../actions.js";

const SKIP = ["prompt", "log", "log_kinds", "log_more", "actions", "labels", "active", "role"];

export async function create(page) {
  // no board drawing for this game yet: buttons, log and facts only
  if (page.holder) page.holder.replaceChildren(h("p", { class: "no-board" }, "This game has no board drawing yet: play with the buttons; the panels show the position."));
  return new GenericGame();
}

export class GenericGame {
  constructor() { this.hasMap = false; }

  label(view, verb, arg) { return actionLabel(view, verb, arg); }

  choices(view) {
    return choicesOf(view, () => ({ kind: "button", ref: null }));
  }

  areaName(x) { return String(x); }
  statusFacts(view) {
    return Object.entries(view)
      .filter(([k, v]) => !SKIP.includes(k) && (typeof v !== "object" || v === null))
      .map(([k, v]) => [k.replace(/_/g, " "), String(v)]);
  }
  renderCards() { return null; }
  renderBattle() { return null; }
  renderForces(view) {
    const rest = Object.fromEntries(Object.entries(view).filter(([k, v]) => !SKIP.includes(k) && v && typeof v === "object"));
    return [h("pre", { class: "raw-view" }, JSON.stringify(rest, null, 1))];
  }
  draw() {}
  areaInfo() { return null; }
}
