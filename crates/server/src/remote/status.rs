//! Whether each platform is reachable, for the tray, `mooring remote status`, `doctor`
//! and the log: kept in memory and in `remote-status.json` beside the settings.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use mooring_core::remote::Platform;
use serde::{Deserialize, Serialize};

/// File name in the data directory.
pub const FILE: &str = "remote-status.json";

/// One platform's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlatformStatus {
    /// Reached on the last try.
    pub up: bool,
    /// Why not, when not (never the token).
    pub error: Option<String>,
    /// Since when (RFC 3339).
    pub since: String,
    /// Seconds until the next try.
    pub retry_in: Option<u64>,
}

/// Every running platform's state.
pub struct Health {
    file: PathBuf,
    now: Mutex<BTreeMap<String, PlatformStatus>>,
}

impl Health {
    /// Health written into `data_dir`.
    pub fn new(data_dir: PathBuf) -> Self {
        Health { file: data_dir.join(FILE), now: Mutex::default() }
    }

    /// Whether the platform was reached last time (unknown counts as up).
    pub fn is_up(&self, p: Platform) -> bool {
        self.now.lock().map(|m| m.get(p.name()).is_none_or(|s| s.up)).unwrap_or(true)
    }

    /// Reached.
    pub fn up(&self, p: Platform) {
        self.set(p, None, None);
    }

    /// Not reached: why, and when the next try is.
    pub fn failed(&self, p: Platform, why: &str, retry: Option<Duration>) {
        self.set(p, Some(why), retry);
    }

    fn set(&self, p: Platform, error: Option<&str>, retry: Option<Duration>) {
        let mut map = self.now.lock().unwrap_or_else(|e| e.into_inner());
        let up = error.is_none();
        if map.get(p.name()).is_some_and(|s| s.up == up && s.error.as_deref() == error) {
            return;
        }
        match error {
            Some(e) => {
                tracing::warn!(platform = p.name(), error = %e, "the phone's platform is not reachable; retrying")
            }
            None => tracing::info!(platform = p.name(), "the phone's platform is reachable"),
        }
        let status = PlatformStatus {
            up,
            error: error.map(str::to_owned),
            since: mooring_core::humanize::now(),
            retry_in: retry.map(|d| d.as_secs()),
        };
        map.insert(p.name().to_owned(), status);
        self.write(&map);
    }

    /// The file, readable only by this user like everything in the data directory.
    fn write(&self, map: &BTreeMap<String, PlatformStatus>) {
        if let Ok(text) = serde_json::to_string_pretty(map) {
            let _ = std::fs::write(&self.file, text);
            mooring_core::store::datadir::tighten(&self.file, 0o600);
        }
    }

    /// Forget a platform that was removed.
    pub fn remove(&self, p: Platform) {
        let mut map = self.now.lock().unwrap_or_else(|e| e.into_inner());
        if map.remove(p.name()).is_some() {
            self.write(&map);
        }
    }
}

/// What the hub last wrote, for the CLI.
pub fn read(data_dir: &std::path::Path) -> BTreeMap<String, PlatformStatus> {
    std::fs::read_to_string(data_dir.join(FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The phone as the CLI's `remote status` and the dashboard show it: away, each bot
/// (paired, pairing open, reachable or why not) and the projects kept off it. No token.
pub fn summary(data_dir: &std::path::Path) -> mooring_core::Result<serde_json::Value> {
    use mooring_core::remote::RemoteConfig;
    let config = RemoteConfig::load(data_dir)?;
    let health = read(data_dir);
    let bots: Vec<serde_json::Value> = Platform::ALL
        .into_iter()
        .filter_map(|p| config.bot(p).map(|b| (p, b)))
        .map(|(p, b)| {
            let h = health.get(p.name());
            serde_json::json!({
                "platform": p.name(),
                "paired": b.paired.is_some(),
                "paired_at": b.paired.as_ref().map(|x| x.at.clone()),
                "pairing_open": b.pairing.is_some(),
                "reachable": h.map(|h| h.up),
                "error": h.and_then(|h| h.error.clone()),
            })
        })
        .collect();
    Ok(serde_json::json!({ "away": config.away, "bots": bots, "kept_off": config.never_remote }))
}
