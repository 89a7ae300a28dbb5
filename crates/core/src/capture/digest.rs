//! Old captured sessions rolled up, one digest per project per week: what was asked, the
//! files most touched, the commits, the todos opened and closed and the summaries the
//! clients kept at compaction — deterministic (no model), bounded, rebuilt to the same
//! text from the same sessions. The sessions it covers are kept, folded into it (left out
//! of the preamble and recall, like an entry another supersedes), and can be brought back
//! or forgotten one by one; a forgotten one leaves the digest at its next rebuild.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde::Serialize;

use super::record::{SessionRecord, trim};
use crate::error::Result;
use crate::guard::quoted;
use crate::memory::check_writable;
use crate::model::Kind;
use crate::store::backend::{Fold, MemoryBackend, PageFilter};
use crate::store::rows::{MemoryRow, NewMemoryRow};

/// The tag every digest carries (the preamble finds them by it).
pub const TAG: &str = "digest";
/// Requests shown, the first of each session first.
const MOST_REQUESTS: usize = 10;
/// Longest request shown.
const REQUEST_CHARS: usize = 160;
/// Files shown, the most touched first.
const MOST_FILES: usize = 12;
/// Commits shown.
const MOST_COMMITS: usize = 12;
/// Open todos shown.
const MOST_TODOS: usize = 8;
/// Carried summaries shown, the latest.
const MOST_CARRIED: usize = 3;
/// Longest carried summary shown.
const CARRY_CHARS: usize = 600;
/// The longest digest, in characters (about 1,500 tokens).
pub const MAX_CHARS: usize = 6_000;

/// A captured session as the roll-up sees it.
struct Old {
    id: i64,
    record: SessionRecord,
    /// Folded before (into a digest, or brought back by the person since).
    folded: bool,
}

/// What a roll-up did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RollUp {
    /// Weeks with a digest (new or kept).
    pub weeks: usize,
    /// Digests added or rewritten.
    pub written: usize,
    /// Sessions folded now.
    pub folded: usize,
}

/// The ISO week `day` falls in, as a digest's key (`digest:2026-W07`), and its Monday.
pub fn week_of(day: NaiveDate) -> (String, NaiveDate) {
    let w = day.iso_week();
    let monday = NaiveDate::from_isoywd_opt(w.year(), w.week(), chrono::Weekday::Mon).unwrap_or(day);
    (format!("digest:{}-W{:02}", w.year(), w.week()), monday)
}

/// Fold `slug`'s captured sessions whose last turn is more than `days` days before `now`
/// into one digest per week (`days` 0: never), rebuilding each week's digest from the
/// sessions it holds.
pub fn roll_up(memory: &dyn MemoryBackend, slug: &str, days: u32, now: DateTime<Utc>) -> Result<RollUp> {
    let mut done = RollUp::default();
    if days == 0 {
        return Ok(done);
    }
    let cutoff = now - Duration::days(i64::from(days));
    let mut weeks: BTreeMap<String, (NaiveDate, Vec<Old>)> = BTreeMap::new();
    // The digests a live session was folded into.
    let mut holding = BTreeSet::new();
    for row in all(memory, slug, Kind::Session)? {
        holding.extend(row.links.folded_into);
        let Some(old) = old_session(&row, cutoff) else { continue };
        let day = old.record.started_at.as_deref().unwrap_or(&row.created_at);
        let Some(day) = DateTime::parse_from_rfc3339(day).ok().map(|d| d.date_naive()) else { continue };
        let (key, monday) = week_of(day);
        weeks.entry(key).or_insert_with(|| (monday, Vec::new())).1.push(old);
    }
    let mut kept: BTreeMap<String, (String, String)> = BTreeMap::new();
    for r in all(memory, slug, Kind::ContextCarry)? {
        let Some(key) = r.key.as_deref().filter(|k| k.starts_with("digest:")) else { continue };
        // Every session of a week forgotten: what the digest still says of them goes too.
        if !weeks.contains_key(key) && !holding.contains(&r.id) {
            memory.forget_memory(slug, r.id, check_writable)?;
            continue;
        }
        kept.insert(key.to_owned(), (r.title, r.content));
    }
    for (key, (monday, mut sessions)) in weeks {
        sessions.sort_by(|a, b| (&a.record.started_at, a.id).cmp(&(&b.record.started_at, b.id)));
        let digest = build(&key, monday, &sessions);
        let ids: Vec<i64> = sessions.iter().filter(|s| !s.folded).map(|s| s.id).collect();
        done.weeks += 1;
        if ids.is_empty() && kept.get(&key) == Some(&(digest.title.to_string(), digest.content.to_string())) {
            continue;
        }
        let fold = Fold { key: &key, digest: &digest, sessions: &ids };
        if let Some((_, f)) = memory.fold_sessions(slug, &fold, check_writable)? {
            done.written += usize::from(f.changed);
            done.folded += f.newly;
        }
    }
    Ok(done)
}

/// Roll up every project that is not archived (or only `only`), by the
/// `fold_after_days` setting; what each did, for those where anything changed (a named
/// project always).
pub fn roll_up_all(
    store: &crate::Store,
    memory: &dyn MemoryBackend,
    only: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Vec<(String, RollUp)>> {
    let days = crate::settings::Setting::FoldAfterDays.get(store)?;
    let registry = crate::Registry::new(store);
    let projects = match only {
        Some(slug) => vec![registry.get(slug)?],
        None => registry.list(None)?,
    };
    let mut out = Vec::new();
    for p in projects {
        if only.is_none() && p.status == crate::model::ProjectStatus::Archived {
            continue;
        }
        let done = roll_up(memory, &p.slug, days, now)?;
        if only.is_some() || done.written + done.folded > 0 {
            out.push((p.slug, done));
        }
    }
    Ok(out)
}

/// Every live entry of `kind` in `slug`, newest first.
fn all(memory: &dyn MemoryBackend, slug: &str, kind: Kind) -> Result<Vec<MemoryRow>> {
    let mut out = Vec::new();
    let mut before = None;
    loop {
        let filter = PageFilter { kind: Some(kind), status: None, before, limit: 200 };
        let (_, rows) = memory.memory_page(slug, &filter)?;
        before = (rows.len() == 200).then(|| rows.last().map(|r| r.id)).flatten();
        out.extend(rows);
        if before.is_none() {
            return Ok(out);
        }
    }
}

/// `row` as a session old enough to fold (its last turn before `cutoff`); none for a
/// newer one, or one another entry (not a digest) supersedes.
fn old_session(row: &MemoryRow, cutoff: DateTime<Utc>) -> Option<Old> {
    let record: SessionRecord = serde_json::from_str(row.data.as_deref()?).ok()?;
    let last = record.last_at.as_deref().unwrap_or(&row.updated_at);
    let last = DateTime::parse_from_rfc3339(last).ok()?.with_timezone(&Utc);
    if last >= cutoff {
        return None;
    }
    let folded = row.links.folded_at.is_some();
    if row.links.superseded_by.is_some() && !folded {
        return None;
    }
    Some(Old { id: row.id, record, folded })
}

/// What a digest's data holds beside its key: the figures its first line gives.
#[derive(Serialize)]
struct Data<'a> {
    key: &'a str,
    week_of: String,
    requests: usize,
    files: usize,
    commits: usize,
}

/// The digest of one week's `sessions` (in start order).
fn build(key: &str, monday: NaiveDate, sessions: &[Old]) -> NewMemoryRow<'static> {
    let records: Vec<&SessionRecord> = sessions.iter().map(|s| &s.record).collect();
    let mut clients: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &records {
        *clients.entry(r.client.as_str()).or_default() += 1;
    }
    let requests: usize = records.iter().map(|r| r.requests_total.max(r.requests.len())).sum();
    // Files by how many sessions touched them, then by path: the same order every time.
    let mut files: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &records {
        let paths: BTreeSet<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
        for p in paths {
            *files.entry(p).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&str, usize)> = files.iter().map(|(p, n)| (*p, *n)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut seen = BTreeSet::new();
    let commits: Vec<String> = records
        .iter()
        .flat_map(|r| &r.commits)
        .filter(|c| seen.insert(c.id.clone()))
        .map(|c| format!("{} \"{}\"", c.id, c.subject))
        .collect();
    let (opened, closed) =
        records.iter().flat_map(|r| &r.todos).fold((0, 0), |(o, c), t| (o + 1, c + usize::from(!t.open())));
    let mut open: Vec<&str> = Vec::new();
    for t in records.iter().flat_map(|r| &r.todos).filter(|t| t.open()) {
        if !open.contains(&t.subject.as_str()) {
            open.push(&t.subject);
        }
    }
    let who: Vec<String> = clients.iter().map(|(c, n)| format!("{c} {n}")).collect();
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let mut text = format!(
        "Week of {monday}: {} ({}), {}, {} changed, {}.\n",
        plural(records.len(), "session"),
        who.join(", "),
        plural(requests, "request"),
        plural(files.len(), "file"),
        plural(commits.len(), "commit"),
    );
    let mut line = |label: &str, items: Vec<String>, more: usize| {
        if items.is_empty() {
            return;
        }
        let tail = if more > 0 { format!(" (+{more} more)") } else { String::new() };
        text.push_str(&quoted::line(&format!("**{label}:** {}{tail}", items.join("; "))));
        text.push('\n');
    };
    // The first request of every session, then the later ones, up to the bound.
    let asked: Vec<String> = records
        .iter()
        .filter_map(|r| r.requests.first())
        .chain(records.iter().flat_map(|r| r.requests.iter().skip(1)))
        .map(|q| format!("\"{}\"", trim(&super::text::one_line(q), REQUEST_CHARS)))
        .collect();
    let shown_asked = asked.len().min(MOST_REQUESTS);
    line("Asked", asked[..shown_asked].to_vec(), requests.saturating_sub(shown_asked));
    let touched = ranked
        .iter()
        .take(MOST_FILES)
        .map(|(p, n)| if *n > 1 { format!("{p} ({n} sessions)") } else { (*p).to_owned() })
        .collect();
    line("Files most touched", touched, ranked.len().saturating_sub(MOST_FILES));
    line(
        "Committed",
        commits.iter().take(MOST_COMMITS).cloned().collect(),
        commits.len().saturating_sub(MOST_COMMITS),
    );
    if opened > 0 {
        let still: Vec<String> = open.iter().take(MOST_TODOS).map(|s| (*s).to_owned()).collect();
        let head = format!("{opened} opened, {closed} done");
        let items = if still.is_empty() {
            vec![head]
        } else {
            vec![format!("{head}; still open: {}", still.join(", "))]
        };
        line("Todos", items, open.len().saturating_sub(MOST_TODOS));
    }
    let carried: Vec<String> = records
        .iter()
        .rev()
        .filter_map(|r| r.context_carry.as_deref())
        .take(MOST_CARRIED)
        .map(|c| format!("\"{}\"", trim(&super::text::one_line(c), CARRY_CHARS)))
        .collect();
    line("Kept at compaction", carried, 0);
    let ids: Vec<i64> = sessions.iter().map(|s| s.id).collect();
    line("Sessions", ids.iter().map(|id| format!("#{id}")).collect(), 0);
    let (content, _) = crate::guard::redact::scrub(&trim(&text, MAX_CHARS));
    let data =
        Data { key, week_of: monday.to_string(), requests, files: files.len(), commits: commits.len() };
    NewMemoryRow {
        kind: Kind::ContextCarry.as_str().into(),
        title: format!("Sessions of the week of {} ({})", monday.format("%-d %b %Y"), records.len()).into(),
        content: content.into(),
        tags: TAG.into(),
        status: None,
        data: Some(serde_json::to_string(&data).unwrap_or_default().into()),
        author: Some(crate::model::Author::Mooring),
        written_by: None,
        key: Some(key.to_owned().into()),
    }
}

#[cfg(test)]
#[path = "digest_tests.rs"]
mod tests;
