//! A scan of vectors handed over one by one (a short-lived process's bounded read, or
//! every project's), keeping the nearest: what a search by meaning uses where no copy of
//! the project's vectors is held.

use mooring_embed::{Quantized, dot_i8};

use super::centre::{CENTRED_FROM, Centre};
use super::{Stored, top};

/// Vectors a scan holds to compare them from their own mean: a prompt hook's bounded
/// read (10,000) fits; past this (every project of a large store) it compares them as
/// they come, from no centre, holding only the best.
pub(super) const CENTRED_UP_TO: usize = 20_000;

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
