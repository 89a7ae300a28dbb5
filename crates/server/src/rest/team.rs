//! Team projects in the REST API: who owns a team project and who is in it (for the
//! dashboard), and the owner's calls (archive, resume, delete) made in the team database,
//! where they are checked, rather than on this machine's row alone.

use std::collections::HashSet;

use mooring_core::store::team_projects;
use mooring_core::{Changed, ProjectStatus, Registry, Result};
use serde_json::{Value, json};

use crate::state::AppState;

/// The slugs of team projects on this machine.
pub fn team_slugs(state: &AppState) -> Result<HashSet<String>> {
    if state.team.is_none() {
        return Ok(HashSet::new());
    }
    let all = state.store.read(team_projects::all)?;
    Ok(all.into_iter().map(|(_, _, slug)| slug).collect())
}

/// `team` of a project in a listing: `null` for one's own, else owner, your role and the
/// members (or why they cannot be read now).
pub fn team_field(state: &AppState, slug: &str, team: &HashSet<String>) -> Value {
    let Some(db) = state.team.as_ref().filter(|_| team.contains(slug)) else {
        return Value::Null;
    };
    match db.project(slug).and_then(|seen| Ok((seen, db.members(slug)?))) {
        Ok((seen, members)) => json!({
            "owner": seen.owner,
            "role": seen.role.as_str(),
            "members": members.iter().map(|(name, role)| json!({ "name": name, "role": role.as_str() })).collect::<Vec<_>>(),
        }),
        Err(e) => json!({ "unavailable": e.message }),
    }
}

/// Archive, resume or delete (`None`) a team project in the team; `Ok(None)` when `slug`
/// is one's own project (the caller does it locally).
pub fn owner_call(state: &AppState, slug: &str, status: Option<ProjectStatus>) -> Result<Option<Changed>> {
    let Some(db) = state.team.as_ref() else { return Ok(None) };
    if !state.store.read(|c| team_projects::is_team(c, slug))? {
        return Ok(None);
    }
    match status {
        Some(status) => {
            db.set_status(slug, status)?;
        }
        None => db.delete_project(slug)?,
    }
    mooring_team::sync::refresh(&state.store, db)?;
    state.surfaces.projects_changed();
    let project = match status {
        Some(_) => Registry::new(&state.store).get(slug)?,
        None => mooring_core::Project { slug: slug.to_owned(), ..Default::default() },
    };
    Ok(Some(Changed { updated_fields: vec!["status".into()], project, warnings: Vec::new() }))
}
