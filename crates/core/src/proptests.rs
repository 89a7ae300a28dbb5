//! Property tests: whatever a client or a file sends, the validators never panic, and every
//! refusal names a field.

use proptest::prelude::*;

use crate::choice::{ChoiceOption, ChoiceRequest, SelectionMode, check};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z0-9 _-]{0,20}",
        Just(String::new()),
        Just("\u{200b}\u{202e}\u{0}".to_owned()),
        "[\\PC]{0,300}",
    ]
}

fn option() -> impl Strategy<Value = ChoiceOption> {
    (text(), text(), proptest::option::of(text()), any::<bool>()).prop_map(
        |(id, label, description, recommended)| ChoiceOption { id, label, description, recommended },
    )
}

fn mode() -> impl Strategy<Value = Option<SelectionMode>> {
    proptest::option::of(prop_oneof![
        Just(SelectionMode::Single),
        Just(SelectionMode::Multi),
        Just(SelectionMode::TextInput),
        Just(SelectionMode::Hybrid),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn choice_requests_never_panic_and_refusals_name_a_field(
        title in text(),
        prompt in text(),
        options in proptest::collection::vec(option(), 0..8),
        selection_mode in mode(),
        min in proptest::option::of(any::<u32>()),
        max in proptest::option::of(any::<u32>()),
        timeout in proptest::option::of(any::<u32>()),
        defaults in proptest::collection::vec(text(), 0..4),
    ) {
        let request = ChoiceRequest {
            title, prompt, options, selection_mode,
            min_selections: min, max_selections: max, timeout_seconds: timeout,
            default_selection_ids: defaults,
            ..ChoiceRequest::default()
        };
        if let Err(e) = check(request) {
            prop_assert!(e.field.as_deref().is_some_and(|f| !f.is_empty()), "no field: {}", e.message);
            prop_assert!(e.message.chars().count() <= crate::error::MAX_MESSAGE + 40);
        }
    }

    #[test]
    fn field_rules_never_panic_and_refusals_name_a_field(input in text()) {
        let results = [
            crate::guard::validate::name(&input).map(|_| ()),
            crate::guard::validate::description(&input).map(|_| ()),
            crate::guard::validate::repo_url(&input).map(|_| ()),
            crate::paths::normalize("code_path", &input, None).map(|_| ()),
            crate::projects::slug::validate(&input).map(|_| ()),
            crate::memory::locks::check_version(&input, &input).map(|_| ()),
            crate::memory::content_and_title(&input, Some(&input)).map(|_| ()),
        ];
        for r in results {
            if let Err(e) = r {
                prop_assert!(e.field.as_deref().is_some_and(|f| !f.is_empty()), "no field: {}", e.message);
            }
        }
    }

    #[test]
    fn import_parsing_never_panics_and_refusals_name_a_field(
        lines in proptest::collection::vec(prop_oneof![
            text(),
            Just("<!-- mooring {\"kind\":\"decision\"} -->".to_owned()),
            Just("<!-- mooring {".to_owned()),
            Just("## A title".to_owned()),
        ], 0..20)
    ) {
        let doc = lines.join("\n");
        if let Err(e) = crate::memory::transfer::parse_for_tests(&doc) {
            prop_assert!(e.field.as_deref() == Some("dir"), "{}", e.message);
            prop_assert!(e.message.contains("line"), "no line in: {}", e.message);
        }
    }

    #[test]
    fn a_command_line_of_any_shape_reads_without_panic_into_a_bounded_list(
        input in prop_oneof![text(), "[a-z >|&;<'\"\\()#0-9.\n-]{0,200}"],
    ) {
        let written = crate::capture::shell::written_files(&input);
        prop_assert!(written.len() <= 50);
        prop_assert!(written.iter().all(|w| !w.is_empty()));
        prop_assert!(crate::capture::shell::file_changes(&input).len() <= 50);
    }

    #[test]
    fn redaction_never_panics_and_never_grows_a_secret(input in text()) {
        let (out, found) = crate::guard::redact::scrub(&input);
        if found.count == 0 {
            prop_assert_eq!(out, input);
        }
    }
}
