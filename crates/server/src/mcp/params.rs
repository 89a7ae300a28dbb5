//! Tool arguments as agents send them. Unknown fields are refused so a typo is an error
//! the agent can see, not a silently ignored hint.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

/// `list_projects`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListProjects {
    /// Which projects: active, paused, archived or all (default: active and paused).
    #[serde(default)]
    pub status: Option<String>,
}

/// `get_project`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetProject {
    /// Project slug.
    pub project: String,
}

/// `create_project`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateProject {
    /// Display name, e.g. "Leader Election".
    pub name: String,
    /// Slug (lowercase letters, digits, hyphens); made from the name when omitted.
    #[serde(default)]
    pub slug: Option<String>,
    /// What the project is about.
    #[serde(default)]
    pub description: Option<String>,
    /// Absolute code directories (or file:// URIs) that belong to the project.
    #[serde(default)]
    pub code_paths: Vec<String>,
    /// Repository URL.
    #[serde(default)]
    pub repo_url: Option<String>,
    /// Absolute notes directory.
    #[serde(default)]
    pub notes_path: Option<String>,
}

/// `edit_project`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditProject {
    /// Project slug.
    pub project: String,
    /// New display name.
    #[serde(default)]
    pub name: Option<String>,
    /// New description.
    #[serde(default)]
    pub description: Option<String>,
    /// Code directories to add (absolute).
    #[serde(default)]
    pub add_code_paths: Vec<String>,
    /// Code directories to remove.
    #[serde(default)]
    pub remove_code_paths: Vec<String>,
    /// New notes directory ("" clears it).
    #[serde(default)]
    pub notes_path: Option<String>,
    /// New repository URL ("" clears it).
    #[serde(default)]
    pub repo_url: Option<String>,
    /// New status: active, paused or archived.
    #[serde(default)]
    pub status: Option<String>,
}

/// `active_project`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActiveProject {
    /// Omit to read the session's project; a slug to choose it; null to clear the choice.
    #[serde(default, deserialize_with = "present")]
    pub project: Option<Option<String>>,
}

/// `resolve_project`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveProject {
    /// Resolve as if the agent worked in this directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Resolve as if this workspace (directory or file:// URI) were declared.
    #[serde(default)]
    pub workspace_id: Option<String>,
}

/// `select_project_for_session`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectProject {
    /// Slug of the project to work on.
    pub project: String,
}

/// `set_workspace_id`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetWorkspace {
    /// file:// URI of an existing directory, e.g. file:///home/me/code/app.
    pub workspace_uri: String,
}

/// `save_handover`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveHandover {
    /// Project slug; omit to use the session's project.
    #[serde(default)]
    pub project: Option<String>,
    /// What was done in this session.
    pub work_done: String,
    /// What the next session should do first.
    pub next_steps: String,
    /// Questions still open.
    #[serde(default)]
    pub open_questions: Option<String>,
    /// Files that matter for picking up.
    #[serde(default)]
    pub files: Vec<String>,
}

/// `get_last_handover`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetLastHandover {
    /// Project slug; omit to use the session's project.
    #[serde(default)]
    pub project: Option<String>,
}

/// Distinguish a field given as `null` (Some(None)) from one left out (None).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn active_project_tells_null_from_missing() {
        let missing: ActiveProject = serde_json::from_value(json!({})).unwrap();
        assert_eq!(missing.project, None);
        let null: ActiveProject = serde_json::from_value(json!({ "project": null })).unwrap();
        assert_eq!(null.project, Some(None));
        let set: ActiveProject = serde_json::from_value(json!({ "project": "a" })).unwrap();
        assert_eq!(set.project, Some(Some("a".into())));
    }

    #[test]
    fn unknown_fields_are_refused() {
        let err = serde_json::from_value::<GetProject>(json!({ "project": "a", "projcet": 1 })).unwrap_err();
        assert!(err.to_string().contains("projcet"));
    }
}
