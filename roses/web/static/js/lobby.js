// Roses: the lobby (create a game, join an open seat).
import { api, h, showError } from "./api.js";

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const form = document.getElementById("create-form");
const gameSel = document.getElementById("create-game");
const scenSel = document.getElementById("create-scenario");
const roleSel = document.getElementById("create-role");
const optBox = document.getElementById("create-options");

function rulesOf(id) { return catalogue.find((r) => r.id === id); }

const seatBox = document.getElementById("create-seats");
const opponentLabel = document.getElementById("create-opponent").closest("label");
const BOTS = [["easy", "Bot: easy"], ["medium", "Bot: medium"], ["hard", "Bot: hard"], ["random", "Bot: random moves"]];
let roles = [];

function fillScenarios() {
  const r = rulesOf(gameSel.value);
  scenSel.replaceChildren(...r.scenarios.map((s) => h("option", { value: s.id }, s.name)));
  optBox.replaceChildren(h("legend", {}, "Options"));
  const opts = Object.entries(r.options || {});
  if (!opts.length) optBox.appendChild(h("p", { class: "muted" }, "This game has no options."));
  for (const [name, o] of opts) {
    const label = o.label || name;
    if (o.type === "bool" || o.type === "boolean") {
      optBox.appendChild(h("label", { class: "inline" }, h("input", { type: "checkbox", name: `opt-${name}`, checked: !!o.default }), ` ${label}`));
    } else if (o.choices) {
      optBox.appendChild(h("label", {}, `${label} `, h("select", { name: `opt-${name}` },
        o.choices.map((c) => h("option", { value: c, selected: c === o.default }, String(c))))));
    } else if (o.format === "roses-upload" || o.type === "object") {  // a file the person chooses (a board, a deck), or the default
      const json = (o.contentMediaType || "application/json") === "application/json";
      const file = h("input", { type: "file", name: `opt-${name}`, accept: json ? ".json,application/json" : o.contentMediaType, hidden: true });
      const status = h("span", { class: "small muted", role: "status" });
      const pick = h("select", { name: `opt-${name}-source`, "aria-label": label },
        h("option", { value: "" }, "the standard one"), h("option", { value: "file" }, "my own, from a file…"));
      pick.addEventListener("change", () => { file.hidden = pick.value !== "file"; if (file.hidden) { file.value = ""; file.parsed = undefined; file.bad = false; status.textContent = ""; } });
      file.addEventListener("change", async () => {
        file.parsed = undefined;
        const f = file.files && file.files[0];
        if (!f) { status.textContent = ""; return; }
        file.bad = false;
        try {
          file.parsed = JSON.parse(await f.text());
          if (json && (typeof file.parsed !== "object" || file.parsed === null || Array.isArray(file.parsed))) throw new Error("not an object");
          status.textContent = ` ${f.name} read.`;
        } catch (e) { file.parsed = undefined; file.bad = true; status.textContent = ` ${f.name} is not a file of this kind.`; }
      });
      optBox.appendChild(h("label", {}, `${label.replace(/\s*\(default: [^)]*\)$/, "").replace(/ in the [a-z0-9-]+\/\d+ format/, "")}: `, pick, file, status));
    } else if (o.type === "int") {
      optBox.appendChild(h("label", {}, `${label} `, h("input", { name: `opt-${name}`, type: "number", min: o.min, max: o.max, value: o.default ?? "" })));
    } else {
      optBox.appendChild(h("label", {}, `${label} `, h("input", { name: `opt-${name}`, value: o.default ?? "" })));
    }
  }
  refreshRoles();
}

// The options as the API takes them; throws on a malformed JSON option.
function readOptions() {
  const r = rulesOf(gameSel.value);
  const options = {};
  for (const [name, o] of Object.entries(r.options || {})) {
    const el = form.elements[`opt-${name}`];
    if (!el) continue;
    if (el.type === "checkbox") options[name] = el.checked;
    else if (o.format === "roses-upload" || o.type === "object") {
      if (el.bad) throw new Error(`${o.label || name}: the file chosen cannot be read`);
      if (el.parsed !== undefined) options[name] = el.parsed;
    }
    else if (o.type === "int" || typeof o.default === "number") options[name] = Number(el.value);
    else options[name] = el.value;
  }
  return options;
}

// The seats depend on the options (Kingmaker: 2 to 8 players, and the umpire's seat): ask the server.
// Only the answer to the latest question is used: an older answer arriving late is dropped.
let rolesAsked = 0;
async function refreshRoles() {
  const asked = ++rolesAsked;
  const r = rulesOf(gameSel.value);
  const s = r.scenarios.find((x) => x.id === scenSel.value) || r.scenarios[0];
  let got = s.roles;
  try {
    got = (await api("POST", `/api/rules/${encodeURIComponent(r.id)}/roles`, { scenario: s.id, options: readOptions() })).roles;
  } catch (e) { /* a bad option: the scenario's seats until it is fixed; creating the game says why */ }
  if (asked !== rolesAsked) return;
  roles = got;
  fillRoles();
}

function fillRoles() {
  const keep = roleSel.value;
  roleSel.replaceChildren(
    h("option", { value: "random" }, "Random"),
    ...roles.map((role) => h("option", { value: role, selected: role === keep }, role)),
    h("option", { value: "" }, "None (I only create it)"));
  fillSeats();
}

// More than two seats: a person or a bot for each seat; two seats: the one "Opponent" choice.
function fillSeats() {
  const many = roles.length > 2;
  // What was chosen for each seat is kept when the seats are drawn again (other options changed).
  const chosen = {};
  for (const sel of seatBox.querySelectorAll("select")) chosen[sel.name] = sel.value;
  seatBox.hidden = !many;
  opponentLabel.hidden = many;
  seatBox.replaceChildren(h("legend", {}, "Seats (yours is the side above)"));
  if (!many) return;
  const mine = roleSel.value;
  for (const role of roles) {
    if (role === mine) {  // the creator's own seat: a person, never a bot
      seatBox.appendChild(h("p", { class: "own-seat", dataset: { role } }, h("strong", {}, `${role}: `), "you"));
      continue;
    }
    const choices = role === rulesOf(gameSel.value).umpire ? [] : BOTS;  // the umpire is a person
    const sel = h("select", { name: `seat-${role}` },
      h("option", { value: "human" }, "A person (open seat, or the invite link)"),
      choices.map(([v, t]) => h("option", { value: v }, t)));
    if (choices.some(([v]) => v === chosen[sel.name])) sel.value = chosen[sel.name];
    seatBox.appendChild(h("label", {}, `${role} `, sel));
  }
  if (mine === "random") seatBox.appendChild(h("p", { class: "muted small" }, "Your seat is drawn among those left to a person."));
}
roleSel.addEventListener("change", fillSeats);
gameSel.addEventListener("change", fillScenarios);
scenSel.addEventListener("change", refreshRoles);
optBox.addEventListener("change", refreshRoles);
fillScenarios();

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = form.querySelector(".error");
  const r = rulesOf(gameSel.value);
  let options;
  try { options = readOptions(); } catch (e) { showError(err, e); return; }
  const body = { game: r.id, scenario: scenSel.value, title: form.elements.title.value || null,
                 private: form.elements.private.checked, options, pace: form.elements.pace.value || null,
                 preview: !!r.preview };
  let role = roleSel.value || null;
  if (roles.length > 2) {
    const bots = {};
    for (const x of roles) {
      const v = form.elements[`seat-${x}`]?.value;
      if (x !== role && v && v !== "human") bots[x] = v;
    }
    body.bots = bots;
  } else if (form.elements.opponent.value !== "human") {
    if (role === "random" || !role) role = roles[0];
    body.bots = Object.fromEntries(roles.filter((x) => x !== role).map((x) => [x, form.elements.opponent.value]));
  }
  body.role = role;
  try {
    const g = await api("POST", "/api/games", body);
    const q = g.invite_token ? `?invite=${encodeURIComponent(g.invite_token)}` : "";
    location.href = `/games/${g.id}${q}`;
  } catch (e) { showError(err, e); }
});

for (const btn of document.querySelectorAll("button.join")) {
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      await api("POST", `/api/games/${btn.dataset.game}/join`, { role: btn.dataset.role });
      location.href = `/games/${btn.dataset.game}`;
    } catch (e) {
      btn.disabled = false;
      alert(e.message);
    }
  });
}

function scenarioName(g) {
  const r = rulesOf(g.game);
  const sc = r && r.scenarios.find((x) => x.id === g.scenario);
  return sc ? sc.name : g.scenario;
}

// Keep "My games" current (whose turn it is) without reloading the page.
function gameRow(g) {
  const who = g.seats.map((s) => `${s.role}: ${s.user || (s.bot ? `bot ${s.bot}` : "open")}`).join(", ");
  const rules = rulesOf(g.game);
  return h("li", { class: `game-row${g.your_turn ? " your-turn" : ""}`, dataset: { game: String(g.id) } },
    h("a", { href: `/games/${g.id}` }, g.title || `Game ${g.id}`), " ",
    h("span", { class: "game-name" }, rules ? rules.title : g.game), " ",
    g.your_turn ? h("strong", { class: "badge turn" }, "Your turn") : null, " ",
    h("span", { class: "muted" }, `${scenarioName(g)}${g.played_with ? ` · ${g.played_with}` : ""} · ${g.status} · ${who}${g.result ? ` · result: ${g.result}` : ""}`),
    g.status === "finished" ? h("a", { class: "small", href: `/games/${g.id}/replay` }, "Replay") : null);
}
async function refreshMine() {
  try {
    const games = await api("GET", "/api/me/games");
    const old = document.getElementById("my-games");
    if (!games.length) return;
    const list = h("ul", { class: "gamelist", id: "my-games" }, games.map(gameRow));
    old.replaceWith(list);
    const n = games.filter((g) => g.your_turn).length;
    document.title = `${n ? `(${n}) ` : ""}Lobby · Roses`;
  } catch (e) { /* offline: try again later */ }
}
setInterval(refreshMine, 20000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshMine(); });
