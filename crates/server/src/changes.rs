//! A running count of changes this server hears of (a project created, edited or
//! archived, memory written, a code path moved, a team member's change from another
//! machine): every "projects changed" that reaches the desktop also moves the count, and
//! the dashboard waits on it (`GET /api/v1/changes?after=N`, a long poll) to refresh
//! itself when something changed instead of polling the whole API.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::picks::PickInfo;
use crate::surfaces::Surfaces;

/// The longest one wait lasts; the page asks again (and learns the server is alive).
pub const LONGEST_WAIT: Duration = Duration::from_secs(25);

/// The desktop's surfaces, counting each "projects changed" on the way through.
pub struct Counting {
    inner: Arc<dyn Surfaces>,
    count: watch::Sender<u64>,
}

impl Counting {
    /// Wrap `inner`; `count` moves at each change.
    pub fn new(inner: Arc<dyn Surfaces>, count: watch::Sender<u64>) -> Self {
        Self { inner, count }
    }
}

// Every method passes through: the wrapper only adds the count.
impl Surfaces for Counting {
    fn can_show(&self) -> bool {
        self.inner.can_show()
    }
    fn show_pick(&self, url: &str, pick: &PickInfo) {
        self.inner.show_pick(url, pick);
    }
    fn show_choice(&self, url: &str, title: &str) -> bool {
        self.inner.show_choice(url, title)
    }
    fn pick_closed(&self, pick_id: &str) {
        self.inner.pick_closed(pick_id);
    }
    fn projects_changed(&self) {
        self.inner.projects_changed();
        self.count.send_modify(|n| *n += 1);
    }
    fn notify(&self, title: &str, body: &str) {
        self.inner.notify(title, body);
    }
    fn waiting_changed(&self) {
        self.inner.waiting_changed();
    }
    fn show_dashboard(&self) -> bool {
        self.inner.show_dashboard()
    }
    fn pick_folder(&self, title: &str) -> Option<crate::surfaces::FolderAnswer> {
        self.inner.pick_folder(title)
    }
    fn start_at_login(&self) -> Option<bool> {
        self.inner.start_at_login()
    }
    fn set_start_at_login(&self, on: bool) -> Result<(), String> {
        self.inner.set_start_at_login(on)
    }
}

/// The count now, or once it differs from `after` (at most [`LONGEST_WAIT`], or until the
/// server stops).
pub async fn wait(count: &watch::Sender<u64>, after: Option<u64>, stopping: &CancellationToken) -> u64 {
    let mut rx = count.subscribe();
    if let Some(after) = after {
        tokio::select! {
            _ = tokio::time::timeout(LONGEST_WAIT, rx.wait_for(|n| *n != after)) => {}
            _ = stopping.cancelled() => {}
        }
    }
    *rx.borrow()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surfaces::Headless;

    #[tokio::test]
    async fn a_waiter_wakes_at_the_next_change_and_not_before() {
        let (count, _) = watch::channel(0);
        let surfaces = Counting::new(Arc::new(Headless), count.clone());
        let stopping = CancellationToken::new();
        assert_eq!(wait(&count, None, &stopping).await, 0, "without after: at once");
        let waiter = {
            let (count, stopping) = (count.clone(), stopping.clone());
            tokio::spawn(async move { wait(&count, Some(0), &stopping).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished(), "nothing changed yet");
        surfaces.projects_changed();
        assert_eq!(waiter.await.unwrap(), 1);
        // A server stopping lets its waiters go.
        stopping.cancel();
        assert_eq!(wait(&count, Some(1), &stopping).await, 1);
    }
}
