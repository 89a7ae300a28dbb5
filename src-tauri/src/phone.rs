//! The phone in the tray: away on and off (shown once a phone is paired), a line when its
//! platform cannot be reached, and away switched on its own when the desktop is idle
//! (the `away_when_idle_minutes` setting).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mooring_core::Store;
use mooring_core::remote::{Platform, RemoteConfig, idle};
use tauri::{AppHandle, Wry};

use crate::server;

/// What the tray shows of the phone: away (`None`: no phone paired) and any trouble.
pub fn state(server: &server::Handle) -> (Option<bool>, Option<String>) {
    let Some(dir) = data_dir(server) else { return (None, None) };
    let config = RemoteConfig::load(&dir).unwrap_or_default();
    let paired: Vec<Platform> =
        Platform::ALL.into_iter().filter(|p| config.bot(*p).is_some_and(|b| b.paired.is_some())).collect();
    if paired.is_empty() {
        return (None, None);
    }
    let health = mooring_server::remote::status::read(&dir);
    let down: Vec<&str> =
        paired.iter().filter(|p| health.get(p.name()).is_some_and(|h| !h.up)).map(|p| p.name()).collect();
    let trouble = (!down.is_empty()).then(|| format!("Phone: {} unreachable, retrying", down.join(" and ")));
    (Some(config.away), trouble)
}

/// The person switched away on or off in the tray.
pub fn toggle_away(server: &server::Handle) {
    let Some(dir) = data_dir(server) else { return };
    if let Err(e) = set_away(&dir, None) {
        tracing::warn!(error = %e, "could not switch away");
    }
}

fn set_away(dir: &Path, to: Option<bool>) -> Result<bool, String> {
    let mut config = RemoteConfig::load(dir).map_err(|e| e.message)?;
    config.away = to.unwrap_or(!config.away);
    config.save(dir).map_err(|e| e.message)?;
    tracing::info!(away = config.away, "away from the desk");
    Ok(config.away)
}

fn data_dir(server: &server::Handle) -> Option<PathBuf> {
    server.state().and_then(|s| s.data_dir.clone())
}

/// Watch the desktop's idle time (every 20 s; `MOORING_IDLE_POLL_MS` for tests) and switch
/// away when the setting says so, then `changed` (the tray redraws); nothing is read while
/// the setting is 0 or no phone is paired.
pub fn watch_idle(
    app: AppHandle<Wry>,
    store: Arc<Store>,
    server: Arc<server::Handle>,
    changed: impl Fn(&AppHandle<Wry>) + Send + 'static,
) {
    let poll = std::env::var("MOORING_IDLE_POLL_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(20), Duration::from_millis);
    std::thread::spawn(move || {
        let mut watch = idle::Watch::default();
        loop {
            std::thread::sleep(poll);
            let minutes = mooring_core::settings::Setting::AwayWhenIdleMinutes.get(&store).unwrap_or(0);
            let Some(dir) = data_dir(&server) else { continue };
            let config = RemoteConfig::load(&dir).unwrap_or_default();
            let paired = Platform::ALL.into_iter().any(|p| config.bot(p).is_some_and(|b| b.paired.is_some()));
            if minutes == 0 || !paired {
                watch = idle::Watch::default();
                continue;
            }
            let Some(idle_for) = crate::idle::idle_for() else { continue };
            let Some(away) = idle::step(&mut watch, config.away, idle_for, minutes) else { continue };
            match set_away(&dir, Some(away)) {
                Ok(true) => crate::windows::notify(
                    &app,
                    "Away: questions go to your phone",
                    &format!(
                        "The desktop was idle for {minutes} min. Back at the keyboard, they come here again."
                    ),
                ),
                Ok(false) => crate::windows::notify(&app, "Back at the desk", "Questions come here again."),
                Err(e) => tracing::warn!(error = %e, "could not switch away"),
            }
            changed(&app);
        }
    });
}
