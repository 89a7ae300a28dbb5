//! `mooring_rank(memory_fts, w0, w1, w2, w3 [, p0, p1, …, least])`: BM25 as an FTS5
//! auxiliary function, with the columns' weights, and each query phrase weighted by the
//! IDF the caller computed in the scope searched (`p…`; 1, no IDF, when not given); a row
//! holding fewer than `least` of the weighted phrases scores 0. The phrases' weights may
//! also come as one blob of little-endian `f64`s (see [`phrase_weights`]), a bound
//! parameter: written into the SQL as numbers, every search was a statement of its own,
//! prepared afresh (a tenth of a write's CPU).
//!
//! FTS5's own `bm25()` computes each query word's IDF by reading that word's whole
//! posting list, across every project. Searching one project for a common word spent 97%
//! of its time there: "leader" in 731,000 of a million entries, 19 ms against 0.5 ms for
//! finding the project's 726 matches. Every hit contains every query word (words are
//! ANDed), so IDF only re-weights words against each other; without it the ranking still
//! weighs term frequency, column (title over tags over content) and length as BM25
//! does. A project's ranking no longer depends on how often other projects use a word.

use std::ffi::{c_int, c_void};
use std::ptr;

use rusqlite::Connection;
use rusqlite::ffi;

use crate::error::{Error, Result};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalization.
const B: f64 = 0.75;
/// Columns weighted at most (the memory index has four).
const MAX_COLUMNS: usize = 16;

/// Register `mooring_rank` on `conn` (auxiliary functions belong to a connection).
pub(in crate::store) fn register(conn: &Connection) -> Result<()> {
    // SAFETY: the API table is the one `conn`'s FTS5 handed out, valid while `conn` is.
    unsafe {
        let Some(api) = fts5_api(conn) else {
            return Err(Error::storage("this SQLite has no FTS5; search needs it"));
        };
        let Some(create) = (*api).xCreateFunction else {
            return Err(Error::storage("FTS5 did not hand out its API; search cannot rank"));
        };
        if create(api, c"mooring_rank".as_ptr(), ptr::null_mut(), Some(rank), None) != ffi::SQLITE_OK {
            return Err(Error::storage("could not register the search ranking function"));
        }
        if create(api, c"mooring_phrases".as_ptr(), ptr::null_mut(), Some(phrases), None) != ffi::SQLITE_OK {
            return Err(Error::storage("could not register the search's word counter"));
        }
    }
    Ok(())
}

/// `conn`'s FTS5 API table (FTS5 hands it out through `SELECT fts5(?)`), if it has one.
///
/// # Safety
/// The pointer is valid only while `conn` is open.
pub(in crate::store) unsafe fn fts5_api(conn: &Connection) -> Option<*mut ffi::fts5_api> {
    // SAFETY: the handle stays valid while `conn` is borrowed; the statement is finalized
    // before returning; `api` is written by SQLite through the bound pointer during the
    // step and is only returned if it came back non-null.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = ptr::null_mut();
        if ffi::sqlite3_prepare_v2(db, c"SELECT fts5(?1)".as_ptr(), -1, &mut stmt, ptr::null_mut())
            != ffi::SQLITE_OK
        {
            return None;
        }
        let mut api: *mut ffi::fts5_api = ptr::null_mut();
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast::<c_void>(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        (!api.is_null()).then_some(api)
    }
}

/// The auxiliary function: lower is better, like `bm25()`, so `ORDER BY rank` works alike.
unsafe extern "C" fn rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n_val: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls this with a valid API table and context for the current row,
    // and `values` holds `n_val` arguments.
    let scored = unsafe { score(&*api, fts, n_val, values) };
    match scored {
        // SAFETY: `ctx` is the result context SQLite passed for this very call.
        Some(s) => unsafe { ffi::sqlite3_result_double(ctx, -s) },
        // SAFETY: as above.
        None => unsafe { ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_ERROR) },
    }
}

/// `mooring_phrases(memory_fts)`: which of the query's first 63 phrases this row holds,
/// as the bits of an integer (phrase `i` is bit `i`). One walk over a few hundred rows
/// then counts every word of a query at once, where a count per word cost a query each.
unsafe extern "C" fn phrases(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n_val: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls this with a valid API table and context for the current row;
    // every call goes through that table with that context and writes only to locals.
    unsafe {
        let api = &*api;
        let held = (|| -> Option<i64> {
            let count = usize::try_from((api.xPhraseCount?)(fts)).ok()?.min(63);
            let first = api.xPhraseFirst?;
            let mut bits = 0i64;
            for p in 0..count {
                let mut iter = ffi::Fts5PhraseIter { a: ptr::null(), b: ptr::null() };
                let (mut col, mut off) = (0, 0);
                if first(fts, c_int::try_from(p).ok()?, &mut iter, &mut col, &mut off) != ffi::SQLITE_OK {
                    return None;
                }
                if col >= 0 {
                    bits |= 1 << p;
                }
            }
            Some(bits)
        })();
        match held {
            Some(bits) => ffi::sqlite3_result_int64(ctx, bits),
            None => ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_ERROR),
        }
    }
}

/// BM25 with IDF 1: per query phrase, the column-weighted occurrences `tf` in this row,
/// saturated as `tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))` over the row's length.
unsafe fn score(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    n_val: c_int,
    values: *mut *mut ffi::sqlite3_value,
) -> Option<f64> {
    let ok = |rc: c_int| (rc == ffi::SQLITE_OK).then_some(());
    // SAFETY: (the whole body) every call goes through the API table SQLite gave us, with the
    // context it gave us, and writes only to locals.
    unsafe {
        let columns = usize::try_from((api.xColumnCount?)(fts)).ok()?.min(MAX_COLUMNS);
        let mut weight = [1.0f64; MAX_COLUMNS];
        for (i, w) in weight.iter_mut().enumerate().take(columns.min(usize::try_from(n_val).ok()?)) {
            *w = ffi::sqlite3_value_double(*values.add(i));
        }
        let (rows, total) = totals(api, fts)?;
        let mut len: c_int = 0;
        ok((api.xColumnSize?)(fts, -1, &mut len))?;
        let avg = if rows > 0 { total as f64 / rows as f64 } else { 1.0 };
        let norm = K1 * (1.0 - B + B * f64::from(len) / avg.max(1.0));

        let phrases = usize::try_from((api.xPhraseCount?)(fts)).ok()?;
        // Arguments past the columns' weights weigh the query's phrases in order (their
        // IDF, when the caller computed it), as numbers or as one blob; a phrase without
        // one weighs 1.
        let given = usize::try_from(n_val).ok()?;
        let blob = columns < given && ffi::sqlite3_value_type(*values.add(columns)) == ffi::SQLITE_BLOB;
        let phrase_weight: Vec<f64> = if blob {
            let v = *values.add(columns);
            let (data, len) = (ffi::sqlite3_value_blob(v).cast::<u8>(), ffi::sqlite3_value_bytes(v));
            let bytes = if data.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(data, usize::try_from(len).ok()?)
            };
            let mut w: Vec<f64> =
                bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap_or_default())).collect();
            w.resize(phrases, 1.0);
            w
        } else {
            (0..phrases)
                .map(|p| {
                    let at = columns + p;
                    if at < given { ffi::sqlite3_value_double(*values.add(at)) } else { 1.0 }
                })
                .collect()
        };
        // Where `least` is: after the blob, or after every phrase's number.
        let least_at = if blob { columns + 1 } else { columns + phrases };
        // Each weighted phrase's occurrences in this row, by column; a phrase weighted 0
        // (the scope, or a filter) is never read: walking phrases one at a time skips
        // them, where `xInstCount` loaded and merged every phrase's positions.
        let mut tf = vec![0.0f64; phrases];
        let (first, next) = (api.xPhraseFirst?, api.xPhraseNext?);
        for (p, t) in tf.iter_mut().enumerate() {
            if phrase_weight[p] <= 0.0 {
                continue;
            }
            let mut iter = ffi::Fts5PhraseIter { a: ptr::null(), b: ptr::null() };
            let (mut col, mut off) = (0, 0);
            ok(first(fts, c_int::try_from(p).ok()?, &mut iter, &mut col, &mut off))?;
            while col >= 0 {
                *t += usize::try_from(col).ok().and_then(|c| weight.get(c)).copied().unwrap_or(0.0);
                next(fts, &mut iter, &mut col, &mut off);
            }
        }
        // One argument more: how many weighted phrases a row must hold to score at all.
        let least = if least_at < given {
            ffi::sqlite3_value_int64(*values.add(least_at)).max(0) as usize
        } else {
            0
        };
        let held = tf.iter().zip(&phrase_weight).filter(|(t, w)| **t > 0.0 && **w > 0.0).count();
        if held < least {
            return Some(0.0);
        }
        Some(tf.iter().zip(&phrase_weight).map(|(&t, w)| w * t * (K1 + 1.0) / (t + norm)).sum())
    }
}

/// Phrase weights as the blob `mooring_rank` reads in place of one number each.
pub fn phrase_weights(weights: &[f64]) -> Vec<u8> {
    weights.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The index's row count and total length, read once per query and kept with it (FTS5's
/// own `bm25()` does the same): read for every ranked row, they were a quarter of an
/// any-word search's ranking.
///
/// # Safety
/// `api` and `fts` are what SQLite passed to the auxiliary function for this row.
unsafe fn totals(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Option<(i64, i64)> {
    unsafe extern "C" fn free(p: *mut c_void) {
        // SAFETY: `p` is the box `totals` handed to SQLite, given back once.
        drop(unsafe { Box::from_raw(p.cast::<(i64, i64)>()) });
    }
    let ok = |rc: c_int| (rc == ffi::SQLITE_OK).then_some(());
    // SAFETY: as the caller's; the pointer kept with the query is only ever the box below.
    unsafe {
        let kept = (api.xGetAuxdata?)(fts, 0).cast::<(i64, i64)>();
        if let Some(t) = kept.as_ref() {
            return Some(*t);
        }
        let (mut rows, mut total) = (0i64, 0i64);
        ok((api.xRowCount?)(fts, &mut rows))?;
        ok((api.xColumnTotalSize?)(fts, -1, &mut total))?;
        let boxed = Box::into_raw(Box::new((rows, total))).cast::<c_void>();
        // On failure SQLite has freed it already: the next row reads the totals again.
        (api.xSetAuxdata?)(fts, boxed, Some(free));
        Some((rows, total))
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{Cached as _, Store};

    fn ranked(store: &Store, query: &str) -> Vec<(i64, f64)> {
        scores(
            store,
            "SELECT rowid, mooring_rank(memory_fts, 5.0, 1.0, 3.0, 0.0) AS r FROM memory_fts
             WHERE memory_fts MATCH ?1 ORDER BY r",
            &[&query],
        )
    }

    /// (rowid, score) rows of `sql` with `params` bound.
    fn scores(store: &Store, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Vec<(i64, f64)> {
        store
            .read(|c| {
                let mut st = c.prepare(sql)?;
                let rows = st.query_map(params, |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
            })
            .unwrap()
    }

    /// A store with projects `a` (1) and `b` (2) and these notes: (project, title, content).
    fn store_with(notes: &[(i64, &str, &str)]) -> Store {
        let store = Store::open_in_memory().unwrap();
        store
            .write(|tx| {
                for slug in ["a", "b"] {
                    tx.exec(
                        "INSERT INTO projects (slug, name, created_at, updated_at) VALUES (?1, ?1, 't', 't')",
                        [slug],
                    )?;
                }
                for (project, title, content) in notes {
                    tx.exec(
                        "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                         VALUES (?1, 'note', ?2, ?3, 't', 't')",
                        rusqlite::params![project, title, content],
                    )?;
                }
                Ok(())
            })
            .unwrap();
        store
    }

    #[test]
    fn weights_columns_and_counts_occurrences_whatever_other_projects_hold() {
        let store = store_with(&[
            (1, "", "raft once in a body of several other words"),
            (1, "raft", "a body without it"),
            (1, "", "raft raft raft in a body of several other words"),
        ]);
        let before = ranked(&store, "scope:p1 AND raft");
        let order: Vec<i64> = before.iter().map(|r| r.0).collect();
        assert_eq!(order, [2, 3, 1], "title (weight 5) over three body hits over one");
        assert!(before.iter().all(|r| r.1 < 0.0 && r.1.is_finite()));
        // Entries of another project with the same word change no score of this one.
        store
            .write(|tx| {
                for _ in 0..20 {
                    tx.exec(
                        "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                         VALUES (2, 'note', 'raft', 'raft raft', 't', 't')",
                        [],
                    )?;
                }
                Ok(())
            })
            .unwrap();
        let after = ranked(&store, "scope:p1 AND raft");
        assert_eq!(after.iter().map(|r| r.0).collect::<Vec<_>>(), order);
    }

    #[test]
    fn phrases_names_which_words_of_the_query_a_row_holds() {
        let store =
            store_with(&[(1, "", "raft leader election"), (1, "", "raft only"), (1, "", "nothing shared")]);
        let bits: Vec<(i64, i64)> = store
            .read(|c| {
                let mut st = c.prepare(
                    "SELECT rowid, mooring_phrases(memory_fts) FROM memory_fts
                     WHERE memory_fts MATCH 'raft OR absent OR leader' ORDER BY rowid",
                )?;
                let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
            })
            .unwrap();
        // Phrase 0 raft, 1 absent, 2 leader.
        assert_eq!(bits, [(1, 0b101), (2, 0b001)]);
    }

    #[test]
    fn phrase_weights_as_one_bound_blob_rank_as_the_same_numbers_written_out() {
        let store = store_with(&[
            (1, "", "raft leader election"),
            (1, "", "raft only"),
            (1, "", "leader leader"),
            (1, "", "nothing shared"),
        ]);
        let numbers = scores(
            &store,
            "SELECT rowid, mooring_rank(memory_fts, 5.0, 1.0, 3.0, 0.0, 0.5, 2.0, 2) AS r FROM memory_fts
             WHERE memory_fts MATCH 'raft OR leader' ORDER BY r, rowid",
            &[],
        );
        let blob = scores(
            &store,
            "SELECT rowid, mooring_rank(memory_fts, 5.0, 1.0, 3.0, 0.0, ?1, ?2) AS r FROM memory_fts
             WHERE memory_fts MATCH 'raft OR leader' ORDER BY r, rowid",
            &[&super::phrase_weights(&[0.5, 2.0]), &2],
        );
        assert_eq!(blob, numbers);
        // `least` 2: only the entry holding both words scores.
        assert_eq!(blob.iter().filter(|r| r.1 < 0.0).map(|r| r.0).collect::<Vec<_>>(), [1]);
    }
}
