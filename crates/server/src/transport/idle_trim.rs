//! Give freed heap back to the system when the server goes quiet. glibc keeps what a
//! burst of requests freed (64 sessions leave about 5 MB behind) unless asked; once a
//! busy period is followed by an idle tick, one `malloc_trim` returns it, so resident
//! memory falls back instead of staying at the high-water mark. SQLite's page caches go
//! first (each connection keeps up to 8 MB; they refill from the operating system's
//! cache on the next read), and the binary's code pages too (`code_pages`).

use std::sync::Arc;
use std::time::Duration;

use mooring_core::Store;

use tokio_util::sync::CancellationToken;

/// How often activity is sampled.
const TICK: Duration = Duration::from_secs(2);
/// CPU time per tick below which the process counts as idle.
const IDLE_CPU: Duration = Duration::from_millis(20);

/// Run until `cancel`: after each busy period, trim once.
pub async fn run(store: Arc<Store>, cancel: CancellationToken) {
    let mut last = cpu_time();
    let mut busy = false;
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(TICK) => {}
        }
        let now = cpu_time();
        let used = now.saturating_sub(last);
        last = now;
        if used > IDLE_CPU {
            busy = true;
        } else if busy {
            busy = false;
            let store = store.clone();
            let _ = tokio::task::spawn_blocking(move || {
                store.release_memory();
                trim();
                // The code the busy period ran comes back page by page when next run.
                super::code_pages::on_demand();
            })
            .await;
        }
    }
}

/// This process's CPU time so far.
#[cfg(unix)]
fn cpu_time() -> Duration {
    // SAFETY: `rusage` is plain integers, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes the struct it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1_000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// No CPU clock here: never busy, so never trimmed.
#[cfg(not(unix))]
fn cpu_time() -> Duration {
    Duration::ZERO
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim has no preconditions; it only releases free memory.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_moves_forward_with_work() {
        let before = cpu_time();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(cpu_time() > before);
    }
}
