//! The natural-question set's guard, on the held half only (never tuned on): hybrid search
//! beats the plain BM25 baseline (`bench/natural/baseline.json`, by `rank_bm25`) by at
//! least ten points of R@5 and beats it at R@1 and MRR, and keyword search at R@5 and MRR
//! (hybrid ≥ keyword ≥ BM25); keyword search answers natural
//! questions (it used to return nothing when a stop word had no match). The figures
//! themselves are the `quality` bench's. Needs the model the test tools install.

use mooring_bench::natural::{baseline, evaluate, load, seed};
use mooring_core::search::Mode;
use sha2::{Digest, Sha256};

#[test]
fn the_baseline_was_computed_over_this_very_set() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("natural");
    let set = std::fs::read(root.join("set.json")).unwrap();
    let base: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("baseline.json")).unwrap()).unwrap();
    let digest: String = Sha256::digest(&set).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        base["set_sha256"],
        digest.as_str(),
        "run `python3 bench/natural/baseline.py` after make_set.py"
    );
    let loaded = load();
    assert_eq!(base["ranks"].as_array().unwrap().len(), loaded.questions.len());
    assert!(loaded.questions.len() >= 1_000, "at least a thousand questions");
    let held = loaded.questions.iter().filter(|q| q.split == "held").count();
    assert!(held * 3 >= loaded.questions.len(), "a third or more held back");
}

#[test]
fn on_held_back_questions_hybrid_beats_plain_bm25_and_keyword_answers_questions() {
    mooring_core::search::semantic::model().unwrap_or_else(|a| panic!("{a:?}: run scripts/fetch-model.sh"));
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = load();
    let ids = seed(&store, &set);
    let bm25 = baseline()["held/all"];
    let hybrid = evaluate(&store, &set, &ids, Mode::Hybrid, "held")["held/all"];
    eprintln!("held R@5: BM25 {:.3}, hybrid {:.3}", bm25.r5, hybrid.r5);
    assert!(
        hybrid.r5 >= bm25.r5 + 0.10,
        "hybrid R@5 {:.3} is not 10 points above BM25's {:.3}",
        hybrid.r5,
        bm25.r5
    );
    assert!(hybrid.r1 > bm25.r1, "R@1: hybrid {:.3}, BM25 {:.3}", hybrid.r1, bm25.r1);
    assert!(hybrid.mrr > bm25.mrr, "MRR: hybrid {:.3}, BM25 {:.3}", hybrid.mrr, bm25.mrr);
    // Keyword mode finds something for every question that shares a word with its answer
    // (all but the paraphrases), and is at least BM25's equal there.
    let keyword = evaluate(&store, &set, &ids, Mode::Keyword, "held");
    // The ordering hybrid ≥ keyword ≥ BM25 holds: the fusion never loses to its keyword
    // half (reciprocal rank fusion did, on public conversations: docs/search.md).
    let words = keyword["held/all"];
    assert!(words.r5 >= bm25.r5, "keyword R@5 {:.3} below BM25's {:.3}", words.r5, bm25.r5);
    assert!(hybrid.r5 >= words.r5, "hybrid R@5 {:.3} below keyword's {:.3}", hybrid.r5, words.r5);
    assert!(hybrid.mrr >= words.mrr, "hybrid MRR {:.3} below keyword's {:.3}", hybrid.mrr, words.mrr);
    for (kind, s) in keyword.iter().filter(|(k, _)| !k.ends_with("/paraphrase") && !k.ends_with("/all")) {
        let b = baseline()[kind];
        assert!(s.r10 >= b.r10 - 0.01, "{kind}: keyword R@10 {:.3} below BM25's {:.3}", s.r10, b.r10);
    }
}
