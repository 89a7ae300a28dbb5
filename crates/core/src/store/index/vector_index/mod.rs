//! Vectors compared in memory, whichever database keeps them. A project's vectors are
//! held between searches (reading 100,000 of them takes longer than a whole search may)
//! and checked against the project's epoch at every search: vectors stored since (new
//! entries, or changed ones embedded again) are read on top, by the order they were
//! stored in; any removed (forgotten entries) means reading the project again.

pub mod centre;
mod project;
mod scan;
pub mod sketch;

use project::{Project, kind_code};
pub use scan::Scan;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mooring_embed::{Quantized, dot_i8, dots_i8, dots_i8_at};

use crate::error::Result;
use crate::store::index::vector_index::centre::{Centre, Query};
use sketch::shortlist_len;

/// Most vector bytes held over all projects (about 250,000 vectors of 256 dimensions);
/// projects read past that are held by their sketches only, and a search reads the few
/// vectors it compares exactly back from the database.
const MOST_BYTES: usize = 64 << 20;

/// Most vectors held over all projects, sketched or whole (about 75 bytes each when
/// sketched: 90 MB at this bound); past it, the projects held are dropped and read again.
const MOST_VECTORS: usize = 1_200_000;

/// A stored vector with its entry's id and kind.
pub struct Stored {
    /// The entry.
    pub id: i64,
    /// Its kind.
    pub kind: String,
    /// When it was stored, in its project's order (the epoch's `added` then).
    pub seq: i64,
    /// The bytes `Quantized::to_bytes` wrote.
    pub vec: Vec<u8>,
}

/// A database that keeps vectors, as the in-memory copy reads it.
pub trait Source {
    /// How many vectors of a project were stored and removed, ever.
    fn epoch(&self, project_id: i64) -> Result<(i64, i64)>;

    /// Each vector by `model` of a project stored after `seq`, in the order stored.
    fn since(&self, project_id: i64, model: &str, seq: i64, f: &mut dyn FnMut(Stored)) -> Result<()>;

    /// The vectors by `model` of the entries `ids` (any order; the kind may be left
    /// empty): what a search compares exactly in a project held by its sketches only.
    fn vectors_of(&self, model: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()>;
}

/// The copies, by project id (a project id names one database's project: one cache per
/// database).
pub struct Cache {
    projects: Mutex<HashMap<i64, Arc<Project>>>,
    /// Vector bytes held whole at most (see [`MOST_BYTES`]).
    most_bytes: usize,
}

impl Default for Cache {
    fn default() -> Self {
        Self { projects: Mutex::default(), most_bytes: MOST_BYTES }
    }
}

impl Cache {
    /// The ids and cosines of project `project_id`'s `limit` entries (of `kind`) nearest
    /// `query`, best first.
    pub fn nearest(
        &self,
        source: &dyn Source,
        project_id: i64,
        model: &str,
        query: &[f32],
        kind: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(i64, f32)>> {
        self.nearest_in(source, &[project_id], model, query, kind, limit)
    }

    /// [`Cache::nearest`] over several projects, each compared from its own centre: a
    /// shortlist by sketch across all of them, then exact cosines.
    pub fn nearest_in(
        &self,
        source: &dyn Source,
        project_ids: &[i64],
        model: &str,
        query: &[f32],
        kind: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(i64, f32)>> {
        let want = kind.map(kind_code);
        let mut projects = Vec::with_capacity(project_ids.len());
        for &id in project_ids {
            projects.push(self.current(source, id, model, query.len())?);
        }
        let queries: Vec<Query> = projects.iter().map(|p| p.centre.query(query)).collect();
        // One shortlist across the sketched projects: the nearest sketches of them all.
        let mut listed: Vec<(f32, usize, usize)> = Vec::new();
        for (p, (project, q)) in projects.iter().zip(&queries).enumerate() {
            if !project.compared_whole() {
                listed.extend(project.shortlist(q, want, limit).into_iter().map(|(d, i)| (d, p, i)));
            }
        }
        let most = if projects.iter().any(|p| p.sketched) {
            sketch::read_back_len(limit)
        } else {
            shortlist_len(limit)
        };
        if listed.len() > most {
            listed.select_nth_unstable_by(most - 1, |a, b| b.0.total_cmp(&a.0));
            listed.truncate(most);
        }
        let mut scored: Vec<(f32, i64)> = Vec::with_capacity(listed.len());
        for (p, (project, q)) in projects.iter().zip(&queries).enumerate() {
            let positions: Vec<usize> = if project.compared_whole() {
                (0..project.ids.len()).filter(|&i| want.is_none_or(|k| project.kinds[i] == k)).collect()
            } else {
                listed.iter().filter(|l| l.1 == p).map(|l| l.2).collect()
            };
            exact(source, project, q, &positions, &mut scored)?;
        }
        Ok(top(scored, limit).into_iter().map(|(s, id)| (id, s)).collect())
    }

    /// [`Cache::nearest`] among the project's `newest` entries (by id), when it is
    /// held whole already (in the hub); `None` when it is not: a short-lived process
    /// reads those few from the database rather than the whole project.
    #[allow(clippy::too_many_arguments)]
    pub fn nearest_newest(
        &self,
        source: &dyn Source,
        project_id: i64,
        model: &str,
        query: &[f32],
        kind: Option<&str>,
        limit: usize,
        newest: usize,
    ) -> Result<Option<Vec<(i64, f32)>>> {
        let held = self.lock().get(&project_id).cloned();
        match held {
            Some(p) if !p.sketched && p.model == model && p.dim == query.len() => {}
            Some(_) => return Ok(None),
            // Not held: a project no bigger than the newest asked for is read whole (what
            // the bounded read costs) and held from then on, so a project that had no
            // vectors when the process started is held as it grows; a bigger one is left
            // to the bounded read (a one-off process does not read all of it). `added`
            // counts every vector stored, so it bounds the project's size.
            None if source.epoch(project_id)?.0 <= newest as i64 => {}
            None => return Ok(None),
        }
        let project = self.current(source, project_id, model, query.len())?;
        if project.sketched {
            return Ok(None);
        }
        let want = kind.map(kind_code);
        let from = project.by_id.len().saturating_sub(newest);
        // Sized up front: collected from a filter, the list grew by doubling (a sixth of a
        // write's check by meaning, in callgrind, went to building it).
        let mut positions: Vec<usize> = Vec::with_capacity(project.by_id.len() - from);
        let of_kind = |&i: &usize| want.is_none_or(|k| project.kinds[i] == k);
        positions.extend(project.by_id[from..].iter().map(|&p| p as usize).filter(of_kind));
        closest(source, &project, query, &positions, limit).map(Some)
    }

    /// Read projects `project_ids`' vectors of `model` (`dim` values each) into the cache
    /// now, so the first search after a start does not pay for it (about 1 s at 100,000
    /// entries).
    pub fn hold(&self, source: &dyn Source, project_ids: &[i64], model: &str, dim: usize) -> Result<()> {
        for &id in project_ids {
            self.current(source, id, model, dim)?;
        }
        Ok(())
    }

    /// Exact cosines of every vector of a project to `query` (no sketch): what the
    /// sketch's shortlist is measured against (`bench`).
    pub fn nearest_exactly(
        &self,
        source: &dyn Source,
        project_id: i64,
        model: &str,
        query: &[f32],
        limit: usize,
    ) -> Result<Vec<(i64, f32)>> {
        let project = self.current(source, project_id, model, query.len())?;
        closest(source, &project, query, &(0..project.ids.len()).collect::<Vec<_>>(), limit)
    }

    fn current(&self, source: &dyn Source, project_id: i64, model: &str, dim: usize) -> Result<Arc<Project>> {
        let epoch = source.epoch(project_id)?;
        let held = self.lock().get(&project_id).cloned();
        let same = |p: &Project| p.model == model && p.dim == dim && p.epoch.1 == epoch.1;
        let whole = || -> Result<Arc<Project>> {
            let centre = Centre::sketching();
            let mut next = Project { epoch, model: model.to_owned(), dim, centre, ..Project::default() };
            source.since(project_id, model, 0, &mut |s| {
                next.put(s);
            })?;
            next.order();
            next.recentre();
            Ok(Arc::new(next))
        };
        let mut fresh = match held {
            Some(p) if same(&p) && p.epoch.0 == epoch.0 => return Ok(p),
            Some(p) if same(&p) => {
                // Only stored since: read those on top. The copy comes out of the map
                // first, so it is updated in place; it is copied only if a search in
                // another thread still holds it (a copy is the project's every vector:
                // 1.3 MB at 5,000 entries, at each indexer slice that adds to it).
                drop(p);
                let taken = self.lock().remove(&project_id);
                let Some(mut p) = taken.filter(|p| same(p)) else {
                    return self.current(source, project_id, model, dim);
                };
                let next = Arc::make_mut(&mut p);
                next.epoch = epoch;
                let mut kept = true;
                source.since(project_id, model, next.seq, &mut |s| kept &= next.put(s))?;
                next.order();
                if kept && next.recentre() { p } else { whole()? }
            }
            _ => whole()?,
        };
        let mut projects = self.lock();
        let others = || projects.iter().filter(|(id, _)| **id != project_id).map(|(_, p)| p);
        if others().map(|p| p.ids.len()).sum::<usize>() + fresh.ids.len() > MOST_VECTORS {
            projects.clear();
        }
        let others_bytes: usize =
            projects.iter().filter(|(id, _)| **id != project_id).map(|(_, p)| p.values.len()).sum();
        if !fresh.sketched && others_bytes + fresh.values.len() > self.most_bytes {
            let held = Arc::make_mut(&mut fresh);
            held.sketched = true;
            held.values = Vec::new();
        }
        projects.insert(project_id, fresh.clone());
        Ok(fresh)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<Project>>> {
        self.projects.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The ids and exact cosines of the `limit` of `positions` in `project` nearest `query`,
/// best first.
fn closest(
    source: &dyn Source,
    project: &Project,
    query: &[f32],
    positions: &[usize],
    limit: usize,
) -> Result<Vec<(i64, f32)>> {
    let q = project.centre.query(query);
    let mut scored = Vec::with_capacity(positions.len());
    exact(source, project, &q, positions, &mut scored)?;
    Ok(top(scored, limit).into_iter().map(|(s, id)| (id, s)).collect())
}

/// Push the exact cosine and id of each of `positions` in `project` to `out`, reading the
/// vectors back from `source` when the project is held by its sketches only.
fn exact(
    source: &dyn Source,
    project: &Project,
    q: &Query,
    positions: &[usize],
    out: &mut Vec<(f32, i64)>,
) -> Result<()> {
    if !project.sketched {
        if positions.len() == project.ids.len() {
            // Every vector: the products in one pass over the values.
            let mut products = Vec::with_capacity(project.ids.len());
            dots_i8(&q.values.values, &project.values, &mut products);
            for &i in positions {
                out.push((project.centre.score(q, i, products[i], project.scales[i]), project.ids[i]));
            }
        } else {
            let mut products = Vec::with_capacity(positions.len());
            dots_i8_at(&q.values.values, &project.values, positions, &mut products);
            for (&i, p) in positions.iter().zip(products) {
                out.push((project.centre.score(q, i, p, project.scales[i]), project.ids[i]));
            }
        }
        return Ok(());
    }
    let mut ids: Vec<i64> = positions.iter().map(|&i| project.ids[i]).collect();
    // In key order: neighbouring lookups share the database's pages.
    ids.sort_unstable();
    source.vectors_of(&project.model, &ids, &mut |s| {
        if let (Some(&i), Some(v)) = (project.at.get(&s.id), Quantized::from_bytes(&s.vec, project.dim)) {
            let p = dot_i8(&q.values.values, &v.values);
            out.push((project.centre.score(q, i, p, v.scale), s.id));
        }
    })
}

/// The `limit` highest scores, highest first.
fn top<T: Copy>(mut scored: Vec<(f32, T)>, limit: usize) -> Vec<(f32, T)> {
    let by = |a: &(f32, T), b: &(f32, T)| b.0.total_cmp(&a.0);
    if scored.len() > limit && limit > 0 {
        scored.select_nth_unstable_by(limit - 1, by);
        scored.truncate(limit);
    }
    scored.sort_by(by);
    scored.truncate(limit);
    scored
}

#[cfg(test)]
mod tests;
