//! Structured results of the tools; their schemas are the tools' output schemas.

use mooring_core::memory::Entry;
use mooring_core::memory::handover::{CapturedSession, Handover};
use mooring_core::memory::locks::Lock;
use mooring_core::memory::preamble::{Preamble, SectionReport};
use mooring_core::projects::resolve::LevelReport;
use mooring_core::search::{Hit, Mode};
use mooring_core::{Project, Resolution};
use schemars::JsonSchema;
use serde::Serialize;

/// `list_projects`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProjectList {
    /// The projects, most recently used first.
    pub projects: Vec<Project>,
}

/// `get_project`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProjectDetail {
    /// The project.
    pub project: Project,
}

/// `active_project`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ActiveProject {
    /// The project this session is in, if any.
    pub active_project: Option<String>,
    /// The level that decided (`session`, `cwd`, …).
    pub decided_by: Option<String>,
    /// Every level of the resolution order.
    pub levels: Vec<LevelReport>,
    /// What changed or what to do next.
    pub message: String,
}

/// `resolve_project`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Resolved {
    /// The resolution with every level.
    #[serde(flatten)]
    pub resolution: Resolution,
    /// The session this was resolved for, if it has an identity.
    pub session_id: Option<String>,
}

/// `select_project_for_session`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Selected {
    /// The chosen project's slug.
    pub selected: String,
    /// The project.
    pub project: Project,
    /// Whether the choice is remembered for this session.
    pub remembered: bool,
    /// The previous session's handover, if any.
    pub handover: Option<Handover>,
    /// A sentence for the agent: confirmation, handover or "no handover yet", and for
    /// stateless clients how to pass the project on later calls.
    pub message: String,
}

/// `set_workspace_id`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkspaceSet {
    /// The canonical workspace directory.
    pub workspace: String,
    /// The project it resolves to now, if any.
    pub project: Option<String>,
    /// What to do next.
    pub message: String,
}

/// `save_handover`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HandoverSaved {
    /// The project it was saved to.
    pub project: String,
    /// How the project was decided.
    pub decided_by: String,
    /// The stored handover.
    pub handover: Handover,
    /// Anything the agent should know (e.g. the project was chosen automatically).
    pub message: String,
}

/// `get_last_handover`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LastHandover {
    /// The project.
    pub project: String,
    /// How the project was decided.
    pub decided_by: String,
    /// The newest handover, if there is one.
    pub handover: Option<Handover>,
    /// The session Mooring captured after the newest handover (or with none), when there
    /// is one: what it asked, changed and left open, though it wrote no handover.
    pub captured_session: Option<CapturedSession>,
    /// "No handover yet" or a one-line summary.
    pub message: String,
}

/// A project-scoped result: the project, how it was decided, and the tool's own fields.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Scoped<T> {
    /// The project the call ran in.
    pub project: String,
    /// How the project was decided (`explicit`, `session`, `cwd`, `elicitation`, …).
    pub decided_by: String,
    /// Something to tell the agent (for example that the project was chosen automatically).
    pub note: Option<String>,
    /// The tool's result.
    #[serde(flatten)]
    pub result: T,
}

/// `remember`, `resolve_blocker`, `forget`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EntryResult {
    /// The entry.
    pub entry: Entry,
}

/// `search_memory`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResults {
    /// The project searched, or none for all projects.
    pub project: Option<String>,
    /// Hits, best first.
    pub hits: Vec<Hit>,
    /// How they were ranked: hybrid, keyword or semantic (keyword when meaning was asked
    /// for but is unavailable).
    pub mode: Mode,
    /// Why the ranking is not the one asked for, or is incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `lock_context`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Locked {
    /// Topic.
    pub topic: String,
    /// The version just created.
    pub version: i64,
    /// The lock.
    pub lock: Lock,
}

/// `project_context` (the project itself is in the enclosing [`Scoped`]).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Context {
    /// Markdown to put in front of a session.
    pub text: String,
    /// Its size in o200k tokens.
    pub tokens: usize,
    /// The budget it had to fit.
    pub budget_tokens: usize,
    /// Every section in priority order, with what was left out and how to get it.
    pub sections: Vec<SectionReport>,
}

impl From<Preamble> for Context {
    fn from(p: Preamble) -> Self {
        Self { text: p.text, tokens: p.tokens, budget_tokens: p.budget_tokens, sections: p.sections }
    }
}

/// `recall_context`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Recalled {
    /// The version asked for (with a topic).
    pub lock: Option<Lock>,
    /// Every topic's latest version (without a topic).
    pub topics: Vec<Lock>,
}

/// `who_is_working`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Working {
    /// The sessions working in the project now, first started first.
    pub sessions: Vec<mooring_core::projects::live::Working>,
    /// What a write into a file another session holds meets: ask, deny, warn or off.
    pub claims: String,
    /// One line for the agent.
    pub message: String,
}

/// What a `claim` call came to.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Claimed {
    /// Whether this session holds it now.
    pub held: bool,
    /// One line for the agent.
    pub message: String,
}

/// A note left for another session.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Told {
    /// The session it went to.
    pub to: String,
    /// One line for the agent.
    pub message: String,
}
