//! The labelled set's guard: on the paraphrases (questions sharing no content word with
//! their answer) hybrid search must not fall below keyword search, and on the exact-word
//! questions it must keep keyword's recall. The figures themselves are the `quality`
//! bench's. Needs the model the test tools install.

use mooring_bench::labelled::{evaluate, load, seed};
use mooring_core::search::Mode;

#[test]
fn hybrid_is_at_least_keyword_on_paraphrases_and_loses_nothing_on_exact_words() {
    mooring_core::search::semantic::model().unwrap_or_else(|a| panic!("{a:?}: run scripts/fetch-model.sh"));
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = load();
    assert!(set.entries.len() >= 2_000 && set.queries.len() >= 200);
    assert!(set.queries.iter().filter(|q| q.paraphrase).count() * 2 >= set.queries.len());
    let ids = seed(&store, &set);
    let (_, kw_exact, kw_para) = evaluate(&store, &set, &ids, Mode::Keyword);
    let (_, hy_exact, hy_para) = evaluate(&store, &set, &ids, Mode::Hybrid);
    eprintln!("paraphrases recall@5: keyword {:.3}, hybrid {:.3}", kw_para.recall_at_5, hy_para.recall_at_5);
    assert!(
        hy_para.recall_at_5 > kw_para.recall_at_5,
        "hybrid {:.3} is not above keyword {:.3} on paraphrases",
        hy_para.recall_at_5,
        kw_para.recall_at_5
    );
    assert!(hy_para.mrr >= kw_para.mrr);
    assert!(
        hy_exact.recall_at_5 >= kw_exact.recall_at_5,
        "hybrid {:.3} lost exact-word answers keyword found ({:.3})",
        hy_exact.recall_at_5,
        kw_exact.recall_at_5
    );
}
