//! Search by meaning in the team database (migration V8): entries waiting for their
//! vector, claimed by one member's hub at a time; vectors ranked in Mooring, from each
//! hub's copy in memory of a project's vectors (`mooring_core::store::index::vector_index`).

use mooring_core::Result;
use mooring_core::store::backend::{Embedder, NearestQuery, RowHit, VectorProgress, meaning_snippet};
use mooring_core::store::index::vector_index::{Scan, Source, Stored};

use crate::errors::pool_error;
use crate::projects::seen;
use crate::rows::{MEMORY_COLUMN_COUNT, MEMORY_COLUMNS, memory};
use crate::{PgStore, db_error, sql};

/// The text an entry is embedded from (as on SQLite: title, content and tags, a line each).
const TEXT: &str = "m.title || E'\\n' || m.content || E'\\n' || m.tags";

/// How long a hub's claim on waiting entries holds (a stopped hub's lapses).
const CLAIM: &str = "interval '60 seconds'";

/// The projects person `$2` is in: project `$1`, or all of them when `$1` is null.
const MINE: &str =
    "SELECT project_id FROM members WHERE person_id = $2 AND ($1::bigint IS NULL OR project_id = $1)";

/// The id of project `slug` as person `me` sees it; `None` (every project of theirs)
/// without a slug.
async fn scope_id(
    client: &impl deadpool_postgres::GenericClient,
    slug: Option<&str>,
    me: i64,
) -> Result<Option<i64>> {
    Ok(match slug {
        Some(s) => Some(seen(client, s, me, false).await?.project.id),
        None => None,
    })
}

/// Columns of a stored vector, in [`stored`]'s order.
const STORED: &str = "v.memory_id, m.kind, v.seq, v.vec";

fn stored(r: &tokio_postgres::Row) -> Stored {
    Stored { id: r.get(0), kind: r.get(1), seq: r.get(2), vec: r.get(3) }
}

/// The team database as a project's vectors' source.
struct Team<'a>(&'a PgStore);

impl Source for Team<'_> {
    fn epoch(&self, project_id: i64) -> Result<(i64, i64)> {
        self.0.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let row = sql::row_opt(
                &client,
                "SELECT added, removed FROM vector_epochs WHERE project_id = $1",
                &[&project_id],
            )
            .await?;
            Ok(row.map_or((0, 0), |r| (r.get(0), r.get(1))))
        })
    }

    fn since(&self, project_id: i64, model: &str, seq: i64, f: &mut dyn FnMut(Stored)) -> Result<()> {
        let model = model.to_owned();
        let rows = self.0.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let sql = format!(
                "SELECT {STORED} FROM memory_vectors v JOIN memory m ON m.id = v.memory_id
                 WHERE v.project_id = $1 AND v.model = $2 AND v.seq > $3 ORDER BY v.seq"
            );
            sql::rows(&client, &sql, &[&project_id, &model, &seq]).await
        })?;
        rows.iter().map(stored).for_each(f);
        Ok(())
    }

    fn vectors_of(&self, model: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()> {
        let (model, ids) = (model.to_owned(), ids.to_vec());
        let rows = self.0.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let sql = format!(
                "SELECT {STORED} FROM memory_vectors v JOIN memory m ON m.id = v.memory_id
                 WHERE v.memory_id = ANY($1) AND v.model = $2"
            );
            sql::rows(&client, &sql, &[&ids, &model]).await
        })?;
        rows.iter().map(stored).for_each(f);
        Ok(())
    }
}

impl PgStore {
    /// See [`mooring_core::store::backend::MemoryBackend::nearest_memory`].
    /// The ids of the projects person `me` is a member of.
    fn member_projects(&self, me: i64) -> Result<Vec<i64>> {
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let rows = sql::rows(
                &client,
                "SELECT project_id FROM members WHERE person_id = $1 ORDER BY project_id",
                &[&me],
            )
            .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    /// Hold the vectors of every project the person is in (see `Cache::hold`).
    pub(crate) fn warm_in_team(&self, model: &str, dim: usize) -> Result<()> {
        let projects = self.member_projects(self.me()?)?;
        self.vectors.hold(&Team(self), &projects, model, dim)
    }

    pub(crate) fn nearest_in_team(&self, q: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        let me = self.me()?;
        let limit = q.limit as usize;
        let model = q.model.to_owned();
        let project_id = match q.project {
            Some(slug) => {
                let slug = slug.to_owned();
                Some(self.run(move |pool| async move {
                    let client = pool.get().await.map_err(pool_error)?;
                    Ok(seen(&client, &slug, me, false).await?.project.id)
                })?)
            }
            None => None,
        };
        let found = match (project_id, q.newest) {
            (Some(id), None) => self.vectors.nearest(&Team(self), id, q.model, q.vector, q.kind, limit)?,
            // Every project the person is in, each held and compared from its own centre.
            (None, _) => {
                let projects = self.member_projects(me)?;
                self.vectors.nearest_in(&Team(self), &projects, q.model, q.vector, q.kind, limit)?
            }
            // A bounded read (a prompt hook's): read and compared as they come.
            (Some(id), Some(newest)) => {
                let rows = self.run(move |pool| async move {
                    let client = pool.get().await.map_err(pool_error)?;
                    // One statement per shape: with `$2 IS NULL OR …` PostgreSQL's generic
                    // plan sorted every vector of the project (10,000 newest of 100,000:
                    // 190 ms).
                    let sql = format!(
                        "SELECT {STORED} FROM (SELECT * FROM memory_vectors
                                               WHERE project_id = $2 AND model = $1
                                               ORDER BY memory_id DESC LIMIT $3) v
                         JOIN memory m ON m.id = v.memory_id"
                    );
                    sql::rows(&client, &sql, &[&model, &id, &i64::from(newest)]).await
                })?;
                let mut scan = Scan::new(q.vector, q.kind, limit);
                rows.iter().for_each(|r| scan.add(&stored(r)));
                scan.finish()
            }
        };
        let found: Vec<(i64, f32)> =
            found.into_iter().filter(|(_, score)| q.least.is_none_or(|least| *score >= least)).collect();
        let ids: Vec<i64> = found.iter().map(|(id, _)| *id).collect();
        let rows = self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let sql = format!(
                "SELECT {MEMORY_COLUMNS}, p.slug FROM memory m JOIN projects p ON p.id = m.project_id
                 WHERE m.id = ANY($1) AND m.forgotten_at IS NULL"
            );
            sql::rows(&client, &sql, &[&ids]).await
        })?;
        let mut hits = Vec::with_capacity(found.len());
        for (id, score) in found {
            if let Some(r) = rows.iter().find(|r| r.get::<_, i64>(0) == id) {
                let row = memory(r);
                let snippet = meaning_snippet(&row.content);
                hits.push(RowHit { row, slug: r.get(MEMORY_COLUMN_COUNT), snippet, score: f64::from(score) });
            }
        }
        Ok(Some(hits))
    }

    /// See [`mooring_core::store::backend::MemoryBackend::vector_progress`]: live entries waiting
    /// and (unless `waiting_only`, as a search asks: counting every vector is what costs)
    /// entries with a vector, in one project or every one the person is in.
    pub(crate) fn vectors_in_team(
        &self,
        project: Option<&str>,
        waiting_only: bool,
    ) -> Result<VectorProgress> {
        let (slug, me) = (project.map(str::to_owned), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project_id = scope_id(&client, slug.as_deref(), me).await?;
            let sql = format!(
                "WITH mine AS ({MINE})
                 SELECT (SELECT count(*) FROM vector_queue q JOIN memory m ON m.id = q.memory_id
                         WHERE m.project_id IN (SELECT project_id FROM mine)),
                        CASE WHEN $3 THEN 0 ELSE
                        (SELECT count(*) FROM memory_vectors v WHERE v.project_id IN (SELECT project_id FROM mine))
                        END"
            );
            let row = sql::row(&client, &sql, &[&project_id, &me, &waiting_only]).await?;
            Ok(VectorProgress { waiting: row.get::<_, i64>(0) as u64, stored: row.get::<_, i64>(1) as u64 })
        })
    }

    /// See [`mooring_core::store::backend::MemoryBackend::has_vectors`]: a probe of this
    /// person's projects (one, or all), not a count.
    pub(crate) fn has_vectors_in_team(&self, project: Option<&str>) -> Result<bool> {
        let (slug, me) = (project.map(str::to_owned), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project_id = scope_id(&client, slug.as_deref(), me).await?;
            let sql =
                format!("SELECT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.project_id IN ({MINE}))");
            Ok(sql::row(&client, &sql, &[&project_id, &me]).await?.get::<_, bool>(0))
        })
    }

    /// See [`mooring_core::store::backend::MemoryBackend::index_vectors`]. Entries are claimed in
    /// one transaction, embedded here, and stored in another with their claims taken off
    /// (the rows held, so no text changes in between); a changed entry's claim is let go.
    pub(crate) fn index_in_team(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<usize> {
        let me = self.me()?;
        let claimed = self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            // Only entries of projects this person is in: a hub never reads (or embeds)
            // the text of a project its person cannot see.
            let sql = format!(
                "WITH claimed AS (
                   UPDATE vector_queue q SET claimed_at = now()
                   WHERE q.memory_id IN (
                     SELECT vq.memory_id FROM vector_queue vq JOIN memory m ON m.id = vq.memory_id
                     WHERE (vq.claimed_at IS NULL OR vq.claimed_at < now() - {CLAIM})
                       AND m.project_id IN (SELECT project_id FROM members WHERE person_id = $2)
                     ORDER BY vq.memory_id DESC LIMIT $1 FOR UPDATE OF vq SKIP LOCKED)
                   RETURNING q.memory_id)
                 SELECT m.id, {TEXT} FROM claimed c JOIN memory m ON m.id = c.memory_id ORDER BY m.id DESC"
            );
            sql::rows(&client, &sql, &[&i64::from(limit), &me]).await
        })?;
        let pending: Vec<(i64, String)> = claimed.iter().map(|r| (r.get(0), r.get(1))).collect();
        let made: Vec<Vec<u8>> = pending.iter().map_while(|(_, text)| embed(text)).collect();
        let ids: Vec<i64> = pending.iter().map(|(id, _)| *id).collect();
        let (done, texts): (Vec<i64>, Vec<String>) = pending.into_iter().take(made.len()).unzip();
        let model = model.to_owned();
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            sql::exec(&tx, "SELECT 1 FROM memory WHERE id = ANY($1) ORDER BY id FOR SHARE", &[&done]).await?;
            let sql = format!(
                "INSERT INTO memory_vectors (memory_id, project_id, model, vec)
                 SELECT m.id, m.project_id, $4, g.vec
                 FROM unnest($1::bigint[], $2::text[], $3::bytea[]) AS g(id, text, vec)
                 JOIN memory m ON m.id = g.id AND m.forgotten_at IS NULL AND {TEXT} = g.text
                 ON CONFLICT (memory_id) DO UPDATE SET model = EXCLUDED.model, vec = EXCLUDED.vec
                 RETURNING memory_id"
            );
            let stored: Vec<i64> = sql::rows(&tx, &sql, &[&done, &texts, &made, &model])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            // Stored, or forgotten or gone meanwhile: off the queue. The rest (changed, or
            // not embedded) wait again for any hub.
            sql::exec(
                &tx,
                "DELETE FROM vector_queue q WHERE q.memory_id = ANY($1)
                   AND (q.memory_id = ANY($2) OR NOT EXISTS
                        (SELECT 1 FROM memory m WHERE m.id = q.memory_id AND m.forgotten_at IS NULL))",
                &[&ids, &stored],
            )
            .await?;
            sql::exec(&tx, "UPDATE vector_queue SET claimed_at = NULL WHERE memory_id = ANY($1)", &[&ids])
                .await?;
            tx.commit().await.map_err(db_error)?;
            Ok(stored.len())
        })
    }
}
