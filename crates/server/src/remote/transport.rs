//! The one seam every platform fills: write or rewrite a message. What is shared — the
//! tick that posts waiting questions, handing the person's doing to the relay, reporting
//! the messages' ids back — is written once here, over any transport.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mooring_core::remote::Platform;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::http::CallError;
use super::relay::{Incoming, Outgoing, Relay};
use super::status::Health;

/// A chat platform as the relay uses it.
pub trait Transport: Send + Sync + 'static {
    /// Which platform this is.
    const PLATFORM: Platform;

    /// Write `out` (or rewrite the message it names); the new message's id when written.
    fn write(&self, out: &Outgoing) -> impl Future<Output = Result<Option<String>, CallError>> + Send;
}

/// Write each message in order, reporting question messages' ids to the relay.
pub async fn deliver<T: Transport>(t: &T, relay: &Relay, outs: Vec<Outgoing>) -> Result<(), CallError> {
    for out in outs {
        let id = t.write(&out).await?;
        if let (Some(q), Some(id)) = (&out.question, id) {
            relay.posted(T::PLATFORM, q, &out.chat, &id);
        }
    }
    Ok(())
}

/// Hand what the person did to the relay and write its replies.
pub async fn hear<T: Transport>(t: &T, relay: &Arc<Relay>, health: &Health, msg: Incoming) {
    let r = relay.clone();
    let outs = tokio::task::spawn_blocking(move || r.handle(T::PLATFORM, &msg)).await.unwrap_or_default();
    if let Err(e) = deliver(t, relay, outs).await {
        health.failed(T::PLATFORM, &e.to_string(), None);
    }
}

/// Every 300 ms: post the questions waiting for the person and rewrite the ones that
/// ended. While the platform is unreachable the tick waits — as long as the platform asked
/// (`Retry-After`), else one second doubling to a minute — and a write that goes through
/// marks it reachable again (Slack's socket may be up while its Web API limits).
pub fn ticks<T: Transport>(
    t: Arc<T>,
    relay: Arc<Relay>,
    health: Arc<Health>,
    cancel: CancellationToken,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut backoff = Duration::from_secs(1);
        let mut resume = Instant::now();
        loop {
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_millis(300)) => {}
            }
            if !health.is_up(T::PLATFORM) && Instant::now() < resume {
                continue;
            }
            let r = relay.clone();
            let outs = tokio::task::spawn_blocking(move || r.tick(T::PLATFORM)).await.unwrap_or_default();
            if outs.is_empty() {
                continue;
            }
            match deliver(&*t, &relay, outs).await {
                Ok(()) => {
                    backoff = Duration::from_secs(1);
                    health.up(T::PLATFORM);
                }
                Err(e) => {
                    let wait = match &e {
                        CallError::Refused { retry_after: Some(s), .. } => Duration::from_secs(*s),
                        _ => backoff,
                    };
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                    resume = Instant::now() + wait;
                    health.failed(T::PLATFORM, &e.to_string(), Some(wait));
                }
            }
        }
    })
}
