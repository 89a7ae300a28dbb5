//! A client's permission prompt sent to the phone in away mode: the question it becomes
//! (the tool, the command or file, the agent's stated reason; Deny recommended, nothing
//! chosen on its own), and the verdict the hook hands back. Never allow by default: no
//! answer, a cancel or anything unclear is a deny.

use serde_json::Value;

use super::phone::first_line;
use crate::choice::{ChoiceOption, ChoiceRequest, ChoiceStatus, Interaction, SelectionMode};

/// Option ids.
pub const ALLOW: &str = "allow";
/// Option ids.
pub const DENY: &str = "deny";
/// Option ids: allow, and allow what the client's own dialog would for the rest of the
/// session.
pub const ALLOW_SESSION: &str = "allow-session";

/// The kinds of rule the client may be handed back for the session: allow rules, more
/// directories, and accepting edits; nothing that widens beyond what the client offered
/// or switches its checks off.
const SESSION_KINDS: &[&str] = &["addRules", "addDirectories", "setMode"];

/// What the hook answers the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Run it.
    Allow,
    /// Run it, and the client's own "don't ask again" rules hold for the session.
    AllowSession,
    /// Do not; the message tells the agent why.
    Deny(String),
}

/// Longest rule content offered from the phone: what the text shows is the whole rule.
const RULE_CHARS: usize = 200;

/// What the client offered to stop asking about (Claude Code's `permission_suggestions`),
/// each kept for this session only: the entries of a kind in [`SESSION_KINDS`] (allow
/// rules; `setMode` only to `acceptEdits`), with their destination set to `session`, so
/// nothing is written to the person's settings. A rule is kept only if the phone can
/// show it whole (one line, at most [`RULE_CHARS`]); a directory only if it is absolute
/// and neither `/` nor `home`: what is handed back is exactly what [`request`] shows.
/// Empty when there is nothing to offer.
pub fn session_rules(suggestions: Option<&Value>, home: Option<&std::path::Path>) -> Vec<Value> {
    let Some(list) = suggestions.and_then(Value::as_array) else { return Vec::new() };
    let shown_whole = |c: &str| !c.contains(['\n', '\r']) && c.chars().count() <= RULE_CHARS;
    let grantable = |d: &str| {
        let p = std::path::Path::new(d);
        p.is_absolute()
            && p.parent().is_some()
            && home.is_none_or(|h| p.components().ne(h.components()))
            && !d.contains(['\n', '\r'])
    };
    list.iter()
        .filter_map(Value::as_object)
        .filter(|o| {
            let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
            SESSION_KINDS.contains(&kind)
                && (kind != "addRules" || o.get("behavior").and_then(Value::as_str) == Some("allow"))
                && (kind != "setMode" || o.get("mode").and_then(Value::as_str) == Some("acceptEdits"))
        })
        .filter_map(|o| {
            let mut o = o.clone();
            match o.get("type").and_then(Value::as_str) {
                Some("addRules") => {
                    let rules: Vec<Value> = o
                        .get("rules")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter(|r| r.get("toolName").and_then(Value::as_str).is_some_and(&shown_whole))
                        .filter(|r| r.get("ruleContent").is_none_or(|c| c.as_str().is_some_and(shown_whole)))
                        .cloned()
                        .collect();
                    if rules.is_empty() {
                        return None;
                    }
                    o.insert("rules".into(), Value::from(rules));
                }
                Some("addDirectories") => {
                    let dirs: Vec<Value> = o
                        .get("directories")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter(|d| d.as_str().is_some_and(grantable))
                        .cloned()
                        .collect();
                    if dirs.is_empty() {
                        return None;
                    }
                    o.insert("directories".into(), Value::from(dirs));
                }
                _ => {}
            }
            o.insert("destination".into(), Value::from("session"));
            Some(Value::Object(o))
        })
        .collect()
}

/// The session rules as a person reads them, each whole: `Bash(npm test:*)`, `every
/// edit`, `work in /home/u/code/app/docs`.
fn rules_text(rules: &[Value]) -> String {
    let mut parts = Vec::new();
    for r in rules {
        match r.get("type").and_then(Value::as_str) {
            Some("addRules") => {
                for rule in r.get("rules").and_then(Value::as_array).into_iter().flatten() {
                    let tool = rule.get("toolName").and_then(Value::as_str).unwrap_or("a tool");
                    parts.push(match rule.get("ruleContent").and_then(Value::as_str) {
                        Some(c) => format!("{tool}({c})"),
                        None => tool.to_owned(),
                    });
                }
            }
            Some("setMode") => parts.push("every edit".to_owned()),
            Some("addDirectories") => {
                for d in r.get("directories").and_then(Value::as_array).into_iter().flatten() {
                    parts.push(format!("work in {}", d.as_str().unwrap_or("")));
                }
            }
            _ => {}
        }
    }
    parts.retain(|p| !p.is_empty());
    parts.join(", ")
}

/// The question for a permission prompt: `tool` with its `input`, asked in `place`
/// (project · client · checkout, already relative); with `session_rules` (see
/// [`session_rules`]), "Allow for this session" is offered too.
pub fn request(
    tool: &str,
    input: &Value,
    place: &str,
    wait_seconds: u32,
    session_rules: &[Value],
) -> ChoiceRequest {
    let text = |k: &str| input.get(k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let what = text("command")
        .map(|c| format!("run `{}`", first_line(c, 300)))
        .or_else(|| text("file_path").map(|f| format!("write {}", first_line(f, 200))))
        .or_else(|| text("url").map(|u| format!("fetch {}", first_line(u, 200))))
        .unwrap_or_else(|| format!("use {tool}"));
    let why = text("description")
        .map(|d| format!("\nThe agent says why: \"{}\"", super::phone::agent_words(d, 300)))
        .unwrap_or_default();
    let option = |id: &str, label: &str, recommended| ChoiceOption {
        id: id.into(),
        label: label.into(),
        description: None,
        recommended,
    };
    let mut options = vec![option(ALLOW, "Allow once", false)];
    let covers = rules_text(session_rules);
    let also = if covers.is_empty() {
        String::new()
    } else {
        options.push(option(ALLOW_SESSION, "Allow for this session", false));
        format!("\nFor this session would also allow: {covers}")
    };
    options.push(option(DENY, "Deny", true));
    ChoiceRequest {
        title: format!("Allow {tool}?"),
        prompt: format!("{place}\nThe agent wants to {what}.{why}{also}"),
        selection_mode: Some(SelectionMode::Single),
        options,
        timeout_seconds: Some(wait_seconds.clamp(crate::choice::request::MIN_TIMEOUT, 3_600)),
        allow_cancel: Some(false),
        ..ChoiceRequest::default()
    }
}

/// The verdict once the question ended, or `None` while it waits.
pub fn verdict(i: &Interaction) -> Option<Verdict> {
    if i.status.is_pending() {
        return None;
    }
    let chose = i.response.as_ref().map(|r| r.selection.selected_ids.clone()).unwrap_or_default();
    let by = i.surface.map_or("the phone", |s| s.as_str());
    Some(match (i.status, chose.as_slice()) {
        (ChoiceStatus::Answered, [id]) if id == ALLOW => Verdict::Allow,
        (ChoiceStatus::Answered, [id]) if id == ALLOW_SESSION => Verdict::AllowSession,
        (ChoiceStatus::Answered, _) => Verdict::Deny(format!("The person refused this (answered on {by}).")),
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
            &[],
        );
        assert_eq!(r.title, "Allow Bash?");
        assert!(
            r.prompt.contains("run `rm -rf build…`") && r.prompt.contains("The agent says why: \"Clean up\""),
            "{}",
            r.prompt
        );
        assert!(r.options.iter().any(|o| o.id == DENY && o.recommended));
        assert!(check(r).is_ok());
        let w = request("Write", &json!({ "file_path": "src/a.rs" }), "app", 60, &[]);
        assert!(w.prompt.contains("write src/a.rs"));
    }

    #[test]
    fn the_session_offer_keeps_only_allow_rules_and_edits_and_writes_no_settings() {
        let offered = json!([
            { "type": "addRules", "rules": [{ "toolName": "Bash", "ruleContent": "npm test:*" }],
              "behavior": "allow", "destination": "localSettings" },
            { "type": "addRules", "rules": [{ "toolName": "Bash" }], "behavior": "deny", "destination": "userSettings" },
            { "type": "setMode", "mode": "bypassPermissions", "destination": "session" },
            { "type": "setMode", "mode": "acceptEdits", "destination": "localSettings" },
            { "type": "replaceRules", "rules": [], "behavior": "allow", "destination": "userSettings" },
            "not an object"
        ]);
        let rules = session_rules(Some(&offered), None);
        assert_eq!(rules.len(), 2, "{rules:?}");
        assert!(rules.iter().all(|r| r["destination"] == "session"));
        assert!(rules.iter().all(|r| r["mode"] != "bypassPermissions" && r["behavior"] != "deny"));
        let r = request("Bash", &json!({ "command": "npm test" }), "app", 60, &rules);
        assert!(r.options.iter().any(|o| o.id == ALLOW_SESSION), "{:?}", r.options);
        assert!(r.prompt.contains("Bash(npm test:*), every edit"), "{}", r.prompt);
        assert!(session_rules(None, None).is_empty() && session_rules(Some(&json!([])), None).is_empty());
        let plain = request("Bash", &json!({ "command": "ls" }), "app", 60, &session_rules(None, None));
        assert!(!plain.options.iter().any(|o| o.id == ALLOW_SESSION));
    }

    #[test]
    fn the_phone_grants_exactly_the_rules_it_shows_and_never_root_or_home() {
        let home = std::path::Path::new("/home/u");
        let long = "x".repeat(300);
        let offered = json!([
            { "type": "addDirectories", "directories": ["/", "/home/u/", "/home/u/code/app/docs", "rel/dir"],
              "destination": "session" },
            { "type": "addDirectories", "directories": ["/"], "destination": "session" },
            { "type": "addRules", "behavior": "allow", "destination": "session",
              "rules": [{ "toolName": "Bash", "ruleContent": "npm test:*" },
                        { "toolName": "Bash", "ruleContent": format!("echo {long}") },
                        { "toolName": "Bash", "ruleContent": "ls\nrm -rf /:*" }] }
        ]);
        let rules = session_rules(Some(&offered), Some(home));
        assert_eq!(
            rules,
            vec![
                json!({ "type": "addDirectories", "directories": ["/home/u/code/app/docs"], "destination": "session" }),
                json!({ "type": "addRules", "behavior": "allow", "destination": "session",
                        "rules": [{ "toolName": "Bash", "ruleContent": "npm test:*" }] }),
            ]
        );
        let r = request("Bash", &json!({ "command": "ls" }), "app", 60, &rules);
        assert!(
            r.prompt.ends_with(
                "For this session would also allow: work in /home/u/code/app/docs, Bash(npm test:*)"
            ),
            "{}",
            r.prompt
        );
        let only_root = json!([{ "type": "addDirectories", "directories": ["/", "/home/u"] }]);
        assert!(session_rules(Some(&only_root), Some(home)).is_empty(), "nothing left to offer");
    }

    #[test]
    fn only_an_explicit_allow_allows() {
        let store = Store::open_in_memory().unwrap();
        let broker = Broker::new(&store);
        let ask = || {
            broker
                .open(
                    check(request("Bash", &json!({ "command": "ls" }), "p", 60, &[])).unwrap(),
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
                crate::model::Surface::Chat(crate::model::Platform::Telegram),
            )
            .unwrap();
        assert_eq!(verdict(&broker.get(&i.id).unwrap()), Some(Verdict::Allow));
        let i = ask();
        broker
            .submit(
                &i.id,
                &Submission { selected_ids: Some(vec![DENY.into()]), ..Default::default() },
                crate::model::Surface::Chat(crate::model::Platform::Slack),
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
