//! The person's settings: each one a variant of [`Setting`], with its key, default,
//! range and meaning in one table, read and written through it. Keys as text come only
//! from the person (the CLI's `config`, the settings page), parsed once at that edge.

use crate::error::{Error, Result};
use crate::store::{Store, settings as table};

/// What a setting is: its key, default, range and a sentence for the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// The key people type and the table stores.
    pub key: &'static str,
    /// Its value when unset.
    pub default: u32,
    /// The least value taken.
    pub min: u32,
    /// The greatest value taken.
    pub max: u32,
    /// What it does, for `mooring config` and the settings page.
    pub about: &'static str,
}

/// A setting Mooring understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// Days without use before a project is paused.
    AutoPauseDays,
    /// Decisions in the context preamble.
    PreambleMaxDecisions,
    /// Open blockers in the context preamble.
    PreambleMaxBlockers,
    /// Summaries in the context preamble.
    PreambleMaxSummaries,
    /// Weekly digests in the context preamble.
    PreambleMaxDigests,
    /// Days before a captured session folds into its week's digest.
    FoldAfterDays,
    /// How long a call waits for a pick in the desktop's window.
    PickWaitSeconds,
    /// How long a finished turn waits for the away person's next instruction.
    AwayHoldMinutes,
    /// Idle minutes after which a paired phone switches to away.
    AwayWhenIdleMinutes,
    /// The MCP server's port from the next start.
    Port,
    /// Whether sessions are captured.
    Capture,
    /// Whether the hub imports the clients' own memory files.
    ImportClientsMemory,
    /// Whether each prompt gets its recall.
    Recall,
    /// Whether searches are re-ordered by the sentence encoder.
    Rerank,
    /// Quiet minutes after which an agent session is no longer live.
    LiveQuietMinutes,
}

const fn spec(key: &'static str, default: u32, min: u32, max: u32, about: &'static str) -> Spec {
    Spec { key, default, min, max, about }
}

impl Setting {
    /// Every setting, in the order people see them.
    pub const ALL: [Setting; 15] = [
        Self::AutoPauseDays,
        Self::PreambleMaxDecisions,
        Self::PreambleMaxBlockers,
        Self::PreambleMaxSummaries,
        Self::PreambleMaxDigests,
        Self::FoldAfterDays,
        Self::PickWaitSeconds,
        Self::AwayHoldMinutes,
        Self::AwayWhenIdleMinutes,
        Self::Port,
        Self::Capture,
        Self::ImportClientsMemory,
        Self::Recall,
        Self::Rerank,
        Self::LiveQuietMinutes,
    ];

    /// Its key, default, range and meaning.
    pub const fn spec(self) -> Spec {
        match self {
            Self::AutoPauseDays => {
                spec("auto_pause_days", 7, 0, 3650, "days without use before a project is paused (0: never)")
            }
            Self::PreambleMaxDecisions => {
                spec("preamble_max_decisions", 20, 0, 200, "decisions in the context preamble")
            }
            Self::PreambleMaxBlockers => {
                spec("preamble_max_blockers", 10, 0, 200, "open blockers in the context preamble")
            }
            Self::PreambleMaxSummaries => {
                spec("preamble_max_summaries", 5, 0, 200, "summaries in the context preamble")
            }
            Self::PreambleMaxDigests => spec(
                "preamble_max_digests",
                3,
                0,
                50,
                "weekly digests of folded sessions in the context preamble",
            ),
            Self::FoldAfterDays => spec(
                "fold_after_days",
                14,
                0,
                3650,
                "days after a captured session's last turn before it folds into its week's digest (0: never)",
            ),
            Self::PickWaitSeconds => spec(
                "pick_wait_seconds",
                120,
                5,
                3600,
                "how long a call waits for a pick in the desktop's window",
            ),
            Self::AwayHoldMinutes => spec(
                "away_hold_minutes",
                9,
                0,
                9,
                "away with a paired phone, how long a finished Claude Code turn waits for your next instruction (0: never)",
            ),
            Self::AwayWhenIdleMinutes => spec(
                "away_when_idle_minutes",
                0,
                0,
                240,
                "with a paired phone, switch to away after the desktop is idle this long, and back at the desk on return (0: never)",
            ),
            Self::Port => spec(
                "port",
                7423,
                1024,
                65535,
                "port of the MCP server from the next start (--port overrides it)",
            ),
            Self::Capture => spec(
                "capture",
                1,
                0,
                1,
                "1 keeps a record of every agent session through the clients' hooks; 0 keeps none",
            ),
            Self::ImportClientsMemory => spec(
                "import_clients_memory",
                0,
                0,
                1,
                "1 has the hub bring the clients' own memory and instruction files of every project's checkouts in \
                 every 5 minutes (as `mooring import`); 0 only when asked",
            ),
            Self::Recall => spec(
                "recall",
                1,
                0,
                1,
                "1 hands the model, at each prompt, the few entries of memory the prompt is about; 0 never",
            ),
            Self::Rerank => spec(
                "rerank",
                0,
                0,
                1,
                "1 re-orders searches by a sentence encoder (90 MB, scripts/fetch-model.sh --reranker): \
                 better top 5, about 20 ms a search, and about 40 ms of one core to encode each entry once; 0 never",
            ),
            Self::LiveQuietMinutes => spec(
                "live_quiet_minutes",
                30,
                1,
                1440,
                "minutes an agent session may go without a hook before it is no longer live (its claims on files go \
                 with it; a session's end or its process gone ends it at once)",
            ),
        }
    }

    /// Its key.
    pub const fn key(self) -> &'static str {
        self.spec().key
    }

    /// The setting a person named; the error lists the keys there are.
    pub fn parse(key: &str) -> Result<Setting> {
        Self::ALL.into_iter().find(|s| s.key() == key).ok_or_else(|| {
            let known = Self::ALL.map(Setting::key).join(", ");
            Error::invalid("key", format!("unknown setting '{key}'; known: {known}"))
        })
    }

    /// Its value (its default when unset or unreadable).
    pub fn get(self, store: &Store) -> Result<u32> {
        store.read(|c| self.read(c))
    }

    /// Its value, read within a read already open (for several settings at once).
    pub fn read(self, c: &rusqlite::Connection) -> Result<u32> {
        let Spec { key, default, .. } = self.spec();
        Ok(table::get(c, key)?.and_then(|v| v.parse().ok()).unwrap_or(default))
    }

    /// Whether a switch (0 or 1) is on.
    pub fn is_on(self, store: &Store) -> Result<bool> {
        Ok(self.get(store)? != 0)
    }

    /// `value` checked against its range; the error names the key and the range.
    pub fn check(self, value: &str) -> Result<u32> {
        let Spec { key, min, max, .. } = self.spec();
        value
            .trim()
            .parse()
            .ok()
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| Error::invalid(key, format!("{key} must be a whole number from {min} to {max}")))
    }

    /// Change it, checking its range; the error names `value`, the CLI's argument.
    pub fn set(self, store: &Store, value: &str) -> Result<u32> {
        let v = self.check(value).map_err(|mut e| {
            e.field = Some("value".into());
            e
        })?;
        store.write(|tx| table::set(tx, self.key(), &v.to_string(), &crate::humanize::now()))?;
        Ok(v)
    }
}

/// Change several settings named by key at once: all are checked first, then written in
/// one transaction, so a bad value leaves every setting as it was.
pub fn set_many(store: &Store, changes: &[(String, String)]) -> Result<()> {
    let checked = changes
        .iter()
        .map(|(k, v)| Setting::parse(k).and_then(|s| s.check(v).map(|v| (s.key(), v))))
        .collect::<Result<Vec<_>>>()?;
    let now = crate::humanize::now();
    store.write(|tx| {
        for (k, v) in &checked {
            table::set(tx, k, &v.to_string(), &now)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_its_own_and_every_default_is_within_its_range() {
        for s in Setting::ALL {
            let Spec { key, default, min, max, .. } = s.spec();
            assert_eq!(Setting::parse(key).unwrap(), s);
            assert!((min..=max).contains(&default), "{key}");
        }
        let err = Setting::parse("recal").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("key"));
        assert!(err.message.contains("known: auto_pause_days") && err.message.contains("rerank"), "{err}");
    }

    #[test]
    fn a_setting_reads_its_default_until_set_and_a_bad_value_changes_nothing() {
        let store = Store::open_in_memory().unwrap();
        assert_eq!(Setting::Recall.get(&store).unwrap(), 1);
        assert_eq!(Setting::Recall.set(&store, "0").unwrap(), 0);
        assert!(!Setting::Recall.is_on(&store).unwrap());
        let err = Setting::Recall.set(&store, "2").unwrap_err();
        assert_eq!(
            (err.field.as_deref(), err.message.as_str()),
            (Some("value"), "recall must be a whole number from 0 to 1")
        );
        let many = [("capture".to_owned(), "0".to_owned()), ("port".to_owned(), "80".to_owned())];
        assert_eq!(set_many(&store, &many).unwrap_err().field.as_deref(), Some("port"));
        assert!(Setting::Capture.is_on(&store).unwrap(), "nothing written when one value is bad");
    }
}
