//! Claude Code's transcript (JSONL, one line per message), read by the client's own
//! markers: the person's requests are `user` lines that are not `isMeta`, not
//! `isCompactSummary` (the compaction summary, kept as the context carry), not
//! `isSidechain` (a subagent's prompt), not tool results and not interruption markers;
//! slash commands are kept as typed. The assistant's tool uses (`Write`, `Edit`,
//! `MultiEdit`, `NotebookEdit`, `Bash`, `TaskCreate`/`TaskUpdate`, `TodoWrite`, MCP tools)
//! count only once their result says they ran: a refused, rejected or failed edit changed
//! nothing, and a rejected command never ran. Sidechain lines (a subagent's, in the main
//! file in 1.0.x and in `subagents/agent-*.jsonl` in 2.x) count their tool uses as the
//! subagent's.

use serde_json::Value;

use super::record::{FileAction, Pending, Place, SessionRecord, shown_path};
use super::text::{Said, claude_said};

/// Fold one line in. Lines of kinds it does not know change nothing.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    let flag = |k: &str| line.get(k).and_then(Value::as_bool) == Some(true);
    let sidechain = flag("isSidechain");
    if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
    let place = place.at(line.get("cwd").and_then(Value::as_str));
    let message = line.get("message");
    let content = message.and_then(|m| m.get("content"));
    match line.get("type").and_then(Value::as_str) {
        Some("user") if flag("isCompactSummary") => {
            if !sidechain && let Some(text) = text_of(content) {
                record.carry(&text);
            }
        }
        Some("user") if !flag("isMeta") => match content {
            Some(Value::String(text)) if !sidechain => said(record, text),
            Some(Value::Array(items)) => {
                // One message is one request: its text blocks joined, so a `<private>` span
                // opened in one block and closed in the next is dropped whole.
                let mut texts: Vec<&str> = Vec::new();
                for item in items {
                    match item.get("type").and_then(Value::as_str) {
                        Some("text") if !sidechain => texts.push(str_of(item, "text")),
                        Some("tool_result") => result(record, item, line.get("toolUseResult"), place),
                        _ => {}
                    }
                }
                let pieces: Vec<&str> = texts.into_iter().filter(|t| !t.trim().is_empty()).collect();
                if !pieces.is_empty() {
                    said(record, &pieces.join("\n"));
                }
            }
            _ => {}
        },
        Some("assistant") => {
            if !sidechain && let Some(model) = message.and_then(|m| m.get("model")).and_then(Value::as_str) {
                record.model = Some(model.to_owned());
            }
            for item in content.and_then(Value::as_array).into_iter().flatten() {
                match item.get("type").and_then(Value::as_str) {
                    Some("tool_use") => tool_use(record, item, place, sidechain),
                    Some("text") if !sidechain => record.last_word(str_of(item, "text")),
                    _ => {}
                }
            }
        }
        Some("system")
            if !sidechain && line.get("subtype").and_then(Value::as_str) == Some("compact_boundary") =>
        {
            record.compactions += 1;
        }
        _ => {}
    }
}

fn said(record: &mut SessionRecord, text: &str) {
    if let Said::Request(text) = claude_said(text) {
        record.request(&text);
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A message's text, whether the content is a string or a list of parts.
fn text_of(content: Option<&Value>) -> Option<String> {
    match content? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let parts: Vec<&str> =
                items.iter().filter_map(|i| i.get("text").and_then(Value::as_str)).collect();
            (!parts.is_empty()).then(|| parts.join("\n"))
        }
        _ => None,
    }
}

fn tool_use(record: &mut SessionRecord, item: &Value, place: Place<'_>, subagent: bool) {
    let name = str_of(item, "name");
    let id = str_of(item, "id");
    let input = item.get("input").unwrap_or(&Value::Null);
    let text = |k: &str| input.get(k).and_then(Value::as_str);
    match name {
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => {
            let Some(path) = text("file_path").or_else(|| text("notebook_path")) else { return };
            let action = if name == "Write" { FileAction::Written } else { FileAction::Edited };
            record.wait(id, Pending::File { path: shown_path(path, place), action, subagent });
        }
        "Bash" => {
            let Some(command) = text("command") else { return };
            let cwd = place.cwd.map(str::to_owned);
            record.wait(id, Pending::Command { command: super::record::intake(command), cwd, subagent });
        }
        _ if subagent => {}
        "TaskCreate" => {
            let subject = text("subject").unwrap_or_default().to_owned();
            record.wait(id, Pending::TaskCreate { subject });
        }
        "TaskUpdate" => {
            let (Some(task), Some(status)) = (text("taskId"), text("status")) else { return };
            if status == "deleted" {
                record.todos.retain(|t| t.id.as_deref() != Some(task));
            } else if let Some(t) = record.todos.iter_mut().find(|t| t.id.as_deref() == Some(task)) {
                t.status = super::record::trim(status, 20);
            }
        }
        "TodoWrite" => {
            record.todos_from(input.get("todos"), "content", Some("id"));
        }
        other => record.mooring_tool(other),
    }
}

/// How a tool call ended, by the client's own words for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ran,
    Failed,
    /// Refused by permissions, rejected by the person or interrupted: it never ran.
    Refused,
}

fn outcome(item: &Value, detail: Option<&Value>) -> Outcome {
    if item.get("is_error").and_then(Value::as_bool) != Some(true) {
        return Outcome::Ran;
    }
    let said = text_of(item.get("content")).unwrap_or_default();
    let detail = detail.and_then(Value::as_str).unwrap_or("");
    // Claude Code's fixed sentences for a call that did not run (rejected by the person,
    // refused by the permission system — 2.1.330 words it "Claude requested permissions
    // to …", "… needs approval." and "… requires approval: …" — interrupted, or invalid
    // before it ran).
    const REFUSED: &[&str] = &[
        "The user doesn't want to proceed with this tool use",
        "The user doesn't want to take this action",
        "[Request interrupted by user",
        "Permission to use ",
        "User rejected tool use",
        "Claude requested permissions to ",
        "This Bash command contains multiple operations",
        "<tool_use_error>",
    ];
    let refused = |s: &str| {
        let s = s.trim_start_matches("Error: ");
        let first = s.lines().next().unwrap_or("");
        REFUSED.iter().any(|r| s.starts_with(r))
            || !s.starts_with("Exit code") && first.contains(" needs approval.")
    };
    if refused(&said) || refused(detail) { Outcome::Refused } else { Outcome::Failed }
}

/// A tool's result: what a call did, now that it is known to have run.
fn result(record: &mut SessionRecord, item: &Value, detail: Option<&Value>, place: Place<'_>) {
    let Some(id) = item.get("tool_use_id").and_then(Value::as_str) else { return };
    let Some(pending) = record.resolved(id) else { return };
    let outcome = outcome(item, detail);
    match pending {
        Pending::Command { command, cwd, subagent } if outcome != Outcome::Refused => {
            let place = place.at(cwd.as_deref());
            let index = record.command(&command, place, subagent);
            if outcome == Outcome::Failed {
                record.command_failed(index);
            }
        }
        Pending::TaskCreate { subject } if outcome == Outcome::Ran => {
            let task = detail.and_then(|d| d.get("task"));
            let id = task.and_then(|t| t.get("id")).and_then(Value::as_str).map(str::to_owned);
            record.add_todo(&subject, id);
        }
        Pending::File { path, action, subagent } if outcome == Outcome::Ran => {
            let created = detail.and_then(|d| d.get("type")).and_then(Value::as_str) == Some("create");
            let action = if created && action == FileAction::Written { FileAction::Created } else { action };
            record.file(&path, action, subagent);
        }
        _ => {}
    }
}
