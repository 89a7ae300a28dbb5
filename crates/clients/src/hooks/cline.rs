//! Cline's hooks (checked against the pinned 3.0.65, whose hooks fired headless here
//! with the payloads in `tests/fixtures/cline-3.0.65/`): executable scripts named after
//! their event (`TaskStart`, `PreToolUse`, `TaskComplete`…, with no extension or one of
//! `.sh .bash .js .py…`, the event's case ignored) in `~/.cline/hooks/` or a workspace's
//! `.clinerules/hooks/`; a script of each name runs. Its input is camel-cased and names
//! no event in Mooring's terms, so each script names its own. Headless it fires
//! `TaskStart`, `PreToolUse`, `PostToolUse` and `TaskComplete` (not `UserPromptSubmit`);
//! it reads an answer only from the tool hooks (`contextModification`, which reaches the
//! model inside `<hook_context>`), so the project's context comes with a session's first
//! tool call, and no prompt gets a recall. Its session is a JSON file,
//! `<data>/sessions/<root session>/<root session>.messages.json`, complete when
//! `TaskComplete` runs (core's capture reads it).
//!
//! Its `PreToolUse` is also where claims are checked (`editor`, `run_commands`,
//! `apply_patch`). It cannot refuse one tool: `cancel` stops the whole task, with the
//! reason as the task's error for the person (the model reads nothing more), so a
//! refusal ends the task before the write; `contextModification` reaches the model, so
//! a warning does too. It cannot ask: Mooring asks the person itself.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{Abilities, Dialect, Edit, Event, Guard, Input, Reply, Scripts, Tool, Writes, text};
use crate::entry::ShimSpec;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: false, permissions: false, session_rules: false },
    setup_note: Some(
        "Cline reads what a hook says only at a tool call: each session gets the project's context with its first tool call, and prompts get no recall. Its hooks are scripts in ~/.cline/hooks/ named after their events; Mooring's end in .bash, so yours of the same event (with no extension or another one) run too.",
    ),
    context_at_first_tool: true,
    scripts: Some(Scripts { events: EVENTS, ext: ".bash", script }),
    edited,
    ..Dialect::BASE
};

/// The events Mooring's scripts answer, the first also where its hooks are looked for.
const EVENTS: &[&str] = &["PreToolUse", "TaskComplete", "TaskCancel", "PreCompact", "SessionShutdown"];

fn event(name: Option<&str>) -> Event {
    match name {
        Some("PreToolUse") => Event::ToolUse(true),
        Some("PostToolUse") => Event::ToolUse(false),
        Some("TaskComplete" | "TaskCancel" | "TaskError") => Event::TurnEnd,
        Some("PreCompact") => Event::PreCompact,
        Some("SessionShutdown") => Event::SessionEnd,
        Some("UserPromptSubmit") => Event::Prompt,
        _ => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    let event = event(named);
    let session = v.pointer("/sessionContext/rootSessionId").and_then(Value::as_str).map(str::to_owned);
    let root = v
        .pointer("/workspaceRoots/0")
        .or_else(|| v.pointer("/workspaceInfo/rootPath"))
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .map(str::to_owned);
    let tool = v.get("tool_call").and_then(|c| {
        Some(Tool { name: text(c, "name")?, input: c.get("input").cloned().unwrap_or(Value::Null) })
    });
    Input {
        transcript: session.as_deref().and_then(messages_file),
        session,
        cwd: root,
        last_message: v.pointer("/turn/outputText").and_then(Value::as_str).map(str::to_owned),
        tool,
        end_reason: (event == Event::SessionEnd).then(|| "other".into()),
        ..Input::bare(event, named.unwrap_or(""))
    }
}

fn reply(_input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            json!({ "contextModification": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) })
        }
        Reply::Guard(Guard::Deny(why) | Guard::Ask(why)) => json!({ "cancel": true, "errorMessage": why }),
        Reply::Guard(Guard::Warn(why)) => json!({ "contextModification": why }),
        Reply::Continue(_) | Reply::Permission(_) => Value::Null,
    }
}

/// What its tools write: `editor` a file, `run_commands` its command lines, `apply_patch`
/// the files its patch (Codex's format) names.
fn edited(tool: &Tool) -> Option<Edit> {
    match (tool.name.as_str(), &tool.input) {
        // Its commands come as a list; its patch may come bare.
        ("run_commands", input) => {
            let commands = input.get("commands")?.as_array()?;
            let lines: Vec<&str> = commands.iter().filter_map(Value::as_str).collect();
            (!lines.is_empty()).then(|| Edit::Shell(lines.join("\n")))
        }
        ("apply_patch", Value::String(patch)) => Some(Edit::patch(patch)),
        _ => tool.writes(&[("editor", "path", Writes::File), ("apply_patch", "input", Writes::Patch)]),
    }
}

/// Where Cline keeps session `id`: `$CLINE_SESSION_DATA_DIR`, else `$CLINE_DATA_DIR/sessions`,
/// else `$CLINE_DIR/data/sessions`, else `~/.cline/data/sessions`.
fn messages_file(id: &str) -> Option<PathBuf> {
    // The id names a folder and a file: nothing in it may climb out.
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let sessions = var("CLINE_SESSION_DATA_DIR")
        .or_else(|| var("CLINE_DATA_DIR").map(|d| d.join("sessions")))
        .or_else(|| var("CLINE_DIR").map(|d| d.join("data").join("sessions")))
        .or_else(|| super::home().map(|h| h.join(".cline").join("data").join("sessions")))?;
    Some(sessions.join(id).join(format!("{id}.messages.json")))
}

/// The script for `event`, running this Mooring.
fn script(spec: &ShimSpec, event: &str) -> String {
    let command = crate::entry::hook_command(crate::Client::Cline, spec);
    // The comment is how Mooring knows the script for its own (`mooring hook cline`).
    format!(
        "#!/bin/sh\n# Mooring's {event} hook for Cline (mooring hook cline), written by `mooring setup cline --hooks`.\nexec {command} {event}\n"
    )
}
