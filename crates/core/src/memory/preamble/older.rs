//! The preamble's sections about what came before: the last captured session, and the
//! weekly digests old sessions were folded into.

use super::Section;
use crate::error::Result;
use crate::guard::quoted;
use crate::memory::handover;
use crate::model::Kind;
use crate::store::backend::{MemoryBackend, PageFilter};
use crate::store::rows::MemoryRow;

/// The tag of a week's digest (`capture::digest` writes them).
const DIGEST_TAG: &str = "digest";
/// Longest digest brief, in characters.
const BRIEF_CHARS: usize = 420;

/// The weekly digests old sessions were folded into: the newest `cap` in brief, and how
/// many sessions and weeks there are in all.
pub(super) fn digests(memory: &dyn MemoryBackend, slug: &str, cap: u32) -> Result<Option<Section>> {
    let filter = PageFilter { kind: Some(Kind::ContextCarry), status: None, before: None, limit: 200 };
    let (_, rows) = memory.memory_page(slug, &filter)?;
    let weeks: Vec<MemoryRow> =
        rows.into_iter().filter(|r| r.tags.split_whitespace().any(|t| t == DIGEST_TAG)).collect();
    if weeks.is_empty() {
        return Ok(None);
    }
    // Sessions folded now: one restored or resumed since is not counted.
    let folded = memory.count_live(slug, Kind::Session, None, true)? as usize;
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let shown: Vec<&MemoryRow> = weeks.iter().take(cap as usize).collect();
    Ok(Some(Section {
        name: "digests",
        heading: format!(
            "## Earlier weeks ({} folded into {}; the newest here)\n",
            plural(folded, "session"),
            plural(weeks.len(), "weekly digest")
        ),
        items: shown.iter().map(|r| brief(r)).collect(),
        ids: shown.iter().map(|r| r.id).collect(),
        over_cap: weeks.len() - shown.len(),
        how_to_get: "list_memory with kind \"context_carry\"".into(),
    }))
}

/// A digest in a few lines: its figures and what was asked.
fn brief(r: &MemoryRow) -> String {
    let mut lines = r.content.lines();
    let head = lines.next().unwrap_or_default();
    let asked = lines.find(|l| l.starts_with("**Asked:**")).unwrap_or_default();
    let text = crate::humanize::clip(&format!("{head} {asked}"), BRIEF_CHARS);
    format!("- (#{}) {}\n", r.id, quoted::line(text.trim()))
}

/// The newest captured session, when it is newer than the agent's own handover: what
/// the last session asked, changed and left open, even if it never wrote a handover.
pub(super) fn last_session(memory: &dyn MemoryBackend, slug: &str) -> Result<Option<Section>> {
    let Some(captured) = handover::captured_since_handover(memory, slug)? else { return Ok(None) };
    let day = captured.updated_at.get(..10).unwrap_or(&captured.updated_at);
    Ok(Some(Section {
        name: "last_session",
        heading: format!("## Last session (captured by Mooring, {day}, #{})\n", captured.id),
        items: vec![quoted_lines(&captured.content)],
        ids: vec![captured.id],
        over_cap: 0,
        how_to_get: "list_memory with kind \"session\"".into(),
    }))
}

/// A stored Markdown block (a captured record: one `**Label:** text` line per field) with
/// each of its lines quoted.
fn quoted_lines(text: &str) -> String {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| quoted::line(l) + "\n").collect()
}
