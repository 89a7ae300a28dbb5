//! Registry tools: list, get, create, edit. They need no session project.

use mooring_core::{Error, NewProject, ProjectEdit, ProjectStatus, Registry};
use rmcp::model::CallToolResult;

use super::outputs::{ProjectDetail, ProjectList};
use super::params;
use super::results::{fail, ok};
use crate::state::AppState;

/// `list_projects`.
pub fn list(state: &AppState, p: params::ListProjects) -> CallToolResult {
    let registry = Registry::new(&state.store);
    let result = match p.status.as_deref().map(str::trim) {
        None | Some("") => registry.list(None).map(|mut all| {
            all.retain(|p| p.status != ProjectStatus::Archived);
            all
        }),
        Some("all") => registry.list(None),
        Some(s) => match s.parse::<ProjectStatus>() {
            Ok(status) => registry.list(Some(status)),
            Err(_) => Err(Error::invalid(
                "status",
                format!("status '{s}' is not one of active, paused, archived, all"),
            )),
        },
    };
    match result {
        Ok(mut projects) => {
            mooring_team::routed::fill_stats(&state.store, state.team.as_deref(), &mut projects);
            ok(&ProjectList { projects })
        }
        Err(e) => fail(&e),
    }
}

/// `get_project`.
pub fn get(state: &AppState, p: params::GetProject) -> CallToolResult {
    match Registry::new(&state.store).get(&p.project) {
        Ok(mut project) => {
            mooring_team::routed::fill_stats(
                &state.store,
                state.team.as_deref(),
                std::slice::from_mut(&mut project),
            );
            ok(&ProjectDetail { project })
        }
        Err(e) => fail(&e),
    }
}

/// `create_project`.
pub fn create(state: &AppState, p: params::CreateProject) -> CallToolResult {
    let result = Registry::new(&state.store).create(NewProject {
        name: p.name,
        slug: p.slug,
        description: p.description,
        code_paths: p.code_paths,
        repo_url: p.repo_url,
        notes_path: p.notes_path,
    });
    match result {
        Ok(changed) => {
            state.surfaces.projects_changed();
            ok(&changed)
        }
        Err(e) => fail(&e),
    }
}

/// `edit_project`.
pub fn edit(state: &AppState, p: params::EditProject) -> CallToolResult {
    let status = match p.status.as_deref().map(str::parse::<ProjectStatus>).transpose() {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let result = Registry::new(&state.store).edit(
        &p.project,
        ProjectEdit {
            name: p.name,
            description: p.description,
            add_code_paths: p.add_code_paths,
            remove_code_paths: p.remove_code_paths,
            notes_path: p.notes_path,
            repo_url: p.repo_url,
            status,
        },
    );
    match result {
        Ok(changed) => {
            state.surfaces.projects_changed();
            ok(&changed)
        }
        Err(e) => fail(&e),
    }
}
