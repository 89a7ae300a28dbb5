//! Pi's session file (JSONL, `~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`, named
//! to Mooring's extension by Pi's session manager; read as the pinned 0.73.1 writes it):
//! a `session` header, then one entry per line. `message` entries carry a `message` with
//! its `role`: `user` (the person's text: a string or text blocks), `assistant` (text and
//! `toolCall` blocks: `write`, `edit`, `bash`, other tools), `toolResult` (a call's
//! outcome: `isError`, never read further), `bashExecution` (a command the person ran
//! with `!`, and its exit code). A `compaction` entry holds the summary the model wrote.
//! Mooring's own context is a `custom_message` entry and is not read; nor are a tool's
//! output or a file's contents. Pi's `write` does not say whether the file was new: it
//! is recorded as written.

use serde_json::Value;

use super::record::{FileAction, Pending, Place, SessionRecord, shown_path};

/// Fold one line in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    let kind = line.get("type").and_then(Value::as_str);
    if matches!(kind, Some("message" | "compaction"))
        && let Some(at) = line.get("timestamp").and_then(Value::as_str)
    {
        record.saw_time(at);
    }
    match kind {
        Some("message") => message(record, line.get("message").unwrap_or(&Value::Null), place),
        Some("compaction") => {
            if let Some(summary) = line.get("summary").and_then(Value::as_str) {
                record.carry(summary);
            }
        }
        _ => {}
    }
}

fn message(record: &mut SessionRecord, message: &Value, place: Place<'_>) {
    let content = message.get("content");
    let blocks = content.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    match message.get("role").and_then(Value::as_str) {
        Some("user") => {
            let text = match content {
                Some(Value::String(text)) => Some(text.as_str()),
                _ => blocks.iter().find_map(|b| b.get("text").and_then(Value::as_str)),
            };
            if let Some(text) = text.filter(|t| !super::text::wrapped(t)) {
                record.request(text);
            }
        }
        Some("assistant") => {
            if let Some(model) = message.get("model").and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => record.last_word(block.get("text").and_then(Value::as_str).unwrap_or("")),
                    Some("toolCall") => called(record, block, place),
                    _ => {}
                }
            }
        }
        Some("toolResult") => {
            let id = message.get("toolCallId").and_then(Value::as_str).unwrap_or("");
            answered(record, id, message.get("isError").and_then(Value::as_bool) == Some(true), place);
        }
        Some("bashExecution") => {
            if let Some(command) = message.get("command").and_then(Value::as_str) {
                let index = record.command(&super::record::intake(command), place, false);
                let exit = message.get("exitCode").and_then(Value::as_i64);
                if exit.is_some_and(|e| e != 0)
                    || message.get("cancelled").and_then(Value::as_bool) == Some(true)
                {
                    record.command_failed(index);
                }
            }
        }
        _ => {}
    }
}

/// A call the model made: a file or a command waits for its outcome; Mooring's tools (an
/// extension's of the same name) are counted.
fn called(record: &mut SessionRecord, call: &Value, place: Place<'_>) {
    let id = call.get("id").and_then(Value::as_str).unwrap_or("");
    let args = call.get("arguments").unwrap_or(&Value::Null);
    let text = |k: &str| args.get(k).and_then(Value::as_str);
    match call.get("name").and_then(Value::as_str).unwrap_or("") {
        name @ ("write" | "edit") => {
            let Some(path) = text("path") else { return };
            let action = if name == "edit" { FileAction::Edited } else { FileAction::Written };
            record.wait(id, Pending::File { path: shown_path(path, place), action, subagent: false });
        }
        "bash" => {
            if let Some(command) = text("command") {
                let command = super::record::intake(command);
                record.wait(id, Pending::Command { command, cwd: None, subagent: false });
            }
        }
        other => record.mooring_tool(other),
    }
}

/// A call's outcome: the file it wrote, or the command with whether it failed (Pi's
/// `bash` reports a non-zero exit as an error).
fn answered(record: &mut SessionRecord, id: &str, failed: bool, place: Place<'_>) {
    if record.seen_call(id) {
        return;
    }
    match record.resolved(id) {
        Some(Pending::File { path, action, .. }) if !failed => {
            record.file(&path, action, false);
        }
        Some(Pending::Command { command, .. }) => {
            let index = record.command(&command, place, false);
            if failed {
                record.command_failed(index);
            }
        }
        _ => {}
    }
}
