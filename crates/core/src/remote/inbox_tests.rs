use super::*;
use crate::{NewProject, Registry};

fn app() -> Store {
    let store = Store::open_in_memory().unwrap();
    Registry::new(&store).create(NewProject { name: "App".into(), ..NewProject::default() }).unwrap();
    store
}

#[test]
fn a_message_reaches_one_session_once_without_secrets() {
    let store = app();
    leave(&store, "app", "also update the README, token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", false)
        .unwrap();
    let got = take(&store, "app", "claude-code:1").unwrap().unwrap();
    assert!(got.contains("also update the README") && !got.contains("ghp_0123"), "{got}");
    assert_eq!(take(&store, "app", "claude-code:2").unwrap(), None);
    assert!(leave(&store, "nope", "x", false).is_err());
    assert_eq!(leave(&store, "app", "  ", false).unwrap_err().field.as_deref(), Some("text"));
}

#[test]
fn a_held_message_waits_for_the_pick_and_goes_only_where_it_was_sent() {
    let store = app();
    let id = leave(&store, "app", "run the linter too", true).unwrap();
    assert_eq!(take(&store, "app", "claude-code:a").unwrap(), None, "held: no session gets it yet");
    assert!(route(&store, "app", id, Some(Some("claude-code:b"))).unwrap());
    assert!(!route(&store, "app", id, Some(None)).unwrap(), "a second pick changes nothing");
    assert_eq!(take(&store, "app", "claude-code:a").unwrap(), None, "not for this session");
    assert!(take(&store, "app", "claude-code:b").unwrap().unwrap().contains("run the linter too"));

    let any = leave(&store, "app", "and the docs", true).unwrap();
    assert!(route(&store, "app", any, Some(None)).unwrap());
    assert_eq!(take_words(&store, "app", "codex:c").unwrap(), vec!["and the docs".to_owned()]);

    let dropped = leave(&store, "app", "never mind", true).unwrap();
    assert!(route(&store, "app", dropped, None).unwrap());
    assert!(!route(&store, "app", dropped, Some(None)).unwrap(), "a dropped message is gone");
    assert_eq!(take(&store, "app", "claude-code:b").unwrap(), None);
}
