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

fn unreachable_error(e: &dyn std::error::Error) -> Error {
    // The cause is at the end of the chain ("error performing TLS handshake" alone says
    // nothing of the certificate that was refused).
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = cause.source();
    }
    let hint = if text.contains("certificate") {
        " (the server's certificate was not accepted: give its certificate authority with \
         sslrootcert=/path/to/ca.pem in the team URL, or check the host name it was issued for)"
    } else {
        ""
    };
    Error::unavailable(format!(
        "{text}{hint}; this call did not complete, local projects keep working, and team projects come back \
         by themselves when it answers again"
    ))
}
