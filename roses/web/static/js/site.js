// Roses: behaviour shared by every page (log in, sign up, log out).
import { api, showError } from "./api.js";

for (const logout of document.querySelectorAll("#logout, button.logout")) {
  logout.addEventListener("click", async () => {
    try { await api("POST", "/api/auth/logout"); } catch (e) { /* already logged out */ }
    location.href = "/";
  });
}

function authForm(id, path, fields) {
  const form = document.getElementById(id);
  if (!form) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = form.querySelector(".error");
    const body = {};
    for (const f of fields) {
      const v = form.elements[f].value;
      if (v !== "" || f !== "email") body[f] = v;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await api("POST", path, body);
      location.href = form.dataset.next || "/lobby";
    } catch (e) {
      showError(err, e);
      button.disabled = false;
    }
  });
}
authForm("login-form", "/api/auth/login", ["name", "password"]);
authForm("signup-form", "/api/auth/signup", ["name", "password", "email"]);
