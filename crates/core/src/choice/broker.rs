//! The broker: interactions as rows in `choices`, the authoritative deadline, and the
//! normalized answer. Surfaces render and call [`Broker::submit`]; nothing else decides.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

pub use answer::normalize;
use answer::{ordered, summarize};

use super::request::{ActionStatus, Checked, ChoiceResponse, Selection};
use crate::error::{Error, Result};
use crate::humanize::format_ts;
use crate::model::{ChoiceStatus, Surface};
use crate::store::Store;
use crate::store::choices::{self, ChoiceRow, NewChoice};

/// What happens when nobody answers in time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutAction {
    /// Return `timeout` with nothing selected.
    #[default]
    Cancel,
    /// Return `timeout` with the default selection.
    UseDefaults,
}

/// What a surface sends back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Submission {
    /// The person cancelled.
    #[serde(default)]
    pub cancel: bool,
    /// Chosen ids; `None` means the defaults were left untouched.
    #[serde(default)]
    pub selected_ids: Option<Vec<String>>,
    /// Typed text.
    #[serde(default)]
    pub custom_input: Option<String>,
    /// Notes per option.
    #[serde(default)]
    pub option_annotations: BTreeMap<String, String>,
    /// Note on the whole answer.
    #[serde(default)]
    pub global_annotation: Option<String>,
}

/// One interaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interaction {
    /// Id (the `session_id` agents follow up with).
    pub id: String,
    /// Secret for the page and the terminal.
    pub token: String,
    /// The asking agent session.
    pub session_id: Option<String>,
    /// The checked request.
    pub checked: Checked,
    /// What happens on timeout.
    pub timeout_action: TimeoutAction,
    /// Where it stands.
    pub status: ChoiceStatus,
    /// Which surface answered.
    pub surface: Option<Surface>,
    /// Asked at (RFC 3339).
    pub created_at: String,
    /// Authoritative deadline (RFC 3339).
    pub deadline_at: String,
    /// The final answer, once there is one.
    pub response: Option<ChoiceResponse>,
    /// The project it was asked in (resolved as it opened), when one was known.
    pub project: Option<String>,
}

impl Interaction {
    /// Seconds until the deadline (0 when past).
    pub fn remaining(&self, now: DateTime<Utc>) -> i64 {
        DateTime::parse_from_rfc3339(&self.deadline_at)
            .map(|d| (d.with_timezone(&Utc) - now).num_seconds().max(0))
            .unwrap_or(0)
    }
}

#[derive(Serialize, Deserialize)]
struct Stored {
    checked: Checked,
    timeout_action: TimeoutAction,
}

/// Interactions over a store.
pub struct Broker<'a> {
    store: &'a Store,
}

impl<'a> Broker<'a> {
    /// A broker over the store.
    pub fn new(store: &'a Store) -> Self {
        Self { store }
    }

    /// Open an interaction for a checked request.
    pub fn open(
        &self,
        checked: Checked,
        session: Option<&str>,
        timeout_action: TimeoutAction,
    ) -> Result<Interaction> {
        self.open_in(checked, session, None, timeout_action)
    }

    /// [`Broker::open`], in `project` (the asker's, resolved as it asks; else the
    /// session's): what decides whether it may reach the phone, and what the phone names.
    pub fn open_in(
        &self,
        checked: Checked,
        session: Option<&str>,
        project: Option<&str>,
        timeout_action: TimeoutAction,
    ) -> Result<Interaction> {
        let id = format!("c-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let token = crate::guard::secret::random_id(crate::guard::secret::QUESTION_TOKEN);
        let now = Utc::now();
        let deadline = format_ts(now + Duration::seconds(i64::from(checked.timeout)));
        let stored = serde_json::to_string(&Stored { checked, timeout_action })
            .map_err(|e| Error::storage(e.to_string()))?;
        let created_at = format_ts(now);
        let new = NewChoice {
            id: &id,
            token: &token,
            session_id: session,
            request: &stored,
            created_at: &created_at,
            deadline_at: &deadline,
            project,
        };
        self.store.write(|tx| choices::insert(tx, &new))?;
        self.get(&id)
    }

    /// An interaction by id, timed out first if its deadline has passed.
    pub fn get(&self, id: &str) -> Result<Interaction> {
        self.expire_due(Utc::now())?;
        self.load(id)?.ok_or_else(|| {
            Error::not_found(
                "session_id",
                format!("no interaction '{id}'; start a new one with provide_choice"),
            )
        })
    }

    /// An interaction, only for the holder of its token (page, terminal).
    pub fn get_with_token(&self, id: &str, token: &str) -> Result<Interaction> {
        let i = self.get(id)?;
        if !crate::guard::secret::same(&i.token, token) {
            return Err(Error::not_found("token", format!("no interaction '{id}' for this token")));
        }
        Ok(i)
    }

    fn load(&self, id: &str) -> Result<Option<Interaction>> {
        self.store.read(|c| choices::get(c, id))?.map(decode).transpose()
    }

    /// Questions still waiting, oldest first.
    pub fn open_list(&self) -> Result<Vec<Interaction>> {
        self.expire_due(Utc::now())?;
        self.store.read(choices::pending)?.into_iter().map(decode).collect()
    }

    /// Record the person's answer (or cancel) from `surface`; returns the final response.
    /// Secrets in the typed answer and the notes are redacted (the response says so).
    pub fn submit(&self, id: &str, sub: &Submission, surface: Surface) -> Result<ChoiceResponse> {
        let i = self.get(id)?;
        if !i.status.is_pending() {
            return Err(Error::conflict("session_id", format!("interaction '{id}' is already {}", i.status)));
        }
        // The person's free text is stored with the answer: no secret in it is kept.
        let (sub, redacted) = scrub_notes(sub);
        let sub = &sub;
        let mut response = if sub.cancel {
            finish(&i, ActionStatus::Cancelled, Selection::default(), surface, "The person cancelled.".into())
        } else {
            let (status, selection) = normalize(&i.checked, sub)?;
            let summary = summarize(&i.checked, status, &selection);
            finish(&i, status, selection, surface, summary)
        };
        if redacted.count > 0 {
            response.warnings.push(redacted.message);
        }
        let status = if sub.cancel { ChoiceStatus::Cancelled } else { ChoiceStatus::Answered };
        self.store_final(id, status, surface, &response)?;
        Ok(response)
    }

    /// Move the deadline: `remaining` seconds from now (10 s to 24 h).
    pub fn set_remaining(&self, id: &str, remaining: u32) -> Result<Interaction> {
        if !(super::request::MIN_TIMEOUT..=super::request::MAX_TIMEOUT).contains(&remaining) {
            return Err(Error::invalid("remaining_seconds", "remaining_seconds must be 10 to 86400"));
        }
        let i = self.get(id)?;
        if !i.status.is_pending() {
            return Err(Error::conflict("session_id", format!("interaction '{id}' is already {}", i.status)));
        }
        let deadline = format_ts(Utc::now() + Duration::seconds(i64::from(remaining)));
        self.store.write(|tx| choices::set_deadline(tx, id, &deadline))?;
        self.get(id)
    }

    /// Time out every pending interaction past its deadline. Returns how many.
    pub fn expire_due(&self, now: DateTime<Utc>) -> Result<usize> {
        let due = self.store.read(|c| choices::due(c, &format_ts(now)))?;
        let count = due.len();
        for row in due {
            let i = decode(row)?;
            let selection = match i.timeout_action {
                TimeoutAction::UseDefaults => Selection {
                    selected_ids: ordered(&i.checked, &i.checked.request.default_selection_ids),
                    ..Selection::default()
                },
                TimeoutAction::Cancel => Selection::default(),
            };
            let summary = match i.timeout_action {
                TimeoutAction::UseDefaults if !selection.selected_ids.is_empty() => {
                    format!(
                        "No answer in time; the defaults were used: {}.",
                        selection.selected_ids.join(", ")
                    )
                }
                _ => "No answer in time; nothing was chosen.".to_owned(),
            };
            let response = finish(&i, ActionStatus::Timeout, selection, Surface::Timeout, summary);
            self.store_final(&i.id, ChoiceStatus::TimedOut, Surface::Timeout, &response)?;
        }
        Ok(count)
    }

    fn store_final(
        &self,
        id: &str,
        status: ChoiceStatus,
        surface: Surface,
        response: &ChoiceResponse,
    ) -> Result<()> {
        let json = serde_json::to_string(response).map_err(|e| Error::storage(e.to_string()))?;
        self.store.write(|tx| choices::close(tx, id, status, surface, &json, &crate::humanize::now()))
    }
}

/// The submission with secrets taken out of every free-text field.
fn scrub_notes(sub: &Submission) -> (Submission, crate::guard::redact::Redactions) {
    let mut found = crate::guard::redact::Redactions::default();
    let out = Submission {
        cancel: sub.cancel,
        selected_ids: sub.selected_ids.clone(),
        custom_input: sub.custom_input.as_deref().map(|t| found.clean(t)),
        option_annotations: sub.option_annotations.iter().map(|(k, v)| (k.clone(), found.clean(v))).collect(),
        global_annotation: sub.global_annotation.as_deref().map(|t| found.clean(t)),
    };
    (out, found)
}

fn decode(r: ChoiceRow) -> Result<Interaction> {
    let ChoiceRow {
        id,
        token,
        session_id,
        request,
        status,
        surface,
        created_at,
        deadline_at,
        response,
        project,
    } = r;
    let stored: Stored = serde_json::from_str(&request)
        .map_err(|e| Error::storage(format!("interaction {id} is unreadable: {e}")))?;
    Ok(Interaction {
        id,
        token,
        session_id,
        checked: stored.checked,
        timeout_action: stored.timeout_action,
        status,
        surface,
        created_at,
        deadline_at,
        response: response.and_then(|r| serde_json::from_str(&r).ok()),
        project,
    })
}

fn finish(
    i: &Interaction,
    status: ActionStatus,
    mut selection: Selection,
    surface: Surface,
    summary: String,
) -> ChoiceResponse {
    selection.session_id = i.id.clone();
    selection.summary = summary;
    ChoiceResponse {
        action_status: status,
        selection,
        surface: Some(surface),
        warnings: i.checked.warnings.clone(),
    }
}

mod answer;
mod history;
#[cfg(test)]
mod tests;
