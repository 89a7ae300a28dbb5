//! `SLUG some words` from the phone: kept for the project's session, handed to the next
//! prompt of a session working in it (once, to one session), as the person's own words.

use crate::error::{Error, Result};
use crate::humanize::now;
use crate::store::{Store, phone_messages, projects};

/// The longest message kept.
pub const MAX_TEXT: usize = 2_000;

/// Keep `text` for project `slug`'s next prompt; secrets are taken out first.
pub fn leave(store: &Store, slug: &str, text: &str) -> Result<i64> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return Err(Error::invalid("text", format!("say something of at most {MAX_TEXT} characters")));
    }
    let (clean, _) = crate::guard::redact::scrub(text);
    store.write(|tx| {
        let project = crate::memory::writable(tx, slug)?;
        phone_messages::add(tx, project.id, &clean, &now())
    })
}

/// What waits for project `slug`, now delivered to session `key`, as the context a
/// prompt hook hands the model; `None` when nothing waits.
pub fn take(store: &Store, slug: &str, key: &str) -> Result<Option<String>> {
    let taken = store.write(|tx| {
        let Some(project) = projects::by_slug(tx, slug)? else { return Ok(Vec::new()) };
        phone_messages::take(tx, project.id, key, &now())
    })?;
    if taken.is_empty() {
        return Ok(None);
    }
    let mut text =
        String::from("The person sent this from their phone for this session (their own words):\n");
    for (said, _) in taken {
        text.push_str(&format!("- {}\n", crate::guard::quoted::line(&said)));
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewProject, Registry};

    #[test]
    fn a_message_reaches_one_session_once_without_secrets() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "App".into(), ..NewProject::default() }).unwrap();
        leave(&store, "app", "also update the README, token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB")
            .unwrap();
        let got = take(&store, "app", "claude-code:1").unwrap().unwrap();
        assert!(got.contains("also update the README") && !got.contains("ghp_0123"), "{got}");
        assert_eq!(take(&store, "app", "claude-code:2").unwrap(), None);
        assert!(leave(&store, "nope", "x").is_err());
        assert_eq!(leave(&store, "app", "  ").unwrap_err().field.as_deref(), Some("text"));
    }
}
