// Roses: small helpers around the JSON API (same origin, session cookie + CSRF header).

export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return null;
}

export class ApiError extends Error {
  constructor(status, code, detail, errors = null) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.errors = Array.isArray(errors) ? errors : null;  // each fault, when the server lists them
  }
}

export async function api(method, path, body = undefined) {
  const headers = { Accept: "application/json" };
  const opts = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (method !== "GET") {
    const csrf = cookie("roses_csrf");
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new ApiError(res.status, data && data.code, (data && data.detail) || res.statusText, data && data.errors);
  return data;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(typeof c === "object" ? JSON.stringify(c) : String(c)));
  }
  return node;
}

export function showError(el, err) {
  if (!el) return;
  el.textContent = err ? (err.message || String(err)) : "";
  if (err && err.errors && err.errors.length) el.appendChild(h("ul", { class: "error-list" }, err.errors.map((e) => h("li", {}, e))));
  el.hidden = !err;
}
