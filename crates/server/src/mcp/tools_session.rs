//! Session tools: which project this session is in, and choosing it.

use mooring_core::memory::handover;
use mooring_core::projects::resolve::Level;
use mooring_core::{Error, Registry, Result as CoreResult, paths, projects::session};
use rmcp::model::CallToolResult;

use super::gate::{hints_for, resolve_full, resolve_hints, session_of};
use super::outputs::{ActiveProject, Resolved, Selected, WorkspaceSet};
use super::params;
use super::results::{fail, ok};
use crate::caller::Caller;
use crate::state::AppState;
use mooring_core::projects::decided_by::DecidedBy;

fn run<T: serde::Serialize>(f: impl FnOnce() -> CoreResult<T>) -> CallToolResult {
    match f() {
        Ok(v) => ok(&v),
        Err(e) => fail(&e),
    }
}

/// `active_project`: read, set or clear the session's choice.
pub async fn active(
    state: &std::sync::Arc<AppState>,
    caller: &Caller,
    p: params::ActiveProject,
) -> CallToolResult {
    let chosen = (|| {
        // One write records the request; after a bind or clear the row is only read.
        session_of(state, caller)?;
        let message = match (&p.project, &caller.session_id) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(Error::invalid(
                    "project",
                    "this client has no session to remember a choice in; pass \"project\" on each \
                     project-scoped call instead, or send an X-Workspace-Id header",
                ));
            }
            (Some(Some(slug)), Some(id)) => {
                let project = session::bind(&state.store, id, slug, Level::Session.into())?;
                state.surfaces.projects_changed();
                Some(format!("This session now works in '{}'.", project.slug))
            }
            (Some(None), Some(id)) => {
                session::clear(&state.store, id)?;
                Some("Cleared this session's choice; the other levels decide again.".to_owned())
            }
        };
        let session =
            caller.session_id.as_deref().map(|id| session::get(&state.store, id)).transpose()?.flatten();
        Ok((message, hints_for(state, caller, session.as_ref(), None)?))
    })();
    let (message, hints) = match chosen {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let resolution = resolve_full(state, hints).await;
    run(|| {
        let resolution = resolution?;
        let message = message.unwrap_or_else(|| match &resolution.project {
            Some(p) => format!("This session works in '{p}'."),
            None => "No project yet: call select_project_for_session.".to_owned(),
        });
        Ok(ActiveProject {
            active_project: resolution.project,
            decided_by: resolution.decided_by.map(|l| l.as_str().to_owned()),
            levels: resolution.levels,
            message,
        })
    })
}

/// `resolve_project`: every level, with optional what-if inputs.
pub async fn resolve(
    state: &std::sync::Arc<AppState>,
    caller: &Caller,
    p: params::ResolveProject,
) -> CallToolResult {
    let hints = (|| {
        let session = session_of(state, caller)?;
        let mut hints = hints_for(state, caller, session.as_ref(), None)?;
        if let Some(cwd) = p.cwd {
            hints.cwd = Some(cwd);
        }
        if let Some(ws) = p.workspace_id {
            hints.workspace = Some(ws);
        }
        Ok(hints)
    })();
    let resolution = match hints {
        Ok(h) => resolve_full(state, h).await,
        Err(e) => Err(e),
    };
    run(|| Ok(Resolved { resolution: resolution?, session_id: caller.session_id.clone() }))
}

/// `select_project_for_session`: choose, and get the last handover back.
pub fn select(state: &AppState, caller: &Caller, p: params::SelectProject) -> CallToolResult {
    select_as(state, caller, p, Level::Session.into())
}

/// `select_project_for_session`, recording who decided (`session`: the agent; `picker`
/// or `app`: the person).
pub fn select_as(
    state: &AppState,
    caller: &Caller,
    p: params::SelectProject,
    decided_by: DecidedBy,
) -> CallToolResult {
    run(|| {
        let project = match &caller.session_id {
            Some(id) => {
                session_of(state, caller)?;
                session::bind(&state.store, id, &p.project, decided_by)?
            }
            None => {
                let project = Registry::new(&state.store).get(&p.project)?;
                if project.status == mooring_core::ProjectStatus::Archived {
                    return Err(Error::invalid(
                        "project",
                        format!("project '{}' is archived; resume it before working in it", project.slug),
                    ));
                }
                project
            }
        };
        state.surfaces.projects_changed();
        let handover = handover::last(&*state.memory, &project.slug)?;
        let captured = handover::captured_since_handover(&*state.memory, &project.slug)?;
        let mut message = format!("Project '{}' selected.", project.slug);
        match (&handover, &captured) {
            (Some(h), _) => message.push_str(&format!(
                " Last handover ({}): {} Next steps: {}",
                h.created,
                h.work_done.trim(),
                h.next_steps.trim()
            )),
            (None, Some(_)) => message.push_str(" No handover yet."),
            (None, None) => message.push_str(" No handover yet: this is the first recorded session for it."),
        }
        if let Some(c) = &captured {
            message.push_str(&format!(" {} Asked, changed and left open:\n{}\n", c.summary(), c.content));
        }
        if caller.session_id.is_none() {
            message.push_str(&format!(
                " This client has no session, so pass \"project\": \"{}\" on later calls.",
                project.slug
            ));
        }
        Ok(Selected {
            selected: project.slug.clone(),
            remembered: caller.session_id.is_some(),
            project,
            handover,
            message,
        })
    })
}

/// `set_workspace_id`: a `file://` URI of an existing directory, inside a declared root.
pub fn set_workspace(state: &AppState, caller: &Caller, p: params::SetWorkspace) -> CallToolResult {
    run(|| {
        let uri = p.workspace_uri.trim();
        if !uri.starts_with("file://") {
            return Err(Error::invalid(
                "workspace_uri",
                format!("workspace_uri '{uri}' is not a file:// URI; use e.g. file:///home/me/code/app"),
            ));
        }
        let dir = paths::normalize("workspace_uri", uri, None)?;
        if !dir.exists || !dir.path.is_dir() {
            return Err(Error::invalid(
                "workspace_uri",
                format!("workspace_uri points at {}, which is not an existing directory", dir.path.display()),
            ));
        }
        let Some(id) = caller.session_id.clone() else {
            return Err(Error::invalid(
                "workspace_uri",
                "this client has no session to remember a workspace in; send the X-Workspace-Id \
                 header with each request instead",
            ));
        };
        let session = session_of(state, caller)?;
        let roots = session.as_ref().map(|s| s.roots.clone()).unwrap_or_default();
        session::check_within_roots("workspace_uri", &dir.path, &roots)?;
        session::set_workspace(&state.store, &id, Some(dir.as_str()))?;
        // The row read above still holds the roots and choice; the workspace is set below.
        let mut hints = hints_for(state, caller, session.as_ref(), None)?;
        hints.workspace = Some(dir.as_str().to_owned());
        let resolution = resolve_hints(state, &hints)?;
        let by_workspace = resolution.decided_by == Some(Level::Workspace);
        let message = match (&resolution.project, by_workspace) {
            (Some(p), true) => format!("Workspace set; it belongs to '{p}'."),
            (Some(p), false) => {
                format!("Workspace set; this session still works in '{p}' (a higher level decides).")
            }
            (None, _) => {
                "Workspace set, but it is inside no project's code path; add it with edit_project.".to_owned()
            }
        };
        Ok(WorkspaceSet { workspace: dir.as_str().to_owned(), project: resolution.project, message })
    })
}

/// `who_is_working` in a decided project.
pub fn who_is_working(
    state: &AppState,
    s: super::tools_memory::Scope,
    _p: params::WhoIsWorking,
) -> CallToolResult {
    use mooring_core::projects::live;
    let project = s.project.as_str();
    let found = live::working(&state.store, project, chrono::Utc::now())
        .and_then(|w| Ok((w, live::mode(&state.store, project)?)));
    match found {
        Ok((sessions, mode)) => {
            let n = sessions.len();
            let said = match n {
                0 => format!("No agent session is working in '{project}' now."),
                1 => format!("One agent session is working in '{project}' now."),
                n => format!("{n} agent sessions are working in '{project}' now."),
            };
            ok(&super::outputs::Scoped {
                project: project.to_owned(),
                decided_by: s.decided_by.to_string(),
                note: s.note,
                result: super::outputs::Working { sessions, claims: mode.as_str().to_owned(), message: said },
            })
        }
        Err(e) => fail(&e),
    }
}
