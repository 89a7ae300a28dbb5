//! Domain types shared by every surface (CLI, MCP tools, REST, desktop).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::error::Error;

mod surface;
pub use surface::{Platform, Surface};

/// Lifecycle of a project; archiving keeps every record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProjectStatus {
    /// In use; offered in pickers and the tray.
    #[default]
    Active,
    /// Kept and resolvable, but not offered first.
    Paused,
    /// Out of the way: never decides a session, data kept.
    Archived,
}

impl ProjectStatus {
    /// Every status, in display order.
    pub const ALL: [ProjectStatus; 3] = [Self::Active, Self::Paused, Self::Archived];

    /// The lowercase name used in storage, JSON and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Paused => "paused",
            Self::Archived => "archived",
        }
    }
}

impl fmt::Display for ProjectStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProjectStatus {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "active" => Ok(Self::Active),
            "paused" => Ok(Self::Paused),
            "archived" => Ok(Self::Archived),
            other => Err(Error::invalid(
                "status",
                format!("status '{other}' is not one of active, paused, archived"),
            )),
        }
    }
}

/// Where a question put to the person stands: open until answered, cancelled or past
/// its deadline, and closed for good after (the first answer wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceStatus {
    /// Waiting for the person.
    Pending,
    /// The person answered.
    Answered,
    /// The person cancelled it.
    Cancelled,
    /// Its deadline passed first (its timeout action decided).
    TimedOut,
}

impl ChoiceStatus {
    /// Every status, open first.
    pub const ALL: [ChoiceStatus; 4] = [Self::Pending, Self::Answered, Self::Cancelled, Self::TimedOut];

    /// The name used in storage, JSON and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Answered => "answered",
            Self::Cancelled => "cancelled",
            Self::TimedOut => "timed_out",
        }
    }

    /// Still waiting for the person.
    pub fn is_pending(self) -> bool {
        self == Self::Pending
    }
}

impl fmt::Display for ChoiceStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ChoiceStatus {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| {
            let names = Self::ALL.map(Self::as_str).join(", ");
            Error::invalid("status", format!("status '{s}' is not one of {names}"))
        })
    }
}

/// Whether a code directory was found on disk the last time it was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PathState {
    /// The directory exists.
    Present,
    /// The directory is gone; resolution skips it until it returns.
    Missing,
}

impl PathState {
    /// Storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Present => "present",
            Self::Missing => "missing",
        }
    }

    /// Parse the storage name; anything unknown reads as missing (never resolves).
    pub fn parse(s: &str) -> Self {
        if s == "present" { Self::Present } else { Self::Missing }
    }
}

/// A directory of a project's code, canonical and absolute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CodePath {
    /// Canonical absolute path.
    pub path: String,
    /// Present or missing on disk.
    pub state: PathState,
    /// When the directory was last seen on disk (RFC 3339).
    pub last_seen_at: Option<String>,
}

/// Counts shown next to a project so a person can tell projects apart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProjectStats {
    /// Decision records.
    pub decisions: u64,
    /// Blockers still open.
    pub open_blockers: u64,
    /// Context-lock topics.
    pub context_locks: u64,
    /// Every memory record.
    pub memory_total: u64,
}

/// A project with everything a listing shows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Project {
    /// Internal row id.
    #[serde(skip)]
    pub id: i64,
    /// Public identity: `^[a-z0-9][a-z0-9-]*$`, at most 64 characters.
    pub slug: String,
    /// Display name.
    pub name: String,
    /// What the project is about.
    pub description: String,
    /// Lifecycle state.
    pub status: ProjectStatus,
    /// Where the code is hosted.
    pub repo_url: Option<String>,
    /// Where the person keeps notes for it.
    pub notes_path: Option<String>,
    /// Code directories used for path-based resolution.
    pub code_paths: Vec<CodePath>,
    /// Memory and lock counts.
    pub stats: ProjectStats,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last edited (RFC 3339).
    pub updated_at: String,
    /// Last time a session worked in it (RFC 3339).
    pub last_used_at: Option<String>,
    /// The same for people: "2 days ago", or "never".
    pub last_used: String,
    /// When it was archived (RFC 3339).
    pub archived_at: Option<String>,
}

/// An entry of the append-only audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Event {
    /// Project slug at the time of the event.
    pub project: String,
    /// What happened (`created`, `edited`, `archived`, …).
    pub kind: String,
    /// Details as JSON.
    pub detail: serde_json::Value,
    /// When (RFC 3339).
    pub at: String,
}

/// Who put an entry into memory, recorded when it was written (never inferred later):
/// what the preamble, recall and export say of it, and whether an agent may retire it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Author {
    /// The person: the CLI, REST with the token (the dashboard), the paired phone.
    Person,
    /// An agent, over MCP (its client's name is the entry's `written_by`).
    Agent,
    /// Brought in from a client's memory or instruction file.
    Import,
    /// Mooring itself (a weekly digest).
    Mooring,
    /// Captured from a client session by its hooks.
    Captured,
}

impl Author {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Author::Person => "person",
            Author::Agent => "agent",
            Author::Import => "import",
            Author::Mooring => "mooring",
            Author::Captured => "captured",
        }
    }

    /// From the stored name; `None` for anything else (an older row records none).
    pub fn parse(stored: &str) -> Option<Self> {
        [Author::Person, Author::Agent, Author::Import, Author::Mooring, Author::Captured]
            .into_iter()
            .find(|a| a.as_str() == stored)
    }
}

/// What kind of record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Something decided, with its reason.
    Decision,
    /// Something in the way; open until resolved.
    Blocker,
    /// Where things stand.
    Summary,
    /// Anything else worth keeping.
    Note,
    /// Where a session stopped (written by `save_handover`).
    Handover,
    /// A session's full context carried over a token limit.
    ContextCarry,
    /// What an agent session did, captured by the client's hooks (one per session).
    Session,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 7] = [
        Self::Decision,
        Self::Blocker,
        Self::Summary,
        Self::Note,
        Self::Handover,
        Self::ContextCarry,
        Self::Session,
    ];

    /// Storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Decision => "decision",
            Self::Blocker => "blocker",
            Self::Summary => "summary",
            Self::Note => "note",
            Self::Handover => "handover",
            Self::ContextCarry => "context_carry",
            Self::Session => "session",
        }
    }

    /// Parse a kind given by a person or an agent.
    pub fn parse(field: &str, s: &str) -> crate::error::Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "decision" => Ok(Self::Decision),
            "blocker" => Ok(Self::Blocker),
            "summary" => Ok(Self::Summary),
            "note" => Ok(Self::Note),
            "handover" => Ok(Self::Handover),
            "context_carry" => Ok(Self::ContextCarry),
            "session" => Ok(Self::Session),
            other => Err(Error::invalid(
                field,
                format!(
                    "{field} '{other}' is not one of decision, blocker, summary, note, handover, context_carry, session"
                ),
            )),
        }
    }
}

/// A blocker's status: the closed set a page of memory may be filtered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockerStatus {
    /// Still in the way.
    Open,
    /// Resolved, with how.
    Resolved,
}

impl BlockerStatus {
    /// Storage name (the one place it is spelled, for every store's statements).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Resolved => "resolved",
        }
    }

    /// Parse a status given by a person or an agent.
    pub fn parse(field: &str, s: &str) -> crate::error::Result<Self> {
        match s.trim() {
            "open" => Ok(Self::Open),
            "resolved" => Ok(Self::Resolved),
            other => Err(Error::invalid(field, format!("{field} '{other}' is not one of open, resolved"))),
        }
    }
}
