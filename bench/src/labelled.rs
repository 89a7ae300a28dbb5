//! The labelled set (`bench/labelled/set.json`, made by `make_set.py`): memory entries in
//! several projects and questions with their answers. Seeds a store with it and scores
//! a search mode by recall@5 and mean reciprocal rank, on the exact-word questions, the
//! paraphrases and all.

use std::collections::HashMap;
use std::path::Path;

use mooring_core::memory::{NewEntry, remember};
use mooring_core::search::{Mode, Request, find};
use mooring_core::{NewProject, Registry, Store};
use serde_json::Value;

/// A question and its answer.
pub struct Query {
    /// The project it is asked in.
    pub project: String,
    /// The question.
    pub text: String,
    /// The answer's id in the set.
    pub relevant: Vec<i64>,
    /// Shares no content word with its answer.
    pub paraphrase: bool,
}

/// The set, read.
pub struct Set {
    /// `(set id, project, kind, content)`.
    pub entries: Vec<(i64, String, String, String)>,
    /// The questions.
    pub queries: Vec<Query>,
}

/// Read the set from the repository.
pub fn load() -> Set {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("labelled/set.json");
    let v: Value = serde_json::from_slice(&std::fs::read(&path).expect("bench/labelled/set.json")).unwrap();
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let entries = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_i64().unwrap(), s(&e["project"]), s(&e["kind"]), s(&e["content"])))
        .collect();
    let queries = v["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| Query {
            project: s(&q["project"]),
            text: s(&q["query"]),
            relevant: q["relevant"].as_array().unwrap().iter().filter_map(Value::as_i64).collect(),
            paraphrase: q["paraphrase"].as_bool().unwrap_or(false),
        })
        .collect();
    Set { entries, queries }
}

/// Write the set into `store` (one project per set project) and give every entry its
/// vector; the store's id of each set id.
pub fn seed(store: &Store, set: &Set) -> HashMap<i64, i64> {
    let registry = Registry::new(store);
    let mut ids = HashMap::new();
    for (id, project, kind, content) in &set.entries {
        if registry.get(project).is_err() {
            registry.create(NewProject { name: project.clone(), ..NewProject::default() }).unwrap();
        }
        // Handovers and captured sessions have their own writers (with their own fields);
        // here only their kind and text matter, so they are stored as notes and relabelled.
        let written = if ["handover", "session"].contains(&kind.as_str()) { "note" } else { kind };
        let e = NewEntry { kind: written.into(), content: content.clone(), ..NewEntry::default() };
        let stored = remember(store, project, &e, None).unwrap().id;
        if written != kind {
            store
                .write(|tx| {
                    tx.execute("UPDATE memory SET kind = ?1 WHERE id = ?2", rusqlite::params![kind, stored])?;
                    Ok(())
                })
                .unwrap();
        }
        ids.insert(*id, stored);
    }
    mooring_core::search::semantic::index_pending(store, None).unwrap();
    ids
}

/// Recall@5 and MRR (over the first 10) of one group of questions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Score {
    /// Share of questions with an answer in the first five.
    pub recall_at_5: f64,
    /// Mean of 1/rank of the first answer (0 past ten).
    pub mrr: f64,
    /// Questions.
    pub n: usize,
}

/// Scores of a mode: `(all, exact-word, paraphrase)`.
pub fn evaluate(store: &Store, set: &Set, ids: &HashMap<i64, i64>, mode: Mode) -> (Score, Score, Score) {
    let mut groups = [Score::default(); 3];
    for q in &set.queries {
        let want: Vec<i64> = q.relevant.iter().filter_map(|r| ids.get(r).copied()).collect();
        let r = Request { query: &q.text, project: Some(&q.project), kind: None, limit: 10, mode };
        let found = find(store, &r).unwrap();
        let rank = found.hits.iter().position(|h| want.contains(&h.entry.id));
        for g in [0, if q.paraphrase { 2 } else { 1 }] {
            groups[g].n += 1;
            if rank.is_some_and(|r| r < 5) {
                groups[g].recall_at_5 += 1.0;
            }
            groups[g].mrr += rank.map_or(0.0, |r| 1.0 / (r as f64 + 1.0));
        }
    }
    for g in &mut groups {
        let n = g.n.max(1) as f64;
        g.recall_at_5 /= n;
        g.mrr /= n;
    }
    (groups[0], groups[1], groups[2])
}
