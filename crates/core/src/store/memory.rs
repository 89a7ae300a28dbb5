//! Queries on the `memory` table; its FTS index follows by trigger.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::store::backend::Word;
use crate::store::rows::{MemoryRow, NewMemoryRow};

const COLUMNS: &str = "m.id, m.project_id, m.kind, m.title, m.content, m.tags, m.status, m.data, \
                       COALESCE(m.written_by, (SELECT s.client_name FROM sessions s WHERE s.id = m.session_id)), \
                       m.created_at, m.updated_at, m.forgotten_at, m.author";

fn from_row(r: &Row<'_>) -> rusqlite::Result<MemoryRow> {
    Ok(MemoryRow {
        id: r.get(0)?,
        project_id: r.get(1)?,
        kind: r.get(2)?,
        title: r.get(3)?,
        content: r.get(4)?,
        tags: r.get(5)?,
        status: r.get(6)?,
        data: r.get(7)?,
        written_by: r.get(8)?,
        created_at: r.get(9)?,
        updated_at: r.get(10)?,
        forgotten_at: r.get(11)?,
        author: r.get(12)?,
    })
}

/// Insert `m` into project `project_id`, written by `session_id` at `now`; returns the id.
pub fn insert(
    conn: &Connection,
    project_id: i64,
    m: &NewMemoryRow<'_>,
    session_id: Option<&str>,
    now: &str,
) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO memory (project_id, kind, title, content, tags, status, data, session_id, created_at, updated_at,
                             author, written_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11)",
    )?;
    stmt.execute(params![
        project_id,
        &*m.kind,
        &*m.title,
        &*m.content,
        &*m.tags,
        m.status.as_deref(),
        m.data.as_deref(),
        session_id,
        now,
        m.author.map(|a| a.as_str()),
        m.written_by.as_deref(),
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Insert a row copied from another store as it was there (author, times, forgotten or
/// not); returns the new id.
pub fn insert_copy(conn: &Connection, project_id: i64, m: &MemoryRow) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO memory (project_id, kind, title, content, tags, status, data, written_by,
                             created_at, updated_at, forgotten_at, author)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    stmt.execute(params![
        project_id,
        m.kind,
        m.title,
        m.content,
        m.tags,
        m.status,
        m.data,
        m.written_by,
        m.created_at,
        m.updated_at,
        m.forgotten_at,
        m.author
    ])?;
    Ok(conn.last_insert_rowid())
}

/// One row of a project, forgotten or not.
pub fn get(conn: &Connection, project_id: i64, id: i64) -> Result<Option<MemoryRow>> {
    let sql = format!("SELECT {COLUMNS} FROM memory m WHERE m.project_id = ?1 AND m.id = ?2");
    Ok(conn.row(&sql, params![project_id, id], from_row).optional()?)
}

/// The rows of `ids` with their projects' slugs, by id (ids not found are left out): one
/// statement for all, where one per id cost a nearest-neighbour half of 50 hits 0.7 M
/// instructions.
pub fn get_many_with_slug(
    conn: &Connection,
    ids: &[i64],
) -> Result<std::collections::HashMap<i64, (MemoryRow, String)>> {
    let sql = format!(
        "SELECT {COLUMNS}, p.slug FROM memory m JOIN projects p ON p.id = m.project_id
         WHERE m.id IN (SELECT value FROM json_each(?1))"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([id_list(ids)], |r| Ok((from_row(r)?, r.get::<_, String>(13)?)))?;
    let mut out = std::collections::HashMap::with_capacity(ids.len());
    for row in rows {
        let (row, slug) = row?;
        out.insert(row.id, (row, slug));
    }
    Ok(out)
}

/// `ids` as the JSON array `json_each(?)` reads: a list of any length in one parameter.
fn id_list(ids: &[i64]) -> String {
    let items: Vec<String> = ids.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(","))
}

/// Which rows to list.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    /// Only this kind.
    pub kind: Option<&'a str>,
    /// Only this status.
    pub status: Option<&'a str>,
    /// Only ids below this (the page before).
    pub before: Option<i64>,
    /// At most this many.
    pub limit: u32,
}

/// A project's rows, newest first, forgotten ones left out.
pub fn list(conn: &Connection, project_id: i64, f: &Filter<'_>) -> Result<Vec<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.forgotten_at IS NULL
           AND (?2 IS NULL OR m.kind = ?2) AND (?3 IS NULL OR m.status = ?3) AND (?4 IS NULL OR m.id < ?4)
         ORDER BY m.id DESC LIMIT ?5"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![project_id, f.kind, f.status, f.before, f.limit], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many live rows of a kind (and status) are superseded, or are not.
pub fn count_live(
    conn: &Connection,
    project_id: i64,
    kind: &str,
    status: Option<&str>,
    superseded: bool,
) -> Result<u64> {
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?2 AND m.forgotten_at IS NULL AND (?3 IS NULL OR m.status = ?3)
           AND (json_extract(m.data, '$.superseded_by') IS NOT NULL) = ?4",
    )?;
    Ok(stmt.query_row(params![project_id, kind, status, superseded], |r| r.get::<_, i64>(0))? as u64)
}

/// The live row of a kind nothing superseded that changed last: by the last turn its
/// record names (a captured session's `last_at`), else by when it was written.
pub fn newest_changed(conn: &Connection, project_id: i64, kind: &str) -> Result<Option<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?2 AND m.forgotten_at IS NULL
           AND json_extract(m.data, '$.superseded_by') IS NULL
         ORDER BY json_extract(m.data, '$.last_at') DESC NULLS LAST, m.updated_at DESC, m.id DESC LIMIT 1"
    );
    Ok(conn.row(&sql, params![project_id, kind], from_row).optional()?)
}

/// The newest visible row of a kind for a project.
pub fn latest(conn: &Connection, project_id: i64, kind: &str) -> Result<Option<MemoryRow>> {
    Ok(list(conn, project_id, &Filter { kind: Some(kind), limit: 1, ..Filter::default() })?
        .into_iter()
        .next())
}

/// Mark a blocker resolved, keeping the resolution in `data`.
pub fn resolve(conn: &Connection, id: i64, data: &str, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET status = 'resolved', data = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, data, now],
    )?;
    Ok(())
}

/// Record in entry `id`'s data which entry supersedes it (`None`: none any more). Only
/// `data` changes, so neither vector is redone.
pub fn set_superseded(conn: &Connection, id: i64, by: Option<i64>, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET data = CASE WHEN ?2 IS NULL
             THEN json_remove(coalesce(data, '{}'), '$.superseded_by', '$.superseded_at')
             ELSE json_set(coalesce(data, '{}'), '$.superseded_by', ?2, '$.superseded_at', ?3) END,
         updated_at = ?3 WHERE id = ?1",
        params![id, by, now],
    )?;
    Ok(())
}

/// A project's captured-session row for `key`, forgotten or not.
pub fn session_by_key(conn: &Connection, project_id: i64, key: &str) -> Result<Option<MemoryRow>> {
    by_key(conn, project_id, "session", key)
}

/// A project's row of `kind` whose data names `key` (a captured session, a week's
/// digest), forgotten or not.
pub fn by_key(conn: &Connection, project_id: i64, kind: &str, key: &str) -> Result<Option<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?3 AND json_extract(m.data, '$.key') = ?2
         ORDER BY m.id DESC LIMIT 1"
    );
    Ok(conn.prepare_cached(&sql)?.query_row(params![project_id, key, kind], from_row).optional()?)
}

/// Mark captured session `id` folded into digest `by` (superseded by it, and `folded_at`,
/// which bringing it back leaves, so it is not folded again) when it is live, not
/// superseded and never folded; whether it was.
pub fn fold_into(conn: &Connection, project_id: i64, id: i64, by: i64, now: &str) -> Result<bool> {
    let changed = conn.exec(
        "UPDATE memory SET data = json_set(coalesce(data, '{}'), '$.superseded_by', ?3,
                                           '$.superseded_at', ?4, '$.folded_at', ?4)
         WHERE id = ?1 AND project_id = ?2 AND kind = 'session' AND forgotten_at IS NULL
           AND json_extract(data, '$.superseded_by') IS NULL AND json_extract(data, '$.folded_at') IS NULL",
        params![id, project_id, by, now],
    )?;
    Ok(changed > 0)
}

/// Replace a row's text and data in place (a captured session brought up to date).
pub fn replace(conn: &Connection, id: i64, m: &NewMemoryRow<'_>, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET title = ?2, content = ?3, tags = ?4, data = ?5, updated_at = ?6 WHERE id = ?1",
        params![id, &*m.title, &*m.content, &*m.tags, m.data.as_deref(), now],
    )?;
    Ok(())
}

/// Hide a row from lists, search and the preamble.
pub fn forget(conn: &Connection, id: i64, now: &str) -> Result<()> {
    conn.exec("UPDATE memory SET forgotten_at = ?2, updated_at = ?2 WHERE id = ?1", params![id, now])?;
    Ok(())
}

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
    let weights = super::index::rank::phrase_weights(weights);
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
    let rows =
        stmt.query_map(&*bound, |r| Ok((from_row(r)?, r.get::<_, String>(13)?, r.get::<_, f64>(14)?)))?;
    let rows = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    let Some(words) = words.filter(|_| !rows.is_empty()) else {
        return Ok(rows
            .into_iter()
            .map(|(row, slug, rank)| Hit { snippet: String::new(), row, slug, rank })
            .collect());
    };
    let tokenizer = super::index::snippet::Tokenizer::open(conn)?;
    let terms = tokenizer.terms(words);
    Ok(rows
        .into_iter()
        .map(|(row, slug, rank)| Hit { snippet: tokenizer.passage(&row.content, &terms), row, slug, rank })
        .collect())
}

/// The id of the entry written just before each of `ids` in its project, in their order.
pub fn previous_in_project(conn: &Connection, ids: &[i64]) -> Result<Vec<Option<i64>>> {
    // One statement for all (a search asks for up to a hundred).
    let mut before = conn.prepare_cached(
        "SELECT m.id, (SELECT p.id FROM memory p WHERE p.project_id = m.project_id AND p.id < m.id
                       ORDER BY p.id DESC LIMIT 1)
         FROM memory m WHERE m.id IN (SELECT value FROM json_each(?1))",
    )?;
    let mut found = std::collections::HashMap::with_capacity(ids.len());
    let mut rows = before.query([id_list(ids)])?;
    while let Some(r) = rows.next()? {
        found.insert(r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?);
    }
    Ok(ids.iter().map(|id| found.get(id).copied().flatten()).collect())
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
