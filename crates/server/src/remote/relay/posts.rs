//! The relay's posted messages kept in the store (`phone_posts`): a restarted hub reads
//! them back, so a question still waiting has its message's buttons drawn anew (the
//! old ones died with the hub) and one that ended meanwhile has its message rewritten,
//! rather than either being posted a second time.

use std::collections::HashMap;

use mooring_core::choice::Broker;
use mooring_core::remote::Platform;
use mooring_core::store::phone_posts::{self, Post};

use super::{Outgoing, Posted, Relay};
use crate::state::AppState;

/// Every question's posted messages as the store keeps them, each platform's marked as
/// restored (its keyboard to be drawn again).
pub(super) fn restore(state: &AppState) -> HashMap<String, Posted> {
    let posts = state.store.read(phone_posts::all).unwrap_or_else(|e| {
        tracing::warn!(error = %e.message, "the phone's posted messages could not be read back");
        Vec::new()
    });
    let mut posted: HashMap<String, Posted> = HashMap::new();
    for post in posts {
        let Ok(platform) = Platform::parse(&post.platform) else { continue };
        let p = posted.entry(post.question).or_default();
        p.messages.push((platform, post.chat, post.message));
        if !p.restored.contains(&platform) {
            p.restored.push(platform);
        }
    }
    posted
}

impl Relay {
    /// Keep a posted message in the store (a failure costs only a repost after a restart).
    pub(super) fn keep_post(&self, platform: Platform, question: &str, chat: &str, message: &str) {
        let post = Post {
            question: question.to_owned(),
            platform: platform.name().to_owned(),
            chat: chat.to_owned(),
            message: message.to_owned(),
        };
        let now = mooring_core::humanize::now();
        if let Err(e) = self.state.store.write(|tx| phone_posts::add(tx, &post, &now)) {
            tracing::warn!(error = %e.message, "a posted message was not kept");
        }
    }

    /// Forget `question`'s messages on `platform` in the store (they were rewritten).
    pub(super) fn forget_posts(&self, question: &str, platform: Platform) {
        if let Err(e) = self.state.store.write(|tx| phone_posts::remove(tx, question, platform.name())) {
            tracing::warn!(error = %e.message, "a rewritten message was not forgotten");
        }
    }

    /// `platform`'s messages read back at start for questions still waiting, drawn again
    /// with fresh buttons (once each).
    pub(super) fn redraw_restored(&self, platform: Platform, user: &str) -> Vec<Outgoing> {
        let waiting: Vec<String> = {
            let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
            posted
                .iter_mut()
                .filter(|(id, p)| id.starts_with("c-") && p.restored.contains(&platform))
                .map(|(id, p)| {
                    p.restored.retain(|r| *r != platform);
                    id.clone()
                })
                .collect()
        };
        let broker = Broker::new(&self.state.store);
        waiting
            .into_iter()
            .filter(|id| broker.get(id).is_ok_and(|i| i.status.is_pending()))
            .flat_map(|id| self.redraw(&id, user, platform))
            .collect()
    }
}
