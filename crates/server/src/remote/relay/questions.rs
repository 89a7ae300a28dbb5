//! A question as the phone shows it: where it comes from, the options (the recommended
//! one starred), the time left, and buttons fit for its mode.

use chrono::Utc;
use mooring_core::choice::{Interaction, SelectionMode};
use mooring_core::remote::{Platform, phone};

use super::{Action, Outgoing, Relay};
use crate::state::AppState;

impl Relay {
    /// A session waiting for its project: the likeliest first, then the active ones most
    /// recently used (at most eight buttons).
    pub(super) fn pick_message(&self, pick: &crate::picks::PickInfo, chat: &str, user: &str) -> Outgoing {
        let registry = mooring_core::Registry::new(&self.state.store);
        let mut projects = registry.list(Some(mooring_core::ProjectStatus::Active)).unwrap_or_default();
        projects.sort_by(|a, b| b.last_used_at.cmp(&a.last_used_at));
        let mut slugs: Vec<String> = pick.recommended.iter().cloned().collect();
        let config = self.config();
        slugs.retain(|s| config.remote_ok(s));
        for p in projects {
            if config.remote_ok(&p.slug) && !slugs.contains(&p.slug) {
                slugs.push(p.slug);
            }
        }
        slugs.truncate(8);
        let client = pick.client.as_deref().unwrap_or("An agent");
        let place = pick
            .workspace
            .as_deref()
            .and_then(phone::place_of)
            .map(|w| format!(" in {w}"))
            .unwrap_or_default();
        let text = format!("📁 {client}{place} needs to know its project. Which one?");
        let buttons = slugs
            .into_iter()
            .map(|slug| {
                let label = if pick.recommended.as_deref() == Some(slug.as_str()) {
                    format!("⭐ {slug}")
                } else {
                    slug.clone()
                };
                vec![(label, self.handle_for(&pick.id, user, Action::Project(pick.token.clone(), slug)))]
            })
            .collect();
        Outgoing {
            chat: chat.to_owned(),
            text,
            buttons,
            edit: None,
            question: Some(pick.id.clone()),
            wants_reply: false,
        }
    }

    /// A pick that ended elsewhere (or gave up): its messages say so, without buttons.
    pub(super) fn pick_closed(&self, id: &str, platform: Platform) -> Vec<Outgoing> {
        self.close(id, "📁 That session's project was chosen elsewhere, or it stopped waiting.", platform)
    }

    pub(super) fn question_message(
        &self,
        i: &Interaction,
        chat: &str,
        user: &str,
        edit: Option<String>,
        platform: Platform,
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
        let buttons = self.keyboard(&i.id, platform, |mint| {
            let mut buttons = Vec::new();
            let handle = |action: Action| mint(action, user);
            match i.checked.mode {
                SelectionMode::Single => {
                    for o in &req.options {
                        buttons.push(vec![(o.label.clone(), handle(Action::Pick(o.id.clone())))]);
                    }
                }
                SelectionMode::Multi => {
                    for o in &req.options {
                        let mark = if toggled.contains(&o.id) { "☑" } else { "☐" };
                        buttons.push(vec![(
                            format!("{mark} {}", o.label),
                            handle(Action::Toggle(o.id.clone())),
                        )]);
                    }
                    buttons.push(vec![("Done".to_owned(), handle(Action::Done))]);
                }
                SelectionMode::TextInput | SelectionMode::Hybrid => {
                    for o in &req.options {
                        buttons.push(vec![(o.label.clone(), handle(Action::Pick(o.id.clone())))]);
                    }
                    text.push('\n');
                    text.push_str(platform.spec().reply_hint);
                }
            }
            if req.allow_cancel != Some(false) {
                let label =
                    if req.title == mooring_core::remote::turn_end::TITLE { "Let it stop" } else { "Cancel" };
                buttons.push(vec![(label.to_owned(), handle(Action::Cancel))]);
            }
            buttons
        });
        let wants_reply = matches!(i.checked.mode, SelectionMode::TextInput | SelectionMode::Hybrid);
        Outgoing { chat: chat.to_owned(), text, buttons, edit, question: Some(i.id.clone()), wants_reply }
    }
}

/// The project a question was asked in: resolved as it opened, else its session's.
pub(super) fn project_of(state: &AppState, i: &Interaction) -> Option<String> {
    if i.project.is_some() {
        return i.project.clone();
    }
    let id = i.session_id.as_ref()?;
    state.store.read(|c| mooring_core::store::sessions::get(c, id)).ok().flatten()?.project
}

/// "project · client — " for a question: its project and the asking client.
fn where_from(state: &AppState, i: &Interaction) -> String {
    let session = i
        .session_id
        .as_ref()
        .and_then(|id| state.store.read(|c| mooring_core::store::sessions::get(c, id)).ok().flatten());
    let project = i.project.clone().or_else(|| session.as_ref().and_then(|s| s.project.clone()));
    let parts: Vec<String> = [project, session.and_then(|s| s.client_name)].into_iter().flatten().collect();
    if parts.is_empty() { String::new() } else { format!("{} — ", parts.join(" · ")) }
}
