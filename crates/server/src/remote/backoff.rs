//! How long a platform's loops wait after a failure: as long as the platform asked
//! (`Retry-After`), else one second doubling to a minute, and one second again after a
//! success. Telegram's long poll, Slack's socket and the question tick all wait by it.

use std::time::Duration;

use super::http::CallError;

/// The wait after a first failure.
pub const FIRST: Duration = Duration::from_secs(1);
/// The longest wait a run of failures grows to.
pub const MOST: Duration = Duration::from_secs(60);

/// One loop's waits between tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self { next: FIRST }
    }
}

impl Backoff {
    /// A try went through: the next failure waits [`FIRST`] again.
    pub fn reset(&mut self) {
        self.next = FIRST;
    }

    /// A try failed with `e`: how long to wait before the next (the platform's
    /// `Retry-After` when it gave one); each failure doubles the wait after it.
    pub fn failed(&mut self, e: &CallError) -> Duration {
        let asked = match e {
            CallError::Refused { retry_after: Some(s), .. } => Some(Duration::from_secs(*s)),
            _ => None,
        };
        self.failed_asking(asked)
    }

    /// A try failed, the platform asking for `asked` (or nothing): how long to wait.
    pub fn failed_asking(&mut self, asked: Option<Duration>) -> Duration {
        let wait = asked.unwrap_or(self.next);
        self.next = (self.next * 2).min(MOST);
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Duration) -> u64 {
        d.as_secs()
    }

    #[test]
    fn failures_wait_one_second_doubling_to_a_minute_and_a_success_starts_again() {
        let mut b = Backoff::default();
        let down = CallError::Network("timed out".into());
        let waits: Vec<u64> = (0..9).map(|_| secs(b.failed(&down))).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        b.reset();
        assert_eq!(secs(b.failed(&down)), 1, "a success resets the wait");
    }

    #[test]
    fn the_platforms_retry_after_is_kept_and_the_run_still_grows() {
        let mut b = Backoff::default();
        let limited =
            CallError::Refused { status: 429, message: "Too Many Requests".into(), retry_after: Some(7) };
        assert_eq!(secs(b.failed(&limited)), 7, "as long as the platform asked");
        let refused = CallError::Refused { status: 401, message: "Unauthorized".into(), retry_after: None };
        assert_eq!(secs(b.failed(&refused)), 2, "the asked wait counted as a failure of the run");
        assert_eq!(secs(b.failed_asking(None)), 4);
    }
}
