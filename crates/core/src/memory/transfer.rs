//! Export a project to a folder of Markdown files people can read, and import it back.
//! Each record is a `<!-- mooring {json} -->` line (what a program needs), a `##` title
//! and the text; importing what export wrote and exporting again gives the same files.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::humanize::now;
use crate::model::{PathState, ProjectStatus};
use crate::projects::registry::find;
use crate::store::memory::{self as mq, Filter};
use crate::store::projects::{self, NewProjectRow};
use crate::store::rows::{Links, NewMemoryRow};
use crate::store::{Store, code_paths, events, locks};
use crate::{paths, projects::slug as slugs};

const MARK: &str = "<!-- mooring ";
const KIND_FILES: [(&str, &str, &str); 7] = [
    ("decision", "decisions.md", "Decisions"),
    ("blocker", "blockers.md", "Blockers"),
    ("summary", "summaries.md", "Summaries"),
    ("note", "notes.md", "Notes"),
    ("context_carry", "context-carry.md", "Context carried between sessions"),
    ("session", "sessions.md", "Captured sessions"),
    ("handover", "handovers.md", "Handovers"),
];

#[derive(Debug, Serialize, Deserialize)]
struct ProjectMeta {
    slug: String,
    name: String,
    status: ProjectStatus,
    repo_url: Option<String>,
    notes_path: Option<String>,
    code_paths: Vec<String>,
    created_at: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct EntryMeta {
    kind: String,
    created_at: String,
    tags: Vec<String>,
    status: Option<String>,
    data: Option<Value>,
    /// Shown for people; an import never trusts it for anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    written_by: Option<String>,
    /// Its id where it was exported, when another entry's links name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<i64>,
    /// What a captured session or a week's digest is found by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
    /// How it stood to the other exported entries.
    #[serde(default, skip_serializing_if = "links_none")]
    links: Links,
}

fn links_none(l: &Links) -> bool {
    *l == Links::default()
}

#[derive(Debug, Serialize, Deserialize)]
struct LockMeta {
    topic: String,
    version: i64,
    created_at: String,
    tags: Vec<String>,
    /// Shown for people; an import never trusts it for anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    written_by: Option<String>,
}

/// One parsed block: its JSON, title and text.
struct Block {
    meta: Value,
    title: String,
    body: String,
    /// Line of the block's marker in its file (1-based), for errors.
    line: usize,
}

fn block(meta: &impl Serialize, title: &str, body: &str) -> String {
    let json = serde_json::to_string(meta).unwrap_or_default();
    format!("{MARK}{json} -->\n## {title}\n\n{}\n\n", body.trim_end())
}

fn parse_blocks(text: &str, file: &str) -> Result<Vec<Block>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
    while let Some((at, line)) = lines.next() {
        let bad = |why: &str| Error::invalid("dir", format!("{file} line {at}: not a Mooring export: {why}"));
        let Some(rest) = line.strip_prefix(MARK) else { continue };
        let json = rest.strip_suffix(" -->").ok_or_else(|| bad("an unterminated marker"))?;
        let meta: Value = serde_json::from_str(json).map_err(|e| bad(&format!("bad marker JSON ({e})")))?;
        let title = lines
            .next()
            .and_then(|(_, l)| l.strip_prefix("## "))
            .ok_or_else(|| bad("a marker without a title"))?;
        let mut body = Vec::new();
        while let Some((_, l)) = lines.peek() {
            if l.starts_with(MARK) {
                break;
            }
            body.push(*l);
            lines.next();
        }
        let body = body.join("\n").trim().to_owned();
        blocks.push(Block { meta, title: title.to_owned(), body, line: at });
    }
    Ok(blocks)
}

/// Write `slug` into `dir` (created; it must be empty if it exists). Returns the files written.
pub fn export(store: &Store, slug: &str, dir: &Path) -> Result<Vec<String>> {
    if dir.exists() && std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err(Error::invalid(
            "to",
            format!("{} is not empty; export into a new or empty folder", dir.display()),
        ));
    }
    let files = store.read(|c| {
        let p = find(c, "project", slug)?;
        let meta = ProjectMeta {
            slug: p.slug.clone(),
            name: p.name.clone(),
            status: p.status,
            repo_url: p.repo_url.clone(),
            notes_path: p.notes_path.clone(),
            code_paths: p.code_paths.iter().map(|c| c.path.clone()).collect(),
            created_at: p.created_at.clone(),
        };
        let mut people = format!("- Slug: {}\n- Status: {}\n", p.slug, p.status);
        for (label, v) in [("Repo", &p.repo_url), ("Notes", &p.notes_path)] {
            if let Some(v) = v {
                people.push_str(&format!("- {label}: {v}\n"));
            }
        }
        for cp in &meta.code_paths {
            people.push_str(&format!("- Code: {cp}\n"));
        }
        let body = format!("{people}\n### Description\n\n{}", p.description);
        let mut files = vec![("project.md".to_owned(), block(&meta, &p.name, &body))];
        let all = mq::list(c, p.id, &Filter { limit: u32::MAX, ..Filter::default() })?;
        // An entry carries its id only when another one's link names it.
        let named: std::collections::HashSet<i64> =
            all.iter().flat_map(|r| [r.links.superseded_by, r.links.folded_into]).flatten().collect();
        for (kind, file, heading) in KIND_FILES {
            let mut text = format!("# {heading} — {}\n\n", p.name);
            for row in all.iter().rev().filter(|r| r.kind == kind) {
                let meta = EntryMeta {
                    kind: row.kind.clone(),
                    created_at: row.created_at.clone(),
                    tags: row.tags.split_whitespace().map(str::to_owned).collect(),
                    status: row.status.clone(),
                    data: row.data.as_deref().and_then(|d| serde_json::from_str(d).ok()),
                    written_by: row.written_by.clone(),
                    id: named.contains(&row.id).then_some(row.id),
                    key: row.key.clone(),
                    links: row.links.clone(),
                };
                text.push_str(&block(&meta, &row.title, &row.content));
            }
            files.push((file.to_owned(), text));
        }
        let mut text = format!("# Context locks — {}\n\n", p.name);
        for l in locks::all_versions(c, p.id)? {
            let meta = LockMeta {
                topic: l.topic.clone(),
                version: l.version,
                created_at: l.created_at.clone(),
                tags: l.tags.split_whitespace().map(str::to_owned).collect(),
                written_by: l.written_by.clone(),
            };
            text.push_str(&block(&meta, &format!("{} (v{})", l.topic, l.version), &l.content));
        }
        files.push(("locks.md".to_owned(), text));
        Ok(files)
    })?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::invalid("to", format!("cannot create {}: {e}", dir.display())))?;
    for (name, text) in &files {
        std::fs::write(dir.join(name), text)
            .map_err(|e| Error::storage(format!("cannot write {}: {e}", dir.join(name).display())))?;
    }
    Ok(files.into_iter().map(|(n, _)| n).collect())
}

/// Largest file an import reads.
pub const MAX_IMPORT_FILE: u64 = 8 * 1024 * 1024;

fn read(dir: &Path, file: &str) -> Result<String> {
    let path = dir.join(file);
    match crate::guard::untrusted::read_text(&path, MAX_IMPORT_FILE) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(Error::invalid(
            "dir",
            format!("{} is missing; give a folder written by mooring export", path.display()),
        )),
        Err(why) => Err(Error::invalid("dir", format!("cannot read {}: {why}", path.display()))),
    }
}

/// `file line N: field: what is wrong`, keeping the field for the caller.
fn at(file: &str, line: usize, e: Error) -> Error {
    Error { message: format!("{file} line {line}: {}", e.message), ..e }
}

fn meta<T: for<'de> Deserialize<'de>>(v: Value, file: &str, line: usize) -> Result<T> {
    serde_json::from_value(v)
        .map_err(|e| Error::invalid("dir", format!("{file} line {line}: a marker Mooring cannot read: {e}")))
}

/// Parse a memory file as an import does (for the property tests).
#[cfg(test)]
pub(crate) fn parse_for_tests(text: &str) -> Result<()> {
    for b in parse_blocks(text, "decisions.md")? {
        meta::<EntryMeta>(b.meta, "decisions.md", b.line)?;
    }
    Ok(())
}

/// Import a folder written by [`export`]; the slug must be free. Returns the slug.
pub fn import(store: &Store, dir: &Path) -> Result<String> {
    let project_blocks = parse_blocks(&read(dir, "project.md")?, "project.md")?;
    let head = project_blocks
        .into_iter()
        .next()
        .ok_or_else(|| Error::invalid("dir", "project.md holds no project"))?;
    let head_line = head.line;
    let mut pm: ProjectMeta = meta(head.meta, "project.md", head.line)?;
    // The same field rules as every other writer: a file is no more trusted than a client.
    let project_rules = |pm: &mut ProjectMeta| -> Result<()> {
        slugs::validate(&pm.slug)?;
        pm.name = crate::guard::validate::name(&pm.name)?;
        pm.repo_url = match pm.repo_url.as_deref() {
            Some(u) => crate::guard::validate::repo_url(u)?,
            None => None,
        };
        if let Some(n) = pm.notes_path.as_deref() {
            pm.notes_path = Some(paths::normalize("notes_path", n, None)?.as_str().to_owned());
        }
        Ok(())
    };
    project_rules(&mut pm).map_err(|e| at("project.md", head_line, e))?;
    let description =
        head.body.split_once("### Description\n").map(|(_, d)| d.trim().to_owned()).unwrap_or_default();
    let description =
        crate::guard::validate::description(&description).map_err(|e| at("project.md", head_line, e))?;
    let mut entries = Vec::new();
    for (_, file, _) in KIND_FILES {
        for b in parse_blocks(&read(dir, file)?, file)? {
            let m = meta::<EntryMeta>(b.meta, file, b.line)?;
            let checked = crate::memory::Kind::parse("kind", &m.kind)
                .and_then(|_| crate::memory::content_and_title(&b.body, Some(&b.title)))
                .and_then(|ok| crate::memory::tags("tags", &m.tags).map(|_| ok));
            let (body, title) = checked.map_err(|e| at(file, b.line, e))?;
            entries.push((m, title, body));
        }
    }
    let mut lock_rows = Vec::new();
    for b in parse_blocks(&read(dir, "locks.md")?, "locks.md")? {
        let m = meta::<LockMeta>(b.meta, "locks.md", b.line)?;
        crate::memory::locks::check_version(&m.topic, &b.body).map_err(|e| at("locks.md", b.line, e))?;
        lock_rows.push((m, b.body));
    }
    lock_rows.sort_by(|a, b| (&a.0.topic, a.0.version).cmp(&(&b.0.topic, b.0.version)));
    // A folder from elsewhere may carry secrets: they are redacted like any other write.
    let mut redacted = crate::guard::redact::Redactions::default();
    let entries: Vec<_> = entries
        .into_iter()
        .map(|(mut m, title, body)| {
            m.data = m.data.take().and_then(|d| serde_json::from_str(&redacted.clean(&d.to_string())).ok());
            // A folder exported before links had their own fields kept them in `data`,
            // naming ids it did not carry: nothing they could point at here.
            if let Some(Value::Object(d)) = &mut m.data {
                for legacy in ["superseded_by", "superseded_at", "folded_at"] {
                    d.remove(legacy);
                }
            }
            (m, redacted.clean(&title), redacted.clean(&body))
        })
        .collect();
    let lock_rows: Vec<_> = lock_rows.into_iter().map(|(m, body)| (m, redacted.clean(&body))).collect();
    if redacted.count > 0 {
        tracing::warn!("import: {}", redacted.message);
    }
    store.write(|tx| {
        if projects::slug_exists(tx, &pm.slug)? {
            return Err(Error::conflict(
                "slug",
                format!("a project '{}' already exists; delete or archive it before importing", pm.slug),
            ));
        }
        let id = projects::insert(
            tx,
            &NewProjectRow {
                slug: &pm.slug,
                name: &pm.name,
                description: &description,
                repo_url: pm.repo_url.as_deref(),
                notes_path: pm.notes_path.as_deref(),
                now: &pm.created_at,
            },
        )?;
        if pm.status != ProjectStatus::Active {
            projects::set_status(tx, id, pm.status, &pm.created_at)?;
        }
        for raw in &pm.code_paths {
            let n = paths::normalize("code_path", raw, None)?;
            paths::check_claimable("code_path", &n.path)?;
            if let Some((_, owner)) = code_paths::owner(tx, n.as_str())? {
                return Err(Error::conflict(
                    "code_path",
                    format!("{} already belongs to project '{owner}'", n.as_str()),
                ));
            }
            let state = if n.exists { PathState::Present } else { PathState::Missing };
            code_paths::insert(tx, id, n.as_str(), state, &pm.created_at)?;
        }
        let mut copied = std::collections::HashMap::new();
        for (m, title, body) in &entries {
            let data = m.data.as_ref().map(Value::to_string);
            let row = NewMemoryRow {
                kind: m.kind.as_str().into(),
                title: title.as_str().into(),
                content: body.as_str().into(),
                tags: m.tags.join(" ").into(),
                status: m.status.as_deref().map(Into::into),
                data: data.as_deref().map(Into::into),
                author: Some(crate::model::Author::Import),
                written_by: None,
                key: m.key.as_deref().map(Into::into),
            };
            // Imported entries belong to no session: a file cannot name one.
            let new = mq::insert(tx, id, &row, None, &m.created_at)?;
            if let Some(old) = m.id {
                copied.insert(old, new);
            }
            if m.links != Links::default() {
                mq::set_links(tx, new, &m.links)?;
            }
        }
        mq::relink(tx, id, &copied)?;
        for (m, body) in &lock_rows {
            let v = locks::insert_next(tx, id, &m.topic, body, &m.tags.join(" "), None, &m.created_at)?;
            if v != m.version {
                return Err(Error::invalid(
                    "dir",
                    format!("locks.md skips a version of '{}' (expected v{v})", m.topic),
                ));
            }
        }
        let detail =
            json!({ "from": dir.display().to_string(), "entries": entries.len(), "locks": lock_rows.len() });
        events::record(tx, id, &pm.slug, "imported", &detail, &now())?;
        Ok(pm.slug.clone())
    })
}

#[cfg(test)]
mod tests;
