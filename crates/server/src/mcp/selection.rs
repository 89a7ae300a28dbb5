//! When nothing decides a session's project: who the candidates are, which one to
//! recommend (roots' candidates, the session's directory, recency), and the
//! `PROJECT_SELECTION_REQUIRED` result with the exact call to make next.

use mooring_core::projects::markers::Marker;
use mooring_core::projects::resolve::{Outcome, Resolution};
use mooring_core::{Project, ProjectStatus, Registry, Result as CoreResult};
use rmcp::model::CallToolResult;
use serde_json::json;

use super::results;
use crate::caller::Caller;
use crate::state::AppState;
use rmcp::model::CallToolResponse;

/// Active and paused projects, most recently used first.
pub(super) fn candidates(state: &AppState) -> CoreResult<Vec<Project>> {
    let mut all = Registry::new(&state.store).list(None)?;
    all.retain(|p| p.status != ProjectStatus::Archived);
    Ok(all)
}

/// The session's directory (workspace, else working directory) as a plain path.
pub(super) fn session_dir(caller: &Caller) -> Option<String> {
    caller
        .workspace
        .clone()
        .or_else(|| caller.cwd.clone())
        .and_then(|w| mooring_core::paths::normalize("workspace", &w, None).ok())
        .map(|n| n.as_str().to_owned())
}

/// Projects an ambiguous level pointed at (roots in two projects).
fn ambiguous(resolution: Option<&Resolution>) -> Vec<String> {
    resolution.map(|r| r.levels.iter().flat_map(|l| l.candidates.clone()).collect()).unwrap_or_default()
}

/// The likeliest project: among those the roots pointed at, if they disagreed; by the
/// session's directory, then recency.
pub(super) fn recommend(
    candidates: &[Project],
    caller: &Caller,
    resolution: Option<&Resolution>,
) -> Option<String> {
    let dir = session_dir(caller);
    let dir = dir.as_deref().map(std::path::Path::new);
    let pointed = ambiguous(resolution);
    let subset: Vec<Project> = candidates.iter().filter(|p| pointed.contains(&p.slug)).cloned().collect();
    let pool = if subset.is_empty() { candidates } else { &subset };
    mooring_core::projects::recommend::recommend(pool, dir)
}

/// A hint that points away from auto-selection: something given that did not match.
pub(super) fn contrary(r: &Resolution) -> bool {
    r.levels.iter().any(|l| matches!(l.outcome, Outcome::Rejected | Outcome::Ambiguous | Outcome::NoMatch))
}

/// One line per project: "leader-election — Leader Election (3 context locks, used 2 days ago)".
pub fn summary(p: &Project) -> String {
    let locks = match p.stats.context_locks {
        1 => "1 context lock".to_owned(),
        n => format!("{n} context locks"),
    };
    format!("{} — {} ({locks}, {} memories, last used {})", p.slug, p.name, p.stats.memory_total, p.last_used)
}

/// The `PROJECT_SELECTION_REQUIRED` result: projects with stats, a recommendation and
/// the exact call to make next.
pub fn selection_required(
    state: &AppState,
    caller: &Caller,
    resolution: Option<&Resolution>,
    offers: &[Marker],
    reason: &str,
) -> CoreResult<CallToolResponse> {
    let mut candidates = candidates(state)?;
    let recommended = recommend(&candidates, caller, resolution);
    // Projects the roots pointed at come first.
    let pointed = ambiguous(resolution);
    candidates.sort_by_key(|p| !pointed.contains(&p.slug));
    let mut text = format!("{reason} ");
    let next_call = match (offers.first(), &recommended) {
        (Some(m), _) => {
            let name = m.name.clone().unwrap_or_else(|| m.project.clone());
            text.push_str(&format!(
                "A {} in {} names project '{}', which does not exist yet. Create it with create_project \
                 (arguments below), or choose an existing one with select_project_for_session:\n",
                mooring_core::projects::markers::FILE,
                m.dir.display(),
                m.project
            ));
            for p in &candidates {
                text.push_str(&format!("- {}\n", summary(p)));
            }
            let mut args = json!({ "name": name, "slug": m.project, "code_paths": [m.dir] });
            if let Some(d) = &m.description {
                args["description"] = json!(d);
            }
            json!({ "tool": "create_project", "arguments": args })
        }
        (None, Some(slug)) => {
            text.push_str("Choose the project for this session, then retry:\n");
            for p in &candidates {
                text.push_str(&format!("- {}\n", summary(p)));
            }
            text.push_str(&format!(
                "Call select_project_for_session with {{\"project\": \"{slug}\"}} (or another slug above)."
            ));
            if caller.apps {
                text.push_str(
                    " To let the person pick it here in the conversation, call select_project_for_session \
                     with no arguments.",
                );
            }
            if caller.session_id.is_none() {
                text.push_str(" This client has no session, so also pass \"project\" on later calls.");
            }
            json!({ "tool": "select_project_for_session", "arguments": { "project": slug } })
        }
        (None, None) => {
            text.push_str("Create one first with create_project, e.g. {\"name\": \"My App\", \"code_paths\": [\"/abs/path\"]}.");
            json!({ "tool": "create_project", "arguments": { "name": "My App" } })
        }
    };
    let extra = json!({
        "code": "PROJECT_SELECTION_REQUIRED",
        "message": text,
        "projects": candidates,
        "recommended": recommended,
        "candidates": pointed,
        "marker_offers": offers,
        "next_call": next_call,
        "levels": resolution.map(|r| &r.levels),
    });
    let result: CallToolResult =
        results::error_result("PROJECT_SELECTION_REQUIRED", &text, Some("project"), Some(extra));
    Ok(result.into())
}

#[cfg(test)]
mod tests {
    use mooring_core::projects::resolve::{Level, LevelReport, Outcome, Resolution};
    use mooring_core::{Project, ProjectStats};

    use super::{contrary, recommend, summary};
    use crate::caller::Caller;

    fn resolution(outcomes: &[(Outcome, &[&str])]) -> Resolution {
        let levels = outcomes
            .iter()
            .map(|(outcome, candidates)| LevelReport {
                rank: 5,
                level: Level::Roots,
                label: "MCP roots".into(),
                input: None,
                outcome: *outcome,
                project: None,
                detail: String::new(),
                decided: false,
                candidates: candidates.iter().map(|c| (*c).to_owned()).collect(),
            })
            .collect();
        Resolution { project: None, decided_by: None, levels }
    }

    #[test]
    fn a_hint_that_matched_nothing_or_too_much_stops_auto_selection() {
        assert!(!contrary(&resolution(&[(Outcome::NotGiven, &[])])));
        for o in [Outcome::Rejected, Outcome::Ambiguous, Outcome::NoMatch] {
            assert!(contrary(&resolution(&[(o, &[])])), "{o:?}");
        }
    }

    #[test]
    fn roots_that_disagree_narrow_the_recommendation_to_their_projects() {
        let p = |slug: &str, used: Option<&str>| Project {
            slug: slug.into(),
            last_used_at: used.map(str::to_owned),
            ..Project::default()
        };
        let all = [p("alpha", Some("2026-11-24T10:00:00.000Z")), p("beta", None), p("gamma", None)];
        let caller = Caller::default();
        assert_eq!(recommend(&all, &caller, None).as_deref(), Some("alpha"), "most recently used");
        let split = resolution(&[(Outcome::Ambiguous, &["beta", "gamma"])]);
        let pick = recommend(&all, &caller, Some(&split)).unwrap();
        assert!(pick == "beta" || pick == "gamma", "{pick}");
    }

    #[test]
    fn a_projects_summary_line_counts_its_memory_and_locks() {
        let p = Project {
            slug: "billing".into(),
            name: "Billing".into(),
            last_used: "2 days ago".into(),
            stats: ProjectStats { context_locks: 1, memory_total: 12, ..ProjectStats::default() },
            ..Project::default()
        };
        assert_eq!(summary(&p), "billing — Billing (1 context lock, 12 memories, last used 2 days ago)");
    }
}
