//! Where the person answers: the chat platforms the phone reaches them on, and the
//! surface a question was answered on (stored with it, and told to the agent).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// A chat platform Mooring can reach the person on (its facts: `remote::spec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    /// Telegram's Bot API, long-polled.
    Telegram,
    /// Slack's Socket Mode.
    Slack,
}

impl Platform {
    /// Every platform, in display order.
    pub const ALL: [Platform; 2] = [Platform::Telegram, Platform::Slack];

    /// Its name on the command line, in settings and in messages (`telegram`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Telegram => "telegram",
            Self::Slack => "slack",
        }
    }

    /// From the command line's word.
    pub fn parse(word: &str) -> Result<Self, Error> {
        Platform::ALL.into_iter().find(|p| p.name() == word).ok_or_else(|| {
            let names = Platform::ALL.map(Platform::name).join(" or ");
            Error::invalid("platform", format!("unknown platform '{word}'; use {names}"))
        })
    }
}

/// The surface a question was answered on, or what ended it without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Surface {
    /// The question's page in a browser (or the desktop's window on it).
    Web,
    /// `mooring choice` in a terminal.
    Terminal,
    /// The asking client's own form (MCP elicitation).
    Elicitation,
    /// An MCP App the client shows inside the conversation.
    App,
    /// Words the person sent from the phone while a hook waited on them.
    Phone,
    /// A chat platform's buttons or reply.
    Chat(Platform),
    /// Its deadline passed (its timeout action decided).
    Timeout,
}

impl Surface {
    /// Every surface but the chat platforms, which [`Platform::ALL`] lists.
    const OWN: [Surface; 6] =
        [Self::Web, Self::Terminal, Self::Elicitation, Self::App, Self::Phone, Self::Timeout];

    /// Its name in storage and JSON: a chat platform's own name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Web => "web",
            Self::Terminal => "terminal",
            Self::Elicitation => "elicitation",
            Self::App => "app",
            Self::Phone => "phone",
            Self::Chat(p) => p.name(),
            Self::Timeout => "timeout",
        }
    }

    /// The chat platform it is, when it is one.
    pub fn platform(self) -> Option<Platform> {
        match self {
            Self::Chat(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Surface {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Some(own) = Self::OWN.into_iter().find(|v| v.as_str() == s) {
            return Ok(own);
        }
        Platform::parse(s).map(Self::Chat).map_err(|_| {
            let mut names: Vec<&str> = Self::OWN.iter().map(|v| v.as_str()).collect();
            names.extend(Platform::ALL.map(Platform::name));
            Error::invalid("surface", format!("surface '{s}' is not one of {}", names.join(", ")))
        })
    }
}

impl Serialize for Surface {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Surface {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(|e: Error| serde::de::Error::custom(e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_surface_reads_back_from_its_name_and_an_unknown_one_is_refused() {
        let all = Surface::OWN.into_iter().chain(Platform::ALL.map(Surface::Chat));
        for s in all {
            assert_eq!(s.as_str().parse::<Surface>().unwrap(), s);
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        assert_eq!("slack".parse::<Surface>().unwrap().platform(), Some(Platform::Slack));
        let err = "native".parse::<Surface>().unwrap_err();
        assert_eq!(err.field.as_deref(), Some("surface"));
        assert!(
            err.message.contains("web, terminal") && err.message.contains("telegram, slack"),
            "{}",
            err.message
        );
    }
}
