use super::*;

fn opt(id: &str, recommended: bool) -> ChoiceOption {
    ChoiceOption { id: id.into(), label: format!("Label {id}"), description: None, recommended }
}

pub(crate) fn single() -> ChoiceRequest {
    ChoiceRequest {
        title: "Pick a store".into(),
        prompt: "We need a lease store for leader election because the custom one flaps.".into(),
        selection_mode: Some(SelectionMode::Single),
        options: vec![opt("etcd", true), opt("consul", false), opt("zk", false)],
        ..Default::default()
    }
}

fn with(f: impl FnOnce(&mut ChoiceRequest)) -> ChoiceRequest {
    let mut r = single();
    f(&mut r);
    r
}

#[test]
fn good_requests_resolve_bounds_and_timeout() {
    let c = check(single()).unwrap();
    assert_eq!((c.min, c.max, c.timeout), (1, 1, 300));
    let multi = check(with(|r| r.selection_mode = Some(SelectionMode::Multi))).unwrap();
    assert_eq!((multi.min, multi.max), (1, 3));
    let hybrid = check(with(|r| {
        r.selection_mode = Some(SelectionMode::Hybrid);
        r.placeholder = Some("or type".into());
    }))
    .unwrap();
    assert_eq!((hybrid.min, hybrid.max), (0, 3));
    let text = check(with(|r| {
        r.selection_mode = Some(SelectionMode::TextInput);
        r.options.clear();
        r.placeholder = Some("name".into());
    }))
    .unwrap();
    assert_eq!(text.mode, SelectionMode::TextInput);
}

#[test]
fn every_refusal_names_its_field() {
    use SelectionMode::*;
    let cases: Vec<(ChoiceRequest, &str)> = vec![
        (with(|r| r.title = " ".into()), "title"),
        (with(|r| r.prompt = "".into()), "prompt"),
        (with(|r| r.selection_mode = None), "selection_mode"),
        (with(|r| r.options.clear()), "options"),
        (with(|r| r.options[1].id = "etcd".into()), "options"),
        (with(|r| r.options[1].id = "has space".into()), "options"),
        (with(|r| r.options[1].label = "".into()), "options"),
        (with(|r| r.options[0].recommended = false), "options"),
        (with(|r| r.default_selection_ids = vec!["mysql".into()]), "default_selection_ids"),
        (with(|r| r.default_selection_ids = vec!["etcd".into(), "zk".into()]), "default_selection_ids"),
        (
            with(|r| {
                r.selection_mode = Some(Multi);
                r.min_selections = Some(3);
                r.max_selections = Some(2);
            }),
            "min_selections",
        ),
        (
            with(|r| {
                r.selection_mode = Some(Multi);
                r.max_selections = Some(4);
            }),
            "max_selections",
        ),
        (
            with(|r| {
                r.selection_mode = Some(Multi);
                r.max_selections = Some(0);
                r.min_selections = Some(0);
            }),
            "max_selections",
        ),
        (with(|r| r.max_selections = Some(2)), "max_selections"),
        (with(|r| r.placeholder = Some("x".into())), "placeholder"),
        (
            with(|r| {
                r.selection_mode = Some(Multi);
                r.single_submit_mode = true;
            }),
            "single_submit_mode",
        ),
        (
            with(|r| {
                r.selection_mode = Some(TextInput);
            }),
            "options",
        ),
        (
            with(|r| {
                r.selection_mode = Some(TextInput);
                r.options.clear();
                r.min_selections = Some(1);
            }),
            "min_selections",
        ),
        (
            with(|r| {
                r.selection_mode = Some(TextInput);
                r.options.clear();
                r.allow_option_annotations = true;
            }),
            "allow_option_annotations",
        ),
        (with(|r| r.timeout_seconds = Some(9)), "timeout_seconds"),
        (with(|r| r.timeout_seconds = Some(86_401)), "timeout_seconds"),
    ];
    for (i, (req, field)) in cases.into_iter().enumerate() {
        let err = check(req).unwrap_err();
        assert_eq!(err.field.as_deref(), Some(field), "case {i}: {}", err.message);
        assert!(!err.message.is_empty());
    }
}

#[test]
fn cancel_cannot_be_disabled() {
    let c = check(with(|r| r.allow_cancel = Some(false))).unwrap();
    assert!(c.warnings[0].contains("always cancel"));
}
