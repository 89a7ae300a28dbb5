//! opencode's hooks are a plugin (checked against the pinned 1.18.33): a module in its
//! `plugin/` folder whose `chat.message` sees each prompt as it is sent (parts added to
//! its output reach the model) and whose `event` sees `session.idle` when a turn is done.
//! Mooring's plugin (one file, written whole) runs `mooring hook opencode EVENT` with a
//! Claude-shaped input it builds, adds the context the hook answers as a synthetic part,
//! and at a turn's end hands over the session's id and opencode's database, where the
//! session lives (core's capture reads it). opencode has no hook at a session's start:
//! the first prompt brings the project's context.
//!
//! Its `permission.ask` plugin hook is never called (1.18.33 only publishes a
//! `permission.asked` event), so the plugin answers that event: it runs `mooring hook
//! opencode permission.asked` without holding opencode's events, and when Mooring answers
//! (the person away, their phone) replies through opencode's own API, `POST
//! /permission/{id}/reply` with `once` or `reject` and the reason the model reads. At the
//! desk Mooring says nothing and opencode asks as it always does. `opencode run`
//! rejects every prompt itself at once; `opencode serve` and its interface wait.
//!
//! A turn's end can go on with the person's next words from the phone: the plugin keeps
//! the turn's last text (from `message.part.updated` events of assistant messages) for
//! the phone, and when Mooring answers `session.idle` with `continue`, sends those words
//! as the session's next message through opencode's `POST /session/{id}/prompt_async`.
//!
//! Before its `write`, `edit`, `apply_patch` and `bash` tools run, the plugin's
//! `tool.execute.before` asks Mooring to claim what they write; it throws Mooring's
//! refusal, which ends the tool with that error for the model to read (opencode awaits
//! every plugin's hook before the tool, and a thrown error fails the call). It cannot
//! ask the person itself or warn anyone there: Mooring asks, and a warning is dropped.

use serde_json::{Value, json};

use super::{
    Abilities, Decision, Dialect, Edit, Event, Guard, Input, Reply, Tool, Writer, Writes, common, text,
};
use crate::entry::ShimSpec;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: true, session_rules: false },
    setup_note: Some(
        "opencode installs its plugin package (@opencode-ai/plugin) into its config folder when it first loads a plugin; offline, that first start waits for npm to give up.",
    ),
    start_may_not_fire: true,
    plugin: Some(plugin),
    edited,
    ..Dialect::BASE
};

fn event(name: Option<&str>) -> Event {
    match name {
        Some("chat.message") => Event::Prompt,
        Some("session.idle") => Event::TurnEnd,
        Some("permission.asked") => Event::Permission,
        Some("tool.execute.before") => Event::ToolUse(true),
        _ => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    let mut input = common(v, named, event);
    match input.event {
        Event::Permission => input.tool = v.get("permission").map(asked_tool),
        Event::TurnEnd => input.last_message = text(v, "last_assistant_message"),
        _ => {}
    }
    input
}

/// A `permission.asked` event's request as the tool it is about: its permission
/// (`bash`, `edit`, `webfetch`…) and, of its metadata, only what the phone shows (the
/// command, the file, the address; never an edit's diff).
fn asked_tool(p: &Value) -> Tool {
    let name = text(p, "permission").unwrap_or_else(|| "a tool".into());
    let meta = p.get("metadata").cloned().unwrap_or(Value::Null);
    let patterns: Vec<&str> =
        p.get("patterns").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut shown = serde_json::Map::new();
    let command = text(&meta, "command")
        .or_else(|| (name == "bash" && !patterns.is_empty()).then(|| patterns.join(" ")));
    for (key, value) in
        [("command", command), ("file_path", text(&meta, "filepath")), ("url", text(&meta, "url"))]
    {
        if let Some(value) = value {
            shown.insert(key.into(), Value::String(value));
        }
    }
    Tool { name, input: Value::Object(shown) }
}

/// Context as `additionalContext` (what Mooring's plugin and Pi's extension read back);
/// a permission as the body of opencode's reply to it; the person's next words as
/// `continue`, which the plugin sends as the session's next message.
pub(super) fn reply(_input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            json!({ "additionalContext": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) })
        }
        Reply::Permission(Decision::Allow | Decision::AllowWithRules(_)) => json!({ "reply": "once" }),
        Reply::Permission(Decision::Deny(message)) => json!({ "reply": "reject", "message": message }),
        Reply::Continue(text) => json!({ "continue": text }),
        // The plugin throws it; no one reads a warning before a tool there.
        Reply::Guard(Guard::Deny(why) | Guard::Ask(why)) => json!({ "deny": why }),
        Reply::Guard(Guard::Warn(_)) => Value::Null,
    }
}

/// Its tools that write: `write` and `edit` a file, `apply_patch` the files its patch
/// names (read as Codex's own patches are), `bash` a command line. The plugin starts
/// Mooring before these only.
const WRITERS: &[Writer] = &[
    ("write", "filePath", Writes::File),
    ("edit", "filePath", Writes::File),
    ("apply_patch", "patchText", Writes::Patch),
    ("bash", "command", Writes::Shell),
];

/// What its tools write (see [`WRITERS`]).
fn edited(tool: &Tool) -> Option<Edit> {
    tool.writes(WRITERS)
}

/// The plugin file, running this Mooring.
fn plugin(spec: &ShimSpec) -> String {
    plugin_for(spec, "opencode")
}

/// The plugin file for opencode or a fork of it named `name`: its command line's client
/// name, its data folder under `$XDG_DATA_HOME`, and its database, `name.db`, there.
pub(super) fn plugin_for(spec: &ShimSpec, name: &str) -> String {
    let argv = argv_json(spec, name);
    let database =
        serde_json::to_string(&[name.to_string(), format!("{name}.db")]).unwrap_or_else(|_| "[]".into());
    let writes: Vec<&str> = WRITERS.iter().map(|(name, ..)| *name).collect();
    PLUGIN
        .replace("__RUNS__", CONTEXT_FOR)
        .replace("__WRITES__", &serde_json::to_string(&writes).unwrap_or_else(|_| "[]".into()))
        .replace("__ARGV__", &argv)
        .replace("__DATABASE__", &database)
        .replace("__CLIENT__", name)
}

/// How a generated plugin asks Mooring for a prompt's context (opencode's and Pi's share
/// it), within the hooks' five seconds.
pub(super) const CONTEXT_FOR: &str = r#"// The context Mooring answers `event` with (the JSON `payload`), or "".
function contextFor(event, payload) {
  const run = spawnSync(ARGV[0], [...ARGV.slice(1), event], { input: payload, encoding: "utf8", timeout: 5000 });
  try {
    return JSON.parse(run.stdout || "{}").additionalContext || "";
  } catch {
    return "";
  }
}"#;

/// How Pi's extension runs Mooring beside the client, nothing waiting for it (opencode's
/// plugin reads every answer: see its `answerOf`). A child's closed pipe never reaches
/// the client as an error.
pub(super) const LATER: &str = r#"// Run Mooring for `event` beside the client: nothing waits for it.
function later(event, payload) {
  const child = spawn(ARGV[0], [...ARGV.slice(1), event], { stdio: ["pipe", "ignore", "ignore"] });
  child.on("error", () => {});
  child.stdin.on("error", () => {});
  child.stdin.end(payload);
}"#;

/// `mooring [--data-dir DIR] hook NAME` as a JSON array: JSON is JavaScript, so the
/// paths are quoted as data, never as code.
pub(super) fn argv_json(spec: &ShimSpec, name: &str) -> String {
    let mut argv = vec![spec.binary.display().to_string()];
    if let Some(dir) = &spec.data_dir {
        argv.push("--data-dir".into());
        argv.push(dir.display().to_string());
    }
    argv.extend(["hook".into(), name.into()]);
    serde_json::to_string(&argv).unwrap_or_else(|_| "[]".into())
}

const PLUGIN: &str = r#"// Mooring for __CLIENT__: the project's context and recall at each prompt, and each
// session kept in the project's memory. Written by `mooring setup __CLIENT__ --hooks`;
// `mooring setup __CLIENT__ --remove` takes it out. mooring hook __CLIENT__
import { spawn, spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";

const ARGV = __ARGV__;
// Where __CLIENT__ keeps its sessions: Mooring reads a session there at its turn's end.
const DATABASE = join(process.env.XDG_DATA_HOME || join(homedir(), ".local", "share"), ...__DATABASE__);

// The tools that write (the rest never start Mooring).
const WRITES = __WRITES__;

function input(event, fields) {
  return JSON.stringify({ hook_event_name: event, transcript_path: DATABASE, ...fields });
}

__RUNS__

// Mooring's answer to `event` (the JSON `payload`), however long it takes, or null.
function answerOf(event, payload) {
  return new Promise((done) => {
    const child = spawn(ARGV[0], [...ARGV.slice(1), event], { stdio: ["pipe", "pipe", "ignore"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", () => done(null));
    child.on("close", () => {
      try {
        done(JSON.parse(text || "null"));
      } catch {
        done(null);
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(payload);
  });
}

export const Mooring = async ({ directory, serverUrl }) => {
  // Each live session's latest assistant message and its last text, for the phone; a
  // session's entry goes at its turn's end.
  const latest = new Map();
  // A turn's end: Mooring keeps the session and, with the person away, may hand back
  // their next words from the phone, sent on as the session's next message.
  const finished = async (sessionID) => {
    const last = latest.get(sessionID)?.text || "";
    latest.delete(sessionID);
    const answer = await answerOf("session.idle", input("session.idle", { session_id: sessionID, cwd: directory,
                                                                         last_assistant_message: last }));
    if (!answer?.continue) return;
    const url = new URL(`session/${encodeURIComponent(sessionID)}/prompt_async?directory=${encodeURIComponent(directory)}`, serverUrl);
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                       body: JSON.stringify({ parts: [{ type: "text", text: answer.continue }] }) });
  };
  // A permission prompt, while the person is away: Mooring asks their phone and answers
  // here only if they did; at the desk it says nothing and __CLIENT__ asks as usual.
  const permission = async (asked) => {
    const { id, sessionID, permission, patterns, metadata } = asked;
    const shown = { command: metadata?.command, filepath: metadata?.filepath, url: metadata?.url };
    const answer = await answerOf("permission.asked", input("permission.asked", { session_id: sessionID, cwd: directory,
                                                        permission: { id, permission, patterns, metadata: shown } }));
    if (!answer?.reply) return;
    const url = new URL(`permission/${encodeURIComponent(asked.id)}/reply?directory=${encodeURIComponent(directory)}`, serverUrl);
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(answer) })
      .catch(() => {});
  };
  return {
    // Before a tool writes, Mooring claims what it writes; its refusal (another live
    // session holds the file) is thrown, and the model reads it as the tool's error.
    "tool.execute.before": async (hook, output) => {
      if (!WRITES.includes(hook.tool)) return;
      const answer = await answerOf("tool.execute.before", input("tool.execute.before", {
        session_id: hook.sessionID, cwd: directory, tool_name: hook.tool, tool_input: output.args }));
      if (answer?.deny) throw new Error(answer.deny);
    },
    "chat.message": async (hook, output) => {
      const prompt = output.parts.filter((p) => p.type === "text" && !p.synthetic).map((p) => p.text).join("\n");
      const context = contextFor("chat.message", input("chat.message", { session_id: hook.sessionID, cwd: directory, prompt }));
      const first = output.parts[0];
      if (context && first) {
        output.parts.push({ ...first, id: `${first.id}mooring`, type: "text", text: context, synthetic: true });
      }
    },
    event: async ({ event }) => {
      const p = event.properties || {};
      if (event.type === "message.updated" && p.info?.role === "assistant") {
        const held = latest.get(p.info.sessionID);
        if (held?.id !== p.info.id) latest.set(p.info.sessionID, { id: p.info.id, text: held?.text || "" });
      }
      const held = p.part && latest.get(p.part.sessionID);
      if (event.type === "message.part.updated" && p.part.type === "text" && held?.id === p.part.messageID) {
        held.text = p.part.text;
      }
      // Neither is awaited: an answer may take minutes, and the events behind it must not wait.
      if (event.type === "permission.asked") return void permission(p).catch(() => {});
      if (event.type === "session.idle") return void finished(p.sessionID).catch(() => {});
    },
  };
};
"#;
