// A stored record as a person reads it: a captured session, a weekly digest or a
// handover is kept as one `**Label:** text` line per field; here each field becomes a
// label and its value (lists as lists, files as short paths with the whole path on
// hover, long parts folded), the kinds are named as people say them, and nothing of the
// storage's own words (`context_carry`, Markdown asterisks) shows. Everything is put on
// the page as text (textContent), never as markup.

const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};

/** Fields shown at once; the rest fold under "More". */
const AT_ONCE = 4;
/** A value longer than this many characters folds behind its first words. */
const LONG = 240;
/** Files shown of a list before "and N more". */
const FILES = 8;
/** Fields whose value is a list of files. */
const FILE_FIELDS = /^(Changed|Also changed|Files most touched|Files)\b/;

const CLIENTS = { "claude-code": "Claude Code", codex: "Codex", "gemini-cli": "Gemini CLI", cursor: "Cursor" };

/** Whether an entry is a week's digest of folded sessions. */
export const isDigest = (e) => e.kind === "context_carry" && (e.tags || []).includes("digest");

/** The kind as people say it: "Claude Code session", "Weekly digest", "Decision". */
export function kindName(e) {
  if (e.kind === "session") return `${CLIENTS[(e.tags || [])[0]] || "Agent"} session`;
  if (isDigest(e)) return "Weekly digest";
  if (e.kind === "context_carry") return "Carried context";
  return e.kind.charAt(0).toUpperCase() + e.kind.slice(1);
}

/** Who wrote it, as people say it: "by you", "by claude-code", "imported from AGENTS.md". */
export function whoOf(e) {
  switch (e.author) {
    case "person": return e.written_by ? `by ${e.written_by}` : "by you";
    case "agent": return `by ${e.written_by || "an agent"}`;
    case "import": return `imported from ${e.source || "a client's file"}`;
    case "mooring": return "by Mooring";
    default: return e.written_by ? `by ${e.written_by}` : "";
  }
}

/** The title as people read it: "Week of 9 Feb 2026: 3 sessions" for a digest. */
export function titleOf(e) {
  const week = isDigest(e) && /^Sessions of the week of (.+) \((\d+)\)$/.exec(e.title);
  if (week) return `Week of ${week[1]}: ${week[2]} ${week[2] === "1" ? "session" : "sessions"}`;
  return e.title.replace(/^Session: /, "");
}

/** Whether an entry's text is a record of labelled fields. */
export const isRecord = (e) => ["session", "handover", "context_carry"].includes(e.kind) && /^\*\*[^*]+:\*\* /m.test(e.content || "");

/** A path as a short name: its last two parts, the whole path on hover. */
function fileItem(path) {
  const li = el("li");
  const parts = path.split("/").filter(Boolean);
  const short = parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : path;
  const code = el("code", short);
  code.title = path;
  li.append(code);
  return li;
}

/** A field's value: a list of files, of requests, folded text, or text. An agent's own
 *  Markdown emphasis inside it (`**Summary:**`) reads as the words. */
function valueOf(label, raw) {
  const whole = raw.replace(/\*\*([^*]+)\*\*/g, "$1");
  // A digest's list ends with how many it left out: "(+9 more)".
  const tail = /\s\(\+(\d+) more\)$/.exec(whole);
  const text = tail ? whole.slice(0, tail.index) : whole;
  const unlisted = tail ? Number(tail[1]) : 0;
  const dd = el("dd");
  if (FILE_FIELDS.test(label)) {
    const items = text.split(/; |, /).map((t) => t.trim()).filter(Boolean);
    const list = el("ul", undefined, "files");
    // "edited src/a.rs": the verb stays beside the file; "(3 sessions)" after it.
    const item = (t) => {
      const m = /^(created|wrote|edited|deleted|renamed|changed) (.+)$/.exec(t);
      const times = / \((\d+ sessions?)\)$/.exec(t);
      const path = (m ? m[2] : t).replace(/ \(\d+ sessions?\)$/, "");
      const li = fileItem(path);
      if (m) li.prepend(`${m[1]} `);
      if (times) li.append(` (${times[1]})`);
      return li;
    };
    list.append(...items.slice(0, FILES).map(item));
    dd.append(list);
    const hidden = items.length - Math.min(items.length, FILES);
    if (hidden > 0) {
      const more = el("details");
      more.append(el("summary", `and ${hidden} more`));
      const rest = el("ul", undefined, "files");
      rest.append(...items.slice(FILES).map(item));
      more.append(rest);
      dd.append(more);
    }
    if (unlisted) dd.append(el("span", `and ${unlisted} more not listed`, "hint"));
    return dd;
  }
  if (label === "Asked" && /" … "|"; "/.test(text)) {
    const list = el("ul", undefined, "asked");
    const asked = text.split(/(?<=") … (?=")|(?<="); (?=")/).map((t) => t.replace(/^"|"$/g, ""));
    list.append(...asked.slice(0, 3).map((t) => el("li", t)));
    dd.append(list);
    if (asked.length > 3 || unlisted) {
      const more = el("details");
      more.append(el("summary", `and ${asked.length - Math.min(asked.length, 3) + unlisted} more`));
      const rest = el("ul", undefined, "asked");
      rest.append(...asked.slice(3).map((t) => el("li", t)));
      more.append(rest);
      dd.append(more);
    }
    return dd;
  }
  if (text.length > LONG) {
    const fold = el("details");
    fold.append(el("summary", `${text.slice(0, 120).trimEnd()}…`), el("p", text));
    dd.append(fold);
    return dd;
  }
  dd.textContent = text.replace(/^"(.*)"$/, "$1") + (unlisted ? ` (and ${unlisted} more)` : "");
  return dd;
}

/** A record's fields as a list of labels and values, the first few at once. */
export function recordView(e) {
  const box = el("div", undefined, "record");
  const lines = (e.content || "").split("\n").map((l) => l.trim()).filter(Boolean);
  const fields = [];
  for (const line of lines) {
    const m = /^\*\*([^*]+):\*\* (.*)$/.exec(line);
    if (m) fields.push([m[1], m[2]]);
    else if (!fields.length) box.append(el("p", line.replace(/\*\*/g, ""), "hint"));
    else fields.push(["", line.replace(/\*\*/g, "")]);
  }
  const list = (pairs) => {
    const dl = el("dl");
    for (const [label, text] of pairs) {
      if (label) dl.append(el("dt", label));
      dl.append(valueOf(label, text));
    }
    return dl;
  };
  box.append(list(fields.slice(0, AT_ONCE)));
  if (fields.length > AT_ONCE) {
    const more = el("details");
    more.append(el("summary", `More: ${fields.slice(AT_ONCE).map(([l]) => l).filter(Boolean).join(", ")}`), list(fields.slice(AT_ONCE)));
    box.append(more);
  }
  return box;
}
