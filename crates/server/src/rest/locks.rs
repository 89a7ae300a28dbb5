//! `/api/v1/projects/{slug}/locks`: a project's context locks, newest version of each
//! topic, and any one version's text (the project view diffs two of them).

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use mooring_core::memory::locks::{self, Lock};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Api;
use super::error::ApiResult;

/// `GET /projects/{slug}/locks`: every topic at its newest version.
pub async fn list(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Value>> {
    let topics = locks::topics(&*api.state.memory, &slug)?;
    Ok(Json(json!({ "project": slug, "locks": topics })))
}

/// `?version=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersionParams {
    version: Option<i64>,
}

/// `GET /projects/{slug}/locks/{topic}?version=N`: one version (default the newest).
pub async fn get(
    State(api): State<Api>,
    Path((slug, topic)): Path<(String, String)>,
    q: Result<Query<VersionParams>, QueryRejection>,
) -> ApiResult<Json<Lock>> {
    let Query(q) = q?;
    Ok(Json(locks::read(&*api.state.memory, &slug, &topic, q.version)?))
}
