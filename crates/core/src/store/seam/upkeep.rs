//! The SQLite store's upkeep: vectors made and counted, the keyword index tidied,
//! vectors held ready.

use crate::error::Result;
use crate::store::backend::{Embedder, MemoryUpkeep, VectorProgress};
use crate::store::projects::find_row;
use crate::store::{Store, rerank_vectors, vectors};

impl MemoryUpkeep for Store {
    fn vector_progress(&self, project: Option<&str>) -> Result<Option<VectorProgress>> {
        self.read(|c| {
            let id = project.map(|slug| find_row(c, "project", slug).map(|p| p.id)).transpose()?;
            let (waiting, stored) = vectors::progress(c, id)?;
            Ok(Some(VectorProgress { waiting, stored }))
        })
    }

    fn warm_vectors(&self, model: &str, dim: usize) -> Result<()> {
        self.read_passing(|c| self.vectors.hold(&vectors::Sqlite(c), &vectors::projects(c)?, model, dim))
    }

    fn tidy_index(&self) -> Result<()> {
        self.write(|tx| crate::store::index::keyword::merge_index(tx))
    }

    fn index_vectors(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        let pending = self.read(|c| vectors::pending(c, limit))?;
        self.store_made(&pending, embed, |tx, p, v| vectors::put(tx, p, model, v)).map(Some)
    }

    fn index_rerank(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        let pending = self.read(|c| rerank_vectors::pending(c, model, limit))?;
        self.store_made(&pending, embed, |tx, p, v| rerank_vectors::put(tx, p, model, v)).map(Some)
    }

    fn rerank_waiting(&self, model: &str) -> Result<Option<u64>> {
        self.read(|c| rerank_vectors::waiting(c, model)).map(Some)
    }
}

impl Store {
    /// Make each pending entry's vector with `embed` (outside the write lock, stopping at
    /// the first it cannot make) and store them in one transaction with `put`, which skips
    /// an entry written since; how many were stored.
    fn store_made(
        &self,
        pending: &[vectors::Pending],
        embed: &Embedder<'_>,
        put: impl Fn(&rusqlite::Connection, &vectors::Pending, &[u8]) -> Result<bool>,
    ) -> Result<usize> {
        let made: Vec<Vec<u8>> = pending.iter().map_while(|p| embed(&p.text)).collect();
        if made.is_empty() {
            return Ok(0);
        }
        self.write(|tx| {
            let mut n = 0;
            for (p, v) in pending.iter().zip(&made) {
                n += usize::from(put(tx, p, v)?);
            }
            Ok(n)
        })
    }
}
