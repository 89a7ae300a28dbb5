//! Qwen Code's chat file (JSONL, `~/.qwen/projects/<cwd>/chats/<session>.jsonl`, handed
//! to hooks as `transcript_path`; read as the pinned 0.15.10 writes it): one record per
//! line, `{uuid, parentUuid, sessionId, timestamp, type, cwd, message, …}`, its `message`
//! in Gemini's shape (`{role, parts}`). `user` parts hold the person's text (and, after
//! it, what a prompt hook added); `assistant` parts the model's text and its
//! `functionCall`s (`write_file`, `edit`, `run_shell_command`, `todo_write`, MCP tools);
//! `tool_result` lines a call's `functionResponse` and its `toolCallResult.status`.
//! `system` lines (telemetry, attribution) are skipped. Of a call's answer only whether
//! it succeeded is read: a command's exit code, and whether `write_file` made the file.

use serde_json::Value;

use super::record::{FileAction, Pending, Place, SessionRecord, shown_path, without_hook_context};

/// Fold one line in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    let kind = line.get("type").and_then(Value::as_str);
    if matches!(kind, Some("user" | "assistant" | "tool_result"))
        && let Some(at) = line.get("timestamp").and_then(Value::as_str)
    {
        record.saw_time(at);
    }
    let parts =
        line.pointer("/message/parts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    match kind {
        Some("user") => {
            // The first part is what the person typed; a prompt hook's context follows it
            // as a part of its own.
            if let Some(text) = parts.first().and_then(|p| p.get("text")).and_then(Value::as_str) {
                let text = without_hook_context(text);
                if !text.trim().is_empty() && !super::text::wrapped(&text) {
                    record.request(&text);
                }
            }
        }
        Some("assistant") => {
            if let Some(model) = line.get("model").and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            for part in parts {
                if let Some(text) = part.get("text").and_then(Value::as_str).filter(|t| !t.trim().is_empty())
                {
                    record.last_word(text);
                }
                if let Some(call) = part.get("functionCall") {
                    called(record, call, place);
                }
            }
        }
        Some("tool_result") => {
            let status = line.pointer("/toolCallResult/status").and_then(Value::as_str);
            for part in parts {
                if let Some(response) = part.get("functionResponse") {
                    answered(record, response, status, place);
                }
            }
        }
        _ => {}
    }
}

/// A call the model made: a file or a command waits for its outcome; todos are taken as
/// they are; Mooring's own tools are counted.
fn called(record: &mut SessionRecord, call: &Value, place: Place<'_>) {
    let id = call.get("id").and_then(Value::as_str).unwrap_or("");
    let args = call.get("args").unwrap_or(&Value::Null);
    let text = |k: &str| args.get(k).and_then(Value::as_str);
    match call.get("name").and_then(Value::as_str).unwrap_or("") {
        name @ ("write_file" | "edit") => {
            let Some(path) = text("file_path") else { return };
            let action = if name == "edit" { FileAction::Edited } else { FileAction::Written };
            record.wait(id, Pending::File { path: shown_path(path, place), action, subagent: false });
        }
        "run_shell_command" => {
            if let Some(command) = text("command") {
                let command = super::record::intake(command);
                record.wait(id, Pending::Command { command, cwd: None, subagent: false });
            }
        }
        "todo_write" => {
            record.todos_from(args.get("todos"), "content", None);
        }
        other => record.mooring_tool(other),
    }
}

/// A call's answer: the file it wrote (new, if the answer says so) or the command with
/// whether it failed.
fn answered(record: &mut SessionRecord, response: &Value, status: Option<&str>, place: Place<'_>) {
    let id = response.get("id").and_then(Value::as_str).unwrap_or("");
    if record.seen_call(id) {
        return;
    }
    let output = response.pointer("/response/output").and_then(Value::as_str).unwrap_or("");
    let failed = matches!(status, Some("error" | "cancelled"));
    match record.resolved(id) {
        Some(Pending::File { path, action, .. }) if !failed => {
            let action = if action == FileAction::Written && super::gemini::created(output) {
                FileAction::Created
            } else {
                action
            };
            record.file(&path, action, false);
        }
        Some(Pending::Command { command, .. }) => {
            let index = record.command(&command, place, false);
            if failed || exit_code(output).is_some_and(|code| code != 0) {
                record.command_failed(index);
            }
        }
        _ => {}
    }
}

/// The exit code the shell tool reports on a line of its own (`Exit Code: 1`).
fn exit_code(output: &str) -> Option<i64> {
    output.lines().find_map(|l| l.strip_prefix("Exit Code: ")).and_then(|c| c.trim().parse().ok())
}
