//! The agent sessions working in a project now, as the project view, the tray, the
//! phone, agents (`who_is_working`) and `mooring sessions --live` show them; the
//! project's setting for what a write into another's claim meets; and which checkout a
//! folder is in.

use chrono::{DateTime, Utc};

use super::claims::{Mode, cutoff, shown};
use super::process::running;
use crate::error::Result;
use crate::store::claims as q;
use crate::store::live_sessions as live;
use crate::store::{Store, projects::find_row};

/// A live session of a project, as the project view, the tray, the phone and agents
/// see it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Working {
    /// How to name it to `tell_session` or the project view (a hash of its key, never
    /// the key).
    pub handle: String,
    /// The client.
    pub client: String,
    /// The checkout or worktree it works in.
    pub checkout: String,
    /// Its branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// When its hooks last reported it.
    pub last_at: String,
    /// What it was last asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// What it holds, as people read it.
    pub claims: Vec<String>,
    /// Writes it met another session's claim on.
    pub conflicts: i64,
    /// Its key (a hash): never shown, so no session can name another's.
    #[serde(skip)]
    pub key: String,
}

/// The live sessions of `slug` at `now`, first started first.
pub fn working(store: &Store, slug: &str, now: DateTime<Utc>) -> Result<Vec<Working>> {
    store.read(|c| {
        let project = find_row(c, "project", slug)?;
        let since = cutoff(c, now)?;
        let mut out = Vec::new();
        for row in live::of_project(c, project.id, &since)? {
            if !running(row.pid) {
                continue;
            }
            let claims = q::of_session(c, &row.key)?.iter().map(|c| shown(&c.kind, &c.what)).collect();
            out.push(Working {
                handle: super::session_notes::handle(&row.key),
                client: row.client,
                checkout: row.checkout,
                branch: row.branch,
                started_at: row.started_at,
                last_at: row.last_at,
                request: row.request,
                claims,
                conflicts: row.conflicts,
                key: row.key,
            });
        }
        Ok(out)
    })
}

/// A project where several sessions work at once, as the tray lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crowded {
    /// The project's slug.
    pub slug: String,
    /// Its name.
    pub name: String,
    /// Each live session's client, first started first.
    pub clients: Vec<String>,
    /// Writes its sessions made into what another held.
    pub conflicts: i64,
}

/// The projects with more than one live session at `now` (one read over every project's
/// live rows).
pub fn crowded(store: &Store, now: DateTime<Utc>) -> Result<Vec<Crowded>> {
    store.read(|c| {
        let since = cutoff(c, now)?;
        let mut out: Vec<(i64, Crowded)> = Vec::new();
        for row in live::all_live(c, &since)?.into_iter().filter(|r| running(r.pid)) {
            match out.last_mut() {
                Some((id, p)) if *id == row.project_id => {
                    p.clients.push(row.client);
                    p.conflicts += row.conflicts;
                }
                _ => {
                    let Some(project) = crate::store::projects::by_id(c, row.project_id)? else { continue };
                    let crowded = Crowded {
                        slug: project.slug,
                        name: project.name,
                        clients: vec![row.client],
                        conflicts: row.conflicts,
                    };
                    out.push((row.project_id, crowded));
                }
            }
        }
        Ok(out.into_iter().map(|(_, p)| p).filter(|p| p.clients.len() > 1).collect())
    })
}

/// The key of the live session of `slug` whose client is process `pid` (the one heard
/// from last when the process runs several): what ties an MCP connection made through
/// `mooring stdio` (whose parent is the client) to the session its hooks report.
pub fn session_of_process(store: &Store, slug: &str, pid: i64, now: DateTime<Utc>) -> Result<Option<String>> {
    store.read(|c| {
        let project = find_row(c, "project", slug)?;
        let since = cutoff(c, now)?;
        Ok(live::of_project(c, project.id, &since)?
            .into_iter()
            .filter(|r| r.pid == Some(pid))
            .max_by(|a, b| a.last_at.cmp(&b.last_at))
            .map(|r| r.key))
    })
}

/// The checkout (the worktree's top folder) and branch `dir` is in, from the git facts
/// resolution already read (cached); a folder outside any repository is its own checkout.
pub fn checkout_of(dir: &std::path::Path) -> (String, Option<String>) {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match super::git::facts(&dir) {
        Some(f) => (f.checkout.display().to_string(), f.branch),
        None => (dir.display().to_string(), None),
    }
}

/// What session `key` holds now (as people read it) and how many writes of it met
/// another's claim: what its captured record lists.
pub fn held(store: &Store, key: &str) -> Result<(Vec<String>, u32)> {
    store.read(|c| {
        let held = q::of_session(c, key)?.iter().map(|c| shown(&c.kind, &c.what)).collect();
        let conflicts = live::get(c, key)?.map_or(0, |r| u32::try_from(r.conflicts).unwrap_or(u32::MAX));
        Ok((held, conflicts))
    })
}

/// Set `slug`'s mode for writes into what another session holds.
pub fn set_mode(store: &Store, slug: &str, mode: Mode) -> Result<()> {
    store.write(|tx| {
        let project = find_row(tx, "project", slug)?;
        crate::store::projects::set_claims_mode(tx, project.id, mode.as_str())
    })
}

/// `slug`'s mode.
pub fn mode(store: &Store, slug: &str) -> Result<Mode> {
    store.read(|c| {
        let project = find_row(c, "project", slug)?;
        Mode::parse(&crate::store::projects::claims_mode(c, project.id)?)
    })
}

/// The client's process: this process's parent, or its grandparent when the client ran
/// it through a shell (a hook, or `mooring stdio`). Linux only; elsewhere none, and only
/// the quiet period ends a silent session.
pub fn client_pid() -> Option<i64> {
    #[cfg(target_os = "linux")]
    {
        let parent = |pid: &str| -> Option<String> {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command's name is in parentheses and may hold spaces: read past it.
            stat.rsplit_once(')')?.1.split_whitespace().nth(1).map(str::to_owned)
        };
        let name = |pid: &str| std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        let mut pid = parent("self")?;
        if matches!(name(&pid).trim(), "sh" | "bash" | "dash" | "zsh" | "fish") {
            pid = parent(&pid)?;
        }
        pid.parse().ok().filter(|p| *p > 1)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}
