//! What each agent session was handed from memory, and what it cost: the preamble at its
//! start (its own record too, after a compaction) and each prompt's recall, with the
//! entries' ids and the exact o200k token count of what was handed over. Kept on the
//! machine that ran the session; the text itself is not kept (it is memory, already
//! stored).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::backend::MemoryBackend;
use crate::store::{Store, injections};

/// Most sessions asked about at once.
pub const MAX_SESSIONS: usize = 100;

/// Which hand-over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// The preamble at a session's start.
    Preamble,
    /// The preamble with the session's own record, after a compaction.
    Compaction,
    /// A prompt's recall.
    Recall,
}

impl What {
    fn as_str(self) -> &'static str {
        match self {
            Self::Preamble => "preamble",
            Self::Compaction => "compaction",
            Self::Recall => "recall",
        }
    }
}

/// Note, inside a write already open, that client session `key` of `slug` was handed
/// `text`, showing entries `ids` (the hook does it in the transaction that notes the ids
/// as given).
pub fn note(
    tx: &rusqlite::Connection,
    slug: &str,
    key: &str,
    what: What,
    ids: &[i64],
    text: &str,
) -> Result<()> {
    let tokens = mooring_tokens::count(text);
    injections::add(tx, slug, key, what.as_str(), ids, tokens, &crate::humanize::now())
}

/// One hand-over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Given {
    /// `preamble`, `compaction` or `recall`.
    pub what: String,
    /// When (RFC 3339).
    pub at: String,
    /// The memory entries it showed.
    pub ids: Vec<i64>,
    /// Its size in o200k tokens.
    pub tokens: u64,
}

/// What one captured session was handed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SessionGiven {
    /// The session's captured entry.
    pub id: i64,
    /// Tokens handed over in all.
    pub tokens: u64,
    /// Each hand-over, oldest first.
    pub given: Vec<Given>,
}

/// A project's totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    /// Sessions handed anything.
    pub sessions: u64,
    /// Preambles (compactions included).
    pub preambles: u64,
    /// Their tokens.
    pub preamble_tokens: u64,
    /// Recalls.
    pub recalls: u64,
    /// Their tokens.
    pub recall_tokens: u64,
    /// Tokens per session, on average.
    pub per_session: u64,
}

/// What a project's sessions received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Received {
    /// Project slug.
    pub project: String,
    /// The project's totals on this machine.
    pub totals: Totals,
    /// The sessions asked about that were handed anything.
    pub sessions: Vec<SessionGiven>,
}

/// What the captured sessions `ids` of `slug` were handed, and the project's totals.
pub fn received(store: &Store, memory: &dyn MemoryBackend, slug: &str, ids: &[i64]) -> Result<Received> {
    if ids.len() > MAX_SESSIONS {
        return Err(Error::invalid("sessions", format!("ask about at most {MAX_SESSIONS} sessions at once")));
    }
    let mut keys = Vec::new();
    let mut project = slug.to_owned();
    for &id in ids {
        let (s, row) = memory.memory_get(slug, id)?;
        project = s;
        let key = row.filter(|r| r.kind == "session").and_then(|r| r.key);
        if let Some(key) = key {
            keys.push((id, key));
        }
    }
    let key_list: Vec<String> = keys.iter().map(|(_, k)| k.clone()).collect();
    let (rows, (sessions, kinds)) = store
        .read(|c| Ok((injections::of_sessions(c, &project, &key_list)?, injections::totals(c, &project)?)))?;
    let mut totals = Totals { sessions, ..Totals::default() };
    for (what, n, tokens) in kinds {
        if what == "recall" {
            (totals.recalls, totals.recall_tokens) = (n, tokens);
        } else {
            totals.preambles += n;
            totals.preamble_tokens += tokens;
        }
    }
    totals.per_session = (totals.preamble_tokens + totals.recall_tokens).checked_div(sessions).unwrap_or(0);
    let sessions = keys
        .into_iter()
        .filter_map(|(id, key)| {
            let given: Vec<Given> = rows
                .iter()
                .filter(|r| r.key == key)
                .map(|r| Given {
                    what: r.what.clone(),
                    at: r.at.clone(),
                    ids: serde_json::from_str(&r.ids).unwrap_or_default(),
                    tokens: r.tokens.max(0) as u64,
                })
                .collect();
            (!given.is_empty()).then(|| SessionGiven {
                id,
                tokens: given.iter().map(|g| g.tokens).sum(),
                given,
            })
        })
        .collect();
    Ok(Received { project, totals, sessions })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backend::MemoryWrites as _;
    use crate::{NewProject, Registry};

    #[test]
    fn each_session_shows_what_it_was_handed_and_the_project_adds_it_up() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        Registry::new(&store).create(NewProject { name: "Ledger".into(), ..NewProject::default() }).unwrap();
        let mut r = crate::capture::SessionRecord::new("claude-code", "claude-code:aaaa");
        r.request("Fix the export");
        let (row, _) = crate::capture::entry(&mut r).unwrap();
        let id = store
            .put_session("ledger", "claude-code:aaaa", &row, crate::memory::check_writable)
            .unwrap()
            .unwrap()
            .1
            .id;
        let preamble = "# Project: Ledger\n- a decision";
        store.write(|tx| note(tx, "ledger", "claude-code:aaaa", What::Preamble, &[3, 4], preamble)).unwrap();
        store
            .write(|tx| note(tx, "ledger", "claude-code:aaaa", What::Recall, &[7], "Memory recalled: #7"))
            .unwrap();
        store
            .write(|tx| note(tx, "ledger", "claude-code:bbbb", What::Preamble, &[3], "# Project: Ledger"))
            .unwrap();
        let got = received(&store, &store, "ledger", &[id]).unwrap();
        assert_eq!(got.sessions.len(), 1);
        let s = &got.sessions[0];
        assert_eq!(
            s.given.iter().map(|g| (g.what.as_str(), g.ids.clone())).collect::<Vec<_>>(),
            [("preamble", vec![3, 4]), ("recall", vec![7])]
        );
        assert_eq!(s.given[0].tokens as usize, mooring_tokens::count("# Project: Ledger\n- a decision"));
        assert_eq!(s.tokens, s.given.iter().map(|g| g.tokens).sum::<u64>());
        assert_eq!((got.totals.sessions, got.totals.preambles, got.totals.recalls), (2, 2, 1));
        assert_eq!(got.totals.per_session, (got.totals.preamble_tokens + got.totals.recall_tokens) / 2);
        let many: Vec<i64> = (0..=MAX_SESSIONS as i64).collect();
        assert_eq!(received(&store, &store, "ledger", &many).unwrap_err().field.as_deref(), Some("sessions"));
        assert!(received(&store, &store, "ledger", &[9_999]).unwrap().sessions.is_empty());
    }
}
