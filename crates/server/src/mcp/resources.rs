//! MCP resources and prompts: the project list, each project's preamble, memory by kind
//! and last handover as readable resources, and a `resume` prompt that opens a session
//! with the preamble (the one-word "continue leader-election").

use mooring_core::memory::handover;
use mooring_core::memory::preamble::{self, Caps};
use mooring_core::memory::{self, Kind, ListQuery};
use mooring_core::{Error, ProjectStatus, Registry};
use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptResult, Prompt, PromptArgument,
    PromptMessage, ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate, Role,
};
use serde_json::json;

use crate::state::AppState;

use crate::resource_uris::PREFIX;
pub use crate::resource_uris::{PROJECTS, affected};

fn internal(e: Error) -> ErrorData {
    match e.code {
        mooring_core::ErrorCode::NotFound => ErrorData::resource_not_found(e.message, None),
        mooring_core::ErrorCode::InvalidInput => ErrorData::invalid_params(e.message, None),
        _ => ErrorData::internal_error(e.message, None),
    }
}

/// The concrete resources: the list and each open project's context.
pub fn list(state: &AppState) -> Result<Vec<Resource>, ErrorData> {
    let mut out = vec![
        Resource::new(PROJECTS, "Projects")
            .with_description("Every project with its status, code paths and stats")
            .with_mime_type("application/json"),
    ];
    for p in Registry::new(&state.store).list(None).map_err(internal)? {
        if p.status == ProjectStatus::Archived {
            continue;
        }
        out.push(
            Resource::new(format!("{PREFIX}{}/context", p.slug), format!("{} — context", p.name))
                .with_description(
                    "The context preamble: blockers, decisions, last handover, locks, other projects",
                )
                .with_mime_type("text/markdown"),
        );
    }
    Ok(out)
}

/// The templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{PREFIX}{{slug}}/context"), "Project context")
            .with_description("A project's context preamble (4000-token budget)")
            .with_mime_type("text/markdown"),
        ResourceTemplate::new(format!("{PREFIX}{{slug}}/memory/{{kind}}"), "Project memory by kind")
            .with_description(
                "The newest 50 entries of a kind: decision, blocker, summary, note, handover, context_carry, session",
            )
            .with_mime_type("application/json"),
        ResourceTemplate::new(format!("{PREFIX}{{slug}}/handover"), "Last handover")
            .with_description("Where the previous session stopped")
            .with_mime_type("application/json"),
    ]
}

/// What a URI names.
enum Target {
    Projects,
    Context(String),
    Memory(String, Kind),
    Handover(String),
}

fn parse(uri: &str) -> Option<Target> {
    if uri == PROJECTS {
        return Some(Target::Projects);
    }
    let rest = uri.strip_prefix(PREFIX)?;
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        [slug, "context"] => Some(Target::Context((*slug).to_owned())),
        [slug, "handover"] => Some(Target::Handover((*slug).to_owned())),
        [slug, "memory", kind] => {
            Kind::parse("kind", kind).ok().map(|k| Target::Memory((*slug).to_owned(), k))
        }
        _ => None,
    }
}

/// Whether the URI is one of ours (for subscribe).
pub fn is_ours(uri: &str) -> bool {
    parse(uri).is_some()
}

/// Read a resource.
pub fn read(state: &AppState, uri: &str) -> Result<Option<ReadResourceResult>, ErrorData> {
    let Some(target) = parse(uri) else { return Ok(None) };
    let text = |mime: &str, text: String| ResourceContents::TextResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(mime.to_owned()),
        text,
        meta: None,
    };
    let (store, memory) = (&state.store, &*state.memory);
    let contents = match target {
        Target::Projects => {
            let projects = Registry::new(store).list(None).map_err(internal)?;
            text("application/json", json!({ "projects": projects }).to_string())
        }
        Target::Context(slug) => {
            let caps = Caps::load(store).map_err(internal)?;
            text("text/markdown", preamble::build(store, memory, &slug, None, caps).map_err(internal)?.text)
        }
        Target::Memory(slug, kind) => {
            let q = ListQuery { kind: Some(kind.as_str().into()), limit: Some(50), ..Default::default() };
            text(
                "application/json",
                serde_json::to_string(&memory::list(memory, &slug, &q).map_err(internal)?)
                    .unwrap_or_default(),
            )
        }
        Target::Handover(slug) => {
            let h = handover::last(memory, &slug).map_err(internal)?;
            let captured = handover::captured_since_handover(memory, &slug).map_err(internal)?;
            text(
                "application/json",
                json!({ "project": slug, "handover": h, "captured_session": captured }).to_string(),
            )
        }
    };
    Ok(Some(ReadResourceResult::new(vec![contents])))
}

/// The prompts.
pub fn prompts() -> Vec<Prompt> {
    vec![Prompt::new(
        "resume",
        Some("Resume a project: start this session with its context (decisions, blockers, last handover)"),
        Some(vec![PromptArgument::new("project").with_description("Project slug").with_required(true)]),
    )]
}

/// Get a prompt; `None` when it is not ours.
pub fn prompt(
    state: &AppState,
    name: &str,
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<GetPromptResult>, ErrorData> {
    if name != "resume" {
        return Ok(None);
    }
    let slug = args.get("project").and_then(|v| v.as_str()).ok_or_else(|| {
        ErrorData::invalid_params("resume needs the argument 'project' (a project slug)", None)
    })?;
    let caps = Caps::load(&state.store).map_err(internal)?;
    let p = preamble::build(&state.store, &*state.memory, slug, None, caps).map_err(internal)?;
    let text = format!(
        "{}\n---\nContinue this project from here. Tell me briefly where things stand and what you will do next.",
        p.text
    );
    Ok(Some(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(format!("Resume {}", p.project)),
    ))
}

/// Completion of the `resume` prompt's `project` and of `{slug}` in our templates.
pub fn complete(state: &AppState, request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let wants_slug = match &request.r#ref {
        Reference::Prompt(p) => p.name == "resume" && request.argument.name == "project",
        Reference::Resource(r) => r.uri.starts_with(PREFIX) && request.argument.name == "slug",
        _ => false,
    };
    let mut values = Vec::new();
    if wants_slug {
        let prefix = request.argument.value.to_ascii_lowercase();
        for p in Registry::new(&state.store).list(None).map_err(internal)? {
            if p.status != ProjectStatus::Archived && p.slug.starts_with(&prefix) {
                values.push(p.slug);
            }
        }
        values.truncate(100);
    }
    let info = CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(info))
}
