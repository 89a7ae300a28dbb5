//! Cursor's agent transcript (JSONL, `~/.cursor/projects/<folder>/agent-transcripts/`;
//! Cursor cannot run here, so this reads the shape its published integrations recorded
//! from Cursor 3.x and its CLI): one message per line, `{role, message: {content:
//! [blocks]}}` in Claude's block shapes. A `user` message holds the person's words
//! inside `<user_query>` (after a `<timestamp>` and any attached context); an
//! `assistant` message its `text` and `tool_use` blocks (`Write {path, contents}`,
//! `StrReplace {path, …}`, `Delete {path}`, `Shell {command}`, `TodoWrite {todos}`, MCP
//! tools). Its blocks carry no ids and its lines no times, and no tool's result is
//! written: a file a tool named counts as changed, a command as run (git's view at the
//! turn's end corrects what did not happen), and the record is dated by the file.

use serde_json::Value;

use super::record::{FileAction, Place, SessionRecord, shown_path, without_hook_context};

/// Fold one line in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    let blocks =
        line.pointer("/message/content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let texts = || blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("text"));
    match line.get("role").and_then(Value::as_str) {
        Some("user") => {
            for block in texts() {
                if let Some(words) = block.get("text").and_then(Value::as_str).and_then(person_s_words) {
                    record.request(&words);
                }
            }
        }
        Some("assistant") => {
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(text) = block.get("text").and_then(Value::as_str) {
                            record.last_word(text);
                        }
                    }
                    Some("tool_use") => used(record, block, place),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// The person's words in a user message: what `<user_query>` holds, else the text when
/// it is not something the client wrapped (attached files, rules, a hook's context).
fn person_s_words(text: &str) -> Option<String> {
    let words = match (text.find("<user_query>"), text.rfind("</user_query>")) {
        (Some(open), Some(close)) if open < close => text[open + "<user_query>".len()..close].to_owned(),
        _ if super::text::wrapped(text) => return None,
        _ => text.to_owned(),
    };
    let words = without_hook_context(&words);
    (!words.trim().is_empty()).then_some(words)
}

/// A tool the agent called.
fn used(record: &mut SessionRecord, block: &Value, place: Place<'_>) {
    let input = block.get("input").unwrap_or(&Value::Null);
    let text = |k: &str| input.get(k).and_then(Value::as_str);
    let path = || text("path").or_else(|| text("file_path")).or_else(|| text("target_file"));
    match block.get("name").and_then(Value::as_str).unwrap_or("") {
        "Write" => {
            if let Some(path) = path() {
                record.file(&shown_path(path, place), FileAction::Written, false);
            }
        }
        "StrReplace" | "Edit" | "MultiEdit" | "EditNotebook" => {
            if let Some(path) = path() {
                record.file(&shown_path(path, place), FileAction::Edited, false);
            }
        }
        "Delete" => {
            if let Some(path) = path() {
                record.file(&shown_path(path, place), FileAction::Deleted, false);
            }
        }
        "Shell" => {
            if let Some(command) = text("command") {
                record.command(&super::record::intake(command), place, false);
            }
        }
        "TodoWrite" => record.todos_from(input.get("todos"), "content", None),
        other => record.mooring_tool(other),
    }
}
