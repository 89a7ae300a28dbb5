//! The relay against a transport that records what it was sent: a question is posted
//! once, rewritten when it is answered, and its buttons are the paired person's and good
//! once; after a restart a waiting question keeps its message (drawn again with fresh
//! buttons) and one that ended meanwhile has it rewritten, neither posted twice.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use mooring_core::Store;
use mooring_core::choice::{Broker, ChoiceRequest, ChoiceStatus, TimeoutAction, check};
use mooring_core::remote::{Bot, Paired, Platform, RemoteConfig};
use serde_json::json;

use super::{Incoming, Outgoing, Relay};
use crate::remote::http::CallError;
use crate::remote::transport::{Transport, deliver};
use crate::state::AppState;
use crate::surfaces::Headless;

/// Telegram as far as the relay can tell: every message written is kept, and a new one
/// gets the next id.
#[derive(Default)]
struct Recorder {
    written: Mutex<Vec<Outgoing>>,
}

impl Transport for Recorder {
    const PLATFORM: Platform = Platform::Telegram;

    async fn write(&self, out: &Outgoing) -> Result<Option<String>, CallError> {
        let mut written = self.written.lock().unwrap();
        written.push(out.clone());
        Ok(out.edit.is_none().then(|| format!("m{}", written.len())))
    }
}

impl Recorder {
    fn take(&self) -> Vec<Outgoing> {
        std::mem::take(&mut *self.written.lock().unwrap())
    }
}

const PERSON: &str = "42";

/// A hub whose Telegram bot is paired with [`PERSON`], the person away, and one question
/// waiting (no project: it goes out while no project is kept off).
fn away_with_a_question() -> (tempfile::TempDir, Arc<AppState>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (mut bot, _) = Bot::new("123:token".into(), "http://127.0.0.1:9".into(), Utc::now());
    bot.pairing = None;
    bot.paired = Some(Paired { user: PERSON.into(), chat: PERSON.into(), at: "2026-11-29T00:00:00Z".into() });
    RemoteConfig { telegram: Some(bot), away: true, ..RemoteConfig::default() }.save(dir.path()).unwrap();
    let store = Arc::new(Store::open_in(dir.path()).unwrap());
    let state = Arc::new(AppState::new(store, Arc::new(Headless), Duration::from_secs(1), None));
    let request: ChoiceRequest = serde_json::from_value(json!({
        "title": "Deploy?", "prompt": "Ship it now?", "selection_mode": "single",
        "options": [ { "id": "y", "label": "Yes", "recommended": true }, { "id": "n", "label": "No" } ]
    }))
    .unwrap();
    let asked =
        Broker::new(&state.store).open(check(request).unwrap(), Some("s-1"), TimeoutAction::Cancel).unwrap();
    (dir, state, asked.id)
}

fn press(data: &str, user: &str) -> Incoming {
    Incoming {
        user: user.into(),
        chat: PERSON.into(),
        button: Some(data.into()),
        private: true,
        ..Incoming::default()
    }
}

fn button<'a>(out: &'a Outgoing, label: &str) -> &'a str {
    let found = out.buttons.iter().flatten().find(|(l, _)| l.contains(label));
    &found.unwrap_or_else(|| panic!("no {label} button: {out:?}")).1
}

#[tokio::test]
async fn a_question_is_posted_once_and_rewritten_when_answered() {
    let (dir, state, id) = away_with_a_question();
    let relay = Relay::new(state.clone(), dir.path().to_owned());
    let phone = Recorder::default();
    deliver(&phone, &relay, relay.tick(Platform::Telegram)).await.unwrap();
    let posted = phone.take();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].text.contains("Deploy?") && posted[0].question.as_deref() == Some(id.as_str()));
    assert_eq!(posted[0].chat, PERSON);
    deliver(&phone, &relay, relay.tick(Platform::Telegram)).await.unwrap();
    assert!(phone.take().is_empty(), "a posted question is not posted again");

    let yes = button(&posted[0], "Yes").to_owned();
    deliver(&phone, &relay, relay.handle(Platform::Telegram, &press(&yes, PERSON))).await.unwrap();
    let after = phone.take();
    assert!(
        after.iter().any(|o| o.edit.as_deref() == Some("m1") && o.buttons.is_empty()),
        "the question's message is rewritten without its buttons: {after:?}"
    );
    let answered = Broker::new(&state.store).get(&id).unwrap();
    assert_eq!(answered.status, ChoiceStatus::Answered);
    let chosen = answered.response.as_ref().unwrap().selection.selected_ids.clone();
    assert_eq!(chosen, ["y"]);

    // The same button again (a replayed update) changes nothing.
    let replay = relay.handle(Platform::Telegram, &press(&yes, PERSON));
    assert!(replay.iter().all(|o| o.edit.is_none()), "{replay:?}");
    assert_eq!(Broker::new(&state.store).get(&id).unwrap().response, answered.response);
}

#[tokio::test]
async fn a_button_pressed_by_anyone_else_is_refused() {
    let (dir, state, id) = away_with_a_question();
    let relay = Relay::new(state.clone(), dir.path().to_owned());
    let phone = Recorder::default();
    deliver(&phone, &relay, relay.tick(Platform::Telegram)).await.unwrap();
    let posted = phone.take();
    let no = button(&posted[0], "No").to_owned();
    let said = relay.handle(Platform::Telegram, &press(&no, "99"));
    assert!(said.is_empty(), "someone else is not answered, nor is the question rewritten: {said:?}");
    assert_eq!(Broker::new(&state.store).get(&id).unwrap().status, ChoiceStatus::Pending);
    // A handle that was never minted is refused too.
    let forged = relay.handle(Platform::Telegram, &press("h-forged", PERSON));
    assert_eq!(forged.len(), 1);
    assert!(forged[0].text.contains("no longer works"), "{forged:?}");
    assert_eq!(Broker::new(&state.store).get(&id).unwrap().status, ChoiceStatus::Pending);
}

#[tokio::test]
async fn after_a_restart_a_waiting_question_gets_fresh_buttons_in_its_own_message() {
    let (dir, state, id) = away_with_a_question();
    let first = Relay::new(state.clone(), dir.path().to_owned());
    let phone = Recorder::default();
    deliver(&phone, &first, first.tick(Platform::Telegram)).await.unwrap();
    let old_yes = button(&phone.take()[0], "Yes").to_owned();
    drop(first);

    let second = Relay::new(state.clone(), dir.path().to_owned());
    deliver(&phone, &second, second.tick(Platform::Telegram)).await.unwrap();
    let redrawn = phone.take();
    assert_eq!(redrawn.len(), 1, "{redrawn:?}");
    assert_eq!(redrawn[0].edit.as_deref(), Some("m1"), "its message is rewritten, not posted again");
    assert!(redrawn[0].text.contains("Deploy?"));
    deliver(&phone, &second, second.tick(Platform::Telegram)).await.unwrap();
    assert!(phone.take().is_empty(), "drawn again once");

    // The old buttons died with the first hub; the new ones answer.
    let stale = second.handle(Platform::Telegram, &press(&old_yes, PERSON));
    assert!(stale.iter().any(|o| o.text.contains("no longer works")), "{stale:?}");
    let yes = button(&redrawn[0], "Yes").to_owned();
    deliver(&phone, &second, second.handle(Platform::Telegram, &press(&yes, PERSON))).await.unwrap();
    assert!(phone.take().iter().any(|o| o.edit.as_deref() == Some("m1") && o.buttons.is_empty()));
    assert_eq!(Broker::new(&state.store).get(&id).unwrap().status, ChoiceStatus::Answered);
    let kept = state.store.read(mooring_core::store::phone_posts::all).unwrap();
    assert!(kept.is_empty(), "an ended question's messages are not kept: {kept:?}");
}

#[tokio::test]
async fn a_question_answered_while_the_hub_was_down_has_its_message_rewritten_at_start() {
    let (dir, state, id) = away_with_a_question();
    let first = Relay::new(state.clone(), dir.path().to_owned());
    let phone = Recorder::default();
    deliver(&phone, &first, first.tick(Platform::Telegram)).await.unwrap();
    phone.take();
    drop(first);
    let yes = mooring_core::choice::Submission { selected_ids: Some(vec!["y".into()]), ..Default::default() };
    Broker::new(&state.store).submit(&id, &yes, mooring_core::model::Surface::Web).unwrap();

    let second = Relay::new(state.clone(), dir.path().to_owned());
    deliver(&phone, &second, second.tick(Platform::Telegram)).await.unwrap();
    let after = phone.take();
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].edit.as_deref(), Some("m1"));
    assert!(after[0].buttons.is_empty() && after[0].text.contains("Answered on the web"), "{after:?}");
}
