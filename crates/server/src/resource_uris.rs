//! The URIs of Mooring's MCP resources, and which of them a change to one project
//! touches. Below both the resources (which serve them) and the state (which notifies
//! their subscribers), so neither reaches into the other.

/// The question's MCP App.
pub const CHOICE_APP: &str = "ui://mooring/choice.html";
/// The project picker's MCP App.
pub const PICKER_APP: &str = "ui://mooring/project-picker.html";
/// URI of the project list.
pub const PROJECTS: &str = "mooring://projects";
/// What every project's own resources start with.
pub const PREFIX: &str = "mooring://projects/";
// The memory kinds a project's `memory/{kind}` resources are served for.
const KINDS: [&str; 7] = ["decision", "blocker", "summary", "note", "handover", "context_carry", "session"];

/// URIs that change when a project's memory does.
pub fn affected(slug: &str) -> Vec<String> {
    let mut uris =
        vec![PROJECTS.to_owned(), format!("{PREFIX}{slug}/context"), format!("{PREFIX}{slug}/handover")];
    uris.extend(KINDS.iter().map(|k| format!("{PREFIX}{slug}/memory/{k}")));
    uris
}

#[cfg(test)]
mod tests {
    use super::affected;

    #[test]
    fn a_change_to_one_project_touches_its_resources_and_the_list_only() {
        let uris = affected("billing");
        assert!(uris.contains(&"mooring://projects".to_owned()));
        for tail in ["context", "handover", "memory/decision", "memory/blocker", "memory/context_carry"] {
            assert!(uris.contains(&format!("mooring://projects/billing/{tail}")), "{tail}: {uris:?}");
        }
        assert!(
            uris.iter().all(|u| u == "mooring://projects" || u.starts_with("mooring://projects/billing/"))
        );
    }
}
