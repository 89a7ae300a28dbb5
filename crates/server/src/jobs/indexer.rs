//! The hub gives new and changed memory its vectors for search by meaning in the
//! background — whoever wrote it (an agent over MCP, a hook, a `mooring` command, a
//! team member's machine) — and backfills what was there before, a slice each second so
//! the hub stays responsive; after a slice that found new entries, it merges the keyword
//! index a bounded step. At start, where vectors are stored, it loads the model and holds
//! every project's vectors, so the first search does not wait for them.

use std::sync::Arc;
use std::time::Duration;

use mooring_core::Store;
use mooring_core::store::backend::MemoryBackend;
use tokio_util::sync::CancellationToken;

/// How often the queue is looked at.
const EVERY: Duration = Duration::from_secs(1);
/// Longest run of embedding per tick (about 4,000 entries), a quarter of one core.
const SLICE: Duration = Duration::from_millis(250);

/// Index waiting entries of `memory` (this machine's and the team's) until `cancel`, and
/// encode this machine's for re-ranking while `settings` has it on. The model is loaded
/// only once something waits.
pub async fn run(memory: Arc<dyn MemoryBackend>, settings: Arc<Store>, cancel: CancellationToken) {
    if !mooring_core::search::semantic::installed() {
        tracing::info!("no model for search by meaning; searching by keyword only");
        return;
    }
    let warm = memory.clone();
    match tokio::task::spawn_blocking(move || hold_vectors(&*warm)).await {
        Ok(Err(why)) => tracing::warn!(%why, "vectors not held ahead; the first search reads them"),
        Err(e) => tracing::warn!(error = %e, "holding vectors ahead stopped"),
        Ok(Ok(())) => {}
    }
    let mut ticks = crate::jobs::ticks::Ticks::new(EVERY, cancel);
    // Finding what lacks a re-ranking vector reads every entry (50 ms at 100,000), so it
    // is looked for only when there may be some: at start, after entries were indexed
    // (new or changed ones pass through search by meaning's queue first), when the
    // setting is switched on, and while the last slice found work.
    let (mut rerank_due, mut rerank_was_on) = (true, false);
    while ticks.next().await {
        let memory_for_tidy = memory.clone();
        let memory = memory.clone();
        let done = tokio::task::spawn_blocking(move || {
            mooring_core::search::semantic::index_pending(&*memory, Some(SLICE))
        })
        .await;
        match done {
            Ok(Ok(0)) => {
                let on = mooring_core::search::rerank::wanted(&settings);
                rerank_due |= on && !rerank_was_on;
                rerank_was_on = on;
                if on && rerank_due {
                    rerank_due = rerank_slice(&memory_for_tidy).await;
                }
            }
            Ok(Ok(n)) => {
                rerank_due = true;
                tracing::debug!(indexed = n, "memory indexed for search by meaning");
                // Entries were written: a bounded step of merging the keyword index.
                let memory = memory_for_tidy.clone();
                let tidied = tokio::task::spawn_blocking(move || memory.tidy_index());
                match tidied.await {
                    Ok(Err(e)) => tracing::warn!(error = %e.message, "tidying the keyword index failed"),
                    Err(e) => tracing::warn!(error = %e, "tidying the keyword index stopped"),
                    Ok(Ok(())) => {}
                }
            }
            Ok(Err(e)) => tracing::warn!(error = %e.message, "indexing for search by meaning failed"),
            Err(e) => tracing::warn!(error = %e, "the indexer stopped"),
        }
    }
}

/// Encode entries for re-ranking, a slice at a time, once search by meaning has none
/// waiting (re-ranking reads its order); whether there may be more.
async fn rerank_slice(memory: &Arc<dyn MemoryBackend>) -> bool {
    if !mooring_core::search::rerank::model_dir().exists() {
        return false;
    }
    let memory = memory.clone();
    match tokio::task::spawn_blocking(move || {
        mooring_core::search::rerank::index_pending(&*memory, Some(SLICE))
    })
    .await
    {
        Ok(Ok(0)) => false,
        Ok(Ok(n)) => {
            tracing::debug!(encoded = n, "memory encoded for re-ranking");
            true
        }
        Ok(Err(e)) => {
            tracing::warn!(error = %e.message, "encoding for re-ranking failed");
            false
        }
        Err(e) => {
            tracing::warn!(error = %e, "the re-ranking encoder stopped");
            false
        }
    }
}

/// Load the model and hold every project's vectors, where any are stored: a search's
/// first read of them took about 1 s at 100,000 entries.
fn hold_vectors(memory: &dyn MemoryBackend) -> Result<(), String> {
    let stored = memory.has_vectors(None).map_err(|e| e.message)?.unwrap_or(false);
    if !stored {
        return Ok(());
    }
    let started = std::time::Instant::now();
    let model = mooring_core::search::semantic::model().map_err(|a| a.why().unwrap_or_default())?;
    memory.warm_vectors(mooring_core::search::semantic::MODEL, model.dim()).map_err(|e| e.message)?;
    tracing::debug!(ms = started.elapsed().as_millis() as u64, "vectors held for search by meaning");
    Ok(())
}
