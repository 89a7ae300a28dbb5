//! The person's interaction settings, kept in `choice-settings.json` in the data
//! directory so they survive restarts.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::broker::TimeoutAction;
use super::request::{MAX_TIMEOUT, MIN_TIMEOUT, Transport};
use crate::error::{Error, Result};

/// File name in the data directory.
pub const FILE: &str = "choice-settings.json";

/// Settings; every field has a default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ChoiceSettings {
    /// Preferred surface when a request says `auto`.
    pub transport: Transport,
    /// Replace every request's timeout with this many seconds.
    pub timeout_override: Option<u32>,
    /// What a timeout returns.
    pub timeout_action: TimeoutAction,
    /// Show option descriptions.
    pub show_descriptions: bool,
    /// Show the text box placeholder.
    pub show_placeholder: bool,
    /// Offer the note fields the request allows.
    pub capture_annotations: bool,
    /// Submit single-choice questions on the first click.
    pub single_submit: bool,
    /// Seconds a provide_choice call waits before answering `pending`.
    pub wait_limit_seconds: u32,
}

impl Default for ChoiceSettings {
    fn default() -> Self {
        Self {
            transport: Transport::Auto,
            timeout_override: None,
            timeout_action: TimeoutAction::Cancel,
            show_descriptions: true,
            show_placeholder: true,
            capture_annotations: true,
            single_submit: false,
            wait_limit_seconds: 50,
        }
    }
}

impl ChoiceSettings {
    /// Read the file, defaults when it is missing.
    pub fn load(dir: &Path) -> Result<Self> {
        match std::fs::read_to_string(dir.join(FILE)) {
            Ok(text) => {
                let s: Self = serde_json::from_str(&text).map_err(|e| {
                    Error::invalid(
                        "settings",
                        format!("{} is not valid settings ({e}); fix or delete it", dir.join(FILE).display()),
                    )
                })?;
                s.check()?;
                Ok(s)
            }
            Err(_) => Ok(Self::default()),
        }
    }

    /// Check ranges.
    pub fn check(&self) -> Result<()> {
        if let Some(t) = self.timeout_override.filter(|t| !(MIN_TIMEOUT..=MAX_TIMEOUT).contains(t)) {
            return Err(Error::invalid(
                "timeout_override",
                format!("timeout_override {t} is out of range; use 10 to 86400"),
            ));
        }
        if !(1..=3600).contains(&self.wait_limit_seconds) {
            return Err(Error::invalid("wait_limit_seconds", "wait_limit_seconds must be 1 to 3600"));
        }
        Ok(())
    }

    /// Check and write the file.
    pub fn save(&self, dir: &Path) -> Result<()> {
        self.check()?;
        let text = serde_json::to_string_pretty(self).map_err(|e| Error::storage(e.to_string()))?;
        std::fs::write(dir.join(FILE), text)
            .map_err(|e| Error::storage(format!("cannot write {}: {e}", dir.join(FILE).display())))
    }
}
