//! Cline's session file (`<data>/sessions/<root session>/<root session>.messages.json`,
//! found from its hooks' `rootSessionId`; read as the pinned 3.0.65 writes it): one JSON
//! document, rewritten as the session goes, whose `messages` are `{id, role, content,
//! ts}` in Anthropic's block shapes. The person's words are a user `text` block inside
//! `<user_input mode="…">` (a hook's context rides along inside `<hook_context>`);
//! `tool_use` blocks are its `editor` (a `path`; with `old_text` or `insert_line` an edit,
//! else the file written whole) and `run_commands` (several `commands` at once); a user
//! message's `tool_result` block answers one, by `tool_use_id`: the editor's a JSON text
//! with `success` and `result` ("File created successfully at: …"), the commands' a list
//! of `{query, result, success}` in order. Of an answer only whether it succeeded is read
//! (and whether the editor created the file), never a command's output.

use serde_json::Value;

use super::record::{FileAction, Pending, Place, SessionRecord, shown_path, without_hook_context};

/// Fold one message in (the file is read whole, its new messages one by one: see
/// `advance::chat_file`).
pub fn apply(record: &mut SessionRecord, message: &Value, place: Place<'_>) {
    if let Some(at) =
        message.get("ts").and_then(Value::as_i64).and_then(chrono::DateTime::from_timestamp_millis)
    {
        record.saw_time(&at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
    }
    let blocks = message.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let kind = |b: &Value| b.get("type").and_then(Value::as_str).map(str::to_owned);
    match message.get("role").and_then(Value::as_str) {
        Some("user") => {
            for block in blocks {
                match kind(block).as_deref() {
                    Some("text") => {
                        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                        if let Some(words) = person_s_words(text) {
                            record.request(&words);
                        }
                    }
                    Some("tool_result") => answered(record, block, place),
                    _ => {}
                }
            }
        }
        Some("assistant") => {
            if let Some(model) = message.pointer("/modelInfo/id").and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            for block in blocks {
                match kind(block).as_deref() {
                    Some("text") => {
                        if let Some(text) = block.get("text").and_then(Value::as_str) {
                            record.last_word(text);
                        }
                    }
                    Some("tool_use") => called(record, block, place),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// What `<user_input>` holds, without a hook's context; a message wrapped otherwise is
/// the client's own.
fn person_s_words(text: &str) -> Option<String> {
    let open = text.find("<user_input")?;
    let start = open + text[open..].find('>')? + 1;
    let end = start + text[start..].rfind("</user_input>")?;
    let words = without_hook_context(&text[start..end]);
    (!words.trim().is_empty()).then_some(words)
}

/// A call: a file or each command waits for its answer.
fn called(record: &mut SessionRecord, block: &Value, place: Place<'_>) {
    let id = block.get("id").and_then(Value::as_str).unwrap_or("");
    let input = block.get("input").unwrap_or(&Value::Null);
    match block.get("name").and_then(Value::as_str).unwrap_or("") {
        "editor" => {
            let Some(path) = input.get("path").and_then(Value::as_str) else { return };
            let edit =
                input.get("old_text").is_some_and(|o| !o.is_null()) || input.get("insert_line").is_some();
            let action = if edit { FileAction::Edited } else { FileAction::Written };
            record.wait(id, Pending::File { path: shown_path(path, place), action, subagent: false });
        }
        "run_commands" => {
            let commands =
                input.get("commands").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            for (i, command) in commands.iter().filter_map(Value::as_str).enumerate() {
                let command = super::record::intake(command);
                record.wait(&format!("{id}#{i}"), Pending::Command { command, cwd: None, subagent: false });
            }
        }
        other => record.mooring_tool(other),
    }
}

/// An answer: the file its call named (created, if the editor says so), or each command
/// with whether it failed.
fn answered(record: &mut SessionRecord, block: &Value, place: Place<'_>) {
    let id = block.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
    if record.seen_call(id) {
        return;
    }
    match block.get("content") {
        Some(Value::Array(results)) => {
            for (i, result) in results.iter().enumerate() {
                if let Some(Pending::Command { command, .. }) = record.resolved(&format!("{id}#{i}")) {
                    let index = record.command(&command, place, false);
                    if result.get("success").and_then(Value::as_bool) == Some(false) {
                        record.command_failed(index);
                    }
                }
            }
        }
        Some(Value::String(text)) => {
            let answer: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            let failed = answer.get("success").and_then(Value::as_bool) == Some(false);
            if let Some(Pending::File { path, action, .. }) = record.resolved(id).filter(|_| !failed) {
                let said = answer.get("result").and_then(Value::as_str).unwrap_or("");
                let action = if action == FileAction::Written && said.starts_with("File created") {
                    FileAction::Created
                } else {
                    action
                };
                record.file(&path, action, false);
            }
        }
        _ => {}
    }
}
