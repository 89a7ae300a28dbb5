//! `SLUG some words` from the phone: kept for the project's session, handed to the next
//! prompt of a session working in it (once, to one session), as the person's own words.
//! With several sessions live in the project the words are held until the person picks
//! one (or "any") on the phone.

use chrono::{DateTime, Utc};

use crate::capture::record::SessionRecord;
use crate::error::{Error, Result};
use crate::humanize::{ago, now};
use crate::memory::Kind;
use crate::store::backend::{MemoryBackend, PageFilter};
use crate::store::{Store, phone_messages, projects};

/// The longest message kept.
pub const MAX_TEXT: usize = 2_000;

/// How many of a project's newest captured sessions are looked at for live ones.
const LOOKED_AT: u32 = 50;

/// A client session working in a project now (its hooks reported a turn lately and it
/// has not ended), as the phone offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSession {
    /// The session's key (a hash; never the client's own id).
    pub key: String,
    /// How the phone names it: the client, what the person last asked, how long ago.
    pub label: String,
}

/// The sessions of `slug` whose turn ended since `since` (RFC 3339) and that have not
/// ended, most recent first.
pub fn live_sessions(
    memory: &dyn MemoryBackend,
    slug: &str,
    since: &str,
    now: DateTime<Utc>,
) -> Result<Vec<LiveSession>> {
    let filter = PageFilter { kind: Some(Kind::Session), status: None, before: None, limit: LOOKED_AT };
    let (_, mut rows) = memory.memory_page(slug, &filter)?;
    rows.retain(|r| r.updated_at.as_str() >= since);
    rows.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let record: SessionRecord = serde_json::from_str(row.data.as_deref()?).ok()?;
            if record.ended.is_some() || record.key.is_empty() {
                return None;
            }
            let asked = record.requests.last().map(|r| format!(" “{}”", super::phone::cut(r.trim(), 32)));
            let label = format!(
                "{}{} · {}",
                record.client,
                asked.unwrap_or_default(),
                ago(Some(&row.updated_at), now)
            );
            Some(LiveSession { key: record.key, label })
        })
        .collect())
}

/// Keep `text` for project `slug`'s next prompt; secrets are taken out first. A `held`
/// message waits for [`route`].
pub fn leave(store: &Store, slug: &str, text: &str, held: bool) -> Result<i64> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return Err(Error::invalid("text", format!("say something of at most {MAX_TEXT} characters")));
    }
    let (clean, _) = crate::guard::redact::scrub(text);
    store.write(|tx| {
        let project = crate::memory::writable(tx, slug)?;
        phone_messages::add(tx, project.id, &clean, held, &now())
    })
}

/// What the person chose for held message `id` of `slug`: a session's key, any session
/// (`Some(None)`), or to drop it (`None`). False when the message was no longer held.
pub fn route(store: &Store, slug: &str, id: i64, to: Option<Option<&str>>) -> Result<bool> {
    store.write(|tx| {
        let Some(project) = projects::by_slug(tx, slug)? else { return Ok(false) };
        match to {
            Some(to) => phone_messages::route(tx, project.id, id, to),
            None => phone_messages::drop_held(tx, project.id, id),
        }
    })
}

/// The person's words waiting for session `key` of `slug`, now delivered to it, oldest
/// first.
pub fn take_words(store: &Store, slug: &str, key: &str) -> Result<Vec<String>> {
    let taken = store.write(|tx| {
        let Some(project) = projects::by_slug(tx, slug)? else { return Ok(Vec::new()) };
        phone_messages::take(tx, project.id, key, &now())
    })?;
    Ok(taken.into_iter().map(|(said, _)| said).collect())
}

/// What waits for project `slug`, now delivered to session `key`, as the context a
/// prompt hook hands the model; `None` when nothing waits.
pub fn take(store: &Store, slug: &str, key: &str) -> Result<Option<String>> {
    let taken = take_words(store, slug, key)?;
    if taken.is_empty() {
        return Ok(None);
    }
    let mut text =
        String::from("The person sent this from their phone for this session (their own words):\n");
    for said in taken {
        text.push_str(&format!("- {}\n", crate::guard::quoted::line(&said)));
    }
    Ok(Some(text))
}

#[cfg(test)]
#[path = "inbox_tests.rs"]
mod tests;
