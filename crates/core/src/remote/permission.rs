//! A client's permission prompt sent to the phone in away mode: the question it becomes
//! (the tool, the command or file, the agent's stated reason; Deny recommended, nothing
//! chosen on its own), and the verdict the hook hands back. Never allow by default: no
//! answer, a cancel or anything unclear is a deny.

use serde_json::Value;

use super::phone::first_line;
use crate::choice::{ChoiceOption, ChoiceRequest, Interaction, SelectionMode};

/// Option ids.
pub const ALLOW: &str = "allow";
/// Option ids.
pub const DENY: &str = "deny";

/// What the hook answers the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Run it.
    Allow,
    /// Do not; the message tells the agent why.
    Deny(String),
}

/// The question for a permission prompt: `tool` with its `input`, asked in `place`
/// (project · client · checkout, already relative).
pub fn request(tool: &str, input: &Value, place: &str, wait_seconds: u32) -> ChoiceRequest {
    let text = |k: &str| input.get(k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let what = text("command")
        .map(|c| format!("run `{}`", first_line(c, 300)))
        .or_else(|| text("file_path").map(|f| format!("write {}", first_line(f, 200))))
        .or_else(|| text("url").map(|u| format!("fetch {}", first_line(u, 200))))
        .unwrap_or_else(|| format!("use {tool}"));
    let why = text("description").map(|d| format!("\nWhy: {}", first_line(d, 300))).unwrap_or_default();
    ChoiceRequest {
        title: format!("Allow {tool}?"),
        prompt: format!("{place}\nThe agent wants to {what}.{why}"),
        selection_mode: Some(SelectionMode::Single),
        options: vec![
            ChoiceOption {
                id: ALLOW.into(),
                label: "Allow once".into(),
                description: None,
                recommended: false,
            },
            ChoiceOption { id: DENY.into(), label: "Deny".into(), description: None, recommended: true },
        ],
        timeout_seconds: Some(wait_seconds.clamp(crate::choice::request::MIN_TIMEOUT, 3_600)),
        allow_cancel: Some(false),
        ..ChoiceRequest::default()
    }
}

/// The verdict once the question ended, or `None` while it waits.
pub fn verdict(i: &Interaction) -> Option<Verdict> {
    if i.status == "pending" {
        return None;
    }
    let chose = i.response.as_ref().map(|r| r.selection.selected_ids.clone()).unwrap_or_default();
    let by = i.surface.as_deref().unwrap_or("the phone");
    Some(match (i.status.as_str(), chose.as_slice()) {
        ("answered", [id]) if id == ALLOW => Verdict::Allow,
        ("answered", _) => Verdict::Deny(format!("The person refused this (answered on {by}).")),
        _ => Verdict::Deny(away()),
    })
}

/// The deny when nobody answered in time.
pub fn away() -> String {
    "The person is away from the desk and did not answer in time, so this was not allowed. \
     Carry on without it, or ask again later."
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;
    use crate::choice::{Broker, Submission, TimeoutAction, check};
    use serde_json::json;

    #[test]
    fn the_prompt_names_the_command_and_reason_and_recommends_deny() {
        let r = request(
            "Bash",
            &json!({ "command": "rm -rf build\necho done", "description": "Clean up" }),
            "app · claude-code",
            60,
        );
        assert_eq!(r.title, "Allow Bash?");
        assert!(
            r.prompt.contains("run `rm -rf build…`") && r.prompt.contains("Why: Clean up"),
            "{}",
            r.prompt
        );
        assert!(r.options.iter().any(|o| o.id == DENY && o.recommended));
        assert!(check(r).is_ok());
        let w = request("Write", &json!({ "file_path": "src/a.rs" }), "app", 60);
        assert!(w.prompt.contains("write src/a.rs"));
    }

    #[test]
    fn only_an_explicit_allow_allows() {
        let store = Store::open_in_memory().unwrap();
        let broker = Broker::new(&store);
        let ask = || {
            broker
                .open(
                    check(request("Bash", &json!({ "command": "ls" }), "p", 60)).unwrap(),
                    None,
                    TimeoutAction::Cancel,
                )
                .unwrap()
        };
        let i = ask();
        assert_eq!(verdict(&i), None);
        broker
            .submit(
                &i.id,
                &Submission { selected_ids: Some(vec![ALLOW.into()]), ..Default::default() },
                "telegram",
            )
            .unwrap();
        assert_eq!(verdict(&broker.get(&i.id).unwrap()), Some(Verdict::Allow));
        let i = ask();
        broker
            .submit(
                &i.id,
                &Submission { selected_ids: Some(vec![DENY.into()]), ..Default::default() },
                "slack",
            )
            .unwrap();
        assert!(
            matches!(verdict(&broker.get(&i.id).unwrap()), Some(Verdict::Deny(m)) if m.contains("slack"))
        );
        let i = ask();
        broker.expire_due(chrono::Utc::now() + chrono::Duration::seconds(120)).unwrap();
        assert!(matches!(verdict(&broker.get(&i.id).unwrap()), Some(Verdict::Deny(m)) if m.contains("away")));
    }
}
