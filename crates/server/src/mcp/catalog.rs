//! The tool list clients receive (built from the one table of tools in `tools`), and what
//! an agent is told about Mooring at initialize.

use rmcp::model::Tool;

use super::tools::TOOLS;

/// What an agent should know about Mooring, returned at initialize/discover.
pub const INSTRUCTIONS: &str = "\
Mooring tells this session which project it works in and keeps that project's memory.
- Project-scoped tools (save_handover, get_last_handover) run once the session has a project. It is \
decided, highest first, by: a `project` argument; your choice (select_project_for_session or \
active_project); the X-Workspace-Id header; MOORING_PROJECT; MCP roots; the working directory; the \
focus project chosen in the Mooring tray.
- If a result has code PROJECT_SELECTION_REQUIRED, ask the person which listed project to use (or \
take the recommended one), call select_project_for_session, then retry the call.
- Start a session with get_last_handover; before you stop, save_handover with what was done and \
what comes next.
- Clients without sessions (MCP 2026-07-28) pass `project` on every project-scoped call.
- Ask the person with provide_choice instead of guessing when there are more than two viable \
paths, before a destructive action, or when configuration is missing; say in `prompt` what \
the task is and why the choice is needed.";

/// Tools that need the session's project before they run.
pub fn project_scoped() -> impl Iterator<Item = &'static str> {
    TOOLS.iter().filter(|t| t.project != super::tools::Needs::Nothing).map(|t| t.name)
}

/// Every tool a client without apps sees, in the order clients show them. Built once:
/// rmcp asks for a tool's definition on every call (to validate its output), and building
/// the schemas cost more than most calls themselves.
pub fn tools() -> &'static [Tool] {
    static BUILT: std::sync::OnceLock<Vec<Tool>> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        TOOLS.iter().filter(|t| !t.apps.only).map(|t| (t.schema)(t.name, t.description, &t.hints)).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_description_and_both_schemas() {
        let tools = tools();
        assert_eq!(tools.len(), 22);
        for t in tools {
            assert!(t.description.as_deref().is_some_and(|d| d.len() > 20), "{}", t.name);
            assert_eq!(t.input_schema.get("type").and_then(|v| v.as_str()), Some("object"), "{}", t.name);
            assert!(t.output_schema.is_some(), "{}", t.name);
        }
        // Flattened outputs must not repeat a field (a duplicate key is invalid JSON Schema
        // and ambiguous JSON).
        for t in tools {
            let schema = t.output_schema.as_ref().unwrap();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(|r| r.as_array())
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str())
                .collect();
            let mut unique = required.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), required.len(), "{} repeats a required field: {required:?}", t.name);
        }
        for scoped in project_scoped() {
            assert!(tools.iter().any(|t| t.name == scoped));
        }
    }
}
