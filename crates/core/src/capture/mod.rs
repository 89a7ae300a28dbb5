//! Capturing agent sessions without the agent's help: a client's end-of-turn,
//! pre-compaction and end-of-session hooks hand Mooring the session's transcript, and
//! this keeps one record per client session in the session's project — what was asked,
//! what changed, what is still open — as memory of kind `session`, brought up to date in
//! place at every turn. Deterministic extraction, no model and no cost; every text passes
//! the secret scanner before it is stored; file contents, tool output and the
//! environment are never read into it.

mod claude_code;
mod codex;
pub mod commits;
mod gemini;
pub mod record;
mod render;
pub mod shell;
pub mod transcript;

use std::path::Path;

use sha2::{Digest, Sha256};

pub use record::SessionRecord;

use crate::backend::MemoryBackend;
use crate::error::{Error, Result};
use crate::rows::NewMemoryRow;

/// The environment variable that silences one session: `MOORING_CAPTURE=off` when the
/// person starts the client (no capture, no recall).
pub const ENV_SWITCH: &str = "MOORING_CAPTURE";

/// Whether the person switched capture off for this process's session.
pub fn silenced_by_env() -> bool {
    std::env::var(ENV_SWITCH)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "off" | "0" | "false" | "no"))
}

/// Whether capture runs for project `slug` on this machine, for a session in `dir`: the
/// global `capture` setting and the project's own switch both on, and no `.mooring.toml`
/// of that project above `dir` saying `capture = false`.
pub fn enabled(store: &crate::Store, slug: &str, dir: Option<&Path>) -> Result<bool> {
    if crate::lifecycle::setting(store, "capture")? == 0 {
        return Ok(false);
    }
    if let Some(marker) = dir.and_then(|d| crate::markers::nearest(d).ok().flatten())
        && marker.project == slug
        && !marker.capture
    {
        return Ok(false);
    }
    store.read(|c| {
        let id = crate::store::projects::find_row(c, "project", slug)?.id;
        Ok(c.query_row("SELECT capture FROM projects WHERE id = ?1", [id], |r| r.get::<_, i64>(0))? == 1)
    })
}

/// Turn capture on or off, for every project (`project` none: the global setting) or
/// for one. Returns the project's slug when one was named.
pub fn switch(store: &crate::Store, project: Option<&str>, on: bool) -> Result<Option<String>> {
    match project {
        None => {
            crate::lifecycle::set_setting(store, "capture", if on { "1" } else { "0" })?;
            Ok(None)
        }
        Some(slug) => store.write(|tx| {
            let p = crate::store::projects::find_row(tx, "project", slug)?;
            tx.execute(
                "UPDATE projects SET capture = ?2 WHERE id = ?1",
                rusqlite::params![p.id, i64::from(on)],
            )?;
            Ok(Some(p.slug))
        }),
    }
}

/// How a client's session file is read, line by line.
pub type Folder = fn(&mut SessionRecord, &serde_json::Value, Option<&str>);

/// The reader of `client`'s session files, if Mooring reads them.
pub fn folder(client: &str) -> Option<Folder> {
    Some(match client {
        "claude-code" => claude_code::apply,
        "codex" => codex::apply,
        "gemini-cli" => gemini::apply,
        _ => return None,
    })
}

/// Whether Mooring reads `client`'s session files.
pub fn reads(client: &str) -> bool {
    folder(client).is_some()
}

/// A turn's end as a client's hook reports it.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// The client (`claude-code`, …).
    pub client: &'a str,
    /// The client's id for the session (never stored; only its hash is).
    pub session_id: &'a str,
    /// The client's transcript of the session.
    pub transcript: &'a Path,
    /// The session's working directory (paths inside it are kept relative).
    pub cwd: Option<&'a str>,
    /// Why the session ended, when this is its end.
    pub ended: Option<&'a str>,
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
    /// Nothing worth keeping happened yet.
    Nothing,
    /// The person forgot this session's record: it stays forgotten.
    Forgotten,
}

/// The record's key for a client's session: a hash, so the client's own id (which can
/// resume the session) is stored nowhere.
pub fn key(client: &str, session_id: &str) -> String {
    let digest = Sha256::digest(format!("{client}\0{session_id}").as_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("{client}:{hex}")
}

/// Bring the record of `turn`'s session in project `slug` up to date, reading only what
/// the transcript gained since the last turn.
pub fn capture(memory: &dyn MemoryBackend, slug: &str, turn: &Turn<'_>) -> Result<Captured> {
    if turn.session_id.trim().is_empty() {
        return Err(Error::invalid("session_id", "the hook input names no session; nothing to capture"));
    }
    let key = key(turn.client, turn.session_id);
    let (_, existing) = memory.session_entry(slug, &key)?;
    if existing.as_ref().is_some_and(|r| r.forgotten_at.is_some()) {
        return Ok(Captured::Forgotten);
    }
    let stored = existing.and_then(|r| r.data).and_then(|d| serde_json::from_str::<SessionRecord>(&d).ok());
    let mut record = stored.unwrap_or_else(|| SessionRecord::new(turn.client, &key));
    advance(&mut record, turn)?;
    if record.is_empty() {
        return Ok(Captured::Nothing);
    }
    let (row, redacted) = entry(&mut record)?;
    Ok(match memory.put_session(slug, &key, &row, crate::memory::check_writable)? {
        Some((_, row)) => Captured::Stored { id: row.id, redacted },
        None => Captured::Forgotten,
    })
}

/// Fold what `turn`'s transcript gained since `record` last read it into `record`.
pub fn advance(record: &mut SessionRecord, turn: &Turn<'_>) -> Result<()> {
    let chunk = transcript::read_from(turn.transcript, record.read_to).map_err(|e| {
        Error::invalid(
            "transcript_path",
            format!("cannot read the session's transcript {} ({e})", turn.transcript.display()),
        )
    })?;
    if chunk.restarted {
        *record = SessionRecord::new(&record.client, &record.key);
    }
    let fold = folder(turn.client).ok_or_else(|| {
        Error::invalid("client", format!("Mooring does not read {}'s session files", turn.client))
    })?;
    for line in &chunk.lines {
        fold(record, line, turn.cwd);
    }
    record.read_to = chunk.read_to;
    if let (Some(cwd), Some(start), Some(end)) = (turn.cwd, &record.started_at, &record.last_at) {
        let secs = |t: &str| chrono::DateTime::parse_from_rfc3339(t).map(|t| t.timestamp()).ok();
        if let (Some(start), Some(end)) = (secs(start), secs(end)) {
            // A commit the agent made lands a moment after the line that asked for it.
            record.set_commits(commits::since(Path::new(cwd), start, end + 60));
        }
    }
    if let Some(why) = turn.ended {
        record.ended = Some(record::trim(why, 60));
    }
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
    };
    Ok((row, redacted))
}

#[cfg(test)]
mod tests;
