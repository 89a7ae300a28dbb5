//! Work the server repeats on a period until it stops: the one loop the background tasks
//! (other processes' writes, the indexer, idle projects) share.

use std::time::Duration;

use tokio::time::{Interval, MissedTickBehavior};
use tokio_util::sync::CancellationToken;

/// Ticks every `period` until cancelled: the first at once, and a slow step delays the
/// next tick rather than bunching the missed ones up.
pub struct Ticks {
    tick: Interval,
    cancel: CancellationToken,
}

impl Ticks {
    /// Ticks every `period` until `cancel`.
    pub fn new(period: Duration, cancel: CancellationToken) -> Self {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Self { tick, cancel }
    }

    /// Waits for the next tick: true, or false once cancelled.
    pub async fn next(&mut self) -> bool {
        tokio::select! {
            _ = self.cancel.cancelled() => false,
            _ = self.tick.tick() => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn ticks_come_on_their_period_and_stop_when_cancelled() {
        let cancel = CancellationToken::new();
        let mut ticks = Ticks::new(Duration::from_secs(60), cancel.clone());
        let start = tokio::time::Instant::now();
        assert!(ticks.next().await, "the first tick comes at once");
        assert!(ticks.next().await);
        assert_eq!(start.elapsed(), Duration::from_secs(60));
        cancel.cancel();
        assert!(!ticks.next().await, "a cancelled server ticks no more");
    }
}
