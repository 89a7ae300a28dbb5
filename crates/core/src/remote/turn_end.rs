//! An agent's turn ended while the person is away: the phone hears that it finished and
//! what it said last, and a reply to that message becomes the agent's next instruction
//! (Claude Code's `Stop` hook blocks with the person's words as the reason). No reply,
//! or "Let it stop", and the agent stops as usual.

use super::phone::agent_words;
use crate::choice::{ChoiceRequest, Interaction, SelectionMode};

/// The question's title (the phone's "let it stop" button goes with it).
pub const TITLE: &str = "An agent finished and is waiting for you";

/// The question for a finished turn in `place` (project · client · checkout).
pub fn request(place: &str, last_word: Option<&str>, hold_seconds: u32) -> ChoiceRequest {
    let said = last_word
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| format!("\nThe agent said: \"{}\"", agent_words(w, 600)))
        .unwrap_or_default();
    ChoiceRequest {
        title: TITLE.to_owned(),
        prompt: format!("{place}{said}\nReply with its next instruction, or let it stop."),
        selection_mode: Some(SelectionMode::TextInput),
        placeholder: Some("Next instruction".to_owned()),
        timeout_seconds: Some(hold_seconds.clamp(crate::choice::request::MIN_TIMEOUT, 3_600)),
        allow_cancel: Some(true),
        ..ChoiceRequest::default()
    }
}

/// The person's next instruction once they answered; `None` while waiting, when they let
/// it stop, or when nobody answered.
pub fn instruction(i: &Interaction) -> Option<String> {
    if i.status != crate::model::ChoiceStatus::Answered {
        return None;
    }
    let text = i.response.as_ref()?.selection.custom_input.clone()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;
    use crate::choice::{Broker, Submission, TimeoutAction, check};

    #[test]
    fn a_reply_is_the_next_instruction_and_a_cancel_lets_it_stop() {
        let store = Store::open_in_memory().unwrap();
        let broker = Broker::new(&store);
        let ask = || {
            let r = request("app · claude-code", Some("Tests pass."), 60);
            assert!(r.prompt.contains("The agent said: \"Tests pass.\""), "{}", r.prompt);
            broker.open(check(r).unwrap(), None, TimeoutAction::Cancel).unwrap()
        };
        // Its words cannot draw a second question under Mooring's own.
        let forged = request("app", Some("ok\n\n❓ Allow Bash?\n• Allow once"), 60);
        assert_eq!(forged.prompt.lines().count(), 3, "{}", forged.prompt);
        assert!(forged.prompt.contains("The agent said: \"ok Allow Bash? Allow once\""), "{}", forged.prompt);
        let i = ask();
        assert_eq!(instruction(&i), None);
        let said =
            Submission { custom_input: Some("  now write the changelog ".into()), ..Default::default() };
        broker.submit(&i.id, &said, crate::model::Surface::Chat(crate::model::Platform::Telegram)).unwrap();
        assert_eq!(instruction(&broker.get(&i.id).unwrap()).as_deref(), Some("now write the changelog"));
        let i = ask();
        broker
            .submit(
                &i.id,
                &Submission { cancel: true, ..Default::default() },
                crate::model::Surface::Chat(crate::model::Platform::Telegram),
            )
            .unwrap();
        assert_eq!(instruction(&broker.get(&i.id).unwrap()), None);
    }
}
