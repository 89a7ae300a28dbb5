//! Search by meaning: the embedding model (loaded once per process, on first use, from
//! where `scripts/fetch-model.sh` installs it), and the indexer that gives entries their
//! vectors. Without the model every search is by keyword, and says so.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use mooring_embed::{Model, Quantized};

use crate::error::Result;
use crate::store::backend::{MemoryBackend, NearestQuery, RowHit};

/// The model's name, stored with each vector: vectors by another model are never compared.
pub const MODEL: &str = mooring_embed::STATIC_MODEL;

pub use mooring_embed::models_root;

/// Where the model is looked for: `<models_root>/<MODEL>`.
pub fn model_dir() -> PathBuf {
    mooring_embed::models_root().join(MODEL)
}

/// Whether the model's files are installed (without loading them).
pub fn installed() -> bool {
    model_dir().join("weights.safetensors").exists()
}

/// Whether search by meaning is on, and why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// The model is loaded.
    Ready,
    /// Switched off with `MOORING_SEMANTIC=off`.
    Off,
    /// The model could not be loaded; the reason, with the fix.
    Missing(String),
}

impl Availability {
    /// Why search by meaning cannot be used (with the fix), or `None` when it can.
    pub fn why(&self) -> Option<String> {
        match self {
            Self::Ready => None,
            Self::Off => Some("search by meaning is switched off (MOORING_SEMANTIC=off)".into()),
            Self::Missing(why) => Some(why.clone()),
        }
    }
}

static LOADED: OnceLock<std::result::Result<Arc<Model>, String>> = OnceLock::new();

/// The model, loading it on first use (about 25 ms); the reason with the fix if it cannot be.
pub fn model() -> std::result::Result<Arc<Model>, Availability> {
    if std::env::var("MOORING_SEMANTIC").is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
        return Err(Availability::Off);
    }
    LOADED
        .get_or_init(|| {
            let dir = model_dir();
            Model::load(&dir).map(Arc::new).map_err(|e| {
                format!("{e}; install the model with `scripts/fetch-model.sh` (or set MOORING_MODELS to where it is)")
            })
        })
        .clone()
        .map_err(Availability::Missing)
}

/// Whether search by meaning can be used now (loads the model if it is not yet).
pub fn availability() -> Availability {
    match model() {
        Ok(_) => Availability::Ready,
        Err(a) => a,
    }
}

/// A text's vector, if the model is available.
pub fn embed(text: &str) -> Option<Vec<f32>> {
    model().ok().map(|m| m.embed(text))
}

/// A search by meaning as text: what a short-lived process hands the hub, which holds
/// the model and the projects' vectors already (loading the model cost a prompt hook
/// 60 ms and 40 MB of its own).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TextQuery {
    /// What to find.
    pub text: String,
    /// One project's slug, or every project.
    pub project: Option<String>,
    /// Only this kind.
    pub kind: Option<String>,
    /// At most this many hits.
    pub limit: u32,
    /// Compare only the project's newest this many entries.
    pub newest: Option<u32>,
    /// Only hits of at least this cosine (see `NearestQuery::least`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub least: Option<f32>,
}

/// Answers a [`TextQuery`] elsewhere (the hub), or `None` when there is nobody to ask.
pub type Asker = dyn Fn(&TextQuery) -> Option<std::result::Result<Vec<RowHit>, String>> + Send + Sync;

static ASKER: OnceLock<Box<Asker>> = OnceLock::new();

/// Have this process ask `asker` before loading the model itself (set once, at start, by
/// a short-lived command; the hub never sets it).
pub fn ask_first(asker: Box<Asker>) {
    let _ = ASKER.set(asker);
}

/// The entries nearest `q.text` by meaning, or why there are none: asked of the hub when
/// one answers, else here — where the model is loaded only if the project has vectors to
/// compare (a project the hub never indexed needs none).
pub fn nearest_text(store: &dyn MemoryBackend, q: &TextQuery) -> std::result::Result<Vec<RowHit>, String> {
    if std::env::var("MOORING_SEMANTIC").is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
        return Err(Availability::Off.why().unwrap_or_default());
    }
    if let Some(answer) = ASKER.get().and_then(|ask| ask(q)) {
        return answer;
    }
    let unavailable = |a: Availability| match a {
        Availability::Missing(why) => format!("search by meaning is unavailable: {why}"),
        other => other.why().unwrap_or_default(),
    };
    // Not loaded yet: without the model's file, say why at once; with it, load it only
    // if there is something to compare. (Once loaded, as in the hub, neither is asked.)
    if LOADED.get().is_none() {
        if !installed() {
            model().map_err(unavailable)?;
        }
        match store.has_vectors(q.project.as_deref()) {
            Ok(Some(false)) => return Ok(Vec::new()),
            Ok(None) => return Err("this project's store keeps no vectors".into()),
            _ => {}
        }
    }
    let model = model().map_err(unavailable)?;
    let vector = model.embed(&q.text);
    let nq = NearestQuery {
        vector: &vector,
        model: MODEL,
        project: q.project.as_deref(),
        kind: q.kind.as_deref(),
        limit: q.limit,
        newest: q.newest,
        least: q.least,
    };
    match store.nearest_memory(&nq) {
        Ok(Some(hits)) => Ok(hits),
        Ok(None) => Err("this project's store keeps no vectors".into()),
        Err(e) => {
            tracing::warn!(error = %e.message, "search by meaning failed");
            Err(format!("search by meaning failed ({})", e.message))
        }
    }
}

/// Entries embedded per transaction.
const BATCH: u32 = 128;

/// Give waiting entries their vectors, newest first, until none wait or `budget` has
/// passed; how many were stored. Each batch is one transaction that also takes its
/// entries off the queue, so a killed indexer resumes with nothing done twice. The model
/// is loaded only once an entry waits.
pub fn index_pending(store: &dyn MemoryBackend, budget: Option<Duration>) -> Result<usize> {
    let started = Instant::now();
    let loaded: OnceLock<Option<Arc<Model>>> = OnceLock::new();
    let embed = |text: &str| {
        let m = loaded.get_or_init(|| model().ok()).as_ref()?;
        Some(Quantized::new(&m.embed(text)).to_bytes())
    };
    in_batches(started, budget, || Ok(store.index_vectors(MODEL, BATCH, &embed)?.unwrap_or(0)))
}

/// Run `batch` (how many it stored) until it stores nothing or `budget` since `started`
/// has passed; how many were stored in all. Nothing stored means none waits, or every
/// entry of the batch changed under us: come back later rather than spin. Both
/// indexers (meaning and re-ranking) run this way.
pub(crate) fn in_batches(
    started: Instant,
    budget: Option<Duration>,
    mut batch: impl FnMut() -> Result<usize>,
) -> Result<usize> {
    let mut stored = 0;
    loop {
        let done = batch()?;
        stored += done;
        if done == 0 || budget.is_some_and(|b| started.elapsed() >= b) {
            return Ok(stored);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::index_pending;
    use crate::memory::{NewEntry, forget, remember};
    use crate::store::backend::{MemorySearch as _, MemoryUpkeep as _};
    use crate::{NewProject, Registry, Store};

    fn counts(store: &Store) -> (i64, i64) {
        store
            .read(|c| {
                let q = |sql: &str| c.query_row(sql, [], |r| r.get(0));
                Ok((q("SELECT count(*) FROM memory_vectors")?, q("SELECT count(*) FROM vector_queue")?))
            })
            .unwrap()
    }

    #[test]
    fn forgotten_memory_leaves_no_vector_and_changed_memory_is_embedded_again() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Leases".into(), ..NewProject::default() }).unwrap();
        let add = |text: &str| {
            let e = NewEntry { kind: "note".into(), content: text.into(), ..NewEntry::default() };
            remember(&store, "leases", &e, None).unwrap().id
        };
        let renewal = add("Renewal cadence: every 5 s, TTL 15 s");
        let other = add("The invoice PDF uses the customer's billing address");
        assert_eq!(counts(&store), (0, 2), "queued by the insert");
        assert_eq!(index_pending(&store, None).unwrap(), 2);
        assert_eq!(counts(&store), (2, 0));
        assert_eq!(
            store.vector_progress(Some("leases")).unwrap().map(|p| (p.waiting, p.stored)),
            Some((0, 2))
        );

        forget(&store, "leases", other).unwrap();
        assert_eq!(counts(&store), (1, 0), "the forgotten entry's vector is gone");

        // A new text queues the entry (its old vector stays until replaced, so readers
        // need not read the project again); the indexer embeds it again.
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE memory SET content = 'Leases renew every 3 s now' WHERE id = ?1",
                    [renewal],
                )?;
                Ok(())
            })
            .unwrap();
        assert_eq!(counts(&store), (1, 1));
        assert_eq!(index_pending(&store, None).unwrap(), 1);
        assert_eq!(counts(&store), (1, 0));
    }

    #[test]
    fn a_vector_for_text_rewritten_while_it_was_embedded_is_not_stored() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Leases".into(), ..NewProject::default() }).unwrap();
        let e = NewEntry { kind: "note".into(), content: "first text".into(), ..NewEntry::default() };
        let id = remember(&store, "leases", &e, None).unwrap().id;
        let pending = store.read(|c| crate::store::vectors::pending(c, 10)).unwrap();
        store
            .write(|tx| {
                tx.execute("UPDATE memory SET content = 'second text' WHERE id = ?1", [id])?;
                Ok(())
            })
            .unwrap();
        let stored =
            store.write(|tx| crate::store::vectors::put(tx, &pending[0], super::MODEL, &[0; 260])).unwrap();
        assert!(!stored, "the old text's vector is refused");
        assert_eq!(counts(&store), (0, 1), "and the entry still waits for its new text's vector");
    }

    #[test]
    fn a_bound_on_the_newest_compares_only_those() {
        use crate::store::backend::NearestQuery;
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Leases".into(), ..NewProject::default() }).unwrap();
        let mut ids = Vec::new();
        for text in ["Renewal cadence: every 5 s", "Invoices go out monthly", "The dashboard uses ES modules"]
        {
            let e = NewEntry { kind: "note".into(), content: text.into(), ..NewEntry::default() };
            ids.push(remember(&store, "leases", &e, None).unwrap().id);
        }
        index_pending(&store, None).unwrap();
        let v = super::embed("lease renewal cadence").unwrap();
        let q = |newest| NearestQuery {
            vector: &v,
            model: super::MODEL,
            project: Some("leases"),
            kind: None,
            limit: 5,
            newest,
            least: None,
        };
        let newest_ids = || {
            let mut got: Vec<i64> =
                store.nearest_memory(&q(Some(2))).unwrap().unwrap().iter().map(|h| h.row.id).collect();
            got.sort();
            got
        };
        // Read from the database (nothing held yet), then from the held copy.
        assert_eq!(newest_ids(), ids[1..], "only the two newest are compared");
        let all = store.nearest_memory(&q(None)).unwrap().unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].row.id, ids[0], "the renewal entry is nearest");
        assert_eq!(newest_ids(), ids[1..], "held, the newest by id (a backfill stores them newest first)");
        let cosines: Vec<f64> = all.iter().map(|h| h.score).collect();
        let bar = ((cosines[0] + cosines[1]) / 2.0) as f32;
        let above = store.nearest_memory(&NearestQuery { least: Some(bar), ..q(None) }).unwrap().unwrap();
        assert_eq!(
            above.iter().map(|h| h.row.id).collect::<Vec<_>>(),
            [ids[0]],
            "below the bar, not read: {cosines:?}"
        );
    }
}
