//! The `supersedes` chain: an entry a newer one replaces is marked, never deleted. It
//! leaves the preamble and recall, stays in history and search (marked), and the link
//! can be undone. (Finding which earlier entries a new one may replace is search's job:
//! `search::similar`.)

use super::{Entry, Kind, check_writable, no_entry};
use crate::error::{Error, Result};
use crate::store::backend::MemoryBackend;

/// Whether each of `old` may be superseded by an entry of `kind` (with id `by`, once it
/// has one): live in `slug`, of that kind, older, not superseded yet, named once. The
/// entries as they are, in `old`'s order.
pub fn check_old(
    store: &dyn MemoryBackend,
    slug: &str,
    kind: Kind,
    by: Option<i64>,
    old: &[i64],
) -> Result<Vec<Entry>> {
    if old.len() > MAX_SUPERSEDED {
        return Err(Error::invalid(
            "supersedes",
            format!("name at most {MAX_SUPERSEDED} entries one supersedes"),
        ));
    }
    let mut checked = Vec::with_capacity(old.len());
    for (i, &id) in old.iter().enumerate() {
        if old[..i].contains(&id) {
            return Err(Error::invalid("supersedes", format!("entry {id} is named twice")));
        }
        if by.is_some_and(|by| id >= by) {
            return Err(Error::invalid(
                "supersedes",
                format!(
                    "entry {id} is not older than {}; the newer entry supersedes the older",
                    by.unwrap_or(0)
                ),
            ));
        }
        let e = entry(store, slug, id).map_err(|e| Error { field: Some("supersedes".into()), ..e })?;
        if e.kind != kind {
            return Err(Error::invalid(
                "supersedes",
                format!(
                    "entry {id} is a {}, the new one a {}: only an entry of the same kind supersedes",
                    e.kind.as_str(),
                    kind.as_str()
                ),
            ));
        }
        if let Some(other) = e.superseded_by {
            return Err(Error::conflict(
                "supersedes",
                format!("entry {id} is already superseded by {other}; undo that first"),
            ));
        }
        checked.push(e);
    }
    Ok(checked)
}

/// Most entries one supersedes.
pub const MAX_SUPERSEDED: usize = 20;

/// Mark each of `old` superseded by entry `by` of project `slug`: all of one kind with
/// it, live, older, and not superseded already (else nothing changes). The entries as
/// they now are.
pub fn supersede(store: &dyn MemoryBackend, slug: &str, by: i64, old: &[i64]) -> Result<Vec<Entry>> {
    if old.is_empty() {
        return Ok(Vec::new());
    }
    let newer = entry(store, slug, by)?;
    check_old(store, slug, newer.kind, Some(by), old)?;
    let mut out = Vec::with_capacity(old.len());
    for &id in old {
        let (slug, row) =
            store.supersede_memory(slug, id, Some(by), check_writable)?.ok_or_else(|| no_entry(slug, id))?;
        out.push(Entry::from_row(row, &slug));
    }
    Ok(out)
}

/// Undo: entry `id` of `slug` is no longer superseded (back in the preamble and recall).
pub fn restore(store: &dyn MemoryBackend, slug: &str, id: i64) -> Result<Entry> {
    let e = entry(store, slug, id)?;
    if e.superseded_by.is_none() {
        return Err(Error::conflict("id", format!("entry {id} is not superseded")));
    }
    let (slug, row) =
        store.supersede_memory(slug, id, None, check_writable)?.ok_or_else(|| no_entry(slug, id))?;
    Ok(Entry::from_row(row, &slug))
}

/// A live entry of `slug` by id, or a not-found error naming it.
pub fn entry(store: &dyn MemoryBackend, slug: &str, id: i64) -> Result<Entry> {
    match store.memory_get(slug, id)? {
        (slug, Some(row)) => Ok(Entry::from_row(row, &slug)),
        (slug, None) => Err(no_entry(&slug, id)),
    }
}
