//! `/api/v1/projects…`: list, create, show, edit, delete, archive, resume, handoff,
//! events. Team projects go to the team through `mooring_team::routed`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use mooring_core::memory::{self, Entry, ListQuery};
use mooring_core::remote::phone;
use mooring_core::{Changed, Event, NewProject, Project, ProjectEdit, ProjectStatus, Registry};
use mooring_team::routed;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Api;
use super::error::ApiResult;

/// `?status=&limit=&offset=&glance=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    status: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
    /// With each project's glance (the dashboard's cards).
    glance: Option<bool>,
}

fn page_bounds(limit: Option<u32>, offset: Option<u32>, default: u32, max: u32) -> ApiResult<(u32, u32)> {
    let limit = limit.unwrap_or(default);
    if limit == 0 || limit > max {
        return Err(mooring_core::Error::invalid(
            "limit",
            format!("limit {limit} is out of range; use 1 to {max}"),
        )
        .into());
    }
    Ok((limit, offset.unwrap_or(0)))
}

/// `GET /projects`.
pub async fn list(
    State(api): State<Api>,
    q: Result<Query<ListParams>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q?;
    let (limit, offset) = page_bounds(q.limit, q.offset, 50, 500)?;
    let status = match q.status.as_deref() {
        None | Some("all") => None,
        Some(s) => Some(s.parse::<ProjectStatus>()?),
    };
    let all = Registry::new(&api.state.store).list(status)?;
    let total = all.len();
    let mut projects: Vec<Project> = all.into_iter().skip(offset as usize).take(limit as usize).collect();
    routed::fill_stats(&api.state.store, api.state.team.as_deref(), &mut projects);
    let team = super::team::team_projects(&api.state);
    let now = chrono::Utc::now();
    let live = match q.glance {
        Some(true) => {
            let cutoff = phone::live_cutoff(now);
            api.state.store.read(|c| mooring_core::store::sessions::live_since(c, &cutoff))?
        }
        _ => Vec::new(),
    };
    let projects: Vec<Value> = projects
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            v["team"] = super::team::team_field(&api.state, &p.slug, &team);
            if q.glance == Some(true) {
                v["glance"] = glance(&api, p, &live, now);
            }
            v
        })
        .collect();
    Ok(Json(json!({ "projects": projects, "total": total, "limit": limit, "offset": offset })))
}

/// The three-second view of a project: the recency dot, the last session's line
/// (scrubbed like everything shown from memory), the clients working in it now.
fn glance(
    api: &Api,
    p: &Project,
    live: &[mooring_core::store::sessions::AgentSession],
    now: chrono::DateTime<chrono::Utc>,
) -> Value {
    let last = phone::last_session(api.state.memory.as_ref(), &p.slug).ok().flatten();
    json!({
        "dot": phone::dot(p, now),
        "last_session": last.map(|l| mooring_core::guard::redact::scrub(&l).0),
        "live": phone::live_line(live, &p.slug),
        "live_count": live.iter().filter(|s| s.project.as_deref() == Some(p.slug.as_str())).count(),
    })
}

/// Body of `POST /projects`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    name: String,
    slug: Option<String>,
    description: Option<String>,
    #[serde(default)]
    code_paths: Vec<String>,
    repo_url: Option<String>,
    notes_path: Option<String>,
}

/// `POST /projects` → 201.
pub async fn create(
    State(api): State<Api>,
    super::body::Body(b): super::body::Body<CreateBody>,
) -> ApiResult<(StatusCode, Json<Changed>)> {
    let changed = Registry::new(&api.state.store).create(NewProject {
        name: b.name,
        slug: b.slug,
        description: b.description,
        code_paths: b.code_paths,
        repo_url: b.repo_url,
        notes_path: b.notes_path,
    })?;
    api.state.surfaces.projects_changed();
    Ok((StatusCode::CREATED, Json(changed)))
}

/// `GET /projects/{slug}`: the project, recent memory and recent events.
#[derive(Debug, Serialize)]
pub struct Detail {
    project: Project,
    /// Its owner, your role and its people, for a team project; null for one's own.
    team: Value,
    recent_memory: Vec<Entry>,
    recent_events: Vec<Event>,
}

/// `GET /projects/{slug}`.
pub async fn get(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Detail>> {
    let registry = Registry::new(&api.state.store);
    let mut project = registry.get(&slug)?;
    routed::fill_stats(&api.state.store, api.state.team.as_deref(), std::slice::from_mut(&mut project));
    let recent_memory = memory::list(
        &*api.state.memory,
        &project.slug,
        &ListQuery { limit: Some(10), ..Default::default() },
    )?
    .entries;
    let (recent_events, _) =
        routed::events_page(&api.state.store, api.state.team.as_deref(), &project.slug, 10, 0)?;
    let team = super::team::team_field(&api.state, &project.slug, &super::team::team_projects(&api.state));
    Ok(Json(Detail { project, team, recent_memory, recent_events }))
}

/// Body of `PATCH /projects/{slug}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditBody {
    name: Option<String>,
    description: Option<String>,
    #[serde(default)]
    add_code_paths: Vec<String>,
    #[serde(default)]
    remove_code_paths: Vec<String>,
    notes_path: Option<String>,
    repo_url: Option<String>,
    status: Option<String>,
}

/// `PATCH /projects/{slug}`.
pub async fn edit(
    State(api): State<Api>,
    Path(slug): Path<String>,
    super::body::Body(b): super::body::Body<EditBody>,
) -> ApiResult<Json<Changed>> {
    let status = b.status.as_deref().map(str::parse::<ProjectStatus>).transpose()?;
    let changed = routed::edit(
        &Registry::new(&api.state.store),
        api.state.team.as_deref(),
        &slug,
        ProjectEdit {
            name: b.name,
            description: b.description,
            add_code_paths: b.add_code_paths,
            remove_code_paths: b.remove_code_paths,
            notes_path: b.notes_path,
            repo_url: b.repo_url,
            status,
        },
    )?;
    api.state.surfaces.projects_changed();
    Ok(Json(changed))
}

/// `DELETE /projects/{slug}` → 204 (a team project for everyone: the owner's call).
pub async fn delete(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<StatusCode> {
    routed::delete(&Registry::new(&api.state.store), api.state.team.as_deref(), &slug)?;
    api.state.surfaces.projects_changed();
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /projects/{slug}/archive`.
pub async fn archive(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Changed>> {
    set_status(&api, &slug, ProjectStatus::Archived)
}

/// `POST /projects/{slug}/resume`.
pub async fn resume(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Changed>> {
    set_status(&api, &slug, ProjectStatus::Active)
}

fn set_status(api: &Api, slug: &str, status: ProjectStatus) -> ApiResult<Json<Changed>> {
    let changed =
        routed::set_status(&Registry::new(&api.state.store), api.state.team.as_deref(), slug, status)?;
    api.state.surfaces.projects_changed();
    Ok(Json(changed))
}

/// Body of `POST /projects/{slug}/handoff`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandoffBody {
    /// The person who owns it next (their name in the team).
    to: String,
}

/// `POST /projects/{slug}/handoff`: a team project's owner hands it to another person.
pub async fn handoff(
    State(api): State<Api>,
    Path(slug): Path<String>,
    super::body::Body(b): super::body::Body<HandoffBody>,
) -> ApiResult<Json<Value>> {
    let project = routed::handoff(&api.state.store, api.state.team.as_deref(), &slug, &b.to)?;
    api.state.surfaces.projects_changed();
    Ok(Json(json!({ "project": project.slug, "owner": b.to.trim() })))
}

/// `?limit=&offset=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageParams {
    limit: Option<u32>,
    offset: Option<u32>,
}

/// `GET /projects/{slug}/events`, newest first.
pub async fn events(
    State(api): State<Api>,
    Path(slug): Path<String>,
    q: Result<Query<PageParams>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q?;
    let (limit, offset) = page_bounds(q.limit, q.offset, 50, 500)?;
    let (events, total) =
        routed::events_page(&api.state.store, api.state.team.as_deref(), &slug, limit, offset)?;
    // Each event also in words, for people ("decision: … — by Ada").
    let events: Vec<Value> = events
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap_or_default();
            v["text"] = Value::String(mooring_core::projects::event_words::describe(e));
            v
        })
        .collect();
    Ok(Json(json!({ "events": events, "total": total, "limit": limit, "offset": offset })))
}

/// `?days=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivityParams {
    days: Option<u32>,
}

/// `GET /projects/{slug}/activity?days=N`: decisions, blockers opened and resolved and
/// sessions per day over the last N days (default 28), oldest first.
pub async fn activity(
    State(api): State<Api>,
    Path(slug): Path<String>,
    q: Result<Query<ActivityParams>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q?;
    let days = mooring_core::memory::activity::days(
        &*api.state.memory,
        &slug,
        q.days.unwrap_or(28),
        chrono::Utc::now(),
    )?;
    Ok(Json(json!({ "project": slug, "days": days })))
}

/// `GET /projects/{slug}/questions`: the newest 50 questions agents asked from sessions in
/// this project, with their answers.
pub async fn questions(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Value>> {
    let asked = mooring_core::choice::Broker::new(&api.state.store).asked_in(&slug, 50)?;
    Ok(Json(json!({ "project": slug, "questions": asked })))
}

/// The agent sessions working in the project now (from their hooks), with what each
/// holds, and the project's setting for a write into another's claim.
pub async fn live(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Value>> {
    let now = chrono::Utc::now();
    let working = mooring_core::projects::live::working(&api.state.store, &slug, now)?;
    let mode = mooring_core::projects::live::mode(&api.state.store, &slug)?;
    Ok(Json(json!({ "project": slug, "claims": mode.as_str(), "live": working })))
}

/// `GET /projects/{slug}/files`: which captured session changed which file, with the
/// request that led to it, newest session first.
pub async fn files(State(api): State<Api>, Path(slug): Path<String>) -> ApiResult<Json<Value>> {
    let changed = mooring_core::capture::who_changed::who_changed(api.state.memory.as_ref(), &slug, 40)?;
    Ok(Json(json!({ "project": slug, "files": changed })))
}

/// `POST /projects/{slug}/live/{handle}/note` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteBody {
    text: String,
}

/// `POST /projects/{slug}/live/{handle}/note`: the person leaves a note for a live
/// session (by the handle `live` gives), handed to it once at its next prompt.
pub async fn note(
    State(api): State<Api>,
    Path((slug, handle)): Path<(String, String)>,
    super::body::Body(b): super::body::Body<NoteBody>,
) -> ApiResult<Json<Value>> {
    use mooring_core::projects::session_notes::{Writer, leave};
    let to = leave(&api.state.store, &slug, Writer::Person, &handle, &b.text, chrono::Utc::now())?;
    Ok(Json(json!({ "project": slug, "to": to })))
}
