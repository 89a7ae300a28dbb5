//! Away on its own: with a paired phone and the `away_when_idle_minutes` setting, an idle
//! desktop switches to away, and the person's return switches back — only an away the
//! idle switched on; one the person chose stays until they say `back`.

use std::time::Duration;

/// Idle shorter than this means the person is at the keyboard again.
pub const RETURNED: Duration = Duration::from_secs(60);

/// What the idle watcher remembers between looks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Watch {
    /// Away was switched on by the idle watcher (not by the person).
    pub set_away: bool,
}

/// One look: `away` now, the desktop `idle` this long, the setting `minutes` (0: off).
/// `Some(new)` when away should change.
pub fn step(watch: &mut Watch, away: bool, idle: Duration, minutes: u32) -> Option<bool> {
    if !away {
        // Back at the desk by any means: whatever the watcher did is over.
        watch.set_away = false;
        if minutes > 0 && idle >= Duration::from_secs(u64::from(minutes) * 60) {
            watch.set_away = true;
            return Some(true);
        }
        return None;
    }
    if watch.set_away && idle < RETURNED {
        watch.set_away = false;
        return Some(false);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(60);

    #[test]
    fn idle_goes_away_and_the_return_comes_back() {
        let mut w = Watch::default();
        assert_eq!(step(&mut w, false, 9 * MIN, 10), None);
        assert_eq!(step(&mut w, false, 10 * MIN, 10), Some(true));
        assert_eq!(step(&mut w, true, 30 * MIN, 10), None);
        assert_eq!(step(&mut w, true, Duration::from_secs(5), 10), Some(false));
        assert_eq!(step(&mut w, false, Duration::from_secs(5), 10), None);
    }

    #[test]
    fn an_away_the_person_chose_is_theirs_and_zero_is_off() {
        let mut w = Watch::default();
        // The person said `away` from the phone: their return at the keyboard changes nothing.
        assert_eq!(step(&mut w, true, Duration::from_secs(1), 10), None);
        assert_eq!(step(&mut w, false, 500 * MIN, 0), None);
        // The watcher went away, then the person said `back` and left again briefly.
        assert_eq!(step(&mut w, false, 11 * MIN, 10), Some(true));
        assert_eq!(step(&mut w, false, 2 * MIN, 10), None);
        assert!(!w.set_away);
    }
}
