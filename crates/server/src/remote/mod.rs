//! The phone, away from the desk: the hub keeps one transport per paired platform
//! running (outbound connections only), restarting it when `remote.json` changes.

mod backoff;
pub mod http;
pub mod relay;
mod slack;
pub mod status;
mod telegram;
mod transport;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mooring_core::remote::{Bot, Platform, RemoteConfig};
use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// Write `text` to the person paired on `platform` now (`mooring remote test`); the
/// error is a sentence for them.
pub async fn send_now(platform: Platform, config: &RemoteConfig, text: &str) -> Result<(), String> {
    let bot = config
        .bot(platform)
        .ok_or_else(|| format!("no {0} bot: add one with `mooring remote add {0}`", platform.name()))?;
    let paired = bot.paired.as_ref().ok_or_else(|| {
        format!(
            "the {0} bot is not paired yet: send it the code (`mooring remote pair {0}` makes a new one)",
            platform.name()
        )
    })?;
    if !http::safe_base(&bot.api) {
        return Err(format!("{} would carry the token in the clear", bot.api));
    }
    // Written here, not through the relay's delivery: scrubbed here too.
    let out = relay::Outgoing::text(&paired.chat, text).scrubbed();
    use transport::Transport;
    let sent = match platform {
        Platform::Telegram => telegram::Telegram::new(bot)?.write(&out).await,
        Platform::Slack => slack::Slack::new(bot)?.write(&out).await,
    };
    sent.map(|_| ()).map_err(|e| format!("{} said: {e}", platform.name()))
}

/// Follow the remote settings until `cancel`: start each configured platform, restart it
/// when its settings change, stop it when removed.
pub fn start(state: Arc<AppState>, data_dir: PathBuf, cancel: CancellationToken) {
    let relay = relay::Relay::new(state, data_dir.clone());
    let health = Arc::new(status::Health::new(data_dir.clone()));
    tokio::spawn(async move {
        let mut running: HashMap<&'static str, (Bot, CancellationToken)> = HashMap::new();
        let settings = mooring_core::remote::config_file::Watched::new(&data_dir);
        loop {
            let config = settings.get().unwrap_or_default();
            for p in Platform::ALL {
                let want = config.bot(p).filter(|b| http::safe_base(&b.api)).cloned();
                let same = match (running.get(p.name()), &want) {
                    (Some((had, _)), Some(now)) => {
                        had.token == now.token && had.bot_token == now.bot_token && had.api == now.api
                    }
                    (None, None) => true,
                    _ => false,
                };
                if same {
                    continue;
                }
                if let Some((_, stop)) = running.remove(p.name()) {
                    stop.cancel();
                    health.remove(p);
                }
                if let Some(bot) = want {
                    crate::logging::also_redact(&bot.token);
                    if let Some(t) = &bot.bot_token {
                        crate::logging::also_redact(t);
                    }
                    let stop = cancel.child_token();
                    match p {
                        Platform::Telegram => tokio::spawn(telegram::run(
                            bot.clone(),
                            relay.clone(),
                            health.clone(),
                            stop.clone(),
                        )),
                        Platform::Slack => {
                            tokio::spawn(slack::run(bot.clone(), relay.clone(), health.clone(), stop.clone()))
                        }
                    };
                    running.insert(p.name(), (bot, stop));
                }
            }
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
        }
    });
}
