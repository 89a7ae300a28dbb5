//! `provide_choice` as the client's own form (MCP elicitation): the question as a form's
//! schema, and the form's answer handed to the broker as a submission.

use mooring_core::choice::{Broker, ChoiceResponse, Interaction, SelectionMode, Submission};
use mooring_core::{Error, Result as CoreResult};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::{Value, json};

/// The question as an elicitation form.
pub(super) fn elicitation(i: &Interaction) -> CoreResult<ElicitRequestParams> {
    let r = &i.checked.request;
    let titled: Vec<Value> = r
        .options
        .iter()
        .map(|o| {
            let rec = if o.recommended { " (recommended)" } else { "" };
            json!({ "const": o.id, "title": format!("{}{rec}", o.label) })
        })
        .collect();
    let mut props = serde_json::Map::new();
    let mut required = Vec::new();
    match i.checked.mode {
        SelectionMode::Single => {
            let mut f = json!({ "type": "string", "title": "Choice", "oneOf": titled });
            if let Some(d) = r.default_selection_ids.first() {
                f["default"] = json!(d);
            }
            props.insert("choice".into(), f);
            required.push("choice");
        }
        SelectionMode::Multi | SelectionMode::Hybrid => {
            let mut f = json!({ "type": "array", "title": "Choices", "items": { "anyOf": titled },
                                "minItems": i.checked.min, "maxItems": i.checked.max });
            if !r.default_selection_ids.is_empty() {
                f["default"] = json!(r.default_selection_ids);
            }
            props.insert("choices".into(), f);
            if i.checked.mode == SelectionMode::Multi {
                required.push("choices");
            }
        }
        SelectionMode::TextInput => {}
    }
    if matches!(i.checked.mode, SelectionMode::TextInput | SelectionMode::Hybrid) {
        let desc = r.placeholder.clone().unwrap_or_else(|| "Your answer".into());
        props.insert("text".into(), json!({ "type": "string", "title": "Answer", "description": desc }));
        if i.checked.mode == SelectionMode::TextInput {
            required.push("text");
        }
    }
    if r.allow_global_annotation {
        props.insert("note".into(), json!({ "type": "string", "title": "Note (optional)" }));
    }
    let mut message = format!("{}\n\n{}", r.title, r.prompt);
    for o in r.options.iter().filter(|o| o.description.is_some()) {
        message.push_str(&format!("\n- {}: {}", o.label, o.description.as_deref().unwrap_or_default()));
    }
    let schema = json!({ "type": "object", "properties": props, "required": required });
    let requested_schema = serde_json::from_value(schema).map_err(|e| {
        Error::invalid("selection_mode", format!("this question does not fit an elicitation form: {e}"))
    })?;
    Ok(ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema })
}

pub(super) fn submit_elicited(
    broker: &Broker<'_>,
    i: &Interaction,
    answer: &Value,
) -> CoreResult<ChoiceResponse> {
    let result: ElicitResult = serde_json::from_value(answer.clone()).map_err(|e| {
        Error::invalid("input_responses", format!("the elicitation answer is unreadable: {e}"))
    })?;
    if !i.status.is_pending() {
        return i.response.clone().ok_or_else(|| Error::conflict("session_id", "interaction already closed"));
    }
    let sub = match result.action {
        ElicitationAction::Accept => {
            let c = result.content.unwrap_or(Value::Null);
            let ids = match (c.get("choice"), c.get("choices")) {
                (Some(Value::String(s)), _) => Some(vec![s.clone()]),
                (_, Some(Value::Array(a))) => {
                    Some(a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
                }
                _ if i.checked.mode == SelectionMode::Hybrid => Some(Vec::new()),
                _ => None,
            };
            Submission {
                cancel: false,
                selected_ids: ids,
                custom_input: c.get("text").and_then(Value::as_str).map(str::to_owned),
                option_annotations: Default::default(),
                global_annotation: c.get("note").and_then(Value::as_str).map(str::to_owned),
            }
        }
        _ => Submission { cancel: true, ..Submission::default() },
    };
    broker.submit(&i.id, &sub, mooring_core::model::Surface::Elicitation)
}
