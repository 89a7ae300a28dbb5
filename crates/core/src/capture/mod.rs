//! Capturing agent sessions without the agent's help: a client's end-of-turn,
//! pre-compaction and end-of-session hooks hand Mooring the session's transcript, and
//! this keeps one record per client session in the session's project — what was asked,
//! what changed, what is still open — as memory of kind `session`, brought up to date in
//! place at every turn. Deterministic extraction, no model and no cost; every text passes
//! the secret scanner before it is stored; file contents, tool output and the
//! environment are never read into it.

mod advance;
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
mod pi;
mod place;
mod qwen;
pub mod record;
mod render;
pub mod shell;
mod shell_lex;
mod text;
pub mod transcript;
pub mod who_changed;
mod windsurf;
pub mod worktree;

use std::path::{Path, PathBuf};
use std::time::Instant;

use mooring_clients::Client;
use sha2::{Digest, Sha256};

pub use advance::advance;
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
    if !crate::settings::Setting::Capture.is_on(store)? {
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
            crate::settings::Setting::Capture.set(store, if on { "1" } else { "0" })?;
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
        // Kilo, a fork of opencode, keeps its sessions in a database of the same schema.
        Client::Opencode | Client::Kilo => opencode::apply,
        Client::Cursor => cursor::apply,
        Client::Windsurf => windsurf::apply,
        // Its session is one JSON document, each of its messages a line (see `chat_file`).
        Client::Cline => cline::apply,
        Client::Pi => pi::apply,
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
    /// What the session holds in its checkout now, and the claims its writes met.
    pub claims: (&'a [String], u32),
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
            claims: (&[], 0),
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
    record.claims(turn.claims.0, turn.claims.1);
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
        key: Some(record.key.clone().into()),
    };
    Ok((row, redacted))
}

#[cfg(test)]
mod tests;
