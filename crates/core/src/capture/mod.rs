//! Capturing agent sessions without the agent's help: a client's end-of-turn,
//! pre-compaction and end-of-session hooks hand Mooring the session's transcript, and
//! this keeps one record per client session in the session's project — what was asked,
//! what changed, what is still open — as memory of kind `session`, brought up to date in
//! place at every turn. Deterministic extraction, no model and no cost; every text passes
//! the secret scanner before it is stored; file contents, tool output and the
//! environment are never read into it.

mod claude_code;
mod cline;
mod codex;
pub mod commits;
mod copilot;
mod cursor;
pub mod digest;
mod files;
mod gemini;
mod opencode;
mod place;
mod qwen;
pub mod record;
mod render;
pub mod shell;
mod text;
pub mod transcript;
mod windsurf;
pub mod worktree;

use std::path::{Path, PathBuf};
use std::time::Instant;

use mooring_clients::Client;
use sha2::{Digest, Sha256};

pub use record::{Place, SessionRecord};

use crate::error::{Error, Result};
use crate::store::backend::MemoryBackend;
use crate::store::rows::NewMemoryRow;

/// The environment variable that silences one session: `MOORING_CAPTURE=off` when the
/// person starts the client (no capture, no recall).
pub const ENV_SWITCH: &str = "MOORING_CAPTURE";

/// Whether the person switched capture off for this process's session.
pub fn silenced_by_env() -> bool {
    std::env::var(ENV_SWITCH)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "off" | "0" | "false" | "no"))
}

/// Whether capture runs for project `slug` on this machine, for a session under
/// `marker` (the `.mooring.toml` above its directory, as deciding its project read it):
/// the global `capture` setting and the project's own switch both on, and no marker of
/// that project saying `capture = false`.
pub fn enabled(
    store: &crate::Store,
    slug: &str,
    marker: Option<&crate::projects::markers::Marker>,
) -> Result<bool> {
    if crate::projects::lifecycle::setting(store, "capture")? == 0 {
        return Ok(false);
    }
    if marker.is_some_and(|m| m.project == slug && !m.capture) {
        return Ok(false);
    }
    store.read(|c| {
        let id = crate::store::projects::find_row(c, "project", slug)?.id;
        crate::store::projects::capture_on(c, id)
    })
}

/// Turn capture on or off, for every project (`project` none: the global setting) or
/// for one. Returns the project's slug when one was named.
pub fn switch(store: &crate::Store, project: Option<&str>, on: bool) -> Result<Option<String>> {
    match project {
        None => {
            crate::projects::lifecycle::set_setting(store, "capture", if on { "1" } else { "0" })?;
            Ok(None)
        }
        Some(slug) => store.write(|tx| {
            let p = crate::store::projects::find_row(tx, "project", slug)?;
            crate::store::projects::set_capture(tx, p.id, on)?;
            Ok(Some(p.slug))
        }),
    }
}

/// How a client's session file is read, line by line.
pub type Folder = fn(&mut SessionRecord, &serde_json::Value, Place<'_>);

/// The reader of `client`'s session files, if Mooring reads them.
pub fn folder(client: Client) -> Option<Folder> {
    Some(match client {
        Client::ClaudeCode => claude_code::apply,
        Client::Codex => codex::apply,
        Client::GeminiCli => gemini::apply,
        Client::CopilotCli => copilot::apply,
        Client::QwenCode => qwen::apply,
        Client::Opencode => opencode::apply,
        Client::Cursor => cursor::apply,
        Client::Windsurf => windsurf::apply,
        // Its session is one JSON document: read whole (see `chat_file`).
        Client::Cline => |_, _, _| {},
        _ => return None,
    })
}

/// Whether Mooring reads `client`'s session files.
pub fn reads(client: Client) -> bool {
    folder(client).is_some()
}

/// A turn's end as a client's hook reports it.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// The client.
    pub client: Client,
    /// The client's id for the session (never stored; only its hash is).
    pub session_id: &'a str,
    /// The client's transcript of the session.
    pub transcript: &'a Path,
    /// The session's working directory as the hook reports it (it follows the agent's
    /// `cd`).
    pub cwd: Option<&'a str>,
    /// The project's code path holding `cwd`: paths are shown relative to it when `cwd`
    /// is in no git checkout.
    pub code_path: Option<&'a str>,
    /// A subagent's own transcript, when the hook names one (Claude Code's
    /// `SubagentStop`).
    pub agent_transcript: Option<&'a Path>,
    /// Why the session ended, when this is its end.
    pub ended: Option<&'a str>,
    /// When to stop reading and leave the rest for the next turn (progress is saved
    /// after every slice).
    pub deadline: Option<Instant>,
    /// For a client whose hooks are the record (Windsurf), the hook's input, folded in
    /// instead of a transcript, and whether it ends the turn (only then does git tell
    /// what else changed).
    pub event: Option<(&'a serde_json::Value, bool)>,
}

impl<'a> Turn<'a> {
    /// A turn of `client`'s session `session_id`, its transcript at `transcript`.
    pub fn new(client: Client, session_id: &'a str, transcript: &'a Path) -> Self {
        Self {
            client,
            session_id,
            transcript,
            cwd: None,
            code_path: None,
            agent_transcript: None,
            ended: None,
            deadline: None,
            event: None,
        }
    }
}

/// What a capture did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Captured {
    /// The record is stored and current.
    Stored {
        /// Its memory entry.
        id: i64,
        /// How many secrets were taken out on the way.
        redacted: usize,
    },
    /// The record is stored, but the transcript has more than this turn had time for:
    /// the next turn reads on.
    Behind {
        /// Its memory entry.
        id: i64,
    },
    /// Nothing worth keeping happened yet.
    Nothing,
    /// The person forgot this session's record: it stays forgotten.
    Forgotten,
}

/// The record's key for a client's session: a hash, so the client's own id (which can
/// resume the session) is stored nowhere.
pub fn key(client: &str, session_id: &str) -> String {
    format!("{client}:{}", short_hash(&format!("{client}\0{session_id}")))
}

fn short_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// Bring the record of `turn`'s session in project `slug` up to date, reading what the
/// transcript gained since the last turn a slice at a time and storing after each, until
/// it is read or the turn's deadline comes.
pub fn capture(memory: &dyn MemoryBackend, slug: &str, turn: &Turn<'_>) -> Result<Captured> {
    if turn.session_id.trim().is_empty() {
        return Err(Error::invalid("session_id", "the hook input names no session; nothing to capture"));
    }
    let key = key(turn.client.name(), turn.session_id);
    let (_, existing) = memory.session_entry(slug, &key)?;
    if existing.as_ref().is_some_and(|r| r.forgotten_at.is_some()) {
        return Ok(Captured::Forgotten);
    }
    let stored = existing.and_then(|r| r.data).and_then(|d| serde_json::from_str::<SessionRecord>(&d).ok());
    let mut record = stored.unwrap_or_else(|| SessionRecord::new(turn.client.name(), &key));
    let root = checkout_root(turn);
    let place = Place { root: root.as_deref().and_then(Path::to_str), cwd: turn.cwd };
    let mut redacted = 0;
    loop {
        let more = advance(&mut record, turn, place)?;
        let late = turn.deadline.is_some_and(|d| Instant::now() >= d);
        if record.is_empty() {
            if more && !late {
                continue;
            }
            return Ok(Captured::Nothing);
        }
        let (row, found) = entry(&mut record)?;
        redacted += found;
        let Some((_, row)) = memory.put_session(slug, &key, &row, crate::memory::check_writable)? else {
            return Ok(Captured::Forgotten);
        };
        if !more {
            return Ok(Captured::Stored { id: row.id, redacted });
        }
        if turn.deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(Captured::Behind { id: row.id });
        }
    }
}

/// The checkout a session works in: the git top level of its directory, else the
/// project's code path, else the directory itself.
fn checkout_root(turn: &Turn<'_>) -> Option<PathBuf> {
    let cwd = turn.cwd.map(Path::new)?;
    let top = gix::discover(cwd).ok().and_then(|r| r.workdir().map(Path::to_path_buf));
    top.or_else(|| turn.code_path.map(PathBuf::from)).or_else(|| Some(cwd.to_path_buf()))
}

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
    let more = if turn.client == Client::Opencode {
        // Its sessions live in its database, not a file each.
        opencode::advance(record, turn.transcript, turn.session_id, place).map_err(unreadable)?
    } else if turn.client == Client::GeminiCli && turn.transcript.extension().is_some_and(|e| e == "json") {
        chat_file(record, turn.transcript, place, gemini::apply_chat).map_err(unreadable)?;
        false
    } else if turn.client == Client::Cline {
        chat_file(record, turn.transcript, place, cline::apply_chat).map_err(unreadable)?;
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
/// folded by the client's `apply_chat`.
fn chat_file(
    record: &mut SessionRecord,
    path: &Path,
    place: Place<'_>,
    apply_chat: fn(&mut SessionRecord, &serde_json::Value, usize, Place<'_>) -> usize,
) -> std::io::Result<()> {
    let text = crate::guard::untrusted::read_text(path, MAX_CHAT)
        .map_err(|why| std::io::Error::other(why.to_string()))?
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))?;
    let chat: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a chat file: {e}")))?;
    let count = chat.get("messages").and_then(serde_json::Value::as_array).map_or(0, Vec::len) as u64;
    if count < record.read_to {
        record.restart();
    }
    let from = record.read_to as usize;
    record.read_to = apply_chat(record, &chat, from, place) as u64;
    Ok(())
}

/// `record` scrubbed, as the memory entry every store keeps; how many secrets came out.
pub fn entry(record: &mut SessionRecord) -> Result<(NewMemoryRow<'static>, usize)> {
    let redacted = record.scrub().count;
    let data = serde_json::to_string(&*record)
        .map_err(|e| Error::storage(format!("cannot encode the record: {e}")))?;
    let row = NewMemoryRow {
        kind: "session".into(),
        title: record.title().into(),
        content: record.markdown().into(),
        tags: record.client.clone().into(),
        status: None,
        data: Some(data.into()),
        author: Some(crate::model::Author::Captured),
        written_by: None,
    };
    Ok((row, redacted))
}

#[cfg(test)]
mod tests;
