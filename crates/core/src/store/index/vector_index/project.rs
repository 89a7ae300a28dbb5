//! One project's vectors as the cache holds them: ids, kinds and scales side by side, the
//! values end to end (or only their sketches, for a big project), its centre, and its
//! positions in id order for a search of its newest entries.

use std::collections::HashMap;

use mooring_embed::Quantized;

use super::Stored;
use super::centre::{Centre, Query};
use super::sketch::{self, SKETCH_FROM, shortlist_len};
use crate::model::Kind;

/// One project's vectors.
#[derive(Default, Clone)]
pub(super) struct Project {
    pub(super) epoch: (i64, i64),
    pub(super) model: String,
    pub(super) dim: usize,
    pub(super) seq: i64,
    pub(super) at: HashMap<i64, usize>,
    pub(super) ids: Vec<i64>,
    pub(super) kinds: Vec<u8>,
    pub(super) scales: Vec<f32>,
    /// Every vector's values, end to end; none when held by sketches only (`sketched`).
    pub(super) values: Vec<i8>,
    pub(super) sketched: bool,
    pub(super) centre: Centre,
    /// Positions by their entry's id, oldest first: a bounded search's newest entries.
    pub(super) by_id: Vec<u32>,
    /// `by_id` needs sorting (vectors came out of id order: a backfill goes newest first).
    pub(super) unsorted: bool,
}

impl Project {
    /// Take one vector; false when it replaces one a sketched project no longer holds
    /// (the project must then be read again).
    pub(super) fn put(&mut self, s: Stored) -> bool {
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
    pub(super) fn order(&mut self) {
        if self.unsorted {
            let ids = &self.ids;
            self.by_id.sort_unstable_by_key(|&p| ids[p as usize]);
            self.unsorted = false;
        }
    }

    pub(super) fn vector(&self, i: usize) -> Quantized {
        Quantized { scale: self.scales[i], values: self.values[i * self.dim..(i + 1) * self.dim].to_vec() }
    }

    /// Take the centre again if the project has changed enough since; false when that
    /// needs the vectors of a sketched project (read it again).
    pub(super) fn recentre(&mut self) -> bool {
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
    pub(super) fn compared_whole(&self) -> bool {
        self.ids.len() < SKETCH_FROM && !self.sketched
    }

    /// The positions (of `want`'s kind) whose sketches are nearest `q`'s, with the bits
    /// they differ in: what a search for `limit` hits compares exactly.
    pub(super) fn shortlist(&self, q: &Query, want: Option<u8>, limit: usize) -> Vec<(f32, usize)> {
        let keep = |i: usize| want.is_none_or(|k| self.kinds[i] == k);
        // Scaled to a cosine's range, so shortlists of different projects compare.
        let moved = q.moved();
        let norm = moved.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6) * (self.dim as f32).sqrt();
        let mut near = sketch::nearest(&moved, self.centre.sketches(), keep, shortlist_len(limit));
        near.iter_mut().for_each(|n| n.0 /= norm);
        near
    }
}

pub(super) fn kind_code(kind: &str) -> u8 {
    Kind::ALL.iter().position(|k| k.as_str() == kind).map_or(u8::MAX, |i| i as u8)
}
