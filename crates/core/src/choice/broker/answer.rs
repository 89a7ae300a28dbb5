//! The normalized answer: what a submission means for a checked request (ids in option
//! order, the defaults, each note kept with its option), and the one line that sums it
//! up. The broker scrubs a submission's notes before it gets here.

use std::collections::BTreeMap;

use super::Submission;
use crate::choice::request::{ActionStatus, Checked, Selection, SelectionMode};
use crate::error::{Error, Result};

/// Ids in option order, unknown ones dropped, duplicates removed.
pub(super) fn ordered(c: &Checked, ids: &[String]) -> Vec<String> {
    c.request.options.iter().filter(|o| ids.contains(&o.id)).map(|o| o.id.clone()).collect()
}

/// Check a submission against the request and normalize it.
pub fn normalize(c: &Checked, sub: &Submission) -> Result<(ActionStatus, Selection)> {
    let known: Vec<&str> = c.request.options.iter().map(|o| o.id.as_str()).collect();
    let ids = match &sub.selected_ids {
        None => c.request.default_selection_ids.clone(),
        Some(ids) => {
            if let Some(bad) = ids.iter().find(|id| !known.contains(&id.as_str())) {
                return Err(Error::invalid("selected_ids", format!("'{bad}' is not one of the options")));
            }
            ids.clone()
        }
    };
    let selected = ordered(c, &ids);
    let text = sub.custom_input.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    if text.as_ref().is_some_and(|t| t.chars().count() > 20_000) {
        return Err(Error::invalid("custom_input", "custom_input is longer than 20000 characters"));
    }
    let count = selected.len() as u32;
    let status = match c.mode {
        SelectionMode::TextInput => {
            if text.is_none() {
                return Err(Error::invalid("custom_input", "type an answer, or cancel"));
            }
            ActionStatus::CustomInput
        }
        SelectionMode::Hybrid if text.is_some() => {
            if count > c.max {
                return Err(Error::invalid("selected_ids", format!("choose at most {}", c.max)));
            }
            ActionStatus::CustomInput
        }
        _ => {
            if text.is_some() && c.mode != SelectionMode::Hybrid {
                return Err(Error::invalid("custom_input", "this question takes options, not text"));
            }
            if count < c.min.max(u32::from(c.mode == SelectionMode::Hybrid)) || count > c.max {
                return Err(Error::invalid(
                    "selected_ids",
                    format!("choose between {} and {} options (got {count})", c.min.max(1), c.max),
                ));
            }
            ActionStatus::Selected
        }
    };
    let option_annotations = if c.request.allow_option_annotations {
        sub.option_annotations
            .iter()
            .filter(|(k, v)| known.contains(&k.as_str()) && !v.trim().is_empty())
            .map(|(k, v)| (k.clone(), v.trim().to_owned()))
            .collect()
    } else {
        BTreeMap::new()
    };
    let global_annotation = if c.request.allow_global_annotation {
        sub.global_annotation.as_deref().map(str::trim).filter(|g| !g.is_empty()).map(str::to_owned)
    } else {
        None
    };
    Ok((
        status,
        Selection {
            selected_ids: selected,
            custom_input: text,
            option_annotations,
            global_annotation,
            ..Selection::default()
        },
    ))
}

pub(super) fn summarize(c: &Checked, status: ActionStatus, s: &Selection) -> String {
    let labels: Vec<&str> = c
        .request
        .options
        .iter()
        .filter(|o| s.selected_ids.contains(&o.id))
        .map(|o| o.label.as_str())
        .collect();
    match (status, &s.custom_input) {
        (ActionStatus::CustomInput, Some(t)) if labels.is_empty() => format!("The person wrote: {t}"),
        (ActionStatus::CustomInput, Some(t)) => {
            format!("The person chose {} and wrote: {t}", labels.join(", "))
        }
        _ => format!("The person chose {}.", labels.join(", ")),
    }
}
