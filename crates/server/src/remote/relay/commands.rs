//! The phone's commands (docs/remote.md) as the relay carries them out: the dashboard, a project, memory
//! written from the phone, words for a session, archive and resume, away and back.

use chrono::Utc;
use mooring_core::memory::{self, NewEntry};
use mooring_core::remote::{Command, RemoteConfig, phone};
use mooring_core::{ProjectStatus, Registry};

use mooring_core::remote::inbox;

use super::{Action, Outgoing, Relay};

/// The most sessions offered as buttons (the newest; "any" covers the rest).
const MAX_OFFERED: usize = 6;

/// What a command says back: words, or a message with buttons.
pub(super) enum Said {
    Text(String),
    Ask(Outgoing),
}

impl Relay {
    /// Carry out what the person typed in `chat`; the reply.
    pub(super) fn command(&self, text: &str, chat: &str, user: &str) -> Outgoing {
        match self.run(text, chat, user) {
            Ok(Said::Text(text)) => Outgoing::text(chat, &text),
            Ok(Said::Ask(out)) => out,
            Err(why) => Outgoing::text(chat, &why),
        }
    }

    fn run(&self, text: &str, chat: &str, user: &str) -> Result<Said, String> {
        let store = self.state.store.as_ref();
        let registry = Registry::new(store);
        let config = self.config();
        let mut projects = registry.list(None).map_err(|e| e.message)?;
        let kept_off: Vec<String> =
            projects.iter().filter(|p| !config.remote_ok(&p.slug)).map(|p| p.slug.clone()).collect();
        projects.retain(|p| config.remote_ok(&p.slug));
        let known = |w: &str| projects.iter().any(|p| p.slug == w) || kept_off.iter().any(|s| s == w);
        let command = mooring_core::remote::parse(text, known)?;
        if let Some(slug) = command.slug()
            && kept_off.iter().any(|s| s == slug)
        {
            return Err(format!(
                "`{slug}` is kept off the phone (`mooring remote on {slug}` on the computer lets it here)."
            ));
        }
        let memory = self.state.memory.as_ref();
        let now = Utc::now();
        let err = |e: mooring_core::Error| e.message;
        let said = match command {
            Command::Message { slug, text } => {
                if self.archived(&registry, &slug) {
                    return Err(format!("Project `{slug}` is archived. `resume {slug}` brings it back."));
                }
                return self.message(&slug, &text, chat, user);
            }
            Command::Help => Ok(mooring_core::remote::commands::HELP.to_owned()),
            Command::Projects { page } => phone::dashboard(memory, &projects, now, page).map_err(err),
            Command::Project { slug } => {
                let cutoff = phone::live_cutoff(now);
                let live =
                    store.read(|c| mooring_core::store::sessions::live_since(c, &cutoff)).map_err(err)?;
                let working = mooring_core::projects::live::working(store, &slug, now).map_err(err)?;
                phone::project(memory, &registry.get(&slug).map_err(err)?, &live, &working, now).map_err(err)
            }
            Command::Decide { slug, text } | Command::Blocker { slug, text }
                if self.archived(&registry, &slug) =>
            {
                let _ = text;
                Err(format!("Project `{slug}` is archived. `resume {slug}` brings it back."))
            }
            Command::Decide { slug, text } => self.remember(&slug, "decision", &text),
            Command::Blocker { slug, text } => self.remember(&slug, "blocker", &text),
            Command::Resolve { slug, id, note } => {
                let e = memory::resolve_blocker(memory, &slug, id, note.as_deref()).map_err(err)?;
                Ok(format!("✅ Blocker #{} in {slug} resolved: {}", e.id, e.title))
            }
            // A team project's status is its owner's to change: through the team, as the
            // dashboard and the CLI do, never only in this machine's copy.
            Command::Archive { slug } => {
                self.set_status(&registry, &slug, ProjectStatus::Archived).map_err(err)?;
                Ok(format!("📦 {slug} archived. `resume {slug}` brings it back."))
            }
            Command::Resume { slug } => {
                self.set_status(&registry, &slug, ProjectStatus::Active).map_err(err)?;
                Ok(format!("🟢 {slug} is active again."))
            }
            Command::Away => self.set_away(true),
            Command::Back => self.set_away(false),
            Command::Pair { .. } => Ok("This phone is already paired.".to_owned()),
        };
        said.map(Said::Text)
    }

    /// Words for `slug`'s session: kept for its next prompt, or, with several sessions
    /// live there, held and the person asked which (a button each, "any", "drop it").
    fn message(&self, slug: &str, text: &str, chat: &str, user: &str) -> Result<Said, String> {
        let store = self.state.store.as_ref();
        let now = Utc::now();
        let since = phone::live_cutoff(now);
        let live =
            inbox::live_sessions(self.state.memory.as_ref(), slug, &since, now).map_err(|e| e.message)?;
        if live.len() < 2 {
            inbox::leave(store, slug, text, false).map_err(|e| e.message)?;
            return Ok(Said::Text(format!("📨 Kept for {slug}: its session gets it at the next prompt.")));
        }
        let id = inbox::leave(store, slug, text, true).map_err(|e| e.message)?;
        let held = format!("m-{id}");
        let route = |to: Option<Option<String>>, label: &str| Action::Route {
            slug: slug.to_owned(),
            message: id,
            to,
            label: label.to_owned(),
        };
        let mut buttons: Vec<Vec<(String, String)>> = live
            .iter()
            .take(MAX_OFFERED)
            .map(|s| {
                let to = route(Some(Some(s.key.clone())), &s.label);
                vec![(s.label.clone(), self.handle_for(&held, user, to))]
            })
            .collect();
        let any = format!("the first session of {slug} to prompt");
        buttons.push(vec![
            ("Any of them".to_owned(), self.handle_for(&held, user, route(Some(None), &any))),
            ("Drop it".to_owned(), self.handle_for(&held, user, route(None, ""))),
        ]);
        let mut out = Outgoing::text(
            chat,
            &format!(
                "{} sessions are live in {slug}. Which one gets this?\n“{}”",
                live.len(),
                phone::cut(text, 300)
            ),
        );
        out.buttons = buttons;
        out.question = Some(held);
        Ok(Said::Ask(out))
    }

    fn set_status(&self, registry: &Registry<'_>, slug: &str, to: ProjectStatus) -> mooring_core::Result<()> {
        mooring_team::routed::set_status(registry, self.state.team.as_deref(), slug, to)?;
        self.state.surfaces.projects_changed();
        Ok(())
    }

    fn archived(&self, registry: &Registry<'_>, slug: &str) -> bool {
        registry.get(slug).is_ok_and(|p| p.status == ProjectStatus::Archived)
    }

    fn remember(&self, slug: &str, kind: &str, text: &str) -> Result<String, String> {
        // The paired phone is the person.
        let new = NewEntry {
            kind: kind.into(),
            content: text.to_owned(),
            author: Some(mooring_core::model::Author::Person),
            ..NewEntry::default()
        };
        let done = mooring_core::search::similar::remember(self.state.memory.as_ref(), slug, &new, None, &[])
            .map_err(|e| e.message)?;
        self.state.project_changed(slug);
        let e = &done.entry;
        let icon = if kind == "blocker" { "🚧" } else { "📌" };
        let mut reply = format!("{icon} {kind} #{} kept in {slug}: {}", e.id, e.title);
        // The earlier entries it may repeat or contradict: the person judges, at the desk
        // (the project view's "Replaces an older one…") or from the CLI.
        for c in &done.candidates {
            let likely = match c.likely {
                mooring_core::search::similar::Likely::Duplicate => "same as",
                mooring_core::search::similar::Likely::Related => "may contradict",
            };
            reply.push_str(&format!("\n↔ {likely} #{} ({}): {}", c.id, c.created, phone::cut(&c.title, 80)));
        }
        Ok(reply)
    }

    fn set_away(&self, away: bool) -> Result<String, String> {
        let mut config = RemoteConfig::edit(&self.data_dir).map_err(|e| e.message)?;
        config.away = away;
        config.save().map_err(|e| e.message)?;
        drop(config);
        self.state.surfaces.waiting_changed();
        Ok(if away {
            "🚶 Away: questions come here until you type `back`.".to_owned()
        } else {
            "🪑 Back at the desk: questions stay on the desktop.".to_owned()
        })
    }
}
