//! Sentence embeddings for search by meaning, with no model runtime to fetch: a static
//! embedding model — each token has a learned vector; a text's vector is the average of
//! its tokens', normalised — read from files `scripts/fetch-model.sh` takes out of a
//! pinned PyPI wheel (WordLlama's l2_supercat, 256 dimensions, MIT). For re-ranking, an
//! optional sentence encoder (all-MiniLM-L6-v2, Apache-2.0) from another pinned wheel.

use std::path::{Path, PathBuf};

mod bpe;
mod encoder;
mod quant;
mod widen;
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
pub use quant::{Quantized, dot_i8, dots_i8, dots_i8_at};

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
    /// The weights file, mapped: only the rows a text's tokens name are ever read in, so
    /// a process that embeds a prompt holds a few pages of the 16 MB table, not a copy.
    weights: memmap2::Mmap,
    /// Where the table (row-major, `vocab × dim`, F16 little-endian) lies in `weights`.
    table: std::ops::Range<usize>,
    rows: usize,
    dim: usize,
}

/// Longest text embedded, in tokens (the rest adds little to an average).
const MOST_TOKENS: usize = 512;

impl Model {
    /// Load `weights.safetensors` (mapped, not read) and `tokenizer.json` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let weights = dir.join("weights.safetensors");
        let name = |p: &Path| p.display().to_string();
        let read = |e: std::io::Error| Error::Read { file: name(&weights), why: e.to_string() };
        let file = std::fs::File::open(&weights).map_err(read)?;
        // SAFETY: the file is the model `scripts/fetch-model.sh` installed and nothing
        // writes it while Mooring runs; a rewrite in place would change vectors, never
        // memory safety of anything but this read-only byte view.
        let mapped = unsafe { memmap2::Mmap::map(&file) }.map_err(read)?;
        let format = |why: String| Error::Format { file: name(&weights), why };
        let (table, rows, dim) = {
            let tensors =
                safetensors::SafeTensors::deserialize(&mapped).map_err(|e| format(e.to_string()))?;
            let table = tensors.tensor("embedding.weight").map_err(|e| format(e.to_string()))?;
            let [rows, dim] = table.shape() else {
                return Err(format(format!(
                    "embedding.weight has shape {:?}, not rows × dim",
                    table.shape()
                )));
            };
            if table.dtype() != safetensors::Dtype::F16 {
                return Err(format(format!("embedding.weight is {:?}, not F16", table.dtype())));
            }
            if *rows == 0 || *dim == 0 || table.data().len() != rows * dim * 2 {
                return Err(format("embedding.weight is shorter than its shape".into()));
            }
            let start = table.data().as_ptr() as usize - mapped.as_ptr() as usize;
            (start..start + table.data().len(), *rows, *dim)
        };
        let bpe = tokenizer(dir)?;
        Ok(Self { bpe, weights: mapped, table, rows, dim })
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
        let table = &self.weights[self.table.clone()];
        let mut n = 0usize;
        for id in self.bpe.encode(text).into_iter().take(MOST_TOKENS) {
            let id = (id as usize).min(self.rows - 1);
            widen::add_row(&mut out, &table[id * self.dim * 2..(id + 1) * self.dim * 2]);
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

/// The model's tokenizer: from its compact form beside `tokenizer.json` when that was made
/// from this very file, else from the JSON, leaving the compact form for the next process
/// (where the folder is writable; a model installed read-only is read from the JSON each
/// time).
fn tokenizer(dir: &Path) -> Result<bpe::Bpe, Error> {
    let tok_file = dir.join("tokenizer.json");
    let name = |p: &Path| p.display().to_string();
    let read = |e: std::io::Error| Error::Read { file: name(&tok_file), why: e.to_string() };
    let meta = std::fs::metadata(&tok_file).map_err(read)?;
    let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
    let key = [meta.len(), modified.map_or(0, |d| d.as_nanos() as u64)];
    let compact = dir.join("tokenizer.mooring");
    if let Some(bpe) = std::fs::read(&compact).ok().and_then(|b| bpe::Bpe::from_compact(&b, key)) {
        return Ok(bpe);
    }
    let text = std::fs::read_to_string(&tok_file).map_err(read)?;
    let bpe = bpe::Bpe::from_json(&text).map_err(|why| Error::Format { file: name(&tok_file), why })?;
    // Written whole under another name, then renamed: a reader sees all of it or none.
    let partial = dir.join(format!("tokenizer.mooring.{}", std::process::id()));
    if std::fs::write(&partial, bpe.to_compact(key))
        .and_then(|()| std::fs::rename(&partial, &compact))
        .is_err()
    {
        let _ = std::fs::remove_file(&partial);
    }
    Ok(bpe)
}
