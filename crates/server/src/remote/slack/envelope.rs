//! What Socket Mode sends down the WebSocket, read into what the relay understands:
//! `hello`, `disconnect`, and envelopes (`events_api` with a DM `message` or an
//! `app_mention`; `interactive` with a `block_actions` button press), each to be acked by
//! its `envelope_id`. <https://api.slack.com/apis/socket-mode>

use serde_json::Value;

use super::blocks::unescape;
use crate::remote::relay::Incoming;

/// One frame from Slack.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// The connection is ready.
    Hello,
    /// Slack will close this connection (a refresh, a warning): open a new one.
    Disconnect(String),
    /// An envelope: ack `ack`; `seen` tells a retry from a new one; what the person did.
    Envelope { ack: String, seen: Option<String>, said: Option<Incoming> },
    /// Anything else (kept quiet).
    Other,
}

/// Read one text frame.
pub fn read(text: &str) -> Frame {
    let Ok(v) = serde_json::from_str::<Value>(text) else { return Frame::Other };
    let s = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_owned);
    match v.get("type").and_then(Value::as_str) {
        Some("hello") => Frame::Hello,
        Some("disconnect") => Frame::Disconnect(s("/reason").unwrap_or_default()),
        Some(kind @ ("events_api" | "interactive" | "slash_commands")) => {
            let Some(ack) = s("/envelope_id") else { return Frame::Other };
            let payload = v.get("payload").cloned().unwrap_or(Value::Null);
            let (seen, said) = match kind {
                "events_api" => (
                    payload.get("event_id").and_then(Value::as_str).map(str::to_owned),
                    payload.get("event").and_then(event),
                ),
                "interactive" => {
                    (payload.get("trigger_id").and_then(Value::as_str).map(str::to_owned), press(&payload))
                }
                _ => (None, None),
            };
            Frame::Envelope { ack, seen, said }
        }
        _ => Frame::Other,
    }
}

/// A message event: the person's words in the DM (or a thread of it), or a mention in a
/// channel. The bot's own messages and edits, joins and other subtypes are not words.
fn event(e: &Value) -> Option<Incoming> {
    let s = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_owned);
    if e.get("bot_id").is_some() || e.get("subtype").is_some() {
        return None;
    }
    let kind = s("type")?;
    if kind != "message" && kind != "app_mention" {
        return None;
    }
    let ts = s("ts");
    let thread = s("thread_ts").filter(|t| Some(t) != ts.as_ref());
    Some(Incoming {
        user: s("user")?,
        chat: s("channel")?,
        text: Some(unescape(&s("text").unwrap_or_default())),
        button: None,
        reply_to: thread,
        private: kind == "message" && s("channel_type").as_deref() == Some("im"),
        mention: kind == "app_mention",
    })
}

/// A button pressed on one of Mooring's messages.
fn press(p: &Value) -> Option<Incoming> {
    if p.get("type").and_then(Value::as_str) != Some("block_actions") {
        return None;
    }
    let s = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).map(str::to_owned);
    let chat = s("/channel/id").or_else(|| s("/container/channel_id"))?;
    Some(Incoming {
        user: s("/user/id")?,
        private: chat.starts_with('D'),
        chat,
        text: None,
        button: s("/actions/0/value"),
        reply_to: None,
        mention: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_read_as_the_reference_gives_them() {
        assert_eq!(read(r#"{"type":"hello","num_connections":1}"#), Frame::Hello);
        assert_eq!(
            read(r#"{"type":"disconnect","reason":"refresh_requested"}"#),
            Frame::Disconnect("refresh_requested".into())
        );
        let dm = json!({ "envelope_id": "e1", "type": "events_api", "accepts_response_payload": false,
            "payload": { "type": "event_callback", "event_id": "Ev1", "event": { "type": "message",
            "channel": "D9", "channel_type": "im", "user": "U42", "text": "decide app use &lt;pg&gt; &amp; go",
            "ts": "1.2", "thread_ts": "1.1" } } });
        let Frame::Envelope { ack, seen, said: Some(m) } = read(&dm.to_string()) else { panic!() };
        assert_eq!((ack.as_str(), seen.as_deref()), ("e1", Some("Ev1")));
        assert_eq!(m.text.as_deref(), Some("decide app use <pg> & go"));
        assert_eq!((m.user.as_str(), m.chat.as_str(), m.reply_to.as_deref()), ("U42", "D9", Some("1.1")));
        assert!(m.private && !m.mention);
    }

    #[test]
    fn the_bots_own_messages_and_edits_are_not_words_but_are_acked() {
        for e in [
            json!({ "type": "message", "channel": "D9", "bot_id": "B1", "text": "Paired", "ts": "1" }),
            json!({ "type": "message", "subtype": "message_changed", "channel": "D9", "ts": "1" }),
        ] {
            let f = json!({ "envelope_id": "e2", "type": "events_api", "payload": { "event": e } });
            assert!(matches!(read(&f.to_string()), Frame::Envelope { said: None, .. }));
        }
    }

    #[test]
    fn a_mention_and_a_button_press() {
        let m = json!({ "envelope_id": "e3", "type": "events_api", "payload": { "event_id": "Ev3", "event": {
            "type": "app_mention", "channel": "C1", "user": "U42", "text": "<@UBOT> projects", "ts": "2.0" } } });
        let Frame::Envelope { said: Some(m), .. } = read(&m.to_string()) else { panic!() };
        assert!(m.mention && !m.private);
        let b = json!({ "envelope_id": "e4", "type": "interactive", "payload": { "type": "block_actions",
            "trigger_id": "t1", "user": { "id": "U42" }, "channel": { "id": "D9" },
            "container": { "type": "message", "message_ts": "3.0", "channel_id": "D9" },
            "actions": [{ "type": "button", "action_id": "b0", "value": "abc" }] } });
        let Frame::Envelope { seen, said: Some(p), .. } = read(&b.to_string()) else { panic!() };
        assert_eq!((p.button.as_deref(), seen.as_deref()), (Some("abc"), Some("t1")));
        assert_eq!(read("not json"), Frame::Other);
    }
}
