//! A sentence encoder for re-ranking: all-MiniLM-L6-v2 (BERT, 6 layers, 384 wide, mean
//! pooled), run on the CPU with its matrix products by `matrixmultiply`. Read from the
//! files `scripts/fetch-model.sh --reranker` takes out of a pinned PyPI wheel.
//!
//! Written here rather than with candle: candle's stack took 5.6 minutes of a 2-core
//! release build on its own, and gave the same vectors (to 1e-5) in about the same time.

use std::path::Path;

use crate::Error;
use crate::wordpiece::WordPiece;

/// Longest text encoded, in tokens with the two markers (the model was trained to 256).
const MOST_TOKENS: usize = 256;
/// The model's width and heads.
const WIDTH: usize = 384;
const HEADS: usize = 12;
const LAYERS: usize = 6;
const LN_EPS: f32 = 1e-12;

/// A dense layer: `out × in` weights as stored (row-major), and a bias.
struct Linear {
    w: Vec<f32>,
    b: Vec<f32>,
    inputs: usize,
    outputs: usize,
}

/// A layer norm's gain and bias.
struct Norm {
    g: Vec<f32>,
    b: Vec<f32>,
}

struct Layer {
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    after_attention: Norm,
    up: Linear,
    down: Linear,
    after_ffn: Norm,
}

/// A loaded encoder.
pub struct Encoder {
    vocab: WordPiece,
    words: Vec<f32>,
    positions: Vec<f32>,
    segment: Vec<f32>,
    embedded: Norm,
    layers: Vec<Layer>,
}

impl Encoder {
    /// Load `model.safetensors` and `vocab.txt` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let file = dir.join("model.safetensors");
        let name = file.display().to_string();
        let bytes =
            std::fs::read(&file).map_err(|e| Error::Read { file: name.clone(), why: e.to_string() })?;
        let format = |why: String| Error::Format { file: name.clone(), why };
        let tensors = safetensors::SafeTensors::deserialize(&bytes).map_err(|e| format(e.to_string()))?;
        let get = |key: &str, shape: &[usize]| -> Result<Vec<f32>, Error> {
            let t = tensors
                .tensor(key)
                .or_else(|_| tensors.tensor(&format!("bert.{key}")))
                .map_err(|e| format(format!("{key}: {e}")))?;
            if t.dtype() != safetensors::Dtype::F32 || t.shape() != shape {
                return Err(format(format!("{key} is {:?} {:?}, not F32 {shape:?}", t.dtype(), t.shape())));
            }
            Ok(t.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
        };
        let linear = |key: &str, inputs: usize, outputs: usize| -> Result<Linear, Error> {
            Ok(Linear {
                w: get(&format!("{key}.weight"), &[outputs, inputs])?,
                b: get(&format!("{key}.bias"), &[outputs])?,
                inputs,
                outputs,
            })
        };
        let norm = |key: &str| -> Result<Norm, Error> {
            Ok(Norm {
                g: get(&format!("{key}.weight"), &[WIDTH])?,
                b: get(&format!("{key}.bias"), &[WIDTH])?,
            })
        };
        let vocab_file = dir.join("vocab.txt");
        let text = std::fs::read_to_string(&vocab_file)
            .map_err(|e| Error::Read { file: vocab_file.display().to_string(), why: e.to_string() })?;
        let vocab = WordPiece::from_vocab(&text)
            .map_err(|why| Error::Format { file: vocab_file.display().to_string(), why })?;
        let words = get("embeddings.word_embeddings.weight", &[vocab.size(), WIDTH])?;
        let positions = get("embeddings.position_embeddings.weight", &[512, WIDTH])?;
        let segments = get("embeddings.token_type_embeddings.weight", &[2, WIDTH])?;
        let mut layers = Vec::with_capacity(LAYERS);
        for i in 0..LAYERS {
            let p = format!("encoder.layer.{i}");
            layers.push(Layer {
                q: linear(&format!("{p}.attention.self.query"), WIDTH, WIDTH)?,
                k: linear(&format!("{p}.attention.self.key"), WIDTH, WIDTH)?,
                v: linear(&format!("{p}.attention.self.value"), WIDTH, WIDTH)?,
                o: linear(&format!("{p}.attention.output.dense"), WIDTH, WIDTH)?,
                after_attention: norm(&format!("{p}.attention.output.LayerNorm"))?,
                up: linear(&format!("{p}.intermediate.dense"), WIDTH, 4 * WIDTH)?,
                down: linear(&format!("{p}.output.dense"), 4 * WIDTH, WIDTH)?,
                after_ffn: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        Ok(Self {
            vocab,
            words,
            positions,
            segment: segments[..WIDTH].to_vec(),
            embedded: norm("embeddings.LayerNorm")?,
            layers,
        })
    }

    /// The vector's length.
    pub fn dim(&self) -> usize {
        WIDTH
    }

    /// The token ids `text` is encoded from, with the two markers.
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.vocab.encode(text, MOST_TOKENS)
    }

    /// `text`'s vector: the mean of its tokens' last hidden states, of unit length.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let ids = self.tokens(text);
        let n = ids.len();
        let mut x = vec![0f32; n * WIDTH];
        for (t, &id) in ids.iter().enumerate() {
            let word = &self.words[id as usize * WIDTH..][..WIDTH];
            let pos = &self.positions[t * WIDTH..][..WIDTH];
            for (j, o) in x[t * WIDTH..][..WIDTH].iter_mut().enumerate() {
                *o = word[j] + pos[j] + self.segment[j];
            }
        }
        layer_norm(&mut x, &self.embedded);
        let (mut q, mut k, mut v, mut ctx, mut proj) =
            (vec![], vec![], vec![], vec![0f32; n * WIDTH], vec![]);
        let mut hidden = vec![];
        for l in &self.layers {
            linear(&x, n, &l.q, &mut q);
            linear(&x, n, &l.k, &mut k);
            linear(&x, n, &l.v, &mut v);
            attend(&q, &k, &v, n, &mut ctx);
            linear(&ctx, n, &l.o, &mut proj);
            add(&mut x, &proj);
            layer_norm(&mut x, &l.after_attention);
            linear(&x, n, &l.up, &mut hidden);
            hidden.iter_mut().for_each(|h| *h = gelu(*h));
            linear(&hidden, n, &l.down, &mut proj);
            add(&mut x, &proj);
            layer_norm(&mut x, &l.after_ffn);
        }
        let mut out = vec![0f32; WIDTH];
        for row in x.chunks_exact(WIDTH) {
            add(&mut out, row);
        }
        let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt();
        if norm > 0.0 {
            out.iter_mut().for_each(|o| *o /= norm);
        }
        out
    }
}

/// `y = x Wᵀ + b` for `n` rows of `x`.
fn linear(x: &[f32], n: usize, l: &Linear, y: &mut Vec<f32>) {
    y.clear();
    y.extend((0..n).flat_map(|_| l.b.iter().copied()));
    debug_assert_eq!(x.len(), n * l.inputs);
    // SAFETY: x is n × inputs (row-major), w is outputs × inputs read as its transpose
    // (inputs × outputs with strides 1 and inputs), y is n × outputs; every extent is
    // within the buffers, whose lengths are checked at load or set just above.
    unsafe {
        matrixmultiply::sgemm(
            n,
            l.inputs,
            l.outputs,
            1.0,
            x.as_ptr(),
            l.inputs as isize,
            1,
            l.w.as_ptr(),
            1,
            l.inputs as isize,
            1.0,
            y.as_mut_ptr(),
            l.outputs as isize,
            1,
        );
    }
}

/// Scaled dot-product attention of each head, no mask (one text, no padding).
fn attend(q: &[f32], k: &[f32], v: &[f32], n: usize, out: &mut [f32]) {
    let d = WIDTH / HEADS;
    let scale = 1.0 / (d as f32).sqrt();
    let mut p = vec![0f32; n];
    out.fill(0.0);
    for h in 0..HEADS {
        for i in 0..n {
            let qi = &q[i * WIDTH + h * d..][..d];
            for (j, pj) in p.iter_mut().enumerate() {
                let kj = &k[j * WIDTH + h * d..][..d];
                *pj = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f32>() * scale;
            }
            let top = p.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            p.iter_mut().for_each(|x| {
                *x = (*x - top).exp();
                sum += *x;
            });
            let o = &mut out[i * WIDTH + h * d..][..d];
            for (j, pj) in p.iter().enumerate() {
                let w = pj / sum;
                let vj = &v[j * WIDTH + h * d..][..d];
                o.iter_mut().zip(vj).for_each(|(o, v)| *o += w * v);
            }
        }
    }
}

fn add(x: &mut [f32], y: &[f32]) {
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
}

fn layer_norm(x: &mut [f32], n: &Norm) {
    for row in x.chunks_exact_mut(WIDTH) {
        let mean = row.iter().sum::<f32>() / WIDTH as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / WIDTH as f32;
        let inv = 1.0 / (var + LN_EPS).sqrt();
        for ((v, g), b) in row.iter_mut().zip(&n.g).zip(&n.b) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

/// BERT's GELU, `x Φ(x)`, with erf to 1.5e-7 (Abramowitz and Stegun 7.1.26).
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x / std::f32::consts::SQRT_2))
}

fn erf(x: f32) -> f32 {
    let (sign, x) = if x < 0.0 { (-1.0, -x as f64) } else { (1.0, x as f64) };
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp()) as f32
}

#[cfg(test)]
#[path = "encoder_tests.rs"]
mod tests;
