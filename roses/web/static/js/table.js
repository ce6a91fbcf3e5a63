// Roses: the table of a running game — the umpire's controls (pause, resume, extend a deadline),
// leaving a seat, taking an empty one, the creator's replacement of a player who has left, and a
// player's vacation (roses/server/tables.py,
// umpiring.py, attendance.py). Drawn from the API, again every 20 seconds.
import { api, h, showError } from "./api.js";

const config = JSON.parse(document.getElementById("config").textContent);
const gameId = Number(document.getElementById("game").dataset.gameId);
const panel = document.getElementById("table-panel");
const box = document.getElementById("table");
const err = document.getElementById("table-error");
const inv = config.invite ? `?invite=${encodeURIComponent(config.invite)}` : "";
const BOTS = [["random", "random moves"], ["easy", "easy"], ["medium", "medium"], ["hard", "hard"]];

async function run(method, path, body) {
  err.hidden = true;
  try { await api(method, path, body); await draw(); } catch (e) { showError(err, e); }
}

function botSelect(name) {
  return h("select", { name }, h("option", { value: "" }, "no bot"), BOTS.map(([v, t]) => h("option", { value: v }, `bot: ${t}`)));
}

async function draw() {
  let info, vacations;
  try {
    info = await api("GET", `/api/games/${gameId}${inv}`);
    vacations = await api("GET", `/api/games/${gameId}/vacations${inv}`);
  } catch (e) { return; }
  const running = info.status === "active" || info.status === "paused";
  panel.hidden = !running;
  if (!running) return;
  const out = [];
  if (info.status === "paused") out.push(h("p", { class: "km-paused", role: "status" }, "The umpire has paused the game: no move until he resumes it."));
  const mine = info.my_roles || [];
  const umpire = info.umpire;  // the umpire's seat the game's rules declare, or null
  if (umpire && mine.includes(umpire)) {
    const players = info.seats.map((s) => s.role).filter((r) => r !== umpire);
    const paused = info.status === "paused";
    out.push(h("div", { class: "row" },
      h("button", { type: "button", id: "umpire-pause", onclick: () => run("POST", `/api/games/${gameId}/umpire/${paused ? "resume" : "pause"}`, paused ? undefined : { reason: document.getElementById("umpire-reason").value }) },
        paused ? "Resume the game" : "Pause the game"),
      paused ? null : h("label", {}, " reason ", h("input", { id: "umpire-reason", maxlength: 300 }))));
    if (info.pace) {
      const f = h("form", { id: "extend-form", class: "row" },
        h("label", {}, "Extend ", h("select", { name: "role" }, players.map((r) => h("option", { value: r }, r)))),
        h("label", {}, " by ", h("input", { name: "hours", type: "number", min: 1, max: 2160, value: 24 }), " hours "),
        h("button", { type: "submit" }, "Extend the deadline"));
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        run("POST", `/api/games/${gameId}/umpire/extend`, { role: f.elements.role.value, seconds: Number(f.elements.hours.value) * 3600 });
      });
      out.push(f);
    }
  }
  if (config.user && info.owner === config.user) {
    // the creator replaces a player who is away (the server frees a seat only when it has
    // waited a week for its player's decision), or gives a seat no person holds (empty or a
    // bot's) to a user by name
    const rows = [];
    for (const s of info.seats) {
      if (s.user && !mine.includes(s.role)) {
        const f = h("form", { class: "row take-form", dataset: { role: s.role } }, `${s.role} (${s.user}): `, botSelect("bot"), " ",
          h("button", { type: "submit", title: "Only once the seat has waited 7 days for its player's decision" }, "Free the seat of an absent player"));
        f.addEventListener("submit", (ev) => {
          ev.preventDefault();
          if (!confirm(`Free the seat ${s.role}? This is possible only if ${s.user} has left it to wait 7 days for a decision; every player will read that you freed it.`)) return;
          run("POST", `/api/games/${gameId}/seats/${encodeURIComponent(s.role)}/vacate`, { bot: f.elements.bot.value || null });
        });
        rows.push(f);
      } else if (!s.user) {
        const f = h("form", { class: "row give-form", dataset: { role: s.role } },
          h("label", {}, `${s.role} (${s.bot ? `bot ${s.bot}` : "empty"}) to the user `, h("input", { name: "user", required: true, maxlength: 40, autocomplete: "off" })), " ",
          h("button", { type: "submit" }, "Give the seat"));
        f.addEventListener("submit", (ev) => {
          ev.preventDefault();
          run("POST", `/api/games/${gameId}/seats/${encodeURIComponent(s.role)}/assign`, { user: f.elements.user.value.trim() });
        });
        rows.push(f);
      }
    }
    if (rows.length) out.push(h("h3", {}, "Seats (you created this game)"), ...rows);
  }
  // a person holds one seat of a game whose roles hide things from each other (the server
  // refuses a second): a seated player is not offered another
  const empty = info.one_seat && mine.length ? [] : info.seats.filter((s) => !s.user && !s.bot);
  for (const s of empty) {
    out.push(h("button", { type: "button", class: "claim", onclick: () => run("POST", `/api/games/${gameId}/seats/${encodeURIComponent(s.role)}/claim${inv}`) }, `Take the empty seat ${s.role}`));
  }
  for (const role of mine.filter((r) => r !== umpire)) {
    const f = h("form", { class: "row vacation-form", dataset: { role } },
      h("label", {}, `${role} away for `, h("input", { name: "days", type: "number", min: 1, max: 60, value: 7 }), " days, "),
      botSelect("bot"), " ", h("button", { type: "submit" }, "Go on vacation"));
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      run("POST", `/api/games/${gameId}/vacations`, { role, until: Date.now() / 1000 + Number(f.elements.days.value) * 86400, bot: f.elements.bot.value || null });
    });
    out.push(f);
    const leave = h("form", { class: "row leave-form" }, "Leave ", role, ", handing the seat to ", botSelect("bot"), " ",
      h("button", { type: "submit" }, "Leave this seat"));
    leave.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (!confirm(`Leave the seat ${role} for good?`)) return;
      run("POST", `/api/games/${gameId}/seats/${encodeURIComponent(role)}/vacate`, { bot: leave.elements.bot.value || null });
    });
    out.push(leave);
  }
  if (vacations.length) {
    out.push(h("h3", {}, "Away"), h("ul", { id: "vacations" }, vacations.map((v) => h("li", {},
      `${v.role}: until ${new Date(v.until * 1000).toLocaleString()}${v.bot ? ` (bot ${v.bot} plays)` : " (defaults are played)"} `,
      mine.includes(v.role) ? h("button", { type: "button", class: "linklike", onclick: () => run("DELETE", `/api/games/${gameId}/vacations/${v.id}`) }, "I am back") : null))));
  }
  if (info.seat_changes && info.seat_changes.length) {
    // every change of a seat in a running game is public (who left, who came, why)
    out.push(h("h3", {}, "Seats that changed hands"),
      h("ul", { id: "seat-changes" }, info.seat_changes.map((c) => h("li", {}, c.text))));
  }
  box.replaceChildren(...out);
}

draw();
setInterval(draw, 20000);
