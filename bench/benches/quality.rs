//! Search quality on the labelled set: recall@5 and MRR of keyword, semantic and hybrid
//! search, on exact-word questions, paraphrases and all; then on the natural-question
//! set, R@1, R@5, R@10 and MRR per question type beside plain BM25. Needs the model
//! (`scripts/fetch-model.sh`).

use mooring_bench::labelled::{evaluate, load, seed};
use mooring_bench::natural;
use mooring_core::search::{Mode, Request, find};

fn main() {
    if let Err(a) = mooring_core::search::semantic::model() {
        eprintln!("quality: no model ({a:?}); run scripts/fetch-model.sh first");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = load();
    let ids = seed(&store, &set);
    let paraphrases = set.queries.iter().filter(|q| q.paraphrase).count();
    println!(
        "labelled set: {} entries, {} questions ({} paraphrases sharing no content word with their answer)\n",
        set.entries.len(),
        set.queries.len(),
        paraphrases
    );
    println!(
        "| mode | recall@5 all | MRR all | recall@5 exact | MRR exact | recall@5 paraphrase | MRR paraphrase |"
    );
    println!("|---|---|---|---|---|---|---|");
    for mode in [Mode::Keyword, Mode::Semantic, Mode::Hybrid] {
        let (all, exact, para) = evaluate(&store, &set, &ids, mode);
        println!(
            "| {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            mode.as_str(),
            all.recall_at_5,
            all.mrr,
            exact.recall_at_5,
            exact.mrr,
            para.recall_at_5,
            para.mrr
        );
    }
    // Where recall's bar for entries found by meaning alone belongs: the cosine of each
    // paraphrase's answer against the best cosine an off-topic prompt reaches.
    let semantic = |q: &str, project: &str| {
        let r = Request { query: q, project: Some(project), kind: None, limit: 10, mode: Mode::Semantic };
        find(&store, &r).unwrap().hits
    };
    let mut answers: Vec<f64> = set
        .queries
        .iter()
        .filter(|q| q.paraphrase)
        .filter_map(|q| {
            let want = ids[&q.relevant[0]];
            semantic(&q.text, &q.project).into_iter().find(|h| h.entry.id == want).map(|h| h.score)
        })
        .collect();
    let mut off_topic: Vec<f64> =
        OFF_TOPIC.iter().filter_map(|q| semantic(q, "atlas").first().map(|h| h.score)).collect();
    let pct = |v: &[f64], p: f64| v.get(((v.len() as f64 - 1.0) * p) as usize).copied().unwrap_or(f64::NAN);
    answers.sort_by(f64::total_cmp);
    off_topic.sort_by(f64::total_cmp);
    println!(
        "\ncosine of a paraphrase's answer (when in the first ten): p10 {:.2}, p50 {:.2}, p90 {:.2} ({} answers)",
        pct(&answers, 0.1),
        pct(&answers, 0.5),
        pct(&answers, 0.9),
        answers.len()
    );
    println!(
        "best cosine an off-topic prompt reaches: p50 {:.2}, p90 {:.2}, max {:.2} ({} prompts); recall's bar is {}",
        pct(&off_topic, 0.5),
        pct(&off_topic, 0.9),
        pct(&off_topic, 1.0),
        off_topic.len(),
        mooring_core::search::recall::NEAR_ENOUGH
    );

    // The natural-question set, in a store of its own: the held-back half (never tuned
    // on), then the tuning half, per question type, beside plain BM25.
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = natural::load();
    let ids = natural::seed(&store, &set);
    println!("\n## natural set: {} entries, {} questions", set.memory.entries.len(), set.questions.len());
    for split in ["held", "tune"] {
        print!("{}", natural::tables(&store, &set, &ids, split, false));
    }
}

/// Prompts about nothing in the set.
const OFF_TOPIC: &[&str] = &[
    "Thanks, looks good to me!",
    "Can you run the tests again?",
    "What's the weather like in Lisbon?",
    "Please commit this with a short message.",
    "Explain what this function does.",
    "Rename the variable to something clearer.",
    "Write a haiku about autumn.",
    "ok continue",
    "Why is the sky blue?",
    "Summarize the last three commits.",
    "Format the file and fix the lint warnings.",
    "How do I exit vim?",
    "Translate this sentence to French.",
    "What time is it in Tokyo?",
    "Make the button bigger.",
    "Add a unit test for the parser.",
    "Is this recursion safe for deep inputs?",
    "Let's call it a day.",
    "Good morning!",
    "Show me the diff.",
];
