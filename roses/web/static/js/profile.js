// Roses: the profile page (notification settings, webhook, API tokens, password).
import { api, h, showError } from "./api.js";

const settings = document.getElementById("settings-form");
const sStatus = settings.querySelector(".status");
const webhookError = document.getElementById("webhook-error");
function showSettings(s) {
  settings.elements.email.value = s.email || "";
  settings.elements.notify.checked = !!s.notify;
  settings.elements.webhook_url.value = s.webhook_url || "";
  settings.elements.webhook_format.value = s.webhook_format || "json";
  webhookError.hidden = !s.webhook_error;
  webhookError.textContent = s.webhook_error
    ? `Last webhook delivery failed${s.webhook_error_at ? ` (${new Date(s.webhook_error_at * 1000).toLocaleString()})` : ""}: ${s.webhook_error}` : "";
}
(async () => {
  try {
    showSettings(await api("GET", "/api/me/settings"));
  } catch (e) {
    if (e.status === 404) sStatus.textContent = "Notification settings are not available on this server yet.";
    else sStatus.textContent = e.message;
  }
})();
settings.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const body = { email: settings.elements.email.value || null, notify: settings.elements.notify.checked,
                 webhook_url: settings.elements.webhook_url.value || null,
                 webhook_format: settings.elements.webhook_format.value };
  try {
    showSettings(await api("PUT", "/api/me/settings", body));
    sStatus.textContent = "Saved.";
  } catch (e) {
    sStatus.textContent = e.status === 404 ? "Notification settings are not available on this server yet." : e.message;
  }
});

const list = document.getElementById("token-list");
const tStatus = document.getElementById("token-status");
async function loadTokens() {
  const tokens = await api("GET", "/api/tokens");
  list.replaceChildren(...tokens.map((t) => h("li", {},
    h("strong", {}, t.name), " ",
    h("span", { class: "muted" }, `created ${new Date(t.created_at * 1000).toLocaleString()}${t.last_used ? `, last used ${new Date(t.last_used * 1000).toLocaleString()}` : ", never used"}`), " ",
    h("button", { type: "button", onclick: async () => { await api("DELETE", `/api/tokens/${t.id}`); loadTokens(); } }, `Revoke ${t.name}`))));
  if (!tokens.length) list.replaceChildren(h("li", { class: "muted" }, "No tokens."));
}
loadTokens().catch((e) => { tStatus.textContent = e.message; });
document.getElementById("token-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  try {
    const t = await api("POST", "/api/tokens", { name: f.elements.name.value });
    tStatus.replaceChildren("New token (copy it now, it will not be shown again): ", h("code", { class: "token" }, t.token));
    f.reset();
    loadTokens();
  } catch (e) { tStatus.textContent = e.message; }
});

const pw = document.getElementById("password-form");
pw.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const st = pw.querySelector(".status");
  try {
    await api("POST", "/api/auth/password", { old_password: pw.elements.old_password.value, new_password: pw.elements.new_password.value, keep_tokens: pw.elements.keep_tokens.checked });
    st.textContent = "Password changed.";
    pw.reset();
  } catch (e) { st.textContent = e.message; }
});

document.getElementById("test-notify").addEventListener("click", async () => {
  sStatus.textContent = "Sending a test notification…";
  let out;
  try {
    out = await api("POST", "/api/me/settings/test");
  } catch (e) { sStatus.textContent = e.message; return; }
  const names = { webhook: "your webhook", email: "your e-mail address" };
  const to = (out.channels || []).map((c) => names[c] || c).join(" and ");
  const notes = (out.problems || []).join(" ");
  sStatus.textContent = `Test notification sent to ${to}. ${notes}`.trim();
  // the delivery runs in the background: show its first failure (it is retried) or the final one
  const before = webhookError.textContent;
  for (const wait of [2000, 4000, 8000, 16000, 30000, 60000]) {
    await new Promise((r) => setTimeout(r, wait));
    let s;
    try { s = await api("GET", "/api/me/settings"); } catch (e) { return; }
    showSettings(s);
    if (s.webhook_error && webhookError.textContent !== before) {
      sStatus.textContent = "The test notification could not be delivered: see the error above.";
      return;
    }
    if (s.retrying_error) sStatus.textContent = `Delivery failed, retrying: ${s.retrying_error}`;
    else sStatus.textContent = `Test notification sent to ${to}; no failure reported. ${notes}`.trim();
  }
});
