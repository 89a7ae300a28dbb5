//! Vectors compared in memory, whichever database keeps them. A project's vectors are
//! held between searches (reading 100,000 of them takes longer than a whole search may)
//! and checked against the project's epoch at every search: vectors stored since (new
//! entries, or changed ones embedded again) are read on top, by the order they were
//! stored in; any removed (forgotten entries) means reading the project again.

pub mod centre;
pub mod sketch;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mooring_embed::{Quantized, dot_i8, dots_i8, dots_i8_at};

use crate::error::Result;
use crate::model::Kind;
use crate::store::index::vector_index::centre::{CENTRED_FROM, Centre, Query};
use sketch::{SKETCH_FROM, shortlist_len};

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

/// One project's vectors.
#[derive(Default, Clone)]
struct Project {
    epoch: (i64, i64),
    model: String,
    dim: usize,
    seq: i64,
    at: HashMap<i64, usize>,
    ids: Vec<i64>,
    kinds: Vec<u8>,
    scales: Vec<f32>,
    /// Every vector's values, end to end; none when held by sketches only (`sketched`).
    values: Vec<i8>,
    sketched: bool,
    centre: Centre,
    /// Positions by their entry's id, oldest first: a bounded search's newest entries.
    by_id: Vec<u32>,
    /// `by_id` needs sorting (vectors came out of id order: a backfill goes newest first).
    unsorted: bool,
}

impl Project {
    /// Take one vector; false when it replaces one a sketched project no longer holds
    /// (the project must then be read again).
    fn put(&mut self, s: Stored) -> bool {
        self.seq = self.seq.max(s.seq);
        let Some(q) = Quantized::from_bytes(&s.vec, self.dim) else { return true };
        let kind = kind_code(&s.kind);
        // A changed entry embedded again replaces its old vector in place.
        if let Some(&i) = self.at.get(&s.id) {
            if self.sketched {
                return false;
            }
            let old = self.vector(i);
            self.centre.put(i, &q, Some(&old));
            self.kinds[i] = kind;
            self.scales[i] = q.scale;
            self.values[i * self.dim..(i + 1) * self.dim].copy_from_slice(&q.values);
            return true;
        }
        self.centre.put(self.ids.len(), &q, None);
        if self.by_id.last().is_some_and(|&last| self.ids[last as usize] > s.id) {
            self.unsorted = true;
        }
        self.by_id.push(self.ids.len() as u32);
        self.at.insert(s.id, self.ids.len());
        self.ids.push(s.id);
        self.kinds.push(kind);
        self.scales.push(q.scale);
        if !self.sketched {
            self.values.extend_from_slice(&q.values);
        }
        true
    }

    /// Put `by_id` in order after a read (once per backfill, not per vector).
    fn order(&mut self) {
        if self.unsorted {
            let ids = &self.ids;
            self.by_id.sort_unstable_by_key(|&p| ids[p as usize]);
            self.unsorted = false;
        }
    }

    fn vector(&self, i: usize) -> Quantized {
        Quantized { scale: self.scales[i], values: self.values[i * self.dim..(i + 1) * self.dim].to_vec() }
    }

    /// Take the centre again if the project has changed enough since; false when that
    /// needs the vectors of a sketched project (read it again).
    fn recentre(&mut self) -> bool {
        if !self.centre.due() {
            return true;
        }
        if self.sketched {
            return false;
        }
        let mut centre = std::mem::replace(&mut self.centre, Centre::sketching());
        centre.retake(self.ids.len(), |i| self.vector(i));
        self.centre = centre;
        true
    }

    /// Whether a search compares every vector exactly: a small project held whole (a
    /// shortlist would be most of it).
    fn compared_whole(&self) -> bool {
        self.ids.len() < SKETCH_FROM && !self.sketched
    }

    /// The positions (of `want`'s kind) whose sketches are nearest `q`'s, with the bits
    /// they differ in: what a search for `limit` hits compares exactly.
    fn shortlist(&self, q: &Query, want: Option<u8>, limit: usize) -> Vec<(f32, usize)> {
        let keep = |i: usize| want.is_none_or(|k| self.kinds[i] == k);
        // Scaled to a cosine's range, so shortlists of different projects compare.
        let moved = q.moved();
        let norm = moved.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6) * (self.dim as f32).sqrt();
        let mut near = sketch::nearest(&moved, self.centre.sketches(), keep, shortlist_len(limit));
        near.iter_mut().for_each(|n| n.0 /= norm);
        near
    }
}

fn kind_code(kind: &str) -> u8 {
    Kind::ALL.iter().position(|k| k.as_str() == kind).map_or(u8::MAX, |i| i as u8)
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
        let positions: Vec<usize> = project.by_id[from..]
            .iter()
            .map(|&p| p as usize)
            .filter(|&i| want.is_none_or(|k| project.kinds[i] == k))
            .collect();
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

/// Vectors a scan holds to compare them from their own mean: a prompt hook's bounded
/// read (10,000) fits; past this (every project of a large store) it compares them as
/// they come, from no centre, holding only the best.
const CENTRED_UP_TO: usize = 20_000;

/// The `limit` vectors nearest a query among those given one by one (a bounded read, or
/// every project's): up to [`CENTRED_UP_TO`] kept and compared from their own mean at the
/// end, as a project's held vectors are from theirs; past that, as they come.
pub struct Scan {
    query: Vec<f32>,
    kind: Option<String>,
    limit: usize,
    ids: Vec<i64>,
    vectors: Vec<Quantized>,
    centre: Centre,
    /// Once past [`CENTRED_UP_TO`]: the query quantized, and the best so far.
    streaming: Option<(Quantized, Vec<(f32, i64)>)>,
}

impl Scan {
    /// A scan for the `limit` entries (of `kind`) nearest `query`.
    pub fn new(query: &[f32], kind: Option<&str>, limit: usize) -> Self {
        Self {
            query: query.to_vec(),
            kind: kind.map(str::to_owned),
            limit,
            ids: Vec::new(),
            vectors: Vec::new(),
            centre: Centre::default(),
            streaming: None,
        }
    }

    /// Take one stored vector (every kind counts toward the mean).
    pub fn add(&mut self, s: &Stored) {
        let Some(v) = Quantized::from_bytes(&s.vec, self.query.len()) else { return };
        let wanted = self.kind.as_deref().is_none_or(|k| k == s.kind);
        if self.streaming.is_none() && self.vectors.len() == CENTRED_UP_TO {
            let q = Quantized::new(&self.query);
            let held: Vec<(f32, i64)> = self
                .vectors
                .drain(..)
                .zip(self.ids.drain(..))
                .filter(|(_, id)| *id != i64::MIN)
                .map(|(v, id)| (dot_i8(&q.values, &v.values) as f32 * q.scale * v.scale, id))
                .collect();
            self.streaming = Some((q, top(held, self.limit)));
        }
        if let Some((q, best)) = &mut self.streaming {
            if wanted {
                best.push((dot_i8(&q.values, &v.values) as f32 * q.scale * v.scale, s.id));
                if best.len() > self.limit.max(64) * 16 {
                    *best = top(std::mem::take(best), self.limit);
                }
            }
            return;
        }
        self.centre.put(self.vectors.len(), &v, None);
        self.ids.push(if wanted { s.id } else { i64::MIN });
        self.vectors.push(v);
    }

    /// The ids and cosines of the nearest, best first.
    pub fn finish(mut self) -> Vec<(i64, f32)> {
        if let Some((_, best)) = self.streaming {
            return top(best, self.limit).into_iter().map(|(s, id)| (id, s)).collect();
        }
        if self.vectors.len() >= CENTRED_FROM {
            let vectors = &self.vectors;
            self.centre.retake(vectors.len(), |i| vectors[i].clone());
        }
        let q = self.centre.query(&self.query);
        let scored: Vec<(f32, i64)> = self
            .vectors
            .iter()
            .zip(&self.ids)
            .enumerate()
            .filter(|(_, (_, id))| **id != i64::MIN)
            .map(|(i, (v, id))| (self.centre.score(&q, i, dot_i8(&q.values.values, &v.values), v.scale), *id))
            .collect();
        top(scored, self.limit).into_iter().map(|(s, id)| (id, s)).collect()
    }
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
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// Vectors in a list, as a database would keep them.
    #[derive(Default)]
    struct Db {
        rows: RefCell<Vec<(i64, i64, Vec<u8>)>>,
        epoch: RefCell<(i64, i64)>,
        reads: RefCell<usize>,
    }

    impl Db {
        fn store(&self, id: i64, v: &[f32]) {
            let mut e = self.epoch.borrow_mut();
            e.0 += 1;
            let mut rows = self.rows.borrow_mut();
            rows.retain(|r| r.0 != id);
            rows.push((id, e.0, Quantized::new(v).to_bytes()));
        }
    }

    impl Source for Db {
        fn epoch(&self, _: i64) -> Result<(i64, i64)> {
            Ok(*self.epoch.borrow())
        }
        fn since(&self, _: i64, _: &str, seq: i64, f: &mut dyn FnMut(Stored)) -> Result<()> {
            for (id, s, vec) in self.rows.borrow().iter().filter(|r| r.1 > seq) {
                *self.reads.borrow_mut() += 1;
                f(Stored { id: *id, kind: "note".into(), seq: *s, vec: vec.clone() });
            }
            Ok(())
        }
        fn vectors_of(&self, _: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()> {
            for (id, s, vec) in self.rows.borrow().iter().filter(|r| ids.contains(&r.0)) {
                f(Stored { id: *id, kind: String::new(), seq: *s, vec: vec.clone() });
            }
            Ok(())
        }
    }

    fn unit(i: usize) -> Vec<f32> {
        let mut v = vec![0.0; 4];
        v[i] = 1.0;
        v
    }

    #[test]
    fn older_entries_stored_after_newer_ones_are_read_and_changed_ones_replaced() {
        let (db, cache) = (Db::default(), Cache::default());
        let nearest = |q: usize| cache.nearest(&db, 1, "m", &unit(q), None, 1).unwrap()[0].0;
        // A backfill stores the newest entry first.
        db.store(30, &unit(0));
        assert_eq!(nearest(0), 30);
        db.store(10, &unit(1));
        db.store(20, &unit(2));
        assert_eq!((nearest(1), nearest(2)), (10, 20), "read though their ids are lower");
        assert_eq!(*db.reads.borrow(), 3, "each vector read once");
        // Entry 30 is rewritten and embedded again: it moves, and nothing is read twice.
        db.store(30, &unit(3));
        assert_eq!(nearest(3), 30);
        let old = cache.nearest(&db, 1, "m", &unit(0), None, 3).unwrap();
        assert!(old.iter().all(|(_, s)| *s < 0.5), "the old vector is gone: {old:?}");
        assert_eq!(old.len(), 3);
        assert_eq!(*db.reads.borrow(), 4);
        // A removal reads the project again.
        db.epoch.borrow_mut().1 += 1;
        assert_eq!(nearest(3), 30);
        assert_eq!(*db.reads.borrow(), 7);
    }

    #[test]
    fn vectors_held_ahead_are_not_read_again_by_the_first_search() {
        let (db, cache) = (Db::default(), Cache::default());
        (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
        cache.hold(&db, &[1], "m", 4).unwrap();
        assert_eq!(*db.reads.borrow(), 3);
        assert_eq!(cache.nearest(&db, 1, "m", &unit(2), None, 1).unwrap()[0].0, 3);
        assert_eq!(*db.reads.borrow(), 3, "the search compared what was held");
    }

    #[test]
    fn vectors_stored_since_are_added_to_the_held_copy_in_place_not_to_a_copy_of_it() {
        let (db, cache) = (Db::default(), Cache::default());
        (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
        cache.hold(&db, &[1], "m", 4).unwrap();
        let held = |c: &Cache| Arc::as_ptr(&c.lock()[&1]) as usize;
        let before = held(&cache);
        db.store(4, &unit(3));
        assert_eq!(cache.nearest(&db, 1, "m", &unit(3), None, 1).unwrap()[0].0, 4);
        assert_eq!(held(&cache), before, "updated where it was held: no search held it meanwhile");
        // A search in another thread holding the copy keeps its own: that one is copied.
        let kept = cache.lock()[&1].clone();
        db.store(5, &unit(0));
        assert_eq!(cache.nearest(&db, 1, "m", &unit(0), None, 2).unwrap().len(), 2);
        assert_ne!(held(&cache), before);
        assert_eq!(kept.ids.len(), 4, "the copy a search holds does not change under it");
    }

    #[test]
    fn a_small_project_never_held_is_held_by_its_first_bounded_search_and_a_big_one_is_not() {
        let (db, cache) = (Db::default(), Cache::default());
        (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
        let newest = |c: &Cache, n| c.nearest_newest(&db, 1, "m", &unit(2), None, 1, n).unwrap();
        assert_eq!(newest(&cache, 2), None, "bigger than the newest asked for: the bounded read");
        assert!(cache.lock().is_empty());
        assert_eq!(newest(&cache, 2_000).unwrap()[0].0, 3);
        assert!(cache.lock().contains_key(&1), "held from then on");
        db.store(4, &unit(3));
        let reads = *db.reads.borrow();
        assert_eq!(cache.nearest_newest(&db, 1, "m", &unit(3), None, 1, 2_000).unwrap().unwrap()[0].0, 4);
        assert_eq!(*db.reads.borrow(), reads + 1, "only what was stored since is read");
    }

    /// A vector of `dim` dimensions leaning on one shared axis, with its own topic `t`.
    fn topic(t: usize, dim: usize) -> Vec<f32> {
        let mut x = (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut v: Vec<f32> = (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 1_000) as f32 / 1_000.0 - 0.5
            })
            .collect();
        v[0] += 2.0;
        v
    }

    #[test]
    fn a_big_project_found_through_its_sketches_gives_the_exact_nearest_held_whole_or_not() {
        let dim = 64;
        let db = Db::default();
        let n = SKETCH_FROM + 1_000;
        for id in 0..n as i64 {
            db.store(id, &topic(id as usize, dim));
        }
        // The question is entry 4242 with a little noise.
        let mut question = topic(4242, dim);
        question.iter_mut().enumerate().for_each(|(d, x)| *x += if d % 3 == 0 { 0.02 } else { -0.01 });
        let whole = Cache::default();
        let exact = whole.nearest_exactly(&db, 1, "m", &question, 5).unwrap();
        assert_eq!(exact[0].0, 4242);
        let found = whole.nearest(&db, 1, "m", &question, None, 5).unwrap();
        assert_eq!(found, exact, "the shortlist holds the exact five nearest");
        // With no room for whole vectors the project is held by its sketches, and the
        // shortlist's vectors are read back: the same answer.
        let sketched = Cache { most_bytes: 0, ..Cache::default() };
        *db.reads.borrow_mut() = 0;
        let found = sketched.nearest(&db, 1, "m", &question, None, 5).unwrap();
        assert_eq!(found, exact);
        assert!(*db.reads.borrow() < n + shortlist_len(5) + 1, "read once, then the shortlist");
        // An entry embedded again: a sketched project cannot replace it in place, so it is
        // read again, and the new vector counts.
        db.store(17, &question);
        assert_eq!(sketched.nearest(&db, 1, "m", &question, None, 1).unwrap()[0].0, 17);
    }

    #[test]
    fn every_project_is_compared_from_its_own_centre_and_the_best_of_all_come_first() {
        let dim = 32;
        let db = Db::default();
        for id in 0..200 {
            db.store(id, &topic(id as usize, dim));
        }
        let cache = Cache::default();
        // The same source stands for two projects (ids 1 and 2): each entry is found
        // twice, once per project, with the same score.
        let found = cache.nearest_in(&db, &[1, 2], "m", &topic(77, dim), None, 2).unwrap();
        assert_eq!(found.iter().map(|f| f.0).collect::<Vec<_>>(), [77, 77]);
        assert!((found[0].1 - found[1].1).abs() < 1e-6 && found[0].1 > 0.9, "{found:?}");
    }

    #[test]
    fn a_scan_past_what_it_holds_still_finds_the_nearest() {
        for n in [100, CENTRED_UP_TO + 500] {
            let mut scan = Scan::new(&unit(2), None, 3);
            for id in 0..n as i64 {
                // Every vector leans on axis 0; one (id 7) points along axis 2.
                let v = if id == 7 { unit(2) } else { vec![0.9, 0.1 * (id % 5) as f32, 0.0, 0.3] };
                scan.add(&Stored { id, kind: "note".into(), seq: id, vec: Quantized::new(&v).to_bytes() });
            }
            assert_eq!(scan.finish()[0].0, 7, "{n} vectors");
        }
    }
}
