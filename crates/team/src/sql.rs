//! Statements through each connection's statement cache: a statement sent as text is
//! parsed by the server on every call, an extra round trip each time (a `list_memory`
//! cost 1.4 ms against a loopback server before).

use deadpool_postgres::GenericClient;
use mooring_core::Result;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::db_error;

/// Parameters of a statement.
pub(crate) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// Every row.
pub(crate) async fn rows(c: &impl GenericClient, sql: &str, params: Params<'_>) -> Result<Vec<Row>> {
    let statement = c.prepare_cached(sql).await.map_err(db_error)?;
    c.query(&statement, params).await.map_err(db_error)
}

/// At most one row.
pub(crate) async fn row_opt(c: &impl GenericClient, sql: &str, params: Params<'_>) -> Result<Option<Row>> {
    let statement = c.prepare_cached(sql).await.map_err(db_error)?;
    c.query_opt(&statement, params).await.map_err(db_error)
}

/// Exactly one row.
pub(crate) async fn row(c: &impl GenericClient, sql: &str, params: Params<'_>) -> Result<Row> {
    let statement = c.prepare_cached(sql).await.map_err(db_error)?;
    c.query_one(&statement, params).await.map_err(db_error)
}

/// How many rows changed.
pub(crate) async fn exec(c: &impl GenericClient, sql: &str, params: Params<'_>) -> Result<u64> {
    let statement = c.prepare_cached(sql).await.map_err(db_error)?;
    c.execute(&statement, params).await.map_err(db_error)
}
