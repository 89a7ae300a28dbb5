//! Team projects on this machine: each team project the person is in gets a local row
//! (slug, name, description, status, repository URL), so this machine's resolution finds
//! it by its own code paths, markers and remotes; its memory stays in the team database.
//! Only the project list is mirrored, never memory.

use mooring_core::humanize::now;
use mooring_core::store::projects::{self, NewProjectRow, TextColumn};
use mooring_core::store::team_projects;
use mooring_core::{Result, Store};

use crate::PgStore;

/// What a refresh changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Synced {
    /// Team projects new on this machine.
    pub added: Vec<String>,
    /// Team projects this person is no longer in (their local row is gone; code paths too).
    pub removed: Vec<String>,
    /// Team projects whose slug a local project already uses (left alone).
    pub clashes: Vec<String>,
}

/// How current this machine's list of team projects is, after trying to refresh it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    /// Read from the team just now.
    Current(Synced),
    /// The team could not be read: its projects are as this machine last saw them.
    Stale {
        /// Since when the team database has been out of reach (RFC 3339), if that is why.
        since: Option<String>,
        /// What went wrong, for a person.
        why: String,
    },
}

impl Listed {
    /// The sentence that tells a person the list may be out of date, when it may be.
    pub fn stale_note(&self) -> Option<String> {
        let Listed::Stale { since, why } = self else { return None };
        let what = match since {
            Some(t) => format!("the team database is out of reach (since {t})"),
            None => format!("the team's project list could not be read ({why})"),
        };
        Some(format!("{what}: team projects are as this machine last saw them and may be out of date"))
    }
}

/// Refresh this machine's team projects, one query to the team; an unreachable team
/// leaves them as they are and says so (one's own projects never depend on it).
pub fn refresh_or_stale(local: &Store, team: &PgStore) -> Listed {
    match refresh(local, team) {
        Ok(synced) => {
            if !synced.clashes.is_empty() {
                tracing::warn!(clashes = ?synced.clashes, "team projects whose slug a local project uses are left out");
            }
            Listed::Current(synced)
        }
        Err(e) => {
            tracing::debug!(error = %e, "team project list not refreshed");
            Listed::Stale { since: team.down_since(), why: e.message }
        }
    }
}

/// Bring this machine's rows for team projects in line with the team.
pub fn refresh(local: &Store, team: &PgStore) -> Result<Synced> {
    let shared = team.projects()?;
    let stamp = now();
    local.write(|tx| {
        let mut out = Synced::default();
        let known = team_projects::all(tx)?;
        for seen in &shared {
            let p = &seen.project;
            let mine = known.iter().find(|(_, team_id, _)| *team_id == p.id);
            let local = match mine {
                Some((id, _, slug)) => projects::row_by_slug(tx, slug)?.filter(|r| r.id == *id),
                None if projects::slug_exists(tx, &p.slug)? => {
                    out.clashes.push(p.slug.clone());
                    continue;
                }
                None => None,
            };
            // Only what differs is written: each write moves the project's `updated_at`,
            // which makes every process rebuild its resolution index, and this runs at
            // every start of `mooring stdio` and every hook.
            let local_id = match &local {
                Some(row) => row.id,
                None => {
                    out.added.push(p.slug.clone());
                    let row = NewProjectRow {
                        slug: &p.slug,
                        name: &p.name,
                        description: &p.description,
                        repo_url: p.repo_url.as_deref(),
                        notes_path: None,
                        now: &stamp,
                    };
                    let id = projects::insert(tx, &row)?;
                    team_projects::mark(tx, id, p.id, &stamp)?;
                    id
                }
            };
            let same =
                |f: fn(&mooring_core::Project) -> Option<&str>| local.as_ref().is_some_and(|l| f(l) == f(p));
            if !same(|x| Some(&x.name)) {
                projects::set_text(tx, local_id, TextColumn::Name, Some(&p.name), &stamp)?;
            }
            if !same(|x| Some(&x.description)) {
                projects::set_text(tx, local_id, TextColumn::Description, Some(&p.description), &stamp)?;
            }
            if !same(|x| x.repo_url.as_deref()) {
                projects::set_text(tx, local_id, TextColumn::RepoUrl, p.repo_url.as_deref(), &stamp)?;
            }
            if local.as_ref().is_none_or(|l| l.status != p.status) {
                projects::set_status(tx, local_id, p.status, &stamp)?;
            }
        }
        for (local_id, team_id, slug) in known {
            if !shared.iter().any(|s| s.project.id == team_id) {
                projects::delete(tx, local_id)?;
                out.removed.push(slug);
            }
        }
        Ok(out)
    })
}
