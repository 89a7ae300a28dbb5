//! Which session changed which file, with the request that led to it: read from the
//! project's newest captured session records, for the project view.

use serde::Serialize;

use super::record::{FileAction, SessionRecord};
use crate::error::Result;
use crate::memory::Kind;
use crate::store::backend::{MemoryBackend, PageFilter};

/// Captured sessions looked at: the newest this many.
const SESSIONS: u32 = 30;

/// A file a session changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The path inside the checkout.
    pub path: String,
    /// What was done to it (`edited`, `written`, `created`, `deleted`, `renamed`, `seen_by_git`).
    pub action: FileAction,
    /// The session's client.
    pub client: String,
    /// When the session was last heard from (RFC 3339).
    pub at: String,
    /// The person's request that led to it, while the record keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// Whether a subagent of the session did it.
    pub subagent: bool,
}

/// The files the newest captured sessions of `slug` changed, newest session first, at
/// most `limit`.
pub fn who_changed(memory: &dyn MemoryBackend, slug: &str, limit: usize) -> Result<Vec<Change>> {
    let filter = PageFilter { kind: Some(Kind::Session), status: None, before: None, limit: SESSIONS };
    let (_, mut rows) = memory.memory_page(slug, &filter)?;
    rows.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
    let mut out = Vec::new();
    for row in rows {
        // A record this version cannot read is skipped, not fatal: the view shows the rest.
        let Some(record) = row.data.as_deref().and_then(|d| serde_json::from_str::<SessionRecord>(d).ok())
        else {
            continue;
        };
        let at = record.last_at.clone().unwrap_or_else(|| row.updated_at.clone());
        for f in &record.files {
            out.push(Change {
                path: f.path.clone(),
                action: f.action,
                client: record.client.clone(),
                at: at.clone(),
                request: f.asked.and_then(|n| record.asked(n)).map(str::to_owned),
                subagent: f.subagent,
            });
            if out.len() == limit {
                return Ok(out);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backend::MemoryWrites as _;
    use crate::{NewProject, Registry, Store};

    fn keep(store: &Store, mut r: SessionRecord) {
        let key = r.key.clone();
        let (row, _) = crate::capture::entry(&mut r).unwrap();
        store.put_session("ledger", &key, &row, crate::memory::check_writable).unwrap().unwrap();
    }

    #[test]
    fn each_file_names_its_session_and_the_request_that_led_to_it() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Ledger".into(), ..NewProject::default() }).unwrap();
        let mut a = SessionRecord::new("claude-code", "claude-code:a");
        a.saw_time("2026-11-29T10:00:00Z");
        a.request("split invoices by customer");
        a.file("src/invoice.rs", FileAction::Created, false);
        for n in 2..=6 {
            a.request(&format!("request {n}"));
        }
        a.file("src/billing.rs", FileAction::Edited, false);
        a.request("tidy up");
        keep(&store, a);
        let mut b = SessionRecord::new("codex", "codex:b");
        b.saw_time("2026-11-29T11:00:00Z");
        b.file("README.md", FileAction::SeenByGit, false);
        keep(&store, b);
        let changed = who_changed(&store, "ledger", 10).unwrap();
        let rows: Vec<(&str, &str, Option<&str>)> =
            changed.iter().map(|c| (c.path.as_str(), c.client.as_str(), c.request.as_deref())).collect();
        assert_eq!(
            rows,
            [
                ("README.md", "codex", None),
                ("src/invoice.rs", "claude-code", Some("split invoices by customer")),
                ("src/billing.rs", "claude-code", Some("request 6")),
            ]
        );
        assert_eq!(who_changed(&store, "ledger", 1).unwrap().len(), 1);
    }

    #[test]
    fn a_request_number_maps_to_the_text_while_the_record_keeps_it() {
        let mut r = SessionRecord::new("claude-code", "claude-code:r");
        assert_eq!(r.asked(1), None);
        for n in 1..=7 {
            r.request(&format!("r{n}"));
        }
        // Kept: the first and the latest three.
        let got: Vec<Option<&str>> = (0..=8).map(|n| r.asked(n)).collect();
        assert_eq!(got, [None, Some("r1"), None, None, None, Some("r5"), Some("r6"), Some("r7"), None]);
    }
}
