//! Claude Code's transcript (JSONL, one line per message): the person's requests, the
//! assistant's tool uses with their input (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`,
//! `Bash`, `TaskCreate`/`TaskUpdate`, `TodoWrite`, MCP tools), tool results in later
//! lines (whether a command failed, a created task's id, whether a write created its
//! file) and compaction boundaries.

use serde_json::Value;

use super::record::{FileAction, Pending, SessionRecord, shown_path, trim};

/// Fold one line in; `cwd` is the session's directory. Lines of kinds it does not know
/// change nothing.
pub fn apply(record: &mut SessionRecord, line: &Value, cwd: Option<&str>) {
    if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
    let message = line.get("message");
    match line.get("type").and_then(Value::as_str) {
        Some("user") if line.get("isMeta").and_then(Value::as_bool) != Some(true) => {
            match message.and_then(|m| m.get("content")) {
                Some(Value::String(text)) => record.request(text),
                Some(Value::Array(items)) => {
                    for item in items {
                        match item.get("type").and_then(Value::as_str) {
                            Some("text") => record.request(str_of(item, "text")),
                            Some("tool_result") => result(record, item, line.get("toolUseResult")),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        Some("assistant") => {
            if let Some(model) = message.and_then(|m| m.get("model")).and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            for item in message.and_then(|m| m.get("content")).and_then(Value::as_array).into_iter().flatten()
            {
                match item.get("type").and_then(Value::as_str) {
                    Some("tool_use") => tool_use(record, item, cwd),
                    Some("text") => record.last_word(str_of(item, "text")),
                    _ => {}
                }
            }
        }
        Some("system") if line.get("subtype").and_then(Value::as_str) == Some("compact_boundary") => {
            record.compactions += 1;
        }
        _ => {}
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn tool_use(record: &mut SessionRecord, item: &Value, cwd: Option<&str>) {
    let name = str_of(item, "name");
    let id = str_of(item, "id");
    let input = item.get("input").unwrap_or(&Value::Null);
    let text = |k: &str| input.get(k).and_then(Value::as_str);
    match name {
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => {
            let Some(path) = text("file_path").or_else(|| text("notebook_path")) else { return };
            let action = if name == "Write" { FileAction::Written } else { FileAction::Edited };
            if let Some(index) = record.file(&shown_path(path, cwd), action) {
                record.wait(id, Pending::File { index });
            }
        }
        "Bash" => {
            let Some(command) = text("command") else { return };
            let index = record.command(command, cwd);
            record.wait(id, Pending::Command { index });
        }
        "TaskCreate" => {
            let subject = text("subject").unwrap_or_default().to_owned();
            record.wait(id, Pending::TaskCreate { subject });
        }
        "TaskUpdate" => {
            let (Some(task), Some(status)) = (text("taskId"), text("status")) else { return };
            if status == "deleted" {
                record.todos.retain(|t| t.id.as_deref() != Some(task));
            } else if let Some(t) = record.todos.iter_mut().find(|t| t.id.as_deref() == Some(task)) {
                t.status = trim(status, 20);
            }
        }
        "TodoWrite" => {
            let items = input.get("todos").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            record.set_todos(items.iter().filter_map(|t| {
                let subject = t.get("content").and_then(Value::as_str)?;
                let status = t.get("status").and_then(Value::as_str).unwrap_or("pending");
                Some((subject, status, t.get("id").and_then(Value::as_str)))
            }));
        }
        other => record.mooring_tool(other),
    }
}

/// A tool's result: whether a command failed, a created task's id, a created file.
fn result(record: &mut SessionRecord, item: &Value, detail: Option<&Value>) {
    let Some(id) = item.get("tool_use_id").and_then(Value::as_str) else { return };
    let Some(pending) = record.resolved(id) else { return };
    let failed = item.get("is_error").and_then(Value::as_bool) == Some(true);
    match pending {
        Pending::Command { index } if failed => record.command_failed(index),
        Pending::TaskCreate { subject } if !failed => {
            let task = detail.and_then(|d| d.get("task"));
            let id = task.and_then(|t| t.get("id")).and_then(Value::as_str).map(str::to_owned);
            record.add_todo(&subject, id);
        }
        Pending::File { index } => {
            let created = detail.and_then(|d| d.get("type")).and_then(Value::as_str) == Some("create");
            if created {
                record.created(index);
            }
        }
        _ => {}
    }
}
