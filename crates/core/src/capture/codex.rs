//! Codex's rollout file (JSONL, `~/.codex/sessions/…/rollout-….jsonl`, handed to hooks
//! as `transcript_path`), every version that runs hooks and the older ones:
//!
//! - the person's messages are `event_msg` `user_message` lines (to ~0.148) or
//!   `item_completed` `UserMessage` items (from ~0.149); the `user` messages of the
//!   conversation itself also carry what Codex injects (AGENTS.md, the environment), so
//!   they are read only in the 2025 format, which has no events, without those blocks;
//! - commands and patches are the `function_call` / `custom_tool_call` /
//!   `local_shell_call` lines every version writes (`shell`, `exec_command`,
//!   `shell_command`, `apply_patch` with its `*** Add/Update/Delete File` headers), and
//!   count once their outcome is known: the call's output (its exit code), an
//!   `exec_command_end` / `patch_apply_end` event or an `item_completed` item, whichever
//!   comes first; a declined call is not counted;
//! - the 2025 format has the same items at the top level, without the `response_item`
//!   wrapper;
//! - a `compacted` line carries the summary Codex's model wrote (the context carry).
//!
//! Output is read only for its exit code; nothing else of it is kept.

use serde_json::Value;

use super::record::{FileAction, PatchChange, Pending, Place, SessionRecord, shown_path};
use super::text::wrapped;

/// Fold one line in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
    let payload = line.get("payload").unwrap_or(&Value::Null);
    let kind = payload.get("type").and_then(Value::as_str);
    match (line.get("type").and_then(Value::as_str), kind) {
        (Some("turn_context"), _) => {
            if let Some(model) = payload.get("model").and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
        }
        (Some("response_item"), Some(kind)) => item(record, kind, payload, place, false),
        // The 2025 format: the conversation's items at the top level.
        (Some(kind), _) if ITEMS.contains(&kind) => item(record, kind, line, place, true),
        (Some("event_msg"), Some("user_message")) => {
            if record.requests_from("user_message")
                && let Some(text) = payload.get("message").and_then(Value::as_str)
            {
                record.request(text);
            }
        }
        (Some("event_msg"), Some("exec_command_end")) => {
            let exit = payload.get("exit_code").and_then(Value::as_i64);
            ended(record, payload, Outcome::of_exit(exit), place);
        }
        (Some("event_msg"), Some("patch_apply_end")) => {
            let ok = payload.get("success").and_then(Value::as_bool) != Some(false);
            ended(record, payload, if ok { Outcome::Ran } else { Outcome::Failed }, place);
        }
        (Some("event_msg"), Some("item_completed")) => completed(record, payload.get("item"), place),
        (Some("compacted"), _) => {
            record.compactions += 1;
            if let Some(summary) = payload.get("message").and_then(Value::as_str) {
                record.carry(summary);
            }
        }
        _ => {}
    }
}

/// The conversation's item types, as the 2025 format writes them at the top level.
const ITEMS: &[&str] = &[
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "local_shell_call_output",
];

fn item(record: &mut SessionRecord, kind: &str, item: &Value, place: Place<'_>, legacy: bool) {
    match kind {
        "message" => {
            let role = item.get("role").and_then(Value::as_str);
            for part in item.get("content").and_then(Value::as_array).into_iter().flatten() {
                let text = part.get("text").and_then(Value::as_str).unwrap_or("");
                match (role, part.get("type").and_then(Value::as_str)) {
                    (Some("user"), Some("input_text"))
                        if legacy && !wrapped(text) && record.requests_from("message") =>
                    {
                        record.request(text)
                    }
                    (Some("assistant"), Some("output_text")) => record.last_word(text),
                    _ => {}
                }
            }
        }
        "function_call" | "custom_tool_call" | "local_shell_call" => call(record, item, place),
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let outcome = output_outcome(item.get("output"));
            ended(record, item, outcome, place);
        }
        _ => {}
    }
}

/// A tool call: a command or a patch waits for its outcome; the plan and Mooring's own
/// tools count at once.
fn call(record: &mut SessionRecord, item: &Value, place: Place<'_>) {
    let name = item.get("name").and_then(Value::as_str).unwrap_or("");
    let id = item.get("call_id").or_else(|| item.get("id")).and_then(Value::as_str).unwrap_or("");
    let args: Value = match item.get("arguments").or_else(|| item.get("input")) {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
        Some(v) => v.clone(),
        None => item.get("action").cloned().unwrap_or(Value::Null),
    };
    let workdir = args.get("workdir").and_then(Value::as_str).map(str::to_owned);
    let cwd = workdir.or_else(|| place.cwd.map(str::to_owned));
    if name == "apply_patch" {
        let patch = args.as_str().or_else(|| args.get("input").and_then(Value::as_str)).unwrap_or("");
        record.wait(id, Pending::Patch { changes: patch_changes(patch), cwd });
        return;
    }
    if name == "update_plan" {
        record.todos_from(args.get("plan"), "step", None);
        return;
    }
    if let Some(script) = command_of(&args) {
        let pending = match patch_in(&script) {
            Some(patch) => Pending::Patch { changes: patch_changes(patch), cwd },
            None => Pending::Command { command: super::record::intake(&script), cwd, subagent: false },
        };
        record.wait(id, pending);
        return;
    }
    let namespace = item.get("namespace").and_then(Value::as_str).unwrap_or("");
    if namespace.is_empty() {
        record.mooring_tool(name);
    } else {
        record.mooring_tool(&format!("{}__{name}", namespace.trim_end_matches('_')));
    }
}

/// The command line a shell tool's arguments carry: `command` as a list
/// (`["bash", "-lc", "…"]`: the line the model wrote is the last; `["apply_patch", "…"]`)
/// or a string, or `cmd`.
fn command_of(args: &Value) -> Option<String> {
    let words = args.get("command").and_then(Value::as_array);
    if let Some(words) = words {
        let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
        return match words.as_slice() {
            [] => None,
            [shell, flag, script, ..] if is_shell(shell) && flag.starts_with('-') => {
                Some((*script).to_owned())
            }
            [tool, patch] if matches!(*tool, "apply_patch" | "applypatch") => Some(format!("{tool} {patch}")),
            _ => shell_words::join(words).into(),
        };
    }
    args.get("command").or_else(|| args.get("cmd")).and_then(Value::as_str).map(str::to_owned)
}

fn is_shell(word: &str) -> bool {
    matches!(word.rsplit('/').next(), Some("bash" | "sh" | "zsh" | "dash" | "fish" | "pwsh" | "powershell"))
}

/// The patch text when a command line is `apply_patch` (Codex's own tool, run through the
/// shell in older versions).
fn patch_in(script: &str) -> Option<&str> {
    let s = script.trim_start();
    let s = s.strip_prefix("apply_patch").or_else(|| s.strip_prefix("applypatch"))?;
    let at = s.find("*** Begin Patch")?;
    Some(&s[at..])
}

/// The files a patch adds, updates, moves and deletes, from its headers.
fn patch_changes(patch: &str) -> Vec<PatchChange> {
    let mut out: Vec<PatchChange> = Vec::new();
    for line in patch.lines() {
        let head = |p: &str| line.strip_prefix(p).map(|rest| rest.trim().to_owned());
        if let Some(path) = head("*** Add File:") {
            out.push(PatchChange { path, action: FileAction::Created, to: None });
        } else if let Some(path) = head("*** Update File:") {
            out.push(PatchChange { path, action: FileAction::Edited, to: None });
        } else if let Some(path) = head("*** Delete File:") {
            out.push(PatchChange { path, action: FileAction::Deleted, to: None });
        } else if let Some(to) = head("*** Move to:")
            && let Some(last) = out.last_mut()
        {
            last.to = Some(to);
        }
        if out.len() >= 100 {
            break;
        }
    }
    out
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ran,
    Failed,
    /// Declined by the person or the policy: it never ran.
    Declined,
}

impl Outcome {
    fn of_exit(exit: Option<i64>) -> Self {
        if exit.is_some_and(|c| c != 0) { Outcome::Failed } else { Outcome::Ran }
    }
}

/// A call's output, read only for how the call ended: `{"output", "metadata":
/// {"exit_code"}}` (to ~0.100), `Exit code: N` / `Process exited with code N` lines
/// (later), or Codex's sentence for a declined call.
fn output_outcome(output: Option<&Value>) -> Outcome {
    let text = match output {
        Some(Value::String(s)) => s.as_str(),
        Some(v) => v.get("text").and_then(Value::as_str).unwrap_or(""),
        None => "",
    };
    let head: String = text.chars().take(600).collect();
    let head = head.as_str();
    if head.starts_with("exec command rejected")
        || head.starts_with("patch rejected")
        || head.contains("rejected by user")
    {
        return Outcome::Declined;
    }
    if head.starts_with('{')
        && let Ok(v) = serde_json::from_str::<Value>(text)
    {
        return Outcome::of_exit(v.pointer("/metadata/exit_code").and_then(Value::as_i64));
    }
    for line in head.lines() {
        let code = line.strip_prefix("Exit code:").or_else(|| line.strip_prefix("Process exited with code"));
        if let Some(code) = code.and_then(|c| c.trim().parse::<i64>().ok()) {
            return Outcome::of_exit(Some(code));
        }
    }
    Outcome::Ran
}

/// Call `payload.call_id` ended with `outcome`: note what it did.
fn ended(record: &mut SessionRecord, payload: &Value, outcome: Outcome, place: Place<'_>) {
    let id = payload.get("call_id").and_then(Value::as_str).unwrap_or("");
    let Some(pending) = record.resolved(id) else { return };
    record.seen_call(id);
    if outcome == Outcome::Declined {
        return;
    }
    match pending {
        Pending::Command { command, cwd, .. } => {
            let index = record.command(&command, place.at(cwd.as_deref()), false);
            if outcome == Outcome::Failed {
                record.command_failed(index);
            }
        }
        Pending::Patch { changes, cwd } if outcome == Outcome::Ran => {
            let place = place.at(cwd.as_deref());
            // The event's own list, where it has one, is what was applied.
            let listed = payload.get("changes").and_then(Value::as_object).filter(|c| !c.is_empty());
            match listed {
                Some(changes) => file_changes(record, changes, place),
                None => {
                    for c in changes {
                        patched(record, &c, place);
                    }
                }
            }
        }
        _ => {}
    }
}

fn patched(record: &mut SessionRecord, c: &PatchChange, place: Place<'_>) {
    let path = shown_path(&c.path, place);
    match (c.action, &c.to) {
        (FileAction::Deleted, _) => record.deleted(&path),
        (_, Some(to)) => record.renamed(&path, &shown_path(to, place)),
        (action, None) => {
            record.file(&path, action, false);
        }
    }
}

/// A `changes` map (path → `{type: add|update|delete, move_path}`), as `FileChange`
/// items and `patch_apply_end` events write it.
fn file_changes(record: &mut SessionRecord, changes: &serde_json::Map<String, Value>, place: Place<'_>) {
    for (path, change) in changes.iter().take(100) {
        let action = match change.get("type").and_then(Value::as_str) {
            Some("add") => FileAction::Created,
            Some("delete") => FileAction::Deleted,
            Some("update") => FileAction::Edited,
            _ => continue,
        };
        let to = change.get("move_path").and_then(Value::as_str).map(str::to_owned);
        patched(record, &PatchChange { path: path.clone(), action, to }, place);
    }
}

/// An `item_completed` item (from ~0.149): the person's message, or what a tool did when
/// its call line has not already counted it.
fn completed(record: &mut SessionRecord, item: Option<&Value>, place: Place<'_>) {
    let Some(item) = item else { return };
    let kind = item.get("type").and_then(Value::as_str);
    if kind == Some("UserMessage") {
        if record.requests_from("UserMessage") {
            for part in item.get("content").and_then(Value::as_array).into_iter().flatten() {
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    record.request(text);
                }
            }
        }
        return;
    }
    let id = item.get("id").and_then(Value::as_str).unwrap_or("");
    let status = item.get("status").and_then(Value::as_str);
    let outcome = match status {
        Some("declined") => Outcome::Declined,
        Some("failed") => Outcome::Failed,
        _ => Outcome::of_exit(item.get("exit_code").and_then(Value::as_i64)),
    };
    let as_event = serde_json::json!({ "call_id": id, "changes": item.get("changes") });
    match kind {
        Some("FileChange" | "CommandExecution") if record.pending.contains_key(id) => {
            ended(record, &as_event, outcome, place)
        }
        // No call line for it (or it already counted): count it once, from the item.
        Some("FileChange") if !record.seen_call(id) && outcome == Outcome::Ran => {
            if let Some(changes) = item.get("changes").and_then(Value::as_object) {
                file_changes(record, changes, place);
            }
        }
        Some("CommandExecution") if !record.seen_call(id) && outcome != Outcome::Declined => {
            let words = item.get("command").and_then(Value::as_array);
            let Some(command) = words.and_then(|w| w.last()).and_then(Value::as_str) else { return };
            let index = record.command(command, place, false);
            if outcome == Outcome::Failed {
                record.command_failed(index);
            }
        }
        _ => {}
    }
}
