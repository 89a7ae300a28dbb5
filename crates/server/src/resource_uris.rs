//! The URIs of Mooring's MCP resources, and which of them a change to one project
//! touches. Below both the resources (which serve them) and the state (which notifies
//! their subscribers), so neither reaches into the other.

/// URI of the project list.
pub const PROJECTS: &str = "mooring://projects";
/// What every project's own resources start with.
pub const PREFIX: &str = "mooring://projects/";
// The memory kinds a project's `memory/{kind}` resources are served for.
const KINDS: [&str; 6] = ["decision", "blocker", "summary", "note", "handover", "context_carry"];

/// URIs that change when a project's memory does.
pub fn affected(slug: &str) -> Vec<String> {
    let mut uris =
        vec![PROJECTS.to_owned(), format!("{PREFIX}{slug}/context"), format!("{PREFIX}{slug}/handover")];
    uris.extend(KINDS.iter().map(|k| format!("{PREFIX}{slug}/memory/{k}")));
    uris
}
