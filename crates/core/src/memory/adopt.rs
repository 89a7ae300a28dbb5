//! The clients' own memory brought in: Claude Code's auto memory, Codex's rollout
//! summaries, Gemini CLI's project memory and the instruction files at a checkout's
//! root, each section once (idempotent on its source and text), with where and when it
//! came from, secrets scrubbed. Those files are read, never changed. Where each client
//! keeps them was read from the pinned clients themselves (Claude Code 2.1.330, Codex
//! 0.169, Gemini CLI 0.61); see `docs/import.md`.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::guard::untrusted::{read_text, read_text_within};
use crate::memory::NewEntry;

mod parse;
use crate::store::backend::{MemoryBackend, PageFilter};
use parse::{body, codex_cwd, frontmatter, sections, title_of, topic, untyped, without_own_block};

/// Longest file read.
const MAX_FILE: u64 = 1 << 20;
/// Most files read from one memory folder.
const MOST_FILES: usize = 500;
/// Longest section kept, in characters (an entry's limit is larger; a memory is short).
const SECTION_CHARS: usize = 8_000;
/// Most sections taken from one file (a memory or instruction file has tens).
pub const MOST_SECTIONS_A_FILE: usize = 200;
/// Most sections taken in one import.
pub const MOST_SECTIONS: usize = 1_000;

/// Where memory is brought in from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Claude Code's auto memory: `~/.claude/projects/<checkout>/memory/*.md`.
    ClaudeMemory,
    /// Codex's memories: `~/.codex/memories/rollout_summaries/*.md` of the checkout.
    CodexMemory,
    /// Gemini CLI's project memory: `~/.gemini/tmp/<project>/memory/*.md`.
    GeminiMemory,
    /// Each client's instruction file at the checkout's root (`CLAUDE.md`, `AGENTS.md`,
    /// `GEMINI.md`, `QWEN.md`, `.github/copilot-instructions.md`, `.windsurfrules`).
    Instructions,
}

impl Source {
    /// From its command-line name.
    pub fn parse(field: &str, name: &str) -> Result<Self> {
        Ok(match name {
            "claude-memory" => Self::ClaudeMemory,
            "codex-memory" => Self::CodexMemory,
            "gemini-memory" => Self::GeminiMemory,
            "instructions" => Self::Instructions,
            other => {
                return Err(Error::invalid(
                    field,
                    format!(
                        "'{other}' is not a source; use claude-memory, codex-memory, gemini-memory or instructions"
                    ),
                ));
            }
        })
    }

    /// Its command-line name (also the tag its entries carry).
    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeMemory => "claude-memory",
            Self::CodexMemory => "codex-memory",
            Self::GeminiMemory => "gemini-memory",
            Self::Instructions => "instructions",
        }
    }

    /// Its name for people.
    fn said(self) -> &'static str {
        match self {
            Self::ClaudeMemory => "Claude Code's memory",
            Self::CodexMemory => "Codex's memories",
            Self::GeminiMemory => "Gemini CLI's memory",
            Self::Instructions => "the instruction file",
        }
    }
}

/// Where the clients keep their files on this machine.
#[derive(Debug, Clone)]
pub struct Homes {
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex: PathBuf,
    /// `~/.gemini`.
    pub gemini: PathBuf,
}

impl Homes {
    /// From the environment, under `home`.
    pub fn from_env(home: &Path) -> Self {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        Self {
            claude: var("CLAUDE_CONFIG_DIR").unwrap_or_else(|| home.join(".claude")),
            codex: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            gemini: home.join(".gemini"),
        }
    }

    /// The folders `source` reads for a checkout at `root` (some may not exist).
    pub fn folders(&self, source: Source, root: &Path) -> Vec<PathBuf> {
        match source {
            Source::ClaudeMemory => vec![self.claude.join("projects").join(claude_key(root)).join("memory")],
            Source::CodexMemory => vec![self.codex.join("memories").join("rollout_summaries")],
            Source::GeminiMemory => gemini_dirs(&self.gemini, root),
            Source::Instructions => vec![root.to_path_buf()],
        }
    }
}

/// Claude Code's folder name for a checkout: every character but ASCII letters and digits
/// made `-` (its own rule; names over 200 characters get a hash Mooring does not make,
/// and are found by their first 200).
pub fn claude_key(root: &Path) -> String {
    root.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// Gemini CLI's memory folders for a checkout: `tmp/<id>/memory` where `tmp/<id>/.project_root`
/// names the checkout.
fn gemini_dirs(gemini: &Path, root: &Path) -> Vec<PathBuf> {
    let tmp = gemini.join("tmp");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten().take(MOST_FILES) {
        let owner = read_text(&entry.path().join(".project_root"), 4096).ok().flatten();
        if owner.is_some_and(|o| Path::new(o.trim()) == root) {
            out.push(entry.path().join("memory"));
        }
    }
    out.sort();
    out
}

/// The checkouts of a project whose memory the clients keep: each code path and the git
/// top level holding it (Claude Code names its folder after the top level).
pub fn checkouts(project: &crate::model::Project) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for cp in &project.code_paths {
        let path = PathBuf::from(&cp.path);
        let top = gix::discover(&path).ok().and_then(|r| r.workdir().map(Path::to_path_buf));
        for p in top.into_iter().chain([path]) {
            let p = p.canonicalize().unwrap_or(p);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// One section found in a client's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The source.
    pub source: Source,
    /// The file, as people read it (`~/…` or the checkout-relative name).
    pub file: String,
    /// The line the section starts on.
    pub line: usize,
    /// Its title (the heading, the memory's description or name).
    pub title: String,
    /// Its text.
    pub content: String,
    /// The file's modification day (`2026-11-20`).
    pub date: Option<String>,
    /// The client's own type (`feedback`, `project`, …), when it gives one.
    pub kind: Option<String>,
    /// The working directory a Codex summary names: it comes in only where that
    /// directory resolves ([`keep_own`]).
    pub cwd: Option<String>,
}

/// What [`find`] read, and what it did not with the reason, one line each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// The sections found, in file order.
    pub found: Vec<Found>,
    /// "FILE: why", for each file or section left out.
    pub skipped: Vec<String>,
}

/// Every section `source` holds for the checkouts `roots`, in file order. A file is read
/// only if it is regular, or a link that stays inside its checkout (memory folders:
/// inside that folder); at most [`MOST_SECTIONS_A_FILE`] sections a file and
/// [`MOST_SECTIONS`] in all.
pub fn find(homes: &Homes, source: Source, roots: &[PathBuf], home: &Path) -> Findings {
    let mut out = Findings::default();
    for root in roots {
        for dir in homes.folders(source, root) {
            let files: Vec<PathBuf> = match source {
                // An instruction "file" may be a folder of rules (Cline's `.clinerules/`):
                // its Markdown files are read (`symlink_metadata`: a link is not followed
                // here; the read below checks where a file leads).
                Source::Instructions => mooring_clients::Client::instruction_files()
                    .iter()
                    .map(|f| dir.join(f))
                    .flat_map(|f| match std::fs::symlink_metadata(&f) {
                        Ok(m) if m.is_dir() => markdown_files(&f),
                        _ => vec![f],
                    })
                    .collect(),
                _ => markdown_files(&dir),
            };
            for file in files {
                let shown = match source {
                    Source::Instructions => file
                        .strip_prefix(&dir)
                        .map(|rel| rel.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    _ => shown_path(&file, home),
                };
                let text = match read_text_within(&file, &dir, MAX_FILE) {
                    Ok(Some(text)) => text,
                    Ok(None) => continue,
                    Err(why) => {
                        out.skipped.push(format!("{shown}: {why}"));
                        continue;
                    }
                };
                read_file(source, root, &file, &shown, &text, &mut out);
            }
        }
    }
    out
}

/// The sections of one file, into `out`.
fn read_file(source: Source, root: &Path, file: &Path, shown: &str, text: &str, out: &mut Findings) {
    let stamped = frontmatter(text).0.into_iter().find(|(k, _)| k == "modified").map(|(_, v)| v);
    let date = stamped
        .and_then(|v| v.trim_matches('"').get(..10).map(str::to_owned))
        .filter(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok());
    let date = date.or_else(|| {
        std::fs::metadata(file)
            .and_then(|m| m.modified())
            .ok()
            .map(|t| chrono::DateTime::<chrono::Utc>::from(t).format("%Y-%m-%d").to_string())
    });
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut cwd = None;
    let sections: Vec<(parse::Section, Option<String>)> = match source {
        // Claude Code's MEMORY.md is the index of its topic files.
        Source::ClaudeMemory if name == "MEMORY.md" => return,
        Source::ClaudeMemory => topic(text, &name).into_iter().collect(),
        Source::CodexMemory => match codex_cwd(text) {
            // Under this checkout; whether a nested project owns it is [`keep_own`]'s call.
            Some(dir) if Path::new(&dir).starts_with(root) => {
                cwd = Some(dir);
                vec![((title_of(text, &name), body(text), 1), None)]
            }
            _ => return,
        },
        Source::Instructions => untyped(sections(&without_own_block(text), &name)),
        Source::GeminiMemory => untyped(sections(text, &name)),
    };
    let visible: Vec<_> =
        sections.into_iter().filter(|((_, c, _), _)| crate::guard::validate::has_visible(c)).collect();
    let room = MOST_SECTIONS.saturating_sub(out.found.len()).min(MOST_SECTIONS_A_FILE);
    if visible.len() > room {
        out.skipped.push(format!(
            "{shown}: {} of its {} sections left out (at most {MOST_SECTIONS_A_FILE} a file and {MOST_SECTIONS} an import)",
            visible.len() - room,
            visible.len()
        ));
    }
    for ((title, content, line), kind) in visible.into_iter().take(room) {
        let content = crate::humanize::clip(content.trim(), SECTION_CHARS);
        out.found.push(Found {
            source,
            file: shown.to_owned(),
            line,
            title,
            content,
            date: date.clone(),
            kind,
            cwd: cwd.clone(),
        });
    }
}

/// Leave out of `findings` the Codex summaries whose working directory the resolver gives
/// to another project than `slug` (a nested checkout's summary is its own project's).
pub fn keep_own(store: &crate::Store, slug: &str, findings: &mut Findings) -> Result<()> {
    let index = crate::projects::live_index::LiveIndex::new();
    let mut owner: std::collections::BTreeMap<String, Option<String>> = Default::default();
    let mut kept = Vec::with_capacity(findings.found.len());
    for f in std::mem::take(&mut findings.found) {
        let Some(cwd) = &f.cwd else {
            kept.push(f);
            continue;
        };
        let owned = match owner.get(cwd) {
            Some(known) => known.clone(),
            None => {
                let hints = crate::projects::resolve::Hints { cwd: Some(cwd.clone()), ..Default::default() };
                let project = crate::projects::decide::decide(store, &index, hints)?.resolution.project;
                owner.insert(cwd.clone(), project.clone());
                project
            }
        };
        match owned {
            Some(p) if p == slug => kept.push(f),
            other => findings.skipped.push(format!(
                "{}: its working directory belongs to {}",
                f.file,
                other.map_or_else(|| "no project".to_owned(), |p| format!("'{p}'"))
            )),
        }
    }
    findings.found = kept;
    Ok(())
}

/// The Markdown files of a folder, by name.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .take(MOST_FILES)
        .collect();
    files.sort();
    files
}

/// A file as people read it: under `~` when it is in the home folder.
fn shown_path(file: &Path, home: &Path) -> String {
    match file.strip_prefix(home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => file.display().to_string(),
    }
}

/// Every source, in the order `import_all` reads them.
pub const SOURCES: [Source; 4] =
    [Source::ClaudeMemory, Source::CodexMemory, Source::GeminiMemory, Source::Instructions];

/// What the hub brings in when the person turned `import_clients_memory` on: every source
/// for every project that is not archived and has a code path, in one import (one read of
/// what the project imported before) per project. What each project's import did, for
/// those that added anything.
pub fn import_all(
    store: &crate::Store,
    memory: &dyn MemoryBackend,
    homes: &Homes,
    home: &Path,
) -> Result<Vec<(String, Imported)>> {
    if !crate::settings::Setting::ImportClientsMemory.is_on(store)? {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for p in crate::Registry::new(store).list(None)? {
        let roots = checkouts(&p);
        if p.status == crate::model::ProjectStatus::Archived || roots.is_empty() {
            continue;
        }
        let mut found = Findings::default();
        for &s in &SOURCES {
            let more = find(homes, s, &roots, home);
            found.found.extend(more.found);
            found.skipped.extend(more.skipped);
        }
        keep_own(store, &p.slug, &mut found)?;
        let done = import(memory, &p.slug, &found)?;
        for why in &done.skipped {
            tracing::warn!(project = %p.slug, "import skipped {why}");
        }
        if done.added > 0 {
            out.push((p.slug, done));
        }
    }
    Ok(out)
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Imported {
    /// Sections found.
    pub found: usize,
    /// Entries added.
    pub added: usize,
    /// Sections already in memory as they are.
    pub unchanged: usize,
    /// Earlier imports of a section whose text changed, superseded by the new one.
    pub superseded: usize,
    /// Secrets taken out on the way.
    pub redacted: usize,
    /// "FILE: why" (or "FILE:LINE: why") for each file or section left out.
    pub skipped: Vec<String>,
}

/// The key that makes an import idempotent: the source, the file, the section and its
/// text.
fn key(f: &Found) -> String {
    let digest =
        Sha256::digest(format!("{}\0{}\0{}\0{}", f.source.name(), f.file, f.title, f.content).as_bytes());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// Where a section came from, for its entry's data: the same file and section
/// imported again with other text supersedes the earlier entry.
fn place(f: &Found) -> String {
    format!("{}\0{}\0{}", f.source.name(), f.file, f.title)
}

/// Bring `found` into `slug` as notes: each section once, a changed one superseding its
/// earlier import; all in one transaction. A section no entry may hold (a NUL, say) is
/// skipped with its file and line; the others still come in.
pub fn import(memory: &dyn MemoryBackend, slug: &str, findings: &Findings) -> Result<Imported> {
    let found = &findings.found;
    let mut done = Imported { found: found.len(), skipped: findings.skipped.clone(), ..Imported::default() };
    let (known, places) = imported(memory, slug)?;
    // Each section to add, with where it came from and the earlier import it replaces.
    let mut rows: Vec<(NewEntry, String)> = Vec::new();
    let mut origin: Vec<(&Found, Option<i64>)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in found {
        let k = key(f);
        if known.contains(&k) || !seen.insert(k.clone()) {
            done.unchanged += 1;
            continue;
        }
        let mut tags = vec!["imported".to_owned(), f.source.name().to_owned()];
        tags.extend(
            f.kind.as_deref().and_then(|t| super::tags("type", &[t.to_owned()]).ok()).into_iter().flatten(),
        );
        let from = match &f.date {
            Some(d) => format!("_From {} ({}), {d}._", f.source.said(), f.file),
            None => format!("_From {} ({})._", f.source.said(), f.file),
        };
        let entry = NewEntry {
            kind: "note".into(),
            title: Some(crate::humanize::clip(&f.title, super::MAX_TITLE - 1)),
            content: format!("{}\n\n{from}", f.content),
            tags,
            author: Some(crate::model::Author::Import),
            client: None,
        };
        let data = serde_json::json!({ "import": { "key": k, "place": place(f), "date": f.date } });
        rows.push((entry, data.to_string()));
        origin.push((f, places.get(&place(f)).copied()));
    }
    let batch = super::remember_each_with_data(memory, slug, &rows)?;
    for (i, e) in &batch.refused {
        let f = origin[*i].0;
        done.skipped.push(format!("{}:{}: {}", f.file, f.line, e.message));
    }
    done.added = batch.stored.len();
    done.redacted = batch.redacted;
    for (i, new) in &batch.stored {
        if let Some(old) = origin[*i].1
            && memory.supersede_memory(slug, old, Some(new.id), super::check_writable)?.is_some()
        {
            done.superseded += 1;
        }
    }
    Ok(done)
}

/// The keys of what was imported into `slug` before, and the newest live import of each
/// place.
fn imported(
    memory: &dyn MemoryBackend,
    slug: &str,
) -> Result<(std::collections::BTreeSet<String>, std::collections::BTreeMap<String, i64>)> {
    let mut keys = std::collections::BTreeSet::new();
    let mut places = std::collections::BTreeMap::new();
    let mut before = None;
    loop {
        let filter = PageFilter { kind: Some(crate::model::Kind::Note), status: None, before, limit: 200 };
        let (_, rows) = memory.memory_page(slug, &filter)?;
        before = (rows.len() == 200).then(|| rows.last().map(|r| r.id)).flatten();
        for r in rows {
            let Some(data) =
                r.data.as_deref().and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
            else {
                continue;
            };
            let Some(i) = data.get("import") else { continue };
            if let Some(k) = i.get("key").and_then(|k| k.as_str()) {
                keys.insert(k.to_owned());
            }
            if r.links.superseded_by.is_none()
                && let Some(p) = i.get("place").and_then(|p| p.as_str())
            {
                places.entry(p.to_owned()).or_insert(r.id);
            }
        }
        if before.is_none() {
            return Ok((keys, places));
        }
    }
}

#[cfg(test)]
mod tests;
