//! Recall by meaning: the embedding model (loaded once per process, on first use, from
//! where `scripts/fetch-model.sh` installs it), and the indexer that gives entries their
//! vectors. Without the model every search is by keyword, and says so.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use mooring_embed::{Model, Quantized};

use crate::error::Result;
use crate::store::{Store, vectors};

/// The model's name, stored with each vector: vectors by another model are never compared.
pub const MODEL: &str = "wordllama-l2-supercat-256";

/// Where the model is looked for: `$MOORING_MODELS/<MODEL>`, by default under
/// `~/.cache/mooring-models` (where `scripts/fetch-model.sh` puts it).
pub fn model_dir() -> PathBuf {
    let root = std::env::var_os("MOORING_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| dirs::home_dir().unwrap_or_default().join(".cache").join("mooring-models"));
    root.join(MODEL)
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

/// Entries embedded per transaction.
const BATCH: u32 = 128;

/// Give waiting entries their vectors, newest first, until none wait or `budget` has
/// passed; how many were stored. Each batch is one transaction that also takes its
/// entries off the queue, so a killed indexer resumes with nothing done twice.
pub fn index_pending(store: &Store, budget: Option<Duration>) -> Result<usize> {
    let Ok(model) = model() else { return Ok(0) };
    let started = Instant::now();
    let mut stored = 0;
    loop {
        let pending = store.read(|c| vectors::pending(c, BATCH))?;
        if pending.is_empty() {
            return Ok(stored);
        }
        // Embedding happens outside the write lock; `put` skips an entry written since.
        let made: Vec<Vec<u8>> =
            pending.iter().map(|p| Quantized::new(&model.embed(&p.text)).to_bytes()).collect();
        let done = store.write(|tx| {
            let mut n = 0;
            for (p, v) in pending.iter().zip(&made) {
                n += usize::from(vectors::put(tx, p, MODEL, v)?);
            }
            Ok(n)
        })?;
        stored += done;
        // Nothing stored means every entry of the batch changed under us: come back later
        // rather than spin.
        if done == 0 || budget.is_some_and(|b| started.elapsed() >= b) {
            return Ok(stored);
        }
    }
}
