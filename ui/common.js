// Shared by the pages that use the local API token: the token comes once in the URL
// (?token=, as the desktop and `mooring token` give it) and is kept for the tab.
export const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl) sessionStorage.setItem("mooring-token", fromUrl);

/** The local API token, or "" when the page was opened without one. */
export const token = fromUrl || sessionStorage.getItem("mooring-token") || "";

/** A call to the REST API with the token; throws an Error with the server's message (and
 * `field`, the field it names). */
export async function api(path, method = "GET", body) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const r = await fetch(`/api/v1${path}`, { method, cache: "no-store", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = new Error(r.status === 401 ? "Open this page with ?token= (mooring token prints it)." : data?.error?.message || `error ${r.status}`);
    e.field = data?.error?.field;
    throw e;
  }
  return data;
}

/** `n` and the right form of the noun. */
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// A small bar chart of a project's last four weeks (decisions, blockers, sessions per
// day), drawn here as inline SVG; its label says the same in words.
export function spark(days, { w = 3, gap = 1, h = 24 } = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "spark");
  svg.setAttribute("width", String(days.length * (w + gap)));
  svg.setAttribute("height", String(h));
  // Scales down to a narrow column (the style sheet caps its width at 100%).
  svg.setAttribute("viewBox", `0 0 ${days.length * (w + gap)} ${h}`);
  svg.setAttribute("role", "img");
  const total = (d) => d.decisions + d.blockers_opened + d.blockers_resolved + d.sessions;
  const max = Math.max(1, ...days.map(total));
  const sum = (k) => days.reduce((a, d) => a + d[k], 0);
  svg.setAttribute("aria-label", `Last ${days.length} days: ${plural(sum("decisions"), "decision", "decisions")}, ${plural(sum("blockers_opened"), "blocker opened", "blockers opened")}, ${plural(sum("blockers_resolved"), "blocker resolved", "blockers resolved")}, ${plural(sum("sessions"), "session", "sessions")}`);
  days.forEach((d, i) => {
    let y = h;
    for (const [k, colour] of [["decisions", "--bar-decision"], ["blockers_opened", "--bar-blocker"], ["blockers_resolved", "--bar-resolved"], ["sessions", "--bar-session"]]) {
      if (!d[k]) continue;
      const bh = Math.max(1, Math.round((d[k] / max) * h));
      y -= bh;
      const r = document.createElementNS(ns, "rect");
      r.setAttribute("x", String(i * (w + gap)));
      r.setAttribute("y", String(y));
      r.setAttribute("width", String(w));
      r.setAttribute("height", String(bh));
      r.setAttribute("fill", `var(${colour})`);
      svg.append(r);
    }
  });
  return svg;
}


/** Call `onChange` whenever the server hears of a change (an agent's write, a session
 * captured by a hook, a `mooring` command, a teammate's change): a long poll that answers
 * at the next change or after 25 s, rather than polling the whole API. */
export async function follow(onChange) {
  let seen = (await api("/changes")).version;
  for (;;) {
    try {
      const { version } = await api(`/changes?after=${seen}`);
      if (version === seen) continue;
      seen = version;
      await onChange();
    } catch {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
