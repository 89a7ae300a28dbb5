//! The storage seam for what a team shares. A person alone keeps everything in the
//! embedded SQLite store; in team mode a project's shared records live in PostgreSQL
//! (crate `mooring-team`) while what belongs to one machine stays in SQLite. Validation
//! and the domain's rules are written once above this seam (`memory.rs`, `search.rs`);
//! a backend stores, finds and keeps its writes atomic, running the checks it is handed
//! inside its own transaction so nothing changes between check and write.

use crate::error::Result;
use crate::model::{BlockerStatus, Kind, Project};
use crate::store::rows::{LockRow, MemoryRow, NewMemoryRow};

/// A rule a project must pass before a write (e.g. "not archived").
pub type ProjectCheck = fn(&Project) -> Result<()>;
/// A rule an entry must pass before it changes (e.g. "a blocker, still open").
pub type RowCheck = fn(&MemoryRow) -> Result<()>;

/// The event a write of `rows` leaves in the project's log, the same on every backend:
/// `handover_saved` for a handover, else `memory_added` (one entry's id and kind, or a
/// batch's count).
pub fn added_event(rows: &[MemoryRow]) -> (&'static str, serde_json::Value) {
    match rows {
        [one] if one.kind == "handover" => {
            ("handover_saved", serde_json::json!({ "memory_id": one.id, "title": event_title(&one.title) }))
        }
        [one] => (
            "memory_added",
            serde_json::json!({ "id": one.id, "kind": one.kind, "title": event_title(&one.title) }),
        ),
        many => ("memory_added", serde_json::json!({ "count": many.len() })),
    }
}

/// An entry's title as an event keeps it (already scrubbed when the entry was stored), so
/// the history can say what was added without a lookup per line.
pub fn event_title(title: &str) -> String {
    crate::humanize::clip(title, 100)
}

/// The event for marking `row` superseded by entry `by` (or no longer, with `None`); both
/// backends record the same.
pub fn supersede_event(row: &MemoryRow, by: Option<i64>) -> (&'static str, serde_json::Value) {
    match by {
        Some(by) => (
            "memory_superseded",
            serde_json::json!({ "id": row.id, "kind": row.kind, "title": event_title(&row.title), "by": by }),
        ),
        None => (
            "supersede_undone",
            serde_json::json!({ "id": row.id, "kind": row.kind, "title": event_title(&row.title) }),
        ),
    }
}

/// Which entries a page holds, newest first. Kind and status come from closed sets, so a
/// backend may write their storage names (`as_str`) into a statement.
#[derive(Debug, Clone, Copy)]
pub struct PageFilter {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only blockers in this status.
    pub status: Option<BlockerStatus>,
    /// Entries older than this id.
    pub before: Option<i64>,
    /// At most this many.
    pub limit: u32,
}

/// One word of a search: matched whole (stemmed), or as a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Lowercase letters, digits and `_` only.
    pub text: String,
    /// Match as a prefix (`etc*`).
    pub prefix: bool,
}

/// A validated full-text search: every word required.
#[derive(Debug, Clone, Copy)]
pub struct SearchQuery<'a> {
    /// The words.
    pub words: &'a [Word],
    /// One project's slug, or every project.
    pub project: Option<&'a str>,
    /// Only this kind.
    pub kind: Option<&'a str>,
    /// At most this many hits.
    pub limit: u32,
    /// Any of the words suffices, ranked by BM25 with each word's IDF in the scope (and
    /// see [`COMMON_SHARE`]); otherwise all are required.
    pub any: bool,
    /// With `any`: an entry must hold at least this many of the words (at most all).
    pub least: u32,
    /// With `any`, when not 0: rank by only this many of the words, the rarest in the
    /// scope, each counted no further than it takes to know it is not rare, over a
    /// bounded walk of the newest matches: work independent of the project's size, for
    /// a check run at every write (`search::similar`). The team database ranks by all.
    pub rarest: u32,
}

/// In an any-word search, the share of the scope's entries past which a word is common:
/// an entry holding only common words (a speaker's name, said in every turn of a
/// conversation) is not a hit, unless every word asked is that common. Both backends
/// apply it.
pub const COMMON_SHARE: f64 = 0.2;

/// Scopes smaller than this have no common words: a share of a handful says nothing.
pub const COMMON_FROM: f64 = 20.0;

/// A search by meaning: the query's vector, by which model, and where to look.
#[derive(Debug, Clone, Copy)]
pub struct NearestQuery<'a> {
    /// The query's unit vector.
    pub vector: &'a [f32],
    /// The model that made it; vectors by another are not compared.
    pub model: &'a str,
    /// One project's slug, or every project.
    pub project: Option<&'a str>,
    /// Only this kind.
    pub kind: Option<&'a str>,
    /// At most this many hits.
    pub limit: u32,
    /// Compare only a project's newest this many entries, read afresh (a short-lived
    /// process, such as a prompt hook, cannot afford to read 100,000).
    pub newest: Option<u32>,
    /// Only hits of at least this cosine: the rest are never read (a write's check drops
    /// them anyway, and reading a hit's row was a third of its search by meaning).
    pub least: Option<f32>,
}

/// The passage shown for an entry found by meaning: its content's start (there are no
/// words to centre it on), the same on every backend.
pub fn meaning_snippet(content: &str) -> String {
    crate::humanize::clip(content, 160)
}

/// Makes a text's vector for storage, or `None` when it cannot (no model).
pub type Embedder<'a> = dyn Fn(&str) -> Option<Vec<u8>> + Sync + 'a;

/// How far a backend's vectors have come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorProgress {
    /// Live entries still waiting for their vector.
    pub waiting: u64,
    /// Entries with one.
    pub stored: u64,
}

/// A search hit as a backend finds it (and as the hub hands one to a short-lived process).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RowHit {
    /// The entry.
    pub row: MemoryRow,
    /// Its project's slug.
    pub slug: String,
    /// The matching passage, terms in [brackets].
    pub snippet: String,
    /// Relevance, higher is better.
    pub score: f64,
}

/// Where a project's memory lives: every part of the seam, so one value serves a
/// server or the CLI. A caller that needs one part takes that trait; a new feature adds
/// its method to the one it belongs to.
pub trait MemoryBackend: MemoryWrites + MemoryReads + MemorySearch + MemoryUpkeep {}

impl<T: MemoryWrites + MemoryReads + MemorySearch + MemoryUpkeep + ?Sized> MemoryBackend for T {}

/// What changes a project's memory: each write atomic, its checks run inside its
/// transaction, its event written with it.
pub trait MemoryWrites: Send + Sync {
    /// Store entries in one project in one transaction (all or none) if the project
    /// passes `check`, with the event of [`added_event`]; the project's slug and the
    /// stored rows.
    fn insert_memory(
        &self,
        slug: &str,
        rows: &[NewMemoryRow<'_>],
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, Vec<MemoryRow>)>;

    /// Mark a live entry resolved with `data` (JSON) if the project and the entry pass
    /// their checks, with a `blocker_resolved` event; `None` if there is no such live entry.
    fn resolve_memory(
        &self,
        slug: &str,
        id: i64,
        data: &str,
        check: ProjectCheck,
        row_check: RowCheck,
    ) -> Result<Option<(String, MemoryRow)>>;

    /// Hide a live entry if the project passes `check`, with a `memory_forgotten` event;
    /// the entry as it was, or `None` if there is no such live entry.
    fn forget_memory(&self, slug: &str, id: i64, check: ProjectCheck) -> Result<Option<(String, MemoryRow)>>;

    /// Mark live entry `id` superseded by entry `by` (or, with `None`, no longer
    /// superseded) in its `data`, with a `memory_superseded` (or `supersede_undone`)
    /// event; `None` if there is no such live entry.
    fn supersede_memory(
        &self,
        slug: &str,
        id: i64,
        by: Option<i64>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>>;

    /// Lock the next version of a context topic (validated, scrubbed) if the project
    /// passes `check`, with a `context_locked` event; versions never collide, however
    /// many write at once.
    fn lock_next(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)>;

    /// Store a captured session (kind `session`) under `key` if the project passes
    /// `check`: replace the live entry of that key in place, or add one (with the event
    /// a new entry gets). A forgotten one stays forgotten: `None`.
    fn put_session(
        &self,
        slug: &str,
        key: &str,
        row: &NewMemoryRow<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>>;

    /// Store a week's digest of captured sessions if the project passes `check`: replace
    /// the live one of its key when its text changed, or add one; then fold each of its
    /// sessions that is live, not superseded and never folded before into it (superseded
    /// by the digest, `folded_at` set: one the person brings back is not folded again),
    /// with one `sessions_folded` event when any was. `None` when the person forgot that
    /// week's digest: it stays forgotten, and nothing is folded into it.
    fn fold_sessions(
        &self,
        slug: &str,
        fold: &Fold<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, Folded)>>;
}

/// What reads a project's entries and locks as lists and single rows.
pub trait MemoryReads: Send + Sync {
    /// Whether the `written_by` of `slug`'s rows names a person of a team (a teammate, by
    /// the name they joined with) rather than the client that wrote it.
    fn authors_are_people(&self, _slug: &str) -> bool {
        false
    }

    /// A page of a project's live entries, newest first.
    fn memory_page(&self, slug: &str, filter: &PageFilter) -> Result<(String, Vec<MemoryRow>)>;

    /// How many of a project's live entries of `kind` (and `status`) a newer one
    /// superseded (`superseded`), or none did: what the preamble counts as left out, and
    /// how many sessions are folded into digests.
    fn count_live(
        &self,
        slug: &str,
        kind: Kind,
        status: Option<BlockerStatus>,
        superseded: bool,
    ) -> Result<u64>;

    /// The live entry of `kind` nothing superseded that changed last (a session resumed
    /// after it was folded is the last session again, whatever its id).
    fn newest_changed(&self, slug: &str, kind: Kind) -> Result<Option<MemoryRow>>;

    /// Live entry `id` of `slug`, if there is one.
    fn memory_get(&self, slug: &str, id: i64) -> Result<(String, Option<MemoryRow>)>;

    /// A topic's latest version, or the one asked for.
    fn lock_get(&self, slug: &str, topic: &str, version: Option<i64>) -> Result<(String, Option<LockRow>)>;

    /// The latest version of every topic, most recent first.
    fn lock_topics(&self, slug: &str) -> Result<(String, Vec<LockRow>)>;

    /// The captured-session entry of `slug` whose data names `key`, forgotten or not.
    fn session_entry(&self, slug: &str, key: &str) -> Result<(String, Option<MemoryRow>)>;
}

/// What finds entries by words or by meaning, with what ranking needs beside.
pub trait MemorySearch: Send + Sync {
    /// Full-text search over live entries, best first.
    fn search_memory(&self, query: &SearchQuery<'_>) -> Result<Vec<RowHit>>;

    /// The live entries nearest the query by meaning, best first, scored by cosine; `None`
    /// where this backend keeps no vectors.
    fn nearest_memory(&self, _query: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        Ok(None)
    }

    /// How many of a project's (or every project's) live entries wait for their vector
    /// (cheap: what a search asks); `None` where this backend keeps no vectors.
    fn vectors_waiting(&self, _project: Option<&str>) -> Result<Option<u64>> {
        Ok(None)
    }

    /// Whether any vector is stored (in one project or any), `None` where this backend
    /// keeps none: what decides whether a process loads the model at all, so it must be
    /// cheap (the progress counts the queue, which grows while no indexer runs).
    fn has_vectors(&self, project: Option<&str>) -> Result<Option<bool>>;

    /// The re-ranking vector by `model` of each of `hits` (a project's slug and an entry's
    /// id), in their order: `None` for one that has none.
    fn rerank_vectors(&self, _model: &str, hits: &[(&str, i64)]) -> Result<Vec<Option<Vec<u8>>>> {
        Ok(vec![None; hits.len()])
    }

    /// For each of `hits` (a project's slug and an entry's id), in their order, the id of
    /// the entry written just before it in that project; `None` where there is none or
    /// this backend keeps no order (hybrid search lets entries written together lend
    /// each other a share of their scores: `search::fusion`).
    fn previous_entries(&self, hits: &[(&str, i64)]) -> Result<Vec<Option<i64>>> {
        Ok(vec![None; hits.len()])
    }
}

/// What the hub's background work calls: vectors made and counted, the keyword index
/// tidied, vectors held ready.
pub trait MemoryUpkeep: Send + Sync {
    /// How many of a project's (or every project's) entries have their vector; `None`
    /// where this backend keeps no vectors.
    fn vector_progress(&self, _project: Option<&str>) -> Result<Option<VectorProgress>> {
        Ok(None)
    }

    /// Give up to `limit` entries waiting for their vector one, made by `embed` (the bytes
    /// of a quantized vector by `model`, or `None` when it cannot be made), newest first;
    /// how many were stored (fewer when entries changed meanwhile: those wait for their
    /// new text), or `None` where this backend keeps no vectors.
    fn index_vectors(&self, _model: &str, _limit: u32, _embed: &Embedder<'_>) -> Result<Option<usize>> {
        Ok(None)
    }

    /// Give up to `limit` live entries without a re-ranking vector by `model` one, made
    /// by `embed`, newest first; how many were stored, or `None` where this backend keeps
    /// none (team projects are not re-ranked).
    fn index_rerank(&self, _model: &str, _limit: u32, _embed: &Embedder<'_>) -> Result<Option<usize>> {
        Ok(None)
    }

    /// Live entries without a re-ranking vector by `model`; `None` where this backend
    /// keeps none.
    fn rerank_waiting(&self, _model: &str) -> Result<Option<u64>> {
        Ok(None)
    }

    /// Hold every project's vectors of `model` (`dim` values each) ready for search by
    /// meaning; `Ok(())` where this backend keeps no vectors.
    fn warm_vectors(&self, _model: &str, _dim: usize) -> Result<()> {
        Ok(())
    }

    /// Tidy the keyword index a bounded step after writes (merging its segments: a search
    /// seeks in every one); `Ok(())` where there is nothing to tidy.
    fn tidy_index(&self) -> Result<()> {
        Ok(())
    }
}

/// A week's digest, ready to store, and the sessions it folds.
#[derive(Debug, Clone, Copy)]
pub struct Fold<'a> {
    /// The week's key in the digest's data (`digest:2026-W07`).
    pub key: &'a str,
    /// The digest (kind `context_carry`).
    pub digest: &'a NewMemoryRow<'a>,
    /// The captured sessions it covers.
    pub sessions: &'a [i64],
}

/// What storing a digest did.
#[derive(Debug, Clone)]
pub struct Folded {
    /// The digest as stored.
    pub digest: MemoryRow,
    /// Sessions folded into it now (not before).
    pub newly: usize,
    /// Whether it was added or its text changed.
    pub changed: bool,
}

/// The event for a digest that folded `newly` sessions.
pub fn folded_event(digest: &MemoryRow, key: &str, newly: usize) -> (&'static str, serde_json::Value) {
    let week = key.strip_prefix("digest:").unwrap_or(key);
    ("sessions_folded", serde_json::json!({ "id": digest.id, "week": week, "sessions": newly }))
}

/// A validated context lock, ready to store.
#[derive(Debug, Clone, Copy)]
pub struct NewLock<'a> {
    /// Topic (normalised).
    pub topic: &'a str,
    /// Content, secrets already taken out.
    pub content: &'a str,
    /// Tags, space separated.
    pub tags: &'a str,
}
