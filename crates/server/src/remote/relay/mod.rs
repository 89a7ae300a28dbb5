//! The relay between the phone and Mooring, whatever the platform: pairing, who may
//! speak, the phone's commands (docs/remote.md), and questions posted in away mode with buttons whose data
//! is a random handle bound to that question and the paired person, good once.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use mooring_core::choice::{Broker, Submission};
use mooring_core::remote::config_file::Watched;
use mooring_core::remote::{Platform, RemoteConfig, phone};

use crate::state::AppState;
use mooring_core::projects::decided_by::DecidedBy;

mod commands;
mod pairing;
mod posts;
mod questions;
#[cfg(test)]
mod tests;
mod tick;

/// Something the person did on the phone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Incoming {
    /// The platform's id of who did it.
    pub user: String,
    /// Where (a chat or DM channel).
    pub chat: String,
    /// What they typed.
    pub text: Option<String>,
    /// The button they pressed (its data).
    pub button: Option<String>,
    /// The message their text replies to (Slack: the thread's first message).
    pub reply_to: Option<String>,
    /// Said in a one-to-one chat with the bot (Telegram's private chat, Slack's DM).
    pub private: bool,
    /// Said to the bot by name in a shared channel (Slack's `app_mention`).
    pub mention: bool,
}

/// A message to write or rewrite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Where.
    pub chat: String,
    /// What (scrubbed on its way out, [`Outgoing::scrubbed`]).
    pub text: String,
    /// Rows of (label, data) buttons.
    pub buttons: Vec<Vec<(String, String)>>,
    /// Rewrite this message instead of writing a new one.
    pub edit: Option<String>,
    /// The question this message carries (the transport reports its message id back).
    pub question: Option<String>,
    /// Ask the phone to reply to this message (typed answers).
    pub wants_reply: bool,
}

impl Outgoing {
    /// The same message with every string a person reads scrubbed (secrets and
    /// `<private>` spans out): its text and each button's label. The transports send
    /// nothing else, so this is the one choke point for what leaves the machine.
    pub fn scrubbed(mut self) -> Self {
        self.text = phone::outgoing(&self.text);
        for (label, _) in self.buttons.iter_mut().flatten() {
            *label = phone::outgoing(label);
        }
        self
    }

    /// A plain message to `chat` (scrubbed on its way out).
    pub fn text(chat: &str, text: &str) -> Self {
        Outgoing {
            chat: chat.to_owned(),
            text: text.to_owned(),
            buttons: Vec::new(),
            edit: None,
            question: None,
            wants_reply: false,
        }
    }
}

#[derive(Debug, Clone)]
enum Action {
    Pick(String),
    /// A waiting session's project: the pick's token and the slug.
    Project(String, String),
    Toggle(String),
    /// Held words for a project's session: to this session (`Some(Some(key))`), to any
    /// (`Some(None)`), or dropped (`None`).
    Route {
        slug: String,
        message: i64,
        to: Option<Option<String>>,
        label: String,
    },
    Done,
    Cancel,
}

#[derive(Debug, Clone)]
struct Press {
    question: String,
    user: String,
    action: Action,
    /// The platform whose question keyboard holds it: a redrawn keyboard there replaces
    /// every handle of the one before (a stale toggle is refused).
    keyboard: Option<Platform>,
}

#[derive(Default)]
struct Posted {
    /// (chat, message) per platform.
    messages: Vec<(Platform, String, String)>,
    toggled: BTreeSet<String>,
    /// Platforms whose messages were read back at start: their buttons are drawn again.
    restored: Vec<Platform>,
}

/// The relay a hub's transports share.
pub struct Relay {
    state: Arc<AppState>,
    data_dir: PathBuf,
    /// `remote.json`, read again only when it changed (asked at every tick).
    settings: Watched,
    posted: Mutex<HashMap<String, Posted>>,
    presses: Mutex<HashMap<String, Press>>,
    /// Wrong codes sent per open pairing code (by its hash): the code is spent after a few.
    misses: Mutex<HashMap<String, u32>>,
}

impl Relay {
    /// A relay over the hub's state, with the messages it posted before a restart.
    pub fn new(state: Arc<AppState>, data_dir: PathBuf) -> Arc<Self> {
        let posted = Mutex::new(posts::restore(&state));
        let settings = Watched::new(&data_dir);
        Arc::new(Relay {
            state,
            data_dir,
            settings,
            posted,
            presses: Mutex::default(),
            misses: Mutex::default(),
        })
    }

    fn config(&self) -> RemoteConfig {
        self.settings.get().unwrap_or_else(|e| {
            tracing::warn!(error = %e.message, "remote settings unreadable");
            RemoteConfig::default()
        })
    }

    /// What the person did; the replies to write.
    pub fn handle(&self, platform: Platform, msg: &Incoming) -> Vec<Outgoing> {
        let mut msg = msg.clone();
        let mut config = self.config();
        let Some(bot) = config.bot_mut(platform).as_mut() else { return Vec::new() };
        if !bot.is_paired_user(&msg.user) {
            return self.stranger(platform, &msg);
        }
        // The paired person writing elsewhere (a group the bot is in): others would read
        // the answer there, so Mooring answers in the paired chat only — a command said
        // to the bot by name (a Slack mention) is answered there, anything else ignored.
        if let Some(p) = bot.paired.as_ref().filter(|p| p.chat != msg.chat) {
            if msg.mention && msg.button.is_none() && msg.reply_to.is_none() {
                msg.chat = p.chat.clone();
            } else {
                tracing::warn!(
                    platform = platform.name(),
                    "ignored the paired person writing outside the paired chat"
                );
                return Vec::new();
            }
        }
        let msg = &msg;
        if let Some(data) = &msg.button {
            return self.press(platform, msg, data);
        }
        let Some(text) = msg.text.as_deref() else { return Vec::new() };
        if let Some(reply_to) = &msg.reply_to
            && let Some(question) = self.question_of(platform, &msg.chat, reply_to)
            && question.starts_with("c-")
        {
            let sub = Submission { custom_input: Some(text.to_owned()), ..Submission::default() };
            return self.submit(platform, &msg.chat, &question, &sub);
        }
        vec![self.command(text, &msg.chat, &msg.user)]
    }

    fn question_of(&self, platform: Platform, chat: &str, message: &str) -> Option<String> {
        let posted = self.posted.lock().ok()?;
        posted.iter().find_map(|(q, p)| {
            p.messages
                .iter()
                .any(|(pl, c, m)| *pl == platform && c == chat && m == message)
                .then(|| q.clone())
        })
    }

    fn press(&self, platform: Platform, msg: &Incoming, data: &str) -> Vec<Outgoing> {
        let press = self.presses.lock().ok().and_then(|p| p.get(data).cloned());
        let Some(press) = press.filter(|p| mooring_core::guard::secret::same(&p.user, &msg.user)) else {
            tracing::warn!(
                platform = platform.name(),
                "refused a button that is not this person's or no longer open"
            );
            return vec![Outgoing::text(&msg.chat, "That button no longer works.")];
        };
        match press.action {
            Action::Project(token, slug) => {
                let text = match self.state.picks.answer_via(&press.question, &token, &slug, DecidedBy::Phone)
                {
                    Ok(()) => format!("📁 The session works in {slug} now."),
                    Err(_) => "That session stopped waiting.".to_owned(),
                };
                self.close(&press.question, &text, platform)
            }
            Action::Route { slug, message, to, label } => {
                let text = match mooring_core::remote::inbox::route(
                    &self.state.store,
                    &slug,
                    message,
                    to.as_ref().map(|t| t.as_deref()),
                ) {
                    Ok(true) if to.is_none() => "🗑 Dropped; no session gets it.".to_owned(),
                    Ok(true) => format!("📨 Kept for {label}: it gets it at its next prompt."),
                    Ok(false) => "That message was already sent on or dropped.".to_owned(),
                    Err(e) => e.message,
                };
                self.close(&press.question, &text, platform)
            }
            Action::Toggle(option) => {
                let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
                let p = posted.entry(press.question.clone()).or_default();
                if !p.toggled.remove(&option) {
                    p.toggled.insert(option);
                }
                drop(posted);
                self.redraw(&press.question, &msg.user, platform)
            }
            action => {
                let sub = match action {
                    Action::Pick(id) => Submission { selected_ids: Some(vec![id]), ..Submission::default() },
                    Action::Done => {
                        let posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
                        let chosen = posted.get(&press.question).map(|p| p.toggled.iter().cloned().collect());
                        Submission { selected_ids: Some(chosen.unwrap_or_default()), ..Submission::default() }
                    }
                    _ => Submission { cancel: true, ..Submission::default() },
                };
                self.submit(platform, &msg.chat, &press.question, &sub)
            }
        }
    }

    fn submit(&self, platform: Platform, chat: &str, question: &str, sub: &Submission) -> Vec<Outgoing> {
        match Broker::new(&self.state.store).submit(
            question,
            sub,
            mooring_core::model::Surface::Chat(platform),
        ) {
            Ok(_) => {
                self.state.answered.notify_waiters();
                self.state.surfaces.waiting_changed();
                // The question's messages are rewritten at the next tick, everywhere.
                self.tick_one(question, platform)
            }
            Err(e) => vec![Outgoing::text(chat, &e.message)],
        }
    }

    /// A fresh random handle for a button: bound to the question and the person, and
    /// dropped once used or once the question ends (the platform's data is only this).
    fn handle_for(&self, question: &str, user: &str, action: Action) -> String {
        self.mint(question, user, action, None)
    }

    /// [`Relay::handle_for`], for a button of a question's keyboard on `keyboard`.
    fn mint(&self, question: &str, user: &str, action: Action, keyboard: Option<Platform>) -> String {
        // Telegram carries at most 64 bytes of button data: 128 random bits in hex.
        let bytes = mooring_core::guard::secret::random_bytes::<16>();
        let data: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let press = Press { question: question.to_owned(), user: user.to_owned(), action, keyboard };
        self.presses.lock().unwrap_or_else(|e| e.into_inner()).insert(data.clone(), press);
        data
    }

    /// Handles for a question's keyboard on `platform`, made by `draw`; the handles of
    /// the keyboard it replaces there stop working first.
    fn keyboard<T>(
        &self,
        question: &str,
        platform: Platform,
        draw: impl FnOnce(&dyn Fn(Action, &str) -> String) -> T,
    ) -> T {
        self.presses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, p| !(p.question == question && p.keyboard == Some(platform)));
        draw(&|action: Action, user: &str| self.mint(question, user, action, Some(platform)))
    }

    /// The transport wrote a question's message: remember where, to rewrite it later.
    pub fn posted(&self, platform: Platform, question: &str, chat: &str, message: &str) {
        let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        let p = posted.entry(question.to_owned()).or_default();
        if !p.messages.iter().any(|(pl, c, m)| *pl == platform && c == chat && m == message) {
            p.messages.push((platform, chat.to_owned(), message.to_owned()));
            drop(posted);
            self.keep_post(platform, question, chat, message);
        }
    }
}
