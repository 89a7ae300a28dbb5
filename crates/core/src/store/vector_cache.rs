//! A project's vectors held in memory between searches: reading 100,000 of them from
//! SQLite takes longer than the whole search may. The copy is checked against the
//! project's `vector_epochs` row at every search: vectors only added are read on top;
//! any removed means reading the project again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mooring_embed::{Quantized, dot_i8};
use rusqlite::Connection;

use super::vectors;
use crate::error::Result;
use crate::model::Kind;

/// Most vector bytes held over all projects (about 180,000 of 260 bytes).
const MOST_BYTES: usize = 48 << 20;

/// One project's vectors.
#[derive(Default)]
struct Project {
    epoch: (i64, i64),
    model: String,
    dim: usize,
    ids: Vec<i64>,
    kinds: Vec<u8>,
    scales: Vec<f32>,
    values: Vec<i8>,
}

impl Project {
    fn push(&mut self, s: vectors::Stored) {
        let Some(q) = Quantized::from_bytes(&s.vec, self.dim) else { return };
        self.ids.push(s.id);
        self.kinds.push(kind_code(&s.kind));
        self.scales.push(q.scale);
        self.values.extend_from_slice(&q.values);
    }

    fn bytes(&self) -> usize {
        self.values.len() + self.ids.len() * 13
    }
}

fn kind_code(kind: &str) -> u8 {
    Kind::ALL.iter().position(|k| k.as_str() == kind).map_or(u8::MAX, |i| i as u8)
}

/// The copies, by project id.
#[derive(Default)]
pub struct Cache {
    projects: Mutex<HashMap<i64, Arc<Project>>>,
}

impl Cache {
    /// The ids and cosines of project `project_id`'s `limit` entries (of `kind`) nearest
    /// `query`, best first.
    pub fn nearest(
        &self,
        conn: &Connection,
        project_id: i64,
        model: &str,
        query: &[f32],
        kind: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(i64, f32)>> {
        let project = self.current(conn, project_id, model, query.len())?;
        let want = kind.map(kind_code);
        // The query quantized too: integer products are a third of the scan's time.
        let q = Quantized::new(query);
        let mut scored: Vec<(f32, usize)> = Vec::with_capacity(project.ids.len());
        for (i, (chunk, &scale)) in project.values.chunks_exact(project.dim).zip(&project.scales).enumerate()
        {
            if want.is_none_or(|k| project.kinds[i] == k) {
                scored.push((dot_i8(&q.values, chunk) as f32 * q.scale * scale, i));
            }
        }
        Ok(top(scored, limit).into_iter().map(|(s, i)| (project.ids[i], s)).collect())
    }

    fn current(&self, conn: &Connection, project_id: i64, model: &str, dim: usize) -> Result<Arc<Project>> {
        let epoch = vectors::epoch(conn, project_id)?;
        let held = self.projects.lock().unwrap_or_else(|p| p.into_inner()).get(&project_id).cloned();
        let fresh = match held {
            Some(p) if p.epoch == epoch && p.model == model && p.dim == dim => return Ok(p),
            // Only additions since: read the newer ones on top of a copy.
            Some(p) if p.epoch.1 == epoch.1 && p.model == model && p.dim == dim => {
                let mut next = Project {
                    epoch,
                    model: model.to_owned(),
                    dim,
                    ids: p.ids.clone(),
                    kinds: p.kinds.clone(),
                    scales: p.scales.clone(),
                    values: p.values.clone(),
                };
                let after = next.ids.last().copied().unwrap_or(0);
                vectors::each(conn, Some(project_id), model, vectors::Which::After(after), |s| next.push(s))?;
                next
            }
            _ => {
                let mut next = Project { epoch, model: model.to_owned(), dim, ..Project::default() };
                vectors::each(conn, Some(project_id), model, vectors::Which::After(0), |s| next.push(s))?;
                next
            }
        };
        let fresh = Arc::new(fresh);
        let mut projects = self.projects.lock().unwrap_or_else(|p| p.into_inner());
        let others: usize =
            projects.iter().filter(|(id, _)| **id != project_id).map(|(_, p)| p.bytes()).sum();
        if others + fresh.bytes() > MOST_BYTES {
            projects.clear();
        }
        projects.insert(project_id, fresh.clone());
        Ok(fresh)
    }
}

/// The ids and cosines of the `limit` entries (of `kind`) nearest `query` among the
/// vectors `which` names, of one project or every one, read straight from the database:
/// a search of everything is rare and would otherwise hold every project in memory, and
/// a prompt hook's process lives for one search.
pub fn nearest_read(
    conn: &Connection,
    project_id: Option<i64>,
    which: vectors::Which,
    model: &str,
    query: &[f32],
    kind: Option<&str>,
    limit: usize,
) -> Result<Vec<(i64, f32)>> {
    let q = Quantized::new(query);
    let mut scored = Vec::new();
    vectors::each(conn, project_id, model, which, |s| {
        if kind.is_none_or(|k| k == s.kind)
            && let Some(v) = Quantized::from_bytes(&s.vec, query.len())
        {
            scored.push((dot_i8(&q.values, &v.values) as f32 * q.scale * v.scale, s.id));
            if scored.len() > limit.max(64) * 16 {
                scored = top(std::mem::take(&mut scored), limit);
            }
        }
    })?;
    Ok(top(scored, limit).into_iter().map(|(s, id)| (id, s)).collect())
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
