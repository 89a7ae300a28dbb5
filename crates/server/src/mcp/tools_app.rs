//! The tools Mooring's apps in the conversation answer through. Hosts keep them from the
//! model (`visibility: ["app"]`), and a client that did not advertise MCP Apps is refused
//! them. An app reads what waits for the person in its conversation (its own session
//! only), then answers with a sealed, single-use token; the first answer wins across the
//! app, the desktop window, the page, the terminal and the client's form.

use std::sync::Arc;
use std::time::Duration;

use mooring_core::choice::{Broker, Interaction, Submission};
use mooring_core::{Error, NewProject, ProjectStatus, Registry, Result};
use rmcp::model::CallToolResult;
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::results::{fail, ok};
use crate::access::sealed::{Issued, NO_IDENTITY, Purpose};
use crate::caller::Caller;
use crate::state::AppState;
use mooring_core::projects::decided_by::DecidedBy;

/// The question app's tool.
pub const ANSWER: &str = "answer_question_in_app";
/// The picker app's tool.
pub const PICK: &str = "pick_project_in_app";

/// `answer_question_in_app`: find the question (by `session_id`, or by `question`), then
/// answer it with `token` and `answer`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerQuestion {
    /// The `session_id` provide_choice returned (the app was drawn after its result).
    #[serde(default)]
    pub session_id: Option<String>,
    /// provide_choice's arguments (the app was drawn while the call waits).
    #[serde(default)]
    pub question: Option<Map<String, Value>>,
    /// The token the first call returned; with `answer`, answers the question.
    #[serde(default)]
    pub token: Option<String>,
    /// The person's answer.
    #[serde(default)]
    pub answer: Option<Submission>,
}

/// `pick_project_in_app`: read what the picker shows, then answer with `token` and
/// `project` (or `create` for a new project in the session's directory).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PickProject {
    /// The token the first call returned.
    #[serde(default)]
    pub token: Option<String>,
    /// The project the person clicked.
    #[serde(default)]
    pub project: Option<String>,
    /// Name of a new project in the session's directory.
    #[serde(default)]
    pub create: Option<String>,
}

/// An app's sealed token, used up: it must have been issued to this session for a
/// subject `fits` accepts, and answers only once.
fn redeem(state: &AppState, token: &str, me: Option<&str>, fits: impl Fn(&str) -> bool) -> Result<Issued> {
    let issued = state.sealer.check(token, Purpose::App, me).map_err(on_token)?;
    if !fits(&issued.subject) || !state.sealer.consume(&issued) {
        return Err(Error::invalid("token", "this token answered already; the first answer stands"));
    }
    Ok(issued)
}

/// A token that did not check out, named as the `token` field.
fn on_token(mut e: Error) -> Error {
    e.field = Some("token".into());
    e
}

/// Refused unless the caller renders apps and has an identity: callers without one are
/// indistinguishable, so any of them could otherwise answer another's question.
fn refused(caller: &Caller) -> Option<CallToolResult> {
    if !caller.apps {
        return Some(fail(&Error::invalid(
            "tool",
            "this tool belongs to Mooring's app in the conversation and answers only for a client that \
             renders MCP Apps; ask the person with provide_choice instead",
        )));
    }
    caller.session_id.is_none().then(|| fail(&Error::invalid("session", NO_IDENTITY)))
}

/// The newest question this session asked that waits and reads as `q` (its title and
/// prompt; the app may ask before the call has opened it, so it asks again).
fn asked_as(broker: &Broker<'_>, me: Option<&str>, q: &Map<String, Value>) -> Result<Interaction> {
    let text = |k: &str| q.get(k).and_then(Value::as_str).map(str::trim).unwrap_or_default().to_owned();
    let (title, prompt) = (text("title"), text("prompt"));
    broker
        .open_list()?
        .into_iter()
        .rev()
        .find(|i| {
            i.session_id.as_deref() == me
                && i.checked.request.title.trim() == title
                && i.checked.request.prompt.trim() == prompt
        })
        .ok_or_else(|| Error::not_found("question", "no question like this waits in this conversation"))
}

/// Run `answer_question_in_app`.
pub fn answer(state: &AppState, caller: &Caller, p: AnswerQuestion) -> CallToolResult {
    if let Some(r) = refused(caller) {
        return r;
    }
    let broker = Broker::new(&state.store);
    let me = caller.session_id.as_deref();
    let run = || -> Result<Value> {
        if let (Some(token), Some(answer)) = (&p.token, &p.answer) {
            let issued = redeem(state, token, me, |_| true)?;
            let response = broker.submit(&issued.subject, answer, mooring_core::model::Surface::App)?;
            state.answered.notify_waiters();
            state.surfaces.waiting_changed();
            return Ok(json!({ "answered": true, "response": response }));
        }
        let i = match (&p.session_id, &p.question) {
            (Some(handle), _) => broker.get(&state.sealer.open_handle(handle, me)?)?,
            (None, Some(q)) => asked_as(&broker, me, q)?,
            (None, None) => {
                return Err(Error::invalid(
                    "question",
                    "give the question (provide_choice's arguments) or its session_id",
                ));
            }
        };
        let left = i.remaining(chrono::Utc::now());
        let token = state.sealer.issue(Purpose::App, &i.id, me, Duration::from_secs(left.max(0) as u64 + 60));
        Ok(json!({
            "token": token,
            "status": i.status,
            "remaining_seconds": left,
            "question": i.checked,
            "response": i.response,
        }))
    };
    run().map_or_else(|e| fail(&e), |v| ok(&v))
}

/// Run `pick_project_in_app`: a pick waiting for this session is answered (its call
/// binds the session); with none waiting (the host drew the app after the call ended)
/// the session is bound here.
pub fn pick(state: &AppState, caller: &Caller, p: PickProject) -> CallToolResult {
    if let Some(r) = refused(caller) {
        return r;
    }
    let me = caller.session_id.clone();
    let waiting = state.picks.list().into_iter().find(|w| w.session_id == me);
    // "New project here": the waiting pick's directory, else the session's own.
    let here =
        waiting.as_ref().and_then(|w| w.workspace.clone()).or_else(|| super::selection::session_dir(caller));
    let run = || -> Result<Value> {
        let Some(token) = &p.token else {
            let mut projects = Registry::new(&state.store).list(None)?;
            projects.retain(|p| p.status != ProjectStatus::Archived);
            // Sealed to this session either way: the pick's own page token never leaves
            // the server (it opens the picker page for anyone holding it).
            let subject = waiting.as_ref().map_or_else(|| "session".to_owned(), |w| format!("pick-{}", w.id));
            let token = state.sealer.issue(Purpose::App, &subject, me.as_deref(), Duration::from_secs(3600));
            let recommended = waiting.as_ref().and_then(|w| w.recommended.clone());
            return Ok(json!({
                "token": token,
                "waiting": waiting.is_some(),
                "recommended": recommended,
                "why": recommended.as_ref().map(|_| "Mooring's likeliest guess for this session (its directory, then recent use)"),
                "here": here,
                "projects": projects,
            }));
        };
        // The token before anything is written: a forged or stale one creates no project.
        let issued = state.sealer.check(token, Purpose::App, me.as_deref()).map_err(on_token)?;
        if state.sealer.used(&issued) {
            return Err(Error::invalid("token", "this token answered already; the first answer stands"));
        }
        let pick = match issued.subject.strip_prefix("pick-") {
            Some(id) => {
                Some(state.picks.list().into_iter().find(|w| w.id == id && w.session_id == me).ok_or_else(
                    || on_token(Error::invalid("token", "this pick was answered or ended already")),
                )?)
            }
            None if issued.subject == "session" => None,
            None => return Err(on_token(Error::invalid("token", "this token is not for a project pick"))),
        };
        let slug = match (&p.project, &p.create) {
            (Some(slug), _) => Registry::new(&state.store).get(slug)?.slug,
            (None, Some(name)) => {
                let created = Registry::new(&state.store).create(NewProject {
                    name: name.clone(),
                    code_paths: here.clone().into_iter().collect(),
                    ..Default::default()
                })?;
                state.surfaces.projects_changed();
                created.project.slug
            }
            (None, None) => {
                return Err(Error::invalid("project", "give the project the person picked, or `create`"));
            }
        };
        match pick {
            Some(w) => {
                redeem(state, token, me.as_deref(), |subject| subject == issued.subject)?;
                state.picks.answer_via(&w.id, &w.token, &slug, DecidedBy::App).map_err(on_token)?
            }
            None => {
                redeem(state, token, me.as_deref(), |subject| subject == "session")?;
                if let Some(id) = &me {
                    super::gate::session_of(state, caller)?;
                    mooring_core::projects::session::bind(&state.store, id, &slug, DecidedBy::App)?;
                    state.surfaces.projects_changed();
                }
            }
        }
        Ok(json!({ "picked": slug, "remembered": me.is_some() }))
    };
    run().map_or_else(|e| fail(&e), |v| ok(&v))
}

/// `select_project_for_session` without `project`, for a client that renders apps: the
/// person picks in the conversation (or the desktop's window); the first answer binds.
pub async fn select_by_person(
    state: &Arc<AppState>,
    caller: &Caller,
    ctx: &RequestContext<RoleServer>,
) -> Option<crate::picks::Picked> {
    let recommended = match super::gate::decide(state, caller, None, None, None).await {
        Ok(super::gate::Decision::Gate(super::gate::Gate::Ready { project, .. })) => Some(project),
        Ok(super::gate::Decision::Ask { recommended, .. }) => recommended,
        _ => None,
    };
    super::ask::wait_for_pick(state, caller, ctx, recommended, None).await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use mooring_core::Store;
    use mooring_core::choice::{Broker, ChoiceRequest, TimeoutAction, check};
    use rmcp::model::CallToolResult;
    use serde_json::{Value, json};

    use super::{AnswerQuestion, answer};
    use crate::caller::Caller;
    use crate::state::AppState;
    use crate::surfaces::Headless;

    fn state() -> (tempfile::TempDir, Arc<AppState>) {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open_in(dir.path()).unwrap());
        (dir, Arc::new(AppState::new(store, Arc::new(Headless), Duration::from_secs(1), None)))
    }

    fn host(session: &str) -> Caller {
        Caller { session_id: Some(session.into()), apps: true, ..Caller::default() }
    }

    fn question() -> serde_json::Map<String, Value> {
        json!({
            "title": "Deploy?",
            "prompt": "Ship it now?",
            "selection_mode": "single",
            "options": [ { "id": "y", "label": "Yes", "recommended": true }, { "id": "n", "label": "No" } ]
        })
        .as_object()
        .cloned()
        .unwrap()
    }

    fn ask(state: &AppState, session: &str) {
        let request: ChoiceRequest = serde_json::from_value(Value::Object(question())).unwrap();
        Broker::new(&state.store)
            .open(check(request).unwrap(), Some(session), TimeoutAction::Cancel)
            .unwrap();
    }

    fn read(state: &AppState, caller: &Caller) -> CallToolResult {
        answer(
            state,
            caller,
            AnswerQuestion { session_id: None, question: Some(question()), token: None, answer: None },
        )
    }

    fn reply(state: &AppState, caller: &Caller, token: &str) -> CallToolResult {
        let yes = serde_json::from_value(json!({ "selected_ids": ["y"] })).unwrap();
        answer(
            state,
            caller,
            AnswerQuestion { session_id: None, question: None, token: Some(token.into()), answer: Some(yes) },
        )
    }

    fn body(r: &CallToolResult) -> Value {
        r.structured_content.clone().unwrap_or(Value::Null)
    }

    #[test]
    fn a_token_answers_its_question_once_and_only_in_its_own_conversation() {
        let (_dir, state) = state();
        ask(&state, "s-1");
        let read = read(&state, &host("s-1"));
        assert_ne!(read.is_error, Some(true), "{read:?}");
        let token = body(&read)["token"].as_str().unwrap().to_owned();

        let stolen = reply(&state, &host("s-2"), &token);
        assert_eq!(stolen.is_error, Some(true), "another conversation cannot redeem it");
        assert_eq!(body(&stolen)["error"]["field"], "token", "{stolen:?}");

        let first = reply(&state, &host("s-1"), &token);
        assert_eq!(body(&first)["answered"], true, "{first:?}");
        let again = reply(&state, &host("s-1"), &token);
        assert_eq!(again.is_error, Some(true));
        assert!(body(&again).to_string().contains("answered already"), "{again:?}");
    }

    #[test]
    fn a_session_sees_only_its_own_question_and_a_client_without_apps_is_refused() {
        let (_dir, state) = state();
        ask(&state, "s-1");
        let other = read(&state, &host("s-2"));
        assert_eq!(other.is_error, Some(true), "s-2 asked nothing");
        let plain = read(&state, &Caller { session_id: Some("s-1".into()), ..Caller::default() });
        assert!(body(&plain).to_string().contains("renders MCP Apps"), "{plain:?}");
        let anonymous = read(&state, &Caller { apps: true, ..Caller::default() });
        assert_eq!(anonymous.is_error, Some(true), "no identity, no answers");
        assert_eq!(body(&anonymous)["error"]["field"], "session");
    }
}
