//! What Mooring writes, as Slack's Web API takes it: the text (escaped, so nothing from a
//! project can become a mention, a link or `@channel`) in a `section` block, the buttons
//! in `actions` blocks, and the same text as the notification's fallback.
//! <https://api.slack.com/reference/block-kit/blocks>

use serde_json::{Value, json};

use crate::remote::relay::Outgoing;

/// A `section` block's text holds at most 3,000 characters.
const SECTION_MAX: usize = 3000;
/// A button's label holds at most 75 characters.
const LABEL_MAX: usize = 75;
/// Slack lays out up to 25 elements per `actions` block; five keep a phone's rows short.
const PER_ROW: usize = 5;

/// Slack's three control characters, escaped as its reference asks: `<@U…>`, `<!channel>`
/// and `<http://…|…>` in a project's text stay text.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// What Slack sends for what the person typed, back to the characters they typed.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// `escaped` cut to `max` characters without splitting an entity (`&amp;`) in two.
fn cut_escaped(escaped: &str, max: usize) -> String {
    let cut = cut(escaped, max);
    if cut == escaped {
        return cut;
    }
    let body = cut.trim_end_matches('…');
    // An `&` with no `;` after it began an entity the cut broke: drop it.
    let keep = match body.rfind('&') {
        Some(at) if !body[at..].contains(';') => &body[..at],
        _ => body,
    };
    format!("{keep}…")
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// The body of `chat.postMessage` (or, with `ts`, `chat.update`) for `out`.
pub fn body(out: &Outgoing) -> Value {
    // Escaping lengthens the text (`<` is four characters): escape first, then cut what
    // Slack will count.
    let text = cut_escaped(&escape(&out.text), SECTION_MAX);
    let mut blocks = vec![json!({ "type": "section", "text": { "type": "mrkdwn", "text": text } })];
    let buttons: Vec<&(String, String)> = out.buttons.iter().flatten().collect();
    for (n, row) in buttons.chunks(PER_ROW).enumerate() {
        let elements: Vec<Value> = row
            .iter()
            .enumerate()
            .map(|(i, (label, data))| {
                json!({
                    "type": "button",
                    "action_id": format!("b{}", n * PER_ROW + i),
                    "text": { "type": "plain_text", "text": cut(label, LABEL_MAX), "emoji": true },
                    "value": data,
                })
            })
            .collect();
        blocks.push(json!({ "type": "actions", "block_id": format!("r{n}"), "elements": elements }));
    }
    let mut body = json!({ "channel": out.chat, "text": text, "blocks": blocks, "unfurl_links": false });
    if let Some(ts) = &out.edit {
        body["ts"] = json!(ts);
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(text: &str, buttons: Vec<Vec<(String, String)>>) -> Outgoing {
        Outgoing {
            chat: "D1".into(),
            text: text.into(),
            buttons,
            edit: None,
            question: None,
            wants_reply: false,
        }
    }

    #[test]
    fn a_projects_text_cannot_mention_or_link() {
        let b = body(&out("ping <!channel> & <@U1> <https://x.example|here>", vec![]));
        let t = b.pointer("/blocks/0/text/text").unwrap().as_str().unwrap();
        assert_eq!(t, "ping &lt;!channel&gt; &amp; &lt;@U1&gt; &lt;https://x.example|here&gt;");
        assert_eq!(b["text"], t);
        assert_eq!(unescape(t), "ping <!channel> & <@U1> <https://x.example|here>");
    }

    #[test]
    fn buttons_become_actions_blocks_with_unique_ids_and_the_handle_as_value() {
        let rows: Vec<Vec<(String, String)>> =
            (0..7).map(|i| vec![(format!("Option {i}"), format!("h{i}"))]).collect();
        let b = body(&out("Pick one", rows));
        let blocks = b["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 3, "a section and two rows of at most five");
        assert_eq!(blocks[1]["elements"].as_array().unwrap().len(), 5);
        assert_eq!(blocks[2]["elements"][1]["value"], "h6");
        assert_eq!(blocks[2]["elements"][1]["action_id"], "b6");
        assert!(b.get("ts").is_none());
    }

    #[test]
    fn text_that_escaping_lengthens_still_fits_a_section() {
        // Ordinary HTML or shell text: every `<`, `>` and `&` grows on escaping.
        let html = "<div class=\"a\">&nbsp;</div> && echo $((1<<2)) > out\n".repeat(200);
        let b = body(&out(&html, vec![]));
        let t = b.pointer("/blocks/0/text/text").unwrap().as_str().unwrap();
        assert!(t.chars().count() <= SECTION_MAX, "{} characters", t.chars().count());
        assert!(t.chars().count() > SECTION_MAX - 10, "as much as fits is kept");
        let last = t.trim_end_matches('…');
        assert!(last.rfind('&').is_none_or(|at| last[at..].contains(';')), "no entity cut in two: {t}");
    }

    #[test]
    fn limits_hold_and_an_edit_names_its_message() {
        let long = "x".repeat(10_000);
        let mut o = out(&long, vec![vec![("y".repeat(200), "h".into())]]);
        o.edit = Some("1700000000.000100".into());
        let b = body(&o);
        assert!(b.pointer("/blocks/0/text/text").unwrap().as_str().unwrap().chars().count() <= SECTION_MAX);
        assert_eq!(
            b.pointer("/blocks/1/elements/0/text/text").unwrap().as_str().unwrap().chars().count(),
            LABEL_MAX
        );
        assert_eq!(b["ts"], "1700000000.000100");
    }
}
