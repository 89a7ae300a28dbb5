//! The likeliest project for a session that nothing decided: the one its workspace points
//! at (a directory named like the project, or a sibling of the project's code), then the
//! most recently used.

use std::path::{Component, Path};

use crate::model::{Project, ProjectStatus};

/// How strongly a workspace points at a project; higher wins, 0 is no signal.
fn score(project: &Project, workspace: &Path) -> u8 {
    let name_hit = workspace
        .components()
        .rev()
        .take(2)
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str().map(crate::projects::slug::suggestion),
            _ => None,
        })
        .map(|dir| {
            if dir == project.slug {
                4
            } else if dir.starts_with(&format!("{}-", project.slug)) || dir.contains(&project.slug) {
                3
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0);
    if name_hit > 0 {
        return name_hit;
    }
    // A checkout next to one of the project's code paths (same parent, e.g. a second
    // worktree) is a weaker hint. Shallow shared prefixes ("/home/me") say nothing.
    let depth = workspace.components().count();
    let near = project.code_paths.iter().any(|cp| {
        let shared =
            Path::new(&cp.path).components().zip(workspace.components()).take_while(|(a, b)| a == b).count();
        shared >= 4 && shared + 1 >= depth
    });
    u8::from(near) * 2
}

/// The recommended slug among `candidates` (ordered most recently used first).
pub fn recommend(candidates: &[Project], workspace: Option<&Path>) -> Option<String> {
    let by_workspace = workspace.and_then(|ws| {
        candidates
            .iter()
            .map(|p| (score(p, ws), p))
            .filter(|(s, _)| *s > 0)
            // max_by_key keeps the last of equals; reverse so recency breaks ties.
            .rev()
            .max_by_key(|(s, p)| (*s, p.status == ProjectStatus::Active))
            .map(|(_, p)| p)
    });
    by_workspace
        .or_else(|| candidates.iter().find(|p| p.status == ProjectStatus::Active))
        .or(candidates.first())
        .map(|p| p.slug.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CodePath, PathState};

    fn project(slug: &str, paths: &[&str], status: ProjectStatus) -> Project {
        let code_paths = paths
            .iter()
            .map(|p| CodePath { path: (*p).into(), state: PathState::Present, last_seen_at: None })
            .collect();
        Project { slug: slug.into(), name: slug.into(), status, code_paths, ..Project::default() }
    }

    #[test]
    fn recency_decides_without_a_workspace() {
        let c = [
            project("paused-one", &[], ProjectStatus::Paused),
            project("recent", &[], ProjectStatus::Active),
            project("older", &[], ProjectStatus::Active),
        ];
        assert_eq!(recommend(&c, None).as_deref(), Some("recent"));
        assert_eq!(recommend(&c, Some(Path::new("/srv/unrelated/dir"))).as_deref(), Some("recent"));
        assert_eq!(recommend(&[], None), None);
    }

    #[test]
    fn a_directory_named_like_the_project_wins_over_recency() {
        let c =
            [project("recent", &[], ProjectStatus::Active), project("billing", &[], ProjectStatus::Active)];
        let ws = Path::new("/home/me/src/Billing");
        assert_eq!(recommend(&c, Some(ws)).as_deref(), Some("billing"));
        let ws = Path::new("/home/me/src/billing-v2/web");
        assert_eq!(recommend(&c, Some(ws)).as_deref(), Some("billing"), "parent directory named like it");
    }

    #[test]
    fn exact_name_beats_a_longer_one_and_a_sibling_checkout_counts() {
        let c = [
            project("api", &[], ProjectStatus::Active),
            project("api-gateway", &[], ProjectStatus::Active),
            project("shop", &["/home/me/work/storefront-main"], ProjectStatus::Active),
        ];
        assert_eq!(recommend(&c, Some(Path::new("/x/api-gateway"))).as_deref(), Some("api-gateway"));
        let sibling = Path::new("/home/me/work/storefront-feature");
        assert_eq!(recommend(&c, Some(sibling)).as_deref(), Some("shop"));
        // Sharing only /home/me is no hint: recency decides.
        assert_eq!(recommend(&c, Some(Path::new("/home/me/elsewhere/thing"))).as_deref(), Some("api"));
    }

    #[test]
    fn ties_go_to_the_recent_active_project() {
        let c = [
            project("web", &["/w/a/b/one"], ProjectStatus::Paused),
            project("web-two", &["/w/a/b/two"], ProjectStatus::Active),
            project("web-three", &["/w/a/b/three"], ProjectStatus::Active),
        ];
        assert_eq!(recommend(&c, Some(Path::new("/w/a/b/four"))).as_deref(), Some("web-two"));
    }
}
