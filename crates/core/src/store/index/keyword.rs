//! Queries on the keyword index (`memory_fts`): search by words, ranked by
//! `mooring_rank` over the newest matches, passages cut around the words, and the
//! index's tidying (its segments merged a bounded step at a time).

use rusqlite::Connection;

use crate::error::Result;
use crate::store::Cached as _;
use crate::store::backend::Word;
use crate::store::memory::{COLUMN_COUNT, COLUMNS, from_row};
use crate::store::rows::MemoryRow;

/// A search hit.
#[derive(Debug, Clone)]
pub struct Hit {
    /// The row.
    pub row: MemoryRow,
    /// Its project's slug.
    pub slug: String,
    /// Matching text with the terms in [brackets].
    pub snippet: String,
    /// Rank from `mooring_rank`, BM25 without IDF (lower is better).
    pub rank: f64,
}

/// Full-text search with an FTS5 query already made safe; `scope` limits it to one
/// project (`p<ID>`).
/// `words` are the query's, for marking in each hit's passage.
pub fn search(
    conn: &Connection,
    fts: &str,
    words: &[Word],
    kind: Option<&str>,
    limit: u32,
) -> Result<Vec<Hit>> {
    search_newest(conn, fts, Some(words), (kind, None), limit, RANKED_AT_MOST, (RANK, None))
}

/// Search where a match needs any of the words, not all: ranked by BM25 with each query
/// phrase weighted by `weights` (its inverse document frequency in the scope searched,
/// see `sample::idf_in_scope`), since a rare word must then count for more than a common one.
/// Entries holding fewer than `least` of the weighted phrases rank 0, after every hit.
/// Without `words`, hits come without passages (a write's check reads none).
/// With `joined`, only that project's entries are hits (told by their rows: see
/// `sample::Scope`).
#[allow(clippy::too_many_arguments)]
pub fn search_any(
    conn: &Connection,
    fts: &str,
    words: Option<&[Word]>,
    kind: Option<&str>,
    joined: Option<i64>,
    limit: u32,
    weights: &[f64],
    least: u32,
    walk: u32,
) -> Result<Vec<Hit>> {
    // The weights and `least` are bound (?6, ?7): one statement for every search.
    let weights = super::rank::phrase_weights(weights);
    let rank = "mooring_rank(memory_fts, 5.0, 1.0, 3.0, 0.0, ?6, ?7)";
    search_newest(conn, fts, words, (kind, joined), limit, walk, (rank, Some((&weights, least))))
}

/// Pages of the keyword index one tidying step rewrites at most (about 2 MB): writes in
/// many small batches leave many segments, and every search seeks in each (at 100,000
/// entries written a thousand at a time, one merged segment halved an any-word search,
/// 20 ms to 10 ms).
const MERGE_PAGES: i64 = 500;

/// An index of at most this many pages is merged whole at each step (it is one step's
/// work): a small project written fast, as a burst of writes between two steps, then
/// searches one segment rather than one per level.
const MERGED_WHOLE_UP_TO: i64 = 200;

/// One bounded step of merging the keyword index's segments. A small index is merged
/// into one segment; a bigger one level by level: any level holding two segments or
/// more is merged into the next (FTS5's `merge` with `usermerge` 2, set by migration
/// 15), so a search seeks in about one segment per level and a segment is rewritten
/// only when one of its own size joins it. Merging a big index into one segment
/// rewrote all of it after every write: with a write a second at 100,000 entries, 12 ms
/// of the hub's upkeep per write and a check's p99 of 121 ms while a merge was half done.
pub fn merge_index(conn: &Connection) -> Result<()> {
    // Counted only up to the bound: the index's size costs nothing to learn.
    let pages: i64 = conn.row(
        "SELECT count(*) FROM (SELECT 1 FROM memory_fts_data LIMIT ?1)",
        [MERGED_WHOLE_UP_TO + 1],
        |r| r.get(0),
    )?;
    let step = if pages <= MERGED_WHOLE_UP_TO { -MERGE_PAGES } else { MERGE_PAGES };
    conn.exec("INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ?1)", [step])?;
    Ok(())
}

/// Matches an any-word search ranks at most: the newest this many (the union of a
/// question's words is most of a big project; ranking 10,000 of them cost 10 ms, and
/// 1,000 rather than 2,000 took natural questions at 100,000 entries from 8.3 to 6.1 ms).
pub const RANKED_ANY_AT_MOST: u32 = 1_000;

/// Matches a bounded any-word search (`SearchQuery::rarest`) ranks at most.
pub const RANKED_BOUNDED: u32 = 20;

/// Matches ranked at most per search: the newest this many. Ranking scores every
/// candidate, so a word in most of a million entries cost 0.1 s across all projects; the
/// newest ten thousand hold what a session looks for, and more words narrow it.
pub const RANKED_AT_MOST: u32 = 10_000;

/// The ranking: `mooring_rank` (see `store::index::rank`) with the columns' weights: title 5,
/// content 1, tags 3, scope 0 (a filter, never a reason to rank).
const RANK: &str = "mooring_rank(memory_fts, 5.0, 1.0, 3.0, 0.0)";

fn search_newest(
    conn: &Connection,
    fts: &str,
    words: Option<&[Word]>,
    (kind, joined): (Option<&str>, Option<i64>),
    limit: u32,
    newest: u32,
    (rank, weighed): (&str, Option<(&[u8], u32)>),
) -> Result<Vec<Hit>> {
    // One walk from the newest match backwards ranks each match as it passes and stops
    // after `newest` of them; then the few that made the cut are joined and read (with
    // those in the ranked query SQLite read them for every match before sorting), and
    // their passages are cut here (see `store::index::snippet`). Finding the `newest`-th match
    // first (a count forwards, a walk backwards) and ranking from there walked the
    // matches three times: 1.2 ms of an any-word search's 4.3 at 100,000 entries. Equal
    // ranks go to the older entry, as they did when the walk went forwards.
    // Each match is joined to its row only when a kind or a project (see `Scope`) filters.
    let kind_join =
        if kind.is_some() || joined.is_some() { "JOIN memory m ON m.id = memory_fts.rowid" } else { "" };
    let kind_filter = format!(
        "{} AND {}",
        if kind.is_some() { "m.kind = ?2" } else { "?2 IS NULL" },
        if joined.is_some() { "m.project_id = ?5" } else { "?5 IS NULL" }
    );
    let sql = format!(
        "SELECT {COLUMNS}, p.slug, top.rank
         FROM (SELECT id, rank FROM
                 (SELECT memory_fts.rowid AS id, {rank} AS rank FROM memory_fts {kind_join}
                  WHERE memory_fts MATCH ?1 AND {kind_filter}
                  ORDER BY memory_fts.rowid DESC LIMIT ?4)
               ORDER BY rank, id LIMIT ?3) AS top
         JOIN memory m ON m.id = top.id JOIN projects p ON p.id = m.project_id
         ORDER BY top.rank, top.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut bound: Vec<&dyn rusqlite::ToSql> = vec![&fts, &kind, &limit, &newest, &joined];
    if let Some((weights, least)) = &weighed {
        bound.extend([weights as &dyn rusqlite::ToSql, least]);
    }
    let rows = stmt.query_map(&*bound, |r| {
        Ok((from_row(r)?, r.get::<_, String>(COLUMN_COUNT)?, r.get::<_, f64>(COLUMN_COUNT + 1)?))
    })?;
    let rows = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    let Some(words) = words.filter(|_| !rows.is_empty()) else {
        return Ok(rows
            .into_iter()
            .map(|(row, slug, rank)| Hit { snippet: String::new(), row, slug, rank })
            .collect());
    };
    let tokenizer = super::snippet::Tokenizer::open(conn)?;
    let terms = tokenizer.terms(words);
    Ok(rows
        .into_iter()
        .map(|(row, slug, rank)| Hit { snippet: tokenizer.passage(&row.content, &terms), row, slug, rank })
        .collect())
}

/// Merge the full-text index into one segment (a maintenance pass).
pub fn optimize_fts(conn: &Connection) -> Result<()> {
    conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')", [])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn tidying_merges_a_small_index_whole_and_sets_level_merging_for_big_ones() {
        let store = Store::open_in_memory().unwrap();
        let usermerge: i64 = store
            .read(|c| {
                Ok(c.query_row("SELECT v FROM memory_fts_config WHERE k = 'usermerge'", [], |r| r.get(0))?)
            })
            .unwrap();
        assert_eq!(usermerge, 2, "a big index merges any level of two segments");
        // Each write its own transaction: a segment each (FTS5 merges some on its own).
        store
            .write(|tx| {
                tx.exec(
                    "INSERT INTO projects (slug, name, created_at, updated_at) VALUES ('a', 'A', 't', 't')",
                    [],
                )?;
                Ok(())
            })
            .unwrap();
        for i in 0..5 {
            store
                .write(|tx| {
                    tx.exec(
                        "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                         VALUES (1, 'note', ?1, 'raft leases renew', 't', 't')",
                        [format!("note {i}")],
                    )?;
                    Ok(())
                })
                .unwrap();
        }
        // FTS5 numbers a segment's pages from `segment id << 37` (its rows 1 and 10 hold
        // the averages and the structure).
        let segments = || -> i64 {
            let sql = "SELECT count(DISTINCT id >> 37) FROM memory_fts_data WHERE id >> 37 > 0";
            store.read(|c| Ok(c.query_row(sql, [], |r| r.get(0))?)).unwrap()
        };
        let before = segments();
        assert!(before > 1, "{before}");
        store.write(|tx| merge_index(tx)).unwrap();
        assert_eq!(segments(), 1, "a small index is merged into one segment (it had {before})");
    }

    #[test]
    fn only_the_newest_matches_are_ranked_and_a_kind_counts_its_own() {
        let store = Store::open_in_memory().unwrap();
        store
            .write(|tx| {
                tx.exec(
                    "INSERT INTO projects (slug, name, created_at, updated_at) VALUES ('a', 'A', 't', 't')",
                    [],
                )?;
                // Oldest first: a decision with the word in its title (the best match), then
                // notes with it once in a long body, then a newer decision like the notes.
                let rows = [("decision", "raft")]
                    .into_iter()
                    .chain(std::iter::repeat_n(("note", ""), 4))
                    .chain([("decision", "")]);
                for (kind, title) in rows {
                    tx.exec(
                        "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                         VALUES (1, ?1, ?2, 'raft among a good many other words here', 't', 't')",
                        rusqlite::params![kind, title],
                    )?;
                }
                Ok(())
            })
            .unwrap();
        let ids = |kind: Option<&str>, newest: u32| -> Vec<i64> {
            store
                .read(|c| search_newest(c, "raft", None, (kind, None), 10, newest, (RANK, None)))
                .unwrap()
                .iter()
                .map(|h| h.row.id)
                .collect()
        };
        assert_eq!(ids(None, 100)[0], 1, "the title match ranks first when it is among the ranked");
        assert_eq!(ids(None, 100).len(), 6);
        let newest = ids(None, 3);
        assert_eq!(newest.len(), 3);
        assert!(newest.iter().all(|&id| id >= 4), "only the three newest: {newest:?}");
        // With a kind, the bound counts that kind's matches: both decisions are in.
        let mut decisions = ids(Some("decision"), 2);
        decisions.sort();
        assert_eq!(decisions, [1, 6]);
        assert_eq!(ids(Some("decision"), 1), [6]);
    }

    #[test]
    fn tidying_merges_the_keyword_index_into_one_segment_and_search_still_finds() {
        let store = Store::open_in_memory().unwrap();
        crate::Registry::new(&store)
            .create(crate::NewProject { name: "A".into(), ..Default::default() })
            .unwrap();
        // Each write of its own leaves a segment (FTS5 merges some of them on its own).
        for i in 0..60 {
            let e = crate::memory::NewEntry {
                kind: "note".into(),
                content: format!("entry {i} about raft"),
                ..Default::default()
            };
            crate::memory::remember(&store, "a", &e, None).unwrap();
        }
        let segments = || -> i64 {
            store
                .read(|c| {
                    Ok(c.query_row("SELECT count(DISTINCT segid) FROM memory_fts_idx", [], |r| r.get(0))?)
                })
                .unwrap()
        };
        assert!(segments() > 1, "{} segments", segments());
        for _ in 0..20 {
            store.write(|tx| merge_index(tx)).unwrap();
        }
        assert_eq!(segments(), 1);
        store.write(|tx| merge_index(tx)).unwrap();
        assert_eq!(crate::search::search(&store, "raft", Some("a"), None, 100).unwrap().len(), 60);
    }
}
