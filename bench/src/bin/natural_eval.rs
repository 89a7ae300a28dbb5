//! Scores keyword, semantic and hybrid search on the natural-question set beside the
//! plain BM25 baseline: `cargo run -p mooring-bench --bin natural_eval [-- --split tune]`
//! (the held half by default; `--rerank` adds hybrid re-ranked by the sentence encoder).
//! Needs the model (`scripts/fetch-model.sh`, and `--reranker` for `--rerank`).

use mooring_bench::natural::{Question, load, seed, tables};
use mooring_core::search::{Mode, Request, find};

fn main() {
    if let Err(a) = mooring_core::search::semantic::model() {
        eprintln!("natural_eval: no model ({a:?}); run scripts/fetch-model.sh first");
        return;
    }
    let split: String = mooring_bench::arg("--split", "held".to_owned());
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = load();
    let ids = seed(&store, &set);
    // A question asked in its own project, as the tables ask it.
    let ask = |q: &Question, limit: u32, mode: Mode| {
        let r = Request { query: &q.text, project: Some(&q.project), kind: None, limit, mode };
        find(&store, &r).unwrap().hits
    };
    // `--show TYPE`: the first few questions of that type with their top hits, to see why.
    let show: String = mooring_bench::arg("--show", String::new());
    for q in set.questions.iter().filter(|q| q.kind == show && q.split == split).take(4) {
        let want: Vec<i64> = q.relevant.iter().filter_map(|r| ids.get(r).copied()).collect();
        println!("Q: {}", q.text);
        for mode in [Mode::Keyword, Mode::Semantic, Mode::Hybrid] {
            for h in ask(q, 5, mode) {
                let mark = if want.contains(&h.entry.id) { "*" } else { " " };
                println!("  {} {mark} {:.3} {:?} {}", mode.as_str(), h.score, h.found_by, h.entry.content);
            }
        }
    }
    // `--dump FILE`: each question of the split with hybrid's 50 best (JSON lines), for
    // trying a reranker over them outside (`bench/natural/rerank_probe.py`).
    let dump: String = mooring_bench::arg("--dump", String::new());
    if !dump.is_empty() {
        let by_store: std::collections::HashMap<i64, i64> = ids.iter().map(|(s, d)| (*d, *s)).collect();
        let mut out = String::new();
        for q in set.questions.iter().filter(|q| q.split == split) {
            let candidates: Vec<serde_json::Value> = ask(q, 50, Mode::Hybrid)
                .iter()
                .map(|h| serde_json::json!({ "id": by_store.get(&h.entry.id), "kind": h.entry.kind.as_str(), "text": h.entry.content }))
                .collect();
            let line = serde_json::json!({ "question": q.text, "type": q.kind, "relevant": q.relevant, "candidates": candidates });
            out += &format!("{line}\n");
        }
        std::fs::write(&dump, out).unwrap();
        eprintln!("wrote {dump}");
        return;
    }
    println!(
        "natural set: {} entries, {} questions in the {split} half\n",
        set.memory.entries.len(),
        set.questions.iter().filter(|q| q.split == split).count()
    );
    // Hubs: how often a short chatty entry (under 40 characters) is in a question's top
    // ten by meaning, though no question is about one.
    let short: std::collections::HashSet<i64> = set
        .memory
        .entries
        .iter()
        .filter(|e| e.3.chars().count() < 40)
        .filter_map(|e| ids.get(&e.0).copied())
        .collect();
    let asked: Vec<_> = set.questions.iter().filter(|q| q.split == split).collect();
    let with_hub = asked
        .iter()
        .filter(|q| ask(q, 10, Mode::Semantic).iter().any(|h| short.contains(&h.entry.id)))
        .count();
    println!("short chatty entries in the top 10 by meaning: {with_hub} of {} questions\n", asked.len());
    // `--rerank`: every entry encoded for re-ranking first (a few minutes), then a
    // "hybrid, re-ranked" row in each table.
    let rerank = std::env::args().any(|a| a == "--rerank");
    if rerank {
        let started = std::time::Instant::now();
        let n = mooring_core::search::rerank::index_pending(&store, None).unwrap();
        eprintln!("encoded {n} entries for re-ranking in {:.0} s", started.elapsed().as_secs_f64());
    }
    print!("{}", tables(&store, &set, &ids, &split, rerank));
}
