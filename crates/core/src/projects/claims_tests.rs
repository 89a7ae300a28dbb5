use super::*;
use crate::projects::live::{mode, set_mode, working};
use crate::{NewProject, Registry};

fn store() -> Store {
    let store = Store::open_in_memory().unwrap();
    Registry::new(&store).create(NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    store
}

fn session<'a>(key: &'a str, checkout: &'a str, request: Option<&'a str>) -> Session<'a> {
    Session { key, client: "claude-code", checkout, branch: Some("main"), pid: None, request }
}

#[test]
fn the_second_writer_to_a_held_file_meets_the_first_and_the_first_is_untouched() {
    let store = store();
    let a = session("a", "/w/billing", Some("split invoices"));
    let b = session("b", "/w/billing", Some("rename customers"));
    assert_eq!(claim(&store, "billing", &a, Kind::File, "src/billing.rs", None).unwrap(), Outcome::Held);
    let met = claim(&store, "billing", &b, Kind::File, "./src/billing.rs", None).unwrap();
    let Outcome::Taken { mode, holder } = &met else { panic!("{met:?}") };
    assert_eq!(
        (*mode, holder.claim.as_str(), holder.client.as_str()),
        (Mode::Ask, "src/billing.rs", "claude-code")
    );
    let said = met.message("src/billing.rs").unwrap();
    assert!(
        said.contains("being edited by the claude-code session started") && said.contains("'split invoices'"),
        "{said}"
    );
    assert!(said.ends_with("work elsewhere or ask the person."), "{said}");
    // The holder writes on; another file is free for the second.
    assert_eq!(claim(&store, "billing", &a, Kind::File, "src/billing.rs", None).unwrap(), Outcome::Held);
    assert_eq!(claim(&store, "billing", &b, Kind::File, "src/customers.rs", None).unwrap(), Outcome::Held);
    let now = working(&store, "billing", Utc::now()).unwrap();
    assert_eq!(now.len(), 2);
    assert_eq!((now[0].claims.as_slice(), now[1].conflicts), (&["src/billing.rs".to_owned()][..], 1));
    assert_eq!(now[0].request.as_deref(), Some("split invoices"));
}

#[test]
fn two_worktrees_never_meet_and_an_ended_session_holds_nothing() {
    let store = store();
    let a = session("a", "/w/billing", None);
    let other_tree = session("b", "/w/billing-feature", None);
    claim(&store, "billing", &a, Kind::File, "src/billing.rs", None).unwrap();
    assert_eq!(
        claim(&store, "billing", &other_tree, Kind::File, "src/billing.rs", None).unwrap(),
        Outcome::Held
    );
    let c = session("c", "/w/billing", None);
    assert!(matches!(
        claim(&store, "billing", &c, Kind::File, "src/billing.rs", None).unwrap(),
        Outcome::Taken { .. }
    ));
    ended(&store, "a").unwrap();
    assert_eq!(claim(&store, "billing", &c, Kind::File, "src/billing.rs", None).unwrap(), Outcome::Held);
    assert!(working(&store, "billing", Utc::now()).unwrap().iter().all(|w| w.key != "a"), "ended: not live");
    // Heard from again (a resumed session), it is live again, holding nothing yet.
    seen(&store, "billing", &a).unwrap();
    let live = working(&store, "billing", Utc::now()).unwrap();
    assert!(live.iter().any(|w| w.key == "a" && w.claims.is_empty()));
}

#[test]
fn a_quiet_session_lets_go_and_the_mode_says_what_a_write_meets() {
    let store = store();
    let a = session("a", "/w/billing", None);
    let b = session("b", "/w/billing", None);
    claim(&store, "billing", &a, Kind::Dir, "src/billing/", Some("moving the module")).unwrap();
    set_mode(&store, "billing", Mode::Deny).unwrap();
    let met = claim(&store, "billing", &b, Kind::File, "src/billing/invoice.rs", None).unwrap();
    let Outcome::Taken { mode, holder } = met else { panic!() };
    assert_eq!(
        (mode, holder.claim.as_str(), holder.reason.as_deref()),
        (Mode::Deny, "src/billing/", Some("moving the module"))
    );
    assert_eq!(
        claim(&store, "billing", &b, Kind::File, "src/billing.rs", None).unwrap(),
        Outcome::Held,
        "beside the folder"
    );
    // An hour later the holder has not been heard from: past the quiet period, it holds nothing.
    let later = Utc::now() + Duration::minutes(31);
    assert!(working(&store, "billing", later).unwrap().is_empty(), "quiet past 30 minutes: none is live");
    store
        .write(|tx| {
            tx.execute("UPDATE live_sessions SET last_at = '2000-01-01T00:00:00.000Z' WHERE key = 'a'", [])?;
            Ok(())
        })
        .unwrap();
    assert_eq!(
        claim(&store, "billing", &b, Kind::File, "src/billing/invoice.rs", None).unwrap(),
        Outcome::Held
    );
    assert!(working(&store, "billing", Utc::now()).unwrap().iter().all(|w| w.key != "a"));
    set_mode(&store, "billing", Mode::Off).unwrap();
    assert_eq!(mode_of(&store), Mode::Off);
}

fn mode_of(store: &Store) -> Mode {
    mode(store, "billing").unwrap()
}

#[test]
fn globs_tasks_and_folders_overlap_as_people_mean_them() {
    assert!(covers(Kind::Glob, "src/billing/**/*.rs", "src/billing/a/b.rs"));
    assert!(!covers(Kind::Glob, "src/*.rs", "src/billing/a.rs"), "a star stays in its folder");
    assert!(covers(Kind::Dir, "src", "src/a.rs") && !covers(Kind::Dir, "src", "srcx/a.rs"));
    assert!(overlap((Kind::Task, "Split invoices"), (Kind::Task, "split invoices")));
    assert!(!overlap((Kind::Task, "split invoices"), (Kind::File, "split invoices")));
    assert!(overlap((Kind::Dir, "src/billing"), (Kind::Glob, "src/billing/**")));
    assert!(!overlap((Kind::Dir, "docs"), (Kind::Glob, "src/**")));
    let store = store();
    let a = session("a", "/w/billing", None);
    for bad in ["/etc/passwd", "../other/x", "", "a\u{7}b"] {
        let err = claim(&store, "billing", &a, Kind::File, bad, None).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("what"), "{bad:?}");
    }
    assert_eq!(
        claim(&store, "billing", &a, Kind::Task, "split invoices", Some("ticket 12")).unwrap(),
        Outcome::Held
    );
    assert_eq!(release(&store, "a", Some((Kind::Task, "split invoices"))).unwrap(), 1);
    assert_eq!(release(&store, "a", None).unwrap(), 0);
}

#[test]
fn a_session_unheard_of_for_a_month_leaves_no_row_behind() {
    let store = store();
    seen(&store, "billing", &session("old", "/w/billing", None)).unwrap();
    store
        .write(|tx| {
            tx.execute(
                "UPDATE live_sessions SET last_at = '2000-01-01T00:00:00.000Z' WHERE key = 'old'",
                [],
            )?;
            Ok(())
        })
        .unwrap();
    seen(&store, "billing", &session("new", "/w/billing", None)).unwrap();
    ended(&store, "new").unwrap();
    let rows: i64 =
        store.read(|c| Ok(c.query_row("SELECT count(*) FROM live_sessions", [], |r| r.get(0))?)).unwrap();
    assert_eq!(rows, 1, "the month-old row went; the one just ended stays");
}

#[test]
fn only_a_project_with_more_than_one_live_session_is_crowded() {
    use crate::projects::live::crowded;
    let store = store();
    Registry::new(&store).create(NewProject { name: "Quiet".into(), ..Default::default() }).unwrap();
    seen(&store, "billing", &session("a", "/w/billing", None)).unwrap();
    seen(&store, "quiet", &session("q", "/w/quiet", None)).unwrap();
    assert_eq!(crowded(&store, Utc::now()).unwrap(), []);
    let b = Session { client: "codex", ..session("b", "/w/billing", None) };
    claim(&store, "billing", &session("a", "/w/billing", None), Kind::File, "x.rs", None).unwrap();
    claim(&store, "billing", &b, Kind::File, "x.rs", None).unwrap();
    let now = crowded(&store, Utc::now()).unwrap();
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(
        (now[0].slug.as_str(), now[0].name.as_str(), now[0].clients.clone(), now[0].conflicts),
        ("billing", "Billing", vec!["claude-code".to_owned(), "codex".to_owned()], 1)
    );
    ended(&store, "b").unwrap();
    assert_eq!(crowded(&store, Utc::now()).unwrap(), [], "an ended session is not at work");
}

#[test]
fn who_else_holds_a_file_is_read_without_claiming_it() {
    let store = store();
    let a = session("a", "/w/billing", Some("split invoices"));
    claim(&store, "billing", &a, Kind::Dir, "src/billing", Some("moving it")).unwrap();
    let said = held_by_another(&store, "b", "/w/billing", "./src/billing/mod.rs").unwrap().unwrap();
    assert!(
        said.starts_with("src/billing/mod.rs is being edited by the claude-code session started"),
        "{said}"
    );
    assert!(said.contains("which holds src/billing/ (moving it)"), "{said}");
    assert_eq!(held_by_another(&store, "a", "/w/billing", "src/billing/mod.rs").unwrap(), None, "its own");
    assert_eq!(
        held_by_another(&store, "b", "/w/billing-tree", "src/billing/mod.rs").unwrap(),
        None,
        "another tree"
    );
    assert_eq!(held_by_another(&store, "b", "/w/billing", "src/other.rs").unwrap(), None);
    let b = session("b", "/w/billing", None);
    assert_eq!(
        claim(&store, "billing", &b, Kind::File, "src/other.rs", None).unwrap(),
        Outcome::Held,
        "nothing was claimed for b by asking"
    );
    assert_eq!(working(&store, "billing", Utc::now()).unwrap()[1].claims, ["src/other.rs"]);
    ended(&store, "a").unwrap();
    assert_eq!(
        held_by_another(&store, "b", "/w/billing", "src/billing/mod.rs").unwrap(),
        None,
        "an ended holder"
    );
}
