//! Memory given back only when asked: a project's decisions and open blockers written
//! into a marked block of the one instruction file the person names (`AGENTS.md`,
//! `CLAUDE.md`) at the root of one of the project's checkouts. Only that block is ever
//! replaced; everything around it stays byte for byte; never a subfolder, never a file
//! nobody named. What goes in is memory, so untrusted: one line per entry, secrets
//! scrubbed, nothing that could close the block or open another.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::memory::Entry;
use crate::model::Project;
use crate::store::backend::MemoryBackend;

/// The block's first line starts with this.
pub const BEGIN: &str = "<!-- mooring:begin";
/// The block's last line.
pub const END: &str = "<!-- mooring:end -->";
/// The most of an existing file read (an instruction file is small).
const MAX_FILE: u64 = 1 << 20;

/// Which instruction file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `AGENTS.md` (Codex, and the clients that read it).
    AgentsMd,
    /// `CLAUDE.md` (Claude Code).
    ClaudeMd,
}

impl Target {
    /// The file's name.
    pub fn file_name(self) -> &'static str {
        match self {
            Target::AgentsMd => "AGENTS.md",
            Target::ClaudeMd => "CLAUDE.md",
        }
    }

    /// The command-line option that names it (for errors).
    pub fn field(self) -> &'static str {
        match self {
            Target::AgentsMd => "agents_md",
            Target::ClaudeMd => "claude_md",
        }
    }
}

/// One entry as one safe line, as the preamble quotes it: secrets out over the whole
/// text first, one line, no control or bidi characters, no markup that opens or closes a
/// wrapper or a comment.
fn line(text: &str) -> String {
    let (clean, _) = crate::guard::redact::scrub(text);
    let first = clean.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let quoted = crate::guard::quoted::line(first);
    // U+2011 (non-breaking hyphen): reads the same, never closes a comment.
    crate::humanize::clip(&quoted.replace("-->", "\u{2011}\u{2011}>"), 200)
}

/// The block for `project`: newest live decisions first, then the open blockers, each
/// with who wrote it, under the sentence that says this is recorded memory.
pub fn block(
    project: &Project,
    target: Target,
    decisions: &[Entry],
    blockers: &[Entry],
    teammates: bool,
) -> String {
    let mut out = format!(
        "{BEGIN} — written by `mooring export {} --{}`; edits inside are replaced -->\n",
        project.slug,
        target.field().replace('_', "-")
    );
    out.push_str(&format!("## Project memory: {} (from Mooring)\n", line(&project.name)));
    out.push_str(&format!("\n{}\n", crate::guard::quoted::FRAME));
    if decisions.is_empty() && blockers.is_empty() {
        out.push_str("\nNo decisions or open blockers yet.\n");
    }
    let by = |e: &Entry| line(&e.provenance(teammates));
    if !decisions.is_empty() {
        out.push_str("\nDecisions, newest first:\n");
        for d in decisions {
            out.push_str(&format!(
                "- {} (#{}, {}, {})\n",
                line(&d.title),
                d.id,
                d.created_at.get(..10).unwrap_or(""),
                by(d)
            ));
        }
    }
    if !blockers.is_empty() {
        out.push_str("\nOpen blockers:\n");
        for b in blockers {
            out.push_str(&format!("- {} (#{}, {})\n", line(&b.title), b.id, by(b)));
        }
    }
    out.push_str(END);
    out.push('\n');
    out
}

/// `existing` with its Mooring block replaced by `block` (appended when it has none).
/// `field` names the file in errors.
pub fn splice(existing: &str, block: &str, field: &str) -> Result<String> {
    let starts: Vec<usize> = line_starts(existing, BEGIN);
    let ends: Vec<usize> = line_starts(existing, END);
    match (starts.as_slice(), ends.as_slice()) {
        ([], []) => {
            let mut out = existing.to_owned();
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(block);
            Ok(out)
        }
        ([b], [e]) if b < e => {
            let after = existing[*e..].find('\n').map_or(existing.len(), |n| e + n + 1);
            Ok(format!("{}{block}{}", &existing[..*b], &existing[after..]))
        }
        _ => Err(Error::invalid(
            field,
            format!(
                "the file has {} `{BEGIN}` and {} `{END}` lines, not one pair in order; \
                 fix them by hand (keep one pair, or none) and export again",
                starts.len(),
                ends.len()
            ),
        )),
    }
}

/// Byte offsets of the lines that start with `marker`.
fn line_starts(text: &str, marker: &str) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    for l in text.split_inclusive('\n') {
        if l.trim_start().starts_with(marker) {
            out.push(at);
        }
        at += l.len();
    }
    out
}

/// `file` when it is `target`'s name at the root of one of `project`'s checkouts and,
/// if it exists, a plain file (not a link elsewhere).
pub fn check_path(project: &Project, target: Target, file: &Path) -> Result<PathBuf> {
    let field = target.field();
    if file.file_name().and_then(|n| n.to_str()) != Some(target.file_name()) {
        return Err(Error::invalid(
            field,
            format!(
                "{} is not named {}; name the {} at a checkout's root",
                file.display(),
                target.file_name(),
                target.file_name()
            ),
        ));
    }
    let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(parent).map_err(|e| {
        Error::invalid(field, format!("{}: {e}; name a file in an existing checkout", parent.display()))
    })?;
    let roots: Vec<PathBuf> =
        project.code_paths.iter().filter_map(|c| std::fs::canonicalize(&c.path).ok()).collect();
    if !roots.contains(&dir) {
        let known: Vec<&str> = project.code_paths.iter().map(|c| c.path.as_str()).collect();
        return Err(Error::invalid(
            field,
            format!(
                "{} is not at the root of a checkout of {} ({}); Mooring writes only there, never in a subfolder",
                dir.display(),
                project.slug,
                if known.is_empty() {
                    "it has no code paths: add one with `mooring projects SLUG --code-path DIR`".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        ));
    }
    let path = dir.join(target.file_name());
    match std::fs::symlink_metadata(&path) {
        Ok(m) if !m.file_type().is_file() => Err(Error::invalid(
            field,
            format!("{} is a link or not a plain file; Mooring writes only a plain file", path.display()),
        )),
        Ok(m) if m.len() > MAX_FILE => {
            Err(Error::invalid(field, format!("{} is over 1 MiB; not an instruction file", path.display())))
        }
        _ => Ok(path),
    }
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The file.
    pub path: PathBuf,
    /// Decisions in the block.
    pub decisions: usize,
    /// Open blockers in the block.
    pub blockers: usize,
    /// Whether the file changed.
    pub changed: bool,
}

/// Write `project`'s block into `file` (see [`check_path`]), at most `max_decisions`
/// decisions and `max_blockers` open blockers; the rest of the file is kept.
pub fn export(
    memory_store: &dyn MemoryBackend,
    project: &Project,
    target: Target,
    file: &Path,
    (max_decisions, max_blockers): (u32, u32),
) -> Result<Written> {
    let path = check_path(project, target, file)?;
    // Live entries only: a superseded decision beside the one that replaced it would be
    // two contradicting "current" decisions (forgotten ones are never listed).
    let (decisions, _) =
        super::preamble::recent(memory_store, &project.slug, "decision", None, max_decisions.min(200))?;
    let (blockers, _) =
        super::preamble::recent(memory_store, &project.slug, "blocker", Some("open"), max_blockers.min(200))?;
    let teammates = memory_store.authors_are_people(&project.slug);
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::invalid(target.field(), format!("cannot read {}: {e}", path.display()))),
    };
    let text = splice(&existing, &block(project, target, &decisions, &blockers, teammates), target.field())?;
    let changed = text != existing;
    if changed {
        replace(&path, &text)?;
    }
    Ok(Written { path, decisions: decisions.len(), blockers: blockers.len(), changed })
}

/// Write `text` to `path` whole or not at all (a new file beside it, moved over it),
/// keeping the old file's permissions.
fn replace(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("md.mooring-tmp");
    let fail = |e: std::io::Error| Error::storage(format!("cannot write {}: {e}", path.display()));
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(fail)?;
    f.write_all(text.as_bytes()).and_then(|_| f.sync_all()).map_err(fail)?;
    if let Ok(m) = std::fs::metadata(path) {
        std::fs::set_permissions(&tmp, m.permissions()).map_err(fail)?;
    }
    std::fs::rename(&tmp, path).map_err(fail)
}

#[cfg(test)]
#[path = "instructions_tests.rs"]
mod tests;
