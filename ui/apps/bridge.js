// Mooring's side of MCP Apps (io.modelcontextprotocol/ui, 2026-01-26): JSON-RPC 2.0 with
// the host over postMessage — ui/initialize, the tool's input and result, tools/call,
// ui/update-model-context, size changes and the host's theme and style variables.
"use strict";
const host = (() => {
  let next = 1;
  const waiting = new Map();
  const handlers = {};
  addEventListener("message", (e) => {
    const m = e.data;
    if (e.source !== parent || !m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.error) w.reject(new Error(m.error.message || "the host refused")); else w.resolve(m.result);
      return;
    }
    const h = handlers[m.method];
    const done = Promise.resolve(h ? h(m.params || {}) : undefined);
    if (m.id !== undefined) done.then((r) => parent.postMessage({ jsonrpc: "2.0", id: m.id, result: r || {} }, "*"));
  });
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
  });
  const notify = (method, params) => parent.postMessage({ jsonrpc: "2.0", method, params }, "*");
  return { request, notify, on: (method, f) => { handlers[method] = f; } };
})();

function applyContext(ctx) {
  const root = document.documentElement;
  if (ctx.theme) root.dataset.theme = ctx.theme;
  for (const [k, v] of Object.entries(ctx.styles?.variables || {})) if (v) root.style.setProperty(k, v);
  const fonts = ctx.styles?.css?.fonts;
  if (fonts && !document.getElementById("host-fonts")) {
    const s = document.createElement("style");
    s.id = "host-fonts";
    s.textContent = fonts;
    document.head.append(s);
  }
}

/** Connect to the host; resolves once the handshake is done. */
async function connect(name) {
  host.on("ui/notifications/host-context-changed", applyContext);
  host.on("ui/resource-teardown", () => ({}));
  const r = await host.request("ui/initialize", {
    appInfo: { name, version: "1" }, appCapabilities: {}, protocolVersion: "2026-01-26",
  });
  applyContext(r.hostContext || {});
  host.notify("ui/notifications/initialized", {});
  let last = "";
  new ResizeObserver(() => {
    const size = { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key !== last) { last = key; host.notify("ui/notifications/size-changed", size); }
  }).observe(document.documentElement);
  return r;
}

/** Call one of Mooring's tools through the host: its structured result, or an Error
 *  carrying Mooring's message. */
async function callTool(name, args) {
  const r = await host.request("tools/call", { name, arguments: args });
  const s = r?.structuredContent;
  if (r?.isError) {
    const err = new Error(s?.error?.message || r.content?.[0]?.text || "Mooring refused");
    err.code = s?.error?.code;
    throw err;
  }
  return s;
}

/** Tell the model what the person did here (hosts without it ignore the request). */
function tellModel(text) {
  host.request("ui/update-model-context", { content: [{ type: "text", text }] }).catch(() => {});
}

const el = (tag, props = {}, ...kids) => {
  const n = Object.assign(document.createElement(tag), props);
  n.append(...kids.filter((k) => k !== null && k !== undefined));
  return n;
};
const app = document.getElementById("app");
const show = (...nodes) => app.replaceChildren(...nodes);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
