//! `.mooring.toml` markers: a team commits `project = "slug"` (with an optional name
//! and description) at a repository's root, and every clone resolves to that project.
//! Resolving a directory walks up to the nearest marker; one naming a known project binds
//! its directory as a code path of that project; one naming an unknown project becomes
//! an offer to create it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::{Error, Result};
use crate::model::ProjectStatus;
use crate::projects::registry::{ProjectEdit, Registry};
use crate::projects::resolve::{Hints, ProjectIndex};
use crate::store::Store;

/// The marker's file name.
pub const FILE: &str = ".mooring.toml";

/// A marker is three short fields; anything bigger is not one.
pub const MAX_BYTES: u64 = 16 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerFile {
    project: String,
    name: Option<String>,
    description: Option<String>,
    /// `false`: the repository opts out of session capture, for everyone who clones it.
    capture: Option<bool>,
}

/// A marker found on disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Marker {
    /// The directory holding the marker.
    pub dir: PathBuf,
    /// The slug it names.
    pub project: String,
    /// Display name for creating the project.
    pub name: Option<String>,
    /// Description for creating the project.
    pub description: Option<String>,
    /// Whether the repository lets sessions be captured (`capture = false` opts out).
    #[serde(skip)]
    pub capture: bool,
}

/// Longest marker name kept (a repository writes it; it is offered to `create_project`).
pub const MAX_NAME_CHARS: usize = 100;
/// Longest marker description kept.
pub const MAX_DESCRIPTION_CHARS: usize = 300;

/// A field a repository wrote, as Mooring offers it on: one quoted line (no markup that
/// could open or close a wrapper, no control or bidi characters), no secret, at most
/// `max` characters; nothing when empty.
fn bounded(text: &str, max: usize) -> Option<String> {
    let line = crate::guard::quoted::line(&crate::guard::redact::scrub(text).0);
    let mut out: String = line.trim().chars().take(max).collect();
    if line.trim().chars().count() > max {
        out.pop();
        out.push('…');
    }
    (!out.is_empty()).then_some(out)
}

/// The nearest marker at or above `dir` (canonical). A malformed one is an error naming
/// the file and what to write.
pub fn nearest(dir: &Path) -> Result<Option<Marker>> {
    for d in dir.ancestors() {
        let file = d.join(FILE);
        // Someone else's file: a FIFO, a device or a huge file is skipped, said once.
        let text = match crate::guard::untrusted::read_text(&file, MAX_BYTES) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(why) => {
                crate::guard::untrusted::report_once(&file, &why);
                return Err(Error::invalid("marker", format!("ignored {}: {why}", file.display())));
            }
        };
        let parsed: MarkerFile = toml::from_str(&text).map_err(|e| {
            Error::invalid(
                "marker",
                format!(
                    "{} is not a valid marker ({}); it needs project = \"slug\" and may have name, description and capture",
                    file.display(),
                    e.message()
                ),
            )
        })?;
        let project = parsed.project.trim().to_ascii_lowercase();
        crate::projects::slug::validate(&project).map_err(|e| {
            Error::invalid(
                "marker",
                format!("{}: project = \"{}\": {}", file.display(), parsed.project, e.message),
            )
        })?;
        return Ok(Some(Marker {
            dir: d.to_path_buf(),
            project,
            name: parsed.name.as_deref().and_then(|n| bounded(n, MAX_NAME_CHARS)),
            description: parsed.description.as_deref().and_then(|d| bounded(d, MAX_DESCRIPTION_CHARS)),
            capture: parsed.capture.unwrap_or(true),
        }));
    }
    Ok(None)
}

/// What markers did for a set of hints.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Applied {
    /// Projects a marker directory was bound to (the index must be reloaded).
    pub bound: Vec<String>,
    /// Markers naming projects that do not exist yet.
    pub offers: Vec<Marker>,
    /// Markers that could not be read (each a sentence naming the file and the fix);
    /// they are skipped, not fatal: resolution goes on without them.
    pub problems: Vec<String>,
    /// Each directory looked at (as its hint named it) with the marker above it: none
    /// when there is none or it could not be read. What capture asks of the marker
    /// (`capture = false`) is read here, so a hook's turn reads the file once.
    pub looked: Vec<(String, Option<Marker>)>,
}

impl Applied {
    /// The marker above `dir` as deciding saw it; `None` when deciding did not look.
    pub fn above(&self, dir: &str) -> Option<Option<&Marker>> {
        self.looked.iter().find(|(d, _)| d == dir).map(|(_, m)| m.as_ref())
    }
}

/// How long "no marker above this directory" is believed: a marker committed meanwhile
/// is seen within this time.
pub const UNMARKED_TTL: std::time::Duration = std::time::Duration::from_secs(5);

type Unmarked = std::sync::Mutex<std::collections::HashMap<String, std::time::Instant>>;

fn unmarked() -> &'static Unmarked {
    static SEEN: std::sync::OnceLock<Unmarked> = std::sync::OnceLock::new();
    SEEN.get_or_init(Default::default)
}

/// Whether every directory hint was looked at within [`UNMARKED_TTL`] and had no marker
/// above it: then [`apply`] has nothing to do, and callers skip it (and its thread).
pub fn known_unmarked(hints: &Hints) -> bool {
    let mut dirs = hints.workspace.iter().chain(hints.roots.iter()).chain(hints.cwd.iter()).peekable();
    dirs.peek().is_some() && dirs.all(|d| recently_unmarked(d))
}

fn recently_unmarked(raw: &str) -> bool {
    let seen = unmarked().lock().unwrap_or_else(|p| p.into_inner());
    seen.get(raw).is_some_and(|at| at.elapsed() < UNMARKED_TTL)
}

fn remember_unmarked(raw: &str) {
    let mut seen = unmarked().lock().unwrap_or_else(|p| p.into_inner());
    if seen.len() >= 4096 {
        seen.clear();
    }
    seen.insert(raw.to_owned(), std::time::Instant::now());
}

/// Look for markers above the directory hints (workspace, roots, working directory).
/// A marker closer to the directory than any registered code path wins: a known project
/// gets the marker's directory as a code path (event `marker_bound`); an unknown one is
/// offered for creation.
pub fn apply(store: &Store, index: &ProjectIndex, hints: &Hints) -> Result<Applied> {
    let mut out = Applied::default();
    let dirs = hints.workspace.iter().chain(hints.roots.iter()).chain(hints.cwd.iter());
    for raw in dirs {
        // Looked at moments ago and nothing above it: no walk.
        if recently_unmarked(raw) {
            out.looked.push((raw.clone(), None));
            continue;
        }
        let Ok(n) = crate::paths::normalize("workspace", raw, None) else { continue };
        if !n.exists {
            out.looked.push((raw.clone(), None));
            continue;
        }
        let marker = match nearest(&n.path) {
            Ok(Some(m)) => m,
            Ok(None) => {
                remember_unmarked(raw);
                out.looked.push((raw.clone(), None));
                continue;
            }
            Err(e) => {
                if !out.problems.contains(&e.message) {
                    out.problems.push(e.message);
                }
                out.looked.push((raw.clone(), None));
                continue;
            }
        };
        out.looked.push((raw.clone(), Some(marker.clone())));
        // A registered code path at or below the marker's directory is more specific.
        if index.match_path(&n.path).is_some_and(|hit| hit.code_path.starts_with(&marker.dir)) {
            continue;
        }
        match index.status(&marker.project) {
            Some(ProjectStatus::Archived) => {}
            Some(_) => {
                if bind(store, &marker)? && !out.bound.contains(&marker.project) {
                    out.bound.push(marker.project.clone());
                }
            }
            None => {
                if !out.offers.contains(&marker) {
                    out.offers.push(marker);
                }
            }
        }
    }
    Ok(out)
}

/// Add the marker's directory to its project; false when another project owns it.
fn bind(store: &Store, marker: &Marker) -> Result<bool> {
    let path = marker.dir.display().to_string();
    let edit = ProjectEdit { add_code_paths: vec![path.clone()], ..ProjectEdit::default() };
    match Registry::new(store).edit(&marker.project, edit) {
        Ok(_) => {
            store.write(|tx| {
                let id = crate::store::projects::by_slug(tx, &marker.project)?.map_or(0, |p| p.id);
                crate::store::events::record(
                    tx,
                    id,
                    &marker.project,
                    "marker_bound",
                    &json!({ "path": path, "marker": marker.dir.join(FILE) }),
                    &crate::humanize::now(),
                )
            })?;
            Ok(true)
        }
        Err(e) if e.code == crate::ErrorCode::Conflict => {
            tracing::info!(marker = %marker.dir.display(), reason = %e.message, "marker not bound");
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
