//! Vectors compared in memory, whichever database keeps them. A project's vectors are
//! held between searches (reading 100,000 of them takes longer than a whole search may)
//! and checked against the project's epoch at every search: vectors stored since (new
//! entries, or changed ones embedded again) are read on top, by the order they were
//! stored in; any removed (forgotten entries) means reading the project again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mooring_embed::{Quantized, dot_i8, dots_i8};

use crate::error::Result;
use crate::model::Kind;
use crate::vector_centre::{CENTRED_FROM, Centre};

/// Most vector bytes held over all projects (about 180,000 of 260 bytes).
const MOST_BYTES: usize = 48 << 20;

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
    values: Vec<i8>,
    centre: Centre,
}

impl Project {
    fn put(&mut self, s: Stored) {
        self.seq = self.seq.max(s.seq);
        let Some(q) = Quantized::from_bytes(&s.vec, self.dim) else { return };
        let kind = kind_code(&s.kind);
        // A changed entry embedded again replaces its old vector in place.
        if let Some(&i) = self.at.get(&s.id) {
            let old = self.vector(i);
            self.centre.put(i, &q, Some(&old));
            self.kinds[i] = kind;
            self.scales[i] = q.scale;
            self.values[i * self.dim..(i + 1) * self.dim].copy_from_slice(&q.values);
            return;
        }
        self.centre.put(self.ids.len(), &q, None);
        self.at.insert(s.id, self.ids.len());
        self.ids.push(s.id);
        self.kinds.push(kind);
        self.scales.push(q.scale);
        self.values.extend_from_slice(&q.values);
    }

    fn vector(&self, i: usize) -> Quantized {
        Quantized { scale: self.scales[i], values: self.values[i * self.dim..(i + 1) * self.dim].to_vec() }
    }

    /// Take the centre again if the project has changed enough since.
    fn recentre(&mut self) {
        if self.centre.due() {
            let mut centre = std::mem::take(&mut self.centre);
            centre.retake(self.ids.len(), |i| self.vector(i));
            self.centre = centre;
        }
    }

    fn bytes(&self) -> usize {
        self.values.len() + self.ids.len() * 29
    }
}

fn kind_code(kind: &str) -> u8 {
    Kind::ALL.iter().position(|k| k.as_str() == kind).map_or(u8::MAX, |i| i as u8)
}

/// The copies, by project id (a project id names one database's project: one cache per
/// database).
#[derive(Default)]
pub struct Cache {
    projects: Mutex<HashMap<i64, Arc<Project>>>,
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
        let project = self.current(source, project_id, model, query.len())?;
        let want = kind.map(kind_code);
        // The query quantized too: integer products are a third of the scan's time.
        let q = project.centre.query(query);
        let mut products = Vec::with_capacity(project.ids.len());
        dots_i8(&q.values.values, &project.values, &mut products);
        let mut scored: Vec<(f32, usize)> = Vec::with_capacity(project.ids.len());
        for (i, (&p, &scale)) in products.iter().zip(&project.scales).enumerate() {
            if want.is_none_or(|k| project.kinds[i] == k) {
                scored.push((project.centre.score(&q, i, p, scale), i));
            }
        }
        Ok(top(scored, limit).into_iter().map(|(s, i)| (project.ids[i], s)).collect())
    }

    fn current(&self, source: &dyn Source, project_id: i64, model: &str, dim: usize) -> Result<Arc<Project>> {
        let epoch = source.epoch(project_id)?;
        let held = self.lock().get(&project_id).cloned();
        let same = |p: &Project| p.model == model && p.dim == dim && p.epoch.1 == epoch.1;
        let fresh = match held {
            Some(p) if same(&p) && p.epoch.0 == epoch.0 => return Ok(p),
            Some(mut p) if same(&p) => {
                // Only stored since: read those on top (copied only if a search in
                // another thread still holds this copy).
                let next = Arc::make_mut(&mut p);
                next.epoch = epoch;
                source.since(project_id, model, next.seq, &mut |s| next.put(s))?;
                next.recentre();
                p
            }
            _ => {
                let mut next = Project { epoch, model: model.to_owned(), dim, ..Project::default() };
                source.since(project_id, model, 0, &mut |s| next.put(s))?;
                next.recentre();
                Arc::new(next)
            }
        };
        let mut projects = self.lock();
        let others: usize =
            projects.iter().filter(|(id, _)| **id != project_id).map(|(_, p)| p.bytes()).sum();
        if others + fresh.bytes() > MOST_BYTES {
            projects.clear();
        }
        projects.insert(project_id, fresh.clone());
        Ok(fresh)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<Project>>> {
        self.projects.lock().unwrap_or_else(|p| p.into_inner())
    }
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
