//! The question Mooring puts to the person when a session is about to write into a file
//! another live session holds, the project asks first, and the writing client cannot ask
//! before a tool runs (Codex): who holds the file and why, then "Let it write" or
//! "Refuse" (refusing is the recommended answer, as a held file is the norm to respect).

use super::phone::first_line;
use crate::choice::{ChoiceOption, ChoiceRequest, ChoiceStatus, Interaction, SelectionMode};

/// The option that lets the write go on.
pub const LET_IT_WRITE: &str = "let_it_write";
/// The option that refuses it.
pub const REFUSE: &str = "refuse";

/// The question: `client` (the writer's name) is about to write `files` in `place`;
/// `held` is the claim's sentence naming the holder. Waits `wait_seconds`.
pub fn request(client: &str, files: &[String], held: &str, place: &str, wait_seconds: u32) -> ChoiceRequest {
    let client = crate::guard::quoted::line(client);
    let shown: Vec<String> = files.iter().take(5).map(|f| first_line(f, 200)).collect();
    let more = files.len().saturating_sub(shown.len());
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    let option = |id: &str, label: &str, recommended| ChoiceOption {
        id: id.into(),
        label: label.into(),
        description: None,
        recommended,
    };
    ChoiceRequest {
        title: format!("Let the {client} session write a held file?"),
        prompt: format!(
            "{place}\nThe {client} session is about to write {}{more}.\n{}",
            shown.join(", "),
            first_line(held, 600)
        ),
        selection_mode: Some(SelectionMode::Single),
        options: vec![option(LET_IT_WRITE, "Let it write", false), option(REFUSE, "Refuse", true)],
        timeout_seconds: Some(wait_seconds.clamp(crate::choice::request::MIN_TIMEOUT, 3_600)),
        allow_cancel: Some(false),
        ..ChoiceRequest::default()
    }
}

/// Once the question ended: `Ok` to let the write go on, else the refusal the agent
/// reads (`held` is the claim's sentence); `None` while it waits.
pub fn answer(i: &Interaction, held: &str) -> Option<Result<(), String>> {
    if i.status.is_pending() {
        return None;
    }
    let chose = i.response.as_ref().map(|r| r.selection.selected_ids.clone()).unwrap_or_default();
    Some(match (i.status, chose.as_slice()) {
        (ChoiceStatus::Answered, [id]) if id == LET_IT_WRITE => Ok(()),
        (ChoiceStatus::Answered, _) => Err(format!("{held} The person refused this write.")),
        _ => Err(unanswered(held)),
    })
}

/// The refusal when the person did not answer in time.
pub fn unanswered(held: &str) -> String {
    format!("{held} The person was asked and did not answer in time, so the write was not allowed.")
}

/// The refusal when no one could be asked (no Mooring hub runs to show the question).
pub fn unasked(held: &str) -> String {
    format!("{held} No Mooring hub is running to ask the person, so the write was not allowed.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;
    use crate::choice::{Broker, Submission, TimeoutAction, check};
    use crate::model::Surface;

    const HELD: &str = "src/billing.rs is being edited by the claude-code session started 10:42 \
                        for 'split invoices', which holds src/billing.rs; work elsewhere or ask the person.";

    fn asked(store: &Store) -> Interaction {
        let files = vec!["src/billing.rs".to_owned()];
        let request = request("codex", &files, HELD, "leases · codex · ~/code/leases", 60);
        let checked = check(request).unwrap();
        Broker::new(store).open_in(checked, None, Some("leases"), TimeoutAction::Cancel).unwrap()
    }

    #[test]
    fn the_question_names_the_writer_the_file_and_the_holder() {
        let store = Store::open_in_memory().unwrap();
        let i = asked(&store);
        let r = &i.checked.request;
        assert!(r.title.contains("codex"), "{}", r.title);
        assert!(r.prompt.contains("about to write src/billing.rs"), "{}", r.prompt);
        assert!(r.prompt.contains("split invoices"), "{}", r.prompt);
        assert!(r.options.iter().any(|o| o.id == REFUSE && o.recommended));
        assert_eq!(answer(&i, HELD), None, "it waits");
    }

    #[test]
    fn let_it_write_lets_it_and_anything_else_refuses_with_the_holder_named() {
        let store = Store::open_in_memory().unwrap();
        let broker = Broker::new(&store);
        let i = asked(&store);
        let pick = |id: &str| Submission { selected_ids: Some(vec![id.into()]), ..Submission::default() };
        broker.submit(&i.id, &pick(LET_IT_WRITE), Surface::Web).unwrap();
        assert_eq!(answer(&broker.get(&i.id).unwrap(), HELD), Some(Ok(())));

        let i = asked(&store);
        broker.submit(&i.id, &pick(REFUSE), Surface::Web).unwrap();
        let refused = answer(&broker.get(&i.id).unwrap(), HELD).unwrap().unwrap_err();
        assert!(refused.starts_with(HELD) && refused.contains("refused"), "{refused}");

        let i = asked(&store);
        broker
            .submit(&i.id, &Submission { cancel: true, ..Submission::default() }, Surface::Timeout)
            .unwrap();
        let late = answer(&broker.get(&i.id).unwrap(), HELD).unwrap().unwrap_err();
        assert!(late.contains("did not answer in time"), "{late}");
    }
}
