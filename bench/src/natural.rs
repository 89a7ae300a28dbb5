//! The natural-question set (`bench/natural/set.json`, made by `make_set.py`): memory as
//! it piles up in real projects and the questions people and agents type about it, with
//! their answers, a type for each question and a split (`tune` or `held`); and the plain
//! BM25 baseline over the same text (`baseline.json`, by `baseline.py`). Scores a mode by
//! R@1, R@5, R@10 and MRR per split and question type.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use mooring_core::search::{Mode, Request};
use mooring_core::{Store, store::backend::MemoryBackend};
use serde_json::Value;

use crate::labelled;

/// A question and its answers.
pub struct Question {
    /// The project it is asked in.
    pub project: String,
    /// As typed.
    pub text: String,
    /// What kind of question (what, when, paraphrase, one_word…).
    pub kind: String,
    /// `tune` or `held`.
    pub split: String,
    /// Its answers' ids in the set (any one in the top counts).
    pub relevant: Vec<i64>,
}

/// The set, read.
pub struct Set {
    /// The entries, as the labelled set keeps them.
    pub memory: labelled::Set,
    /// The questions.
    pub questions: Vec<Question>,
}

fn read(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("natural").join(name);
    serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap()
}

/// Read the set from the repository.
pub fn load() -> Set {
    let v = read("set.json");
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let entries = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_i64().unwrap(), s(&e["project"]), s(&e["kind"]), s(&e["content"])))
        .collect();
    let questions = v["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| Question {
            project: s(&q["project"]),
            text: s(&q["query"]),
            kind: s(&q["type"]),
            split: s(&q["split"]),
            relevant: q["relevant"].as_array().unwrap().iter().filter_map(Value::as_i64).collect(),
        })
        .collect();
    Set { memory: labelled::Set { entries, queries: Vec::new() }, questions }
}

/// Write the set into `store` and index it by meaning; the store's id of each set id.
pub fn seed(store: &Store, set: &Set) -> HashMap<i64, i64> {
    labelled::seed(store, &set.memory)
}

/// R@1, R@5, R@10 and MRR (over the first 10) of a group of questions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Scores {
    /// Questions.
    pub n: usize,
    /// Share with an answer first.
    pub r1: f64,
    /// Share with an answer in the first five.
    pub r5: f64,
    /// Share with an answer in the first ten.
    pub r10: f64,
    /// Mean of 1/rank of the first answer (0 past ten).
    pub mrr: f64,
}

impl Scores {
    /// Count a question found at `rank` (0 first), or not found.
    pub fn add(&mut self, rank: Option<usize>) {
        self.n += 1;
        if let Some(r) = rank {
            self.r1 += f64::from(u8::from(r < 1));
            self.r5 += f64::from(u8::from(r < 5));
            self.r10 += f64::from(u8::from(r < 10));
            self.mrr += 1.0 / (r as f64 + 1.0);
        }
    }

    /// Sums into shares.
    pub fn finish(mut self) -> Self {
        let n = self.n.max(1) as f64;
        self.r1 /= n;
        self.r5 /= n;
        self.r10 /= n;
        self.mrr /= n;
        self
    }

    fn from_json(v: &Value) -> Self {
        let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
        Self {
            n: v["n"].as_u64().unwrap_or(0) as usize,
            r1: f("r1"),
            r5: f("r5"),
            r10: f("r10"),
            mrr: f("mrr"),
        }
    }
}

/// Scores by `split/type` (and `split/all`) of `mode` over the questions of `split`.
pub fn evaluate(
    store: &dyn MemoryBackend,
    set: &Set,
    ids: &HashMap<i64, i64>,
    mode: Mode,
    split: &str,
) -> BTreeMap<String, Scores> {
    evaluate_ranked(store, set, ids, mode, false, split)
}

/// [`evaluate`], re-ranked by the sentence encoder when `rerank` (every entry encoded
/// first: `mooring_core::search::rerank::index_pending`).
pub fn evaluate_ranked(
    store: &dyn MemoryBackend,
    set: &Set,
    ids: &HashMap<i64, i64>,
    mode: Mode,
    rerank: bool,
    split: &str,
) -> BTreeMap<String, Scores> {
    let mut groups: BTreeMap<String, Scores> = BTreeMap::new();
    for q in set.questions.iter().filter(|q| q.split == split) {
        let want: Vec<i64> = q.relevant.iter().filter_map(|r| ids.get(r).copied()).collect();
        let r = Request { query: &q.text, project: Some(&q.project), kind: None, limit: 10, mode };
        let found = mooring_core::search::rerank::find(store, rerank, &r).unwrap();
        let rank = found.hits.iter().position(|h| want.contains(&h.entry.id));
        for key in [format!("{split}/all"), format!("{split}/{}", q.kind)] {
            groups.entry(key).or_default().add(rank);
        }
    }
    groups.into_iter().map(|(k, s)| (k, s.finish())).collect()
}

/// The plain BM25 baseline's scores, by `split/type`.
pub fn baseline() -> BTreeMap<String, Scores> {
    let v = read("baseline.json");
    v["groups"].as_object().unwrap().iter().map(|(k, g)| (k.clone(), Scores::from_json(g))).collect()
}

/// Fill project `slug` of `store` with 100,000 entries: the set's entries over and over,
/// each copy numbered, in batches of 1,000 (as realistic a vocabulary as the set's, at
/// the size search must stay fast at).
pub fn hundred_thousand(store: &dyn MemoryBackend, set: &Set, slug: &str) {
    use mooring_core::memory::{NewEntry, remember_batch};
    let entries = &set.memory.entries;
    for chunk in 0..100 {
        let batch: Vec<NewEntry> = (0..1_000)
            .map(|i| {
                let n = chunk * 1_000 + i;
                let (_, _, kind, content) = &entries[n % entries.len()];
                let kind = if ["handover", "session"].contains(&kind.as_str()) { "note" } else { kind };
                NewEntry { kind: kind.into(), content: format!("{content} (#{n})"), ..NewEntry::default() }
            })
            .collect();
        remember_batch(store, slug, &batch, None).unwrap();
    }
}

/// The tables of a split: per question type (and all), R@1, R@5, R@10 and MRR of plain
/// BM25 and of each mode (and hybrid re-ranked, when `rerank`), as Markdown.
pub fn tables(
    store: &dyn MemoryBackend,
    set: &Set,
    ids: &HashMap<i64, i64>,
    split: &str,
    rerank: bool,
) -> String {
    let base = baseline();
    let mut modes: Vec<_> = [Mode::Keyword, Mode::Semantic, Mode::Hybrid]
        .into_iter()
        .map(|m| (m.as_str(), evaluate(store, set, ids, m, split)))
        .collect();
    if rerank {
        modes.push(("hybrid, re-ranked", evaluate_ranked(store, set, ids, Mode::Hybrid, true, split)));
    }
    let row = |name: &str, s: &Scores| {
        format!("| {name} | {:.3} | {:.3} | {:.3} | {:.3} |\n", s.r1, s.r5, s.r10, s.mrr)
    };
    let mut out = String::new();
    for (key, b) in base.iter().filter(|(k, _)| k.starts_with(&format!("{split}/"))) {
        out += &format!(
            "\n### {key} ({} questions)\n\n| ranking | R@1 | R@5 | R@10 | MRR |\n|---|---|---|---|---|\n",
            b.n
        );
        out += &row("plain BM25 (rank_bm25)", b);
        for (mode, groups) in &modes {
            out += &row(mode, &groups.get(key).copied().unwrap_or_default());
        }
    }
    out
}
