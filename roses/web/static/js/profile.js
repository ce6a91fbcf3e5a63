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
    await api("POST", "/api/auth/password", { old_password: pw.elements.old_password.value, new_password: pw.elements.new_password.value });
    st.textContent = "Password changed.";
    pw.reset();
  } catch (e) { st.textContent = e.message; }
});

document.getElementById("test-notify").addEventListener("click", async () => {
  try {
    await api("POST", "/api/me/settings/test");
    sStatus.textContent = "Test notification queued; a failure will show here.";
    setTimeout(async () => { try { showSettings(await api("GET", "/api/me/settings")); } catch (e) { /* ignore */ } }, 4000);
  } catch (e) { sStatus.textContent = e.message; }
});
