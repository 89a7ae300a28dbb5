//! Sentence embeddings for search by meaning, with no model runtime to fetch: a static
//! embedding model — each token has a learned vector; a text's vector is the average of
//! its tokens', normalised — read from files `scripts/fetch-model.sh` takes out of a
//! pinned PyPI wheel (WordLlama's l2_supercat, 256 dimensions, MIT). For re-ranking, an
//! optional sentence encoder (all-MiniLM-L6-v2, Apache-2.0) from another pinned wheel.

use std::path::{Path, PathBuf};

mod bpe;
mod encoder;
mod quant;
mod wordpiece;

pub use encoder::Encoder;

/// The static embedding model (search by meaning): its directory under [`models_root`],
/// and the name stored with each vector, so vectors by another model are never compared.
pub const STATIC_MODEL: &str = "wordllama-l2-supercat-256";
/// The re-ranking encoder: its directory under [`models_root`], and its vectors' name.
pub const ENCODER_MODEL: &str = "all-minilm-l6-v2";

/// Where models are looked for: `$MOORING_MODELS`, by default `~/.cache/mooring-models`
/// (where `scripts/fetch-model.sh` puts them). The one place in Rust that says so.
pub fn models_root() -> PathBuf {
    std::env::var_os("MOORING_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| dirs::home_dir().unwrap_or_default().join(".cache").join("mooring-models"))
}
pub use quant::{Quantized, dot_i8, dots_i8};

/// What can go wrong loading or using the model.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model file is missing or unreadable.
    #[error("cannot read the model file {file}: {why}")]
    Read { file: String, why: String },
    /// A model file is not what the model needs.
    #[error("the model file {file} is not usable: {why}")]
    Format { file: String, why: String },
}

/// A loaded model.
pub struct Model {
    bpe: bpe::Bpe,
    /// Row-major, `vocab × dim`, F16 bits as stored (16 MB; F32 would double it).
    table: Vec<u16>,
    dim: usize,
}

/// Longest text embedded, in tokens (the rest adds little to an average).
const MOST_TOKENS: usize = 512;

impl Model {
    /// Load `weights.safetensors` and `tokenizer.json` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let weights = dir.join("weights.safetensors");
        let name = |p: &Path| p.display().to_string();
        let bytes =
            std::fs::read(&weights).map_err(|e| Error::Read { file: name(&weights), why: e.to_string() })?;
        let format = |why: String| Error::Format { file: name(&weights), why };
        let tensors = safetensors::SafeTensors::deserialize(&bytes).map_err(|e| format(e.to_string()))?;
        let table = tensors.tensor("embedding.weight").map_err(|e| format(e.to_string()))?;
        let [rows, dim] = table.shape() else {
            return Err(format(format!("embedding.weight has shape {:?}, not rows × dim", table.shape())));
        };
        if table.dtype() != safetensors::Dtype::F16 {
            return Err(format(format!("embedding.weight is {:?}, not F16", table.dtype())));
        }
        let table: Vec<u16> =
            table.data().chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
        if table.len() != rows * dim {
            return Err(format("embedding.weight is shorter than its shape".into()));
        }
        let tok_file = dir.join("tokenizer.json");
        let text = std::fs::read_to_string(&tok_file)
            .map_err(|e| Error::Read { file: name(&tok_file), why: e.to_string() })?;
        let bpe = bpe::Bpe::from_json(&text).map_err(|why| Error::Format { file: name(&tok_file), why })?;
        Ok(Self { bpe, table, dim: *dim })
    }

    /// The token ids of `text` (what `embed` averages).
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.bpe.encode(text)
    }

    /// The vector's length.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// `text`'s vector, of unit length (all zeros for a text with no known token).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut out = vec![0f32; self.dim];
        let rows = self.table.len() / self.dim;
        let mut n = 0usize;
        for id in self.bpe.encode(text).into_iter().take(MOST_TOKENS) {
            let id = (id as usize).min(rows - 1);
            let row = &self.table[id * self.dim..(id + 1) * self.dim];
            for (o, v) in out.iter_mut().zip(row) {
                *o += half::f16::from_bits(*v).to_f32();
            }
            n += 1;
        }
        let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt();
        if n > 0 && norm > 0.0 {
            for o in &mut out {
                *o /= norm;
            }
        }
        out
    }
}

/// The cosine of two unit vectors.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests;
