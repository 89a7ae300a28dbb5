//! Which project a session is in: the resolution order (docs/architecture.md), as a pure
//! function from the hints a session has to a decision with every level explained.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::model::{PathState, ProjectStatus};
use crate::projects::git::{GitFacts, normalize_remote};
use crate::store::{code_paths, projects};

/// Everything a session may tell us, highest priority first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Hints {
    /// 1. `project` argument of the tool call.
    pub explicit: Option<String>,
    /// 2. The session's own choice.
    pub session: Option<String>,
    /// 3. `X-Workspace-Id` header or `--workspace-id` (a path or `file://` URI).
    pub workspace: Option<String>,
    /// 4. `MOORING_PROJECT` of the stdio process.
    pub env_project: Option<String>,
    /// 5. MCP roots (`file://` URIs or paths).
    pub roots: Vec<String>,
    /// 6. Working directory of the stdio process.
    pub cwd: Option<String>,
    /// 9. The focus project clicked last in the tray.
    pub focus: Option<String>,
    /// 7 and 8: what git says about the session's directory (read by the caller with
    /// [`crate::projects::git::facts`]; none when not looked up).
    #[serde(skip)]
    #[schemars(skip)]
    pub git: Option<GitFacts>,
}

/// A level of the resolution order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// `project` argument.
    Explicit,
    /// Session choice.
    Session,
    /// Workspace header or flag.
    Workspace,
    /// `MOORING_PROJECT`.
    Env,
    /// MCP roots.
    Roots,
    /// Working directory.
    Cwd,
    /// A linked git worktree of a project's checkout.
    GitWorktree,
    /// A clone whose remote is a project's repository.
    GitRemote,
    /// Focus project.
    Focus,
}

impl Level {
    /// Every level, highest priority first.
    pub const ORDER: [Level; 9] = [
        Self::Explicit,
        Self::Session,
        Self::Workspace,
        Self::Env,
        Self::Roots,
        Self::Cwd,
        Self::GitWorktree,
        Self::GitRemote,
        Self::Focus,
    ];

    /// Words for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::Explicit => "explicit project argument",
            Self::Session => "session choice",
            Self::Workspace => "workspace id",
            Self::Env => "MOORING_PROJECT",
            Self::Roots => "MCP roots",
            Self::Cwd => "working directory",
            Self::GitWorktree => "git worktree",
            Self::GitRemote => "git remote",
            Self::Focus => "focus project",
        }
    }

    /// The name used in JSON (`cwd`, `roots`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Explicit => "explicit",
            Self::Session => "session",
            Self::Workspace => "workspace",
            Self::Env => "env",
            Self::Roots => "roots",
            Self::Cwd => "cwd",
            Self::GitWorktree => "git_worktree",
            Self::GitRemote => "git_remote",
            Self::Focus => "focus",
        }
    }
}

/// What one level made of its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// No input at this level.
    NotGiven,
    /// The input names a usable project.
    Matched,
    /// The input is fine but no project matches it.
    NoMatch,
    /// The input is unusable (unknown or archived project, bad path).
    Rejected,
    /// The input points at several projects.
    Ambiguous,
}

/// One line of the explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LevelReport {
    /// 1 to 9.
    pub rank: u8,
    /// Which level.
    pub level: Level,
    /// The level in words.
    pub label: String,
    /// What the level saw, as given.
    pub input: Option<String>,
    /// What it made of it.
    pub outcome: Outcome,
    /// The project it points at, when it matched.
    pub project: Option<String>,
    /// One sentence: how it matched or why not.
    pub detail: String,
    /// Whether this level decided.
    pub decided: bool,
    /// The projects an ambiguous level pointed at (several roots, several projects).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// The decision and its explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Resolution {
    /// The project, or none (pending).
    pub project: Option<String>,
    /// The level that decided.
    pub decided_by: Option<Level>,
    /// Every level, highest first.
    pub levels: Vec<LevelReport>,
}

#[derive(Debug, Clone)]
struct PathEntry {
    slug: String,
    state: PathState,
}

/// Projects and code paths in the shape resolution needs: lookups by slug, and by
/// canonical path so a match costs O(path depth), not O(projects).
#[derive(Debug, Clone, Default)]
pub struct ProjectIndex {
    projects: HashMap<String, ProjectStatus>,
    paths: HashMap<PathBuf, PathEntry>,
    /// Normalized repository URL → the projects that name it.
    remotes: HashMap<String, Vec<String>>,
}

/// A path that matched a code path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathHit {
    /// Owner's slug.
    pub slug: String,
    /// The registered code path that matched.
    pub code_path: PathBuf,
}

impl ProjectIndex {
    /// Build from the store.
    pub fn load(conn: &Connection) -> Result<Self> {
        let mut index = Self::default();
        for (slug, status, repo_url) in projects::statuses_and_repos(conn)? {
            index.add_project(&slug, status);
            if let Some(url) = repo_url {
                index.add_remote(&url, &slug);
            }
        }
        for cp in code_paths::all(conn)? {
            index.add_path(PathBuf::from(cp.path), &cp.slug, cp.state);
        }
        Ok(index)
    }

    /// Register a project.
    pub fn add_project(&mut self, slug: &str, status: ProjectStatus) {
        self.projects.insert(slug.to_owned(), status);
    }

    /// Register a project's repository URL.
    pub fn add_remote(&mut self, url: &str, slug: &str) {
        if let Some(key) = normalize_remote(url) {
            let slugs = self.remotes.entry(key).or_default();
            if !slugs.iter().any(|s| s == slug) {
                slugs.push(slug.to_owned());
            }
        }
    }

    /// The usable projects whose repository is `key` (a normalized URL).
    pub fn projects_with_remote(&self, key: &str) -> Vec<String> {
        let mut slugs: Vec<String> = self
            .remotes
            .get(key)
            .into_iter()
            .flatten()
            .filter(|s| self.status(s).is_some_and(|st| st != ProjectStatus::Archived))
            .cloned()
            .collect();
        slugs.sort();
        slugs
    }

    /// Register a canonical code path.
    pub fn add_path(&mut self, path: PathBuf, slug: &str, state: PathState) {
        self.paths.insert(path, PathEntry { slug: slug.to_owned(), state });
    }

    /// Status of a project, if it exists.
    pub fn status(&self, slug: &str) -> Option<ProjectStatus> {
        self.projects.get(slug).copied()
    }

    /// The deepest code path containing `path` that was skipped because it is missing.
    pub fn skipped_missing(&self, path: &Path) -> Option<PathHit> {
        let hit = self.match_path(path);
        let stop = hit.as_ref().map(|h| h.code_path.as_path());
        path.ancestors().take_while(|dir| Some(*dir) != stop).find_map(|dir| {
            let entry = self.paths.get(dir)?;
            (entry.state == PathState::Missing)
                .then(|| PathHit { slug: entry.slug.clone(), code_path: dir.to_path_buf() })
        })
    }

    /// The deepest usable code path containing `path` (canonical), by whole components.
    pub fn match_path(&self, path: &Path) -> Option<PathHit> {
        let exists = path.exists();
        path.ancestors().find_map(|dir| {
            let entry = self.paths.get(dir)?;
            // A directory marked missing that now contains an existing path is back.
            let usable = entry.state == PathState::Present || exists;
            let active = self.status(&entry.slug).is_some_and(|s| s != ProjectStatus::Archived);
            (usable && active).then(|| PathHit { slug: entry.slug.clone(), code_path: dir.to_path_buf() })
        })
    }
}

/// Decide the project from the hints: the first level that matches wins; every level
/// is still reported so a person can see what each would have said.
pub fn resolve(index: &ProjectIndex, hints: &Hints) -> Resolution {
    let mut levels: Vec<LevelReport> = Level::ORDER
        .iter()
        .enumerate()
        .map(|(i, &level)| {
            let Eval { input, outcome, project, detail } = evaluate(index, hints, level);
            let candidates = match (&outcome, level) {
                (Outcome::Ambiguous, Level::Roots) => roots_hits(index, &hints.roots),
                (Outcome::Ambiguous, Level::GitRemote) => remote_hits(index, hints),
                _ => Vec::new(),
            };
            LevelReport {
                rank: u8::try_from(i + 1).unwrap_or(u8::MAX),
                level,
                label: level.label().to_owned(),
                input,
                outcome,
                project,
                detail,
                decided: false,
                candidates,
            }
        })
        .collect();
    let winner = levels.iter_mut().find(|l| l.outcome == Outcome::Matched);
    let (project, decided_by) = match winner {
        Some(w) => {
            w.decided = true;
            (w.project.clone(), Some(w.level))
        }
        None => (None, None),
    };
    Resolution { project, decided_by, levels }
}

mod levels;
use levels::{Eval, evaluate, remote_hits, roots_hits};

/// The git facts of a session's directory: its workspace, else its first root, else its
/// working directory (the home directory and `/` say nothing, so they are skipped).
pub fn git_facts(hints: &Hints) -> Option<GitFacts> {
    let dirs = hints.workspace.iter().chain(hints.roots.iter()).chain(hints.cwd.iter());
    for raw in dirs {
        let Ok(n) = crate::paths::normalize("workspace", raw, None) else { continue };
        if n.exists && !crate::paths::is_meaningless_dir(&n.path) {
            return crate::projects::git::facts(&n.path);
        }
    }
    None
}

#[cfg(test)]
mod tests;
