// Roses: negotiation on the game page — private messages between seats, one to one or in
// groups, optionally copied to the umpire (roses/server/messages.py, any game), and, where the
// rules have them (Kingmaker, roses/games/kingmaker/offers.py), offers of cards, ships lent,
// ransom and alliance that the other player accepts or declines, and the public alliances.
// Messages come over the page's WebSocket (game.js passes them on as "roses:messages"); the
// view (with its "negotiation" part) as "roses:state".
import { api, h, showError } from "./api.js";

const config = JSON.parse(document.getElementById("config").textContent);
const gameId = Number(config.gameId);
const panel = document.getElementById("negotiation-panel");
const box = document.getElementById("negotiation");
const err = document.getElementById("negotiation-error");

const st = {
  role: null,      // the seat this page speaks for
  seats: [],       // every seat of the game
  payload: null,   // the last view payload
  channels: new Map(),
  messages: new Map(),
  draft: { to: new Set(), umpire: false, text: "" },
  offerDraft: null,
};

const UMPIRE = "umpire";
const others = () => st.seats.filter((r) => r !== st.role);
const chanName = (c) => `${c.members.join(", ")}${c.umpire ? " (+ umpire)" : ""}`;

function take(msg) {
  for (const c of msg.channels || []) st.channels.set(c.id, c);
  for (const m of msg.messages || []) st.messages.set(m.id, m);
  draw();
}

async function loadSeats() {
  try {
    const info = await api("GET", `/api/games/${gameId}`);
    st.seats = (info.seats || []).map((s) => s.role);
  } catch (e) { /* the game page shows the error */ }
}

async function setRole(role) {
  if (role === st.role) return;
  st.role = role;
  st.channels.clear();
  st.messages.clear();
  if (!st.seats.length) await loadSeats();
  try {
    take(await api("GET", `/api/games/${gameId}/messages?role=${encodeURIComponent(role)}`));
  } catch (e) { showError(err, e); }
}

async function send(ev) {
  ev.preventDefault();
  const f = ev.target;
  const text = f.elements.text.value.trim();
  const to = [...st.draft.to];
  if (!text || !to.length) { showError(err, new Error("Choose at least one seat and write a message.")); return; }
  showError(err, null);
  try {
    const m = await api("POST", `/api/games/${gameId}/messages`, { role: st.role, to, umpire: st.draft.umpire, text });
    st.draft.text = "";
    f.elements.text.value = "";
    st.channels.set(m.channel, { id: m.channel, members: m.members, umpire: m.umpire });
    st.messages.set(m.id, m);
    draw();
  } catch (e) { showError(err, e); }
}

async function act(verb, arg) {
  const p = st.payload;
  if (!p) return;
  showError(err, null);
  try {
    await api("POST", `/api/games/${gameId}/action`, { role: st.role, verb, arg, version: p.version });
    return true;
  } catch (e) { showError(err, e); return false; }
}

function messagesPart() {
  const list = [...st.messages.values()].sort((a, b) => a.id - b.id);
  const out = [];
  if (!list.length) out.push(h("p", { class: "muted small" }, "No private message yet. Only the seats you choose (and the umpire if you copy him) read them."));
  else {
    out.push(h("ol", { id: "private-messages", class: "log chat" }, list.map((m) => {
      const c = st.channels.get(m.channel);
      return h("li", { dataset: { channel: String(m.channel) } },
        h("button", { type: "button", class: "linklike small", title: "Reply to this conversation", onclick: () => pick(c) }, c ? `[${chanName(c)}]` : ""),
        " ", h("strong", {}, `${m.role}: `), m.text,
        h("span", { class: "muted small" }, ` ${new Date(m.time * 1000).toLocaleTimeString()}`));
    })));
  }
  return out;
}

function messageForm() {
  const hasUmpire = st.seats.includes(UMPIRE) && st.role !== UMPIRE;
  const form = h("form", { id: "message-form", class: "negotiation-form" },
    h("fieldset", { class: "row" }, h("legend", {}, "To"), others().map((r) => h("label", {},
      h("input", { type: "checkbox", name: "to", value: r, checked: st.draft.to.has(r),
                   onchange: (e) => { if (e.target.checked) st.draft.to.add(r); else st.draft.to.delete(r); } }), ` ${r} `)),
      hasUmpire ? h("label", {}, h("input", { type: "checkbox", name: "umpire", checked: st.draft.umpire,
        onchange: (e) => { st.draft.umpire = e.target.checked; } }), " copy to the umpire") : null),
    h("div", { class: "row" },
      h("label", { class: "grow" }, h("span", { class: "visually-hidden" }, "Private message"),
        h("input", { name: "text", maxlength: 2000, autocomplete: "off", placeholder: "Private message", value: st.draft.text,
                     oninput: (e) => { st.draft.text = e.target.value; } })),
      h("button", { type: "submit" }, "Send privately")));
  form.addEventListener("submit", send);
  return form;
}

function pick(c) {
  if (!c) return;
  st.draft.to = new Set(c.members.filter((r) => r !== st.role));
  st.draft.umpire = c.umpire;
  parts.formKey = null;
  draw();
  const input = box.querySelector("#message-form input[name=text]");
  if (input) input.focus();
}

function names(view) {
  const out = new Map();
  for (const c of view.hand || []) out.set(c.id, c.name);
  for (const s of view.ships || []) out.set(s.id, s.name);
  for (const p of view.players || []) for (const n of p.nobles || []) out.set(n.id, n.name);
  return out;
}

function offersPart(view) {
  const neg = view.negotiation;
  const out = [];
  let form = null;
  let key = null;
  const nm = names(view);
  const label = (id) => nm.get(id) || id;
  if (neg.alliances && neg.alliances.length) {
    out.push(h("h3", {}, "Alliances (public)"), h("ul", { id: "alliances" }, neg.alliances.map((a) => h("li", {}, a.join(" and ")))));
  }
  out.push(h("h3", {}, "Offers"));
  const standing = neg.standing || null;
  if (!neg.offers.length) out.push(h("p", { class: "muted small" }, "No pending offer. An offer is binding only when accepted; its terms are seen by the two players only."));
  else {
    out.push(h("ul", { id: "offers" }, neg.offers.map((o) => {
      const toMe = o.to === st.role;
      const mine = o.from === st.role;
      const li = h("li", { class: "offer", dataset: { offer: String(o.id) } }, h("strong", {}, `Offer ${o.id}: `), o.text, " ");
      if (toMe && standing) {
        const n = (o.ask && o.ask.any) || 0;
        let chooser = null;
        if (n) {
          chooser = h("select", { multiple: true, name: "any", "aria-label": `${n} card(s) of your choice` },
            (standing.propose_exchange.cards || []).filter((c) => !(o.ask.cards || []).includes(c)).map((c) => h("option", { value: c }, label(c))));
          li.append(h("label", {}, ` choose ${n} card(s): `, chooser), " ");
        }
        li.append(
          h("button", { type: "button", class: "accept-offer", disabled: !standing.accept_now,
                        title: standing.accept_now ? "" : "An exchange takes effect at a player's own-turn decision (ruling K66)",
                        onclick: () => act("accept_exchange", n ? [o.id, [...chooser.selectedOptions].map((x) => x.value)] : o.id) }, "Accept"),
          " ",
          h("button", { type: "button", class: "decline-offer", onclick: () => act("decline_exchange", o.id) }, "Decline"));
      }
      if (mine) li.append(h("button", { type: "button", class: "withdraw-offer", onclick: () => act("withdraw_exchange", o.id) }, "Withdraw"));
      return li;
    })));
  }
  if (!standing) return { list: out, form, key };
  const p = standing.propose_exchange;
  const to = st.offerDraft && p.to.includes(st.offerDraft) ? st.offerDraft : p.to[0];
  const theirShips = (view.ships || []).filter((s) => s.controller === to && !(s.passengers || []).length).map((s) => s.id);
  const myCaptives = [];
  for (const pl of view.players || []) {
    if (pl.role !== st.role) continue;
    for (const n of pl.nobles || []) if (n.captive_of === to) myCaptives.push(n.id);
  }
  const box2 = (name, ids, legend) => (ids.length ? h("fieldset", { class: "row" }, h("legend", {}, legend), ids.map((id) => h("label", {},
    h("input", { type: "checkbox", name, value: id }), ` ${label(id)} `))) : null);
  key = JSON.stringify([p, to, theirShips, myCaptives]);
  if (key === parts.offerKey) return { list: out, form: null, key };
  form = h("form", { id: "offer-form", class: "negotiation-form" },
    h("div", { class: "row" }, h("label", {}, "Offer to ", h("select", { name: "to", onchange: (e) => { st.offerDraft = e.target.value; draw(); } },
      p.to.map((r) => h("option", { value: r, selected: r === to }, r))))),
    box2("give_cards", p.cards, "I give cards"),
    box2("give_ships", p.ships, "I lend ships"),
    box2("give_free", p.free, "I free my captives"),
    box2("ask_ships", theirShips, "I ask the loan of"),
    box2("ask_free", myCaptives, "I ask the release of"),
    h("div", { class: "row" },
      h("label", {}, "I ask cards (ids) ", h("input", { name: "ask_cards", size: 18, placeholder: "e.g. marshal, ship_mary" })),
      h("label", {}, " and ", h("input", { name: "ask_any", type: "number", min: 0, max: 10, value: 0, size: 3 }), " card(s) of their choice")),
    h("label", {}, h("input", { type: "checkbox", name: "ally" }), " an alliance (public once accepted)"),
    h("button", { type: "submit" }, "Make the offer"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    const vals = (name) => [...f.querySelectorAll(`input[name=${name}]:checked`)].map((x) => x.value);
    const asked = f.elements.ask_cards.value.split(/[\s,]+/).filter(Boolean);
    const done = await act("propose_exchange", {
      to: f.elements.to.value,
      give: { cards: vals("give_cards"), ships: vals("give_ships"), free: vals("give_free") },
      ask: { cards: asked, ships: vals("ask_ships"), free: vals("ask_free"), any: Number(f.elements.ask_any.value) || 0 },
      ally: f.elements.ally.checked,
    });
    if (done) { st.offerDraft = null; parts.offerKey = null; draw(); }
  });
  form = h("details", { class: "offer-compose", open: !!st.offerDraft }, h("summary", {}, "Make an offer"), form);
  return { list: out, form, key };
}

// The page's parts: lists are redrawn at each change; the forms only when what they offer
// changes, so that a change of the game does not wipe what is being written.
const parts = {
  heading: h("h3", {}, "Private messages"),
  list: h("div", { id: "private-list" }),
  form: h("div", { id: "private-compose" }),
  offers: h("div", { id: "offers-list" }),
  offerForm: h("div", { id: "offer-compose" }),
  formKey: null,
  offerKey: null,
};
box.replaceChildren(parts.heading, parts.list, parts.form, parts.offers, parts.offerForm);

function draw() {
  const p = st.payload;
  const seated = st.role && st.role !== "Observer";
  panel.hidden = !(seated && p && p.status !== "open");
  if (panel.hidden) return;
  parts.list.replaceChildren(...messagesPart());
  const fkey = JSON.stringify([st.role, st.seats]);
  if (fkey !== parts.formKey) {
    parts.formKey = fkey;
    parts.form.replaceChildren(messageForm());
  }
  const view = (p && p.view) || {};
  if (!view.negotiation) {
    parts.offers.replaceChildren();
    parts.offerForm.replaceChildren();
    parts.offerKey = null;
    return;
  }
  const o = offersPart(view);
  parts.offers.replaceChildren(...o.list);
  if (o.key !== parts.offerKey) {
    parts.offerKey = o.key;
    parts.offerForm.replaceChildren(...(o.form ? [o.form] : []));
  }
}

window.addEventListener("roses:messages", (ev) => take(ev.detail));
window.addEventListener("roses:state", async (ev) => {
  st.payload = ev.detail;
  const role = ev.detail.role;
  if (role && role !== "Observer") await setRole(role);
  draw();
});
if (window.roses && window.roses.payload) {
  st.payload = window.roses.payload;
  if (st.payload.role && st.payload.role !== "Observer") setRole(st.payload.role);
}
