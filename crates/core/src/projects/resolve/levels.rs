//! What each level of the resolution order makes of its input.

use super::{GitFacts, Hints, Level, Outcome, ProjectIndex};
use crate::model::ProjectStatus;
use crate::paths;

/// What one level made of its input.
pub(super) struct Eval {
    /// What the level saw, as given.
    pub input: Option<String>,
    /// What it made of it.
    pub outcome: Outcome,
    /// The project it points at, when it matched.
    pub project: Option<String>,
    /// One sentence: how it matched or why not.
    pub detail: String,
}

impl Eval {
    /// Nothing to look at on this level.
    fn not_given(detail: impl Into<String>) -> Self {
        Self { input: None, outcome: Outcome::NotGiven, project: None, detail: detail.into() }
    }

    /// `input` names `project`.
    fn matched(input: Option<String>, project: String, detail: String) -> Self {
        Self { input, outcome: Outcome::Matched, project: Some(project), detail }
    }

    /// `input` decides nothing: `outcome` says why.
    fn saw(input: Option<String>, outcome: Outcome, detail: impl Into<String>) -> Self {
        Self { input, outcome, project: None, detail: detail.into() }
    }
}

pub(super) fn evaluate(index: &ProjectIndex, hints: &Hints, level: Level) -> Eval {
    match level {
        Level::Explicit => by_slug(index, hints.explicit.as_deref()),
        Level::Session => by_slug(index, hints.session.as_deref()),
        Level::Env => by_slug(index, hints.env_project.as_deref()),
        Level::Focus => by_slug(index, hints.focus.as_deref()),
        Level::Workspace => by_path(index, "workspace_id", hints.workspace.as_deref()),
        Level::Cwd => by_path(index, "cwd", hints.cwd.as_deref()),
        Level::Roots => by_roots(index, &hints.roots),
        Level::GitWorktree => by_worktree(index, hints.git.as_ref()),
        Level::GitRemote => by_remote(index, hints),
    }
}

fn by_worktree(index: &ProjectIndex, git: Option<&GitFacts>) -> Eval {
    let Some((facts, main)) = git.and_then(|g| Some((g, g.main_checkout.as_ref()?))) else {
        return Eval::not_given("not in a linked git worktree".to_owned());
    };
    let seen = Some(facts.checkout.display().to_string());
    match index.match_path(main) {
        Some(hit) => Eval::matched(
            seen,
            hit.slug.clone(),
            format!(
                "worktree of {}, inside code path {} of '{}'",
                main.display(),
                hit.code_path.display(),
                hit.slug
            ),
        ),
        None => Eval::saw(
            seen,
            Outcome::NoMatch,
            format!("worktree of {}, which is in no project", main.display()),
        ),
    }
}

pub(super) fn remote_hits(index: &ProjectIndex, hints: &Hints) -> Vec<String> {
    hints
        .git
        .as_ref()
        .and_then(|g| g.remote_key.as_deref())
        .map(|k| index.projects_with_remote(k))
        .unwrap_or_default()
}

fn by_remote(index: &ProjectIndex, hints: &Hints) -> Eval {
    let Some(url) = hints.git.as_ref().and_then(|g| g.remote_url.clone()) else {
        return Eval::not_given("no git remote".to_owned());
    };
    let seen = Some(url.clone());
    match remote_hits(index, hints).as_slice() {
        [] => Eval::saw(seen, Outcome::NoMatch, format!("no project's repository is {url}")),
        [one] => Eval::matched(seen, one.clone(), format!("a clone of {url}, the repository of '{one}'")),
        many => Eval::saw(
            seen,
            Outcome::Ambiguous,
            format!("{url} is the repository of several projects ({}); choose one", many.join(", ")),
        ),
    }
}

fn by_slug(index: &ProjectIndex, input: Option<&str>) -> Eval {
    let Some(raw) = input.map(str::trim).filter(|s| !s.is_empty()) else {
        return Eval::not_given("not given".to_owned());
    };
    let slug = raw.to_ascii_lowercase();
    let seen = Some(raw.to_owned());
    match index.status(&slug) {
        None => Eval::saw(seen, Outcome::Rejected, format!("no project '{raw}' exists")),
        Some(ProjectStatus::Archived) => Eval::saw(
            seen,
            Outcome::Rejected,
            format!("project '{slug}' is archived; resume it to work in it"),
        ),
        Some(_) => Eval::matched(seen, slug.clone(), format!("names project '{slug}'")),
    }
}

fn by_path(index: &ProjectIndex, field: &str, input: Option<&str>) -> Eval {
    let Some(raw) = input.map(str::trim).filter(|s| !s.is_empty()) else {
        return Eval::not_given("not given".to_owned());
    };
    let seen = Some(raw.to_owned());
    match paths::normalize(field, raw, None) {
        Err(e) => Eval::saw(seen, Outcome::Rejected, e.message),
        // The working directory of a shim an editor started in the home directory or `/`
        // counts only when a code path is exactly that directory.
        Ok(n)
            if field == "cwd"
                && paths::is_meaningless_dir(&n.path)
                && index.match_path(&n.path).is_none_or(|hit| hit.code_path != n.path) =>
        {
            let what = if n.path.parent().is_none() { "the file-system root" } else { "your home directory" };
            let detail = format!(
                "{} is {what}, where editors start servers; it says nothing about the project (pass the \
                 folder with --workspace-id)",
                n.path.display()
            );
            Eval::saw(seen, Outcome::NoMatch, detail)
        }
        Ok(n) => match index.match_path(&n.path) {
            Some(hit) => Eval::matched(
                seen,
                hit.slug.clone(),
                format!(
                    "{} is inside code path {} of '{}'",
                    n.path.display(),
                    hit.code_path.display(),
                    hit.slug
                ),
            ),
            None => {
                let mut detail = format!("{} is inside no project's code path", n.path.display());
                if let Some(skipped) = index.skipped_missing(&n.path) {
                    detail = format!(
                        "{}; code path {} of '{}' was skipped because it is missing (moved or deleted)",
                        detail,
                        skipped.code_path.display(),
                        skipped.slug
                    );
                }
                Eval::saw(seen, Outcome::NoMatch, detail)
            }
        },
    }
}

fn by_roots(index: &ProjectIndex, roots: &[String]) -> Eval {
    if roots.is_empty() {
        return Eval::not_given("none declared".to_owned());
    }
    let seen = Some(roots.join(", "));
    match roots_hits(index, roots).as_slice() {
        [] => Eval::saw(seen, Outcome::NoMatch, "no root is inside a project's code path".to_owned()),
        [one] => Eval::matched(seen, one.clone(), format!("a root is inside a code path of '{one}'")),
        many => Eval::saw(
            seen,
            Outcome::Ambiguous,
            format!("roots point at several projects ({}); choose one", many.join(", ")),
        ),
    }
}

/// The projects the roots point at, in the order the roots were given.
pub(super) fn roots_hits(index: &ProjectIndex, roots: &[String]) -> Vec<String> {
    let mut hits: Vec<String> = Vec::new();
    for root in roots {
        if let Ok(n) = paths::normalize("roots", root, None)
            && let Some(hit) = index.match_path(&n.path)
            && !hits.contains(&hit.slug)
        {
            hits.push(hit.slug);
        }
    }
    hits
}
