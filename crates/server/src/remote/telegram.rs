//! Telegram's Bot API, outbound only: `getUpdates` long-polled for what the person
//! does, `sendMessage` / `editMessageText` with inline keyboards for what Mooring says,
//! `answerCallbackQuery` so a pressed button stops spinning.
//! <https://core.telegram.org/bots/api>

use std::sync::Arc;
use std::time::Duration;

use mooring_core::remote::{Bot, Platform};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::backoff::Backoff;
use super::http::{Api, CallError};
use super::relay::{Incoming, Outgoing, Relay};
use super::status::Health;
use super::transport::{self, Transport};

/// How long one `getUpdates` waits for something to happen (seconds).
const LONG_POLL: u64 = 25;

pub(super) struct Telegram {
    api: Api,
    base: String,
}

impl Telegram {
    async fn call(&self, method: &str, body: &Value, wait: Duration) -> Result<Value, CallError> {
        let answer = self.api.post(&format!("{}/{method}", self.base), &[], body, wait).await?;
        let (status, value) = (answer.status, answer.json);
        if value.get("ok").and_then(Value::as_bool) == Some(true) {
            return Ok(value.get("result").cloned().unwrap_or(Value::Null));
        }
        Err(CallError::Refused {
            status: value.get("error_code").and_then(Value::as_u64).map_or(status, |c| c as u16),
            message: value
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("no reason given")
                .chars()
                .take(200)
                .collect(),
            retry_after: value.pointer("/parameters/retry_after").and_then(Value::as_u64),
        })
    }
}

impl Transport for Telegram {
    const PLATFORM: Platform = Platform::Telegram;

    async fn write(&self, out: &Outgoing) -> Result<Option<String>, CallError> {
        let keyboard: Vec<Vec<Value>> = out
            .buttons
            .iter()
            .map(|row| {
                row.iter().map(|(label, data)| json!({ "text": label, "callback_data": data })).collect()
            })
            .collect();
        let mut body = json!({ "chat_id": out.chat, "text": out.text });
        if !keyboard.is_empty() {
            body["reply_markup"] = json!({ "inline_keyboard": keyboard });
        } else if out.wants_reply && out.edit.is_none() {
            body["reply_markup"] = json!({ "force_reply": true });
        }
        let wait = Duration::from_secs(15);
        match &out.edit {
            Some(message) => {
                body["message_id"] = json!(message.parse::<i64>().unwrap_or_default());
                if keyboard.is_empty() {
                    body["reply_markup"] = json!({ "inline_keyboard": [] });
                }
                self.call("editMessageText", &body, wait).await.map(|_| None)
            }
            None => {
                let sent = self.call("sendMessage", &body, wait).await?;
                Ok(sent.get("message_id").map(|m| m.to_string()))
            }
        }
    }
}

impl Telegram {
    /// A client for `bot`.
    pub(super) fn new(bot: &Bot) -> Result<Self, String> {
        Ok(Telegram { api: Api::new()?, base: format!("{}/bot{}", bot.api.trim_end_matches('/'), bot.token) })
    }
}

/// One update as the relay reads it.
fn incoming(update: &Value) -> Option<(Incoming, Option<String>)> {
    let s = |v: Option<&Value>| v.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned));
    if let Some(m) = update.get("message") {
        let msg = Incoming {
            user: s(m.pointer("/from/id"))?,
            chat: s(m.pointer("/chat/id"))?,
            text: m.get("text").and_then(Value::as_str).map(str::to_owned),
            button: None,
            reply_to: s(m.pointer("/reply_to_message/message_id")),
            private: m.pointer("/chat/type").and_then(Value::as_str) == Some("private"),
            mention: false,
        };
        return Some((msg, None));
    }
    let q = update.get("callback_query")?;
    let msg = Incoming {
        user: s(q.pointer("/from/id"))?,
        chat: s(q.pointer("/message/chat/id")).unwrap_or_default(),
        text: None,
        button: q.get("data").and_then(Value::as_str).map(str::to_owned),
        reply_to: None,
        private: q.pointer("/message/chat/type").and_then(Value::as_str) == Some("private"),
        mention: false,
    };
    Some((msg, s(q.get("id"))))
}

/// Run one bot until `cancel`: the long poll, and a tick that posts questions.
pub async fn run(bot: Bot, relay: Arc<Relay>, health: Arc<Health>, cancel: CancellationToken) {
    let tg = match Telegram::new(&bot) {
        Ok(tg) => Arc::new(tg),
        Err(e) => return health.failed(Platform::Telegram, &e, None),
    };
    let ticks = transport::ticks(tg.clone(), relay.clone(), health.clone(), cancel.clone());
    let mut offset: i64 = 0;
    let mut backoff = Backoff::default();
    while !cancel.is_cancelled() {
        let body = json!({ "offset": offset, "timeout": LONG_POLL, "allowed_updates": ["message", "callback_query"] });
        let polled = tokio::select! {
            _ = cancel.cancelled() => break,
            r = tg.call("getUpdates", &body, Duration::from_secs(LONG_POLL + 10)) => r,
        };
        let updates = match polled {
            Ok(Value::Array(updates)) => updates,
            Ok(_) => Vec::new(),
            Err(e) => {
                let wait = backoff.failed(&e);
                health.failed(Platform::Telegram, &e.to_string(), Some(wait));
                tokio::select! { _ = cancel.cancelled() => break, _ = tokio::time::sleep(wait) => {} }
                continue;
            }
        };
        backoff.reset();
        health.up(Platform::Telegram);
        for update in updates {
            if let Some(id) = update.get("update_id").and_then(Value::as_i64) {
                offset = offset.max(id + 1);
            }
            let Some((msg, callback)) = incoming(&update) else { continue };
            if let Some(id) = callback {
                let _ = tg
                    .call("answerCallbackQuery", &json!({ "callback_query_id": id }), Duration::from_secs(10))
                    .await;
            }
            transport::hear(&*tg, &relay, &health, msg).await;
        }
    }
    ticks.abort();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_read_as_the_reference_gives_them() {
        let text = json!({ "update_id": 7, "message": { "message_id": 3, "from": { "id": 42, "is_bot": false },
            "chat": { "id": 42, "type": "private" }, "text": "projects", "reply_to_message": { "message_id": 2 } } });
        let (m, cb) = incoming(&text).unwrap();
        assert_eq!(
            (m.user.as_str(), m.chat.as_str(), m.text.as_deref(), m.reply_to.as_deref()),
            ("42", "42", Some("projects"), Some("2"))
        );
        assert!(cb.is_none());
        let press = json!({ "update_id": 8, "callback_query": { "id": "99", "from": { "id": 42 },
            "message": { "message_id": 5, "chat": { "id": 42 } }, "data": "ab" } });
        let (m, cb) = incoming(&press).unwrap();
        assert_eq!((m.button.as_deref(), cb.as_deref()), (Some("ab"), Some("99")));
        assert!(incoming(&json!({ "update_id": 9, "edited_message": {} })).is_none());
    }
}
