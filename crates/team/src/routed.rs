//! Project calls on this machine that belong to the team when the project is a team
//! project: its shared fields, status, events, handoff and deletion go to the team
//! database (where access is checked), its code paths and notes directory stay this
//! machine's, and its history is the team's with this machine's own events merged in. One's own projects go to the local store unchanged. The CLI and the REST
//! API both call these, so the two cannot disagree on what is whose.

use mooring_core::store::{events, team_projects};
use mooring_core::{Changed, Error, Event, Project, ProjectEdit, ProjectStatus, Registry, Result, Store};

use crate::{PgStore, SharedEdit, sync};

/// Whether `slug` names a team project on this machine.
pub fn is_team(local: &Store, slug: &str) -> Result<bool> {
    local.read(|c| team_projects::is_team(c, slug))
}

/// The team store for a call on team project `slug`, or why there is none.
fn joined<'a>(team: Option<&'a PgStore>, slug: &str) -> Result<&'a PgStore> {
    team.ok_or_else(|| {
        Error::unavailable(format!(
            "'{slug}' is a team project but this Mooring is not connected to the team; run mooring team status"
        ))
    })
}

/// Put the team's counts on the team projects among `projects` (their memory is not
/// here, so this machine's counts are zero); left as they are when the team is out of
/// reach. One query, and none when the list holds no team project.
pub fn fill_stats(local: &Store, team: Option<&PgStore>, projects: &mut [Project]) {
    let Some(db) = team else { return };
    let Ok(here) = local.read(team_projects::all) else { return };
    if !projects.iter().any(|p| here.iter().any(|(id, _, _)| *id == p.id)) {
        return;
    }
    match db.stats() {
        Ok(stats) => {
            for p in projects.iter_mut().filter(|p| here.iter().any(|(id, _, _)| *id == p.id)) {
                if let Some(s) = stats.get(&p.slug) {
                    p.stats = s.clone();
                }
            }
        }
        Err(e) => tracing::debug!(error = %e, "team project counts not read"),
    }
}

/// A page of a project's events, newest first, and how many there are.
pub fn events_page(
    local: &Store,
    team: Option<&PgStore>,
    slug: &str,
    limit: u32,
    offset: u32,
) -> Result<(Vec<Event>, u64)> {
    if is_team(local, slug)? {
        // Enough of both histories to fill the page after skipping `offset`.
        let wanted = limit.saturating_add(offset);
        let db = joined(team, slug)?;
        let (shared, shared_total) = if wanted <= 500 {
            db.events_page(slug, wanted, 0)?
        } else {
            let mut all = db.events(slug)?;
            all.reverse();
            let total = all.len() as u64;
            (all, total)
        };
        let (here, here_total) = machine_events(local, slug, wanted)?;
        let mut all = merge(shared, here);
        all.reverse();
        let page = all.into_iter().skip(offset as usize).take(limit as usize).collect();
        return Ok((page, shared_total + here_total));
    }
    Registry::new(local).events_page(slug, limit, offset)
}

/// This machine's own events of a team project (its code paths, sessions, focus): the
/// team never holds them, and the person's view of the history keeps them.
fn machine_events(local: &Store, slug: &str, limit: u32) -> Result<(Vec<Event>, u64)> {
    local.read(|c| {
        let id = mooring_core::store::projects::find_row(c, "project", slug)?.id;
        events::machine_page(c, id, limit)
    })
}

/// Two newest-first histories as one, oldest first (the team's first where both
/// happened in the same millisecond).
fn merge(mut shared: Vec<Event>, mut here: Vec<Event>) -> Vec<Event> {
    shared.reverse();
    here.reverse();
    let mut all = Vec::with_capacity(shared.len() + here.len());
    all.append(&mut shared);
    all.append(&mut here);
    // Stable: each history keeps its own order among equal times.
    all.sort_by(|a, b| a.at.cmp(&b.at));
    all
}

/// All of a project's events, oldest first.
pub fn events(local: &Store, team: Option<&PgStore>, slug: &str) -> Result<Vec<Event>> {
    if is_team(local, slug)? {
        let mut shared = joined(team, slug)?.events(slug)?;
        shared.reverse();
        let (here, _) = machine_events(local, slug, u32::MAX)?;
        return Ok(merge(shared, here));
    }
    Registry::new(local).events(slug)
}

/// Edit a project. For a team project the name, description and repository change in
/// the team (members may), the status too (the owner only), code paths and notes
/// directory here. Permissions are checked before anything is written, so a refused
/// edit changes nothing.
pub fn edit(registry: &Registry, team: Option<&PgStore>, slug: &str, edit: ProjectEdit) -> Result<Changed> {
    let local = registry.store();
    if edit.is_empty() || !is_team(local, slug)? {
        return registry.edit(slug, edit);
    }
    let db = joined(team, slug)?;
    let shared = SharedEdit { name: edit.name, description: edit.description, repo_url: edit.repo_url };
    let seen = db.project(slug)?;
    if !shared.is_empty() {
        seen.may_write()?;
    }
    if edit.status.is_some() {
        seen.must_own("change its status")?;
    }
    let here = ProjectEdit {
        add_code_paths: edit.add_code_paths,
        remove_code_paths: edit.remove_code_paths,
        notes_path: edit.notes_path,
        ..ProjectEdit::default()
    };
    let mut out = Changed { updated_fields: Vec::new(), project: Project::default(), warnings: Vec::new() };
    if !here.is_empty() {
        let changed = registry.edit(slug, here)?;
        out.warnings = changed.warnings;
        // A code path's git remote names the repository when the team had none yet.
        let guessed = changed.updated_fields.iter().any(|f| f == "repo_url");
        out.updated_fields = changed.updated_fields.into_iter().filter(|f| f != "repo_url").collect();
        if guessed && shared.repo_url.is_none() && seen.project.repo_url.is_none() && seen.may_write().is_ok()
        {
            let repo = SharedEdit { repo_url: changed.project.repo_url.clone(), ..SharedEdit::default() };
            out.updated_fields.extend(db.edit_project(slug, &repo)?.1);
        }
    }
    if !shared.is_empty() {
        out.updated_fields.extend(db.edit_project(slug, &shared)?.1);
    }
    if let Some(status) = edit.status
        && status != seen.project.status
    {
        db.set_status(slug, status)?;
        out.updated_fields.push("status".into());
    }
    sync::refresh(local, db)?;
    out.project = registry.get(slug)?;
    Ok(out)
}

/// Set a project's status (archive, resume, pause).
pub fn set_status(
    registry: &Registry,
    team: Option<&PgStore>,
    slug: &str,
    status: ProjectStatus,
) -> Result<Changed> {
    edit(registry, team, slug, ProjectEdit { status: Some(status), ..ProjectEdit::default() })
}

/// Delete a project: a team project for everyone (the owner's call), one's own here.
pub fn delete(registry: &Registry, team: Option<&PgStore>, slug: &str) -> Result<()> {
    let local = registry.store();
    if !is_team(local, slug)? {
        return registry.delete(slug).map(|_| ());
    }
    let db = joined(team, slug)?;
    db.delete_project(slug)?;
    sync::refresh(local, db)?;
    Ok(())
}

/// Hand a team project to `person` (the owner's call); one's own project cannot be.
pub fn handoff(local: &Store, team: Option<&PgStore>, slug: &str, person: &str) -> Result<Project> {
    if !is_team(local, slug)? {
        return Err(Error::invalid(
            "project",
            format!(
                "'{slug}' is your own project, not a team's; move it in first with mooring team share {slug}"
            ),
        ));
    }
    let db = joined(team, slug)?;
    let project = db.handoff(slug, person)?;
    sync::refresh(local, db)?;
    Ok(project)
}
