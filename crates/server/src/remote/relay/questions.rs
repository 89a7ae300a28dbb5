//! A question as the phone shows it: where it comes from, the options (the recommended
//! one starred), the time left, and buttons fit for its mode.

use chrono::Utc;
use mooring_core::choice::{Interaction, SelectionMode};
use mooring_core::remote::phone;

use super::{Action, Outgoing, Relay};
use crate::state::AppState;

impl Relay {
    pub(super) fn question_message(
        &self,
        i: &Interaction,
        chat: &str,
        user: &str,
        edit: Option<String>,
    ) -> Outgoing {
        let req = &i.checked.request;
        let toggled =
            self.posted.lock().ok().and_then(|p| p.get(&i.id).map(|p| p.toggled.clone())).unwrap_or_default();
        let mut text = format!("❓ {}{}\n\n{}\n", where_from(&self.state, i), req.title, req.prompt);
        for o in &req.options {
            let star = if o.recommended { " ⭐ recommended" } else { "" };
            match &o.description {
                Some(d) => text.push_str(&format!("\n• {}{star} — {d}", o.label)),
                None => text.push_str(&format!("\n• {}{star}", o.label)),
            }
        }
        let minutes = i.remaining(Utc::now()).div_euclid(60);
        text.push_str(&format!("\n\n⏳ {minutes} min left"));
        let mut buttons = Vec::new();
        let handle = |action: Action| self.handle_for(&i.id, user, action);
        match i.checked.mode {
            SelectionMode::Single => {
                for o in &req.options {
                    buttons.push(vec![(o.label.clone(), handle(Action::Pick(o.id.clone())))]);
                }
            }
            SelectionMode::Multi => {
                for o in &req.options {
                    let mark = if toggled.contains(&o.id) { "☑" } else { "☐" };
                    buttons.push(vec![(format!("{mark} {}", o.label), handle(Action::Toggle(o.id.clone())))]);
                }
                buttons.push(vec![("Done".to_owned(), handle(Action::Done))]);
            }
            SelectionMode::TextInput | SelectionMode::Hybrid => {
                for o in &req.options {
                    buttons.push(vec![(o.label.clone(), handle(Action::Pick(o.id.clone())))]);
                }
                text.push_str("\n✍ Reply to this message to answer in words.");
            }
        }
        if req.allow_cancel != Some(false) {
            let label =
                if req.title == mooring_core::remote::turn_end::TITLE { "Let it stop" } else { "Cancel" };
            buttons.push(vec![(label.to_owned(), handle(Action::Cancel))]);
        }
        let wants_reply = matches!(i.checked.mode, SelectionMode::TextInput | SelectionMode::Hybrid);
        Outgoing {
            chat: chat.to_owned(),
            text: phone::outgoing(&text),
            buttons,
            edit,
            question: Some(i.id.clone()),
            wants_reply,
        }
    }
}

/// "project · client — " for a question, from the asking session.
fn where_from(state: &AppState, i: &Interaction) -> String {
    let Some(id) = &i.session_id else { return String::new() };
    let session = state.store.read(|c| mooring_core::store::sessions::get(c, id)).ok().flatten();
    match session {
        Some(s) => {
            let parts: Vec<String> = [s.project, s.client_name].into_iter().flatten().collect();
            if parts.is_empty() { String::new() } else { format!("{} — ", parts.join(" · ")) }
        }
        None => String::new(),
    }
}
