//! Hybrid search's fusion: by the halves' scores, not only their ranks, and with an
//! entry's neighbours. Each candidate (the keyword half's best by BM25 over any of the
//! question's words, the meaning half's nearest) scores
//! `KEYWORD · bm25/best bm25 + (1 − KEYWORD) · (cos − lowest)/(highest − lowest)`, plus
//! [`ALL_WORDS`] when it holds every content word and [`IN_SPAN`] when it was written in
//! the span of time the question names; then each candidate adds
//! [`NEIGHBOURS`] times the scores of the candidates written next to it in its project
//! (a turn is often meaningless alone: "Yes, last Tuesday!" answers what the turn before
//! it asked).
//!
//! Measured on conversations nobody here wrote (`bench/src/bin/public_eval.rs`; LoCoMo
//! categories 1–4, R@5 / R@10 / MRR): reciprocal rank fusion 54.3 / 61.1 / 0.414, below
//! its own keyword half (57.2 / 64.7 / 0.439); by scores 59.3 / 68.7 / 0.451; with
//! neighbours 62.4 / 72.5 / 0.461; with the turns dated and the time a question names
//! 65.3 / 74.5 / 0.483, every category at or above its best half. The weights were tuned
//! on LoCoMo and checked on REALTALK (real people's chats), where keyword scores 55.2 /
//! 62.8 / 0.432, reciprocal rank fusion 52.6 / 57.6 / 0.418 and this fusion 57.3 / 65.3 /
//! 0.450; and on our own set of project memory (`bench/natural`, held half): R@1 0.462 →
//! 0.468, R@5 0.738 → 0.745, MRR 0.577 → 0.580.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::search::dates::Span;
use crate::store::backend::RowHit;

/// The keyword half's share of a candidate's score (LoCoMo: 0.8 and 0.7 alike, 0.6 lost
/// a point on temporal questions, 0.5 two overall).
pub const KEYWORD: f64 = 0.7;
/// Added for holding every content word of the question (LoCoMo: 0.3 left temporal
/// questions' R@1 at 42.4 against the keyword half's 44.2; 0.8 takes it to 44.5 and every
/// figure of categories 1–4 up a little; REALTALK R@5 57.4 → 57.3, MRR 0.446 → 0.450).
pub const ALL_WORDS: f64 = 0.8;
/// The share of a neighbour's score a candidate adds, up to the neighbour's own (LoCoMo
/// R@5: 0.35 62.1, 0.5 62.4; REALTALK R@10 65.3 and 64.9).
pub const NEIGHBOURS: f64 = 0.5;
/// Entries are neighbours when written this close together in one project (minutes):
/// the same conversation, not the next day's work.
pub const NEIGHBOURS_WITHIN_MINUTES: i64 = 30;
/// Added for being written in the span of time the question names ("in June", "last
/// week": `search::dates`). LoCoMo with each turn dated when said, R@5 of categories
/// 1–4: 62.4 without, 64.5 at 0.3, 65.1 at 0.5; REALTALK, whose questions rarely name a
/// date, unchanged.
pub const IN_SPAN: f64 = 0.5;
/// Candidates each half hands the fusion.
pub const CANDIDATES: u32 = 50;

/// The halves of one question.
pub struct Halves<'a> {
    /// The keyword half: entries holding any content word, by BM25 with IDF, best first.
    pub any_words: &'a [RowHit],
    /// Entries holding every content word (or, for a question of stop words only, every
    /// word), best first.
    pub all_words: &'a [RowHit],
    /// The meaning half: nearest first, scored by cosine.
    pub nearest: &'a [RowHit],
    /// The span of time the question names, if it names one.
    pub span: Option<Span>,
}

/// Each candidate's (project slug, id) to the id of the entry written just before it in
/// that project (absent when there is none or the backend keeps no order).
pub type Previous = HashMap<(String, i64), i64>;

/// The candidates fused, best first, each scored as the fusion scored it.
pub fn fuse(halves: &Halves<'_>, previous: &Previous) -> Vec<RowHit> {
    // Each candidate once, keyed by project and id, with the keyword half's passage
    // first (it marks the words).
    let mut order: Vec<RowHit> = Vec::new();
    let mut at: HashMap<(String, i64), usize> = HashMap::new();
    let mut score: Vec<f64> = Vec::new();
    let mut add = |hit: &RowHit, s: f64| {
        let key = (hit.slug.clone(), hit.row.id);
        let i = *at.entry(key).or_insert_with(|| {
            order.push(hit.clone());
            score.push(0.0);
            order.len() - 1
        });
        score[i] += s;
    };
    let best = halves.any_words.first().map(|h| h.score).unwrap_or(0.0);
    for h in halves.any_words {
        add(h, if best > 0.0 { KEYWORD * h.score / best } else { 0.0 });
    }
    for h in halves.all_words {
        add(h, ALL_WORDS);
    }
    let highest = halves.nearest.first().map(|h| h.score).unwrap_or(0.0);
    let lowest = halves.nearest.last().map(|h| h.score).unwrap_or(0.0);
    let spread = highest - lowest;
    for h in halves.nearest {
        let share = if spread > 0.0 { (h.score - lowest) / spread } else { 1.0 };
        add(h, (1.0 - KEYWORD) * share);
    }
    if let Some(span) = halves.span {
        for (i, hit) in order.iter().enumerate() {
            if span.holds(&hit.row.created_at) {
                score[i] += IN_SPAN;
            }
        }
    }
    // Neighbours lend each other a share of what they scored alone.
    let by_id: HashMap<(&str, i64), usize> =
        order.iter().enumerate().map(|(i, h)| ((h.slug.as_str(), h.row.id), i)).collect();
    let alone = score.clone();
    for (i, hit) in order.iter().enumerate() {
        let Some(&prev) = previous.get(&(hit.slug.clone(), hit.row.id)) else { continue };
        let Some(&j) = by_id.get(&(hit.slug.as_str(), prev)) else { continue };
        if written_together(&order[j].row.created_at, &hit.row.created_at) {
            // Lifted toward the lender, never past it: entries written together on
            // one subject must not outrank the one that matched (on our own set of
            // project memory, lending without this bound took R@1 from 0.489 to 0.350).
            score[i] = score[i].max((alone[i] + NEIGHBOURS * alone[j]).min(alone[j]));
            score[j] = score[j].max((alone[j] + NEIGHBOURS * alone[i]).min(alone[i]));
        }
    }
    let mut fused: Vec<(f64, f64, usize, RowHit)> =
        order.into_iter().enumerate().map(|(i, h)| (score[i], alone[i], i, h)).collect();
    // A neighbour lifted to its lender's score stays below it; other equal scores keep
    // the halves' order (the keyword half first).
    fused.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
    fused.into_iter().map(|(score, _, _, hit)| RowHit { score, ..hit }).collect()
}

/// Whether two entries' times (RFC 3339) are within [`NEIGHBOURS_WITHIN_MINUTES`].
fn written_together(a: &str, b: &str) -> bool {
    let parse = |s: &str| s.parse::<DateTime<Utc>>().ok();
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) => (a - b).num_minutes().abs() <= NEIGHBOURS_WITHIN_MINUTES,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::rows::MemoryRow;

    fn hit(id: i64, score: f64, minute: u32) -> RowHit {
        RowHit {
            row: MemoryRow {
                id,
                project_id: 1,
                kind: "note".into(),
                title: format!("#{id}"),
                content: String::new(),
                tags: String::new(),
                status: None,
                data: None,
                written_by: None,
                author: None,
                created_at: format!("2026-11-27T10:{minute:02}:00Z"),
                updated_at: String::new(),
                forgotten_at: None,
                links: Default::default(),
                key: None,
            },
            slug: "p".into(),
            snippet: String::new(),
            score,
        }
    }

    fn ids(hits: &[RowHit]) -> Vec<i64> {
        hits.iter().map(|h| h.row.id).collect()
    }

    #[test]
    fn a_strong_keyword_match_beats_a_weak_one_found_by_meaning_too() {
        // By ranks, #2 (second by words, first by meaning) would win; by scores, #1's
        // far stronger match of the words does.
        let any = [hit(1, 10.0, 0), hit(2, 2.0, 10)];
        let near = [hit(2, 0.50, 10), hit(3, 0.49, 20), hit(1, 0.30, 0)];
        let fused =
            fuse(&Halves { any_words: &any, all_words: &[], nearest: &near, span: None }, &Previous::new());
        assert_eq!(ids(&fused), [1, 2, 3]);
    }

    #[test]
    fn holding_every_word_counts() {
        let any = [hit(1, 10.0, 0), hit(2, 9.0, 10)];
        let all = [hit(2, 1.0, 10)];
        let fused =
            fuse(&Halves { any_words: &any, all_words: &all, nearest: &[], span: None }, &Previous::new());
        assert_eq!(ids(&fused), [2, 1]);
    }

    #[test]
    fn a_neighbour_written_together_lends_its_score_and_one_written_apart_does_not() {
        // #5 answers with few of the question's words; #4, the turn before it, asked.
        let any = [hit(4, 10.0, 0), hit(8, 5.0, 40), hit(5, 3.0, 1)];
        let previous: Previous = [(("p".to_owned(), 5), 4)].into_iter().collect();
        let fused = fuse(&Halves { any_words: &any, all_words: &[], nearest: &[], span: None }, &previous);
        // #5: 0.21 + 0.35 × 0.7 = 0.455, above #8's 0.35.
        assert_eq!(ids(&fused), [4, 5, 8]);
        let apart = [hit(4, 10.0, 0), hit(5, 3.0, 59), hit(8, 5.0, 40)];
        let fused = fuse(&Halves { any_words: &apart, all_words: &[], nearest: &[], span: None }, &previous);
        assert_eq!(ids(&fused), [4, 8, 5], "an hour apart, #4 lends #5 nothing");
    }

    #[test]
    fn nothing_scored_keeps_the_halves_order() {
        let near = [hit(3, 0.5, 0), hit(1, 0.5, 0)];
        let fused =
            fuse(&Halves { any_words: &[], all_words: &[], nearest: &near, span: None }, &Previous::new());
        assert_eq!(ids(&fused), [3, 1]);
    }
}
