//! The team database's upkeep: vectors made and counted, held ready.

use mooring_core::Result;
use mooring_core::store::backend::{Embedder, MemoryUpkeep, VectorProgress};

use crate::PgStore;

impl MemoryUpkeep for PgStore {
    fn warm_vectors(&self, model: &str, dim: usize) -> Result<()> {
        self.warm_in_team(model, dim)
    }

    fn vector_progress(&self, project: Option<&str>) -> Result<Option<VectorProgress>> {
        Ok(Some(self.vectors_in_team(project, false)?))
    }

    fn index_vectors(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        Ok(Some(self.index_in_team(model, limit, embed)?))
    }
}
