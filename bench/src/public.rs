//! Search measured on conversations nobody here wrote: LoCoMo's format (a list of
//! conversations, each with sessions of turns `{speaker, dia_id, text}` and questions
//! `{question, evidence: [dia_id…], category}`; REALTALK's conversations keep their
//! sessions at the top and the text in `clean_text`), read from a file the person downloaded
//! (the sets' licences keep them out of this repository). Each conversation is a
//! project, each turn one entry (`speaker: text`), as `mooring memory add` writes them;
//! each question is asked in its conversation's project exactly as written. A question
//! counts as found at the rank of its first evidence turn; scores per category beside a
//! plain Okapi BM25 over the same text.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use mooring_core::memory::{NewEntry, remember_batch};
use mooring_core::search::{Mode, Request};
use mooring_core::store::backend::{MemoryBackend, MemorySearch as _};
use mooring_core::{NewProject, Registry, Store};
use serde_json::Value;

use crate::natural::Scores;

/// A turn of a conversation.
pub struct Turn {
    /// Its id in the set (`D3:12`).
    pub dia: String,
    /// `speaker: text`, as stored.
    pub text: String,
    /// When it was said (RFC 3339), where the set says: its session's time (LoCoMo,
    /// plus ten seconds a turn) or its own (REALTALK).
    pub at: Option<String>,
}

/// A question with its evidence.
pub struct Question {
    /// Its conversation's index.
    pub conversation: usize,
    /// As written.
    pub text: String,
    /// Its category (LoCoMo: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5
    /// adversarial).
    pub category: u32,
    /// The turns that answer it.
    pub evidence: Vec<String>,
}

/// A set, read.
pub struct Set {
    /// Each conversation's turns, in order.
    pub conversations: Vec<Vec<Turn>>,
    /// The questions.
    pub questions: Vec<Question>,
    /// Whether its categories are LoCoMo's (named by [`category_name`]).
    pub locomo: bool,
}

/// A category's name: LoCoMo's, or its number.
pub fn category_name(set: &Set, c: u32) -> String {
    if !set.locomo {
        return format!("category {c}");
    }
    match c {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => "other",
    }
    .to_owned()
}

/// Read a set in LoCoMo's format.
pub fn load(path: &Path) -> Result<Set, String> {
    let raw = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: Value = serde_json::from_slice(&raw).map_err(|e| format!("{}: {e}", path.display()))?;
    let list = v.as_array().ok_or("the set is not a JSON list of conversations")?;
    let locomo = list.iter().all(|c| c.get("conversation").is_some());
    let mut set = Set { conversations: Vec::new(), questions: Vec::new(), locomo };
    for (i, conv) in list.iter().enumerate() {
        let c = conv.get("conversation").unwrap_or(conv);
        let mut sessions: Vec<(u32, &Vec<Value>)> = c
            .as_object()
            .ok_or("a conversation has no `conversation` object")?
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("session_")?.parse().ok()?, v.as_array()?)))
            .collect();
        sessions.sort_by_key(|(n, _)| *n);
        let turns = sessions
            .iter()
            .flat_map(|(n, turns)| {
                let started = c[format!("session_{n}_date_time")].as_str().and_then(session_time);
                turns.iter().enumerate().map(move |(k, t)| (started, k, t))
            })
            .filter_map(|(started, k, t)| {
                let s = |k: &str| t[k].as_str().map(str::to_owned);
                let text = s("text").or_else(|| s("clean_text"))?;
                let own = t["date_time"].as_str().and_then(turn_time);
                let at = own.or(started.map(|s| s + chrono::Duration::seconds(10 * k as i64)));
                let at = at.map(|a| a.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
                Some(Turn { dia: s("dia_id")?, text: format!("{}: {text}", s("speaker")?), at })
            })
            .collect();
        set.conversations.push(turns);
        for qa in conv["qa"].as_array().into_iter().flatten() {
            let evidence: Vec<String> = qa["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e.as_str().map(str::to_owned))
                .collect();
            let (Some(text), Some(category)) = (qa["question"].as_str(), qa["category"].as_u64()) else {
                continue;
            };
            if evidence.is_empty() {
                continue;
            }
            set.questions.push(Question {
                conversation: i,
                text: text.to_owned(),
                category: category as u32,
                evidence,
            });
        }
    }
    Ok(set)
}

/// LoCoMo's session time: "1:56 pm on 8 May, 2023".
fn session_time(s: &str) -> Option<chrono::NaiveDateTime> {
    chrono::NaiveDateTime::parse_from_str(&s.to_uppercase(), "%I:%M %p ON %d %B, %Y").ok()
}

/// REALTALK's message time: "29.12.2023, 22:42:04".
fn turn_time(s: &str) -> Option<chrono::NaiveDateTime> {
    chrono::NaiveDateTime::parse_from_str(s, "%d.%m.%Y, %H:%M:%S").ok()
}

/// A conversation's project.
pub fn project(i: usize) -> String {
    format!("conv-{i}")
}

/// Write the set into `store` (a project per conversation) and index it by meaning;
/// per conversation, each stored id's turn id.
pub fn seed(store: &Store, set: &Set) -> Vec<HashMap<i64, String>> {
    let registry = Registry::new(store);
    let mut ids = Vec::new();
    for (i, turns) in set.conversations.iter().enumerate() {
        registry
            .create(NewProject { name: format!("Conv {i}"), slug: Some(project(i)), ..NewProject::default() })
            .unwrap();
        let batch: Vec<NewEntry> = turns
            .iter()
            .map(|t| NewEntry { kind: "note".into(), content: t.text.clone(), ..NewEntry::default() })
            .collect();
        remember_batch(store, &project(i), &batch, None).unwrap();
        let stored: Vec<i64> = store
            .read(|c| {
                let mut s = c.prepare(
                    "SELECT m.id FROM memory m JOIN projects p ON p.id = m.project_id WHERE p.slug = ?1 ORDER BY m.id",
                )?;
                let rows = s.query_map([project(i)], |r| r.get(0))?;
                Ok(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
            })
            .unwrap();
        assert_eq!(stored.len(), turns.len(), "every turn of conversation {i} stored");
        // Each turn dated when it was said, as a captured session's entries are.
        store
            .write(|tx| {
                for (id, t) in stored.iter().zip(turns) {
                    if let Some(at) = &t.at {
                        tx.execute(
                            "UPDATE memory SET created_at = ?1 WHERE id = ?2",
                            rusqlite::params![at, id],
                        )?;
                    }
                }
                Ok(())
            })
            .unwrap();
        ids.push(stored.into_iter().zip(turns).map(|(id, t)| (id, t.dia.clone())).collect());
    }
    while mooring_core::search::semantic::index_pending(store, None).map(|n| n > 0).unwrap_or(false) {}
    ids
}

/// Scores per category (and `1-4 all`: LoCoMo's categories with answers in the text,
/// or every question of another set) of a
/// ranking: `rank(question)` gives the turn ids of its first ten.
pub fn score(set: &Set, mut rank: impl FnMut(&Question) -> Vec<String>) -> BTreeMap<String, Scores> {
    let mut groups: BTreeMap<String, Scores> = BTreeMap::new();
    for q in &set.questions {
        let found = rank(q);
        let at = found.iter().position(|d| q.evidence.contains(d));
        let mut keys = vec![format!("{} {}", q.category, category_name(set, q.category))];
        if !set.locomo || (1..=4).contains(&q.category) {
            keys.push("1-4 all".to_owned());
        }
        for key in keys {
            groups.entry(key).or_default().add(at);
        }
    }
    groups.into_iter().map(|(k, s)| (k, s.finish())).collect()
}

/// A mode's ranking of a question, as turn ids.
pub fn ranked(
    store: &dyn MemoryBackend,
    ids: &[HashMap<i64, String>],
    q: &Question,
    mode: Mode,
) -> Vec<String> {
    let slug = project(q.conversation);
    let r = Request { query: &q.text, project: Some(&slug), kind: None, limit: 10, mode };
    match mooring_core::search::find(store, &r) {
        Ok(found) => {
            found.hits.iter().filter_map(|h| ids[q.conversation].get(&h.entry.id).cloned()).collect()
        }
        Err(_) => Vec::new(),
    }
}

/// Plain Okapi BM25 (k1 1.2, b 0.75) over each conversation's turns: lower-cased runs of
/// letters and digits, no stemming, no stop words.
pub struct Bm25 {
    docs: Vec<Vec<Doc>>,
    df: Vec<HashMap<String, f64>>,
    avg: Vec<f64>,
}

/// A turn's id, its terms' counts and its length.
type Doc = (String, HashMap<String, f64>, f64);

fn tokens(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

impl Bm25 {
    /// Index each conversation.
    pub fn new(set: &Set) -> Self {
        let mut b = Bm25 { docs: Vec::new(), df: Vec::new(), avg: Vec::new() };
        for turns in &set.conversations {
            let mut df: HashMap<String, f64> = HashMap::new();
            let mut docs = Vec::new();
            for t in turns {
                let toks = tokens(&t.text);
                let mut tf: HashMap<String, f64> = HashMap::new();
                for w in &toks {
                    *tf.entry(w.clone()).or_default() += 1.0;
                }
                for w in tf.keys() {
                    *df.entry(w.clone()).or_default() += 1.0;
                }
                docs.push((t.dia.clone(), tf, toks.len() as f64));
            }
            b.avg.push(docs.iter().map(|d| d.2).sum::<f64>() / docs.len().max(1) as f64);
            b.docs.push(docs);
            b.df.push(df);
        }
        b
    }

    /// The first ten turn ids for a question.
    pub fn rank(&self, q: &Question) -> Vec<String> {
        let (docs, df, avg) =
            (&self.docs[q.conversation], &self.df[q.conversation], self.avg[q.conversation]);
        let n = docs.len() as f64;
        let words = tokens(&q.text);
        let mut scored: Vec<(f64, usize)> = docs
            .iter()
            .enumerate()
            .map(|(i, (_, tf, len))| {
                let s: f64 = words
                    .iter()
                    .filter_map(|w| {
                        let f = *tf.get(w)?;
                        let d = df[w];
                        let idf = (1.0 + (n - d + 0.5) / (d + 0.5)).ln();
                        Some(idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len / avg)))
                    })
                    .sum();
                (s, i)
            })
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(10).map(|(_, i)| docs[i].0.clone()).collect()
    }
}

/// The sentence encoder's nearest turns of each question's conversation (every turn
/// encoded first: `mooring_core::search::rerank::index_pending`), scored by cosine:
/// what a first stage by the encoder would hand the fusion.
pub struct EncoderNearest {
    vectors: Vec<Vec<(i64, Vec<f32>)>>,
    encoder: std::sync::Arc<mooring_embed::Encoder>,
}

impl EncoderNearest {
    /// Read every turn's vector.
    pub fn new(store: &Store, ids: &[HashMap<i64, String>]) -> Result<Self, String> {
        let encoder = mooring_core::search::rerank::encoder()?;
        let model = mooring_core::search::rerank::MODEL;
        let mut vectors = Vec::new();
        for (i, conv) in ids.iter().enumerate() {
            let slug = project(i);
            let keys: Vec<(&str, i64)> = conv.keys().map(|id| (slug.as_str(), *id)).collect();
            let found = store.rerank_vectors(model, &keys).map_err(|e| e.to_string())?;
            let mut v = Vec::new();
            for ((_, id), bytes) in keys.iter().zip(found) {
                let q = bytes
                    .and_then(|b| mooring_embed::Quantized::from_bytes(&b, encoder.dim()))
                    .ok_or(format!("turn {id} not encoded"))?;
                v.push((*id, q.values.iter().map(|x| f32::from(*x) * q.scale).collect()));
            }
            vectors.push(v);
        }
        Ok(Self { vectors, encoder })
    }

    /// The nearest `limit` turns of `q`'s conversation, as `(id, cosine)`.
    pub fn nearest(&self, q: &Question, limit: usize) -> Vec<(i64, f64)> {
        let query = self.encoder.embed(&q.text);
        let mut scored: Vec<(i64, f64)> = self.vectors[q.conversation]
            .iter()
            .map(|(id, v)| (*id, v.iter().zip(&query).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum()))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(limit);
        scored
    }
}

/// Hybrid with the encoder's nearest as the meaning half: the same fusion.
pub fn hybrid_with(
    store: &Store,
    near: &EncoderNearest,
    ids: &[HashMap<i64, String>],
    q: &Question,
) -> Vec<String> {
    use mooring_core::search::{content_words, fuse_halves, fusion::CANDIDATES, keyword_halves, words};
    use mooring_core::store::backend::RowHit;
    let slug = project(q.conversation);
    let (any, all) =
        keyword_halves(store, &words(&q.text), &content_words(&q.text), Some(&slug), None).unwrap();
    let nearest: Vec<RowHit> = store
        .read(|c| {
            let found = near.nearest(q, CANDIDATES as usize);
            let ids: Vec<i64> = found.iter().map(|(id, _)| *id).collect();
            let mut rows = mooring_core::store::memory::get_many_with_slug(c, &ids)?;
            let mut out = Vec::new();
            for (id, cosine) in found {
                if let Some((row, slug)) = rows.remove(&id) {
                    out.push(RowHit { row, slug, snippet: String::new(), score: cosine });
                }
            }
            Ok(out)
        })
        .unwrap();
    let fused = fuse_halves(store, &q.text, &any, &all, &nearest).unwrap();
    fused.iter().take(10).filter_map(|h| ids[q.conversation].get(&h.row.id).cloned()).collect()
}
