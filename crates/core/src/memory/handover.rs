//! Handovers: where one session stopped, for the next one to pick up.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::humanize::ago;
use crate::model::Kind;
use crate::store::backend::{MemoryBackend, PageFilter};
use crate::store::rows::MemoryRow;
use crate::store::rows::NewMemoryRow;

/// Longest text field of a handover.
pub const MAX_TEXT: usize = 20_000;
/// Most files a handover may list.
pub const MAX_FILES: usize = 200;

/// What a session leaves behind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandoverInput {
    /// What was done in this session.
    pub work_done: String,
    /// What the next session should do first.
    pub next_steps: String,
    /// Questions still open for the person or the next session.
    #[serde(default)]
    pub open_questions: Option<String>,
    /// Files that matter for picking up (paths as the agent sees them).
    #[serde(default)]
    pub files: Vec<String>,
}

/// A stored handover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Handover {
    /// Memory id.
    pub id: i64,
    /// Project slug.
    pub project: String,
    /// What was done.
    pub work_done: String,
    /// What to do next.
    pub next_steps: String,
    /// Open questions.
    pub open_questions: Option<String>,
    /// Files that matter.
    pub files: Vec<String>,
    /// The client that wrote it, by name (`claude-code`); session ids are never shown.
    pub written_by: Option<String>,
    /// When (RFC 3339).
    pub created_at: String,
    /// When, for people ("2 hours ago").
    pub created: String,
    /// Secrets taken out before this was stored (only on the write that stored it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<crate::guard::redact::Redactions>,
}

fn check(input: &HandoverInput) -> Result<()> {
    let text = |field: &str, value: &str, required: bool| -> Result<()> {
        if required && value.trim().is_empty() {
            return Err(Error::invalid(
                field,
                format!("{field} is empty; say in a sentence or more what it holds"),
            ));
        }
        if value.chars().count() > MAX_TEXT {
            return Err(Error::invalid(
                field,
                format!("{field} is {} characters long; keep it under {MAX_TEXT}", value.chars().count()),
            ));
        }
        Ok(())
    };
    text("work_done", &input.work_done, true)?;
    text("next_steps", &input.next_steps, true)?;
    text("open_questions", input.open_questions.as_deref().unwrap_or(""), false)?;
    if input.files.len() > MAX_FILES {
        return Err(Error::invalid(
            "files",
            format!("files lists {} entries; list at most {MAX_FILES}", input.files.len()),
        ));
    }
    if let Some(bad) = input.files.iter().find(|f| f.trim().is_empty() || f.len() > 4096 || f.contains('\0'))
    {
        return Err(Error::invalid(
            "files",
            format!("files has an unusable entry {bad:?}; give non-empty paths under 4096 bytes"),
        ));
    }
    Ok(())
}

fn markdown(input: &HandoverInput) -> String {
    let mut out =
        format!("## Work done\n{}\n\n## Next steps\n{}\n", input.work_done.trim(), input.next_steps.trim());
    if let Some(q) = input.open_questions.as_deref().filter(|q| !q.trim().is_empty()) {
        out.push_str(&format!("\n## Open questions\n{}\n", q.trim()));
    }
    if !input.files.is_empty() {
        out.push_str("\n## Files\n");
        for f in &input.files {
            out.push_str(&format!("- {f}\n"));
        }
    }
    out
}

/// Every field of a handover with its secrets taken out.
fn scrub(input: &HandoverInput) -> (HandoverInput, crate::guard::redact::Redactions) {
    let mut found = crate::guard::redact::Redactions::default();
    let out = HandoverInput {
        work_done: found.clean(&input.work_done),
        next_steps: found.clean(&input.next_steps),
        open_questions: input.open_questions.as_deref().map(|t| found.clean(t)),
        files: input.files.iter().map(|f| found.clean(f)).collect(),
    };
    (out, found)
}

/// Save a handover for a project (not archived).
pub fn save(
    store: &dyn MemoryBackend,
    slug: &str,
    input: &HandoverInput,
    session_id: Option<&str>,
) -> Result<Handover> {
    check(input)?;
    let (scrubbed, redacted) = scrub(input);
    let input = &scrubbed;
    let data =
        serde_json::to_string(input).map_err(|e| Error::storage(format!("cannot encode handover: {e}")))?;
    let title = input.work_done.lines().next().unwrap_or_default().chars().take(120).collect::<String>();
    let content = markdown(input);
    let row = NewMemoryRow {
        kind: "handover".into(),
        title: title.as_str().into(),
        content: content.as_str().into(),
        tags: "".into(),
        status: None,
        data: Some(data.as_str().into()),
        // Handovers are saved over MCP only: an agent's.
        author: Some(crate::model::Author::Agent),
        written_by: None,
        key: None,
    };
    let (slug, rows) = store.insert_memory(slug, &[row], session_id, crate::memory::check_writable)?;
    let row =
        rows.into_iter().next().ok_or_else(|| Error::storage("the handover was saved but not returned"))?;
    let mut saved = from_row(row, &slug);
    saved.redacted = redacted.into_option();
    Ok(saved)
}

/// A session Mooring captured (the agent wrote no handover after it), as the last-session
/// views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CapturedSession {
    /// Memory id (kind `session`).
    pub id: i64,
    /// What was asked, changed, run and left open, in Markdown.
    pub content: String,
    /// The client it was captured from (`claude-code`, `codex`, `gemini-cli`).
    pub client: String,
    /// Who ran it, in a team project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_by: Option<String>,
    /// When it was last brought up to date (RFC 3339).
    pub updated_at: String,
    /// When, for people ("2 hours ago").
    pub updated: String,
}

impl CapturedSession {
    /// One line for a message: "the last session was captured by Mooring (2 hours ago)".
    pub fn summary(&self) -> String {
        format!(
            "The last session ({}, {}) was captured by Mooring (#{}).",
            self.client, self.updated, self.id
        )
    }
}

/// The newest captured session of a project when it is newer than the project's newest
/// handover (a handover the agent wrote is never replaced by capture; a session after it
/// that wrote none is where work stopped).
pub fn captured_since_handover(store: &dyn MemoryBackend, slug: &str) -> Result<Option<CapturedSession>> {
    let newest = |kind| {
        let filter = PageFilter { kind: Some(kind), status: None, before: None, limit: 1 };
        store.memory_page(slug, &filter).map(|(_, rows)| rows.into_iter().next())
    };
    // The session that changed last and is not folded (a folded one is the digests'):
    // one resumed after its week was folded is where work stopped, whatever its id.
    let Some(row) = store.newest_changed(slug, Kind::Session)? else { return Ok(None) };
    if newest(Kind::Handover)?.is_some_and(|h| h.created_at >= row.updated_at) {
        return Ok(None);
    }
    Ok(Some(CapturedSession {
        id: row.id,
        content: row.content.trim().to_owned(),
        client: row.tags.split(',').next().unwrap_or_default().trim().to_owned(),
        written_by: row.written_by,
        updated: ago(Some(&row.updated_at), chrono::Utc::now()),
        updated_at: row.updated_at,
    }))
}

/// The newest handover of a project.
pub fn last(store: &dyn MemoryBackend, slug: &str) -> Result<Option<Handover>> {
    let filter = PageFilter { kind: Some(Kind::Handover), status: None, before: None, limit: 1 };
    let (slug, rows) = store.memory_page(slug, &filter)?;
    Ok(rows.into_iter().next().map(|row| from_row(row, &slug)))
}

fn from_row(row: MemoryRow, slug: &str) -> Handover {
    let input: HandoverInput = row
        .data
        .as_deref()
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or_else(|| HandoverInput { work_done: row.content.clone(), ..Default::default() });
    Handover {
        id: row.id,
        project: slug.to_owned(),
        work_done: input.work_done,
        next_steps: input.next_steps,
        open_questions: input.open_questions,
        files: input.files,
        written_by: row.written_by,
        created: ago(Some(&row.created_at), chrono::Utc::now()),
        created_at: row.created_at,
        redacted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewProject, Registry, Store};

    fn setup() -> Store {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Alpha".into(), ..Default::default() }).unwrap();
        store
    }

    fn input(work: &str) -> HandoverInput {
        HandoverInput { work_done: work.into(), next_steps: "ship it".into(), ..Default::default() }
    }

    #[test]
    fn saves_and_returns_the_newest() {
        let store = setup();
        assert!(last(&store, "alpha").unwrap().is_none());
        save(&store, "alpha", &input("first"), Some("s1")).unwrap();
        let seen = crate::store::sessions::ClientFacts {
            client_name: Some("claude-code"),
            client_version: None,
            transport: "stdio",
            protocol_version: None,
        };
        crate::projects::session::touch(&store, "msh_secret2", &seen).unwrap();
        let second = save(
            &store,
            "alpha",
            &HandoverInput { files: vec!["src/main.rs".into()], ..input("second") },
            Some("msh_secret2"),
        )
        .unwrap();
        let got = last(&store, "alpha").unwrap().unwrap();
        assert_eq!(got, second);
        assert_eq!(got.work_done, "second");
        assert_eq!(got.files, ["src/main.rs"]);
        // The writer is named by client; its session id (a secret) never comes back.
        assert_eq!(got.written_by.as_deref(), Some("claude-code"));
        assert!(!serde_json::to_string(&got).unwrap().contains("msh_secret2"));
        assert!(Registry::new(&store).get("alpha").unwrap().last_used_at.is_some());
    }

    #[test]
    fn refuses_bad_input_and_archived_projects() {
        let store = setup();
        assert_eq!(save(&store, "alpha", &input(" "), None).unwrap_err().field.as_deref(), Some("work_done"));
        let long = HandoverInput { next_steps: "x".repeat(MAX_TEXT + 1), ..input("w") };
        assert_eq!(save(&store, "alpha", &long, None).unwrap_err().field.as_deref(), Some("next_steps"));
        let files = HandoverInput { files: vec![String::new()], ..input("w") };
        assert_eq!(save(&store, "alpha", &files, None).unwrap_err().field.as_deref(), Some("files"));
        Registry::new(&store).archive("alpha").unwrap();
        let err = save(&store, "alpha", &input("w"), None).unwrap_err();
        assert!(err.message.contains("archived"));
        assert!(last(&store, "alpha").unwrap().is_none());
    }
}
