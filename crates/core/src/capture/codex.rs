//! Codex's rollout file (JSONL, `~/.codex/sessions/…/rollout-….jsonl`, handed to hooks
//! as `transcript_path`): `response_item` lines carry the conversation (the person's
//! messages, the assistant's, function calls such as `update_plan` and MCP tools), and
//! `event_msg` `item_completed` lines carry what the tools did — `FileChange` (apply_patch:
//! added, updated, moved, deleted) and `CommandExecution` (the command and its exit code;
//! its output is never read).

use serde_json::Value;

use super::record::{FileAction, SessionRecord, shown_path};

/// Fold one line in; `cwd` is the session's directory.
pub fn apply(record: &mut SessionRecord, line: &Value, cwd: Option<&str>) {
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
        (Some("response_item"), Some("message")) => {
            let role = payload.get("role").and_then(Value::as_str);
            for item in payload.get("content").and_then(Value::as_array).into_iter().flatten() {
                let text = item.get("text").and_then(Value::as_str).unwrap_or("");
                match (role, item.get("type").and_then(Value::as_str)) {
                    (Some("user"), Some("input_text")) => record.request(text),
                    (Some("assistant"), Some("output_text")) => record.last_word(text),
                    _ => {}
                }
            }
        }
        (Some("response_item"), Some("function_call" | "custom_tool_call")) => call(record, payload),
        (Some("event_msg"), Some("item_completed")) => completed(record, payload.get("item"), cwd),
        (Some("compacted"), _) | (Some("event_msg"), Some("context_compacted")) => record.compactions += 1,
        _ => {}
    }
}

/// A function call: the plan, and Mooring's own tools.
fn call(record: &mut SessionRecord, payload: &Value) {
    let name = payload.get("name").and_then(Value::as_str).unwrap_or("");
    let namespace = payload.get("namespace").and_then(Value::as_str).unwrap_or("");
    if name == "update_plan" {
        let args: Value = payload
            .get("arguments")
            .and_then(Value::as_str)
            .and_then(|a| serde_json::from_str(a).ok())
            .unwrap_or(Value::Null);
        let steps = args.get("plan").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        record.set_todos(steps.iter().filter_map(|s| {
            let step = s.get("step").and_then(Value::as_str)?;
            Some((step, s.get("status").and_then(Value::as_str).unwrap_or("pending"), None))
        }));
    } else if namespace.is_empty() {
        record.mooring_tool(name);
    } else {
        record.mooring_tool(&format!("{}__{name}", namespace.trim_end_matches('_')));
    }
}

/// What a tool did, once it did it.
fn completed(record: &mut SessionRecord, item: Option<&Value>, cwd: Option<&str>) {
    let Some(item) = item else { return };
    let id = item.get("id").and_then(Value::as_str).unwrap_or("");
    if record.seen_call(id) {
        return;
    }
    match item.get("type").and_then(Value::as_str) {
        Some("FileChange") => {
            let Some(changes) = item.get("changes").and_then(Value::as_object) else { return };
            for (path, change) in changes {
                let path = shown_path(path, cwd);
                match change.get("type").and_then(Value::as_str) {
                    Some("add") => {
                        record.file(&path, FileAction::Created);
                    }
                    Some("delete") => record.deleted(&path),
                    Some("update") => match change.get("move_path").and_then(Value::as_str) {
                        Some(to) => record.renamed(&path, &shown_path(to, cwd)),
                        None => {
                            record.file(&path, FileAction::Edited);
                        }
                    },
                    _ => {}
                }
            }
        }
        Some("CommandExecution") => {
            // `["/bin/bash", "-lc", "the command"]`: the line the model wrote is the last.
            let words = item.get("command").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let Some(command) = words.last().and_then(Value::as_str) else { return };
            let index = record.command(command, cwd);
            let exit = item.get("exit_code").and_then(Value::as_i64);
            if exit.is_some_and(|c| c != 0) || item.get("status").and_then(Value::as_str) == Some("failed") {
                record.command_failed(index);
            }
        }
        _ => {}
    }
}
