// Roses: a view's actions and their labels, for every game.
// A view lists what its role may do as `actions`: {verb: [arg, ...]} or {verb: true}; the
// server adds `labels`: {verb: {JSON.stringify(arg): text}} (arg null for a verb without one),
// made by the game's rules (Rules.label, the same text the terminal shows). The client never
// composes an action's text itself, except as a last resort when a label is missing.

/** The key of an argument in `view.labels[verb]` (the server's compact JSON). */
export function actionKey(arg) {
  return JSON.stringify(arg === undefined ? null : arg);
}

/** Text for an action the server sent no label for. */
export function fallbackLabel(verb, arg) {
  const words = verb.replace(/_/g, " ");
  if (arg === null || arg === undefined) return words;
  return `${words}: ${typeof arg === "string" ? arg : JSON.stringify(arg)}`;
}

/** The label of (verb, arg) in `view`, from the server's labels. */
export function actionLabel(view, verb, arg) {
  const byVerb = view && view.labels ? view.labels[verb] : null;
  const text = byVerb ? byVerb[actionKey(arg)] : undefined;
  return typeof text === "string" ? text : fallbackLabel(verb, arg);
}

/** Flatten `view.actions` into [{verb, arg, label}] in the view's order. */
export function listActions(view) {
  const out = [];
  for (const [verb, args] of Object.entries((view && view.actions) || {})) {
    const list = args === true ? [null] : args || [];
    for (const arg of list) out.push({ verb, arg, label: actionLabel(view, verb, arg) });
  }
  return out;
}
