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
    /// Project slug; default: the session's.
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
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
}

/// `who_is_working`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhoIsWorking {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
}

/// `claim`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// A path from the checkout's top, a glob, or a task's name.
    pub what: String,
    /// file, dir, glob or task.
    pub kind: String,
    /// Why, for the others.
    #[serde(default)]
    pub reason: Option<String>,
    /// Let go instead.
    #[serde(default)]
    pub release: bool,
}

/// `tell_session`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TellSession {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Its handle.
    pub to: String,
    /// The note.
    pub text: String,
}

/// `remember`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Remember {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// decision, blocker, summary or note.
    pub kind: String,
    /// One-line title; the first line of the content when omitted.
    #[serde(default)]
    pub title: Option<String>,
    /// What to remember (Markdown).
    pub content: String,
    /// Tags: single lowercase words.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Ids of older entries this one replaces (e.g. from a candidate).
    #[serde(default)]
    pub supersedes: Vec<i64>,
}

/// `list_memory`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListMemory {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Only this kind: decision, blocker, summary, note, handover, context_carry, session.
    #[serde(default)]
    pub kind: Option<String>,
    /// Only open or resolved (blockers).
    #[serde(default)]
    pub status: Option<String>,
    /// Page size, 1 to 200 (default 20).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Entries older than this id (the `next_before` of the previous page).
    #[serde(default)]
    pub before: Option<i64>,
}

/// `resolve_blocker`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveBlocker {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Id of the blocker.
    pub id: i64,
    /// How it was resolved.
    #[serde(default)]
    pub resolution: Option<String>,
}

/// `forget`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Forget {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Id of the entry.
    pub id: i64,
}

/// `search_memory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchMemory {
    /// Words or a question.
    pub query: String,
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Search every project instead of one.
    #[serde(default)]
    pub all_projects: bool,
    /// Only this kind.
    #[serde(default)]
    pub kind: Option<String>,
    /// At most this many hits, 1 to 200 (default 10).
    #[serde(default)]
    pub limit: Option<u32>,
    /// hybrid (default), keyword (every word must match) or semantic.
    #[serde(default)]
    pub mode: Option<String>,
}

/// `lock_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LockContext {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Topic, e.g. "api-contract".
    pub topic: String,
    /// The agreed text.
    pub content: String,
    /// Tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// `recall_context`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallContext {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Topic; omit to list the topics.
    #[serde(default)]
    pub topic: Option<String>,
    /// Version; omit for the latest.
    #[serde(default)]
    pub version: Option<i64>,
}

/// `project_context`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectContext {
    /// Project slug; default: the session's.
    #[serde(default)]
    pub project: Option<String>,
    /// Token budget, 200 to 200000 (default 4000).
    #[serde(default)]
    pub budget_tokens: Option<usize>,
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
