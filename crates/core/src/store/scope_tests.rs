//! A project told by its rows (`memory::Scope` without a token) finds, counts and ranks
//! exactly what its scope token does.

use rusqlite::params;

use super::index::fts_terms;
use super::index::keyword::{RANKED_BOUNDED, search_any};
use super::index::sample::{COUNTED_BOUNDED, Scope, idf_in_scope, sample_bound};
use super::{Cached as _, Store};
use crate::store::backend::Word;

const SUBJECTS: &[&str] = &["ledger", "billing", "search", "queue", "cache", "login", "exports"];
const CHOICES: &[&str] = &["postgres", "mysql", "redis", "kafka", "tantivy", "sqlite"];

/// Project `a` (id 1) with 2,400 entries and project `b` (id 2) with every eighth row
/// between them (300): `a` holds most of the newest entries, `b` few.
fn two_projects() -> Store {
    let store = Store::open_in_memory().unwrap();
    store
        .write(|tx| {
            for slug in ["a", "b"] {
                tx.exec(
                    "INSERT INTO projects (slug, name, created_at, updated_at) VALUES (?1, ?1, 't', 't')",
                    [slug],
                )?;
            }
            for i in 0..2_700usize {
                let project = if i % 9 == 8 { 2 } else { 1 };
                let kind = if i % 3 == 0 { "note" } else { "decision" };
                let (s, c) = (SUBJECTS[i % SUBJECTS.len()], CHOICES[(i / 7) % CHOICES.len()]);
                // A rare word now and then, and a title for some.
                let rare = if i % 97 == 0 { " raft" } else { "" };
                let title = if i % 5 == 0 { s } else { "" };
                tx.exec(
                    "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?4, 't', 't')",
                    params![project, kind, title, format!("The {s} moves to {c} in week {}{rare}", i % 52)],
                )?;
            }
            Ok(())
        })
        .unwrap();
    store
}

fn words(list: &[&str]) -> Vec<Word> {
    list.iter().map(|w| Word { text: (*w).to_owned(), prefix: false }).collect()
}

#[test]
fn a_project_holding_most_new_entries_is_told_by_its_rows_and_a_small_share_by_its_token() {
    let store = two_projects();
    store
        .read(|c| {
            let a = Scope::of(c, 1, "scope:p1", sample_bound(c, Some(1))?)?;
            assert_eq!(a.token, None, "2,400 of 2,700 entries");
            assert!(a.bound > 0);
            let b = Scope::of(c, 2, "scope:p2", sample_bound(c, Some(2))?)?;
            assert_eq!(b.token, Some("scope:p2"), "300 entries: fewer than a sample");
            Ok(())
        })
        .unwrap();
}

#[test]
fn told_by_rows_or_by_token_a_bounded_search_counts_and_ranks_alike() {
    let store = two_projects();
    let queries: &[&[&str]] = &[
        &["ledger", "moves", "postgres", "week", "25"],
        &["raft", "queue"],
        &["billing", "kafka", "exports", "login", "3"],
        &["nothing", "raft"],
    ];
    store
        .read(|c| {
            let bound = sample_bound(c, Some(1))?;
            let token = Scope { id: 1, token: Some("scope:p1"), bound };
            let rows = Scope { id: 1, token: None, bound };
            for q in queries {
                let words = words(q);
                let by_token = idf_in_scope(c, Some(token), &words, false, Some(COUNTED_BOUNDED))?;
                let by_rows = idf_in_scope(c, Some(rows), &words, false, Some(COUNTED_BOUNDED))?;
                assert_eq!(by_token, by_rows, "{q:?}");
                let idf: Vec<f64> = by_rows.iter().map(|w| w.idf).collect();
                let terms = format!("({})", fts_terms(&words, true));
                let mut with_scope = vec![0.0];
                with_scope.extend(&idf);
                for kind in [Some("decision"), None] {
                    let ranked =
                        |fts: &str, joined, weights: &[f64]| -> crate::error::Result<Vec<(i64, f64)>> {
                            let hits =
                                search_any(c, fts, None, kind, joined, 12, weights, 1, RANKED_BOUNDED)?;
                            Ok(hits.iter().map(|h| (h.row.id, h.rank)).collect())
                        };
                    let a = ranked(&format!("scope:p1 AND {terms}"), None, &with_scope)?;
                    let b = ranked(&terms, Some(1), &idf)?;
                    assert_eq!(a, b, "{q:?} {kind:?}");
                    assert!(q[0] == "nothing" || !a.is_empty(), "{q:?}: something to compare");
                    // Only project a's entries, whichever way.
                    for (id, _) in &b {
                        let project: i64 =
                            c.row("SELECT project_id FROM memory WHERE id = ?1", [id], |r| r.get(0))?;
                        assert_eq!(project, 1);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}
