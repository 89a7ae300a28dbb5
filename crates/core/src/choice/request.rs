//! The `provide_choice` contract: request, response, and the checks a request
//! passes before anything is shown to the person.

use std::collections::{BTreeMap, HashSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Shortest timeout accepted.
pub const MIN_TIMEOUT: u32 = 10;
/// Longest timeout accepted (24 h).
pub const MAX_TIMEOUT: u32 = 86_400;
/// Default timeout.
pub const DEFAULT_TIMEOUT: u32 = 300;
/// Most options one question offers.
pub const MAX_OPTIONS: usize = 50;

/// How the person answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SelectionMode {
    /// Exactly one option.
    Single,
    /// Several options.
    Multi,
    /// Free text.
    TextInput,
    /// Options and/or free text.
    Hybrid,
}

/// Where the question is shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// The best available: elicitation, a desktop window, else the browser page.
    #[default]
    Auto,
    /// A desktop window.
    Native,
    /// The browser page.
    Web,
    /// The terminal (hand-off: the agent runs the returned command).
    Terminal,
    /// The client's MCP elicitation.
    Elicitation,
}

/// One option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// Stable id returned in `selected_ids`.
    pub id: String,
    /// What the person reads.
    pub label: String,
    /// More detail, shown under the label.
    #[serde(default)]
    pub description: Option<String>,
    /// The option the agent recommends (at least one must be).
    #[serde(default)]
    pub recommended: bool,
}

/// A question for the person.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ChoiceRequest {
    /// Short title.
    pub title: String,
    /// The question with the task context and why the choice is needed.
    pub prompt: String,
    /// single, multi, text_input or hybrid.
    pub selection_mode: Option<SelectionMode>,
    /// Options (single, multi, hybrid).
    #[serde(default)]
    pub options: Vec<ChoiceOption>,
    /// Placeholder of the text box (text_input, hybrid).
    #[serde(default)]
    pub placeholder: Option<String>,
    /// Options preselected (and used when the person leaves them untouched).
    #[serde(default)]
    pub default_selection_ids: Vec<String>,
    /// Fewest options to pick.
    #[serde(default)]
    pub min_selections: Option<u32>,
    /// Most options to pick.
    #[serde(default)]
    pub max_selections: Option<u32>,
    /// single: submit on the first click instead of a Submit button.
    #[serde(default)]
    pub single_submit_mode: bool,
    /// Let the person add a note to each option.
    #[serde(default)]
    pub allow_option_annotations: bool,
    /// Let the person add one note to the whole answer.
    #[serde(default)]
    pub allow_global_annotation: bool,
    /// Seconds to wait, 10 to 86400 (default 300).
    #[serde(default)]
    pub timeout_seconds: Option<u32>,
    /// auto, native, web, terminal or elicitation.
    #[serde(default)]
    pub transport: Transport,
    /// Cancel is always available; `false` is ignored (and said so).
    #[serde(default)]
    pub allow_cancel: Option<bool>,
}

/// What the interaction ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionStatus {
    /// Options were chosen.
    Selected,
    /// Text was given.
    CustomInput,
    /// The person cancelled.
    Cancelled,
    /// Nobody answered in time.
    Timeout,
    /// Run the command in `selection.summary` to answer in a terminal.
    PendingTerminalLaunch,
    /// Still waiting; call provide_choice with `session_id` to keep waiting.
    Pending,
}

/// The normalized answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Selection {
    /// Chosen option ids, in option order.
    pub selected_ids: Vec<String>,
    /// Text the person typed.
    pub custom_input: Option<String>,
    /// Notes per option id.
    pub option_annotations: BTreeMap<String, String>,
    /// A note on the whole answer.
    pub global_annotation: Option<String>,
    /// Where to answer (browser URL), when there is one.
    pub url: Option<String>,
    /// One line for the agent.
    pub summary: String,
    /// The interaction id (`session_id` for follow-up calls).
    pub session_id: String,
}

/// The tool's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChoiceResponse {
    /// How it ended (or that it is still open).
    pub action_status: ActionStatus,
    /// The answer.
    pub selection: Selection,
    /// Which surface answered (`web`, `terminal`, `elicitation`, `native`, `timeout`).
    #[schemars(with = "Option<String>")]
    pub surface: Option<crate::model::Surface>,
    /// Things the agent should know (an ignored flag).
    pub warnings: Vec<String>,
}

/// A checked request: mode, bounds and timeout resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    /// The request as given.
    pub request: ChoiceRequest,
    /// Mode.
    pub mode: SelectionMode,
    /// Fewest selections.
    pub min: u32,
    /// Most selections.
    pub max: u32,
    /// Timeout in seconds.
    pub timeout: u32,
    /// Warnings for the agent.
    pub warnings: Vec<String>,
}

fn text(field: &str, value: &str, max: usize) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::invalid(
            field,
            format!(
                "{field} is empty; {}",
                match field {
                    "prompt" => "say what is being decided, the task context and why the choice is needed",
                    _ => "give it some text",
                }
            ),
        ));
    }
    if value.chars().count() > max {
        return Err(Error::invalid(field, format!("{field} is longer than {max} characters; shorten it")));
    }
    Ok(())
}

/// Check a request before anything is shown; every refusal names the field and the fix.
pub fn check(request: ChoiceRequest) -> Result<Checked> {
    use SelectionMode::*;
    let mut warnings = Vec::new();
    text("title", &request.title, 200)?;
    text("prompt", &request.prompt, 20_000)?;
    let mode = request.selection_mode.ok_or_else(|| {
        Error::invalid("selection_mode", "selection_mode is missing; use single, multi, text_input or hybrid")
    })?;
    let has_options = matches!(mode, Single | Multi | Hybrid);
    if has_options && request.options.is_empty() {
        return Err(Error::invalid(
            "options",
            format!("{} mode needs options; give at least one", mode_name(mode)),
        ));
    }
    if !has_options {
        let stray = [
            (!request.options.is_empty(), "options"),
            (!request.default_selection_ids.is_empty(), "default_selection_ids"),
            (request.min_selections.is_some(), "min_selections"),
            (request.max_selections.is_some(), "max_selections"),
            (request.allow_option_annotations, "allow_option_annotations"),
        ];
        if let Some((_, f)) = stray.iter().find(|(given, _)| *given) {
            return Err(Error::invalid(
                f,
                format!("{f} does not apply to text_input; use hybrid for options plus text"),
            ));
        }
    }
    if matches!(mode, Single | Multi) && request.placeholder.is_some() {
        return Err(Error::invalid("placeholder", "placeholder only applies to text_input and hybrid"));
    }
    if request.single_submit_mode && mode != Single {
        return Err(Error::invalid("single_submit_mode", "single_submit_mode only applies to single mode"));
    }
    if request.options.len() > MAX_OPTIONS {
        return Err(Error::invalid(
            "options",
            format!(
                "{} options are too many to choose from; offer at most {MAX_OPTIONS}",
                request.options.len()
            ),
        ));
    }
    if let Some(p) = &request.placeholder
        && p.chars().count() > 500
    {
        return Err(Error::invalid("placeholder", "placeholder is longer than 500 characters; shorten it"));
    }
    let mut ids = HashSet::new();
    for o in &request.options {
        if o.description.as_ref().is_some_and(|d| d.chars().count() > 2_000) {
            return Err(Error::invalid(
                "options",
                format!(
                    "option '{}' has a description longer than 2000 characters",
                    o.id.chars().take(64).collect::<String>()
                ),
            ));
        }
        let id_ok = !o.id.trim().is_empty() && o.id.len() <= 64 && !o.id.chars().any(char::is_whitespace);
        if !id_ok {
            return Err(Error::invalid(
                "options",
                format!("option id {:?} must be 1-64 characters without spaces", o.id),
            ));
        }
        if !ids.insert(o.id.as_str()) {
            return Err(Error::invalid(
                "options",
                format!("option id '{}' appears twice; ids must be unique", o.id),
            ));
        }
        text("options", &o.label, 500)
            .map_err(|_| Error::invalid("options", format!("option '{}' has no label", o.id)))?;
    }
    if has_options && !request.options.iter().any(|o| o.recommended) {
        return Err(Error::invalid(
            "options",
            "mark at least one option \"recommended\": true, the one you would pick",
        ));
    }
    if let Some(bad) = request.default_selection_ids.iter().find(|d| !ids.contains(d.as_str())) {
        return Err(Error::invalid(
            "default_selection_ids",
            format!("default '{bad}' is not one of the option ids"),
        ));
    }
    let n = u32::try_from(request.options.len()).unwrap_or(u32::MAX);
    let (min, max) = match mode {
        Single => (request.min_selections.unwrap_or(1), request.max_selections.unwrap_or(1)),
        Multi => (request.min_selections.unwrap_or(1), request.max_selections.unwrap_or(n)),
        Hybrid => (request.min_selections.unwrap_or(0), request.max_selections.unwrap_or(n)),
        TextInput => (0, 0),
    };
    if has_options {
        if min > max {
            return Err(Error::invalid(
                "min_selections",
                format!("min_selections {min} is above max_selections {max}; swap them"),
            ));
        }
        if mode == Single && (max != 1 || min > 1) {
            return Err(Error::invalid(
                "max_selections",
                "single mode picks exactly one; use multi for more",
            ));
        }
        if max == 0 || max > n {
            return Err(Error::invalid(
                "max_selections",
                format!("max_selections must be 1 to {n} (the number of options)"),
            ));
        }
        if request.default_selection_ids.len() as u32 > max {
            return Err(Error::invalid(
                "default_selection_ids",
                format!("{} defaults but at most {max} may be selected", request.default_selection_ids.len()),
            ));
        }
    }
    let timeout = request.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT);
    if !(MIN_TIMEOUT..=MAX_TIMEOUT).contains(&timeout) {
        return Err(Error::invalid(
            "timeout_seconds",
            format!("timeout_seconds {timeout} is out of range; use {MIN_TIMEOUT} to {MAX_TIMEOUT} (24 h)"),
        ));
    }
    if request.allow_cancel == Some(false) {
        warnings.push("allow_cancel: false was ignored; the person can always cancel".to_owned());
    }
    Ok(Checked { request, mode, min, max, timeout, warnings })
}

fn mode_name(m: SelectionMode) -> &'static str {
    match m {
        SelectionMode::Single => "single",
        SelectionMode::Multi => "multi",
        SelectionMode::TextInput => "text_input",
        SelectionMode::Hybrid => "hybrid",
    }
}

#[cfg(test)]
mod tests;
