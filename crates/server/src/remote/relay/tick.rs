//! What the relay writes on its own, at each tick: the questions and project picks
//! waiting while the person is away, posted once; the messages of those that ended
//! rewritten to say how; a question's message drawn again when its toggles change.

use mooring_core::choice::{Broker, ChoiceStatus};
use mooring_core::remote::Platform;

use super::{Outgoing, Relay, questions};

impl Relay {
    /// Post the questions waiting for the person (in away mode) and rewrite those that
    /// ended since; `platform` is whose messages this tick writes.
    pub fn tick(&self, platform: Platform) -> Vec<Outgoing> {
        let config = self.config();
        let Some(paired) = config.bot(platform).and_then(|b| b.paired.clone()) else { return Vec::new() };
        // At the desk with nothing on the phone, a tick touches nothing (it runs every 300 ms).
        if !config.away && self.posted.lock().map(|p| p.is_empty()).unwrap_or(false) {
            return Vec::new();
        }
        let open = Broker::new(&self.state.store).open_list().unwrap_or_default();
        let mut out = Vec::new();
        for q in self.stale("c-", |id| open.iter().any(|i| i.id == id)) {
            out.extend(self.tick_one(&q, platform));
        }
        out.extend(self.redraw_restored(platform, &paired.user));
        if config.away {
            let picks = self.state.picks.list();
            for id in self.stale("p-", |id| picks.iter().any(|p| p.id == id)) {
                out.extend(self.pick_closed(&id, platform));
            }
            for pick in &picks {
                let already = self
                    .posted
                    .lock()
                    .map(|p| p.get(&pick.id).is_some_and(|p| p.messages.iter().any(|m| m.0 == platform)))
                    .unwrap_or(true);
                if !already {
                    self.posted.lock().unwrap_or_else(|e| e.into_inner()).entry(pick.id.clone()).or_default();
                    out.push(self.pick_message(pick, &paired.chat, &paired.user));
                }
            }
            for i in
                open.iter().filter(|i| config.question_ok(questions::project_of(&self.state, i).as_deref()))
            {
                let already = self
                    .posted
                    .lock()
                    .map(|p| p.get(&i.id).is_some_and(|p| p.messages.iter().any(|m| m.0 == platform)))
                    .unwrap_or(true);
                if !already {
                    self.posted.lock().unwrap_or_else(|e| e.into_inner()).entry(i.id.clone()).or_default();
                    out.push(self.question_message(i, &paired.chat, &paired.user, None, platform));
                }
            }
        }
        out
    }

    /// Posted questions (`c-`) or picks (`p-`) that are no longer waiting.
    fn stale(&self, prefix: &str, waiting: impl Fn(&str) -> bool) -> Vec<String> {
        let posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        posted.keys().filter(|k| k.starts_with(prefix) && !waiting(k)).cloned().collect()
    }

    /// The rewrites of `platform`'s messages for one question that has ended (answered
    /// here or elsewhere, expired).
    pub(super) fn tick_one(&self, question: &str, platform: Platform) -> Vec<Outgoing> {
        let Ok(i) = Broker::new(&self.state.store).get(question) else { return Vec::new() };
        if i.status.is_pending() {
            return Vec::new();
        }
        let title = &i.checked.request.title;
        let how = |on: Platform| match (i.status, i.surface) {
            (ChoiceStatus::Answered, Some(s)) if s.platform() == Some(on) => format!(
                "✅ Answered here: {}",
                i.response.as_ref().map_or("", |r| r.selection.summary.as_str())
            ),
            (ChoiceStatus::Answered, Some(s)) if let Some(p) = s.platform() => {
                format!("✅ Answered on {}.", p.spec().title)
            }
            (ChoiceStatus::Answered, s) => {
                format!("✅ Answered on the {}.", s.map_or("desktop", |s| s.as_str()))
            }
            (ChoiceStatus::Cancelled, _) => "✖ Cancelled.".to_owned(),
            _ => "⌛ Timed out before an answer.".to_owned(),
        };
        self.close_each(question, |on| format!("{title}\n\n{}", how(on)), platform)
    }

    /// Forget a question or pick (its buttons stop working everywhere) and rewrite
    /// `platform`'s messages of it as `text`, without buttons; each transport rewrites its
    /// own, the other platform's at its next tick.
    pub(super) fn close(&self, id: &str, text: &str, platform: Platform) -> Vec<Outgoing> {
        self.close_each(id, |_| text.to_owned(), platform)
    }

    /// As [`Relay::close`], with the words fit for each platform's message.
    fn close_each(&self, id: &str, text: impl Fn(Platform) -> String, platform: Platform) -> Vec<Outgoing> {
        self.presses.lock().unwrap_or_else(|e| e.into_inner()).retain(|_, p| p.question != id);
        let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        let Some(p) = posted.get_mut(id) else { return Vec::new() };
        self.forget_posts(id, platform);
        let (mine, others): (Vec<_>, Vec<_>) = p.messages.drain(..).partition(|m| m.0 == platform);
        p.messages = others;
        if p.messages.is_empty() {
            posted.remove(id);
        }
        drop(posted);
        let text = text(platform);
        mine.into_iter()
            .filter(|(_, _, message)| !message.is_empty())
            .map(|(_, chat, message)| Outgoing {
                chat,
                text: text.clone(),
                buttons: Vec::new(),
                edit: Some(message),
                question: None,
                wants_reply: false,
            })
            .collect()
    }

    /// `platform`'s messages of a question drawn again (the toggles changed); a transport
    /// writes only its own platform's messages.
    pub(super) fn redraw(&self, question: &str, user: &str, platform: Platform) -> Vec<Outgoing> {
        let Ok(i) = Broker::new(&self.state.store).get(question) else { return Vec::new() };
        let posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
        let messages: Vec<(Platform, String, String)> =
            posted.get(question).map(|p| p.messages.clone()).unwrap_or_default();
        drop(posted);
        messages
            .into_iter()
            .filter(|m| m.0 == platform && !m.2.is_empty())
            .map(|(pl, chat, m)| self.question_message(&i, &chat, user, Some(m), pl))
            .collect()
    }
}
