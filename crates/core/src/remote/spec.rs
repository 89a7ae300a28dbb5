//! Each chat platform's facts in one row (its name is the enum's, in `model`): its title, where its API lives, the
//! tokens it needs and what they look like, the words that pair a phone, and how a
//! person answers a question in words there. A new platform is a new row here and its
//! transport in the server.

use super::config::Platform;

/// One platform's facts.
#[derive(Debug)]
pub struct Spec {
    /// Its name for people (`Telegram`).
    pub title: &'static str,
    /// Where its API lives unless the settings say otherwise.
    pub api: &'static str,
    /// The prompt for its token.
    pub token_prompt: &'static str,
    /// What its token looks like, for one that does not.
    pub token_shape: &'static str,
    /// Whether a token has its shape.
    pub token_ok: fn(&str) -> bool,
    /// A second token it posts with, when it has one.
    pub bot_token: Option<SecondToken>,
    /// What the person sends the bot to pair, before the code.
    pub pairing: &'static str,
    /// How to answer a question in words there (shown under a question that takes them).
    pub reply_hint: &'static str,
}

/// A platform's second token (Slack posts with its bot token).
#[derive(Debug)]
pub struct SecondToken {
    /// The prompt for it.
    pub prompt: &'static str,
    /// How it starts.
    pub prefix: &'static str,
    /// What it looks like and where to find it, for one that does not.
    pub shape: &'static str,
}

/// Telegram: the Bot API, long-polled, one token from @BotFather.
const TELEGRAM: Spec = Spec {
    title: "Telegram",
    api: "https://api.telegram.org",
    token_prompt: "The Telegram bot's token (from @BotFather)",
    token_shape: "a Telegram bot token looks like 123456789:AA… (from @BotFather)",
    // <bot id>:<secret>, as BotFather gives it.
    token_ok: |token| {
        token
            .split_once(':')
            .is_some_and(|(id, s)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) && s.len() >= 20)
    },
    bot_token: None,
    pairing: "/start",
    reply_hint: "✍ Reply to this message to answer in words.",
};

/// Slack: Socket Mode with the app-level token, posting with the bot token. Its app would
/// take `/start` for a slash command it does not have, so pairing says `pair`.
const SLACK: Spec = Spec {
    title: "Slack",
    api: "https://slack.com/api",
    token_prompt: "The Slack app's app-level token (xapp-…)",
    token_shape: "Slack's Socket Mode needs the app-level token, xapp-… (Basic Information → App-Level Tokens, scope connections:write)",
    token_ok: |token| token.starts_with("xapp-"),
    bot_token: Some(SecondToken {
        prompt: "The Slack app's bot token (xoxb-…)",
        prefix: "xoxb-",
        shape: "it starts with xoxb- (OAuth & Permissions → Bot User OAuth Token)",
    }),
    pairing: "pair",
    // Slack has no forced reply: a reply there is one in the message's thread.
    reply_hint: "✍ Reply in this message's thread to answer in words.",
};

impl Platform {
    /// Its facts.
    pub fn spec(self) -> &'static Spec {
        match self {
            Platform::Telegram => &TELEGRAM,
            Platform::Slack => &SLACK,
        }
    }

    /// Where its API lives unless the settings say otherwise.
    pub fn default_api(self) -> &'static str {
        self.spec().api
    }

    /// What the person sends the bot to pair with `code`.
    pub fn pairing_words(self, code: &str) -> String {
        format!("{} {code}", self.spec().pairing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_platform_tells_its_own_tokens() {
        let telegram = Platform::Telegram.spec();
        assert!((telegram.token_ok)("123456789:AAbbccddeeffgghhiijjkk"));
        assert!(
            !(telegram.token_ok)(":AAbbccddeeffgghhiijjkk")
                && !(telegram.token_ok)("12a:AAbbccddeeffgghhiijj")
        );
        assert!(!(telegram.token_ok)("123456789:short"));
        let slack = Platform::Slack.spec();
        assert!((slack.token_ok)("xapp-1-A0-1-abc") && !(slack.token_ok)("xoxb-1-abc"));
        assert_eq!(Platform::Slack.pairing_words("1234 5678"), "pair 1234 5678");
        assert_eq!(Platform::Telegram.pairing_words("1234 5678"), "/start 1234 5678");
        for p in Platform::ALL {
            assert_eq!(Platform::parse(p.name()).unwrap(), p);
        }
    }
}
