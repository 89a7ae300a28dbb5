//! Reading on: one slice of what a session's files (or, for a client whose hooks are its
//! record, one hook's input) gained since the last turn, folded into its record, and what
//! the checkout says at the turn's end.

use std::path::{Path, PathBuf};

use mooring_clients::Client;

use super::{
    Folder, Place, SessionRecord, Turn, commits, folder, opencode, record, short_hash, transcript, worktree,
};
use crate::error::{Error, Result};

/// Fold one slice of what `turn`'s transcripts gained into `record`; whether more is
/// left to read.
pub fn advance(record: &mut SessionRecord, turn: &Turn<'_>, place: Place<'_>) -> Result<bool> {
    let fold = folder(turn.client).ok_or_else(|| {
        Error::invalid("client", format!("Mooring does not read {}'s session files", turn.client))
    })?;
    if let Some((event, ends_turn)) = turn.event {
        fold(record, event, place);
        if ends_turn {
            at_turn_end(record, turn, place);
        }
        return Ok(false);
    }
    let unreadable = |e: std::io::Error| {
        // The path names the client's session id: it stays out of the message (and the log).
        Error::invalid("transcript_path", format!("cannot read the session's transcript ({e})"))
    };
    let path_hash = short_hash(&turn.transcript.to_string_lossy());
    if record.transcript.as_deref().is_some_and(|h| h != path_hash) {
        // Another file for the same session: read it from its start.
        record.restart();
    }
    record.transcript = Some(path_hash);
    let more = if matches!(turn.client, Client::Opencode | Client::Kilo) {
        // Their sessions live in their database, not a file each.
        opencode::advance(record, turn.transcript, turn.session_id, place).map_err(unreadable)?
    } else if turn.client == Client::GeminiCli && turn.transcript.extension().is_some_and(|e| e == "json") {
        // A legacy chat file holds the same `user` / `gemini` entries its JSONL file has as lines.
        chat_file(record, turn.transcript, place, fold).map_err(unreadable)?;
        false
    } else if turn.client == Client::Cline {
        chat_file(record, turn.transcript, place, fold).map_err(unreadable)?;
        false
    } else {
        let chunk =
            transcript::read_from(turn.transcript, record.read_to, transcript::SLICE).map_err(unreadable)?;
        if chunk.restarted {
            record.restart();
        }
        let file_times = dated_by_file(turn.client).then(|| file_times(turn.transcript));
        if let Some((born, _)) = &file_times {
            // What this slice holds happened after the last capture (or the file's birth).
            if let Some(since) = record.last_at.clone().or_else(|| born.clone()) {
                record.saw_time(&since);
            }
        }
        for line in &chunk.lines {
            fold(record, line, place);
        }
        if let Some((_, Some(changed))) = &file_times {
            record.saw_time(changed);
        }
        record.read_to = chunk.read_to;
        !chunk.at_end
    };
    if more {
        return Ok(true);
    }
    if subagents(record, turn, place, fold) {
        return Ok(true);
    }
    at_turn_end(record, turn, place);
    Ok(false)
}

/// What the checkout says at a turn's end: the commits made while the session ran, the
/// files git saw change since the turn's request, and why the session ended.
fn at_turn_end(record: &mut SessionRecord, turn: &Turn<'_>, place: Place<'_>) {
    if let (Some(cwd), Some(start), Some(end)) = (turn.cwd, &record.started_at, &record.last_at) {
        let secs = |t: &str| chrono::DateTime::parse_from_rfc3339(t).map(|t| t.timestamp()).ok();
        if let (Some(start), Some(end)) = (secs(start), secs(end)) {
            // A commit the agent made lands a moment after the line that asked for it.
            record.set_commits(commits::since(Path::new(cwd), start - 5, end + 60));
        }
    }
    // At a turn's end, what git saw change since its request (a command's writes the
    // edit tools never named). The status is read once a turn, off the prompt's path.
    let since = record.turn_started_at.as_deref().and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
    if let (Some(cwd), Some(since)) = (turn.cwd, since) {
        // A second before the request line: file times and the client's clock may differ.
        let since = std::time::SystemTime::from(since) - std::time::Duration::from_secs(1);
        record.seen_by_git(&worktree::changed_since(Path::new(cwd), since), place);
    }
    if let Some(why) = turn.ended {
        record.ended = Some(record::trim(why, 60));
    }
}

/// Whether `client`'s transcript lines carry no times (Cursor's): its record is dated by
/// the file, a turn's requests by the capture before them.
fn dated_by_file(client: Client) -> bool {
    client == Client::Cursor
}

/// When a file was made (where the file system keeps it) and last changed, RFC 3339.
fn file_times(path: &Path) -> (Option<String>, Option<String>) {
    let meta = std::fs::metadata(path).ok();
    let at = |t: std::time::SystemTime| {
        chrono::DateTime::<chrono::Utc>::from(t).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    };
    let born = meta.as_ref().and_then(|m| m.created().ok()).map(at);
    (born, meta.and_then(|m| m.modified().ok()).map(at))
}

/// Most subagent transcripts read for one session.
const MOST_SUBAGENTS: usize = 64;

/// Fold what the session's subagents' own transcripts gained (Claude Code 2.x keeps them
/// in `<transcript without .jsonl>/subagents/agent-*.jsonl`; `SubagentStop` names one);
/// whether more is left.
fn subagents(record: &mut SessionRecord, turn: &Turn<'_>, place: Place<'_>, fold: Folder) -> bool {
    if turn.client != Client::ClaudeCode {
        return false;
    }
    let dir = turn.transcript.with_extension("").join("subagents");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // The compaction agent only writes the summary the main transcript carries.
            name.starts_with("agent-") && name.ends_with(".jsonl") && !name.starts_with("agent-acompact")
        })
        .take(MOST_SUBAGENTS)
        .collect();
    files.sort();
    if let Some(p) = turn.agent_transcript
        && !files.iter().any(|f| f == p)
    {
        files.push(p.to_path_buf());
    }
    let mut more = false;
    for file in files {
        let Some(name) = file.file_name().map(|n| n.to_string_lossy().into_owned()) else { continue };
        let from = record.subagents.get(&name).copied().unwrap_or(0);
        let Ok(chunk) = transcript::read_from(&file, from, transcript::SLICE) else { continue };
        for line in &chunk.lines {
            // A subagent's lines are all its own, whether or not they say so.
            let mut line = line.clone();
            if let Some(o) = line.as_object_mut() {
                o.insert("isSidechain".into(), serde_json::Value::Bool(true));
            }
            fold(record, &line, place);
        }
        if record.subagents.len() < MOST_SUBAGENTS || record.subagents.contains_key(&name) {
            record.subagents.insert(name, chunk.read_to);
        }
        more |= !chunk.at_end;
    }
    more
}

/// The largest chat file read whole.
const MAX_CHAT: u64 = 64 << 20;

/// A session kept as one JSON document (a legacy Gemini CLI chat file, Cline's messages
/// file): the messages it gained since the last turn (`read_to` counts messages here),
/// each folded as a line of the client's.
fn chat_file(record: &mut SessionRecord, path: &Path, place: Place<'_>, fold: Folder) -> std::io::Result<()> {
    let text = crate::guard::untrusted::read_text(path, MAX_CHAT)
        .map_err(|why| std::io::Error::other(why.to_string()))?
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))?;
    let chat: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a chat file: {e}")))?;
    let messages =
        chat.get("messages").and_then(serde_json::Value::as_array).map(Vec::as_slice).unwrap_or_default();
    if (messages.len() as u64) < record.read_to {
        record.restart();
    }
    for m in messages.iter().skip(record.read_to as usize) {
        fold(record, m, place);
    }
    record.read_to = messages.len() as u64;
    Ok(())
}
