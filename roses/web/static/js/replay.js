// Roses: replay a finished game step by step, from either side's point of view (or an
// observer's). Each step is the server's view for that role after that many actions.

import { api, h, showError } from "./api.js";
import { fallbackLabel } from "./actions.js";
import { closeRules, loadBoard, renderView, setupTabs, showAreaInfo, smallScreen } from "./board.js";

const config = JSON.parse(document.getElementById("config").textContent);
const gameId = config.gameId;
const inv = config.invite ? `&invite=${encodeURIComponent(config.invite)}` : "";
let shown = null;
const board = await loadBoard(gameId, { onArea: (name) => shown && showAreaInfo(board, name, shown.view || {}) }, config.game, config.client);
const tabs = setupTabs();
let resultShown = false;
const slider = document.getElementById("step");
const label = document.getElementById("step-label");
const pov = document.getElementById("pov");
const actionText = document.getElementById("replay-action");
const prompt = document.getElementById("prompt");
// the controls never submit (no inline handler: the Content-Security-Policy forbids them)
document.getElementById("replay-controls").addEventListener("submit", (ev) => ev.preventDefault());

let info = null;
try {
  info = await api("GET", `/api/games/${gameId}/replay${config.invite ? `?invite=${encodeURIComponent(config.invite)}` : ""}`);
} catch (e) {
  // a running game (409) or one we may not see: say so, offer the game page, stop here
  const gameLink = h("a", { href: `/games/${gameId}${config.invite ? `?invite=${encodeURIComponent(config.invite)}` : ""}` }, "Go to the game page");
  prompt.replaceChildren(e.status === 409 ? "The replay is available when the game is over. " : `${e.message} `, gameLink);
  document.getElementById("replay-controls").hidden = true;
  document.body.dataset.ready = "error";
}
if (info) start(info);

function start(info) {
  const roles = [...info.roles, "Observer"];
  for (const r of roles) {
    const o = document.createElement("option");
    o.value = r;
    o.textContent = r === "Observer" ? "Observer (public only)" : r;
    pov.appendChild(o);
  }
  pov.value = roles.includes(config.role) ? config.role : info.roles[0];
  const last = info.steps - 1;
  slider.max = String(last);
  slider.value = "0";

  const cache = new Map();
  let current = -1;
  let token = 0;

  async function show(step) {
    step = Math.max(0, Math.min(last, step));
    const role = pov.value;
    const key = `${role}|${step}`;
    const mine = ++token;
    let data = cache.get(key);
    if (!data) {
      try {
        data = await api("GET", `/api/games/${gameId}/replay/${step}?role=${encodeURIComponent(role)}${inv}`);
      } catch (e) {
        showError(null, e);
        prompt.textContent = e.message;
        return;
      }
      cache.set(key, data);
    }
    if (mine !== token) return;
    current = step;
    shown = data;
    slider.value = String(step);
    label.textContent = `Step ${step} of ${last}`;
    const a = data.action;
    actionText.textContent = a ? `${a.role}: ${data.action_label || fallbackLabel(a.verb, a.arg)}` : "Setup";
    renderView(board, { ...data, role, version: step, status: "finished",
                        result: step === last ? info.result : null }, { role, choices: [], replay: true });
    tabs.battle(!document.getElementById("battle-panel").hidden);
    if (step === last && !resultShown) { resultShown = true; if (smallScreen()) tabs.show("game"); }
    document.body.dataset.step = String(step);
    document.body.dataset.pov = role;
    document.body.dataset.ready = "1";
  }

  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  document.getElementById("last").addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  pov.addEventListener("change", () => show(current));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { closeRules(); return; }
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) && ev.target !== slider) return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); show(current + 1); }
    if (ev.key === "ArrowLeft") { ev.preventDefault(); show(current - 1); }
  });
  // autoplay: one step a second until the end or until pressed again
  const auto = document.getElementById("auto");
  let timer = null;
  function stopAuto() { clearInterval(timer); timer = null; auto.textContent = "Play"; auto.setAttribute("aria-pressed", "false"); }
  auto.addEventListener("click", () => {
    if (timer) { stopAuto(); return; }
    auto.textContent = "Pause";
    auto.setAttribute("aria-pressed", "true");
    timer = setInterval(() => { if (current >= last) stopAuto(); else show(current + 1); }, 1000);
  });
  show(0);
}
