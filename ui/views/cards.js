// The dashboard's lead view, the three-second list: one card per project with its
// recency dot, open blockers and decisions, the last session's line and the sessions live
// in it now; the rest (paths, memory totals, the last four weeks, sharing) one click away.
import { plural, spark } from "/ui/common.js";

// The API's recency dot (the emoji the phone shows) drawn as a coloured
// circle: a desktop may have no emoji font.
const DOTS = {
  "🟢": ["today", "used today"], "🟡": ["week", "used this week"], "🔵": ["older", "used before this week"],
  "⏸": ["paused", "paused"], "📦": ["archived", "archived"],
};

const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};

// Active and paused first, by last use; archived last.
export function order(projects) {
  const rank = (p) => (p.status === "archived" ? 1 : 0);
  return [...projects].sort((a, b) => rank(a) - rank(b) || (b.last_used_at ?? "").localeCompare(a.last_used_at ?? "") || a.slug.localeCompare(b.slug));
}

// One project's card. `shared` and `actions` draw the team line and the buttons; `api`
// fetches the activity chart when the details open.
export function card(p, { shared, actions, api }) {
  const li = el("li", undefined, "pcard");
  li.dataset.testid = `project-${p.slug}`;
  const g = p.glance ?? {};
  const head = el("div", undefined, "phead");
  const [kind, said] = DOTS[g.dot] ?? ["older", p.status];
  const dot = el("span", undefined, `dot dot-${kind}`);
  dot.dataset.testid = `dot-${p.slug}`;
  dot.dataset.recency = kind;
  dot.setAttribute("role", "img");
  dot.setAttribute("aria-label", said);
  dot.title = said;
  const name = el("a", p.name);
  name.href = `/project/${encodeURIComponent(p.slug)}`;
  name.dataset.testid = `open-${p.slug}`;
  const h3 = el("h3");
  h3.append(dot, " ", name);
  head.append(h3, el("span", p.status === "active" ? p.last_used : `${p.status} · ${p.last_used}`, "hint"));
  li.append(head);

  const s = p.stats;
  const counts = el("p", undefined, "counts");
  counts.dataset.testid = `counts-${p.slug}`;
  if (s.open_blockers) counts.append(el("span", plural(s.open_blockers, "open blocker", "open blockers"), "blockers"), " · ");
  counts.append(plural(s.decisions, "decision", "decisions"));
  li.append(counts);
  if (g.last_session) {
    const last = el("p", undefined, "last");
    last.dataset.testid = `last-${p.slug}`;
    last.append(el("span", "Last session: ", "hint"), `“${g.last_session}”`);
    li.append(last);
  }
  if (g.live) {
    const live = el("p", undefined, "live");
    live.dataset.testid = `live-${p.slug}`;
    live.append(el("span", "Live now: ", "hint"), g.live);
    li.append(live);
  }

  const more = el("details");
  const summary = el("summary", "Details");
  summary.setAttribute("aria-label", `Details of ${p.slug}`);
  more.append(summary);
  const dl = el("dl", undefined, "facts");
  const fact = (label, value) => { const dd = el("dd"); dd.append(value); dl.append(el("dt", label), dd); };
  fact("Slug", p.slug);
  fact("Shared", shared(p));
  const paths = el("div");
  if (!p.code_paths.length) paths.append(el("span", "none", "hint"));
  for (const c of p.code_paths) paths.append(el("div", c.path + (c.state === "missing" ? " — missing" : ""), c.state === "missing" ? "path missing" : "path"));
  fact("Code paths", paths);
  fact("Memory", [plural(s.decisions, "decision", "decisions"), plural(s.open_blockers, "open blocker", "open blockers"), plural(s.context_locks, "lock", "locks"), `${s.memory_total} in all`].join(" · "));
  const chart = el("div");
  fact("Last 4 weeks", chart);
  more.append(dl);
  more.addEventListener("toggle", () => {
    if (more.open && !chart.firstChild) api(`/projects/${p.slug}/activity?days=28`).then((a) => chart.append(spark(a.days))).catch(() => {});
  }, { once: false });
  const foot = el("div", undefined, "pfoot");
  foot.append(more, actions(p));
  li.append(foot);
  return li;
}
