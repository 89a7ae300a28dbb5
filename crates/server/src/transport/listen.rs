//! Accepting connections. axum's own `serve` leaves out what a local server facing
//! arbitrary local processes needs, so connections are served here with hyper directly:
//! a cap on open connections and on those of one owner, another user's connections
//! refused at accept ([`super::admission`]), bounds on how long request headers (and an
//! idle kept-alive connection) and bodies may take, TCP_NODELAY (without it a
//! kept-alive client waits ~40 ms per response for Nagle and delayed ACK), and each
//! connection tagged with the user who owns it ([`crate::access::Peer`]).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use super::admission::Owners;
use super::body_deadline::DeadlineBody;
use crate::access::Peer;
use crate::config::Limits;

/// Serve `app` on `listener` until `cancel`; then finish what is in flight (5 s at most).
pub async fn serve(listener: TcpListener, app: Router, cancel: CancellationToken, limits: Limits) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let owners = Owners::new(crate::access::peer::own_uid(), limits.max_per_owner);
    loop {
        let permit = tokio::select! {
            _ = cancel.cancelled() => break,
            p = permits.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
        };
        let (stream, peer) = tokio::select! {
            _ = cancel.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors, say: wait a moment rather than spin.
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Ok(local) = stream.local_addr() else { continue };
        let (app, cancel, owners) = (app.clone(), cancel.clone(), owners.clone());
        tokio::spawn(async move {
            let uid = tokio::task::spawn_blocking(move || crate::access::peer::owner_uid(local, peer))
                .await
                .ok()
                .flatten();
            let _slot = match owners.admit(uid) {
                Ok(slot) => slot,
                Err(why) => {
                    drop(permit);
                    tracing::debug!(?uid, ?why, "connection refused at accept");
                    return owners.refuse(stream, why).await;
                }
            };
            let _permit = permit;
            let tag = Peer { uid };
            let body_within = limits.body_read_timeout;
            let service = hyper::service::service_fn(move |mut request: http::Request<Incoming>| {
                request.extensions_mut().insert(tag);
                app.clone().oneshot(request.map(|b| axum::body::Body::new(DeadlineBody::new(b, body_within))))
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                done = conn.as_mut() => {
                    if let Err(e) = done {
                        tracing::debug!(error = %e, "connection ended");
                    }
                }
                _ = cancel.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
                }
            }
        });
    }
    // Every connection gives its permit back when it ends.
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(6), permits.acquire_many(all)).await;
}
