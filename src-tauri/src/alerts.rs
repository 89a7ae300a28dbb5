//! Which desktop notifications to raise, from one look at the state to the next: a
//! question that timed out, a code path that went missing. Pure, so it is unit-tested;
//! the tray's refresh loop feeds it and shows what it returns.

use std::collections::{BTreeMap, BTreeSet};

use mooring_core::{ChoiceStatus, PathState, Project};

/// A notification to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    /// First line.
    pub title: String,
    /// Second line.
    pub body: String,
}

/// What was seen last time.
#[derive(Debug, Default)]
pub struct LastLook {
    primed: bool,
    open_questions: BTreeMap<String, String>,
    missing: BTreeSet<(String, String)>,
}

impl LastLook {
    /// Compare with the current state. `open` maps each open question's id to its title;
    /// `final_status` tells how a question that left the list ended. The first call only
    /// records: what was already missing at start-up is in the dashboard, not a popup.
    pub fn update(
        &mut self,
        open: BTreeMap<String, String>,
        projects: &[Project],
        final_status: impl Fn(&str) -> Option<ChoiceStatus>,
    ) -> Vec<Alert> {
        let missing: BTreeSet<(String, String)> = projects
            .iter()
            .flat_map(|p| {
                p.code_paths
                    .iter()
                    .filter(|c| c.state == PathState::Missing)
                    .map(|c| (p.slug.clone(), c.path.clone()))
            })
            .collect();
        let mut alerts = Vec::new();
        if self.primed {
            for (id, title) in &self.open_questions {
                if !open.contains_key(id) && final_status(id) == Some(ChoiceStatus::TimedOut) {
                    alerts.push(Alert {
                        title: "A question timed out".into(),
                        body: format!("“{title}” got no answer in time; the agent was told."),
                    });
                }
            }
            for (slug, path) in missing.difference(&self.missing) {
                alerts.push(Alert {
                    title: format!("A code path of {slug} went missing"),
                    body: format!("{path} is gone; sessions there are no longer resolved to {slug}."),
                });
            }
        }
        self.primed = true;
        self.open_questions = open;
        self.missing = missing;
        alerts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mooring_core::CodePath;

    fn project(slug: &str, paths: &[(&str, PathState)]) -> Project {
        let code_paths = paths
            .iter()
            .map(|(p, s)| CodePath { path: (*p).into(), state: *s, last_seen_at: None })
            .collect();
        Project { slug: slug.into(), code_paths, ..Project::default() }
    }

    fn open(items: &[(&str, &str)]) -> BTreeMap<String, String> {
        items.iter().map(|(a, b)| ((*a).into(), (*b).into())).collect()
    }

    #[test]
    fn nothing_is_announced_at_start_up() {
        let mut seen = LastLook::default();
        let p = [project("web", &[("/gone", PathState::Missing)])];
        assert!(seen.update(open(&[("q1", "Deploy?")]), &p, |_| None).is_empty());
    }

    #[test]
    fn a_timed_out_question_is_announced_once_and_an_answered_one_not_at_all() {
        let mut seen = LastLook::default();
        seen.update(open(&[("q1", "Deploy?"), ("q2", "Which DB?")]), &[], |_| None);
        let status =
            |id: &str| Some(if id == "q1" { ChoiceStatus::TimedOut } else { ChoiceStatus::Answered });
        let alerts = seen.update(open(&[]), &[], status);
        assert_eq!(alerts.len(), 1, "{alerts:?}");
        assert_eq!(alerts[0].title, "A question timed out");
        assert!(alerts[0].body.contains("Deploy?"));
        assert!(seen.update(open(&[]), &[], status).is_empty(), "announced twice");
    }

    #[test]
    fn a_path_going_missing_is_announced_once_and_again_after_it_came_back() {
        let mut seen = LastLook::default();
        let present = [project("web", &[("/src/web", PathState::Present)])];
        let missing = [project("web", &[("/src/web", PathState::Missing)])];
        seen.update(open(&[]), &present, |_| None);
        let alerts = seen.update(open(&[]), &missing, |_| None);
        assert_eq!(alerts.len(), 1);
        assert_eq!(alerts[0].title, "A code path of web went missing");
        assert!(alerts[0].body.starts_with("/src/web is gone"));
        assert!(seen.update(open(&[]), &missing, |_| None).is_empty());
        assert!(seen.update(open(&[]), &present, |_| None).is_empty());
        assert_eq!(seen.update(open(&[]), &missing, |_| None).len(), 1);
    }
}
