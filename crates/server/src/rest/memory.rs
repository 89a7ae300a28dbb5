//! `/api/v1/projects/{slug}/memory` and `/context`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use mooring_core::memory::preamble::{self, Caps, Preamble};
use mooring_core::memory::{self, Entry, ListQuery, NewEntry, Page};
use mooring_core::search::similar::{self, Candidate};
use serde::{Deserialize, Serialize};

use super::Api;
use super::error::ApiResult;

/// `?kind=&status=&limit=&before=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    kind: Option<String>,
    status: Option<String>,
    limit: Option<u32>,
    before: Option<i64>,
}

/// `GET /projects/{slug}/memory`, newest first.
pub async fn list(
    State(api): State<Api>,
    Path(slug): Path<String>,
    q: Result<Query<ListParams>, QueryRejection>,
) -> ApiResult<Json<Page>> {
    let Query(q) = q?;
    let query = ListQuery { kind: q.kind, status: q.status, limit: q.limit, before: q.before };
    Ok(Json(memory::list(&*api.state.memory, &slug, &query)?))
}

/// Body of `POST /projects/{slug}/memory`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddBody {
    kind: String,
    title: Option<String>,
    content: String,
    #[serde(default)]
    tags: Vec<String>,
    /// Older entries of the same kind this one replaces.
    #[serde(default)]
    supersedes: Vec<i64>,
}

/// What `POST /projects/{slug}/memory` answers: the entry, with what it superseded and
/// the earlier entries it may repeat or contradict.
#[derive(Debug, Serialize)]
pub struct Added {
    #[serde(flatten)]
    entry: Entry,
    superseded: Vec<Entry>,
    candidates: Vec<Candidate>,
}

/// `POST /projects/{slug}/memory` → 201.
pub async fn add(
    State(api): State<Api>,
    Path(slug): Path<String>,
    super::body::Body(b): super::body::Body<AddBody>,
) -> ApiResult<(StatusCode, Json<Added>)> {
    // REST needs the local token: the dashboard, or the person's own script.
    let new = NewEntry {
        kind: b.kind,
        title: b.title,
        content: b.content,
        tags: b.tags,
        author: Some(mooring_core::model::Author::Person),
        client: None,
    };
    let done = similar::remember(&*api.state.memory, &slug, &new, None, &b.supersedes)?;
    api.state.project_changed(&slug);
    let added = Added { entry: done.entry, superseded: done.superseded, candidates: done.candidates };
    Ok((StatusCode::CREATED, Json(added)))
}

/// Body of `POST /projects/{slug}/memory/{id}/supersede`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupersedeBody {
    supersedes: Vec<i64>,
}

/// `POST /projects/{slug}/memory/{id}/supersede`: entry `id` replaces the older entries
/// named → them, as they now are.
pub async fn supersede(
    State(api): State<Api>,
    Path((slug, id)): Path<(String, i64)>,
    super::body::Body(b): super::body::Body<SupersedeBody>,
) -> ApiResult<Json<serde_json::Value>> {
    let done = memory::supersede::supersede(&*api.state.memory, &slug, id, &b.supersedes)?;
    api.state.project_changed(&slug);
    Ok(Json(serde_json::json!({ "superseded": done })))
}

/// `GET /projects/{slug}/memory/{id}/candidates`: the earlier entries of its kind entry
/// `id` likely repeats or contradicts (what it may supersede), best first: the project
/// view offers them to pick from.
pub async fn candidates(
    State(api): State<Api>,
    Path((slug, id)): Path<(String, i64)>,
) -> ApiResult<Json<serde_json::Value>> {
    let entry = memory::supersede::entry(&*api.state.memory, &slug, id)?;
    let mut found = mooring_core::search::similar::candidates(&*api.state.memory, &entry)?;
    // Only what it may supersede: older entries.
    found.retain(|c| c.id < entry.id);
    Ok(Json(serde_json::json!({ "candidates": found })))
}

/// `DELETE /projects/{slug}/memory/{id}/superseded`: undo; the entry is back in the
/// preamble and recall.
pub async fn restore(
    State(api): State<Api>,
    Path((slug, id)): Path<(String, i64)>,
) -> ApiResult<Json<Entry>> {
    let e = memory::supersede::restore(&*api.state.memory, &slug, id)?;
    api.state.project_changed(&slug);
    Ok(Json(e))
}

/// `DELETE /projects/{slug}/memory/{id}`: forget an entry (the same rules and event as
/// `mooring memory forget` and the `forget` tool) → the entry as it was.
pub async fn forget(State(api): State<Api>, Path((slug, id)): Path<(String, i64)>) -> ApiResult<Json<Entry>> {
    Ok(Json(memory::forget(&*api.state.memory, &slug, id)?))
}

/// Body of `POST /projects/{slug}/memory/{id}/resolve`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveBody {
    note: Option<String>,
}

/// `POST /projects/{slug}/memory/{id}/resolve`: resolve a blocker, with a note.
pub async fn resolve(
    State(api): State<Api>,
    Path((slug, id)): Path<(String, i64)>,
    super::body::Body(b): super::body::Body<ResolveBody>,
) -> ApiResult<Json<Entry>> {
    let note = b.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
    Ok(Json(memory::resolve_blocker(&*api.state.memory, &slug, id, note)?))
}

/// `?budget=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextParams {
    budget: Option<usize>,
}

/// `GET /projects/{slug}/context`: the preamble.
pub async fn context(
    State(api): State<Api>,
    Path(slug): Path<String>,
    q: Result<Query<ContextParams>, QueryRejection>,
) -> ApiResult<Json<Preamble>> {
    let Query(q) = q?;
    let caps = Caps::load(&api.state.store)?;
    Ok(Json(preamble::build(&api.state.store, &*api.state.memory, &slug, q.budget, caps)?))
}

/// `?sessions=12,15` (captured entries' ids).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceivedParams {
    #[serde(default)]
    sessions: String,
}

/// `GET /projects/{slug}/received?sessions=ID,…`: what each of those captured sessions
/// was handed from memory (preamble, recalls: ids and tokens) and the project's totals.
pub async fn received(
    State(api): State<Api>,
    Path(slug): Path<String>,
    q: Result<Query<ReceivedParams>, QueryRejection>,
) -> ApiResult<Json<memory::injected::Received>> {
    let Query(q) = q?;
    let ids = q
        .sessions
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>().map_err(|_| {
                mooring_core::Error::invalid(
                    "sessions",
                    format!("'{s}' is not an entry id; pass ids like sessions=12,15"),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let state = api.state.clone();
    let got = tokio::task::spawn_blocking(move || {
        memory::injected::received(&state.store, &*state.memory, &slug, &ids)
    })
    .await
    .map_err(|e| mooring_core::Error::storage(format!("the lookup stopped: {e}")))??;
    Ok(Json(got))
}
