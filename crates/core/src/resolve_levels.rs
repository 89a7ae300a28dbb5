//! What each level of the resolution order makes of its input.

use super::{GitFacts, Hints, Level, Outcome, ProjectIndex};
use crate::model::ProjectStatus;
use crate::paths;

pub(super) type Eval = (Option<String>, Outcome, Option<String>, String);

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
        return (None, Outcome::NotGiven, None, "not in a linked git worktree".to_owned());
    };
    let seen = Some(facts.checkout.display().to_string());
    match index.match_path(main) {
        Some(hit) => (
            seen,
            Outcome::Matched,
            Some(hit.slug.clone()),
            format!(
                "worktree of {}, inside code path {} of '{}'",
                main.display(),
                hit.code_path.display(),
                hit.slug
            ),
        ),
        None => {
            (seen, Outcome::NoMatch, None, format!("worktree of {}, which is in no project", main.display()))
        }
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
        return (None, Outcome::NotGiven, None, "no git remote".to_owned());
    };
    let seen = Some(url.clone());
    match remote_hits(index, hints).as_slice() {
        [] => (seen, Outcome::NoMatch, None, format!("no project's repository is {url}")),
        [one] => (
            seen,
            Outcome::Matched,
            Some(one.clone()),
            format!("a clone of {url}, the repository of '{one}'"),
        ),
        many => (
            seen,
            Outcome::Ambiguous,
            None,
            format!("{url} is the repository of several projects ({}); choose one", many.join(", ")),
        ),
    }
}

fn by_slug(index: &ProjectIndex, input: Option<&str>) -> Eval {
    let Some(raw) = input.map(str::trim).filter(|s| !s.is_empty()) else {
        return (None, Outcome::NotGiven, None, "not given".to_owned());
    };
    let slug = raw.to_ascii_lowercase();
    let seen = Some(raw.to_owned());
    match index.status(&slug) {
        None => (seen, Outcome::Rejected, None, format!("no project '{raw}' exists")),
        Some(ProjectStatus::Archived) => {
            (seen, Outcome::Rejected, None, format!("project '{slug}' is archived; resume it to work in it"))
        }
        Some(_) => (seen, Outcome::Matched, Some(slug.clone()), format!("names project '{slug}'")),
    }
}

fn by_path(index: &ProjectIndex, field: &str, input: Option<&str>) -> Eval {
    let Some(raw) = input.map(str::trim).filter(|s| !s.is_empty()) else {
        return (None, Outcome::NotGiven, None, "not given".to_owned());
    };
    let seen = Some(raw.to_owned());
    match paths::normalize(field, raw, None) {
        Err(e) => (seen, Outcome::Rejected, None, e.message),
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
            (seen, Outcome::NoMatch, None, detail)
        }
        Ok(n) => match index.match_path(&n.path) {
            Some(hit) => (
                seen,
                Outcome::Matched,
                Some(hit.slug.clone()),
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
                (seen, Outcome::NoMatch, None, detail)
            }
        },
    }
}

fn by_roots(index: &ProjectIndex, roots: &[String]) -> Eval {
    if roots.is_empty() {
        return (None, Outcome::NotGiven, None, "none declared".to_owned());
    }
    let seen = Some(roots.join(", "));
    match roots_hits(index, roots).as_slice() {
        [] => (seen, Outcome::NoMatch, None, "no root is inside a project's code path".to_owned()),
        [one] => {
            (seen, Outcome::Matched, Some(one.clone()), format!("a root is inside a code path of '{one}'"))
        }
        many => (
            seen,
            Outcome::Ambiguous,
            None,
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
