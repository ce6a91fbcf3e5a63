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

/** The view's actions as the page's choices, [{verb, arg, label, kind, ref}] in the view's
 * order: `classify(verb, arg)` gives what a click must hit, {kind: "card"|"area"|"block"|
 * "button", ref} (a game module knows its own pieces and places). */
export function choicesOf(view, classify) {
  return listActions(view).map((c) => ({ ...c, ...classify(c.verb, c.arg) }));
}

/** The choices of one kind by what they are on: Map(ref -> [choice, ...]), in their order. */
export function byRef(choices, kind) {
  const out = new Map();
  for (const c of choices || []) {
    if (c.kind !== kind) continue;
    if (!out.has(c.ref)) out.set(c.ref, []);
    out.get(c.ref).push(c);
  }
  return out;
}
