//! GitHub Copilot CLI's session file (JSONL, `~/.copilot/session-state/<id>/events.jsonl`,
//! handed to its `agentStop` hook as `transcriptPath`; read as 1.0.102 writes it): one
//! event per line, `{type, data, id, timestamp, parentId}`. `user.message` holds the
//! person's text in `content` (`transformedContent` adds the client's own blocks and is
//! not read); `assistant.message` the model's text; `tool.execution_start` a call's tool
//! and arguments, `tool.execution_complete` its outcome (`success`, a command's
//! `shellExecution.exitCode`, the files it changed in `fileEdits`). Results are never
//! read beyond that.

use serde_json::Value;

use super::record::{FileAction, Pending, Place, SessionRecord, shown_path};

/// Fold one line in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
    let data = line.get("data").unwrap_or(&Value::Null);
    let text = |k: &str| data.get(k).and_then(Value::as_str);
    match line.get("type").and_then(Value::as_str) {
        Some("session.start") => {
            if let Some(model) = text("selectedModel") {
                record.model = Some(model.to_owned());
            }
        }
        Some("user.message") => {
            if let Some(asked) = text("content").filter(|t| !super::text::wrapped(t)) {
                record.request(asked);
            }
        }
        Some("assistant.message") => {
            if let Some(said) = text("content").filter(|t| !t.trim().is_empty()) {
                record.last_word(said);
            }
        }
        Some("tool.execution_start") => started(record, data),
        Some("tool.execution_complete") => completed(record, data, place),
        _ => {}
    }
}

/// A call began: a shell command waits for its outcome; Mooring's own tools are counted.
fn started(record: &mut SessionRecord, data: &Value) {
    let id = data.get("toolCallId").and_then(Value::as_str).unwrap_or("");
    let name = data.get("toolName").and_then(Value::as_str).unwrap_or("");
    let args = data.get("arguments").unwrap_or(&Value::Null);
    match name {
        "bash" => {
            if let Some(command) = args.get("command").and_then(Value::as_str) {
                let command = super::record::intake(command);
                record.wait(id, Pending::Command { command, cwd: None, subagent: false });
            }
        }
        other => record.mooring_tool(other),
    }
}

/// A call ended: the files it changed, and a command with whether it failed.
fn completed(record: &mut SessionRecord, data: &Value, place: Place<'_>) {
    let id = data.get("toolCallId").and_then(Value::as_str).unwrap_or("");
    if record.seen_call(id) {
        return;
    }
    let ok = data.get("success").and_then(Value::as_bool) != Some(false);
    for edit in data.get("fileEdits").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
        let Some(path) = edit.get("path").and_then(Value::as_str) else { continue };
        let path = shown_path(path, place);
        match edit.get("kind").and_then(Value::as_str) {
            Some("create") => {
                record.file(&path, FileAction::Created, false);
            }
            Some("delete") => record.deleted(&path),
            _ => {
                record.file(&path, FileAction::Edited, false);
            }
        }
    }
    if let Some(Pending::Command { command, .. }) = record.resolved(id) {
        let index = record.command(&command, place, false);
        let exit = data.pointer("/shellExecution/exitCode").and_then(Value::as_i64);
        if !ok || exit.is_some_and(|e| e != 0) {
            record.command_failed(index);
        }
    }
}
