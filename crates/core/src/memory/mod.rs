//! Project memory: decisions, blockers, summaries and notes an agent records, listed,
//! resolved, forgotten and searched.

pub mod activity;
pub mod adopt;
pub mod handover;
pub mod injected;
pub mod instructions;
pub mod locks;
pub mod preamble;
pub mod supersede;
pub mod transfer;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::{Error, Result};
use crate::humanize::ago;
use crate::model::{Project, ProjectStatus};
use crate::store::backend::MemoryBackend;
use crate::store::backend::PageFilter;
use crate::store::projects::find_row;
use crate::store::rows::MemoryRow;
use crate::store::rows::NewMemoryRow;

/// Longest content.
pub const MAX_CONTENT: usize = 20_000;
/// Longest title.
pub const MAX_TITLE: usize = 200;
/// Most tags on one record.
pub const MAX_TAGS: usize = 20;
/// Largest page.
pub const MAX_LIMIT: u32 = 200;

pub use crate::model::{BlockerStatus, Kind};

/// A memory record as agents and people see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Entry {
    /// Id (unique across projects).
    pub id: i64,
    /// Project slug.
    pub project: String,
    /// Kind.
    pub kind: Kind,
    /// Title.
    pub title: String,
    /// Content (Markdown).
    pub content: String,
    /// Tags.
    pub tags: Vec<String>,
    /// `open` or `resolved` for blockers.
    pub status: Option<String>,
    /// How a blocker was resolved.
    pub resolution: Option<String>,
    /// The client that wrote it, by name (`claude-code`); session ids are never shown.
    pub written_by: Option<String>,
    /// Who wrote it, recorded as it was written (`person`, `agent`, `import`, `mooring`,
    /// `captured`); absent on entries written before Mooring recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<crate::model::Author>,
    /// The file an imported entry came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Created, for people.
    pub created: String,
    /// The newer entry that supersedes this one: it is left out of the preamble and
    /// recall, and kept in history and search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<i64>,
    /// Secrets taken out before this was stored (only on the write that stored it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<crate::guard::redact::Redactions>,
}

impl Entry {
    /// Who wrote it, as a model is told (`teammates`: the project's authors are people of
    /// a team): the one wording the preamble, recall and export use.
    pub fn provenance(&self, teammates: bool) -> String {
        crate::guard::quoted::provenance(
            self.kind.as_str(),
            self.author,
            self.written_by.as_deref(),
            teammates,
            self.source.as_deref(),
        )
    }

    /// From a stored row of the project `slug`.
    pub fn from_row(row: MemoryRow, slug: &str) -> Self {
        let data = row.data.as_deref().and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok());
        let resolution =
            data.as_ref().and_then(|v| v.get("resolution").and_then(|r| r.as_str()).map(str::to_owned));
        let source = data
            .as_ref()
            .and_then(|v| v.pointer("/import/place")?.as_str()?.split('\0').nth(1).map(str::to_owned));
        Self {
            id: row.id,
            project: slug.to_owned(),
            kind: Kind::parse("kind", &row.kind).unwrap_or(Kind::Note),
            title: row.title,
            content: row.content,
            tags: row.tags.split_whitespace().map(str::to_owned).collect(),
            status: row.status,
            resolution,
            superseded_by: row.links.superseded_by,
            written_by: row.written_by,
            author: row.author.as_deref().and_then(crate::model::Author::parse),
            source,
            created: ago(Some(&row.created_at), chrono::Utc::now()),
            created_at: row.created_at,
            redacted: None,
        }
    }
}

/// What `remember` needs.
#[derive(Debug, Clone, Default)]
pub struct NewEntry {
    /// Kind: decision, blocker, summary or note (handovers have their own call).
    pub kind: String,
    /// Title; the first line of the content when absent.
    pub title: Option<String>,
    /// Content.
    pub content: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Who writes it, as the entry point knows (never from the caller's input): the
    /// person for the CLI, REST and the phone; an agent for MCP. Unset with a session is
    /// an agent; unset without one stays unrecorded, never the person.
    pub author: Option<crate::model::Author>,
    /// The writing client's name when it has no session to name it.
    pub client: Option<String>,
}

/// A page of entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Page {
    /// Entries, newest first.
    pub entries: Vec<Entry>,
    /// Pass as `before` for the next page; none on the last one.
    pub next_before: Option<i64>,
}

/// Which entries `list` returns.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Only this kind.
    pub kind: Option<String>,
    /// Only `open` or `resolved`.
    pub status: Option<String>,
    /// At most this many (default 20, at most 200).
    pub limit: Option<u32>,
    /// Entries older than this id.
    pub before: Option<i64>,
}

/// Find a project that may be written to: archived ones are read-only.
pub fn writable(conn: &rusqlite::Connection, slug: &str) -> Result<Project> {
    let project = find_row(conn, "project", slug)?;
    check_writable(&project)?;
    Ok(project)
}

/// Archived projects are read-only.
pub fn check_writable(project: &Project) -> Result<()> {
    if project.status == ProjectStatus::Archived {
        return Err(Error::invalid(
            "project",
            format!(
                "project '{}' is archived and read-only; resume it first (edit_project with status \
                 \"active\", or mooring projects {} --status active)",
                project.slug, project.slug
            ),
        ));
    }
    Ok(())
}

/// Tags: lowercase words of letters, digits, `-` and `_`, at most [`MAX_TAGS`].
pub fn tags(field: &str, raw: &[String]) -> Result<Vec<String>> {
    if raw.len() > MAX_TAGS {
        return Err(Error::invalid(
            field,
            format!("{field} has {} entries; use at most {MAX_TAGS}", raw.len()),
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for t in raw {
        let tag = t.trim().trim_start_matches('#').to_ascii_lowercase();
        let ok = !tag.is_empty()
            && tag.len() <= 40
            && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(Error::invalid(
                field,
                format!(
                    "tag {t:?} must be one word of letters, digits, '-' or '_' (at most 40), e.g. \"storage\""
                ),
            ));
        }
        if !out.contains(&tag) {
            out.push(tag);
        }
    }
    Ok(out)
}

/// Check content and derive the title.
pub fn content_and_title(content: &str, title: Option<&str>) -> Result<(String, String)> {
    let content = content.trim();
    if !crate::guard::validate::has_visible(content) {
        return Err(Error::invalid(
            "content",
            "content is empty (or only invisible characters); say what to remember",
        ));
    }
    if content.contains('\0') {
        return Err(Error::invalid("content", "content contains a NUL character; send plain text"));
    }
    if content.chars().count() > MAX_CONTENT {
        return Err(Error::invalid(
            "content",
            format!("content is {} characters long; keep it under {MAX_CONTENT}", content.chars().count()),
        ));
    }
    let title = match title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) if t.chars().count() > MAX_TITLE => {
            return Err(Error::invalid(
                "title",
                format!("title is longer than {MAX_TITLE} characters; shorten it"),
            ));
        }
        Some(t) if t.contains('\n') => return Err(Error::invalid("title", "title must be one line")),
        Some(t) => t.to_owned(),
        None => {
            let first = content.lines().next().unwrap_or_default().trim_start_matches('#').trim();
            let mut t: String = first.chars().take(80).collect();
            if first.chars().count() > 80 {
                t.push('…');
            }
            t
        }
    };
    Ok((content.to_owned(), title))
}

/// A validated entry, ready to write.
struct Prepared {
    kind: Kind,
    title: String,
    content: String,
    tags: String,
    redacted: crate::guard::redact::Redactions,
    author: Option<crate::model::Author>,
    client: Option<String>,
}

fn prepare(new: &NewEntry) -> Result<Prepared> {
    let kind = Kind::parse("kind", &new.kind)?;
    if matches!(kind, Kind::Handover | Kind::ContextCarry | Kind::Session) {
        return Err(Error::invalid(
            "kind",
            "kind must be decision, blocker, summary or note; use save_handover for handovers (sessions are captured by the client's hooks)",
        ));
    }
    // Secrets never reach the database: scrubbed first, so a title made from the content
    // is made from the scrubbed text.
    let (content, mut redacted) = crate::guard::redact::scrub(&new.content);
    let title = new.title.as_deref().map(|t| redacted.clean(t));
    let (content, title) = content_and_title(&content, title.as_deref())?;
    let tags = tags("tags", &new.tags)?.join(" ");
    let client = new.client.as_deref().map(crate::guard::quoted::line).filter(|c| !c.is_empty());
    let client = client.map(|c| c.chars().take(60).collect());
    Ok(Prepared { kind, title, content, tags, redacted, author: new.author, client })
}

impl Prepared {
    fn row(&self) -> NewMemoryRow<'_> {
        NewMemoryRow {
            kind: self.kind.as_str().into(),
            title: self.title.as_str().into(),
            content: self.content.as_str().into(),
            tags: self.tags.as_str().into(),
            status: (self.kind == Kind::Blocker).then_some("open".into()),
            data: None,
            author: self.author,
            written_by: self.client.as_deref().map(Into::into),
            key: None,
        }
    }
}

/// Record a decision, blocker, summary or note.
pub fn remember(
    store: &dyn MemoryBackend,
    slug: &str,
    new: &NewEntry,
    session: Option<&str>,
) -> Result<Entry> {
    let mut entry = prepare(new)?;
    if entry.author.is_none() && session.is_some() {
        entry.author = Some(crate::model::Author::Agent);
    }
    let (slug, rows) = store.insert_memory(slug, &[entry.row()], session, check_writable)?;
    let row = rows.into_iter().next().ok_or_else(|| Error::storage("the entry vanished"))?;
    let mut stored = Entry::from_row(row, &slug);
    stored.redacted = entry.redacted.into_option();
    Ok(stored)
}

/// Record many entries in one transaction (imports, bulk loads): all land or none.
/// Returns how many were written.
pub fn remember_batch(
    store: &dyn MemoryBackend,
    slug: &str,
    batch: &[NewEntry],
    session: Option<&str>,
) -> Result<usize> {
    let prepared = batch
        .iter()
        .enumerate()
        .map(|(i, new)| prepare(new).map_err(|e| Error { message: format!("entry {i}: {}", e.message), ..e }))
        .collect::<Result<Vec<_>>>()?;
    let rows: Vec<NewMemoryRow<'_>> = prepared.iter().map(Prepared::row).collect();
    Ok(store.insert_memory(slug, &rows, session, check_writable)?.1.len())
}

/// What [`remember_each_with_data`] did.
#[derive(Debug, Default)]
pub struct Batch {
    /// The stored entries, each with its index in the batch.
    pub stored: Vec<(usize, Entry)>,
    /// Secrets taken out on the way.
    pub redacted: usize,
    /// The entries no entry may be (a NUL, an empty text), each with its index and why.
    pub refused: Vec<(usize, Error)>,
}

/// Record entries with data of their own (where an import came from), each checked
/// alone: one that breaks a rule is left out and named, the others land together in one
/// transaction. Each is checked and scrubbed once.
pub fn remember_each_with_data(
    store: &dyn MemoryBackend,
    slug: &str,
    batch: &[(NewEntry, String)],
) -> Result<Batch> {
    let mut done = Batch::default();
    let mut kept = Vec::with_capacity(batch.len());
    for (i, (new, data)) in batch.iter().enumerate() {
        match prepare(new) {
            Ok(p) => kept.push((i, p, data)),
            Err(e) => done.refused.push((i, e)),
        }
    }
    if kept.is_empty() {
        return Ok(done);
    }
    done.redacted = kept.iter().map(|(_, p, _)| p.redacted.count).sum();
    let rows: Vec<NewMemoryRow<'_>> = kept
        .iter()
        .map(|(_, p, data)| NewMemoryRow { data: Some(data.as_str().into()), ..p.row() })
        .collect();
    let (slug, rows) = store.insert_memory(slug, &rows, None, check_writable)?;
    done.stored =
        kept.iter().map(|(i, _, _)| *i).zip(rows.into_iter().map(|r| Entry::from_row(r, &slug))).collect();
    Ok(done)
}

/// A page of a project's memory, newest first.
pub fn list(store: &dyn MemoryBackend, slug: &str, query: &ListQuery) -> Result<Page> {
    let kind = query.kind.as_deref().map(|k| Kind::parse("kind", k)).transpose()?;
    let status = query.status.as_deref().map(|s| BlockerStatus::parse("status", s)).transpose()?;
    let limit = query.limit.unwrap_or(20);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(Error::invalid("limit", format!("limit {limit} is out of range; use 1 to {MAX_LIMIT}")));
    }
    let filter = PageFilter { kind, status, before: query.before, limit: limit + 1 };
    let (slug, mut rows) = store.memory_page(slug, &filter)?;
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    let next_before = if more { rows.last().map(|r| r.id) } else { None };
    Ok(Page { entries: rows.into_iter().map(|r| Entry::from_row(r, &slug)).collect(), next_before })
}

pub(crate) fn no_entry(slug: &str, id: i64) -> Error {
    Error::not_found("id", format!("no memory entry {id} in '{}'; list_memory shows the ids", slug.trim()))
}

/// Only an open blocker can be resolved.
fn open_blocker(row: &MemoryRow) -> Result<()> {
    if row.kind != "blocker" {
        return Err(Error::invalid("id", format!("entry {} is a {}, not a blocker", row.id, row.kind)));
    }
    if row.status.as_deref() == Some("resolved") {
        return Err(Error::conflict("id", format!("blocker {} is already resolved", row.id)));
    }
    Ok(())
}

/// Mark a blocker resolved.
pub fn resolve_blocker(
    store: &dyn MemoryBackend,
    slug: &str,
    id: i64,
    resolution: Option<&str>,
) -> Result<Entry> {
    if resolution.is_some_and(|r| r.chars().count() > MAX_CONTENT) {
        return Err(Error::invalid(
            "resolution",
            format!("resolution is longer than {MAX_CONTENT} characters"),
        ));
    }
    let (resolution, redacted) = match resolution.map(crate::guard::redact::scrub) {
        Some((text, found)) => (Some(text), found),
        None => (None, crate::guard::redact::Redactions::default()),
    };
    let data = json!({ "resolution": resolution.as_deref().map(str::trim) }).to_string();
    let (slug_found, row) = store
        .resolve_memory(slug, id, &data, check_writable, open_blocker)?
        .ok_or_else(|| no_entry(slug, id))?;
    let mut stored = Entry::from_row(row, &slug_found);
    stored.redacted = redacted.into_option();
    Ok(stored)
}

/// Hide an entry from lists, search and the preamble; the event log keeps what it was.
pub fn forget(store: &dyn MemoryBackend, slug: &str, id: i64) -> Result<Entry> {
    let (slug_found, row) =
        store.forget_memory(slug, id, check_writable)?.ok_or_else(|| no_entry(slug, id))?;
    Ok(Entry::from_row(row, &slug_found))
}

#[cfg(test)]
mod tests;
