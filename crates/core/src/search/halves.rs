//! Running a hybrid search's two halves (by meaning, by words): side by side when they
//! are long enough to pay for the hand-over, one after the other otherwise. On rayon's
//! threads, which wait ready, two halves of 1.5 and 2 ms (100,000 entries) take the
//! longer one's time: the labelled questions' hybrid took 3.7 ms rather than 5.5. But a
//! thread that has run a job spins a while before it sleeps, and for halves of a tenth
//! of a millisecond (1,000 entries) that spin was a third of the search's CPU:
//! `search_memory` over stdio cost 0.50-0.62 ms of CPU side by side against 0.36 in
//! turn, and in turn it was no slower (p50 0.41-0.45 ms against 0.44-0.57).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The shorter half, at the last search, from which the next runs side by side: what
/// running them at once saves must beat rayon's spin (about 0.25 ms of CPU a search).
const SIDE_BY_SIDE_FROM_US: u64 = 500;

/// The shorter half's time at the last search, in µs. One figure for the process: a
/// search in a project much bigger or smaller than the last one's is run the old way
/// once, and the next is right.
static SHORTER_HALF_US: AtomicU64 = AtomicU64::new(0);

/// `a()` and `b()`, at once or in turn (see the module's note).
pub(super) fn both<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    both_by(&SHORTER_HALF_US, a, b)
}

/// [`both`], deciding by and recording into `last`.
fn both_by<A: Send, B: Send>(
    last: &AtomicU64,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    let side_by_side = last.load(Ordering::Relaxed) >= SIDE_BY_SIDE_FROM_US;
    let ((a, ta), (b, tb)) =
        if side_by_side { rayon::join(|| time(a), || time(b)) } else { (time(a), time(b)) };
    last.store(ta.min(tb), Ordering::Relaxed);
    (a, b)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed().as_micros() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_long_enough_run_side_by_side_next_time_and_short_ones_in_turn() {
        let last = AtomicU64::new(0);
        let sleep = |ms| move || std::thread::sleep(std::time::Duration::from_millis(ms));
        let thread = || std::thread::current().id();
        let here = thread();
        // The first search has no figure: in turn, here.
        assert_eq!(both_by(&last, thread, thread), (here, here));
        // Long halves: the next search hands them to rayon's threads.
        both_by(&last, sleep(2), sleep(1));
        assert!(last.load(Ordering::Relaxed) >= 1_000, "the shorter half is what is kept");
        let (x, y) = both_by(&last, thread, thread);
        assert!(x != here && y != here, "long halves last time: side by side now");
        // Those were short: the next runs them in turn, here.
        assert_eq!(both_by(&last, thread, thread), (here, here), "short halves last time: in turn now");
    }
}
