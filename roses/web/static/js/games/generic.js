// Roses: a plain rendering for games that have no board drawing yet: the prompt, every choice
// as a button, the log, and the view's public facts as text.

import { h } from "./api.js";

export class GenericGame {
  label(view, verb, arg) {
    if (arg === null || arg === undefined) return verb.replace(/_/g, " ");
    return `${verb.replace(/_/g, " ")}: ${typeof arg === "object" ? JSON.stringify(arg) : arg}`;
  }

  choices(view) {
    const out = [];
    for (const [verb, args] of Object.entries(view.actions || {})) {
      const list = args === true ? [null] : args || [];
      for (const arg of list) out.push({ verb, arg, kind: "button", ref: null, label: this.label(view, verb, arg) });
    }
    return out;
  }

  areaName(x) { return String(x); }
  statusFacts(view) {
    return Object.entries(view)
      .filter(([k, v]) => !["prompt", "log", "actions", "active", "role"].includes(k) && (typeof v !== "object" || v === null))
      .map(([k, v]) => [k.replace(/_/g, " "), String(v)]);
  }
  renderPlayed() { return null; }
  renderBattle() { return null; }
  renderForces(view) {
    const rest = Object.fromEntries(Object.entries(view).filter(([k, v]) => !["prompt", "log", "actions", "active", "role"].includes(k) && v && typeof v === "object"));
    return [h("pre", { class: "raw-view" }, JSON.stringify(rest, null, 1))];
  }
  drawPieces() { return {}; }
}
