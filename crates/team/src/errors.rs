//! PostgreSQL failures as Mooring errors: what the database refused, or that it cannot
//! be reached (and what still works).

use mooring_core::Error;

/// A failed statement or a lost connection.
pub fn db_error(e: tokio_postgres::Error) -> Error {
    match e.as_db_error() {
        Some(db) => Error::storage(format!("the team database refused: {}", db.message())),
        None => unreachable_error(&e),
    }
}

/// No connection could be had from the pool.
pub(crate) fn pool_error(e: deadpool_postgres::PoolError) -> Error {
    match e {
        deadpool_postgres::PoolError::Backend(e) => db_error(e),
        other => unreachable_error(&other),
    }
}

fn unreachable_error(e: &dyn std::fmt::Display) -> Error {
    Error::unavailable(format!(
        "{e}; this call did not complete, local projects keep working, and team projects come back by \
         themselves when it answers again"
    ))
}
