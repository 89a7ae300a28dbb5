//! `mooring choice …`: the terminal surface of choices, the list of open questions, and
//! the interaction settings.

use std::collections::BTreeMap;

use dialoguer::{Input, MultiSelect, Select};
use mooring_core::Error;
use mooring_core::choice::settings::ChoiceSettings;
use mooring_core::choice::{Broker, Interaction, SelectionMode, Submission, TimeoutAction};
use serde_json::json;

use super::Ctx;
use crate::cli::{ChoiceAction, ChoiceArgs};
use crate::format::safe;
use crate::output::{Failure, print_json};

/// Dispatch `choice`.
pub fn run(ctx: &Ctx, args: ChoiceArgs) -> Result<(), Failure> {
    match args.action {
        ChoiceAction::Answer { id, token } => answer(ctx, &id, token.as_deref()),
        ChoiceAction::List => list(ctx),
        ChoiceAction::Settings {
            transport,
            timeout_override,
            timeout_action,
            wait_limit_seconds,
            show_descriptions,
            show_placeholder,
            capture_annotations,
            single_submit,
        } => {
            let mut s = ChoiceSettings::load(&ctx.data_dir)?;
            let before = s.clone();
            if let Some(t) = transport {
                s.transport = serde_json::from_value(json!(t)).map_err(|_| {
                    Error::invalid(
                        "transport",
                        format!("transport '{t}' is not one of auto, native, web, terminal, elicitation"),
                    )
                })?;
            }
            if let Some(t) = timeout_override {
                s.timeout_override = (t > 0).then_some(t);
            }
            if let Some(a) = timeout_action {
                s.timeout_action = match a.as_str() {
                    "cancel" => TimeoutAction::Cancel,
                    "use_defaults" => TimeoutAction::UseDefaults,
                    _ => {
                        return Err(Error::invalid(
                            "timeout_action",
                            "timeout_action is cancel or use_defaults",
                        )
                        .into());
                    }
                };
            }
            if let Some(w) = wait_limit_seconds {
                s.wait_limit_seconds = w;
            }
            for (value, field) in [
                (show_descriptions, &mut s.show_descriptions),
                (show_placeholder, &mut s.show_placeholder),
                (capture_annotations, &mut s.capture_annotations),
                (single_submit, &mut s.single_submit),
            ] {
                if let Some(v) = value {
                    *field = v;
                }
            }
            if s != before {
                mooring_core::store::datadir::ensure(&ctx.data_dir)?;
                s.save(&ctx.data_dir)?;
            }
            if ctx.json {
                print_json(&s);
            } else {
                println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default());
            }
            Ok(())
        }
    }
}

fn list(ctx: &Ctx) -> Result<(), Failure> {
    let store = ctx.store()?;
    let open = Broker::new(&store).open_list()?;
    let now = chrono::Utc::now();
    if ctx.json {
        let items: Vec<_> = open
            .iter()
            .map(|i| json!({ "id": i.id, "title": i.checked.request.title, "remaining_seconds": i.remaining(now) }))
            .collect();
        print_json(&json!({ "open": items }));
    } else if open.is_empty() {
        println!("No questions are waiting.");
    } else {
        for i in &open {
            println!("{}  {}  ({}s left)", i.id, safe(&i.checked.request.title), i.remaining(now));
        }
    }
    Ok(())
}

/// Answer in this terminal. The person's own account reads the question from the data
/// directory; a terminal is required, so an agent running the command it was handed,
/// with its answer piped in, answers nothing.
fn answer(ctx: &Ctx, id: &str, token: Option<&str>) -> Result<(), Failure> {
    use std::io::IsTerminal;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return Err(Error::invalid(
            "terminal",
            "`mooring choice answer` takes the person's answer from a terminal they can see; run it in one \
             (not through a pipe or an agent's shell)",
        )
        .into());
    }
    let store = ctx.store()?;
    let broker = Broker::new(&store);
    let i = match token {
        Some(token) => broker.get_with_token(id, token)?,
        None => broker.get(id)?,
    };
    if !i.status.is_pending() {
        return Err(Error::conflict(
            "id",
            format!("this question is already {}; terminal sessions are single-use", i.status),
        )
        .into());
    }
    let settings = ChoiceSettings::load(&ctx.data_dir).unwrap_or_default();
    let sub = ask(&i, &settings)?;
    let response = broker.submit(&i.id, &sub, mooring_core::model::Surface::Terminal)?;
    if ctx.json {
        print_json(&response);
    } else {
        println!("{}", safe(&response.selection.summary));
    }
    Ok(())
}

fn ask(i: &Interaction, settings: &ChoiceSettings) -> Result<Submission, Failure> {
    let r = &i.checked.request;
    let term_err = |e: dialoguer::Error| Failure::from(Error::storage(format!("terminal input failed: {e}")));
    println!("{}\n{}\n", safe(&r.title), safe(&r.prompt));
    let items: Vec<String> = r
        .options
        .iter()
        .map(|o| {
            let rec = if o.recommended { "  (recommended)" } else { "" };
            let label = safe(&o.label);
            match (&o.description, settings.show_descriptions) {
                (Some(d), true) => format!("{label}{rec} — {}", safe(d)),
                _ => format!("{label}{rec}"),
            }
        })
        .collect();
    let position = |id: &String| r.options.iter().position(|o| &o.id == id);
    let mut sub = Submission::default();
    match i.checked.mode {
        SelectionMode::Single => {
            let start = r
                .default_selection_ids
                .first()
                .and_then(position)
                .or_else(|| r.options.iter().position(|o| o.recommended))
                .unwrap_or(0);
            let picked = Select::new()
                .with_prompt("Choose one (Esc cancels)")
                .items(&items)
                .default(start)
                .report(false)
                .interact_opt()
                .map_err(term_err)?;
            match picked {
                Some(n) => sub.selected_ids = Some(vec![r.options[n].id.clone()]),
                None => return Ok(Submission { cancel: true, ..Submission::default() }),
            }
        }
        SelectionMode::Multi | SelectionMode::Hybrid => {
            let defaults: Vec<bool> =
                r.options.iter().map(|o| r.default_selection_ids.contains(&o.id)).collect();
            let (min, max) = (i.checked.min, i.checked.max);
            loop {
                let picked = MultiSelect::new()
                    .with_prompt(format!("Choose {min} to {max} (space toggles, enter submits, Esc cancels)"))
                    .items(&items)
                    .defaults(&defaults)
                    .report(false)
                    .interact_opt()
                    .map_err(term_err)?;
                let Some(picked) = picked else {
                    return Ok(Submission { cancel: true, ..Submission::default() });
                };
                let n = picked.len() as u32;
                if n > max || (i.checked.mode == SelectionMode::Multi && n < min.max(1)) {
                    eprintln!("Choose between {} and {max}.", min.max(1));
                    continue;
                }
                sub.selected_ids = Some(picked.into_iter().map(|k| r.options[k].id.clone()).collect());
                break;
            }
        }
        SelectionMode::TextInput => {}
    }
    if matches!(i.checked.mode, SelectionMode::TextInput | SelectionMode::Hybrid) {
        let hint = r
            .placeholder
            .clone()
            .filter(|_| settings.show_placeholder)
            .unwrap_or_else(|| "Your answer".into());
        let text: String = Input::new()
            .with_prompt(hint)
            .allow_empty(i.checked.mode == SelectionMode::Hybrid)
            .report(false)
            .interact_text()
            .map_err(term_err)?;
        sub.custom_input = Some(text);
    }
    if settings.capture_annotations && r.allow_option_annotations {
        let mut notes = BTreeMap::new();
        for id in sub.selected_ids.clone().unwrap_or_default() {
            let label = r.options.iter().find(|o| o.id == id).map(|o| o.label.clone()).unwrap_or_default();
            let note: String = Input::new()
                .with_prompt(format!("Note on {label} (optional)"))
                .allow_empty(true)
                .report(false)
                .interact_text()
                .map_err(term_err)?;
            notes.insert(id, note);
        }
        sub.option_annotations = notes;
    }
    if settings.capture_annotations && r.allow_global_annotation {
        let note: String = Input::new()
            .with_prompt("Note (optional)")
            .allow_empty(true)
            .report(false)
            .interact_text()
            .map_err(term_err)?;
        sub.global_annotation = Some(note);
    }
    Ok(sub)
}
