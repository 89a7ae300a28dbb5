//! `provide_choice`: ask the person, on the surface that fits, and wait (bounded) for the
//! answer; past the wait limit answer `pending` so the agent can follow up.

use std::time::{Duration, Instant};

use mooring_core::choice::settings::ChoiceSettings;
use mooring_core::choice::{
    ActionStatus, Broker, ChoiceRequest, ChoiceResponse, Interaction, Selection, Transport, check,
};
use mooring_core::{Error, Result as CoreResult};
use rmcp::model::{
    CallToolResponse, ElicitRequest, InputRequest, InputRequests, InputRequiredResult, InputResponses,
    ProgressNotificationParam,
};
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde_json::Value;

use super::choice_form::{elicitation, submit_elicited};
use super::results::ok;
use crate::access::sealed::Purpose;
use crate::caller::Caller;
use crate::state::AppState;

/// How often a waiting call tells the client it is still alive.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Key of the choice in an MRTR round.
const INPUT_KEY: &str = "mooring_choice";

/// `provide_choice` arguments: a new question, or `session_id` to follow one up.
/// Read by [`ProvideChoice::parse`]; the derive only describes the input schema.
#[derive(Debug, JsonSchema)]
pub struct ProvideChoice {
    /// The question (omit when following up with `session_id`).
    #[serde(flatten)]
    pub request: ChoiceRequest,
    /// Follow up an earlier interaction: returns its answer, or keeps waiting.
    #[serde(default)]
    pub session_id: Option<String>,
}

impl ProvideChoice {
    /// Parse the arguments field by field. `#[serde(flatten)]` would accept a typo such as
    /// `colour` and report a bad value by the value instead of by its field, so
    /// `session_id` is taken out first and the rest must be exactly a question.
    pub fn parse(args: &serde_json::Map<String, Value>) -> Result<Self, (Option<String>, String)> {
        let mut rest = args.clone();
        let session_id = match rest.remove("session_id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => return Err((Some("session_id".into()), "must be a string".into())),
        };
        if session_id.is_some() && rest.is_empty() {
            return Ok(Self { request: ChoiceRequest::default(), session_id });
        }
        let request = serde_path_to_error::deserialize(Value::Object(rest)).map_err(|e| {
            let path = e.path().to_string();
            ((path != ".").then_some(path), e.inner().to_string())
        })?;
        Ok(Self { request, session_id })
    }
}

/// The project the asking session works in, by the one pipeline; none when nothing decides.
async fn asker_project(state: &std::sync::Arc<AppState>, caller: &Caller) -> Option<String> {
    let session = super::gate::session_of(state, caller).ok().flatten();
    let hints = super::gate::hints_for(state, caller, session.as_ref(), None).ok()?;
    super::gate::resolve_full(state, hints).await.ok()?.project
}

fn settings(state: &AppState) -> ChoiceSettings {
    state.data_dir.as_deref().and_then(|d| ChoiceSettings::load(d).ok()).unwrap_or_default()
}

/// Run the tool; errors the agent can fix come back as `isError` results.
pub async fn run(
    state: &std::sync::Arc<AppState>,
    caller: &Caller,
    ctx: &RequestContext<RoleServer>,
    p: ProvideChoice,
    responses: Option<&InputResponses>,
    request_state: Option<&str>,
) -> CoreResult<CallToolResponse> {
    let broker = Broker::new(&state.store);
    let settings = settings(state);
    let me = caller.session_id.as_deref();
    // A 2026-07-28 retry carrying the person's answer from the client's form: accepted
    // only with the sealed requestState this server issued to this client for it.
    if let Some(answer) = responses.and_then(|r| r.get(INPUT_KEY)) {
        let issued = state.sealer.check(request_state.unwrap_or_default(), Purpose::Choice, me)?;
        let i = broker.get(&issued.subject)?;
        let handle = state.sealer.handle(&i.id, me);
        if !state.sealer.consume(&issued) {
            // A replay changes nothing: the first answer stands.
            return match i.response {
                Some(r) => Ok(ok(&for_asker(r, &handle)).into()),
                None => Err(Error::invalid("requestState", "this requestState was used already")),
            };
        }
        let response = submit_elicited(&broker, &i, answer)?;
        state.answered.notify_waiters();
        return Ok(ok(&for_asker(response, &handle)).into());
    }
    if let Some(handle) = p.session_id.as_deref() {
        let id = state.sealer.open_handle(handle, me)?;
        let i = broker.get(&id)?;
        let response = wait(state, ctx, &broker, &i, &settings, handle).await?;
        return Ok(ok(&for_asker(response, handle)).into());
    }
    let mut checked = check(p.request)?;
    if let Some(t) = settings.timeout_override {
        checked.timeout = t;
    }
    let requested = match checked.request.transport {
        Transport::Auto => settings.transport,
        t => t,
    };
    let fits_elicitation = caller.elicitation && !checked.request.allow_option_annotations;
    // A client that renders apps shows the question in the conversation (the tool's
    // app): nothing else opens, and the page stays a link in the result.
    let in_app = caller.apps && requested == Transport::Auto;
    let transport = match requested {
        Transport::Auto if in_app => Transport::Web,
        Transport::Auto if fits_elicitation => Transport::Elicitation,
        Transport::Auto | Transport::Native if state.base_url.is_some() => Transport::Web,
        Transport::Auto | Transport::Native => Transport::Terminal,
        Transport::Elicitation if !caller.elicitation => {
            return Err(Error::invalid(
                "transport",
                "this client did not declare elicitation; use auto, web or terminal",
            ));
        }
        Transport::Elicitation if checked.request.allow_option_annotations => {
            return Err(Error::invalid(
                "transport",
                "per-option notes do not fit an elicitation form; use web or terminal",
            ));
        }
        Transport::Web if state.base_url.is_none() => {
            return Err(Error::invalid(
                "transport",
                "no web page without the HTTP server; start `mooring serve` or use terminal",
            ));
        }
        t => t,
    };
    // The question's project, as the gate would decide it now: whether it may reach the
    // phone (a kept-off project's may not) and what the phone calls it.
    let project = asker_project(state, caller).await;
    let interaction = broker.open_in(checked, me, project.as_deref(), settings.timeout_action)?;
    let handle = state.sealer.handle(&interaction.id, me);
    let response = match transport {
        Transport::Terminal => terminal_launch(state, &interaction, &handle),
        Transport::Elicitation if !caller.legacy => {
            let mut requests = InputRequests::new();
            requests.insert(
                INPUT_KEY.to_owned(),
                InputRequest::Elicitation(ElicitRequest::new(elicitation(&interaction)?)),
            );
            let ttl = Duration::from_secs(u64::from(interaction.checked.timeout) + 300);
            let sealed = state.sealer.issue(Purpose::Choice, &interaction.id, me, ttl);
            return Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into());
        }
        Transport::Elicitation => {
            let timeout = Duration::from_secs(u64::from(interaction.checked.timeout));
            let result =
                ctx.peer.create_elicitation_with_timeout(elicitation(&interaction)?, Some(timeout)).await;
            match result {
                Ok(r) => {
                    submit_elicited(&broker, &interaction, &serde_json::to_value(r).unwrap_or(Value::Null))?
                }
                Err(_) => broker
                    .get(&interaction.id)?
                    .response
                    .unwrap_or_else(|| pending(state, &interaction, &handle)),
            }
        }
        _ => {
            let url = answer_url(state, &interaction);
            if let Some(url) = url.as_ref().filter(|_| !in_app) {
                let native = matches!(requested, Transport::Auto | Transport::Native)
                    && state.surfaces.show_choice(url, &interaction.checked.request.title);
                if !native && requested != Transport::Native {
                    tracing::info!(question = %interaction.id, "a question is waiting in the browser");
                    open_browser(url);
                }
                state.surfaces.waiting_changed();
            }
            let mut response = wait(state, ctx, &broker, &interaction, &settings, &handle).await?;
            if response.selection.url.is_none() {
                response.selection.url = shown_url(state, &interaction);
            }
            response
        }
    };
    Ok(ok(&for_asker(response, &handle)).into())
}

/// A final answer as the asker sees it: its `session_id` is the asker's own handle (the
/// broker names the question by id), which no other client can use to read the answer.
fn for_asker(mut response: ChoiceResponse, handle: &str) -> ChoiceResponse {
    response.selection.session_id = handle.to_owned();
    response
}

/// Wait for the answer up to the wait limit, with progress notifications.
async fn wait(
    state: &AppState,
    ctx: &RequestContext<RoleServer>,
    broker: &Broker<'_>,
    asked: &Interaction,
    settings: &ChoiceSettings,
    handle: &str,
) -> CoreResult<ChoiceResponse> {
    let started = Instant::now();
    let limit = Duration::from_secs(u64::from(settings.wait_limit_seconds));
    let token = ctx.meta.get_progress_token();
    let mut last_progress = Instant::now();
    loop {
        let i = broker.get(&asked.id)?;
        if let Some(r) = i.response {
            return Ok(r);
        }
        if started.elapsed() >= limit {
            return Ok(pending(state, &i, handle));
        }
        if let Some(t) = &token
            && last_progress.elapsed() >= PROGRESS_EVERY
        {
            last_progress = Instant::now();
            let waited = started.elapsed().as_secs_f64();
            let p = ProgressNotificationParam::new(t.clone(), waited)
                .with_message(format!("waiting for the person ({}s left)", i.remaining(chrono::Utc::now())));
            let _ = ctx.peer.notify_progress(p).await;
        }
        // Answers from this process wake us at once; the terminal writes from another
        // process, so look again every 200 ms too.
        let _ = tokio::time::timeout(Duration::from_millis(200), state.answered.notified()).await;
    }
}

/// Open the page in the person's browser when there is a desktop session to show it
/// (`MOORING_OPEN_BROWSER=0` turns this off, as tests do).
/// Show the person question `id`, opened in the store by another process (a hook of a
/// client that cannot ask itself), as this hub shows its own: the desktop's window, else
/// the browser; the tray's count either way. False when it is not waiting or there is
/// no page to show (no HTTP server).
pub(crate) fn show_opened_elsewhere(state: &AppState, id: &str) -> bool {
    let Ok(asked) = Broker::new(&state.store).get(id) else { return false };
    let Some(url) = answer_url(state, &asked).filter(|_| asked.status.is_pending()) else { return false };
    if !state.surfaces.show_choice(&url, &asked.checked.request.title) {
        open_browser(&url);
    }
    state.surfaces.waiting_changed();
    true
}

fn open_browser(url: &str) {
    let wanted = std::env::var("MOORING_OPEN_BROWSER").map(|v| v != "0").unwrap_or(true);
    let display =
        ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if wanted && display {
        let spawned = std::process::Command::new("xdg-open")
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Err(e) = spawned {
            tracing::info!(error = %e, "could not open a browser; the URL is in the result");
        }
    }
}

/// The page with its answer key, for Mooring's own surfaces (its window, the browser it
/// opens, the dashboard) and never for a result: whoever holds it can answer.
fn answer_url(state: &AppState, i: &Interaction) -> Option<String> {
    state.base_url.as_ref().map(|b| format!("{b}/choice/{}?t={}", i.id, i.token))
}

/// The page as the model may see it: without the key, it tells the person where to
/// answer (an agent that relays or opens it cannot answer its own question).
fn shown_url(state: &AppState, i: &Interaction) -> Option<String> {
    state.base_url.as_ref().map(|b| format!("{b}/choice/{}", i.id))
}

fn terminal_command(state: &AppState, i: &Interaction) -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| "mooring".into());
    let exe = if exe.ends_with("mooring") { exe } else { "mooring".to_owned() };
    let data = state.data_dir.as_ref().map(|d| format!(" --data-dir '{}'", d.display())).unwrap_or_default();
    // No key in the command: it is in the model's view, and the command reads the
    // question from the person's own data directory.
    format!("{exe}{data} choice answer {}", i.id)
}

/// Still waiting; `handle` is what the asker follows up with.
fn pending(state: &AppState, i: &Interaction, handle: &str) -> ChoiceResponse {
    let url = shown_url(state, i);
    let follow = if i.session_id.is_some() {
        format!("Call provide_choice with {{\"session_id\": \"{handle}\"}} to keep waiting.")
    } else {
        "This client has no session, so it cannot follow the question up; the person's answer is kept \
         in Mooring."
            .to_owned()
    };
    let summary = format!(
        "Still waiting for the person ({}s left). They answer in Mooring: its window, “Waiting for you” in \
         the tray or dashboard, or `mooring choice answer {}` in a terminal. {follow}",
        i.remaining(chrono::Utc::now()),
        i.id
    );
    ChoiceResponse {
        action_status: ActionStatus::Pending,
        selection: Selection { url, summary, session_id: handle.to_owned(), ..Selection::default() },
        surface: None,
        warnings: i.checked.warnings.clone(),
    }
}

fn terminal_launch(state: &AppState, i: &Interaction, handle: &str) -> ChoiceResponse {
    let command = terminal_command(state, i);
    ChoiceResponse {
        action_status: ActionStatus::PendingTerminalLaunch,
        selection: Selection {
            url: Some(command.clone()),
            summary: format!(
                "Run this in a terminal the person can see: {command}  Then call provide_choice with \
                 {{\"session_id\": \"{handle}\"}} for the answer. The session is single-use."
            ),
            session_id: handle.to_owned(),
            ..Selection::default()
        },
        surface: Some(mooring_core::model::Surface::Terminal),
        warnings: i.checked.warnings.clone(),
    }
}
