//! A project's activity day by day over the last weeks — decisions made, blockers opened
//! and resolved, sessions captured — for the small charts of the dashboard. Read from the
//! memory itself (newest first, stopping at the window's start), so it is the same for a
//! team's project as for one's own.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::{BlockerStatus, Kind};
use crate::store::backend::{MemoryBackend, PageFilter};
use crate::store::rows::MemoryRow;

/// Longest window, in days.
pub const MAX_DAYS: u32 = 366;
/// Rows read per page.
const PAGE: u32 = 500;
/// Most rows read for one chart: an unusually busy project shows its newest activity.
const MOST_ROWS: usize = 50_000;

/// One day of a project's activity.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Day {
    /// The day (UTC), `YYYY-MM-DD`.
    pub date: String,
    /// Decisions recorded.
    pub decisions: u32,
    /// Blockers opened.
    pub blockers_opened: u32,
    /// Blockers resolved.
    pub blockers_resolved: u32,
    /// Agent sessions captured (or handed over).
    pub sessions: u32,
}

/// The last `days` days of project `slug`, oldest first, ending `today`.
pub fn days(memory: &dyn MemoryBackend, slug: &str, days: u32, today: DateTime<Utc>) -> Result<Vec<Day>> {
    if days == 0 || days > MAX_DAYS {
        return Err(Error::invalid("days", format!("days must be from 1 to {MAX_DAYS}")));
    }
    let last = today.date_naive();
    let first = last - Duration::days(i64::from(days) - 1);
    let mut out: Vec<Day> = (0..days)
        .map(|i| Day { date: (first + Duration::days(i64::from(i))).to_string(), ..Day::default() })
        .collect();
    let slot = |at: &str| -> Option<usize> {
        let day = at.get(..10).and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())?;
        (day >= first && day <= last).then(|| (day - first).num_days() as usize)
    };
    scan(memory, slug, None, None, first, |row| {
        let Some(i) = slot(&row.created_at) else { return };
        match row.kind.as_str() {
            "decision" => out[i].decisions += 1,
            "blocker" => out[i].blockers_opened += 1,
            "session" | "handover" => out[i].sessions += 1,
            _ => {}
        }
    })?;
    // A blocker opened before the window may be resolved inside it: resolved blockers are
    // read on their own, by the time they changed.
    scan(memory, slug, Some(Kind::Blocker), Some(BlockerStatus::Resolved), first, |row| {
        if let Some(i) = slot(&row.updated_at) {
            out[i].blockers_resolved += 1;
        }
    })?;
    Ok(out)
}

/// Every row (of `kind`, in `status`) newest first until rows are older than `from`.
fn scan(
    memory: &dyn MemoryBackend,
    slug: &str,
    kind: Option<Kind>,
    status: Option<BlockerStatus>,
    from: NaiveDate,
    mut each: impl FnMut(&MemoryRow),
) -> Result<()> {
    let from = from.to_string();
    let mut before = None;
    let mut read = 0;
    loop {
        let (_, rows) = memory.memory_page(slug, &PageFilter { kind, status, before, limit: PAGE })?;
        for row in &rows {
            // Resolved blockers are ordered by creation, not by resolution: read them all
            // (bounded); other rows stop at the window's start.
            if status.is_none() && row.created_at.as_str() < from.as_str() {
                return Ok(());
            }
            each(row);
        }
        read += rows.len();
        match rows.last() {
            Some(last) if rows.len() as u32 == PAGE && read < MOST_ROWS => before = Some(last.id),
            _ => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{NewEntry, remember, resolve_blocker};
    use crate::{NewProject, Registry, Store};

    #[test]
    fn a_day_counts_what_happened_in_it_and_the_window_is_checked() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Alpha".into(), ..NewProject::default() }).unwrap();
        let add = |kind: &str, text: &str| {
            let e = NewEntry { kind: kind.into(), content: text.into(), ..NewEntry::default() };
            remember(&store, "alpha", &e, None).unwrap()
        };
        add("decision", "Use etcd");
        add("decision", "Leases last 10 s");
        let b = add("blocker", "CI is red");
        add("note", "not counted");
        resolve_blocker(&store, "alpha", b.id, Some("fixed")).unwrap();
        let now = Utc::now();
        let week = days(&store, "alpha", 7, now).unwrap();
        assert_eq!(week.len(), 7);
        assert_eq!(week[6].date, now.date_naive().to_string());
        let today = &week[6];
        assert_eq!((today.decisions, today.blockers_opened, today.blockers_resolved), (2, 1, 1));
        assert!(week[..6].iter().all(|d| d.decisions + d.blockers_opened + d.sessions == 0));
        // The same memory seen from a week later: nothing in the window.
        let later = days(&store, "alpha", 7, now + Duration::days(8)).unwrap();
        assert!(later.iter().all(|d| *d == Day { date: d.date.clone(), ..Day::default() }));
        assert_eq!(days(&store, "alpha", 0, now).unwrap_err().field.as_deref(), Some("days"));
        assert!(days(&store, "nope", 7, now).is_err());
    }
}
