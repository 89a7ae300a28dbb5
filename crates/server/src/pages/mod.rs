//! The pages: one question (`/choice/{id}?t=TOKEN`, reachable only with that
//! interaction's token; without it, where the person answers), the list of open questions (`/?token=LOCAL_TOKEN`), the
//! dashboard and one project's view (`/project/{slug}`). Plain
//! HTML and JS from `ui/`, talking to the JSON routes and WebSocket below.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use mooring_core::choice::{Broker, Interaction, Submission};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::rest::ApiError;
use crate::state::AppState;

const CHOICE_HTML: &str = include_str!("../../../../ui/choice.html");
const INDEX_HTML: &str = include_str!("../../../../ui/index.html");
const DASHBOARD_HTML: &str = include_str!("../../../../ui/dashboard.html");
const PICK_HTML: &str = include_str!("../../../../ui/pick.html");
const PROJECT_HTML: &str = include_str!("../../../../ui/project.html");
const PROJECT_JS: &str = include_str!("../../../../ui/project.js");
const STYLE_CSS: &str = include_str!("../../../../ui/style.css");
const COMMON_JS: &str = include_str!("../../../../ui/common.js");
/// The question's fields, shared with the question app (`mcp::apps`).
const QUESTION_VIEW_JS: &str = include_str!("../../../../ui/views/question.js");
/// The projects to pick from, shared with the picker app.
const PROJECTS_VIEW_JS: &str = include_str!("../../../../ui/views/projects.js");
/// The dashboard's project cards.
const CARDS_VIEW_JS: &str = include_str!("../../../../ui/views/cards.js");
/// A stored record (a captured session, a weekly digest) as labelled fields.
const RECORD_VIEW_JS: &str = include_str!("../../../../ui/views/record.js");

/// `?t=` on every per-interaction route.
#[derive(Debug, Deserialize)]
pub struct Token {
    #[serde(default)]
    t: String,
}

/// A question's page opened without its key (the link an agent shows): where the person
/// answers, and nothing of the question itself.
const WHERE_TO_ANSWER: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Answer in Mooring</title><link rel=\"stylesheet\" href=\"/ui/style.css\"></head><body><main>\
<h1>This question waits for you in Mooring</h1>\
<p>Links an agent shows carry no answer key, so that only you can answer. Open it from Mooring: \
the window it opened, <strong>Waiting for you</strong> in the tray or the dashboard, or \
<code>mooring choice list</code> and <code>mooring choice answer ID</code> in a terminal.</p>\
</main></body></html>";

/// The pages' Content-Security-Policy: scripts only from this server or the pages' own
/// inline modules (by hash), no inline handlers, no other origin for anything, never
/// framed. A field that slipped markup into a page could run nothing.
fn policy() -> &'static str {
    static POLICY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    POLICY.get_or_init(|| {
        use base64::Engine;
        use sha2::Digest;
        let hashes: Vec<String> = [CHOICE_HTML, INDEX_HTML, DASHBOARD_HTML, PICK_HTML, PROJECT_HTML]
            .iter()
            .flat_map(|html| inline_scripts(html))
            .map(|s| format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(s))))
            .collect();
        format!(
            "default-src 'self'; script-src 'self' {}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            hashes.join(" ")
        )
    })
}

/// The text of each inline `<script>` of a page.
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<script") {
        let after = &rest[open..];
        let Some(tag_end) = after.find('>') else { break };
        let tag = &after[..tag_end];
        let body = &after[tag_end + 1..];
        let Some(close) = body.find("</script>") else { break };
        if !tag.contains("src=") {
            out.push(&body[..close]);
        }
        rest = &body[close..];
    }
    out
}

/// Every page response carries the policy.
async fn with_policy(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    if let Ok(v) = header::HeaderValue::from_str(policy()) {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    response
        .headers_mut()
        .insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    response
}

/// The page routes.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route("/dashboard", get(|| async { Html(DASHBOARD_HTML) }))
        // One project's view; the page reads the slug from its path and asks the REST
        // API (with the token) for everything, so an unknown slug is the API's 404.
        .route("/project/{slug}", get(|| async { Html(PROJECT_HTML) }))
        .route("/ui/project.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], PROJECT_JS) }))
        .route(
            "/ui/views/question.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], QUESTION_VIEW_JS) }),
        )
        .route(
            "/ui/views/projects.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], PROJECTS_VIEW_JS) }),
        )
        .route(
            "/ui/views/cards.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], CARDS_VIEW_JS) }),
        )
        .route(
            "/ui/views/record.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], RECORD_VIEW_JS) }),
        )
        .route("/ui/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE_CSS) }))
        .route("/ui/common.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], COMMON_JS) }))
        .route("/choice/{id}", get(page))
        .route("/choice/{id}/state", get(view))
        .route("/choice/{id}/answer", post(answer))
        .route("/choice/{id}/deadline", post(deadline))
        .route("/choice/{id}/ws", get(ws))
        .route("/pick/{id}", get(pick_page))
        .route("/pick/{id}/state", get(pick_state))
        .route("/pick/{id}/answer", post(pick_answer))
        .route("/pick/{id}/create", post(pick_create))
        .with_state(state)
        .layer(axum::middleware::from_fn(with_policy))
}

fn open(state: &AppState, id: &str, t: &str) -> Result<Interaction, ApiError> {
    Ok(Broker::new(&state.store).get_with_token(id, t)?)
}

/// What the page renders.
pub fn to_view(i: &Interaction) -> Value {
    json!({
        "id": i.id,
        "request": i.checked.request,
        "mode": i.checked.mode,
        "min": i.checked.min,
        "max": i.checked.max,
        "status": i.status,
        "remaining_seconds": i.remaining(chrono::Utc::now()),
        "response": i.response,
        "settings": Value::Null,
    })
}

async fn page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
) -> Response {
    match open(&state, &id, &q.t) {
        Ok(_) => Html(CHOICE_HTML).into_response(),
        Err(_) if q.t.is_empty() => (StatusCode::FORBIDDEN, Html(WHERE_TO_ANSWER)).into_response(),
        Err(_) => {
            (StatusCode::NOT_FOUND, Html("<p>This question does not exist, or the link is incomplete.</p>"))
                .into_response()
        }
    }
}

async fn view(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
) -> Result<Json<Value>, ApiError> {
    let i = open(&state, &id, &q.t)?;
    let mut v = to_view(&i);
    if let Some(dir) = &state.data_dir {
        v["settings"] = serde_json::to_value(
            mooring_core::choice::settings::ChoiceSettings::load(dir).unwrap_or_default(),
        )
        .unwrap_or(Value::Null);
    }
    Ok(Json(v))
}

async fn answer(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
    Json(sub): Json<Submission>,
) -> Result<Json<Value>, ApiError> {
    open(&state, &id, &q.t)?;
    let response = Broker::new(&state.store).submit(&id, &sub, mooring_core::model::Surface::Web)?;
    state.answered.notify_waiters();
    Ok(Json(json!(response)))
}

/// Body of `/deadline`.
#[derive(Debug, Deserialize)]
pub struct NewDeadline {
    remaining_seconds: u32,
}

async fn deadline(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
    Json(body): Json<NewDeadline>,
) -> Result<Json<Value>, ApiError> {
    open(&state, &id, &q.t)?;
    let i = Broker::new(&state.store).set_remaining(&id, body.remaining_seconds)?;
    state.answered.notify_waiters();
    Ok(Json(to_view(&i)))
}

async fn ws(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    open(&state, &id, &q.t)?;
    // Bounded: a page only listens, so anything it sends is small; and a few tabs per
    // question is plenty.
    let Ok(slot) = state.websockets.clone().try_acquire_owned() else {
        return Err(ApiError::busy("too many open question pages; close some tabs"));
    };
    Ok(upgrade.max_message_size(4096).max_frame_size(4096).on_upgrade(move |socket| async move {
        let _slot = slot;
        tick(socket, state, id).await;
    }))
}

/// Push the server's remaining time and status every second (and at once on changes),
/// until the interaction closes or the page goes away.
async fn tick(mut socket: WebSocket, state: Arc<AppState>, id: String) {
    loop {
        let Ok(i) = Broker::new(&state.store).get(&id) else { return };
        let msg = json!({ "remaining_seconds": i.remaining(chrono::Utc::now()), "status": i.status, "response": i.response });
        if socket.send(Message::Text(msg.to_string().into())).await.is_err() || !i.status.is_pending() {
            return;
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), state.answered.notified()).await;
    }
}

async fn pick_page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
) -> Response {
    match state.picks.get(&id, &q.t) {
        Ok(_) => Html(PICK_HTML).into_response(),
        Err(_) => (
            StatusCode::NOT_FOUND,
            Html("<p>This session has its project already, or the link is incomplete.</p>"),
        )
            .into_response(),
    }
}

/// What the picker shows: the waiting client and the projects with their stats.
async fn pick_state(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
) -> Result<Json<Value>, ApiError> {
    let pick = state.picks.get(&id, &q.t)?;
    let mut projects = mooring_core::Registry::new(&state.store).list(None)?;
    projects.retain(|p| p.status != mooring_core::ProjectStatus::Archived);
    Ok(Json(json!({ "pick": pick, "projects": projects })))
}

/// Body of `/pick/{id}/answer`.
#[derive(Debug, Deserialize)]
pub struct PickAnswer {
    project: String,
}

async fn pick_answer(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
    Json(body): Json<PickAnswer>,
) -> Result<Json<Value>, ApiError> {
    let project = mooring_core::Registry::new(&state.store).get(&body.project)?;
    state.picks.answer(&id, &q.t, &project.slug)?;
    Ok(Json(json!({ "picked": project.slug })))
}

/// Body of `/pick/{id}/create`: a new project for the waiting session.
#[derive(Debug, Deserialize)]
pub struct PickCreate {
    name: String,
    #[serde(default)]
    code_path: Option<String>,
    /// From a `.mooring.toml`: the slug the team chose.
    #[serde(default)]
    slug: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

/// Create a project (in the session's directory) and give it to the waiting session.
async fn pick_create(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<Token>,
    Json(body): Json<PickCreate>,
) -> Result<Json<Value>, ApiError> {
    state.picks.get(&id, &q.t)?;
    let created = mooring_core::Registry::new(&state.store).create(mooring_core::NewProject {
        name: body.name,
        slug: body.slug.filter(|s| !s.trim().is_empty()),
        description: body.description.filter(|s| !s.trim().is_empty()),
        code_paths: body.code_path.into_iter().filter(|p| !p.trim().is_empty()).collect(),
        ..Default::default()
    })?;
    state.surfaces.projects_changed();
    state.picks.answer(&id, &q.t, &created.project.slug)?;
    Ok(Json(json!({ "picked": created.project.slug, "created": true })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_each_pages_own_inline_module_and_nothing_inline_else() {
        let p = policy();
        let script_src = p.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
        assert!(!script_src.contains("unsafe-inline") && !script_src.contains("unsafe-eval"), "{p}");
        // choice, dashboard, index and pick have an inline module each; project's is a file.
        assert_eq!(script_src.matches("'sha256-").count(), 4, "{p}");
        assert!(p.contains("frame-ancestors 'none'") && p.contains("object-src 'none'"), "{p}");
        for html in [CHOICE_HTML, INDEX_HTML, DASHBOARD_HTML, PICK_HTML, PROJECT_HTML] {
            assert!(
                !html.contains(" onsubmit=") && !html.contains(" onclick="),
                "an inline handler the policy blocks"
            );
        }
    }
}
