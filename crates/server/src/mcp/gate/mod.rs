//! Pending-session gating: a project-scoped tool runs only once the session's project
//! is known. When it is not, ask the person the best way available (elicitation, a
//! desktop window) and continue, or tell the agent exactly what to call next.

use std::sync::Arc;

use mooring_core::projects::decide::Decided;
use mooring_core::projects::resolve::{Hints, Level, Resolution, resolve};
use mooring_core::store::sessions::AgentSession;
use mooring_core::store::settings;
use mooring_core::{ProjectStatus, Registry, Result as CoreResult, projects::session};
use rmcp::model::{CallToolResponse, InputResponses};
use rmcp::service::{RequestContext, RoleServer};

use super::ask::{Answer, INPUT_KEY, ask, input_required, picked_slug, wait_for_pick};
use super::results;
use super::selection::{candidates, contrary, recommend, selection_required};
use crate::access::sealed::Purpose;
use crate::caller::Caller;
use crate::state::AppState;
use mooring_core::projects::decided_by::DecidedBy;

/// What a project pick's sealed `requestState` names.
const PICK_SUBJECT: &str = "session";
/// How long the person has to answer the client's project form.
const PICK_STATE_TTL: std::time::Duration = std::time::Duration::from_secs(600);

/// A call's project, or the response that stands in for running the tool.
pub enum Gate {
    /// Run the tool in this project.
    Ready {
        /// Slug.
        project: String,
        /// Which level or mechanism decided.
        decided_by: DecidedBy,
        /// Something to tell the agent (auto-selection, the person's pick).
        note: Option<String>,
    },
    /// Don't run; answer with this.
    Stop(CallToolResponse),
}

/// The session row for a caller with an identity, created or refreshed.
pub fn session_of(state: &AppState, caller: &Caller) -> CoreResult<Option<AgentSession>> {
    caller.session_id.as_deref().map(|id| session::touch(&state.store, id, &caller.seen())).transpose()
}

/// The hints this caller and its session give, plus an explicit argument.
pub fn hints_for(
    state: &AppState,
    caller: &Caller,
    session: Option<&AgentSession>,
    explicit: Option<&str>,
) -> CoreResult<Hints> {
    let focus = state.store.read(|c| settings::get(c, settings::FOCUS_PROJECT))?;
    Ok(Hints {
        explicit: explicit.map(str::to_owned),
        session: session.and_then(|s| s.project.clone()),
        workspace: caller.workspace.clone().or_else(|| session.and_then(|s| s.workspace.clone())),
        env_project: caller.env_project.clone(),
        roots: session.map(|s| s.roots.clone()).unwrap_or_default(),
        cwd: caller.cwd.clone(),
        focus,
        git: None,
    })
}

/// Resolve hints against the current registry.
pub fn resolve_hints(state: &AppState, hints: &Hints) -> CoreResult<Resolution> {
    let snapshot = state.index.get(&state.store)?;
    Ok(resolve(&snapshot.index, hints))
}

/// Resolve hints as the gate does, through the one pipeline (what `resolve_project` and
/// `active_project` explain); a clone or marker directory it finds is bound.
pub async fn resolve_full(state: &Arc<AppState>, hints: Hints) -> CoreResult<Resolution> {
    // The gate's own pipeline: markers and git read where they decide, clones and marker
    // directories bound, so what the tools explain is what the session gets.
    let decided = decide_reading(state, hints).await?;
    if decided.changed_projects() {
        state.surfaces.projects_changed();
    }
    Ok(decided.resolution)
}

/// How the person is asked when nothing decides a call's project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asking {
    /// The client's own form and, with a desktop, the picker at once (a session-based
    /// client that declared elicitation).
    FormAndPicker,
    /// The desktop's picker only.
    Picker,
}

/// What a project-scoped call comes to before anyone is asked: a gate, or a question for
/// the person and what to answer if nobody picks.
pub enum Decision {
    /// Decided (or refused) without asking.
    Gate(Gate),
    /// Ask the person.
    Ask {
        /// Form and picker, or the picker alone.
        how: Asking,
        /// The projects offered.
        candidates: Vec<mooring_core::Project>,
        /// The one the picker preselects.
        recommended: Option<String>,
        /// Markers naming projects that do not exist yet (offered as "New project here").
        offers: Vec<mooring_core::projects::markers::Marker>,
        /// What the levels saw, for the answer if nobody picks.
        resolution: Option<Resolution>,
        /// Why, if nobody picks.
        unanswered: &'static str,
    },
}

/// Decide the project for a project-scoped call, asking the person when nothing decides.
pub async fn require_project(
    state: &Arc<AppState>,
    caller: &Caller,
    ctx: &RequestContext<RoleServer>,
    explicit: Option<&str>,
    responses: Option<&InputResponses>,
    request_state: Option<&str>,
) -> CoreResult<Gate> {
    let (how, candidates, recommended, offers, resolution, unanswered) =
        match decide(state, caller, explicit, responses, request_state).await? {
            Decision::Gate(g) => return Ok(g),
            Decision::Ask { how, candidates, recommended, offers, resolution, unanswered } => {
                (how, candidates, recommended, offers, resolution, unanswered)
            }
        };
    let answer = match how {
        // The client's own form and, with a desktop, the picker at once: the first answer
        // wins and the other closes; a declined form leaves the picker to answer.
        Asking::FormAndPicker => {
            ask(state, caller, ctx, &candidates, recommended, offers.first().cloned()).await
        }
        Asking::Picker => {
            wait_for_pick(state, caller, ctx, recommended, offers.first().cloned()).await.map(Answer::Picker)
        }
    };
    match answer {
        Some(Answer::Form(slug)) => bind(state, caller, &slug, DecidedBy::Elicitation),
        Some(Answer::Picker(p)) => bind(state, caller, &p.slug, p.via),
        None => Ok(Gate::Stop(selection_required(state, caller, resolution.as_ref(), &offers, unanswered)?)),
    }
}

/// Everything [`require_project`] decides before it asks anyone: the explicit argument,
/// an answered form, the resolution order with markers and git, auto-selection of the
/// only project, and whether (and how) the person is to be asked.
pub async fn decide(
    state: &Arc<AppState>,
    caller: &Caller,
    explicit: Option<&str>,
    responses: Option<&InputResponses>,
    request_state: Option<&str>,
) -> CoreResult<Decision> {
    let session = session_of(state, caller)?;
    if let Some(answer) = responses.and_then(|r| r.get(INPUT_KEY)) {
        // Only an answer to the form this server sent this client counts as the person's.
        let me = caller.session_id.as_deref();
        let issued = state.sealer.check(request_state.unwrap_or_default(), Purpose::Project, me)?;
        if issued.subject != PICK_SUBJECT || !state.sealer.consume(&issued) {
            return Err(mooring_core::Error::invalid(
                "requestState",
                "this requestState was used already; call the tool again without inputResponses",
            ));
        }
        if let Some(slug) = picked_slug(answer) {
            return bind(state, caller, &slug, DecidedBy::Elicitation).map(Decision::Gate);
        }
        // A declined or cancelled form (Claude Code in -p declines at once): the desktop's
        // picker can still answer while this call waits.
        if state.person_can_pick() {
            let candidates = candidates(state)?;
            let recommended = recommend(&candidates, caller, None);
            return Ok(Decision::Ask {
                how: Asking::Picker,
                candidates,
                recommended,
                offers: Vec::new(),
                resolution: None,
                unanswered: "The person did not choose a project.",
            });
        }
        let stop = selection_required(state, caller, None, &[], "The person did not choose a project.")?;
        return Ok(Decision::Gate(Gate::Stop(stop)));
    }
    // An explicit project is level 1: it decides, archived or not (reads of an archived
    // project are fine; writes are refused where they happen, with how to resume it).
    // An empty one is a mistake, not "use the session's": say so.
    if explicit.is_some_and(|s| s.trim().is_empty()) {
        return Err(mooring_core::Error::invalid(
            "project",
            "project is empty; give a project slug (list_projects shows them) or leave the field out \
             to use this session's project",
        ));
    }
    if let Some(slug) = explicit.map(str::trim) {
        return Ok(Decision::Gate(match Registry::new(&state.store).get(slug) {
            Ok(p) => {
                mark_used(state, &p.slug);
                Gate::Ready { project: p.slug, decided_by: Level::Explicit.into(), note: None }
            }
            Err(e) => Gate::Stop(results::fail(&e).into()),
        }));
    }
    // A workspace header must lie within the roots the client declared.
    if let (Some(ws), Some(s)) = (&caller.workspace, &session)
        && let Ok(dir) = mooring_core::paths::normalize("X-Workspace-Id", ws, None)
        && let Err(e) = session::check_within_roots("X-Workspace-Id", &dir.path, &s.roots)
    {
        return Ok(Decision::Gate(Gate::Stop(results::fail(&e).into())));
    }
    let hints = hints_for(state, caller, session.as_ref(), None)?;
    let decided = decide_reading(state, hints).await?;
    if decided.changed_projects() {
        state.surfaces.projects_changed();
    }
    let (resolution, offers) = (decided.resolution, decided.markers.offers);
    if let (Some(project), Some(level)) = (&resolution.project, resolution.decided_by) {
        mark_used(state, project);
        return Ok(Decision::Gate(Gate::Ready {
            project: project.clone(),
            decided_by: level.into(),
            note: None,
        }));
    }

    let candidates = candidates(state)?;
    if candidates.is_empty() {
        let stop = selection_required(state, caller, Some(&resolution), &offers, "No projects exist yet.")?;
        return Ok(Decision::Gate(Gate::Stop(stop)));
    }
    if candidates.len() == 1 && !contrary(&resolution) {
        let only = candidates[0].slug.clone();
        return bind(state, caller, &only, DecidedBy::AutoSingle).map(Decision::Gate);
    }
    let recommended = recommend(&candidates, caller, Some(&resolution));
    if caller.elicitation && !caller.legacy {
        let sealed =
            state.sealer.issue(Purpose::Project, PICK_SUBJECT, caller.session_id.as_deref(), PICK_STATE_TTL);
        return Ok(Decision::Gate(Gate::Stop(
            input_required(&candidates, recommended.as_deref(), sealed).into(),
        )));
    }
    let (how, unanswered) = match (caller.elicitation, state.person_can_pick()) {
        (true, _) => (Asking::FormAndPicker, "The person was asked but did not choose a project."),
        (false, true) => (Asking::Picker, "No project is selected for this session."),
        (false, false) => {
            let stop = selection_required(
                state,
                caller,
                Some(&resolution),
                &offers,
                "No project is selected for this session.",
            )?;
            return Ok(Decision::Gate(Gate::Stop(stop)));
        }
    };
    Ok(Decision::Ask { how, candidates, recommended, offers, resolution: Some(resolution), unanswered })
}

/// The one pipeline (`mooring_core::projects::decide`), here where it cannot read a repository's
/// files: inline when it reads none (the common case: no thread hand-off), else on a
/// blocking thread, and without markers or git (with a warning) if that takes longer
/// than two reads may.
async fn decide_reading(state: &Arc<AppState>, hints: Hints) -> CoreResult<Decided> {
    let quick = resolve_hints(state, &hints)?;
    if !mooring_core::projects::decide::reads_files(&quick, &hints) {
        return mooring_core::projects::decide::decide(&state.store, &state.index, hints);
    }
    let (shared, h) = (state.clone(), hints.clone());
    let work = tokio::task::spawn_blocking(move || {
        mooring_core::projects::decide::decide(&shared.store, &shared.index, h)
    });
    match tokio::time::timeout(mooring_core::guard::untrusted::READ_TIMEOUT * 4, work).await {
        Ok(Ok(decided)) => decided,
        Ok(Err(e)) => Err(mooring_core::Error::storage(format!("deciding the project failed: {e}"))),
        Err(_) => {
            tracing::warn!(
                "reading the session's .mooring.toml and git checkout took too long; resolving without them"
            );
            Ok(Decided { resolution: quick, markers: Default::default(), bound_clone: None, hints })
        }
    }
}

/// Remember a choice for the session (when it has an identity) and proceed.
/// Bind `slug` to the caller's session (or only use it, without one), as settled by
/// `decided_by`: the person's choice, or the only active project.
fn bind(state: &AppState, caller: &Caller, slug: &str, decided_by: DecidedBy) -> CoreResult<Gate> {
    let project = match &caller.session_id {
        Some(id) => session::bind(&state.store, id, slug, decided_by)?.slug,
        None => {
            let p = Registry::new(&state.store).get(slug)?;
            if p.status == ProjectStatus::Archived {
                return Err(mooring_core::Error::invalid(
                    "project",
                    format!("project '{}' is archived", p.slug),
                ));
            }
            mark_used(state, &p.slug);
            p.slug
        }
    };
    state.surfaces.projects_changed();
    let remember = if caller.session_id.is_some() {
        "It is remembered for this session.".to_owned()
    } else {
        format!("This client has no session: pass \"project\": \"{project}\" on later calls.")
    };
    Ok(Gate::Ready {
        note: Some(format!("Working in '{project}': {}. {remember}", decided_by.reason())),
        project,
        decided_by,
    })
}

fn mark_used(state: &AppState, slug: &str) {
    if let Err(e) = Registry::new(&state.store).touch_used(slug) {
        tracing::warn!(error = %e, "could not record use");
    }
}

#[cfg(test)]
mod tests;
