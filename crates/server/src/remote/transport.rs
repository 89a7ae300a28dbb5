//! The one seam every platform fills: write or rewrite a message. What is shared — the
//! tick that posts waiting questions, handing the person's doing to the relay, reporting
//! the messages' ids back — is written once here, over any transport.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mooring_core::remote::{Platform, phone};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::backoff::Backoff;
use super::http::CallError;
use super::relay::{Incoming, Outgoing, Relay};
use super::status::Health;

/// A chat platform as the relay uses it.
pub trait Transport: Send + Sync + 'static {
    /// Which platform this is.
    const PLATFORM: Platform;

    /// Write `out` (or rewrite the message it names); the new message's id when written.
    fn write(&self, out: &Outgoing) -> impl Future<Output = Result<Option<String>, CallError>> + Send;

    /// Whether `e` refuses this one message (its text, its buttons) rather than saying
    /// the platform is out of reach or the token is bad: a 400, by default.
    fn refuses_content(e: &CallError) -> bool {
        matches!(e, CallError::Refused { status: 400, .. })
    }
}

/// What stands in for a message `platform` refused: short, no buttons, nothing of the
/// refused text; a question it carried is answered at the desk.
pub fn refused_note(out: &Outgoing, e: &CallError, platform: Platform) -> Outgoing {
    let why = match e {
        CallError::Refused { message, .. } => phone::cut(message, 80),
        CallError::Network(why) => phone::cut(why, 80),
    };
    let what = if out.question.is_some() { "A question" } else { "A message" };
    let text = format!(
        "⚠ {what} could not be shown here ({} said: {why}). Open it at the desk.",
        platform.spec().title
    );
    Outgoing { text, buttons: Vec::new(), wants_reply: false, ..out.clone() }
}

/// Write each message in order, reporting question messages' ids to the relay.
pub async fn deliver<T: Transport>(t: &T, relay: &Relay, outs: Vec<Outgoing>) -> Result<(), CallError> {
    send_all(t, outs, |q, chat, id| relay.posted(T::PLATFORM, q, chat, id)).await
}

/// [`deliver`] without the relay: every message goes out through [`Outgoing::scrubbed`]
/// (the one place text and labels are scrubbed), and one the platform refuses for its
/// content is replaced by [`refused_note`] (an edit is dropped), so it never holds up
/// the messages behind it nor counts as the platform being out of reach.
pub async fn send_all<T: Transport>(
    t: &T,
    outs: Vec<Outgoing>,
    mut posted: impl FnMut(&str, &str, &str),
) -> Result<(), CallError> {
    for out in outs {
        let out = out.scrubbed();
        let id = match t.write(&out).await {
            Ok(id) => id,
            Err(e) if T::refuses_content(&e) => {
                tracing::warn!(platform = T::PLATFORM.name(), error = %e, "a message was refused for its content");
                if out.edit.is_some() {
                    continue;
                }
                match t.write(&refused_note(&out, &e, T::PLATFORM).scrubbed()).await {
                    Ok(id) => id,
                    Err(e) if T::refuses_content(&e) => None,
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        match (&out.question, id, &out.edit) {
            (Some(q), Some(id), _) => posted(q, &out.chat, &id),
            // A new question refused with its note refused too still counts as shown, so
            // it is not sent again; there is no message to rewrite later.
            (Some(q), None, None) => posted(q, &out.chat, ""),
            _ => {}
        }
    }
    Ok(())
}

/// Hand what the person did to the relay and write its replies.
pub async fn hear<T: Transport>(t: &T, relay: &Arc<Relay>, health: &Health, msg: Incoming) {
    let r = relay.clone();
    let outs = tokio::task::spawn_blocking(move || r.handle(T::PLATFORM, &msg)).await.unwrap_or_default();
    if let Err(e) = deliver(t, relay, outs).await {
        health.failed(T::PLATFORM, &e.to_string(), None);
    }
}

/// Every 300 ms: post the questions waiting for the person and rewrite the ones that
/// ended. While the platform is unreachable the tick waits — as long as the platform asked
/// (`Retry-After`), else one second doubling to a minute — and a write that goes through
/// marks it reachable again (Slack's socket may be up while its Web API limits).
pub fn ticks<T: Transport>(
    t: Arc<T>,
    relay: Arc<Relay>,
    health: Arc<Health>,
    cancel: CancellationToken,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut backoff = Backoff::default();
        let mut resume = Instant::now();
        loop {
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_millis(300)) => {}
            }
            if !health.is_up(T::PLATFORM) && Instant::now() < resume {
                continue;
            }
            let r = relay.clone();
            let outs = tokio::task::spawn_blocking(move || r.tick(T::PLATFORM)).await.unwrap_or_default();
            if outs.is_empty() {
                continue;
            }
            match deliver(&*t, &relay, outs).await {
                Ok(()) => {
                    backoff.reset();
                    health.up(T::PLATFORM);
                }
                Err(e) => {
                    let wait = backoff.failed(&e);
                    resume = Instant::now() + wait;
                    health.failed(T::PLATFORM, &e.to_string(), Some(wait));
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A platform that refuses any message whose text says REFUSE, as Slack refuses an
    /// over-long section (`ok: false`, `invalid_blocks`, HTTP 200) or Telegram a bad one
    /// (400).
    struct Picky {
        status: u16,
        written: Mutex<Vec<Outgoing>>,
    }

    impl Transport for Picky {
        const PLATFORM: Platform = Platform::Telegram;

        async fn write(&self, out: &Outgoing) -> Result<Option<String>, CallError> {
            self.written.lock().unwrap().push(out.clone());
            if out.text.contains("REFUSE") {
                return Err(CallError::Refused {
                    status: self.status,
                    message: "invalid_blocks".into(),
                    retry_after: None,
                });
            }
            Ok(Some(format!("m{}", self.written.lock().unwrap().len())))
        }
    }

    fn question(id: &str, text: &str, label: &str) -> Outgoing {
        Outgoing {
            chat: "c1".into(),
            text: text.into(),
            buttons: vec![vec![(label.into(), format!("h-{id}"))]],
            edit: None,
            question: Some(id.into()),
            wants_reply: false,
        }
    }

    #[tokio::test]
    async fn a_refused_message_is_replaced_and_the_queue_goes_on() {
        let t = Picky { status: 400, written: Mutex::default() };
        let mut posted = Vec::new();
        let outs = vec![question("c-1", "REFUSE this", "Yes"), question("c-2", "Next question", "No")];
        send_all(&t, outs, |q, _, id| posted.push((q.to_owned(), id.to_owned()))).await.unwrap();
        let written = t.written.lock().unwrap().clone();
        assert_eq!(written.len(), 3, "the refused one, its note, the next question");
        assert!(
            written[1].text.contains("could not be shown here") && written[1].text.contains("at the desk")
        );
        assert!(written[1].buttons.is_empty() && !written[1].text.contains("this"), "{:?}", written[1]);
        assert_eq!(written[2].text, "Next question");
        assert_eq!(posted, [("c-1".to_owned(), "m2".to_owned()), ("c-2".to_owned(), "m3".to_owned())]);
        // Anything else the platform says is its being out of reach: the queue waits.
        let down = Picky { status: 401, written: Mutex::default() };
        let e = send_all(&down, vec![question("c-3", "REFUSE", "x")], |_, _, _| {}).await.unwrap_err();
        assert!(matches!(e, CallError::Refused { status: 401, .. }));
    }

    #[test]
    fn slack_says_which_refusals_are_about_the_message() {
        use super::super::slack::Slack;
        let said =
            |status, message: &str| CallError::Refused { status, message: message.into(), retry_after: None };
        assert!(Slack::refuses_content(&said(200, "invalid_blocks")));
        assert!(Slack::refuses_content(&said(200, "msg_too_long")));
        assert!(!Slack::refuses_content(&said(200, "invalid_auth")));
        assert!(!Slack::refuses_content(&said(429, "ratelimited")));
    }

    #[tokio::test]
    async fn every_string_that_leaves_is_scrubbed_labels_too() {
        let token = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";
        let t = Picky { status: 400, written: Mutex::default() };
        let out = question(
            "c-1",
            &format!("Use {token}?"),
            &format!("Yes, {token} <private>my pin 1234</private>"),
        );
        send_all(&t, vec![out], |_, _, _| {}).await.unwrap();
        let written = t.written.lock().unwrap();
        let label = &written[0].buttons[0][0].0;
        assert!(!written[0].text.contains(token), "{}", written[0].text);
        assert!(!label.contains(token) && !label.contains("1234"), "{label}");
    }
}
