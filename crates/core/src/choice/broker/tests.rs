use std::collections::BTreeMap;

use chrono::Utc;

use super::*;
use crate::choice::request::{ChoiceOption, ChoiceRequest, SelectionMode, check};

fn request(mode: SelectionMode) -> ChoiceRequest {
    let opt = |id: &str, rec: bool| ChoiceOption {
        id: id.into(),
        label: id.to_uppercase(),
        description: None,
        recommended: rec,
    };
    ChoiceRequest {
        title: "t".into(),
        prompt: "p".into(),
        selection_mode: Some(mode),
        options: if mode == SelectionMode::TextInput {
            vec![]
        } else {
            vec![opt("a", true), opt("b", false), opt("c", false)]
        },
        allow_option_annotations: mode != SelectionMode::TextInput,
        allow_global_annotation: true,
        ..Default::default()
    }
}

fn ids(v: &[&str]) -> Option<Vec<String>> {
    Some(v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn normalizes_order_defaults_and_annotations() {
    let mut r = request(SelectionMode::Multi);
    r.default_selection_ids = vec!["c".into(), "a".into()];
    let c = check(r).unwrap();
    let (status, s) =
        normalize(&c, &Submission { selected_ids: ids(&["c", "a", "c"]), ..Default::default() }).unwrap();
    assert_eq!(status, ActionStatus::Selected);
    assert_eq!(s.selected_ids, ["a", "c"], "option order, no duplicates");
    let (_, untouched) = normalize(&c, &Submission::default()).unwrap();
    assert_eq!(untouched.selected_ids, ["a", "c"], "defaults kept when untouched");
    let notes: BTreeMap<String, String> =
        [("a".to_string(), " fast ".to_string()), ("zzz".to_string(), "x".to_string())].into();
    let (_, annotated) = normalize(
        &c,
        &Submission {
            selected_ids: ids(&["a"]),
            option_annotations: notes,
            global_annotation: Some("ok".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(annotated.option_annotations.get("a").map(String::as_str), Some("fast"));
    assert!(!annotated.option_annotations.contains_key("zzz"));
    assert_eq!(annotated.global_annotation.as_deref(), Some("ok"));
}

#[test]
fn submissions_outside_the_rules_are_refused() {
    let single = check(request(SelectionMode::Single)).unwrap();
    assert_eq!(
        normalize(&single, &Submission { selected_ids: ids(&["a", "b"]), ..Default::default() })
            .unwrap_err()
            .field
            .as_deref(),
        Some("selected_ids")
    );
    assert_eq!(
        normalize(&single, &Submission { selected_ids: ids(&["nope"]), ..Default::default() })
            .unwrap_err()
            .field
            .as_deref(),
        Some("selected_ids")
    );
    assert_eq!(
        normalize(&single, &Submission { selected_ids: ids(&[]), ..Default::default() })
            .unwrap_err()
            .field
            .as_deref(),
        Some("selected_ids")
    );
    assert_eq!(
        normalize(
            &single,
            &Submission { selected_ids: ids(&["a"]), custom_input: Some("x".into()), ..Default::default() }
        )
        .unwrap_err()
        .field
        .as_deref(),
        Some("custom_input")
    );
    let text = check(request(SelectionMode::TextInput)).unwrap();
    assert_eq!(
        normalize(&text, &Submission { custom_input: Some("  ".into()), ..Default::default() })
            .unwrap_err()
            .field
            .as_deref(),
        Some("custom_input")
    );
    let (status, s) =
        normalize(&text, &Submission { custom_input: Some("hello".into()), ..Default::default() }).unwrap();
    assert_eq!((status, s.custom_input.as_deref()), (ActionStatus::CustomInput, Some("hello")));
    let hybrid = check(request(SelectionMode::Hybrid)).unwrap();
    let (status, s) = normalize(
        &hybrid,
        &Submission { selected_ids: ids(&["b"]), custom_input: Some("also".into()), ..Default::default() },
    )
    .unwrap();
    assert_eq!((status, s.selected_ids.len()), (ActionStatus::CustomInput, 1));
}

#[test]
fn interactions_persist_answer_once_and_time_out() {
    let store = Store::open_in_memory().unwrap();
    let broker = Broker::new(&store);
    let a = broker
        .open(check(request(SelectionMode::Single)).unwrap(), Some("s1"), TimeoutAction::Cancel)
        .unwrap();
    let b = broker
        .open(check(request(SelectionMode::Single)).unwrap(), Some("s2"), TimeoutAction::Cancel)
        .unwrap();
    assert_eq!(broker.open_list().unwrap().len(), 2, "questions wait side by side");
    // Answered in reverse order, each keeps its own answer.
    let rb = broker
        .submit(
            &b.id,
            &Submission { selected_ids: ids(&["b"]), ..Default::default() },
            crate::model::Surface::Web,
        )
        .unwrap();
    let ra = broker
        .submit(
            &a.id,
            &Submission { selected_ids: ids(&["c"]), ..Default::default() },
            crate::model::Surface::Terminal,
        )
        .unwrap();
    assert_eq!((rb.selection.selected_ids[0].as_str(), ra.selection.selected_ids[0].as_str()), ("b", "c"));
    assert_eq!(ra.selection.session_id, a.id);
    assert_eq!(broker.get(&a.id).unwrap().response.unwrap(), ra);
    assert_eq!(
        broker.submit(&a.id, &Submission::default(), crate::model::Surface::Web).unwrap_err().code,
        crate::ErrorCode::Conflict
    );
    assert_eq!(broker.get_with_token(&a.id, "wrong").unwrap_err().field.as_deref(), Some("token"));
    assert!(broker.get_with_token(&a.id, &a.token).is_ok());

    let mut with_defaults = request(SelectionMode::Multi);
    with_defaults.default_selection_ids = vec!["b".into()];
    let d = broker.open(check(with_defaults).unwrap(), None, TimeoutAction::UseDefaults).unwrap();
    let c = broker.open(check(request(SelectionMode::Single)).unwrap(), None, TimeoutAction::Cancel).unwrap();
    broker.expire_due(Utc::now() + chrono::Duration::seconds(301)).unwrap();
    let d = broker.get(&d.id).unwrap().response.unwrap();
    assert_eq!(
        (d.action_status, d.selection.selected_ids.as_slice()),
        (ActionStatus::Timeout, &["b".to_string()][..])
    );
    let c = broker.get(&c.id).unwrap().response.unwrap();
    assert_eq!((c.action_status, c.selection.selected_ids.len()), (ActionStatus::Timeout, 0));
    assert!(broker.open_list().unwrap().is_empty());
}

#[test]
fn deadlines_move_within_bounds() {
    let store = Store::open_in_memory().unwrap();
    let broker = Broker::new(&store);
    let i = broker.open(check(request(SelectionMode::Single)).unwrap(), None, TimeoutAction::Cancel).unwrap();
    let moved = broker.set_remaining(&i.id, 3600).unwrap();
    assert!(moved.remaining(Utc::now()) > 3500);
    assert_eq!(broker.set_remaining(&i.id, 5).unwrap_err().field.as_deref(), Some("remaining_seconds"));
    let cancelled = broker
        .submit(&i.id, &Submission { cancel: true, ..Default::default() }, crate::model::Surface::Web)
        .unwrap();
    assert_eq!(cancelled.action_status, ActionStatus::Cancelled);
}

#[test]
fn a_question_belongs_to_the_asking_sessions_project_and_is_listed_there_with_its_answer() {
    use crate::{NewProject, Registry};
    let store = Store::open_in_memory().unwrap();
    let alpha =
        Registry::new(&store).create(NewProject { name: "Alpha".into(), ..Default::default() }).unwrap();
    Registry::new(&store).create(NewProject { name: "Beta".into(), ..Default::default() }).unwrap();
    let now = crate::humanize::now();
    store
        .write(|tx| {
            let facts = crate::store::sessions::ClientFacts { transport: "http", ..Default::default() };
            crate::store::sessions::upsert_seen(tx, "s1", &facts, &now)?;
            crate::store::sessions::set_project(tx, "s1", Some(alpha.project.id), Some("cwd"), &now)
        })
        .unwrap();
    let broker = Broker::new(&store);
    let asked = broker
        .open(check(request(SelectionMode::Single)).unwrap(), Some("s1"), TimeoutAction::Cancel)
        .unwrap();
    broker.open(check(request(SelectionMode::Single)).unwrap(), None, TimeoutAction::Cancel).unwrap();
    let sub = Submission { selected_ids: ids(&["b"]), ..Default::default() };
    broker.submit(&asked.id, &sub, crate::model::Surface::Web).unwrap();
    let listed = broker.asked_in("alpha", 10).unwrap();
    assert_eq!(listed.len(), 1, "only the question asked from Alpha's session");
    assert_eq!(
        (listed[0].status, listed[0].surface),
        (ChoiceStatus::Answered, Some(crate::model::Surface::Web))
    );
    assert!(listed[0].answer.as_deref().is_some_and(|a| a.contains('B')), "{:?}", listed[0].answer);
    assert!(broker.asked_in("beta", 10).unwrap().is_empty());
    assert!(broker.asked_in("nope", 10).is_err());
}

#[test]
fn a_status_is_stored_and_shown_by_the_names_rows_already_hold() {
    // Rows written before the status had a type hold these names: they must read back.
    let names = ["pending", "answered", "cancelled", "timed_out"];
    for (status, name) in ChoiceStatus::ALL.into_iter().zip(names) {
        assert_eq!(status.as_str(), name);
        assert_eq!(serde_json::to_value(status).unwrap(), name, "the JSON the pages and tools show");
        assert_eq!(name.parse::<ChoiceStatus>().unwrap(), status);
    }
    let store = Store::open_in_memory().unwrap();
    let broker = Broker::new(&store);
    let asked =
        broker.open(check(request(SelectionMode::Single)).unwrap(), None, TimeoutAction::Cancel).unwrap();
    let stored = |id: &str| {
        store.read(|c| {
            Ok(c.query_row("SELECT status FROM choices WHERE id = ?1", [id], |r| r.get::<_, String>(0))?)
        })
    };
    assert_eq!(stored(&asked.id).unwrap(), "pending");
    broker
        .submit(&asked.id, &Submission { cancel: true, ..Default::default() }, crate::model::Surface::Web)
        .unwrap();
    assert_eq!(stored(&asked.id).unwrap(), "cancelled");
    assert_eq!(broker.get(&asked.id).unwrap().status, ChoiceStatus::Cancelled);
}

#[test]
fn a_status_nobody_wrote_is_refused_by_the_store_and_by_the_type() {
    let store = Store::open_in_memory().unwrap();
    let broker = Broker::new(&store);
    let asked =
        broker.open(check(request(SelectionMode::Single)).unwrap(), None, TimeoutAction::Cancel).unwrap();
    let err = store
        .write(|tx| Ok(tx.execute("UPDATE choices SET status = 'maybe' WHERE id = ?1", [&asked.id])?))
        .unwrap_err()
        .to_string();
    assert!(err.contains("CHECK"), "{err}");
    assert_eq!(broker.get(&asked.id).unwrap().status, ChoiceStatus::Pending, "the row is as it was");
    let err = "Pending".parse::<ChoiceStatus>().unwrap_err().to_string();
    assert!(err.contains("'Pending'") && err.contains("timed_out"), "names are exact, as stored: {err}");
}
