//! The project registry: every change validated in full, written in one transaction,
//! and recorded as an event.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rusqlite::Connection;
use serde::Serialize;
use serde_json::json;

use crate::error::{Error, Result};
use crate::guard::validate;
use crate::humanize::now;
use crate::model::{PathState, Project, ProjectStatus};
use crate::paths::{self, NormalizedPath};
use crate::projects::slug;
use crate::store::projects::{NewProjectRow, TextColumn};
use crate::store::{Store, code_paths, events, projects, settings};

pub mod clones;
mod fields;
pub use fields::SharedFields;
mod usage;

/// What `create` needs.
#[derive(Debug, Clone, Default)]
pub struct NewProject {
    /// Display name.
    pub name: String,
    /// Slug; generated from the name when absent.
    pub slug: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Code directories.
    pub code_paths: Vec<String>,
    /// Repository URL.
    pub repo_url: Option<String>,
    /// Notes directory.
    pub notes_path: Option<String>,
}

/// What `edit` may change; `None`/empty leaves a field alone, `Some("")` clears
/// `repo_url` and `notes_path`.
#[derive(Debug, Clone, Default)]
pub struct ProjectEdit {
    /// New display name.
    pub name: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// Code directories to add.
    pub add_code_paths: Vec<String>,
    /// Code directories to remove.
    pub remove_code_paths: Vec<String>,
    /// New notes directory.
    pub notes_path: Option<String>,
    /// New repository URL.
    pub repo_url: Option<String>,
    /// New status.
    pub status: Option<ProjectStatus>,
}

impl ProjectEdit {
    /// True when the edit asks for nothing.
    pub fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.description.is_none()
            && self.add_code_paths.is_empty()
            && self.remove_code_paths.is_empty()
            && self.notes_path.is_none()
            && self.repo_url.is_none()
            && self.status.is_none()
    }
}

/// A project after a change, with what changed and anything the person should know.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Changed {
    /// Fields that now differ (`name`, `code_paths`, `status`, …).
    pub updated_fields: Vec<String>,
    /// The project as stored now.
    pub project: Project,
    /// Sentences about accepted-but-odd input (a code path that does not exist yet).
    pub warnings: Vec<String>,
}

/// Registry operations over a [`Store`].
pub struct Registry<'a> {
    store: &'a Store,
    base_dir: Option<PathBuf>,
}

impl<'a> Registry<'a> {
    /// A registry that refuses relative paths (agents, the server).
    pub fn new(store: &'a Store) -> Self {
        Self { store, base_dir: None }
    }

    /// The store it works on.
    pub fn store(&self) -> &'a Store {
        self.store
    }

    /// Take relative paths against `dir` (a person's shell).
    pub fn with_base_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.base_dir = Some(dir.into());
        self
    }

    /// Create a project.
    pub fn create(&self, new: NewProject) -> Result<Changed> {
        let SharedFields { name, slug, description, repo_url } = SharedFields::check(&new)?;
        let mut warnings = Vec::new();
        let notes_path = self.notes_path(new.notes_path.as_deref(), &mut warnings)?;
        let paths = self.normalize_all("code_paths", &new.code_paths)?;
        // A project made from a checkout names its repository without being told.
        let repo_url =
            repo_url.or_else(|| paths.first().and_then(|p| crate::projects::git::remote_of(&p.path)));

        self.store.write(|tx| {
            if projects::slug_exists(tx, &slug)? {
                let free = slug::next_free(&slug, |s| projects::slug_exists(tx, s).unwrap_or(true));
                return Err(Error::conflict(
                    "slug",
                    format!("slug '{slug}' is already taken; choose another, e.g. --slug {free}"),
                ));
            }
            let stamp = now();
            let id = projects::insert(
                tx,
                &NewProjectRow {
                    slug: &slug,
                    name: &name,
                    description: &description,
                    repo_url: repo_url.as_deref(),
                    notes_path: notes_path.as_deref(),
                    now: &stamp,
                },
            )?;
            events::record(tx, id, &slug, "created", &json!({ "name": name }), &stamp)?;
            for p in &paths {
                add_path(tx, "code_paths", id, &slug, p, &stamp, &mut warnings)?;
            }
            let project = load(tx, id)?;
            Ok(Changed { updated_fields: Vec::new(), project, warnings })
        })
    }

    /// One project by slug.
    pub fn get(&self, slug: &str) -> Result<Project> {
        self.store.read(|c| find(c, "project", slug))
    }

    /// Projects, all or with one status.
    pub fn list(&self, status: Option<ProjectStatus>) -> Result<Vec<Project>> {
        self.store.read(|c| projects::list(c, status))
    }

    /// Change several fields in one transaction.
    pub fn edit(&self, slug: &str, edit: ProjectEdit) -> Result<Changed> {
        if edit.is_empty() {
            return Err(Error::invalid(
                "edit",
                "nothing to change; give at least one of name, description, add_code_paths, \
                 remove_code_paths, notes_path, repo_url, status",
            ));
        }
        let name = edit.name.as_deref().map(validate::name).transpose()?;
        let description = edit.description.as_deref().map(validate::description).transpose()?;
        let repo_url = edit.repo_url.as_deref().map(validate::repo_url).transpose()?;
        let mut warnings = Vec::new();
        let notes_path = match edit.notes_path.as_deref() {
            Some(raw) => Some(self.notes_path(Some(raw), &mut warnings)?),
            None => None,
        };
        let adds = self.normalize_all("add_code_paths", &edit.add_code_paths)?;
        let guessed_repo = match &repo_url {
            None => adds.first().and_then(|p| crate::projects::git::remote_of(&p.path)),
            Some(_) => None,
        };
        let removes: Vec<(String, Option<NormalizedPath>)> = edit
            .remove_code_paths
            .iter()
            .map(|raw| {
                (
                    raw.trim().to_owned(),
                    paths::normalize("remove_code_paths", raw, self.base_dir.as_deref()).ok(),
                )
            })
            .collect();

        let changes_fields = name.is_some()
            || description.is_some()
            || repo_url.is_some()
            || notes_path.is_some()
            || !adds.is_empty()
            || !removes.is_empty();
        self.store.write(|tx| {
            let before = find(tx, "project", slug)?;
            // Archived is read-only, its description and paths included, unless the same
            // edit brings it back.
            if before.status == ProjectStatus::Archived
                && changes_fields
                && edit.status.is_none_or(|s| s == ProjectStatus::Archived)
            {
                return Err(Error::conflict(
                    "status",
                    format!(
                        "project '{}' is archived and read-only; resume it first, or in the same edit \
                         (status \"active\", or mooring projects {} --status active)",
                        before.slug, before.slug
                    ),
                ));
            }
            let id = before.id;
            let slug = before.slug.as_str();
            let stamp = now();
            let mut fields = Vec::new();
            let mut set = |col: TextColumn, old: Option<&str>, new: Option<&str>| -> Result<()> {
                if old != new {
                    projects::set_text(tx, id, col, new, &stamp)?;
                    fields.push(col.name().to_owned());
                }
                Ok(())
            };
            if let Some(n) = &name {
                set(TextColumn::Name, Some(&before.name), Some(n))?;
            }
            if let Some(d) = &description {
                set(TextColumn::Description, Some(&before.description), Some(d))?;
            }
            if let Some(u) = &repo_url {
                set(
                    TextColumn::RepoUrl,
                    before.repo_url.as_deref(),
                    u.as_deref(),
                )?;
            } else if before.repo_url.is_none()
                && let Some(g) = &guessed_repo
            {
                set(TextColumn::RepoUrl, None, Some(g))?;
            }
            if let Some(p) = &notes_path {
                set(
                    TextColumn::NotesPath,
                    before.notes_path.as_deref(),
                    p.as_deref(),
                )?;
            }
            let mut paths_changed = false;
            for (raw, normalized) in &removes {
                let candidates = normalized.iter().map(|n| n.as_str()).chain([raw.as_str()]);
                let mut removed = false;
                for candidate in candidates {
                    if code_paths::remove(tx, id, candidate)? {
                        events::record(
                            tx,
                            id,
                            slug,
                            "code_path_removed",
                            &json!({ "path": candidate }),
                            &stamp,
                        )?;
                        removed = true;
                        break;
                    }
                }
                if !removed {
                    let known: Vec<&str> =
                        before.code_paths.iter().map(|c| c.path.as_str()).collect();
                    let list = if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    };
                    return Err(Error::not_found(
                        "remove_code_paths",
                        format!(
                            "remove_code_paths: '{raw}' is not a code path of '{slug}'; its code paths are: {list}"
                        ),
                    ));
                }
                paths_changed = true;
            }
            for p in &adds {
                paths_changed |= add_path(tx, "add_code_paths", id, slug, p, &stamp, &mut warnings)?;
            }
            if paths_changed {
                projects::touch(tx, id, &stamp)?;
                fields.push("code_paths".to_owned());
            }
            if let Some(status) = edit.status.filter(|s| *s != before.status) {
                projects::set_status(tx, id, status, &stamp)?;
                let kind = match status {
                    ProjectStatus::Archived => "archived",
                    ProjectStatus::Paused => "paused",
                    ProjectStatus::Active => "resumed",
                };
                events::record(
                    tx,
                    id,
                    slug,
                    kind,
                    &json!({ "from": before.status }),
                    &stamp,
                )?;
                fields.push("status".to_owned());
            }
            let text_fields: Vec<&String> = fields
                .iter()
                .filter(|f| *f != "code_paths" && *f != "status")
                .collect();
            if !text_fields.is_empty() {
                events::record(
                    tx,
                    id,
                    slug,
                    "edited",
                    &json!({ "fields": text_fields }),
                    &stamp,
                )?;
            }
            Ok(Changed {
                updated_fields: fields,
                project: load(tx, id)?,
                warnings,
            })
        })
    }

    /// Archive: out of pickers and resolution, every record kept.
    pub fn archive(&self, slug: &str) -> Result<Changed> {
        self.set_status(slug, ProjectStatus::Archived)
    }

    /// Bring an archived or paused project back to active.
    pub fn resume(&self, slug: &str) -> Result<Changed> {
        self.set_status(slug, ProjectStatus::Active)
    }

    fn set_status(&self, slug: &str, status: ProjectStatus) -> Result<Changed> {
        self.edit(slug, ProjectEdit { status: Some(status), ..ProjectEdit::default() })
    }

    /// Delete a project and everything it owns. The event log keeps a record.
    pub fn delete(&self, slug: &str) -> Result<Project> {
        self.store.write(|tx| {
            let project = find(tx, "project", slug)?;
            events::record(
                tx,
                project.id,
                &project.slug,
                "deleted",
                &json!({ "name": project.name }),
                &now(),
            )?;
            if settings::get(tx, settings::FOCUS_PROJECT)?.as_deref() == Some(project.slug.as_str()) {
                settings::clear(tx, settings::FOCUS_PROJECT)?;
            }
            projects::delete(tx, project.id)?;
            Ok(project)
        })
    }

    fn notes_path(&self, raw: Option<&str>, warnings: &mut Vec<String>) -> Result<Option<String>> {
        let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else {
            return Ok(None);
        };
        let n = paths::normalize("notes_path", raw, self.base_dir.as_deref())?;
        if !n.exists {
            warnings.push(format!("notes path {} does not exist yet", n.path.display()));
        }
        Ok(Some(n.as_str().to_owned()))
    }

    fn normalize_all(&self, field: &str, raw: &[String]) -> Result<Vec<NormalizedPath>> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for r in raw {
            let n = paths::normalize(field, r, self.base_dir.as_deref())?;
            paths::check_claimable(field, &n.path)?;
            if seen.insert(n.path.clone()) {
                out.push(n);
            }
        }
        Ok(out)
    }
}

/// Look a project up by slug, with its code paths and counts, or say which slugs exist.
pub fn find(conn: &Connection, field: &str, slug: &str) -> Result<Project> {
    projects::complete(conn, projects::find_row(conn, field, slug)?)
}

fn load(conn: &Connection, id: i64) -> Result<Project> {
    projects::by_id(conn, id)?
        .ok_or_else(|| Error::storage("the project vanished during the change; try again"))
}

/// Add one normalized path; false when the project already had it.
fn add_path(
    tx: &Connection,
    field: &str,
    id: i64,
    slug: &str,
    p: &NormalizedPath,
    stamp: &str,
    warnings: &mut Vec<String>,
) -> Result<bool> {
    if let Some((owner_id, owner)) = code_paths::owner(tx, p.as_str())? {
        if owner_id == id {
            warnings.push(format!("{} is already a code path of '{slug}'", p.path.display()));
            return Ok(false);
        }
        return Err(Error::conflict(
            field,
            format!(
                "{} already belongs to project '{owner}'; remove it there first \
                 (mooring projects {owner} --remove-code-path {})",
                p.path.display(),
                p.path.display()
            ),
        ));
    }
    let state = if p.exists {
        PathState::Present
    } else {
        warnings
            .push(format!("code path {} does not exist yet; it will resolve once it does", p.path.display()));
        PathState::Missing
    };
    code_paths::insert(tx, id, p.as_str(), state, stamp)?;
    events::record(tx, id, slug, "code_path_added", &json!({ "path": p.as_str() }), stamp)?;
    Ok(true)
}
