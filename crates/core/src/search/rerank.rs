//! The sentence encoder (the `rerank` setting, off by default): all-MiniLM-L6-v2, whose
//! vector of each entry the hub's indexer stores ahead. With it on, a hybrid search's
//! meaning half is every candidate of both halves scored by the encoder's cosine with the
//! question, fused as always (`search::fusion`); a search by meaning alone keeps its
//! first hit and orders the rest by the cosine.
//!
//! LoCoMo, categories 1–4 (`public-eval --encoder`): R@5 65.3 → 67.6, MRR 0.483 → 0.500.
//! Re-ordering the fusion's 50 best by the cosine alone, as this did before, lost 4.4
//! points of R@5 there: it threw the keyword half's evidence away. It costs the encoder's
//! 90 MB, about 10–21 ms a question and 38 ms an entry on average on one core (`--bench
//! rerank`), so it is a setting: per-prompt recall (a process per prompt) never uses it.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use mooring_embed::{Encoder, Quantized};

use crate::error::Result;
use crate::search::{Found, Mode, Request, find as fused};
use crate::store::Store;
use crate::store::backend::MemoryBackend;

/// The encoder's name, stored with each vector.
pub const MODEL: &str = mooring_embed::ENCODER_MODEL;
/// How many of the fusion's best are re-ranked (tuned: 20 gave R@5 0.81, 50 gave 0.83).
pub const DEPTH: u32 = 50;
/// The setting that switches it on.
pub const SETTING: crate::settings::Setting = crate::settings::Setting::Rerank;

/// Where the encoder is looked for (`scripts/fetch-model.sh --reranker` puts it there).
pub fn model_dir() -> PathBuf {
    mooring_embed::models_root().join(MODEL)
}

static LOADED: OnceLock<std::result::Result<Arc<Encoder>, String>> = OnceLock::new();

/// The encoder, loaded on first use (about 0.1 s); why not, with the fix.
pub fn encoder() -> std::result::Result<Arc<Encoder>, String> {
    LOADED
        .get_or_init(|| {
            Encoder::load(&model_dir()).map(Arc::new).map_err(|e| {
                format!("{e}; install it with `scripts/fetch-model.sh --reranker` (or set MOORING_MODELS)")
            })
        })
        .clone()
}

/// Whether the person switched re-ranking on.
pub fn wanted(store: &Store) -> bool {
    SETTING.is_on(store).unwrap_or(false)
}

/// Entries encoded per transaction (each takes 21 ms at p50, 85 ms at p99).
const BATCH: u32 = 8;

/// Encode entries without a re-ranking vector, newest first, until none wait or `budget`
/// has passed; how many were stored. The encoder is loaded only once an entry waits.
pub fn index_pending(store: &dyn MemoryBackend, budget: Option<Duration>) -> Result<usize> {
    let started = Instant::now();
    let loaded: OnceLock<Option<Arc<Encoder>>> = OnceLock::new();
    let embed = |text: &str| {
        if budget.is_some_and(|b| started.elapsed() >= b) {
            return None;
        }
        let e = loaded.get_or_init(|| encoder().ok()).as_ref()?;
        Some(Quantized::new(&e.embed(text)).to_bytes())
    };
    crate::search::semantic::in_batches(started, budget, || {
        Ok(store.index_rerank(MODEL, BATCH, &embed)?.unwrap_or(0))
    })
}

/// Search as `r` asks, re-ranked when `on` (by meaning or both; a keyword search is
/// kept as its words ranked it). Without the encoder the search is the fusion's, with a
/// note saying why.
pub fn find(store: &dyn MemoryBackend, on: bool, r: &Request<'_>) -> Result<Found> {
    if !on || r.mode == Mode::Keyword {
        return fused(store, r);
    }
    let encoder = match encoder() {
        Ok(e) => e,
        Err(why) => {
            let mut found = fused(store, r)?;
            add_note(&mut found, format!("not re-ranked: {why}"));
            return Ok(found);
        }
    };
    if r.mode == Mode::Hybrid {
        return by_encoder(store, &encoder, r);
    }
    let deep = Request { limit: r.limit.max(DEPTH), ..*r };
    let mut found = fused(store, &deep)?;
    let keys: Vec<(&str, i64)> = found.hits.iter().map(|h| (h.entry.project.as_str(), h.entry.id)).collect();
    let vectors = store.rerank_vectors(MODEL, &keys)?;
    let query = encoder.embed(r.query);
    let cosines: Vec<Option<f64>> = vectors
        .iter()
        .map(|v| {
            let q = Quantized::from_bytes(v.as_deref()?, encoder.dim())?;
            Some(
                q.values.iter().zip(&query).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum::<f64>()
                    * f64::from(q.scale),
            )
        })
        .collect();
    let order = reorder(&cosines);
    if cosines.iter().all(Option::is_none) {
        found.hits.truncate(r.limit as usize);
        note_waiting(&mut found, cosines.len());
        return Ok(found);
    }
    let mut hits: Vec<_> = order.iter().map(|&i| found.hits[i].clone()).collect();
    for (hit, score) in hits.iter_mut().zip(scores(&order.iter().map(|&i| cosines[i]).collect::<Vec<_>>())) {
        hit.score = score;
    }
    hits.truncate(r.limit as usize);
    found.hits = hits;
    note_waiting(&mut found, cosines.iter().filter(|c| c.is_none()).count());
    Ok(found)
}

/// A hybrid search whose meaning half the encoder scores: every candidate of both halves
/// by its cosine, fused as always (`search::fusion`). Re-ordering the fusion's 50 best
/// by the encoder alone, as re-ranking did, threw the keyword half's evidence away:
/// LoCoMo categories 1–4 R@5 62.4 → 58.0; in the fusion, the encoder lifts it instead
/// (`public-eval --encoder`).
fn by_encoder(store: &dyn MemoryBackend, encoder: &Encoder, r: &Request<'_>) -> Result<Found> {
    let waiting = std::cell::Cell::new(0usize);
    let query: OnceLock<Vec<f32>> = OnceLock::new();
    let encoded = |keys: &[(&str, i64)]| -> Vec<Option<f64>> {
        let Ok(vectors) = store.rerank_vectors(MODEL, keys) else { return vec![None; keys.len()] };
        let query = query.get_or_init(|| encoder.embed(r.query));
        let cosines: Vec<Option<f64>> = vectors
            .iter()
            .map(|v| {
                let q = Quantized::from_bytes(v.as_deref()?, encoder.dim())?;
                Some(
                    q.values.iter().zip(query).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum::<f64>()
                        * f64::from(q.scale),
                )
            })
            .collect();
        waiting.set(cosines.iter().filter(|c| c.is_none()).count());
        cosines
    };
    let mut found = crate::search::find_with(store, r, Some(&encoded))?;
    note_waiting(&mut found, waiting.get());
    Ok(found)
}

/// Say how many of the hits re-ranked were not encoded yet, if any (only they matter
/// to this search; counting every entry that waits read the whole memory per search).
fn note_waiting(found: &mut Found, waiting: usize) {
    if waiting > 0 {
        add_note(
            found,
            format!(
                "{} of this search not encoded by the sentence encoder yet (they keep the \
                 static model's place); a running Mooring encodes them in the background, \
                 `mooring memory index` does it now",
                crate::projects::event_words::plural(waiting as i64, "entry", "entries")
            ),
        );
    }
}

/// The new order of hits with these cosines: the first kept (re-ranking it cost 12
/// points of R@1), the rest with a cosine sorted by it within the places they held, and
/// those without one left where they were.
pub fn reorder(cosines: &[Option<f64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cosines.len()).collect();
    let places: Vec<usize> = (1..cosines.len()).filter(|&i| cosines[i].is_some()).collect();
    let mut ranked = places.clone();
    ranked.sort_by(|&a, &b| cosines[b].unwrap_or(0.0).total_cmp(&cosines[a].unwrap_or(0.0)).then(a.cmp(&b)));
    for (place, hit) in places.into_iter().zip(ranked) {
        order[place] = hit;
    }
    order
}

/// Scores in the new order: each hit's cosine, raised where needed so they never rise
/// down the list ("higher is better" still reads true); a hit without one takes the
/// next one's.
fn scores(cosines: &[Option<f64>]) -> Vec<f64> {
    let mut out = vec![0.0; cosines.len()];
    let mut below = f64::NEG_INFINITY;
    for (i, c) in cosines.iter().enumerate().rev() {
        below = c.map_or(below, |c| c.max(below));
        out[i] = if below.is_finite() { below } else { 0.0 };
    }
    out
}

fn add_note(found: &mut Found, more: String) {
    found.note = Some(match found.note.take() {
        Some(n) => format!("{n}; {more}"),
        None => more,
    });
}

#[cfg(test)]
mod tests {
    use super::{MODEL, find, index_pending, reorder, scores};
    use crate::memory::{NewEntry, forget, remember};
    use crate::search::{self, Mode, Request};
    use crate::store::backend::MemoryUpkeep as _;
    use crate::{NewProject, Registry, Store};

    #[test]
    fn with_the_encoder_on_a_hybrid_search_fuses_the_encoders_meaning_half() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Leases".into(), ..NewProject::default() }).unwrap();
        let texts = [
            "Renewal cadence: every 5 s, TTL 15 s",
            "The leader renews its lease in etcd; a missed renewal steps it down",
            "Lease renewal steps for the office: sign the form, pay the deposit",
            "The invoice PDF uses the customer's billing address",
            "How we elect a leader: the first node to take the lease",
            "Bye!",
            "We renew certificates with certbot every 60 days",
        ];
        let mut ids = Vec::new();
        for t in texts {
            let e = NewEntry { kind: "note".into(), content: t.into(), ..NewEntry::default() };
            ids.push(remember(&store, "leases", &e, None).unwrap().id);
        }
        crate::search::semantic::index_pending(&store, None).unwrap();
        let r = Request {
            query: "how often is the lease renewed?",
            project: Some("leases"),
            kind: None,
            limit: 5,
            mode: Mode::Hybrid,
        };

        let before = find(&store, true, &r).unwrap();
        assert_eq!(
            before.hits,
            search::find(&store, &r).unwrap().hits,
            "nothing encoded yet: the fusion's order"
        );
        assert!(
            before.note.as_deref().is_some_and(|n| n.contains("7 entries of this search not encoded")),
            "{:?}",
            before.note
        );

        assert_eq!(index_pending(&store, None).unwrap(), 7);
        assert_eq!(store.rerank_waiting(MODEL).unwrap(), Some(0));
        let found = find(&store, true, &r).unwrap();
        assert_eq!(found.hits.len(), 5);
        // The encoder scores the meaning half: the certificates' renewal, near the question
        // by meaning, comes in; the invoice, which only the static model's half brought,
        // goes out.
        let contents =
            |hits: &[search::Hit]| hits.iter().map(|h| h.entry.content.clone()).collect::<Vec<_>>();
        let (with, without) = (contents(&found.hits), contents(&search::find(&store, &r).unwrap().hits));
        let (certbot, invoice) = (texts[6].to_owned(), texts[3].to_owned());
        assert!(without.contains(&invoice) && !without.contains(&certbot), "{without:?}");
        assert!(with.contains(&certbot) && !with.contains(&invoice), "{with:?}");
        assert!(found.hits.windows(2).all(|w| w[0].score >= w[1].score), "scores never rise down the list");
        assert_eq!(found.note, None);
        assert_eq!(
            find(&store, false, &r).unwrap().hits,
            search::find(&store, &r).unwrap().hits,
            "off: unchanged"
        );

        // A changed entry is encoded again; a forgotten one leaves no vector.
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE memory SET content = 'Leases renew every 3 s now' WHERE id = ?1",
                    [ids[0]],
                )?;
                Ok(())
            })
            .unwrap();
        assert_eq!(store.rerank_waiting(MODEL).unwrap(), Some(1));
        forget(&store, "leases", ids[1]).unwrap();
        let left: i64 = store
            .read(|c| Ok(c.query_row("SELECT count(*) FROM rerank_vectors", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(left, 5);
        assert_eq!(index_pending(&store, None).unwrap(), 1);
    }

    #[test]
    fn the_first_hit_stays_and_the_rest_follow_the_encoder_around_hits_it_has_not_seen() {
        let c = [Some(0.1), Some(0.2), None, Some(0.9), Some(0.5)];
        assert_eq!(reorder(&c), vec![0, 3, 2, 4, 1]);
        let s = scores(&[c[0], c[3], c[2], c[4], c[1]]);
        assert_eq!(s, vec![0.9, 0.9, 0.5, 0.5, 0.2], "never rising down the list");
        assert_eq!(reorder(&[None, None]), vec![0, 1], "nothing encoded: the fusion's order");
        assert_eq!(reorder(&[]), Vec::<usize>::new());
    }
}
