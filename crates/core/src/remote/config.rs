//! The remote settings file (`remote.json` in the data directory, 0600 like the API
//! token): each platform's bot token, its pairing code (kept hashed, single-use, ten
//! minutes) and, once paired, the one person it answers; and whether the person is away.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a pairing code stays good.
pub const PAIRING_MINUTES: i64 = 10;

pub use crate::model::Platform;

/// The one person a bot answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    /// The platform's id of the person (Telegram user id, Slack user id).
    pub user: String,
    /// Where to write to them (Telegram chat id, Slack DM channel).
    pub chat: String,
    /// When they paired (RFC 3339).
    pub at: String,
}

/// One platform's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bot {
    /// The bot's token (Telegram) or app-level token (Slack, `xapp-`).
    pub token: String,
    /// Slack's bot token (`xoxb-`), for posting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
    /// The API's base URL (a stand-in's, in tests).
    pub api: String,
    /// SHA-256 of the pairing code still open, and until when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<(String, String)>,
    /// The person, once paired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<Paired>,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteConfig {
    /// Questions, picks and prompts go to the phone.
    #[serde(default)]
    pub away: bool,
    /// Telegram, when added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub telegram: Option<Bot>,
    /// Slack, when added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slack: Option<Bot>,
    /// Projects kept off the phone: nothing of theirs is sent, no command reaches them,
    /// their sessions' prompts stay at the desk.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub never_remote: std::collections::BTreeSet<String>,
}

impl RemoteConfig {
    /// Whether the person is away with a paired phone.
    pub fn away_with_phone(&self) -> bool {
        self.away && Platform::ALL.into_iter().any(|p| self.bot(p).is_some_and(|b| b.paired.is_some()))
    }

    /// Whether project `slug` may reach the phone.
    pub fn remote_ok(&self, slug: &str) -> bool {
        !self.never_remote.contains(slug)
    }

    /// Whether a question asked in `project` may reach the phone: a project's unless it
    /// is kept off; one whose project is not known only while no project is kept off.
    pub fn question_ok(&self, project: Option<&str>) -> bool {
        match project {
            Some(slug) => self.remote_ok(slug),
            None => self.never_remote.is_empty(),
        }
    }

    /// One platform's settings.
    pub fn bot(&self, p: Platform) -> Option<&Bot> {
        match p {
            Platform::Telegram => self.telegram.as_ref(),
            Platform::Slack => self.slack.as_ref(),
        }
    }

    /// One platform's settings, to change.
    pub fn bot_mut(&mut self, p: Platform) -> &mut Option<Bot> {
        match p {
            Platform::Telegram => &mut self.telegram,
            Platform::Slack => &mut self.slack,
        }
    }
}

impl Bot {
    /// A new bot, not paired yet, with a fresh pairing code (returned, shown once).
    pub fn new(token: String, api: String, now: DateTime<Utc>) -> (Self, String) {
        let mut bot = Bot { token, bot_token: None, api, pairing: None, paired: None };
        let code = bot.new_code(now);
        (bot, code)
    }

    /// A fresh pairing code (`1234-5678`); the old one, if any, stops working.
    pub fn new_code(&mut self, now: DateTime<Utc>) -> String {
        let bytes = crate::guard::secret::random_bytes::<8>();
        let n = u64::from_le_bytes(bytes) % 100_000_000;
        let code = format!("{:04}-{:04}", n / 10_000, n % 10_000);
        let until = crate::humanize::format_ts(now + Duration::minutes(PAIRING_MINUTES));
        self.pairing = Some((hash(&code), until));
        code
    }

    /// Pair with `user` writing from `chat` when `code` is the open code, still in time;
    /// the code is used up either way once it matched. Whether it paired.
    pub fn try_pair(&mut self, code: &str, user: &str, chat: &str, now: DateTime<Utc>) -> bool {
        let Some((want, until)) = &self.pairing else { return false };
        let typed: String = code.chars().filter(char::is_ascii_digit).collect();
        let typed = if typed.len() == 8 { format!("{}-{}", &typed[..4], &typed[4..]) } else { typed };
        let in_time = DateTime::parse_from_rfc3339(until).is_ok_and(|u| now < u);
        if !crate::guard::secret::same(hash(&typed), want) {
            return false;
        }
        self.pairing = None;
        if !in_time {
            return false;
        }
        self.paired = Some(Paired {
            user: user.to_owned(),
            chat: chat.to_owned(),
            at: crate::humanize::format_ts(now),
        });
        true
    }

    /// Whether `user` is the paired person.
    pub fn is_paired_user(&self, user: &str) -> bool {
        self.paired.as_ref().is_some_and(|p| crate::guard::secret::same(&p.user, user))
    }
}

fn hash(code: &str) -> String {
    Sha256::digest(code.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_pairs_one_person_once_within_ten_minutes() {
        let now = Utc::now();
        let (mut bot, code) = Bot::new("123:abc".into(), "http://127.0.0.1:1".into(), now);
        assert!(code.len() == 9 && code.as_bytes()[4] == b'-', "{code}");
        let wrong = format!("{}{}", if code.starts_with('1') { '2' } else { '1' }, &code[1..]);
        assert!(!bot.try_pair(&wrong, "7", "7", now) && bot.pairing.is_some());
        assert!(bot.try_pair(&code.replace('-', " "), "42", "4242", now));
        assert!(bot.is_paired_user("42") && !bot.is_paired_user("43"));
        // Used up: nobody else pairs with it.
        assert!(!bot.try_pair(&code, "43", "43", now));
        assert_eq!(bot.paired.as_ref().unwrap().user, "42");

        let (mut late, code) = Bot::new("t".into(), "a".into(), now);
        assert!(!late.try_pair(&code, "42", "42", now + Duration::minutes(PAIRING_MINUTES + 1)));
        assert!(late.paired.is_none() && late.pairing.is_none());
    }
}
