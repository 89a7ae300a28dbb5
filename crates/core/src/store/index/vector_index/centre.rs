//! A project's vectors compared from their centre. Static embeddings share one direction:
//! every text's vector leans toward the mean of all text, and short ones ("Thanks, that
//! works!", "Bye!") are little else, so they sit near every question at once (hubs). The
//! cosine of what is left after subtracting the project's mean vector compares what
//! entries say that their neighbours do not.
//!
//! The mean is kept as a running sum; the centre the scores use is a snapshot of it,
//! taken again when the project has grown or shrunk by a tenth, so an entry's offset from
//! the centre (`v·c`, `|v − c|`) is computed once per snapshot, not per search.

use mooring_embed::Quantized;

use crate::store::index::vector_index::sketch;

/// Fewer vectors than this have no mean worth subtracting (with two, each is the other's
/// opposite): they are compared as they are.
pub const CENTRED_FROM: usize = 50;

/// The least distance from the centre a score divides by, as a share of the mean
/// distance: entries nearer the centre than that say little beyond what all entries say
/// (short chatty ones), and dividing by their small distance would blow their leftover
/// noise up into a direction as strong as any.
const FLOOR: f32 = 1.0;

/// The centre and each vector's offset from it, by the vector's position.
#[derive(Default, Clone)]
pub struct Centre {
    sum: Vec<f64>,
    count: usize,
    /// The snapshot in use (empty: none, cosines as stored).
    centre: Vec<f32>,
    centre_norm2: f32,
    /// The least `|v − c|` a score divides by (see [`FLOOR`]).
    floor: f32,
    taken_at: usize,
    /// `v·c` per position.
    dot: Vec<f32>,
    /// `1 / |v − c|` per position.
    inverse: Vec<f32>,
    /// Whether sketches are kept: a project held between searches wants them, a scan
    /// that compares every vector it reads once does not.
    sketching: bool,
    /// The sign sketch of `v − c` per position, end to end (see `vector_sketch`).
    sketches: Vec<u64>,
}

/// A query ready to score against a centred project.
pub struct Query {
    /// `q − c`, quantized.
    pub values: Quantized,
    /// `(q − c)·c`.
    offset: f32,
    /// `1 / |q − c|`.
    inverse: f32,
}

impl Query {
    /// Its values from the centre (as quantized), to compare with [`Centre::sketches`].
    pub fn moved(&self) -> Vec<f32> {
        self.values.values.iter().map(|&v| f32::from(v)).collect()
    }
}

fn dequantized(q: &Quantized) -> impl Iterator<Item = f32> + '_ {
    q.values.iter().map(move |&v| f32::from(v) * q.scale)
}

impl Centre {
    /// A centre that also keeps each vector's sketch.
    pub fn sketching() -> Self {
        Self { sketching: true, ..Self::default() }
    }

    /// Count vector `v` in at position `at` (one past the last for a new one), replacing
    /// `old` there if it had one.
    pub fn put(&mut self, at: usize, v: &Quantized, old: Option<&Quantized>) {
        if self.sum.len() != v.values.len() {
            self.sum = vec![0.0; v.values.len()];
        }
        if let Some(old) = old {
            self.sum.iter_mut().zip(dequantized(old)).for_each(|(s, x)| *s -= f64::from(x));
        } else {
            self.count += 1;
        }
        self.sum.iter_mut().zip(dequantized(v)).for_each(|(s, x)| *s += f64::from(x));
        let (dot, inverse) = self.offset(v);
        if at == self.dot.len() {
            self.dot.push(dot);
            self.inverse.push(inverse);
        } else {
            self.dot[at] = dot;
            self.inverse[at] = inverse;
        }
        self.set_sketch(at, v);
    }

    /// Write position `at`'s sketch (one past the last: append it).
    fn set_sketch(&mut self, at: usize, v: &Quantized) {
        if !self.sketching {
            return;
        }
        let dim = v.values.len();
        let w = sketch::words(dim);
        let mut bits = Vec::with_capacity(w);
        if self.centre.is_empty() {
            sketch::push(dequantized(v), dim, &mut bits);
        } else {
            sketch::push(dequantized(v).zip(&self.centre).map(|(x, c)| x - c), dim, &mut bits);
        }
        if (at + 1) * w <= self.sketches.len() {
            self.sketches[at * w..(at + 1) * w].copy_from_slice(&bits);
        } else {
            self.sketches.extend_from_slice(&bits);
        }
    }

    /// Every position's sketch, end to end.
    pub fn sketches(&self) -> &[u64] {
        &self.sketches
    }

    /// Whether the snapshot is due: the project changed size by a tenth since (or has
    /// reached the size where centring starts).
    pub fn due(&self) -> bool {
        let drift = self.count.abs_diff(self.taken_at);
        self.count >= CENTRED_FROM && (self.centre.is_empty() || drift * 10 > self.taken_at)
    }

    /// Take the snapshot again from the running sum, recomputing every offset from the
    /// vectors (`each(i)` gives position `i`'s).
    pub fn retake<'a>(&mut self, n: usize, each: impl Fn(usize) -> Quantized + 'a) {
        let count = self.count.max(1) as f64;
        self.centre = self.sum.iter().map(|s| (s / count) as f32).collect();
        self.centre_norm2 = self.centre.iter().map(|c| c * c).sum();
        self.taken_at = self.count;
        self.floor = 0.0;
        let mut total = 0f64;
        for i in 0..n {
            let (_, inverse) = self.offset(&each(i));
            total += f64::from(1.0 / inverse);
        }
        self.floor = FLOOR * (total / n.max(1) as f64) as f32;
        for i in 0..n {
            let v = each(i);
            let (dot, inverse) = self.offset(&v);
            self.dot[i] = dot;
            self.inverse[i] = inverse;
            self.set_sketch(i, &v);
        }
    }

    fn offset(&self, v: &Quantized) -> (f32, f32) {
        if self.centre.is_empty() {
            return (0.0, 1.0);
        }
        let (mut dot, mut norm2) = (0f32, 0f32);
        for (x, c) in dequantized(v).zip(&self.centre) {
            dot += x * c;
            norm2 += x * x;
        }
        let left = (norm2 - 2.0 * dot + self.centre_norm2).max(1e-12).sqrt();
        (dot, 1.0 / left.max(self.floor))
    }

    /// `query` made ready for [`Centre::score`].
    pub fn query(&self, query: &[f32]) -> Query {
        if self.centre.is_empty() {
            return Query { values: Quantized::new(query), offset: 0.0, inverse: 1.0 };
        }
        let moved: Vec<f32> = query.iter().zip(&self.centre).map(|(q, c)| q - c).collect();
        let offset = moved.iter().zip(&self.centre).map(|(m, c)| m * c).sum();
        let norm = moved.iter().map(|m| m * m).sum::<f32>().sqrt().max(1e-6);
        Query { values: Quantized::new(&moved), offset, inverse: 1.0 / norm }
    }

    /// The cosine of `q − c` and `v − c` for the vector at `at`, given `q`'s product with
    /// it as quantized integers (`dot_i8`) and its scale.
    pub fn score(&self, q: &Query, at: usize, products: i32, scale: f32) -> f32 {
        let raw = products as f32 * q.values.scale * scale;
        (raw - q.offset) * self.inverse[at] * q.inverse
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_near_the_mean_stops_ranking_first_for_everything_once_centred() {
        // Sixty vectors share a strong common direction (axis 0) and each has one topic
        // axis; a hub is the common direction alone, as a short chatty entry is.
        let dim = 64;
        let topic = |t: usize| {
            let mut v = vec![0f32; dim];
            v[0] = 0.8;
            v[1 + t % 60] = 0.6;
            Quantized::new(&v)
        };
        let mut hub = vec![0f32; dim];
        hub[0] = 1.0;
        let hub = Quantized::new(&hub);
        let mut stored: Vec<Quantized> = (0..60).map(topic).collect();
        stored.push(hub);
        let mut centre = Centre::default();
        for (i, v) in stored.iter().enumerate() {
            centre.put(i, v, None);
        }
        let best = |centre: &Centre, query: &[f32]| {
            let q = centre.query(query);
            (0..stored.len())
                .map(|i| {
                    let p = mooring_embed::dot_i8(&q.values.values, &stored[i].values);
                    (centre.score(&q, i, p, stored[i].scale), i)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap()
                .1
        };
        // A question about topic 7 in other words: mostly the common direction.
        let mut question = vec![0f32; dim];
        question[0] = 0.95;
        question[8] = 0.3;
        assert_eq!(best(&centre, &question), 60, "uncentred, the hub wins");
        assert!(centre.due());
        centre.retake(stored.len(), |i| stored[i].clone());
        assert_eq!(best(&centre, &question), 7, "centred, the topic wins");
        assert!(!centre.due(), "a snapshot holds until the project changes by a tenth");
        for i in 0..7 {
            centre.put(stored.len(), &topic(i), None);
            stored.push(topic(i));
        }
        assert!(centre.due());
    }
}
