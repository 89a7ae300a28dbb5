//! The SQLite store's writes of a project's memory: each one transaction, its checks run
//! inside it, its event written with it.

use crate::error::Result;
use crate::humanize::now;
use crate::store::backend::{
    Fold, Folded, MemoryWrites, NewLock, ProjectCheck, RowCheck, added_event, folded_event,
};
use crate::store::locks as locks_q;
use crate::store::memory as q;
use crate::store::projects::find_row;
use crate::store::rows::{LockRow, MemoryRow, NewMemoryRow};
use crate::store::{Cached as _, Store, events, projects};
use serde_json::json;

use super::live;
impl MemoryWrites for Store {
    fn insert_memory(
        &self,
        slug: &str,
        rows: &[NewMemoryRow<'_>],
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, Vec<MemoryRow>)> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let written_by: Option<String> = match session {
                Some(id) => tx
                    .row("SELECT client_name FROM sessions WHERE id = ?1", [id], |r| r.get(0))
                    .ok()
                    .flatten(),
                None => None,
            };
            let mut stored = Vec::with_capacity(rows.len());
            for r in rows {
                let id = q::insert(tx, project.id, r, session, &stamp)?;
                stored.push(MemoryRow {
                    id,
                    project_id: project.id,
                    kind: r.kind.to_string(),
                    title: r.title.to_string(),
                    content: r.content.to_string(),
                    tags: r.tags.to_string(),
                    status: r.status.as_deref().map(str::to_owned),
                    data: r.data.as_deref().map(str::to_owned),
                    written_by: r.written_by.as_deref().map(str::to_owned).or_else(|| written_by.clone()),
                    author: r.author.map(|a| a.as_str().to_owned()),
                    created_at: stamp.clone(),
                    updated_at: stamp.clone(),
                    forgotten_at: None,
                    links: Default::default(),
                    key: r.key.as_deref().map(str::to_owned),
                });
            }
            let (event, detail) = added_event(&stored);
            projects::mark_used(tx, project.id, &stamp)?;
            events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
            Ok((project.slug, stored))
        })
    }

    fn resolve_memory(
        &self,
        slug: &str,
        id: i64,
        data: &str,
        check: ProjectCheck,
        row_check: RowCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            row_check(&row)?;
            let stamp = now();
            q::resolve(tx, id, data, &stamp)?;
            let detail = json!({ "id": id, "title": crate::store::backend::event_title(&row.title) });
            events::record(tx, project.id, &project.slug, "blocker_resolved", &detail, &stamp)?;
            let row = q::get(tx, project.id, id)?;
            Ok(row.map(|r| (project.slug, r)))
        })
    }

    fn forget_memory(&self, slug: &str, id: i64, check: ProjectCheck) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            let stamp = now();
            q::forget(tx, id, &stamp)?;
            let detail = json!({ "id": id, "kind": row.kind, "title": row.title });
            events::record(tx, project.id, &project.slug, "memory_forgotten", &detail, &stamp)?;
            Ok(Some((project.slug, row)))
        })
    }

    fn supersede_memory(
        &self,
        slug: &str,
        id: i64,
        by: Option<i64>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            let stamp = now();
            q::set_superseded(tx, id, by, &stamp)?;
            let (event, detail) = crate::store::backend::supersede_event(&row, by);
            events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
            Ok(q::get(tx, project.id, id)?.map(|r| (project.slug, r)))
        })
    }

    fn put_session(
        &self,
        slug: &str,
        key: &str,
        row: &NewMemoryRow<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let id = match q::session_by_key(tx, project.id, key)? {
                Some(old) if old.forgotten_at.is_some() => return Ok(None),
                Some(old) => {
                    q::replace(tx, old.id, row, &stamp)?;
                    old.id
                }
                None => {
                    let keyed = NewMemoryRow { key: Some(key.into()), ..row.clone() };
                    let id = q::insert(tx, project.id, &keyed, None, &stamp)?;
                    let detail = json!({ "id": id, "kind": "session" });
                    events::record(tx, project.id, &project.slug, "memory_added", &detail, &stamp)?;
                    id
                }
            };
            projects::mark_used(tx, project.id, &stamp)?;
            Ok(q::get(tx, project.id, id)?.map(|r| (project.slug, r)))
        })
    }

    fn fold_sessions(
        &self,
        slug: &str,
        fold: &Fold<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, Folded)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let d = fold.digest;
            let (id, changed) = match q::by_key(tx, project.id, &d.kind, fold.key)? {
                Some(old) if old.forgotten_at.is_some() => return Ok(None),
                Some(old) => {
                    let same = old.title == *d.title
                        && old.content == *d.content
                        && old.data.as_deref() == d.data.as_deref();
                    if !same {
                        q::replace(tx, old.id, d, &stamp)?;
                    }
                    (old.id, !same)
                }
                None => {
                    let keyed = NewMemoryRow { key: Some(fold.key.into()), ..d.clone() };
                    (q::insert(tx, project.id, &keyed, None, &stamp)?, true)
                }
            };
            let mut newly = 0;
            for &session in fold.sessions {
                newly += usize::from(q::fold_into(tx, project.id, session, id, &stamp)?);
            }
            let digest = q::get(tx, project.id, id)?
                .ok_or_else(|| crate::error::Error::storage("the digest vanished"))?;
            if newly > 0 {
                let (event, detail) = folded_event(&digest, fold.key, newly);
                events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
            }
            Ok(Some((project.slug, Folded { digest, newly, changed })))
        })
    }

    fn lock_next(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let version =
                locks_q::insert_next(tx, project.id, lock.topic, lock.content, lock.tags, session, &stamp)?;
            projects::mark_used(tx, project.id, &stamp)?;
            let detail = json!({ "topic": lock.topic, "version": version });
            events::record(tx, project.id, &project.slug, "context_locked", &detail, &stamp)?;
            let row = locks_q::get(tx, project.id, lock.topic, Some(version))?
                .ok_or_else(|| crate::error::Error::storage("the lock vanished"))?;
            Ok((project.slug, row))
        })
    }
}
