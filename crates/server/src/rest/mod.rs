//! The REST management API under `/api/v1`, guarded by the local token. Documented in
//! `docs/openapi.json`; a test checks the two agree.

mod body;
mod error;
mod locks;
mod memory;
mod projects;
mod remote;
mod settings;
mod team;

use mooring_core::search;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

pub use error::ApiError;

use crate::state::AppState;

/// Every route: method and path, as documented.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/v1/projects"),
    ("POST", "/api/v1/projects"),
    ("GET", "/api/v1/projects/{slug}"),
    ("PATCH", "/api/v1/projects/{slug}"),
    ("DELETE", "/api/v1/projects/{slug}"),
    ("POST", "/api/v1/projects/{slug}/archive"),
    ("POST", "/api/v1/projects/{slug}/resume"),
    ("POST", "/api/v1/projects/{slug}/handoff"),
    ("GET", "/api/v1/projects/{slug}/memory"),
    ("POST", "/api/v1/projects/{slug}/memory"),
    ("DELETE", "/api/v1/projects/{slug}/memory/{id}"),
    ("POST", "/api/v1/projects/{slug}/memory/{id}/resolve"),
    ("POST", "/api/v1/projects/{slug}/memory/{id}/supersede"),
    ("DELETE", "/api/v1/projects/{slug}/memory/{id}/superseded"),
    ("GET", "/api/v1/projects/{slug}/memory/{id}/candidates"),
    ("GET", "/api/v1/projects/{slug}/received"),
    ("GET", "/api/v1/projects/{slug}/locks"),
    ("GET", "/api/v1/projects/{slug}/locks/{topic}"),
    ("GET", "/api/v1/projects/{slug}/activity"),
    ("GET", "/api/v1/projects/{slug}/questions"),
    ("GET", "/api/v1/projects/{slug}/live"),
    ("GET", "/api/v1/projects/{slug}/files"),
    ("POST", "/api/v1/projects/{slug}/live/{handle}/note"),
    ("GET", "/api/v1/projects/{slug}/events"),
    ("GET", "/api/v1/projects/{slug}/context"),
    ("GET", "/api/v1/choices"),
    ("GET", "/api/v1/changes"),
    ("GET", "/api/v1/sessions"),
    ("GET", "/api/v1/search"),
    ("GET", "/api/v1/search/status"),
    ("GET", "/api/v1/settings"),
    ("PATCH", "/api/v1/settings"),
    ("GET", "/api/v1/remote"),
    ("PATCH", "/api/v1/remote"),
    ("POST", "/api/v1/desktop/show"),
    ("POST", "/api/v1/desktop/pick-folder"),
];

/// Shared state plus the token.
#[derive(Clone)]
pub struct Api {
    state: Arc<AppState>,
    token: Arc<str>,
}

/// The `/api/v1` router.
pub fn router(state: Arc<AppState>, token: String) -> Router {
    let api = Api { state, token: token.into() };
    let routes = Router::new()
        .route("/projects", get(projects::list).post(projects::create))
        .route("/projects/{slug}", get(projects::get).patch(projects::edit).delete(projects::delete))
        .route("/projects/{slug}/archive", axum::routing::post(projects::archive))
        .route("/projects/{slug}/resume", axum::routing::post(projects::resume))
        .route("/projects/{slug}/handoff", axum::routing::post(projects::handoff))
        .route("/projects/{slug}/memory", get(memory::list).post(memory::add))
        .route("/projects/{slug}/memory/{id}", axum::routing::delete(memory::forget))
        .route("/projects/{slug}/memory/{id}/resolve", axum::routing::post(memory::resolve))
        .route("/projects/{slug}/memory/{id}/supersede", axum::routing::post(memory::supersede))
        .route("/projects/{slug}/memory/{id}/superseded", axum::routing::delete(memory::restore))
        .route("/projects/{slug}/memory/{id}/candidates", get(memory::candidates))
        .route("/projects/{slug}/received", get(memory::received))
        .route("/projects/{slug}/locks", get(locks::list))
        .route("/projects/{slug}/locks/{topic}", get(locks::get))
        .route("/projects/{slug}/activity", get(projects::activity))
        .route("/projects/{slug}/questions", get(projects::questions))
        .route("/projects/{slug}/live", get(projects::live))
        .route("/projects/{slug}/files", get(projects::files))
        .route("/projects/{slug}/live/{handle}/note", axum::routing::post(projects::note))
        .route("/projects/{slug}/events", get(projects::events))
        .route("/projects/{slug}/context", get(memory::context))
        .route("/choices", get(open_choices))
        .route("/changes", get(changes))
        .route("/sessions", get(sessions))
        .route("/search", get(search))
        .route("/search/status", get(search_status))
        .route("/settings", get(settings::get).patch(settings::patch))
        .route("/remote", get(remote::get).patch(remote::patch))
        .route("/desktop/show", axum::routing::post(show_desktop))
        .route("/desktop/pick-folder", axum::routing::post(pick_folder))
        .fallback(|| async { ApiError::no_route() })
        .method_not_allowed_fallback(|| async { ApiError::wrong_method() })
        .layer(middleware::from_fn_with_state(api.clone(), require_token))
        .with_state(api);
    Router::new().nest("/api/v1", routes)
}

async fn require_token(State(api): State<Api>, request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    match given {
        Some(t) if mooring_core::guard::secret::same(&*api.token, t) => next.run(request).await,
        _ => ApiError::unauthorized().into_response(),
    }
}

/// `GET /choices`: the questions still waiting, with the page URL of each.
async fn open_choices(State(api): State<Api>) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let open = mooring_core::choice::Broker::new(&api.state.store).open_list()?;
    let now = chrono::Utc::now();
    let items: Vec<serde_json::Value> = open
        .iter()
        .map(|i| {
            serde_json::json!({
                "id": i.id,
                "title": i.checked.request.title,
                "remaining_seconds": i.remaining(now),
                "url": format!("/choice/{}?t={}", i.id, i.token),
            })
        })
        .collect();
    Ok(axum::Json(serde_json::json!({ "open": items })))
}

/// `?after=`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangesParams {
    after: Option<u64>,
}

/// `GET /changes?after=N`: the change count, once it differs from `N` (a long poll of at
/// most 25 s); without `after`, at once.
async fn changes(
    State(api): State<Api>,
    q: Result<axum::extract::Query<ChangesParams>, axum::extract::rejection::QueryRejection>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let axum::extract::Query(q) = q?;
    let version = crate::changes::wait(&api.state.changes, q.after, &api.state.stopping).await;
    Ok(axum::Json(serde_json::json!({ "version": version })))
}

/// `POST /desktop/show`: the desktop brings its dashboard forward; 409 from `mooring serve`.
async fn show_desktop(State(api): State<Api>) -> Result<axum::Json<serde_json::Value>, ApiError> {
    if api.state.surfaces.show_dashboard() {
        Ok(axum::Json(serde_json::json!({ "shown": true })))
    } else {
        Err(mooring_core::Error::conflict("desktop", "this Mooring is `mooring serve`, which has no windows")
            .into())
    }
}

/// Body of `POST /desktop/pick-folder`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickFolder {
    title: Option<String>,
}

/// `POST /desktop/pick-folder`: the desktop's folder picker → `{"path": …}` (null when
/// the person cancelled); 409 from `mooring serve`.
async fn pick_folder(
    State(api): State<Api>,
    body::Body(b): body::Body<PickFolder>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let title = b.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).unwrap_or("Choose a folder");
    let title: String = title.chars().take(120).collect();
    // One dialog at a time: a page (or anything with the token) asking again and again
    // gets a refusal, not a stack of windows.
    let Ok(_open) = api.state.folder_dialog.clone().try_acquire_owned() else {
        return Err(mooring_core::Error::conflict(
            "desktop",
            "a folder picker is open already; choose a folder there (or cancel it) first",
        )
        .into());
    };
    let Some(answer) = api.state.surfaces.pick_folder(&title) else {
        return Err(mooring_core::Error::conflict(
            "desktop",
            "this Mooring is `mooring serve`, which has no folder picker; type the path",
        )
        .into());
    };
    let path = answer.await.ok().flatten();
    Ok(axum::Json(serde_json::json!({ "path": path.map(|p| p.display().to_string()) })))
}

/// `GET /sessions`: agent sessions, most recently active first.
async fn sessions(State(api): State<Api>) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let rows = api.state.store.read(|c| mooring_core::store::sessions::recent(c, 200))?;
    Ok(axum::Json(serde_json::json!({ "sessions": rows })))
}

/// `?q=&project=&kind=&limit=&mode=`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    q: String,
    project: Option<String>,
    kind: Option<String>,
    limit: Option<u32>,
    mode: Option<String>,
}

/// `GET /search/status`: which search is in use (hybrid, or keyword and why) and how far
/// the indexer has come.
async fn search_status(State(api): State<Api>) -> Result<axum::Json<serde_json::Value>, ApiError> {
    use mooring_core::store::backend::MemoryUpkeep as _;
    let why = mooring_core::search::semantic::availability().why();
    let mode = if why.is_none() { "hybrid" } else { "keyword" };
    let progress = api.state.store.vector_progress(None)?;
    Ok(axum::Json(serde_json::json!({
        "mode": mode,
        "why": why,
        "waiting": progress.map(|p| p.waiting),
        "indexed": progress.map(|p| p.stored),
    })))
}

/// `GET /search`: search of memory by keyword, meaning or both, one project or all.
async fn search(
    State(api): State<Api>,
    q: Result<axum::extract::Query<SearchParams>, axum::extract::rejection::QueryRejection>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let axum::extract::Query(q) = q?;
    let project = q.project.as_deref().filter(|p| !p.is_empty());
    let kind = q.kind.as_deref().filter(|k| !k.is_empty());
    let mode = match q.mode.as_deref().filter(|m| !m.is_empty()) {
        Some(m) => search::Mode::parse("mode", m)?,
        None => search::Mode::default(),
    };
    let r = search::Request { query: &q.q, project, kind, limit: q.limit.unwrap_or(20), mode };
    let on = mooring_core::search::rerank::wanted(&api.state.store);
    let found = mooring_core::search::rerank::find(&*api.state.memory, on, &r)?;
    Ok(axum::Json(serde_json::to_value(found).unwrap_or_default()))
}
