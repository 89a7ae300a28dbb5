//! A project's events in words, for people: "decision: Numbat ledger stays append-only —
//! by Ada" rather than "memory added". Events written before titles were kept in them
//! name the entry by kind and id.

use serde_json::Value;

use crate::model::Event;

/// One event as a sentence.
pub fn describe(e: &Event) -> String {
    let d = &e.detail;
    let text = |k: &str| d.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let num = |k: &str| d.get(k).and_then(Value::as_i64);
    let entry = |kind: &str, id: Option<i64>| match (text("title"), id) {
        (Some(title), _) => format!("{kind}: {title}"),
        (None, Some(id)) => format!("{kind} #{id}"),
        (None, None) => kind.to_owned(),
    };
    let said = match e.kind.as_str() {
        "created" => match text("name") {
            Some(name) => format!("project created: {name}"),
            None => "project created".to_owned(),
        },
        "edited" => {
            let fields: Vec<&str> = d
                .get("fields")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if fields.is_empty() {
                "details edited".to_owned()
            } else {
                format!("edited {}", fields.join(", "))
            }
        }
        "archived" | "paused" | "resumed" => format!("project {}", e.kind),
        "permission_answered" => format!(
            "{} {} from the phone ({})",
            text("tool").unwrap_or("a tool"),
            match (d.get("allowed").and_then(Value::as_bool), d.get("for_session").and_then(Value::as_bool)) {
                (Some(true), Some(true)) => "allowed for the session",
                (Some(true), _) => "allowed",
                _ => "refused",
            },
            text("answered_on").unwrap_or("no answer in time")
        ),
        "memory_superseded" => format!(
            "{} superseded by #{}: {}",
            text("kind").unwrap_or("entry"),
            num("by").unwrap_or_default(),
            text("title").unwrap_or("")
        ),
        "supersede_undone" => {
            format!(
                "{} no longer superseded: {}",
                text("kind").unwrap_or("entry"),
                text("title").unwrap_or("")
            )
        }
        "sessions_folded" => format!(
            "{} of {} folded into its digest #{}",
            plural(num("sessions").unwrap_or_default(), "session", "sessions"),
            text("week").unwrap_or("a week"),
            num("id").unwrap_or_default()
        ),
        "auto_paused" => match num("days_unused") {
            Some(n) => format!("paused after {} unused", plural(n, "day", "days")),
            None => "paused for lack of use".to_owned(),
        },
        "auto_resumed" => "resumed by use".to_owned(),
        "memory_added" => match (num("count"), text("kind")) {
            (Some(n), _) => format!("{} added", plural(n, "entry", "entries")),
            (None, Some("session")) => "session captured".to_owned(),
            (None, kind) => entry(kind.unwrap_or("entry"), num("id")),
        },
        "handover_saved" => entry("handover", num("memory_id")),
        "blocker_resolved" => entry("blocker resolved", num("id")),
        "memory_forgotten" => format!("forgot {}", entry(text("kind").unwrap_or("entry"), num("id"))),
        "context_locked" => match (text("topic"), num("version")) {
            (Some(t), Some(v)) => format!("context locked: {t} v{v}"),
            _ => "context locked".to_owned(),
        },
        "code_path_added" | "code_path_removed" | "code_path_missing" | "code_path_restored" => {
            let verb = e.kind.trim_start_matches("code_path_");
            match text("path") {
                Some(p) => format!("code path {verb}: {p}"),
                None => format!("code path {verb}"),
            }
        }
        "member_set" => match (text("person"), text("role")) {
            (Some(p), Some(r)) => format!("{p} is now {r}"),
            _ => "member changed".to_owned(),
        },
        "member_removed" => match text("person") {
            Some(p) => format!("{p} removed from the team"),
            None => "member removed".to_owned(),
        },
        "handed_off" => match text("to") {
            Some(to) => format!("handed to {to}"),
            None => "handed off".to_owned(),
        },
        "shared" => "shared with the team".to_owned(),
        "focus_set" => "made the focus project".to_owned(),
        "imported" => match num("entries") {
            Some(n) => format!("imported with {}", plural(n, "entry", "entries")),
            None => "imported".to_owned(),
        },
        other => other.replace('_', " "),
    };
    match text("by") {
        Some(by) => format!("{said} — by {by}"),
        None => said,
    }
}

/// `n` and the right form of the noun.
pub fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn said(kind: &str, detail: Value) -> String {
        describe(&Event { project: "p".into(), kind: kind.into(), detail, at: String::new() })
    }

    #[test]
    fn events_say_what_happened_and_who_did_it() {
        let d = json!({"id": 3, "kind": "decision", "title": "Numbat ledger stays append-only", "by": "Ada"});
        assert_eq!(said("memory_added", d), "decision: Numbat ledger stays append-only — by Ada");
        assert_eq!(said("memory_added", json!({"id": 4, "kind": "blocker"})), "blocker #4");
        assert_eq!(said("memory_added", json!({"count": 1})), "1 entry added");
        assert_eq!(said("memory_added", json!({"count": 12})), "12 entries added");
        assert_eq!(said("memory_added", json!({"id": 5, "kind": "session"})), "session captured");
        assert_eq!(
            said("blocker_resolved", json!({"id": 4, "title": "CI is red"})),
            "blocker resolved: CI is red"
        );
        assert_eq!(
            said("memory_forgotten", json!({"id": 4, "kind": "note", "title": "x"})),
            "forgot note: x"
        );
        assert_eq!(said("context_locked", json!({"topic": "api", "version": 2})), "context locked: api v2");
        assert_eq!(said("auto_paused", json!({"days_unused": 1})), "paused after 1 day unused");
        assert_eq!(said("edited", json!({"fields": ["name", "description"]})), "edited name, description");
        assert_eq!(said("something_new", json!({})), "something new");
    }
}
