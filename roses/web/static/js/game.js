// Roses: the live game page. One WebSocket per page; every action carries the game version
// it was made on, so nothing is applied twice; after a drop the page reconnects and the server
// sends the current view at once.

import { api, h, showError } from "./api.js";
import { closeRules, loadBoard, renderView, setupTabs, showAreaInfo, showCards, smallScreen } from "./board.js";

const config = JSON.parse(document.getElementById("config").textContent);
const gameId = config.gameId;
const errorBox = document.getElementById("action-error");
const conn = document.getElementById("conn");

const state = {
  payload: null,     // last ViewOut
  choices: [],
  pending: null,     // {id, verb, arg, version, timer}
  queued: null,      // an action that may not have arrived: {verb, arg, version}
  ws: null,
  retry: 0,
  nextId: 1,
  closed: false,
};
window.roses = state;  // for tests and debugging: only what this page already shows

function query() {
  const q = new URLSearchParams();
  if (config.role) q.set("role", config.role);
  if (config.invite) q.set("invite", config.invite);
  const s = q.toString();
  return s ? `?${s}` : "";
}

const board = await loadBoard(gameId, { onArea: (name, ev) => onArea(name, ev) }, config.game, config.client);

// ------------------------------------------------------------------ choices
function onArea(name, ev) {
  const opts = state.choices.filter((c) => c.kind === "area" && c.ref === name);
  const raw = ev && ev.event ? ev.event : ev;
  const more = !!raw && (raw.shiftKey || raw.type === "contextmenu");
  if (opts.length) offer(opts, ev && ev.currentTarget, { more });
  else if (state.payload) showAreaInfo(board, name, state.payload.view || {});
}

let popup = null;
function closePopup() {
  if (popup) { popup.remove(); popup = null; }
}
const phone = smallScreen;

/** A click on a thing with these choices: one, or the usual one of several (a land move
 * rather than a sea move, from the game module), is made at once; otherwise, or when asked
 * for every choice (right click, Shift+click), a small menu offers them all. */
function offer(opts, anchor, how = {}) {
  closePopup();
  if (!opts.length) return;
  if (opts.length === 1 && !how.more) { send(opts[0].verb, opts[0].arg); return; }
  const usual = !how.more && board.game.defaultChoice ? board.game.defaultChoice(opts) : null;
  if (usual) { send(usual.verb, usual.arg); return; }
  popup = h("div", { class: `popup${phone() ? " sheet" : ""}`, role: "dialog", "aria-label": "Choose an action" },
    opts.map((c) => h("button", { type: "button", class: "choice", onclick: () => { closePopup(); send(c.verb, c.arg); } }, c.label)),
    h("button", { type: "button", class: "secondary", onclick: closePopup }, "Cancel"));
  document.body.appendChild(popup);
  if (!phone()) placePopup(popup, anchor);
  popup.querySelector("button").focus();
}

/** Put the menu next to what was clicked, inside the window, never over the battle panel. */
function placePopup(box, anchor) {
  const r = anchor && anchor.getBoundingClientRect ? anchor.getBoundingClientRect() : { left: 20, right: 20, top: 80, bottom: 80 };
  const w = box.offsetWidth;
  const hgt = box.offsetHeight;
  const avoid = [];
  const battle = document.getElementById("battle-panel");
  if (battle && !battle.hidden) avoid.push(battle.getBoundingClientRect());
  const fits = (x, y) => x >= 4 && y >= 4 && x + w <= innerWidth - 4 && y + hgt <= innerHeight - 4
    && !avoid.some((a) => x < a.right && x + w > a.left && y < a.bottom && y + hgt > a.top);
  const tries = [[r.left, r.bottom + 4], [r.left, r.top - hgt - 4], [r.left - w - 8, r.top], [r.right + 8, r.top]];
  for (const a of avoid) tries.push([a.left - w - 8, Math.min(Math.max(4, r.top), innerHeight - hgt - 4)]);
  let at = tries.find(([x, y]) => fits(x, y));
  if (!at) at = [Math.max(4, Math.min(innerWidth - w - 4, r.left)), Math.max(4, Math.min(innerHeight - hgt - 4, r.bottom + 4))];
  box.style.left = `${at[0]}px`;
  box.style.top = `${at[1]}px`;
}

/** Outline the thing a choice button stands for while the button is pointed at or focused. */
function hint(c, on) {
  const svg = document.getElementById("map");
  if (!svg || !c.ref) return;
  const sel = c.kind === "area" ? `g.area[data-area="${CSS.escape(c.ref)}"]` : c.kind === "block" ? `g.block[data-block="${CSS.escape(c.ref)}"]` : null;
  if (sel) for (const n of svg.querySelectorAll(sel)) n.classList.toggle("hint", on);
}

/** The common start of some labels ("Sea move Warwick", "Sea move Kent" -> "Sea move"). */
function commonStart(labels) {
  const words = labels.map((l) => l.split(" "));
  const out = [];
  for (let i = 0; i < words[0].length; i++) {
    const w = words[0][i];
    if (!words.every((x) => x[i] === w) || words.some((x) => x.length <= i + 1)) break;
    out.push(w);
  }
  return out.join(" ").replace(/:$/, "");
}

/** A choice that ends, skips or steps back rather than does something (its label's first
 * word): drawn plainer than the real choices and put after them. */
const PASSIVE = /^(End|Pass|Back|Done|Stop|Skip|Cancel|Decline|Finish)\b/;
function passive(c) {
  return c.kind === "button" && PASSIVE.test(String(c.label || ""));
}

/** Many choices are grouped by verb (a verb with four or more) so the bar stays small: a group
 * is a button that opens its row of choices; at most one row is open. */
const GROUP_FROM = 10;
const GROUP_MIN = 4;

function renderChoices() {
  const p = state.payload;
  const buttons = document.getElementById("buttons");
  const help = document.getElementById("choices-help");
  const bar = document.getElementById("promptbar");
  const busy = !!state.pending;
  // every choice is a button in the choices bar (on the map, in the hand and the panels too)
  // the choices that end or skip something (End, Pass, Back...) after the real ones, styled apart
  const order = (c) => (c.verb === "undo" ? 3 : passive(c) ? 2 : c.kind === "button" ? 0 : 1);
  const list = state.choices.map((c, i) => [c, i]).sort((a, b) => order(a[0]) - order(b[0]) || a[1] - b[1]).map(([c]) => c);
  const button = (c) => h("button", {
    type: "button", class: `choice ${c.verb === "undo" ? "secondary" : passive(c) ? "passive" : c.kind === "button" ? "primary" : "target"}`, disabled: busy,
    dataset: c.kind === "button" && c.arg === null ? { verb: c.verb } : { verb: c.verb, arg: JSON.stringify(c.arg) },
    onclick: () => send(c.verb, c.arg),
    onmouseenter: () => hint(c, true), onmouseleave: () => hint(c, false), onfocus: () => hint(c, true), onblur: () => hint(c, false),
  }, c.label);
  const byVerb = new Map();
  for (const c of list) { if (!byVerb.has(c.verb)) byVerb.set(c.verb, []); byVerb.get(c.verb).push(c); }
  const grouped = list.length >= GROUP_FROM ? [...byVerb].filter(([, cs]) => cs.length >= GROUP_MIN).map(([v]) => v) : [];
  if (!grouped.includes(state.openGroup)) state.openGroup = null;
  const top = [];      // the first row: single choices and group buttons, numbered for the keys
  const rows = [];
  const done = new Set();
  for (const c of list) {
    if (!grouped.includes(c.verb)) { top.push({ node: button(c), act: () => send(c.verb, c.arg) }); continue; }
    if (done.has(c.verb)) continue;
    done.add(c.verb);
    const cs = byVerb.get(c.verb);
    const open = state.openGroup === c.verb;
    const name = commonStart(cs.map((x) => x.label)) || c.verb.replace(/_/g, " ");
    const toggle = () => { state.openGroup = state.openGroup === c.verb ? null : c.verb; renderChoices(); };
    const node = h("button", { type: "button", class: `choice group-toggle${open ? " open" : ""}`, disabled: busy, "aria-expanded": String(open),
      dataset: { group: c.verb }, onclick: toggle }, `${name}… (${cs.length})`);
    top.push({ node, act: toggle });
    rows.push(h("div", { class: "buttons group-row", dataset: { group: c.verb }, hidden: !open, role: "group", "aria-label": name }, cs.map(button)));
  }
  // the number keys' badges, for a keyboard (none on a touch screen)
  const keys = !window.matchMedia("(hover: none), (pointer: coarse)").matches;
  top.forEach((t, i) => { if (i < 9 && keys) t.node.prepend(h("kbd", { "aria-hidden": "true" }, String(i + 1))); });
  state.keys = top.map((t) => t.act);
  state.ordered = list;
  const items = top.map((t) => t.node);
  if (p && p.can_undo && !list.some((c) => c.verb === "undo")) items.push(h("button", { type: "button", class: "choice secondary", id: "undo", dataset: { verb: "undo" }, disabled: busy, onclick: undo }, "Undo"));
  buttons.replaceChildren(...items, ...rows);
  const mine = p && p.view && p.view.actions;
  const onBoard = state.choices.filter((c) => c.kind !== "button").length;
  help.textContent = busy ? "Sending…"
    : mine ? (onBoard ? "Choose here, or click what is outlined in green on the map, in your hand or in the panels." : "")
    : p && p.status === "active" ? `Waiting for ${(p.active || []).join(" and ") || "the other player"}.` : "";
  const other = p && !mine && (config.myRoles || []).find((r) => r !== p.role && (p.active || []).includes(r));
  if (other) help.replaceChildren(`It is ${other}'s turn: `, h("a", { href: `/games/${gameId}?role=${encodeURIComponent(other)}${config.invite ? `&invite=${encodeURIComponent(config.invite)}` : ""}` }, `switch to ${other}`), ".");
  const seated = p && p.role && p.role !== "Observer" && p.status === "active";
  document.getElementById("actions-panel").hidden = !seated;
  document.getElementById("sheet-toggle").hidden = !seated;
  bar.classList.toggle("my-turn", !!mine);
  if (mine && bar.classList.contains("collapsed")) setSheet(true);
  markTabs();
}

// ------------------------------------------------------------------ phone: tabs and the bottom sheet
const layout = document.getElementById("game");
const tabs = setupTabs();
const showTab = (name) => tabs.show(name);
function markTabs() {
  const battle = document.getElementById("battle-panel");
  tabs.battle(!battle.hidden);
  tabs.news("hand", state.choices.some((c) => c.kind === "card"));
  // the end of the game is said over the board (result-banner), which stays on screen as it ended
  // before the start the seats are what matters; once it starts, the board
  const open = state.payload && state.payload.status === "open";
  if (phone() && open !== seatsShown) { seatsShown = open; showTab(open ? "game" : "board"); }
}
let seatsShown = false;
function setSheet(open) {
  const bar = document.getElementById("promptbar");
  bar.classList.toggle("collapsed", !open);
  const t = document.getElementById("sheet-toggle");
  t.setAttribute("aria-expanded", String(open));
  t.textContent = open ? "Hide choices" : `Choices (${state.choices.length})`;
}
document.getElementById("sheet-toggle").addEventListener("click", () => setSheet(document.getElementById("promptbar").classList.contains("collapsed")));

// ------------------------------------------------------------------ keyboard shortcuts (listed on the page)
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { closePopup(); closeRules(); return; }
  const t = ev.target;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || (t && (["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName) || t.isContentEditable))) return;
  const pan = board.game.pan;
  if (/^[1-9]$/.test(ev.key)) {
    const act = (state.keys || [])[Number(ev.key) - 1];
    if (act && !state.pending) { ev.preventDefault(); act(); }
  } else if (ev.key === "u" || ev.key === "U") {
    if (state.payload && state.payload.can_undo) { ev.preventDefault(); undo(); }
  } else if (pan && (ev.key === "f" || ev.key === "F")) pan.reset();
  else if (pan && (ev.key === "r" || ev.key === "R")) pan.read();
  else if (pan && (ev.key === "+" || ev.key === "=")) pan.zoomIn();
  else if (pan && (ev.key === "-" || ev.key === "−")) pan.zoomOut();
  else if (ev.key === "?") {
    const keys = document.getElementById("keys-panel");
    keys.open = true;
    if (phone()) showTab("game");
    keys.scrollIntoView({ block: "nearest" });
  }
});

function apply(payload) {
  if (state.payload && payload.version < state.payload.version) return;  // an old message
  state.payload = payload;
  if (state.pending && payload.version !== state.pending.version) clearPending();
  const q = state.queued;
  if (q && !state.pending) {
    state.queued = null;
    const opts = payload.view && payload.view.actions ? board.game.choices(payload.view) : [];
    const same = opts.find((c) => c.verb === q.verb && JSON.stringify(c.arg) === JSON.stringify(q.arg));
    if (payload.version === q.version && same) {
      // it never arrived: send it now, on the same version (the server refuses it if stale)
      showError(errorBox, null);
      setTimeout(() => send(q.verb, q.arg, q.key), 0);
    } else {
      showError(errorBox, new Error("The game moved on while you were offline: here is the current position."));
    }
  }
  const view = payload.view || {};
  view.role = payload.role;
  state.choices = state.pending || state.queued ? [] : board.game.choices(view);
  closePopup();
  const focused = document.activeElement;
  const hadFocus = focused && focused !== document.body && document.getElementById("game").contains(focused);
  const focusKey = focused && focused.dataset ? (focused.dataset.block || focused.dataset.verb || null) : null;
  renderView(board, payload, { role: payload.role, choices: state.choices, onChoices: offer, onWhy: payload.role && payload.role !== "Observer" ? why : null });
  renderChoices();
  renderSeats();
  // keyboard users keep their place: the same control if it is still there, else the prompt
  if (hadFocus && !document.contains(focused)) {
    const again = focusKey && document.querySelector(`#game [data-block="${CSS.escape(focusKey)}"][tabindex="0"], #game button[data-block="${CSS.escape(focusKey)}"], #buttons [data-verb="${CSS.escape(focusKey)}"]`);
    (again || document.getElementById("prompt")).focus();
  }
  drawDeadline();
  if (payload.status !== "open" && config.pace) loadClocks();  // a game without a pace has no clocks
  setupSeatTools(payload);
  document.title = `${view.actions ? "▶ Your turn · " : ""}${config.title || document.title.replace(/^▶ Your turn · /, "")}`;
  document.body.dataset.version = String(payload.version);
  document.body.dataset.status = payload.status;
  window.dispatchEvent(new CustomEvent("roses:state", { detail: payload }));  // negotiation.js
}

/** Ask the server why an action is not offered now; show the rules' reason and what the game
 * asks for instead. */
async function why(verb, arg, what = "") {
  const p = state.payload;
  const line = document.getElementById("hand-why");
  if (!p || !line) return;
  try {
    const out = await api("POST", `/api/games/${gameId}/why${config.invite ? `?invite=${encodeURIComponent(config.invite)}` : ""}`,
      { verb, arg, role: p.role, version: p.version });
    const now = p.view && p.view.prompt ? ` Now: ${p.view.prompt}` : "";
    line.textContent = out.allowed ? `${what}you may do this now.` : `${what}${out.reason}${now}`;
  } catch (e) { line.textContent = e.message; }
  line.hidden = false;
}

// ------------------------------------------------------------------ clocks (when the game has a pace)
let clockData = null;
let clockAt = 0;
function fmt(sec) {
  sec = Math.max(0, Math.floor(sec));
  const d = Math.floor(sec / 86400), hh = Math.floor((sec % 86400) / 3600), m = Math.floor((sec % 3600) / 60), s = sec % 60;
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${String(m).padStart(2, "0")} min`;
  return `${m}:${String(s).padStart(2, "0")}`;
}
// An open decision with a published default (view.default): when the seat's clock runs out, the
// default is played for it. The moment comes with the view (payload.deadline) or the clocks.
function drawDeadline() {
  const note = document.getElementById("deadline-note");
  const p = state.payload;
  const view = (p && p.view) || {};
  const mine = p && p.role && p.role !== "Observer" && (p.active || []).includes(p.role);
  const clock = clockData && clockData.clocks ? clockData.clocks[p && p.role] : null;
  const at = p && p.deadline ? p.deadline : (clock && clock.running ? clock.deadline : null);
  if (!mine || !view.default || !at || p.status !== "active") { note.hidden = true; return; }
  const when = new Date(at * 1000);
  const text = when.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  note.textContent = `If you do not answer by ${text}, ${view.default_label || "the published default"} is played.`;
  note.dataset.deadline = String(at);
  note.hidden = false;
}
function drawClocks() {
  const box = document.getElementById("clocks");
  if (!clockData || !clockData.pace || !Object.keys(clockData.clocks || {}).length) { box.hidden = true; return; }
  box.hidden = false;
  const elapsed = (Date.now() - clockAt) / 1000;
  box.replaceChildren(...Object.entries(clockData.clocks).flatMap(([role, c]) => [
    h("dt", {}, `${role}'s clock`),
    h("dd", { class: c.running ? "running" : "" }, `${fmt(c.left - (c.running ? elapsed : 0))}${c.running ? " (running)" : ""}`)]));
}
async function loadClocks() {
  try {
    clockData = await api("GET", `/api/games/${gameId}/clocks${config.invite ? `?invite=${encodeURIComponent(config.invite)}` : ""}`);
    clockAt = Date.now();
    drawClocks();
    drawDeadline();
  } catch (e) { /* no clocks on this server */ }
}
if (config.pace) setInterval(drawClocks, 1000);

// ------------------------------------------------------------------ sending
function clearPending() {
  if (state.pending && state.pending.timer) clearTimeout(state.pending.timer);
  state.pending = null;
}

function actionKey() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

async function send(verb, arg, key = actionKey()) {
  const p = state.payload;
  if (!p || state.pending) return;
  // a grave choice that cannot be taken back is asked once more: the game module marks the
  // choice (`confirm`: the question), or the game's view lists its verbs in `confirm`
  const c = state.choices.find((x) => x.verb === verb && JSON.stringify(x.arg) === JSON.stringify(arg));
  const listed = p.view && Array.isArray(p.view.confirm) && p.view.confirm.includes(verb);
  if (((c && c.confirm) || listed) && !state.queued) {
    const question = (c && c.confirm) || `${c ? c.label : verb}: this cannot be undone. Are you sure?`;
    if (!window.confirm(question)) return;
  }
  // on a phone, a card played from the Hand tab leads back to the board (where the moves are)
  if (phone() && layout.dataset.tab === "hand") showTab("board");
  showError(errorBox, null);
  const version = p.version;
  const id = state.nextId++;
  state.pending = { id, verb, arg, version, key, timer: null };
  state.choices = [];
  renderChoices();
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    // answered on the socket with the result (our view after it); a repeat of the same key
    // (the action sent again after a dropped connection) is never applied twice
    state.ws.send(JSON.stringify({ type: "act", id, key, verb, arg, version }));
    // if no answer comes (socket silently dead), ask the server where the game is
    state.pending.timer = setTimeout(() => refresh(), 10000);
    return;
  }
  try {
    const out = await api("POST", `/api/games/${gameId}/action`, { verb, arg, version, role: p.role });
    clearPending();
    apply(out);
  } catch (e) {
    clearPending();
    if (e.status === 0) {  // offline: keep it for when the connection is back
      state.queued = { verb, arg, version };
      state.choices = [];
      renderChoices();
      showError(errorBox, new Error("You are offline: your action will be sent when the connection is back."));
      return;
    }
    failed(e.code, e.message);
  }
}

async function undo() {
  const p = state.payload;
  if (!p || state.pending) return;
  const version = p.version;
  const id = state.nextId++;
  state.pending = { id, verb: "undo", arg: null, version, timer: null };
  renderChoices();
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify({ type: "undo", id, version }));
    state.pending.timer = setTimeout(() => refresh(), 10000);
    return;
  }
  try {
    apply(await api("POST", `/api/games/${gameId}/undo`, { version, role: p.role }));
  } catch (e) { failed(e.code, e.message); } finally { clearPending(); }
}

function failed(code, message) {
  if (code === "stale_version") showError(errorBox, new Error("The game moved on before your action arrived; here is the current position."));
  else showError(errorBox, new Error(message));
  refresh();
}

async function refresh() {
  try {
    const out = await api("GET", `/api/games/${gameId}/view${query()}`);
    if (state.pending && out.version === state.pending.version) clearPending();
    state.payload = null;  // accept whatever the server says now
    apply(out);
  } catch (e) {
    showError(errorBox, e);
  }
}

// ------------------------------------------------------------------ live connection
function setConn(text, cls) {
  conn.textContent = text;
  conn.className = `conn ${cls}`;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${gameId}/ws${query()}`);
  state.ws = ws;
  setConn(state.retry ? "Reconnecting…" : "Connecting…", "wait");
  ws.addEventListener("open", () => {
    state.retry = 0;
    setConn("Live", "ok");
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "state") {
      const { type, ...payload } = msg;
      apply(payload);
    } else if (msg.type === "chat") {
      addChat(msg.messages || []);
    } else if (msg.type === "messages") {
      window.dispatchEvent(new CustomEvent("roses:messages", { detail: msg }));  // negotiation.js
    } else if (msg.type === "result") {
      const { type, id, seq, duplicate, ...payload } = msg;
      if (state.pending && id === state.pending.id) clearPending();
      apply(payload);
    } else if (msg.type === "ok") {
      // the new state follows (or came already)
    } else if (msg.type === "error") {
      if (state.pending && (msg.id === undefined || msg.id === state.pending.id)) {
        clearPending();
        failed(msg.code, msg.detail);
      } else if (msg.status === 404 || msg.status === 403) {
        showError(errorBox, new Error(msg.detail));
        state.closed = true;
      }
    }
  });
  ws.addEventListener("close", () => {
    if (state.ws !== ws) return;
    state.ws = null;
    if (state.closed) { setConn("Disconnected", "bad"); return; }
    // An action in flight may or may not have been applied: the view we get on reconnect
    // says which (its version), and we never resend it by ourselves.
    if (state.pending) {
      // it may or may not have arrived: the view on reconnect tells (same version: resend it)
      const { verb, arg, version, key } = state.pending;
      clearPending();
      state.queued = { verb, arg, version, key };
      showError(errorBox, new Error("The connection dropped while your action was on its way: it will be sent again if it did not arrive."));
    }
    const delay = Math.min(10000, 500 * 2 ** state.retry);
    state.retry += 1;
    setConn(`Offline: reconnecting in ${Math.round(delay / 1000) || 1} s…`, "bad");
    setTimeout(connect, delay);
  });
}
window.addEventListener("online", () => { if (!state.ws) connect(); });

// ------------------------------------------------------------------ chat
const chatPanel = document.getElementById("chat-panel");
const chatList = document.getElementById("chat");
const seenChat = new Set();
let chatPrimed = false;  // the messages sent on connect are not news
setTimeout(() => { chatPrimed = true; }, 3000);
function addChat(messages) {
  chatPanel.hidden = false;
  let fresh = false;
  for (const m of messages) {
    if (seenChat.has(m.id)) continue;
    seenChat.add(m.id);
    fresh = chatPrimed;
    chatList.appendChild(h("li", {}, h("strong", {}, `${m.user || "?"}: `), m.text,
      h("span", { class: "muted small" }, ` ${new Date(m.time * 1000).toLocaleTimeString()}`)));
  }
  chatList.scrollTop = chatList.scrollHeight;
  if (fresh) tabs.news("chat", true);
}
document.getElementById("chat-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = ev.target.elements.text;
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify({ type: "chat", text }));
  else {
    try { await api("POST", `/api/games/${gameId}/chat`, { text }); } catch (e) { showError(errorBox, e); }
  }
});

// ------------------------------------------------------------------ seats (before the start)
async function renderSeats() {
  const p = state.payload;
  const panel = document.getElementById("seats-panel");
  if (!p || p.status !== "open") { panel.hidden = true; return; }
  panel.hidden = false;
  let info;
  try { info = await api("GET", `/api/games/${gameId}${config.invite ? `?invite=${encodeURIComponent(config.invite)}` : ""}`); } catch (e) { return; }
  const seats = document.getElementById("seats");
  seats.replaceChildren(...info.seats.map((s) => h("li", {}, h("strong", {}, `${s.role}: `),
    s.user || (s.bot ? `bot (${s.bot})` : "open"), " ",
    !s.user && !s.bot && config.user && !info.my_roles.length
      ? h("button", { type: "button", class: "join", dataset: { role: s.role }, onclick: () => join(s.role) }, `Join as ${s.role}`) : null,
    info.my_roles.includes(s.role)
      ? h("button", { type: "button", class: "leave", onclick: () => leave(s.role) }, "Leave this seat") : null)));
  if (!config.user) seats.appendChild(h("li", {}, h("a", { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, "Log in to join")));
  inviteForm.hidden = !info.my_roles.length;
  const link = `${location.origin}/games/${gameId}${info.invite_token ? `?invite=${encodeURIComponent(info.invite_token)}` : ""}`;
  const invite = document.getElementById("invite");
  invite.replaceChildren("Invite link: ", h("input", { readonly: true, value: link, class: "invite-link", "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
    h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, "Copy"));
}

const inviteForm = document.getElementById("invite-form");
inviteForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = inviteForm.elements.user.value.trim();
  if (!name) return;
  try {
    await api("POST", `/api/games/${gameId}/invite`, { user: name });
    document.getElementById("invite-status").textContent = `${name} has been sent an invitation.`;
    inviteForm.reset();
  } catch (e) { showError(document.getElementById("seats-error"), e); }
});

async function leave(role) {
  try {
    await api("POST", `/api/games/${gameId}/leave`, { role });
    location.href = "/lobby";
  } catch (e) { showError(document.getElementById("seats-error"), e); }
}

async function join(role) {
  try {
    await api("POST", `/api/games/${gameId}/join`, { role, invite: config.invite || null });
    config.role = role;
    config.myRoles = [role];
    history.replaceState(null, "", `/games/${gameId}${query()}`);
    state.closed = false;
    if (state.ws) { const old = state.ws; state.ws = null; old.close(); }
    state.payload = null;
    document.getElementById("card-ref-open").addEventListener("click", () => showCards());

connect();
  } catch (e) { showError(document.getElementById("seats-error"), e); }
}

// ------------------------------------------------------------------ notes and resigning
const notes = document.getElementById("notes");
let notesRole = null;
async function setupSeatTools(p) {
  const seated = p && p.role && p.role !== "Observer";
  document.getElementById("resign-panel").hidden = !(seated && p.status === "active");
  document.getElementById("notes-panel").hidden = !seated;
  if (!seated || notesRole === p.role) return;
  notesRole = p.role;
  try {
    const n = await api("GET", `/api/games/${gameId}/notes/${encodeURIComponent(p.role)}`);
    if (document.activeElement !== notes) notes.value = n.text || "";
  } catch (e) { /* notes unavailable */ }
}
let notesTimer = null;
notes.addEventListener("input", () => {
  clearTimeout(notesTimer);
  notesTimer = setTimeout(async () => {
    try {
      await api("PUT", `/api/games/${gameId}/notes/${encodeURIComponent(notesRole)}`, { text: notes.value });
      document.getElementById("notes-status").textContent = "Saved.";
    } catch (e) { document.getElementById("notes-status").textContent = e.message; }
  }, 600);
});
document.getElementById("resign").addEventListener("click", async () => {
  const p = state.payload;
  if (!p || !confirm("Resign this game? The other side wins.")) return;
  try {
    apply(await api("POST", `/api/games/${gameId}/resign`, { version: p.version, role: p.role }));
  } catch (e) { failed(e.code, e.message); }
});

document.getElementById("card-ref-open").addEventListener("click", () => showCards());

connect();
