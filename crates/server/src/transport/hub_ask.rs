//! One question a short-lived process (a hook, `mooring memory add`, `mooring memory
//! search`) asks the hub over its socket instead of loading the model itself: the
//! entries nearest a text by meaning. The hub holds the model and every project's
//! vectors already; a prompt hook that loaded them itself spent 60 ms and 40 MB on it.
//! A hook that asks the person something (a write into a file another session holds,
//! for a client that cannot ask itself) has the hub show its question the same way.
//!
//! The question is one JSON line in place of the shim's hello (`{"ask": …}`), the answer
//! one line back, then the hub closes. Who may ask is checked as for the shim (the
//! socket's mode and the peer's uid). A hub that is down, slow or old is no answer: the
//! process then does the work itself.

use std::time::Duration;

use mooring_core::search::semantic::TextQuery;
use mooring_core::store::backend::RowHit;
use serde::{Deserialize, Serialize};

/// Longest a process waits for the hub's answer before doing the work itself.
pub const WAIT: Duration = Duration::from_millis(400);
/// Longest answer read (a search's hits, at most 100 entries of bounded size).
pub const MOST_ANSWER: u64 = 8 << 20;

/// A question's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// What is asked.
    pub ask: Question,
}

/// What can be asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// The entries nearest a text by meaning.
    Nearest(TextQuery),
    /// Show the person a question a hook opened in the store (by its id), as the hub
    /// shows its own: the desktop's window or the browser, the tray's count.
    Show(String),
}

/// The answer's line.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The hits, best first.
    Hits(Vec<RowHit>),
    /// Why there are none (as the process would have said it).
    Unavailable(String),
    /// Whether the question was shown (it is still waiting, and the hub has a page).
    Shown(bool),
}

/// Whether a first line is a question rather than a shim's hello.
pub fn is_question(line: &str) -> bool {
    line.trim_start().starts_with("{\"ask\"")
}

/// Answer `line` with `memory`; the answer's line.
pub fn answer(memory: &dyn mooring_core::store::backend::MemoryBackend, line: &str) -> String {
    let answer = match serde_json::from_str::<Ask>(line.trim_end()) {
        Ok(Ask { ask: Question::Nearest(q) }) => {
            match mooring_core::search::semantic::nearest_text(memory, &q) {
                Ok(hits) => Answer::Hits(hits),
                Err(why) => Answer::Unavailable(why),
            }
        }
        // Shown by the socket's handler, which holds what shows it.
        Ok(Ask { ask: Question::Show(_) }) => Answer::Shown(false),
        Err(e) => Answer::Unavailable(format!("the hub did not understand the question: {e}")),
    };
    let mut out = serde_json::to_string(&answer).unwrap_or_else(|_| "{\"unavailable\":\"\"}".into());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_is_told_from_a_hello_and_round_trips() {
        let q = TextQuery {
            text: "how do leases renew?".into(),
            project: Some("leases".into()),
            kind: None,
            limit: 20,
            newest: Some(10_000),
            least: Some(0.5),
        };
        let line = serde_json::to_string(&Ask { ask: Question::Nearest(q.clone()) }).unwrap();
        assert!(is_question(&line), "{line}");
        assert!(!is_question(r#"{"mooring":1,"session":"msh_x"}"#));
        let back: Ask = serde_json::from_str(&line).unwrap();
        assert_eq!(back.ask, Question::Nearest(q));
    }

    #[test]
    fn a_question_it_cannot_read_gets_a_reason_not_a_hang() {
        let store = mooring_core::Store::open_in_memory().unwrap();
        let line = answer(&store, "{\"ask\":{\"rewrite\":1}}");
        let a: Answer = serde_json::from_str(&line).unwrap();
        assert!(matches!(a, Answer::Unavailable(why) if why.contains("did not understand")), "{line}");
    }
}
