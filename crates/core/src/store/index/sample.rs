//! The sample a search counts its words in: a project's newest [`IDF_SAMPLE`] entries,
//! where it starts (held between searches: finding the 2,000th newest entry walks 2,000
//! index entries, which was a sixth of a write's duplicate check at 20,000 entries; the
//! bound moves only as entries arrive, so a held one is good until a few hundred more
//! have been written), how a search tells the project's entries there ([`Scope`]), and
//! each word's inverse document frequency in it ([`idf_in_scope`]).

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::Result;
use crate::store::Cached as _;
use crate::store::backend::{COMMON_FROM, COMMON_SHARE, Word};
use crate::store::index::fts_terms;

/// The newest entries of a project a question's words are counted in (see
/// [`idf_in_scope`]).
pub const IDF_SAMPLE: u32 = 2_000;

/// Rows a bounded search walks to count its words (see [`idf_in_scope`]).
pub const COUNTED_BOUNDED: u32 = 40;

/// Entries newer than a held bound a sample may grow by before the bound is found again:
/// the sample is then the newest 2,000 to 2,256 entries, which moves a word's IDF by
/// at most a twentieth.
const SLACK: i64 = 256;

/// Each project's sample bound with the project's newest id when it was found.
#[derive(Debug, Default)]
pub struct SampleBounds(Mutex<HashMap<i64, (i64, i64)>>);

impl SampleBounds {
    /// The id project `project`'s sample starts at, as [`sample_bound`] finds it, or a
    /// held one at most [`SLACK`] ids old.
    pub fn bound(&self, conn: &Connection, project: i64) -> Result<i64> {
        // The project's newest entry: one seek.
        let newest: i64 = conn
            .row("SELECT max(id) FROM memory WHERE project_id = ?1", params![project], |r| {
                r.get::<_, Option<i64>>(0)
            })?
            .unwrap_or(0);
        let held = self.0.lock().unwrap_or_else(|p| p.into_inner()).get(&project).copied();
        if let Some((bound, at)) = held
            && newest >= at
            && newest - at < SLACK
        {
            return Ok(bound);
        }
        let bound = sample_bound(conn, Some(project))?;
        self.0.lock().unwrap_or_else(|p| p.into_inner()).insert(project, (bound, newest));
        Ok(bound)
    }
}

/// A word of a question, weighed in the scope searched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighed {
    /// Its inverse document frequency there.
    pub idf: f64,
    /// In more than [`COMMON_SHARE`] of the scope's entries.
    pub common: bool,
}

/// Where a search of one project looks, and how it tells the project's entries from
/// others': by the scope token every entry carries in the keyword index, or by the
/// entry's own row. The token's postings list every entry of the project, and a walk
/// backwards from the newest match re-reads them page by page: at 100,000 entries that
/// was a fifth of a write's check. When the project holds most of the newest entries,
/// the rows a walk reads are nearly all its own, and joining each to its row costs less.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    /// The project's id.
    pub id: i64,
    /// Its scope token (`scope:p<ID>`), or `None` when its rows tell its entries.
    pub token: Option<&'a str>,
    /// The oldest id of its newest [`IDF_SAMPLE`] entries (see [`sample_bound`]).
    pub bound: i64,
}

impl<'a> Scope<'a> {
    /// Project `id` with scope token `token`: told by its rows when its newest
    /// [`IDF_SAMPLE`] entries are at least half of every project's entries since the
    /// oldest of them (a walk then reads at most one other project's entry per own).
    /// `bound` is its [`sample_bound`] (held by `sample::SampleBounds`).
    pub fn of(conn: &Connection, id: i64, token: &'a str, bound: i64) -> Result<Self> {
        let newest: i64 = conn.row("SELECT coalesce(max(id), 0) FROM memory", [], |r| r.get(0))?;
        let most = bound > 0 && newest - bound < 2 * i64::from(IDF_SAMPLE);
        Ok(Self { id, token: (!most).then_some(token), bound })
    }

    /// As [`Scope::of`], always by the token (for a search that counts the project's
    /// entries by it).
    pub fn by_token(id: i64, token: &'a str, bound: i64) -> Self {
        Self { id, token: Some(token), bound }
    }

    /// The project whose rows tell its entries, when its token does not.
    pub fn joined(&self) -> Option<i64> {
        self.token.is_none().then_some(self.id)
    }

    /// `terms` limited to the project: by its token, or as they are when its rows tell.
    pub fn scoped(&self, terms: &str) -> String {
        match self.token {
            Some(token) => format!("{token} AND ({terms})"),
            None => terms.to_owned(),
        }
    }
}

/// The id of the oldest of the newest [`IDF_SAMPLE`] entries of `project` (of every
/// project when `None`), or 0 when there are fewer.
pub fn sample_bound(conn: &Connection, project: Option<i64>) -> Result<i64> {
    let offset = i64::from(IDF_SAMPLE) - 1;
    let bound: Option<i64> = match project {
        Some(id) => conn
            .row(
                "SELECT id FROM memory WHERE project_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2",
                params![id, offset],
                |r| r.get(0),
            )
            .optional()?,
        None => conn
            .row("SELECT id FROM memory ORDER BY id DESC LIMIT 1 OFFSET ?1", [offset], |r| r.get(0))
            .optional()?,
    };
    Ok(bound.unwrap_or(0))
}

/// Each word's inverse document frequency among the newest [`IDF_SAMPLE`] entries of
/// project `project` (of every project when `None`; `scope` is its FTS token):
/// `ln(1 + (N − n + 0.5) / (n + 0.5))`, the form the team database computes too, so both
/// rank a question's words alike whatever other projects hold (FTS5's own `bm25()`
/// counts over every project: a name said in every turn of one conversation counted as
/// rare). The newest entries are a sample of the project a count reads at most once per
/// word: counting a common word in all of 100,000 entries read them all at every search.
pub fn idf_in_scope(
    conn: &Connection,
    project: Option<Scope<'_>>,
    words: &[Word],
    columns_only: bool,
    cap: Option<u32>,
) -> Result<Vec<Weighed>> {
    let bound = match project {
        Some(p) => p.bound,
        None => sample_bound(conn, None)?,
    };
    let mut count =
        conn.prepare_cached("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?1 AND rowid >= ?2")?;
    let mut matches = |fts: &str| -> Result<f64> {
        let n: i64 = count.query_row(params![fts, bound], |r| r.get(0))?;
        Ok(n as f64)
    };
    let total = match project {
        // A bounded count does not count the sample: it is full when it has a bound.
        Some(_) if cap.is_some() && bound > 0 => f64::from(IDF_SAMPLE),
        Some(Scope { token: Some(token), .. }) if cap.is_none() => matches(token)?,
        // A small project's size from its rows' index, not by walking its scope's postings.
        Some(p) => conn
            .prepare_cached("SELECT count(*) FROM memory WHERE project_id = ?1")?
            .query_row([p.id], |r| r.get::<_, i64>(0))? as f64,
        None => conn
            .query_row("SELECT count(*) FROM memory_fts WHERE rowid >= ?1", [bound], |r| r.get::<_, i64>(0))?
            as f64,
    };
    let term = |w: &Word| {
        let term = fts_terms(std::slice::from_ref(w), true);
        if columns_only { format!("{{title content tags}} : {term}") } else { term }
    };
    let scoped = |terms: String| match project {
        Some(p) => p.scoped(&terms),
        None => terms,
    };
    let counts: Vec<f64> = match cap {
        // Bounded: one walk over the newest rows holding any of the words counts them
        // all (the rare ones are what matters, and are counted whole while the walk
        // reaches them).
        Some(cap) if words.len() <= 62 => {
            let any: Vec<String> = words.iter().map(term).collect();
            let fts = scoped(any.join(" OR "));
            let first = usize::from(project.is_some_and(|p| p.token.is_some()));
            // A project told by its rows rather than its scope token (see `Scope`): only
            // then is each row joined.
            let joined = project.and_then(|p| p.joined());
            let mut walk = conn.prepare_cached(match joined {
                Some(_) => {
                    "SELECT memory_fts.rowid, mooring_phrases(memory_fts) FROM memory_fts
                     JOIN memory m ON m.id = memory_fts.rowid
                     WHERE memory_fts MATCH ?1 AND memory_fts.rowid >= ?2 AND m.project_id = ?4
                     ORDER BY memory_fts.rowid DESC LIMIT ?3"
                }
                None => {
                    "SELECT rowid, mooring_phrases(memory_fts) FROM memory_fts WHERE memory_fts MATCH ?1
                     AND rowid >= ?2 AND ?4 IS NULL ORDER BY rowid DESC LIMIT ?3"
                }
            })?;
            let mut counts = vec![0f64; words.len()];
            let (mut walked, mut newest, mut oldest) = (0u32, 0i64, 0i64);
            let mut rows = walk.query(params![fts, bound, cap, joined])?;
            while let Some(r) = rows.next()? {
                let (rowid, bits): (i64, i64) = (r.get(0)?, r.get(1)?);
                if walked == 0 {
                    newest = rowid;
                }
                (walked, oldest) = (walked + 1, rowid);
                for (i, c) in counts.iter_mut().enumerate() {
                    *c += ((bits >> (first + i)) & 1) as f64;
                }
            }
            // A walk stopped by its cap saw only the newest part of the sample: a word's
            // count there is scaled to the whole by the share of ids it spanned (a common
            // word must still weigh next to nothing).
            if walked == cap && newest > bound {
                let share =
                    ((newest - oldest + 1) as f64 / (newest - bound.max(1) + 1) as f64).clamp(1e-3, 1.0);
                counts.iter_mut().for_each(|c| *c = (*c / share).min(total));
            }
            counts
        }
        _ => words.iter().map(|w| matches(&scoped(term(w)))).collect::<Result<_>>()?,
    };
    let mut out = Vec::with_capacity(words.len());
    for n in counts {
        out.push(Weighed {
            idf: (1.0 + (total - n + 0.5) / (n + 0.5)).ln(),
            common: n > total * COMMON_SHARE && total >= COMMON_FROM,
        });
    }
    if out.iter().all(|w| w.common) {
        out.iter_mut().for_each(|w| w.common = false);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_bound_is_found_again_once_the_project_has_grown_past_the_slack() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE memory (id INTEGER PRIMARY KEY, project_id INTEGER);
             CREATE INDEX memory_by_project_id ON memory(project_id, id);",
        )
        .unwrap();
        let add = |n: i64| {
            for _ in 0..n {
                conn.execute("INSERT INTO memory (project_id) VALUES (1)", []).unwrap();
            }
        };
        let bounds = SampleBounds::default();
        add(2_100);
        let first = bounds.bound(&conn, 1).unwrap();
        assert_eq!(first, 101, "the 2,000th newest of 2,100");
        add(SLACK - 1);
        assert_eq!(bounds.bound(&conn, 1).unwrap(), first, "held while the sample grew by less");
        add(1);
        assert_eq!(bounds.bound(&conn, 1).unwrap(), 101 + SLACK, "found again");
        conn.execute("DELETE FROM memory WHERE id > 1000", []).unwrap();
        assert_eq!(bounds.bound(&conn, 1).unwrap(), 0, "fewer than a sample after a forget");
    }
}
