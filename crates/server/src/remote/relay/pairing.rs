//! Someone who is not the paired person: only a pairing code, sent in a one-to-one chat
//! with the bot, is heard; a few wrong codes spend the open code.

use chrono::Utc;
use mooring_core::remote::config_file::Edit;
use mooring_core::remote::{Command, Platform, RemoteConfig};

use super::{Incoming, Outgoing, Relay};

/// Wrong pairing codes before the open code is spent (a guess is one in 10^8).
pub const PAIRING_TRIES: u32 = 5;

impl Relay {
    /// A message from someone other than the paired person; the reply, if they paired.
    /// The settings are read again under their lock: what this changes (a pairing, a
    /// spent code) is made to the latest, never to a copy another writer has replaced.
    pub(super) fn stranger(&self, platform: Platform, msg: &Incoming) -> Vec<Outgoing> {
        let mut config = match RemoteConfig::edit(&self.data_dir) {
            Ok(config) => config,
            Err(e) => {
                tracing::warn!(error = %e.message, "remote settings unreadable");
                return Vec::new();
            }
        };
        let Some(bot) = config.bot_mut(platform).as_mut() else { return Vec::new() };
        let had_code = bot.pairing.is_some();
        // Only a pairing code from someone is heard; nobody else gets an answer.
        let said = msg.text.as_deref().unwrap_or("");
        let parsed = mooring_core::remote::parse(said, |_| false);
        let said_a_code = matches!(parsed, Ok(Command::Pair { .. })) && bot.paired.is_none();
        // Pairing happens in the person's one-to-one chat with the bot, never a group.
        if let Ok(Command::Pair { code }) = parsed
            && msg.private
            && bot.paired.is_none()
            && bot.try_pair(&code, &msg.user, &msg.chat, Utc::now())
        {
            let saved = config.save();
            if let Err(e) = saved {
                tracing::warn!(error = %e.message, "could not keep the pairing");
                return Vec::new();
            }
            tracing::info!(platform = platform.name(), "a phone paired");
            return vec![Outgoing::text(
                &msg.chat,
                &format!(
                    "Paired with Mooring. Type `away` when you leave the desk.\n\n{}",
                    mooring_core::remote::commands::HELP
                ),
            )];
        }
        // A code that matched too late is spent: keep that; anything else wrote nothing.
        if config.bot(platform).is_some_and(|b| b.pairing.is_none() && b.paired.is_none()) && had_code {
            let _ = config.save();
        } else if said_a_code && had_code {
            self.missed(platform, &mut config);
        }
        tracing::warn!(
            platform = platform.name(),
            "refused a message from someone who is not the paired person"
        );
        Vec::new()
    }

    /// One more wrong pairing code: after [`PAIRING_TRIES`] the open code is spent.
    fn missed(&self, platform: Platform, config: &mut Edit) {
        let Some(bot) = config.bot_mut(platform).as_mut() else { return };
        let Some((hash, _)) = bot.pairing.clone() else { return };
        let mut misses = self.misses.lock().unwrap_or_else(|e| e.into_inner());
        let n = misses.entry(hash.clone()).or_default();
        *n += 1;
        if *n < PAIRING_TRIES {
            return;
        }
        misses.remove(&hash);
        bot.pairing = None;
        if let Err(e) = config.save() {
            tracing::warn!(error = %e.message, "could not spend the pairing code");
        }
        tracing::warn!(
            platform = platform.name(),
            "{PAIRING_TRIES} wrong pairing codes: the code is spent; `mooring remote pair {}` makes a new one",
            platform.name()
        );
    }
}
