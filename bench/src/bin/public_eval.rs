//! Search on public conversations nobody here wrote, beside plain BM25: R@1, R@5, R@10
//! and MRR per category for keyword, semantic and hybrid search, and time per search.
//!
//!     cargo run --profile start -p mooring-bench --bin public-eval -- --data PATH/locomo10.json
//!
//! `--encoder` also encodes every turn with the sentence encoder (all-MiniLM-L6-v2,
//! `scripts/fetch-model.sh --reranker`; minutes) and scores it as the meaning half, in
//! the fusion, and scoring the candidates of both halves (the `rerank` setting).
//!
//! LoCoMo is `data/locomo10.json` of the public `snap-research/LoCoMo` repository (CC
//! BY-NC: downloaded by whoever runs this, never committed). Needs the model
//! (`scripts/fetch-model.sh`).

use std::time::Instant;

use mooring_bench::natural::Scores;
use mooring_bench::public::{Bm25, EncoderNearest, hybrid_with, load, ranked, score, seed};
use mooring_core::search::Mode;

fn main() {
    let data: String = mooring_bench::arg("--data", String::new());
    if data.is_empty() {
        eprintln!("public-eval: --data PATH (LoCoMo's data/locomo10.json) is required");
        std::process::exit(2);
    }
    let set = match load(std::path::Path::new(&data)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("public-eval: {e}");
            std::process::exit(2);
        }
    };
    if let Err(a) = mooring_core::search::semantic::model() {
        eprintln!("public-eval: no model ({a:?}); run scripts/fetch-model.sh first");
        std::process::exit(2);
    }
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let ids = seed(&store, &set);
    let turns: usize = set.conversations.iter().map(Vec::len).sum();
    let dated = set.conversations.iter().flatten().filter(|t| t.at.is_some()).count();
    println!(
        "{} conversations, {turns} turns ({dated} dated), {} questions\n",
        set.conversations.len(),
        set.questions.len()
    );
    let bm25 = Bm25::new(&set);
    let mut rows: Vec<(String, std::collections::BTreeMap<String, Scores>, f64)> = Vec::new();
    let t = Instant::now();
    let base = score(&set, |q| bm25.rank(q));
    rows.push(("plain BM25".into(), base, t.elapsed().as_secs_f64() * 1e3 / set.questions.len() as f64));
    for mode in [Mode::Keyword, Mode::Semantic, Mode::Hybrid] {
        let t = Instant::now();
        let s = score(&set, |q| ranked(&store, &ids, q, mode));
        rows.push((mode.as_str().into(), s, t.elapsed().as_secs_f64() * 1e3 / set.questions.len() as f64));
    }
    if std::env::args().any(|a| a == "--encoder") {
        let t = Instant::now();
        while mooring_core::search::rerank::index_pending(&store, None).map(|n| n > 0).unwrap_or(false) {}
        eprintln!("encoded {turns} turns in {:.0} s", t.elapsed().as_secs_f64());
        let near = EncoderNearest::new(&store, &ids).unwrap_or_else(|e| {
            eprintln!("public-eval: {e}");
            std::process::exit(2)
        });
        let per = |t: Instant| t.elapsed().as_secs_f64() * 1e3 / set.questions.len() as f64;
        let t = Instant::now();
        let s = score(&set, |q| {
            near.nearest(q, 10)
                .into_iter()
                .filter_map(|(id, _)| ids[q.conversation].get(&id).cloned())
                .collect()
        });
        rows.push(("semantic, encoder".into(), s, per(t)));
        let t = Instant::now();
        let s = score(&set, |q| hybrid_with(&store, &near, &ids, q));
        rows.push(("hybrid, encoder as the meaning half".into(), s, per(t)));
        let t = Instant::now();
        let s = score(&set, |q| {
            let slug = mooring_bench::public::project(q.conversation);
            let r = mooring_core::search::Request {
                query: &q.text,
                project: Some(&slug),
                kind: None,
                limit: 10,
                mode: Mode::Hybrid,
            };
            mooring_core::search::rerank::find(&store, true, &r)
                .map(|f| {
                    f.hits.iter().filter_map(|h| ids[q.conversation].get(&h.entry.id).cloned()).collect()
                })
                .unwrap_or_default()
        });
        rows.push(("hybrid, the encoder scoring both halves' candidates (`rerank` on)".into(), s, per(t)));
    }
    let keys: Vec<String> = rows[0].1.keys().cloned().collect();
    for key in keys {
        println!("### {key} ({} questions)\n", rows[0].1[&key].n);
        println!("| ranking | R@1 | R@5 | R@10 | MRR | ms per search |\n|---|---|---|---|---|---|");
        for (name, groups, ms) in &rows {
            let s = groups.get(&key).copied().unwrap_or_default();
            println!(
                "| {name} | {:.1} | {:.1} | {:.1} | {:.3} | {ms:.2} |",
                s.r1 * 100.0,
                s.r5 * 100.0,
                s.r10 * 100.0,
                s.mrr
            );
        }
        println!();
    }
}
