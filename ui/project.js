// One project's own view: what its agents remember and what they are given, to read
// and to correct. Every stored text is put on the page as text (textContent), never as
// markup; every write goes through the REST API with its token and its field rules.
import { $, api, follow, plural, spark } from "/ui/common.js";
import { isDigest, isRecord, kindName, recordView, titleOf, whoOf } from "/ui/views/record.js";

/** Resolution notes being typed, by blocker id: kept when the list is redrawn. */
const drafts = new Map();

const slug = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
// The slug as one path segment of the API: a link like /project/..%2Fsettings must not
// reach another route with the person's token.
const at = encodeURIComponent(slug);
const PAGE = 15;
const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};
const day = (at) => (at || "").replace("T", " ").slice(0, 16);
const fail = (e) => ($("error").textContent = e.message);

function button(label, testid, onClick, aria) {
  const b = el("button", label);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  if (aria) b.setAttribute("aria-label", aria);
  b.addEventListener("click", () => onClick(b).catch(fail));
  return b;
}

// Forgetting asks once more in place (no pop-up): the first press offers the real one.
function forgetButton(entry) {
  const box = el("span");
  const ask = button("Forget", `forget-${entry.id}`, async () => {
    ask.hidden = true;
    sure.hidden = false;
    keep.hidden = false;
    sure.focus();
  }, `Forget ${entry.kind} #${entry.id}`);
  const sure = button("Forget for good", `forget-sure-${entry.id}`, async () => {
    await api(`/projects/${at}/memory/${entry.id}`, "DELETE");
    await refresh();
  });
  const keep = button("Keep", `forget-keep-${entry.id}`, async () => {
    ask.hidden = false;
    sure.hidden = true;
    keep.hidden = true;
    ask.focus();
  });
  sure.hidden = keep.hidden = true;
  box.append(ask, sure, keep);
  return box;
}

/** Where an entry stands in a supersedes chain: what replaced it (with Undo), what it
 *  replaced, and, for the person, a way to say it replaces an older one. A session
 *  folded into its week's digest says so in those words. */
function chainView(e, replaced, shown) {
  const parts = [];
  const link = (id) => {
    const a = el("a", `#${id}`);
    a.href = `#entry-${id}`;
    return a;
  };
  if (e.superseded_by) {
    const line = el("div", undefined, "hint superseded-note");
    line.dataset.testid = `superseded-${e.id}`;
    const by = shown.find((o) => o.id === e.superseded_by);
    const folded = by ? isDigest(by) : e.kind === "session";
    line.append(folded ? "Folded into the weekly digest " : "Superseded by ", link(e.superseded_by),
      " — kept in history, left out of the preamble and recall. ");
    const undo = folded ? "Bring back" : "Undo";
    line.append(button(undo, `restore-${e.id}`, async () => {
      await api(`/projects/${at}/memory/${e.id}/superseded`, "DELETE");
      await refresh();
    }, `${undo}: ${kindName(e).toLowerCase()} #${e.id} back in the preamble and recall`));
    parts.push(line);
  }
  if (replaced.length) {
    const line = el("div", undefined, "hint");
    line.dataset.testid = `supersedes-${e.id}`;
    line.append(isDigest(e) ? `Folds ${plural(replaced.length, "session", "sessions")}: ` : "Supersedes ");
    replaced.forEach((old, i) => line.append(i ? ", " : "", link(old.id)));
    parts.push(line);
  }
  return parts;
}

/** Open pickers of older entries, by entry id (the candidates and the one chosen): the
 *  lists are redrawn whenever memory changes, and what the person opened stays open. */
const picking = new Map();

/** "Replaces an older one…": the earlier entries Mooring found this one likely repeats
 *  or contradicts, to pick from; the picked one is marked replaced by this one. */
function replacesControl(e) {
  const box = el("span", undefined, "replaces");
  const name = `${kindName(e).toLowerCase()} #${e.id}`;
  const show = (open) => {
    const { candidates, value } = picking.get(e.id);
    if (!candidates.length) {
      box.append(el("span", "No earlier entry looks like this one.", "hint"));
      return;
    }
    const pick = el("select");
    pick.dataset.testid = `replaces-pick-${e.id}`;
    pick.setAttribute("aria-label", `The older entry ${name} replaces`);
    for (const c of candidates) {
      const said = c.likely === "duplicate" ? "a likely duplicate" : "related";
      pick.append(new Option(`#${c.id} ${c.title} (${said}, ${c.created})`, String(c.id)));
    }
    pick.value = String(value);
    pick.addEventListener("change", () => (picking.get(e.id).value = Number(pick.value)));
    const go = button("Replace it", `replaces-go-${e.id}`, async () => {
      await api(`/projects/${at}/memory/${e.id}/supersede`, "POST", { supersedes: [Number(pick.value)] });
      picking.delete(e.id);
      await refresh();
    }, `Replace it: the chosen entry is replaced by ${name}`);
    box.append(pick, go);
    if (open) pick.focus();
  };
  if (picking.has(e.id)) {
    show(false);
    return box;
  }
  const open = button("Replaces an older one…", `replaces-${e.id}`, async () => {
    const { candidates } = await api(`/projects/${at}/memory/${e.id}/candidates`);
    picking.set(e.id, { candidates, value: candidates[0]?.id });
    // A redraw while the list was asked for (memory changed meanwhile) left this box
    // off the page: draw again, and the new box opens with the list.
    if (!box.isConnected) return refresh();
    open.hidden = true;
    show(true);
  }, `Replaces an older one… (${name}): choose which`);
  box.append(open);
  return box;
}

/** One memory entry: what it is, when, who, its title, its text (a record's fields as
 *  a list), and what can be done to it. */
function entryView(e, { resolvable = false, replaced = [], shown = [] } = {}) {
  // A session folded into its week's digest is kept, not wrong: shown short, not struck.
  const by = e.superseded_by && shown.find((o) => o.id === e.superseded_by);
  const folded = e.superseded_by && (by ? isDigest(by) : e.kind === "session");
  const box = el("article", undefined, folded ? "entry folded" : e.superseded_by ? "entry superseded" : "entry");
  box.id = `entry-${e.id}`;
  box.dataset.testid = `entry-${e.id}`;
  const head = el("div", undefined, "head");
  head.append(el("span", titleOf(e), "title"));
  const who = whoOf(e);
  head.append(el("span", `${kindName(e)} #${e.id} · ${day(e.created_at)}${who ? ` · ${who}` : ""}${e.status === "resolved" ? " · resolved" : ""}`, "hint"));
  box.append(head);
  if (isRecord(e) && folded) {
    const more = el("details");
    more.append(el("summary", "What it asked, changed and ran"), recordView(e));
    box.append(more);
  } else if (isRecord(e)) box.append(recordView(e));
  else if (e.content && e.content.trim() !== e.title.trim()) box.append(el("div", e.content, "body"));
  if (e.resolution) box.append(el("div", `Resolved: ${e.resolution}`, "hint"));
  box.append(...chainView(e, replaced, shown));
  const actions = el("div", undefined, "actions");
  if (["decision", "note", "summary", "blocker"].includes(e.kind) && !e.superseded_by) actions.append(replacesControl(e));
  if (resolvable) {
    const note = el("input");
    note.type = "text";
    note.placeholder = "How it was resolved (optional)";
    note.dataset.testid = `resolve-note-${e.id}`;
    note.setAttribute("aria-label", `How blocker #${e.id} was resolved`);
    note.style.flex = "1";
    // The list is redrawn whenever an agent changes memory: what the person typed stays.
    note.value = drafts.get(e.id) ?? "";
    note.addEventListener("input", () => drafts.set(e.id, note.value));
    actions.append(note, button("Resolve", `resolve-${e.id}`, async () => {
      await api(`/projects/${at}/memory/${e.id}/resolve`, "POST", note.value.trim() ? { note: note.value.trim() } : {});
      drafts.delete(e.id);
      await refresh();
    }, `Resolve blocker #${e.id}`));
  }
  actions.append(forgetButton(e));
  box.append(actions);
  return box;
}

/** A paged list of one kind (or several, merged by time), "Show older" fetching more. */
function pager(target, more, kinds, opts = {}) {
  const cursors = Object.fromEntries(kinds.map((k) => [k, undefined]));
  const done = new Set();
  let shown = [];
  // Redraws overlap (an agent's write and the person's click both refresh): only the
  // newest load draws, or its pages and an older load's would be shown twice.
  let generation = 0;
  async function load(reset) {
    if (reset) {
      for (const k of kinds) cursors[k] = undefined;
      done.clear();
      shown = [];
      generation += 1;
    }
    const mine = generation;
    const fetched = await Promise.all(kinds.filter((k) => !done.has(k)).map(async (k) => {
      const status = opts.status ? `&status=${opts.status}` : "";
      const before = cursors[k] ? `&before=${cursors[k]}` : "";
      const { entries } = await api(`/projects/${at}/memory?kind=${k}&limit=${PAGE}${status}${before}`);
      return [k, entries];
    }));
    if (mine !== generation) return;
    for (const [k, entries] of fetched) {
      if (entries.length < PAGE) done.add(k);
      if (entries.length) cursors[k] = entries[entries.length - 1].id;
    }
    const pages = fetched.map(([, entries]) => entries);
    shown = shown.concat(...pages).sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
    const replaced = (e) => shown.filter((o) => o.superseded_by === e.id);
    // The person may be typing in this list when an agent's write redraws it: the field
    // they were in takes the focus back with its caret, or the rest of their words would
    // go to a field no longer on the page.
    const was = $(target).contains(document.activeElement) ? document.activeElement : null;
    const field = was?.dataset.testid;
    const caret = typeof was?.selectionStart === "number" ? [was.selectionStart, was.selectionEnd] : null;
    $(target).replaceChildren(...shown.map((e) => entryView(e, { ...opts, replaced: replaced(e), shown })));
    const again = field && $(target).querySelector(`[data-testid="${CSS.escape(field)}"]`);
    if (again) {
      again.focus();
      if (caret && again.setSelectionRange) again.setSelectionRange(...caret);
    }
    if (!shown.length) $(target).append(el("p", opts.empty || "Nothing yet.", "hint"));
    $(more).hidden = done.size === kinds.length;
    if (opts.after) await opts.after(shown, mine, () => generation);
  }
  $(more).addEventListener("click", () => load(false).catch(fail));
  return load;
}

const blockers = pager("blockers", "blockers-more", ["blocker"], { status: "open", resolvable: true, empty: "No open blockers." });
const timeline = pager("timeline", "timeline-more", ["session", "handover", "context_carry"], {
  empty: "No session captured or handed over yet.",
  after: showReceived,
});

const tokens = (n) => `${n.toLocaleString("en")} ${n === 1 ? "token" : "tokens"}`;

/** Under each captured session, what memory handed it (the preamble, each recall: the
 * entries and their size); above the list, the project's totals on this machine. */
async function showReceived(shown, mine, current) {
  const ids = shown.filter((e) => e.kind === "session").map((e) => e.id).slice(0, 100);
  const got = await api(`/projects/${at}/received?sessions=${ids.join(",")}`);
  if (mine !== current()) return;
  const t = got.totals;
  $("received-totals").textContent = t.sessions
    ? `Memory handed to ${plural(t.sessions, "session", "sessions")} on this machine: ${tokens(t.preamble_tokens + t.recall_tokens)} in all, ${tokens(t.per_session)} a session on average — ${plural(t.preambles, "preamble", "preambles")} (${tokens(t.preamble_tokens)}), ${plural(t.recalls, "recall", "recalls")} (${tokens(t.recall_tokens)}).`
    : "No session on this machine has been handed memory yet.";
  for (const s of got.sessions) {
    const box = $("timeline").querySelector(`#entry-${s.id}`);
    if (!box) continue;
    const parts = s.given.map((g) => {
      const which = g.ids.length ? ` (${g.ids.map((i) => `#${i}`).join(", ")})` : "";
      return `${g.what} ${day(g.at).slice(11)}${which}: ${tokens(g.tokens)}`;
    });
    const line = el("div", `Received ${tokens(s.tokens)}: ${parts.join(" · ")}`, "hint received");
    line.dataset.testid = `received-${s.id}`;
    box.querySelector(".actions")?.before(line);
  }
}
const decisions = pager("decisions", "decisions-more", ["decision"], { empty: "No decisions yet." });
let browse = pager("browse", "browse-more", [$("browse-kind").value]);
$("browse-kind").addEventListener("change", () => {
  const fresh = $("browse-more").cloneNode(true);
  $("browse-more").replaceWith(fresh);
  browse = pager("browse", "browse-more", [$("browse-kind").value]);
  browse(true).catch(fail);
});

async function header() {
  const { project: p, team } = await api(`/projects/${at}`);
  document.title = `Mooring — ${p.name}`;
  $("name").textContent = p.name;
  const s = p.stats;
  $("meta").replaceChildren(
    el("span", `${p.slug} · ${p.status}`),
    el("span", [plural(s.decisions, "decision", "decisions"), plural(s.open_blockers, "open blocker", "open blockers"), plural(s.context_locks, "context lock", "context locks")].join(" · ")),
    el("span", `last used ${p.last_used}`),
    el("span", !team ? "your own project" : team.unavailable ? "team (database out of reach)" : `team · owner ${team.owner ?? "none"} · you: ${team.role} · ${plural(team.members.length, "person", "people")}`),
  );
  $("description").textContent = p.description || "";
  for (const k of ["name", "description", "repo_url", "notes_path", "status"]) {
    if (document.activeElement !== $(`edit-${k}`)) $(`edit-${k}`).value = p[k] ?? "";
  }
  $("paths").replaceChildren(...p.code_paths.map((c) => {
    const li = el("li", `${c.path}${c.state === "missing" ? " — missing" : ""}`, c.state === "missing" ? "path missing" : "path");
    li.append(" ", button("Remove", undefined, async () => {
      await api(`/projects/${at}`, "PATCH", { remove_code_paths: [c.path] });
      await refresh();
    }, `Remove ${c.path}`));
    return li;
  }));
  if (!p.code_paths.length) $("paths").append(el("li", "No code path: sessions find this project by its marker or remote only.", "hint"));
}

async function activity() {
  const { days } = await api(`/projects/${at}/activity?days=28`);
  $("activity").replaceChildren(spark(days, { w: 14, gap: 4, h: 80 }));
}

async function preamble() {
  const p = await api(`/projects/${at}/context`);
  $("preamble").textContent = p.text;
  $("preamble-size").textContent = `${plural(p.tokens, "token", "tokens")} of a ${p.budget_tokens}-token budget.`;
  const left = p.sections.filter((s) => s.omitted > 0);
  $("preamble-left-out").replaceChildren(...left.map((s) => el("li", `${s.name.replaceAll("_", " ")}: ${s.omitted} left out (${s.how_to_get})`)));
  if (!left.length) $("preamble-left-out").append(el("li", "Nothing was left out.", "hint"));
}

// A line diff of two texts (longest common subsequence; lock texts are small).
function diff(a, b) {
  const x = a.split("\n"), y = b.split("\n");
  const n = x.length, m = y.length;
  if (n * m > 4_000_000) return [el("p", "Too long to compare here.", "hint")];
  const t = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i][j] = x[i] === y[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { out.push(el("span", `  ${x[i]}\n`)); i++; j++; }
    else if (j < m && (i === n || t[i][j + 1] >= t[i + 1][j])) { out.push(el("ins", `+ ${y[j]}`)); j++; }
    else { out.push(el("del", `- ${x[i]}`)); i++; }
  }
  return out;
}

async function locks() {
  const { locks: topics } = await api(`/projects/${at}/locks`);
  const box = $("locks");
  box.replaceChildren();
  if (!topics.length) box.append(el("p", "No context locked yet.", "hint"));
  for (const l of topics) {
    const item = el("details");
    item.dataset.testid = `lock-${l.topic}`;
    item.append(el("summary", `${l.topic} — v${l.version}, ${day(l.created_at)}`));
    const text = el("pre", l.content);
    item.append(text);
    if (l.version > 1) {
      const pick = (id, v, label) => {
        const s = el("select");
        s.id = id;
        s.setAttribute("aria-label", label);
        for (let k = 1; k <= l.version; k++) s.append(new Option(`v${k}`, String(k)));
        s.value = String(v);
        return s;
      };
      const from = pick(`from-${l.topic}`, l.version - 1, `${l.topic}: compare from version`);
      const to = pick(`to-${l.topic}`, l.version, `${l.topic}: to version`);
      const out = el("div", undefined, "diff");
      out.dataset.testid = `diff-${l.topic}`;
      const show = async () => {
        const [a, b] = await Promise.all([from.value, to.value].map((v) => api(`/projects/${at}/locks/${encodeURIComponent(l.topic)}?version=${v}`)));
        out.replaceChildren(...diff(a.content, b.content));
      };
      from.addEventListener("change", () => show().catch(fail));
      to.addEventListener("change", () => show().catch(fail));
      const row = el("div", undefined, "row");
      row.append("Compare ", from, " with ", to);
      item.append(row, out);
      item.addEventListener("toggle", () => item.open && show().catch(fail), { once: true });
    }
    box.append(item);
  }
}

async function connected() {
  const { sessions } = await api("/sessions");
  const here = sessions.filter((s) => s.project === slug);
  $("connected").replaceChildren(...here.map((s) => el("li", `${s.client_name || "a client"} (${s.transport}) · decided by ${s.decided_by || "—"} · active ${day(s.last_seen_at)}`)));
  if (!here.length) $("connected").append(el("li", "No agent session is in this project now.", "hint"));
}

// What the person is writing to a session survives the card's redraws.
const noteDrafts = new Map();

/** A note for live session `w`, handed to it once at its next prompt as the person's words:
 * one small button until the person opens it, so the card stays short. */
function noteControl(w) {
  const box = el("div", undefined, "actions");
  box.hidden = !noteDrafts.has(w.handle);
  const open = button("Note…", `note-open-${w.handle}`, async () => {
    box.hidden = false;
    open.hidden = true;
    input.focus();
  }, `Leave a note for the ${w.client} session`);
  open.hidden = !box.hidden;
  const input = el("input");
  input.type = "text";
  input.placeholder = "A note for this session's next prompt";
  input.dataset.testid = `note-${w.handle}`;
  input.setAttribute("aria-label", `A note for the ${w.client} session`);
  input.style.flex = "1";
  input.value = noteDrafts.get(w.handle) ?? "";
  input.addEventListener("input", () => noteDrafts.set(w.handle, input.value));
  const said = el("span", undefined, "hint");
  said.setAttribute("role", "status");
  box.append(input, button("Leave note", `leave-note-${w.handle}`, async () => {
    if (!input.value.trim()) return;
    await api(`/projects/${at}/live/${encodeURIComponent(w.handle)}/note`, "POST", { text: input.value.trim() });
    noteDrafts.delete(w.handle);
    input.value = "";
    said.textContent = "Left: it reads it at its next prompt.";
  }, `Leave note for the ${w.client} session`), said);
  return [open, box];
}

async function working() {
  const { live, claims } = await api(`/projects/${at}/live`);
  $("working").replaceChildren(...live.map((w) => {
    const branch = w.branch ? ` on ${w.branch}` : "";
    const asked = w.request ? ` · asked “${w.request}”` : "";
    const holds = w.claims.length ? ` · holds ${w.claims.join(", ")}` : "";
    const met = w.conflicts ? ` · met another's claim ${w.conflicts}×` : "";
    const item = el("li", `${w.client}${branch} in ${w.checkout} · since ${day(w.started_at)}${asked}${holds}${met}`);
    item.append(" ", ...noteControl(w));
    return item;
  }));
  $("working").append(el("li", `A write into a file another session holds: ${claims} (mooring sessions ${slug} --claims ask|deny|warn|off).`, "hint"));
  // Only while sessions work here: the page stays one a person can take in.
  $("working").closest("section").hidden = !live.length;
}

/** Which captured session changed which file, with the request that led to it (folded:
 * the page stays one a person can take in). */
async function files() {
  const { files: changed } = await api(`/projects/${at}/files`);
  const action = (a) => ({ seen_by_git: "changed (seen by git)" })[a] || a;
  $("files").replaceChildren(...changed.map((f) => {
    const why = f.request ? ` for “${f.request}”` : "";
    const by = f.subagent ? `${f.client} (a subagent)` : f.client;
    return el("li", `${f.path} — ${action(f.action)} by the ${by} session of ${day(f.at)}${why}`);
  }));
  const paths = new Set(changed.map((f) => f.path)).size;
  $("files-summary").textContent = `${paths} file${paths === 1 ? "" : "s"} the latest sessions changed`;
  $("files").closest("section").hidden = !changed.length;
}

async function questions() {
  const { questions: asked } = await api(`/projects/${at}/questions`);
  $("questions").replaceChildren(...asked.map((q) => {
    const said = q.answer ? `: ${q.answer}` : "";
    return el("li", `${day(q.created_at)}  ${q.title} — ${q.status.replace("_", " ")}${said}${q.surface ? ` (${q.surface})` : ""}`);
  }));
  if (!asked.length) $("questions").append(el("li", "No agent has asked anything from this project.", "hint"));
}

let eventsShown = 0;
async function events(reset) {
  if (reset) eventsShown = 0;
  const { events, total } = await api(`/projects/${at}/events?limit=${PAGE}&offset=${eventsShown}`);
  const items = events.map((e) => el("li", `${day(e.at)}  ${e.text}`));
  if (reset) $("events").replaceChildren(...items);
  else $("events").append(...items);
  eventsShown += events.length;
  $("events-more").hidden = eventsShown >= total;
}
$("events-more").addEventListener("click", () => events(false).catch(fail));

$("edit-save").addEventListener("click", async () => {
  for (const old of document.querySelectorAll(".field-error")) old.remove();
  const change = {};
  for (const k of ["name", "description", "repo_url", "notes_path", "status"]) change[k] = $(`edit-${k}`).value.trim();
  try {
    await api(`/projects/${at}`, "PATCH", change);
    $("edit-result").className = "ok";
    $("edit-result").textContent = "Saved.";
    await refresh();
  } catch (e) {
    $("edit-result").className = "error";
    $("edit-result").textContent = "Not saved.";
    const field = $(`edit-${e.field}`);
    const note = el("p", e.message, "field-error");
    note.dataset.testid = "field-error";
    note.id = `error-${e.field || "form"}`;
    if (field) {
      field.after(note);
      field.setAttribute("aria-describedby", note.id);
      field.focus();
    } else $("edit-result").textContent = e.message;
  }
});

async function addPath(path) {
  try {
    await api(`/projects/${at}`, "PATCH", { add_code_paths: [path] });
    $("path-add").value = "";
    $("path-error").textContent = "";
    await refresh();
  } catch (e) {
    $("path-error").textContent = e.message;
  }
}
$("path-add-button").addEventListener("click", () => {
  const path = $("path-add").value.trim();
  if (path) addPath(path);
});
// In the desktop app, the system's folder picker (the server asks the desktop to show it).
$("path-choose").addEventListener("click", async () => {
  try {
    const { path } = await api("/desktop/pick-folder", "POST", { title: `A code directory for ${$("name").textContent}` });
    if (path) await addPath(path);
  } catch (e) {
    $("path-error").textContent = e.message;
  }
});
api("/settings").then((s) => ($("path-choose").hidden = s.start_at_login === null)).catch(() => {});

async function refresh() {
  $("error").textContent = "";
  await Promise.all([header(), activity(), blockers(true), timeline(true), decisions(true), browse(true), preamble(), locks(), connected(), working(), files(), questions(), events(true)]);
}

try {
  await refresh();
  // An agent's change (here, another process, or the team) shows without a reload.
  follow(refresh);
} catch (e) {
  fail(e);
}
