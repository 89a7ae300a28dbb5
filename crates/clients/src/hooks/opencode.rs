//! opencode's hooks are a plugin (checked against the pinned 1.18.33): a module in its
//! `plugin/` folder whose `chat.message` sees each prompt as it is sent (parts added to
//! its output reach the model) and whose `event` sees `session.idle` when a turn is done.
//! Mooring's plugin (one file, written whole) runs `mooring hook opencode EVENT` with a
//! Claude-shaped input it builds, adds the context the hook answers as a synthetic part,
//! and at a turn's end hands over the session's id and opencode's database, where the
//! session lives (core's capture reads it). opencode has no hook at a session's start:
//! the first prompt brings the project's context.

use serde_json::{Value, json};

use super::{Abilities, Dialect, Event, Input, Reply, common};
use crate::entry::ShimSpec;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: false, permissions: false, session_rules: false },
    setup_note: Some(
        "opencode installs its plugin package (@opencode-ai/plugin) into its config folder when it first loads a plugin; offline, that first start waits for npm to give up.",
    ),
    start_may_not_fire: true,
    plugin: Some(plugin),
    ..Dialect::BASE
};

fn event(name: Option<&str>) -> Event {
    match name {
        Some("chat.message") => Event::Prompt,
        Some("session.idle") => Event::TurnEnd,
        _ => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    common(v, named, event)
}

/// Context as `additionalContext` (what Mooring's plugin and Pi's extension read back);
/// nothing else is answered.
pub(super) fn reply(_input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            json!({ "additionalContext": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) })
        }
        Reply::Continue(_) | Reply::Permission(_) => Value::Null,
    }
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
    PLUGIN.replace("__ARGV__", &argv).replace("__DATABASE__", &database).replace("__CLIENT__", name)
}

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

function input(event, fields) {
  return JSON.stringify({ hook_event_name: event, transcript_path: DATABASE, ...fields });
}

export const Mooring = async ({ directory }) => ({
  "chat.message": async (hook, output) => {
    const prompt = output.parts.filter((p) => p.type === "text" && !p.synthetic).map((p) => p.text).join("\n");
    const run = spawnSync(ARGV[0], [...ARGV.slice(1), "chat.message"], {
      input: input("chat.message", { session_id: hook.sessionID, cwd: directory, prompt }),
      encoding: "utf8",
      timeout: 5000,
    });
    let context = "";
    try {
      context = JSON.parse(run.stdout || "{}").additionalContext || "";
    } catch {}
    const first = output.parts[0];
    if (context && first) {
      output.parts.push({ ...first, id: `${first.id}mooring`, type: "text", text: context, synthetic: true });
    }
  },
  event: async ({ event }) => {
    if (event.type !== "session.idle") return;
    const child = spawn(ARGV[0], [...ARGV.slice(1), "session.idle"], { stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", () => {});
    child.stdin.end(input("session.idle", { session_id: event.properties.sessionID, cwd: directory }));
  },
});
"#;
