//! The tool list: names, descriptions, input and output schemas, annotations.

use mooring_core::Changed;
use mooring_core::memory::Page;
use rmcp::handler::server::common::{schema_for_empty_input, schema_for_input, schema_for_output};
use rmcp::model::{Tool, ToolAnnotations};
use schemars::JsonSchema;

use super::outputs;
use super::params;

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
pub const PROJECT_SCOPED: &[&str] = &[
    "save_handover",
    "get_last_handover",
    "remember",
    "list_memory",
    "resolve_blocker",
    "forget",
    "search_memory",
    "lock_context",
    "recall_context",
    "project_context",
];

struct Hints {
    read_only: bool,
    destructive: bool,
    idempotent: bool,
}

const READ: Hints = Hints { read_only: true, destructive: false, idempotent: true };
const WRITE: Hints = Hints { read_only: false, destructive: false, idempotent: false };
const SET: Hints = Hints { read_only: false, destructive: false, idempotent: true };

fn tool<P: JsonSchema + 'static, O: JsonSchema + 'static>(
    name: &'static str,
    description: &'static str,
    h: Hints,
) -> Tool {
    let input = schema_for_input::<P>().unwrap_or_else(|e| {
        tracing::error!(tool = name, error = %e, "input schema could not be generated");
        schema_for_empty_input()
    });
    let output = schema_for_output::<O>();
    Tool::new(name, description, compact(input, true))
        .with_raw_output_schema(compact(output, false))
        .with_annotations(ToolAnnotations::from_raw(
            None,
            Some(h.read_only),
            Some(h.destructive),
            Some(h.idempotent),
            Some(false),
        ))
}

/// The schema as compact as it can be without losing meaning, since clients send every
/// tool's schema to their model on every turn: no `$schema`, no `"default": null`, an
/// optional field typed by what it holds (`["string","null"]` → `"string"`), enums of
/// documented constants as plain `enum`s (the property's description names them), and no
/// Rust-width formats (`uint64`…: not JSON Schema formats; Ajv-based clients such as
/// Gemini CLI warn per field). Nullable types stay in output schemas: results do carry
/// nulls, and clients validate results against them (Claude Code, the Python SDK).
fn compact(
    schema: std::sync::Arc<rmcp::model::JsonObject>,
    input: bool,
) -> std::sync::Arc<rmcp::model::JsonObject> {
    use serde_json::Value;
    fn walk(v: &mut Value, input: bool) {
        match v {
            Value::Object(map) => {
                map.remove("$schema");
                if map.get("default").is_some_and(Value::is_null) {
                    map.remove("default");
                }
                if map.get("format").and_then(|f| f.as_str()).is_some_and(|f| !STANDARD_FORMATS.contains(&f))
                {
                    map.remove("format");
                }
                if input
                    && let Some(Value::Array(types)) = map.get("type")
                    && types.len() == 2
                    && types.iter().any(|t| t == "null")
                    && let Some(other) = types.iter().find(|t| *t != "null").cloned()
                {
                    map.insert("type".into(), other);
                }
                if let Some(Value::Array(alts)) = map.get("oneOf")
                    && !alts.is_empty()
                    && alts.iter().all(|a| a.get("const").is_some())
                {
                    let consts: Vec<Value> = alts.iter().filter_map(|a| a.get("const").cloned()).collect();
                    let kind = alts[0].get("type").cloned();
                    map.remove("oneOf");
                    map.insert("enum".into(), Value::Array(consts));
                    if let Some(k) = kind {
                        map.insert("type".into(), k);
                    }
                }
                // `anyOf: [X, {type: null}]` is an optional X.
                if input
                    && let Some(Value::Array(alts)) = map.get("anyOf")
                    && alts.len() == 2
                    && let Some(i) = alts.iter().position(|a| a.get("type").is_some_and(|t| t == "null"))
                {
                    let keep = alts[1 - i].clone();
                    map.remove("anyOf");
                    if let Value::Object(k) = keep {
                        for (key, val) in k {
                            map.entry(key).or_insert(val);
                        }
                    }
                }
                map.values_mut().for_each(|v| walk(v, input));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, input)),
            _ => {}
        }
    }
    let mut value = serde_json::Value::Object((*schema).clone());
    walk(&mut value, input);
    match value {
        serde_json::Value::Object(map) => std::sync::Arc::new(map),
        _ => schema,
    }
}

/// The formats JSON Schema 2020-12 defines.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Every tool, in the order clients show them. Built once: rmcp asks for a tool's
/// definition on every call (to validate its output), and building the schemas cost more
/// than most calls themselves.
pub fn tools() -> &'static [Tool] {
    static TOOLS: std::sync::OnceLock<Vec<Tool>> = std::sync::OnceLock::new();
    TOOLS.get_or_init(build)
}

fn build() -> Vec<Tool> {
    vec![
        tool::<params::ListProjects, outputs::ProjectList>(
            "list_projects",
            "List projects with their code paths and stats (decisions, open blockers, context locks, \
             memory, last used). By default active and paused ones; status=all includes archived.",
            READ,
        ),
        tool::<params::GetProject, outputs::ProjectDetail>(
            "get_project",
            "Get one project by slug: description, status, repository, notes and code paths, stats.",
            READ,
        ),
        tool::<params::CreateProject, Changed>(
            "create_project",
            "Create a project. The slug is made from the name when omitted. Code paths must be \
             absolute; they decide the project for sessions working inside them.",
            WRITE,
        ),
        tool::<params::EditProject, Changed>(
            "edit_project",
            "Edit a project: name, description, code paths to add or remove, notes path, repository, \
             status (active, paused, archived). All changes land together or none do.",
            WRITE,
        ),
        tool::<params::ActiveProject, outputs::ActiveProject>(
            "active_project",
            "The project this session works in. Omit `project` to read it, give a slug to choose it \
             for this session, or null to clear the choice. Shows every resolution level.",
            SET,
        ),
        tool::<params::ResolveProject, outputs::Resolved>(
            "resolve_project",
            "Explain how this session's project is decided: every level of the order, what it saw \
             and which one decided. `cwd` and `workspace_id` ask 'what if'.",
            READ,
        ),
        tool::<params::SelectProject, outputs::Selected>(
            "select_project_for_session",
            "Choose the project this session works on. Returns the last handover for it, so the \
             session can pick up where the previous one stopped.",
            SET,
        ),
        tool::<params::SetWorkspace, outputs::WorkspaceSet>(
            "set_workspace_id",
            "Declare this session's workspace directory as a file:// URI. It must exist; when the \
             client declared roots, it must lie within one of them.",
            SET,
        ),
        tool::<params::SaveHandover, outputs::HandoverSaved>(
            "save_handover",
            "Save a handover for the next session: what was done, the next steps, open questions \
             and the files that matter. Secrets are stored redacted and <private>…</private> \
             not at all; the result says what was taken out.",
            WRITE,
        ),
        tool::<params::GetLastHandover, outputs::LastHandover>(
            "get_last_handover",
            "Get the newest handover of the session's project (or `project`): where the previous \
             session stopped and what it said to do next.",
            READ,
        ),
        tool::<params::Remember, outputs::Scoped<outputs::EntryResult>>(
            "remember",
            "Record a decision, blocker, summary or note in the project's memory. Blockers stay open \
             until resolve_blocker. One fact per entry. Secrets are stored redacted and \
             <private>…</private> not at all; the result says what was taken out.",
            WRITE,
        ),
        tool::<params::ListMemory, outputs::Scoped<Page>>(
            "list_memory",
            "List the project's memory, newest first, optionally by kind and status. Pages with \
             `before` = the previous page's next_before.",
            READ,
        ),
        tool::<params::ResolveBlocker, outputs::Scoped<outputs::EntryResult>>(
            "resolve_blocker",
            "Mark an open blocker resolved, with how it was resolved.",
            SET,
        ),
        tool::<params::Forget, outputs::Scoped<outputs::EntryResult>>(
            "forget",
            "Hide a memory entry from lists, search and the context preamble. The audit log keeps \
             a record that it existed.",
            Hints { read_only: false, destructive: true, idempotent: false },
        ),
        tool::<params::SearchMemory, outputs::SearchResults>(
            "search_memory",
            "Full-text search of memory, ranked, with snippets. In the session's project, or in all \
             projects with all_projects=true (each hit names its project).",
            READ,
        ),
        tool::<params::LockContext, outputs::Scoped<outputs::Locked>>(
            "lock_context",
            "Lock the agreed text of a topic (an API contract, a naming rule). Locking again adds \
             a new version; earlier versions stay readable. Secrets are stored redacted.",
            WRITE,
        ),
        tool::<params::RecallContext, outputs::Scoped<outputs::Recalled>>(
            "recall_context",
            "Read a locked topic (latest or a given version), or without a topic list the topics \
             with their latest version and age.",
            READ,
        ),
        tool::<super::tools_choice::ProvideChoice, mooring_core::choice::ChoiceResponse>(
            "provide_choice",
            "Ask the person a structured question and get a normalized answer. Ask (instead of \
             guessing) when there are more than two viable paths, before a destructive action, or \
             when configuration is missing. `prompt` must carry the task context and why the \
             choice is needed; mark the option you would pick as recommended. The person may \
             cancel. If the result is `pending` or `pending_terminal_launch`, call again with \
             {\"session_id\": …} for the answer.",
            Hints { read_only: false, destructive: false, idempotent: false },
        ),
        tool::<params::ProjectContext, outputs::Scoped<outputs::Context>>(
            "project_context",
            "The project's context preamble: description, open blockers, recent decisions, the last \
             handover, context-lock topics and an index of the other projects, within a token \
             budget (default 4000), saying what was left out and how to get it.",
            READ,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_description_and_both_schemas() {
        let tools = tools();
        assert_eq!(tools.len(), 19);
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
        for scoped in PROJECT_SCOPED {
            assert!(tools.iter().any(|t| t.name == *scoped));
        }
    }
}
