//! `/api/v1/projects/{slug}/memory` and `/context`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use mooring_core::memory::preamble::{self, Caps, Preamble};
use mooring_core::memory::{self, Entry, ListQuery, NewEntry, Page};
use serde::Deserialize;

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
}

/// `POST /projects/{slug}/memory` → 201.
pub async fn add(
    State(api): State<Api>,
    Path(slug): Path<String>,
    super::body::Body(b): super::body::Body<AddBody>,
) -> ApiResult<(StatusCode, Json<Entry>)> {
    let new = NewEntry { kind: b.kind, title: b.title, content: b.content, tags: b.tags };
    Ok((StatusCode::CREATED, Json(memory::remember(&*api.state.memory, &slug, &new, None)?)))
}

/// `DELETE /projects/{slug}/memory/{id}`: forget an entry (the same rules and event as
/// `mooring forget` and the `forget` tool) → the entry as it was.
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
