//! MCP Apps (the `io.modelcontextprotocol/ui` extension): a question and the project
//! picker drawn inside the conversation by hosts that render apps. Only a client that
//! advertises the extension's HTML profile sees any of it: its tool list links
//! `provide_choice` and `select_project_for_session` to their `ui://` resources and adds
//! the two tools the apps answer through, which the host keeps from the model
//! (`visibility: ["app"]`). Every other client's list is unchanged.

use rmcp::model::{MetaObject as Meta, ReadResourceResult, Resource, ResourceContents, Tool};
use serde_json::json;

use super::tools::TOOLS;
use crate::caller::APP_MIME;

use crate::resource_uris::{CHOICE_APP, PICKER_APP};

const STYLE: &str = include_str!("../../../../ui/apps/app.css");
const BRIDGE: &str = include_str!("../../../../ui/apps/bridge.js");
const CHOICE: &str = include_str!("../../../../ui/apps/choice.js");
/// The question's fields, the same view the page on 127.0.0.1 draws.
const QUESTION_VIEW: &str = include_str!("../../../../ui/views/question.js");
/// The projects to pick from, the same view the picker page draws.
const PROJECTS_VIEW: &str = include_str!("../../../../ui/views/projects.js");
const PICKER: &str = include_str!("../../../../ui/apps/picker.js");

/// One app's HTML: everything inline (no other origin is reached; the host's default
/// policy, `connect-src 'none'`, is all it needs).
fn page(title: &str, view: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style></head>\
         <body><main id=\"app\" aria-live=\"polite\"><p class=\"muted\">Loading…</p></main>\
         <script>{BRIDGE}\n{view}</script></body></html>"
    )
}

/// `_meta` linking a tool to its app, in both spellings hosts read (claude.ai knew only
/// the older flat key).
fn linked(uri: &str) -> Meta {
    let mut meta = Meta::new();
    meta.0.insert("ui".into(), json!({ "resourceUri": uri }));
    meta.0.insert("ui/resourceUri".into(), json!(uri));
    meta
}

/// `_meta` of a tool only an app may call.
fn app_only() -> Meta {
    let mut meta = Meta::new();
    meta.0.insert("ui".into(), json!({ "visibility": ["app"] }));
    meta
}

/// The tool list for a client that renders apps: the one table, each tool as such a
/// client sees it (its app linked, the apps-only tools added).
pub fn tools() -> &'static [Tool] {
    static BUILT: std::sync::OnceLock<Vec<Tool>> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        TOOLS
            .iter()
            .map(|def| {
                let mut t =
                    (def.schema)(def.name, def.apps.description.unwrap_or(def.description), &def.hints);
                if def.apps.all_optional {
                    let mut schema = (*t.input_schema).clone();
                    schema.remove("required");
                    t.input_schema = std::sync::Arc::new(schema);
                }
                if let Some(uri) = def.apps.ui {
                    t.meta = Some(linked(uri));
                }
                if def.apps.only {
                    t.meta = Some(app_only());
                }
                t
            })
            .collect()
    })
}

/// The apps as resources.
pub fn resources() -> Vec<Resource> {
    [
        (CHOICE_APP, "Question", "A question from the agent, answered here"),
        (PICKER_APP, "Project picker", "Which project this session works in"),
    ]
    .into_iter()
    .map(|(uri, name, description)| {
        Resource::new(uri, name).with_description(description).with_mime_type(APP_MIME)
    })
    .collect()
}

/// An app's HTML, if `uri` names one.
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    let html = match uri {
        CHOICE_APP => page("Question", &format!("{QUESTION_VIEW}\n{CHOICE}")),
        PICKER_APP => page("Which project?", &format!("{PROJECTS_VIEW}\n{PICKER}")),
        _ => return None,
    };
    let mut meta = Meta::new();
    // No other origin: the strictest policy a host applies.
    meta.0.insert(
        "ui".into(),
        json!({ "csp": { "connectDomains": [], "resourceDomains": [] }, "prefersBorder": true }),
    );
    Some(ReadResourceResult::new(vec![
        ResourceContents::text(html, uri).with_mime_type(APP_MIME).with_meta(meta),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_app_is_small_and_self_contained() {
        for uri in [CHOICE_APP, PICKER_APP] {
            let r = read(uri).unwrap();
            let text = serde_json::to_value(&r).unwrap()["contents"][0]["text"].as_str().unwrap().to_owned();
            assert!(text.len() < 30_000, "{uri}: {} bytes", text.len());
            for other in ["http://", "https://", "src=", "@import"] {
                assert!(!text.contains(other), "{uri} reaches out: {other}");
            }
        }
    }

    #[test]
    fn apps_clients_get_links_in_both_spellings_and_the_app_only_tools() {
        let tools = tools();
        let meta = |name: &str| tools.iter().find(|t| t.name == name).unwrap().meta.clone().unwrap().0;
        let choice = meta("provide_choice");
        assert_eq!(choice.get("ui").unwrap()["resourceUri"], CHOICE_APP);
        assert_eq!(choice.get("ui/resourceUri").unwrap(), CHOICE_APP);
        assert_eq!(meta(super::super::tools_app::ANSWER).get("ui").unwrap()["visibility"], json!(["app"]));
        assert_eq!(tools.len(), super::super::catalog::tools().len() + 2);
    }
}
