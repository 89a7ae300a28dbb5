//! opencode's sessions (read as the pinned 1.18.33 keeps them): not a file per session but
//! its SQLite database (`~/.local/share/opencode/opencode.db`, which Mooring's plugin hands
//! the hook as `transcript_path`), opened read-only. A session is its `part` rows in id
//! order, each with its `message`'s role: `text` parts (the person's, the model's; a
//! `synthetic` one is what a plugin added, Mooring's context among them), `tool` parts
//! with the call's `input` and `state` (`write`, `edit`, `bash` with its exit code,
//! `todowrite`, MCP tools as `SERVER_TOOL`). A call's output is never read.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, params};
use serde_json::{Value, json};

use super::record::{FileAction, Place, SessionRecord, shown_path};

/// Parts read in one slice.
const SLICE: u32 = 2_000;

/// Fold the parts of session `session` stored since the last slice; whether more wait.
pub fn advance(
    record: &mut SessionRecord,
    database: &Path,
    session: &str,
    place: Place<'_>,
) -> std::io::Result<bool> {
    let fail = |e: rusqlite::Error| std::io::Error::other(e.to_string());
    if !database.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"));
    }
    let conn = Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(fail)?;
    conn.busy_timeout(Duration::from_millis(500)).map_err(fail)?;
    let mut st = conn
        .prepare(
            "SELECT m.data, p.data, p.time_created FROM part p JOIN message m ON m.id = p.message_id
             WHERE p.session_id = ?1 ORDER BY p.id LIMIT ?2 OFFSET ?3",
        )
        .map_err(fail)?;
    let from = i64::try_from(record.read_to).unwrap_or(i64::MAX);
    let mut rows = st.query(params![session, SLICE, from]).map_err(fail)?;
    let mut read = 0u64;
    while let Some(row) = rows.next().map_err(fail)? {
        read += 1;
        let (message, part, at): (String, String, i64) =
            (row.get(0).map_err(fail)?, row.get(1).map_err(fail)?, row.get(2).map_err(fail)?);
        // What another program wrote: a row that is not JSON is passed over.
        let (Ok(message), Ok(part)) =
            (serde_json::from_str::<Value>(&message), serde_json::from_str::<Value>(&part))
        else {
            continue;
        };
        apply(record, &json!({ "message": message, "part": part, "at": at }), place);
    }
    record.read_to += read;
    Ok(read == u64::from(SLICE))
}

/// Fold one part (`{message, part, at}`, as [`advance`] hands them) in.
pub fn apply(record: &mut SessionRecord, line: &Value, place: Place<'_>) {
    if let Some(at) = line.get("at").and_then(Value::as_i64).and_then(chrono::DateTime::from_timestamp_millis)
    {
        record.saw_time(&at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
    }
    let message = line.get("message").unwrap_or(&Value::Null);
    let part = line.get("part").unwrap_or(&Value::Null);
    let role = message.get("role").and_then(Value::as_str);
    if let Some(model) = message.get("modelID").and_then(Value::as_str) {
        record.model = Some(model.to_owned());
    }
    match part.get("type").and_then(Value::as_str) {
        Some("text") if part.get("synthetic").and_then(Value::as_bool) != Some(true) => {
            let Some(text) = part.get("text").and_then(Value::as_str).filter(|t| !t.trim().is_empty()) else {
                return;
            };
            match role {
                Some("user") if !super::text::wrapped(text) => record.request(unquoted(text)),
                Some("assistant") => record.last_word(text),
                _ => {}
            }
        }
        Some("tool") => tool(record, part, place),
        _ => {}
    }
}

/// `opencode run "…"` stores the prompt inside the quotes it was given in.
fn unquoted(text: &str) -> &str {
    let t = text.trim();
    match t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner,
        _ => text,
    }
}

fn tool(record: &mut SessionRecord, part: &Value, place: Place<'_>) {
    let state = part.get("state").unwrap_or(&Value::Null);
    let status = state.get("status").and_then(Value::as_str);
    // A call still running is folded once it has its outcome (at a later turn's end).
    if !matches!(status, Some("completed" | "error")) {
        return;
    }
    if record.seen_call(part.get("callID").and_then(Value::as_str).unwrap_or("")) {
        return;
    }
    let failed = status == Some("error");
    let input = state.get("input").unwrap_or(&Value::Null);
    let text = |k: &str| input.get(k).and_then(Value::as_str);
    match part.get("tool").and_then(Value::as_str).unwrap_or("") {
        name @ ("write" | "edit") if !failed => {
            let Some(path) = text("filePath") else { return };
            let new = state.pointer("/metadata/exists").and_then(Value::as_bool) == Some(false);
            let action = match (name, new) {
                ("edit", _) => FileAction::Edited,
                (_, true) => FileAction::Created,
                _ => FileAction::Written,
            };
            record.file(&shown_path(path, place), action, false);
        }
        "bash" => {
            let Some(command) = text("command") else { return };
            let index = record.command(&super::record::intake(command), place, false);
            let exit = state.pointer("/metadata/exit").and_then(Value::as_i64);
            if failed || exit.is_some_and(|e| e != 0) {
                record.command_failed(index);
            }
        }
        "todowrite" => {
            record.todos_from(input.get("todos"), "content", None);
        }
        other => record.mooring_tool(other),
    }
}
