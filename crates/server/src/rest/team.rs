//! Team projects in the REST API: who owns a team project and who is in it (for the
//! dashboard).

use std::collections::HashMap;

use mooring_core::Result;
use mooring_core::store::team_projects;
use mooring_team::TeamView;
use serde_json::{Value, json};

use crate::state::AppState;

/// The team projects this person is in, by slug, read once for a listing (empty without
/// a team); the reason when the team database cannot be read.
pub fn team_projects(state: &AppState) -> HashMap<String, Result<TeamView>> {
    let Some(db) = state.team.as_ref() else { return HashMap::new() };
    // Only this machine's team rows: a project of one's own may share a team project's slug.
    let local: Vec<String> = state
        .store
        .read(team_projects::all)
        .unwrap_or_default()
        .into_iter()
        .map(|(_, _, slug)| slug)
        .collect();
    let mut shared: HashMap<String, Result<TeamView>> = match db.projects() {
        Ok(all) => all.into_iter().map(|seen| (seen.project.slug.clone(), Ok(seen))).collect(),
        Err(e) => local.iter().map(|slug| (slug.clone(), Err(e.clone()))).collect(),
    };
    shared.retain(|slug, _| local.contains(slug));
    shared
}

/// `team` of a project in a listing: `null` for one's own, else owner, your role and the
/// members (or why they cannot be read now).
pub fn team_field(state: &AppState, slug: &str, team: &HashMap<String, Result<TeamView>>) -> Value {
    let (Some(db), Some(seen)) = (state.team.as_ref(), team.get(slug)) else {
        return Value::Null;
    };
    match seen.as_ref().map_err(Clone::clone).and_then(|seen| Ok((seen, db.members(slug)?))) {
        Ok((seen, members)) => json!({
            "owner": seen.owner,
            "role": seen.role.as_str(),
            "members": members.iter().map(|(name, role)| json!({ "name": name, "role": role.as_str() })).collect::<Vec<_>>(),
        }),
        Err(e) => json!({ "unavailable": e.message }),
    }
}
