//! Slack, outbound only: Socket Mode (a WebSocket Mooring opens, with the app-level
//! `xapp-` token) brings the person's DMs, mentions and button presses, each acked at
//! once; the Web API with the bot token (`xoxb-`) writes `chat.postMessage` and rewrites
//! `chat.update` with Block Kit buttons. Built on `tokio-tungstenite` and the hub's own
//! HTTPS client rather than `slack-morphism`, whose own hyper client and listener model
//! would bring a second TLS stack and an event loop the relay does not need.
//! <https://api.slack.com/apis/socket-mode>

mod blocks;
mod envelope;
mod socket;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use mooring_core::remote::{Bot, Platform};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::backoff::Backoff;
use super::http::{Answer, Api, CallError};
use super::relay::{Outgoing, Relay};
use super::status::Health;
use super::transport::{self, Transport};
use envelope::Frame;

const P: Platform = Platform::Slack;
/// Silence on the socket before Mooring pings; twice in a row and it reconnects.
const QUIET: Duration = Duration::from_secs(30);
/// Envelope ids remembered to drop Slack's redeliveries.
const SEEN: usize = 256;

pub(super) struct Slack {
    api: Api,
    base: String,
    bot_token: String,
}

/// The answer's JSON when Slack said `ok`, its error otherwise.
fn ok(answer: Answer) -> Result<Value, CallError> {
    if answer.json.get("ok").and_then(Value::as_bool) == Some(true) {
        return Ok(answer.json);
    }
    let error = answer.json.get("error").and_then(Value::as_str).unwrap_or("no reason given");
    Err(CallError::Refused {
        status: answer.status,
        message: error.chars().take(200).collect(),
        retry_after: answer.retry_after,
    })
}

impl Slack {
    /// A Web API client for `bot` (its bot token posts).
    pub(super) fn new(bot: &Bot) -> Result<Self, String> {
        let bot_token = bot
            .bot_token
            .clone()
            .ok_or("no bot token (xoxb-…): add the app again with `mooring remote add slack`")?;
        Ok(Slack { api: Api::new()?, base: bot.api.trim_end_matches('/').to_owned(), bot_token })
    }

    async fn call(&self, method: &str, body: &Value) -> Result<Value, CallError> {
        let auth = format!("Bearer {}", self.bot_token);
        let url = format!("{}/{method}", self.base);
        ok(self.api.post(&url, &[("authorization", &auth)], body, Duration::from_secs(15)).await?)
    }
}

/// Slack's answers (`ok: false`) that refuse one message for what it holds, not the
/// app or the network. <https://api.slack.com/methods/chat.postMessage#errors>
const CONTENT_ERRORS: &[&str] = &[
    "invalid_blocks",
    "invalid_blocks_format",
    "msg_too_long",
    "msg_blocks_too_long",
    "no_text",
    "invalid_arguments",
    "too_many_attachments",
    "cant_update_message",
    "message_not_found",
    "edit_window_closed",
];

impl Transport for Slack {
    const PLATFORM: Platform = P;

    fn refuses_content(e: &CallError) -> bool {
        matches!(e, CallError::Refused { status, message, .. }
            if *status == 400 || CONTENT_ERRORS.contains(&message.as_str()))
    }

    async fn write(&self, out: &Outgoing) -> Result<Option<String>, CallError> {
        let body = blocks::body(out);
        if out.edit.is_some() {
            return self.call("chat.update", &body).await.map(|_| None);
        }
        let sent = self.call("chat.postMessage", &body).await?;
        Ok(sent.get("ts").and_then(Value::as_str).map(str::to_owned))
    }
}

/// Run one Slack app until `cancel`: the socket, reopened when Slack asks or it drops,
/// and the tick that posts questions.
pub async fn run(bot: Bot, relay: Arc<Relay>, health: Arc<Health>, cancel: CancellationToken) {
    let slack = match Slack::new(&bot) {
        Ok(s) => Arc::new(s),
        Err(e) => return health.failed(P, &e, None),
    };
    let (api, base) = (slack.api.clone(), slack.base.clone());
    let ticks = transport::ticks(slack.clone(), relay.clone(), health.clone(), cancel.clone());
    let mut seen = VecDeque::new();
    let mut backoff = Backoff::default();
    while !cancel.is_cancelled() {
        let opened = tokio::select! {
            _ = cancel.cancelled() => break,
            r = socket::open(&api, &base, &bot.token) => r,
        };
        let failed = match opened {
            Ok(mut ws) => match serve(&slack, &relay, &health, &mut ws, &mut seen, &cancel).await {
                Ok(()) => {
                    backoff.reset();
                    continue;
                }
                Err(why) => (why, None),
            },
            Err(e) => {
                let after = match &e {
                    CallError::Refused { retry_after: Some(s), .. } => Some(Duration::from_secs(*s)),
                    _ => None,
                };
                (e.to_string(), after)
            }
        };
        let wait = backoff.failed_asking(failed.1);
        health.failed(P, &failed.0, Some(wait));
        tokio::select! { _ = cancel.cancelled() => break, _ = tokio::time::sleep(wait) => {} }
    }
    ticks.abort();
}

/// Read the socket until Slack asks for a new one (`Ok`) or it fails (`Err`, why).
async fn serve(
    slack: &Arc<Slack>,
    relay: &Arc<Relay>,
    health: &Health,
    ws: &mut socket::Socket,
    seen: &mut VecDeque<String>,
    cancel: &CancellationToken,
) -> Result<(), String> {
    let mut quiet = 0;
    loop {
        let next = tokio::select! {
            _ = cancel.cancelled() => {
                let _ = ws.close(None).await;
                return Ok(());
            }
            n = tokio::time::timeout(QUIET, ws.next()) => n,
        };
        let text = match next {
            Err(_) if quiet == 0 => {
                quiet += 1;
                ws.send(Message::Ping(Vec::new().into())).await.map_err(|e| format!("WebSocket: {e}"))?;
                continue;
            }
            Err(_) => return Err("no word from Slack for a minute".into()),
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => return Err("Slack closed the connection".into()),
            Ok(Some(Err(e))) => return Err(format!("WebSocket: {e}")),
            Ok(Some(Ok(Message::Text(t)))) => t,
            Ok(Some(Ok(_))) => {
                quiet = 0;
                continue;
            }
        };
        quiet = 0;
        match envelope::read(&text) {
            Frame::Hello => health.up(P),
            Frame::Disconnect(reason) => {
                tracing::debug!(reason, "Slack asked for a new connection");
                return Ok(());
            }
            Frame::Envelope { ack, seen: key, said } => {
                // Acked before anything else: Slack sends it again after three seconds.
                let ack = json!({ "envelope_id": ack }).to_string();
                ws.send(Message::Text(ack.into())).await.map_err(|e| format!("WebSocket: {e}"))?;
                if let Some(key) = key {
                    if seen.contains(&key) {
                        continue;
                    }
                    seen.push_back(key);
                    if seen.len() > SEEN {
                        seen.pop_front();
                    }
                }
                if let Some(msg) = said {
                    transport::hear(&**slack, relay, health, msg).await;
                }
            }
            Frame::Other => {}
        }
    }
}
