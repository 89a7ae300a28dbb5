//! Memory tools: remember, list, resolve, forget, search, lock, recall, preamble. They
//! run in a project decided by the gate (see `gate.rs`).

use mooring_core::memory::preamble::{self, Caps};
use mooring_core::memory::{self, ListQuery, NewEntry, Page};
use mooring_core::{Result as CoreResult, memory::locks, search};
use rmcp::model::CallToolResult;

use super::outputs::{Context, EntryResult, Locked, Recalled, Scoped, SearchResults};
use super::params;
use super::results::{fail, ok};
use crate::state::AppState;

/// The project a gated call runs in.
pub struct Scope {
    /// Slug.
    pub project: String,
    /// How it was decided.
    pub decided_by: mooring_core::projects::decided_by::DecidedBy,
    /// Note for the agent.
    pub note: Option<String>,
    /// The calling session.
    pub session: Option<String>,
    /// The calling client's name (its `clientInfo`), when it gave one.
    pub client: Option<String>,
    /// The client's process, when the connection came through `mooring stdio`.
    pub client_pid: Option<i64>,
}

impl Scope {
    fn reply<T: serde::Serialize>(self, result: CoreResult<T>) -> CallToolResult {
        match result {
            Ok(result) => ok(&Scoped {
                project: self.project,
                decided_by: self.decided_by.to_string(),
                note: self.note,
                result,
            }),
            Err(e) => fail(&e),
        }
    }
}

/// `remember`.
pub fn remember(state: &AppState, s: Scope, p: params::Remember) -> CallToolResult {
    // Every MCP write is an agent's, whatever it claims and with or without a session.
    let new = NewEntry {
        kind: p.kind,
        title: p.title,
        content: p.content,
        tags: p.tags,
        author: Some(mooring_core::model::Author::Agent),
        client: s.client.clone().or_else(|| Some("an unnamed MCP client".to_owned())),
    };
    let r = search::similar::remember(&*state.memory, &s.project, &new, s.session.as_deref(), &p.supersedes);
    s.reply(r)
}

/// `list_memory`.
pub fn list(state: &AppState, s: Scope, p: params::ListMemory) -> CallToolResult {
    let q = ListQuery { kind: p.kind, status: p.status, limit: p.limit, before: p.before };
    let r: CoreResult<Page> = memory::list(&*state.memory, &s.project, &q);
    s.reply(r)
}

/// `resolve_blocker`.
pub fn resolve_blocker(state: &AppState, s: Scope, p: params::ResolveBlocker) -> CallToolResult {
    let r = memory::resolve_blocker(&*state.memory, &s.project, p.id, p.resolution.as_deref())
        .map(|entry| EntryResult { entry });
    s.reply(r)
}

/// `forget`.
pub fn forget(state: &AppState, s: Scope, p: params::Forget) -> CallToolResult {
    let r = memory::forget(&*state.memory, &s.project, p.id).map(|entry| EntryResult { entry });
    s.reply(r)
}

/// `search_memory` in `project` (every project when `None`).
fn find(
    state: &AppState,
    project: Option<&str>,
    p: &params::SearchMemory,
) -> mooring_core::Result<SearchResults> {
    let mode = p.mode.as_deref().map(|m| search::Mode::parse("mode", m)).transpose()?.unwrap_or_default();
    let r = search::Request {
        query: &p.query,
        project,
        kind: p.kind.as_deref(),
        limit: p.limit.unwrap_or(10),
        mode,
    };
    let found = mooring_core::search::rerank::find(
        &*state.memory,
        mooring_core::search::rerank::wanted(&state.store),
        &r,
    )?;
    Ok(SearchResults {
        project: project.map(str::to_owned),
        hits: found.hits,
        mode: found.mode,
        note: found.note,
    })
}

/// `search_memory` in every project (needs no session project).
pub fn search_all(state: &AppState, p: &params::SearchMemory) -> CallToolResult {
    match find(state, None, p) {
        Ok(r) => ok(&r),
        Err(e) => fail(&e),
    }
}

/// `search_memory` in one project.
pub fn search_one(state: &AppState, s: Scope, p: params::SearchMemory) -> CallToolResult {
    let r = find(state, Some(&s.project), &p);
    s.reply(r)
}

/// `lock_context`.
pub fn lock(state: &AppState, s: Scope, p: params::LockContext) -> CallToolResult {
    let r = locks::lock(&*state.memory, &s.project, &p.topic, &p.content, &p.tags, s.session.as_deref())
        .map(|lock| Locked { topic: lock.topic.clone(), version: lock.version, lock });
    s.reply(r)
}

/// `recall_context`.
pub fn recall(state: &AppState, s: Scope, p: params::RecallContext) -> CallToolResult {
    let r = match p.topic.as_deref() {
        Some(topic) => locks::read(&*state.memory, &s.project, topic, p.version)
            .map(|lock| Recalled { lock: Some(lock), topics: Vec::new() }),
        None if p.version.is_some() => {
            Err(mooring_core::Error::invalid("topic", "version needs a topic; give both"))
        }
        None => locks::topics(&*state.memory, &s.project).map(|topics| Recalled { lock: None, topics }),
    };
    s.reply(r)
}

/// `project_context`: the budgeted preamble.
pub fn context(state: &AppState, s: Scope, p: params::ProjectContext) -> CallToolResult {
    let r = Caps::load(&state.store)
        .and_then(|caps| preamble::build(&state.store, &*state.memory, &s.project, p.budget_tokens, caps))
        .map(Context::from);
    s.reply(r)
}
