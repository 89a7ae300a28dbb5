//! Queries on `phone_posts`: the messages the phone's relay posted for a question or a
//! project pick (platform by its name, chat, message id), so a restarted hub finds them.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// A message the relay posted for a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Post {
    /// The question's (`c-…`) or pick's (`p-…`) id.
    pub question: String,
    /// The platform's name (`telegram`).
    pub platform: String,
    /// Where.
    pub chat: String,
    /// The platform's id of the message (empty when none was shown).
    pub message: String,
}

/// Keep `post` (once: the same message again changes nothing).
pub fn add(conn: &Connection, post: &Post, now: &str) -> Result<()> {
    conn.exec(
        "INSERT OR IGNORE INTO phone_posts (question, platform, chat, message, posted_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![post.question, post.platform, post.chat, post.message, now],
    )?;
    Ok(())
}

/// Forget `question`'s messages on `platform` (they were rewritten as it ended).
pub fn remove(conn: &Connection, question: &str, platform: &str) -> Result<()> {
    conn.exec("DELETE FROM phone_posts WHERE question = ?1 AND platform = ?2", params![question, platform])?;
    Ok(())
}

/// Every message kept, oldest first.
pub fn all(conn: &Connection) -> Result<Vec<Post>> {
    let mut stmt = conn.prepare_cached(
        "SELECT question, platform, chat, message FROM phone_posts ORDER BY posted_at, question",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Post { question: r.get(0)?, platform: r.get(1)?, chat: r.get(2)?, message: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn a_post_is_kept_once_and_goes_per_platform() {
        let store = Store::open_in_memory().unwrap();
        let post = |platform: &str, message: &str| Post {
            question: "c-1".into(),
            platform: platform.into(),
            chat: "42".into(),
            message: message.into(),
        };
        store
            .write(|tx| {
                add(tx, &post("telegram", "m1"), "2026-11-29T00:00:00Z")?;
                add(tx, &post("telegram", "m1"), "2026-11-29T00:00:01Z")?;
                add(tx, &post("slack", "1.2"), "2026-11-29T00:00:02Z")
            })
            .unwrap();
        assert_eq!(store.read(all).unwrap(), [post("telegram", "m1"), post("slack", "1.2")]);
        store.write(|tx| remove(tx, "c-1", "telegram")).unwrap();
        assert_eq!(store.read(all).unwrap(), [post("slack", "1.2")]);
    }
}
