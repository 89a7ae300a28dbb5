//! Gemini CLI's chat file (JSONL, `~/.gemini/tmp/<project>/chats/session-….jsonl`, handed
//! to hooks as `transcript_path`): `user` lines with the person's text, `gemini` lines
//! with the model's text and its `toolCalls` (`write_file`, `replace`,
//! `run_shell_command`, `write_todos`, MCP tools) each with its status. A `gemini` line
//! is written again as its calls complete, so each call is folded once, by id; `$set`
//! lines update the file's header and are skipped.

use serde_json::Value;

use super::record::{FileAction, Place, SessionRecord, shown_path, without_hook_context};

/// Fold one line in; `cwd` is the session's directory.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    match line.get("type").and_then(Value::as_str) {
        Some("user") => {
            saw_time(record, line);
            match line.get("content") {
                Some(Value::String(text)) => asked(record, text),
                Some(Value::Array(parts)) => {
                    for part in parts {
                        if let Some(text) = part.get("text").and_then(Value::as_str) {
                            asked(record, text);
                        }
                    }
                }
                _ => {}
            }
        }
        Some("gemini") => {
            saw_time(record, line);
            if let Some(model) = line.get("model").and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            if let Some(text) = line.get("content").and_then(Value::as_str) {
                record.last_word(text);
            }
            for call in line.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                tool_call(record, call, place);
            }
        }
        _ => {}
    }
}

/// The person's text, without the context a hook put in front of it and without the
/// client's own wrapped blocks.
fn asked(record: &mut SessionRecord, text: &str) {
    let text = without_hook_context(text);
    if !super::text::wrapped(&text) {
        record.request(&text);
    }
}

fn saw_time(record: &mut SessionRecord, line: &Value) {
    if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
}

fn tool_call(record: &mut SessionRecord, call: &Value, place: Place<'_>) {
    let status = call.get("status").and_then(Value::as_str);
    // A call still running is folded once it has its outcome.
    if matches!(status, Some("scheduled" | "validating" | "executing" | "awaiting_approval")) {
        return;
    }
    if record.seen_call(call.get("id").and_then(Value::as_str).unwrap_or("")) {
        return;
    }
    let failed = matches!(status, Some("error" | "cancelled"));
    let args = call.get("args").unwrap_or(&Value::Null);
    let text = |k: &str| args.get(k).and_then(Value::as_str);
    let name = call.get("name").and_then(Value::as_str).unwrap_or("");
    match name {
        "write_file" | "replace" if !failed => {
            let Some(path) = text("file_path") else { return };
            let action = if name == "replace" {
                FileAction::Edited
            } else if said_created(call) {
                FileAction::Created
            } else {
                FileAction::Written
            };
            record.file(&shown_path(path, place), action, false);
        }
        "run_shell_command" => {
            let Some(command) = text("command") else { return };
            let index = record.command(command, place, false);
            if failed {
                record.command_failed(index);
            }
        }
        "write_todos" => {
            record.todos_from(args.get("todos"), "description", None);
        }
        other => record.mooring_tool(other),
    }
}

/// Whether the tool's answer says the file was new (Gemini CLI words it so; the content
/// that follows in the answer is never kept).
fn said_created(call: &Value) -> bool {
    call.get("result")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(|r| r.pointer("/functionResponse/response/output"))
        .and_then(Value::as_str)
        .is_some_and(created)
}

/// Whether `write_file`'s answer `output` says it made the file (Gemini CLI's words,
/// which Qwen Code kept).
pub(super) fn created(output: &str) -> bool {
    output.starts_with("Successfully created")
}
