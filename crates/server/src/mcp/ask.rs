//! Asking the person which project a session is in: the client's own form (an
//! elicitation request, or an MRTR `input_required` round) and the desktop's picker,
//! shown together where both exist; the first answer wins and the other closes.

use std::sync::Arc;

use mooring_core::Project;
use mooring_core::projects::markers::Marker;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest, InputRequests,
    InputRequiredResult,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

use super::selection::{session_dir, summary};
use crate::caller::Caller;
use crate::picks::Picked;
use crate::state::AppState;

/// Key of the project question in an MRTR round.
pub const INPUT_KEY: &str = "mooring_project";

/// Open the desktop's picker and wait (bounded) for the person, telling the client
/// every 2 s that the call is still alive.
pub async fn wait_for_pick(
    state: &Arc<AppState>,
    caller: &Caller,
    ctx: &RequestContext<RoleServer>,
    recommended: Option<String>,
    marker: Option<Marker>,
) -> Option<Picked> {
    // "New project here" offers the session's own directory (or the marker's), as a plain path.
    let here = marker.as_ref().map(|m| m.dir.display().to_string()).or_else(|| session_dir(caller));
    let (pick, mut rx) =
        state.picks.open(caller.session_id.clone(), caller.client_name.clone(), recommended, here, marker);
    let url = format!("{}/pick/{}?t={}", state.base_url.as_deref().unwrap_or_default(), pick.id, pick.token);
    state.surfaces.show_pick(&url, &pick);
    state.surfaces.waiting_changed();
    // Closes the window and clears "Waiting for you" however this ends, dropped mid-wait
    // (the client's own form was answered first) included.
    let _open = OpenPick { state, id: pick.id.clone() };
    let wait = mooring_core::settings::Setting::PickWaitSeconds
        .get(&state.store)
        .map(|s| std::time::Duration::from_secs(u64::from(s)))
        .unwrap_or(state.pick_timeout);
    let deadline = tokio::time::Instant::now() + wait;
    let token = ctx.meta.get_progress_token();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(2));
    let mut waited = 0.0;
    loop {
        tokio::select! {
            answer = &mut rx => break answer.ok(),
            _ = tokio::time::sleep_until(deadline) => break None,
            _ = tick.tick() => {
                if let Some(t) = &token {
                    waited += 2.0;
                    let p = rmcp::model::ProgressNotificationParam::new(t.clone(), waited)
                        .with_message("waiting for the person to pick a project in the Mooring window");
                    let _ = ctx.peer.notify_progress(p).await;
                }
            }
        }
    }
}

/// An open picker; dropping it closes it.
struct OpenPick<'a> {
    state: &'a AppState,
    id: String,
}

impl Drop for OpenPick<'_> {
    fn drop(&mut self) {
        self.state.picks.remove(&self.id);
        self.state.surfaces.pick_closed(&self.id);
        self.state.surfaces.waiting_changed();
    }
}

/// Where the person's answer came from.
pub enum Answer {
    /// The client's own form.
    Form(String),
    /// The desktop's picker, or Mooring's app in the conversation.
    Picker(Picked),
}

/// Ask a session-based client's person with its own form and, when the desktop can show
/// it, the picker too. The first answer wins: a picker click cancels the outstanding
/// form request (notifications/cancelled), an accepted form closes the picker. A
/// declined or cancelled form leaves the picker open to answer.
pub async fn ask(
    state: &Arc<AppState>,
    caller: &Caller,
    ctx: &RequestContext<RoleServer>,
    candidates: &[Project],
    recommended: Option<String>,
    marker: Option<Marker>,
) -> Option<Answer> {
    let desktop = state.person_can_pick();
    let params = elicit_params(candidates, recommended.as_deref())?;
    let request = rmcp::model::ServerRequest::ElicitRequest(ElicitRequest::new(params));
    let options = rmcp::service::PeerRequestOptions::no_options();
    let mut form = match ctx.peer.send_cancellable_request(request, options).await {
        Ok(handle) => handle,
        Err(e) => {
            tracing::info!(error = %e, "the client's form could not be sent");
            return match desktop {
                true => wait_for_pick(state, caller, ctx, recommended, marker).await.map(Answer::Picker),
                false => None,
            };
        }
    };
    let form_answer = |r: Result<Result<rmcp::model::ClientResult, rmcp::ServiceError>, _>| match r {
        Ok(Ok(rmcp::model::ClientResult::ElicitResult(result))) => accepted_slug(&result),
        _ => None,
    };
    if !desktop {
        return tokio::select! {
            r = &mut form.rx => form_answer(r).map(Answer::Form),
            _ = tokio::time::sleep(state.pick_timeout) => {
                let _ = form.cancel(Some("no answer in time".into())).await;
                None
            }
        };
    }
    let picker = wait_for_pick(state, caller, ctx, recommended, marker);
    tokio::pin!(picker);
    tokio::select! {
        r = &mut form.rx => match form_answer(r) {
            Some(slug) => Some(Answer::Form(slug)),
            None => picker.await.map(Answer::Picker),
        },
        slug = &mut picker => {
            let _ = form.cancel(Some("answered in the Mooring window".into())).await;
            slug.map(Answer::Picker)
        }
    }
}

fn elicitation_schema(candidates: &[Project], recommended: Option<&str>) -> Value {
    let one_of: Vec<Value> =
        candidates.iter().map(|p| json!({ "const": p.slug, "title": summary(p) })).collect();
    let mut project = json!({
        "type": "string",
        "title": "Project",
        "description": "The project this agent session works on",
        "oneOf": one_of,
    });
    if let Some(r) = recommended {
        project["default"] = json!(r);
    }
    json!({ "type": "object", "properties": { "project": project }, "required": ["project"] })
}

const ASK: &str = "Which project is this agent session working on?";

fn elicit_params(candidates: &[Project], recommended: Option<&str>) -> Option<ElicitRequestParams> {
    let schema = serde_json::from_value(elicitation_schema(candidates, recommended)).ok()?;
    Some(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: ASK.to_owned(),
        requested_schema: schema,
    })
}

pub fn input_required(
    candidates: &[Project],
    recommended: Option<&str>,
    sealed: String,
) -> InputRequiredResult {
    let mut requests = InputRequests::new();
    if let Some(params) = elicit_params(candidates, recommended) {
        requests.insert(INPUT_KEY.to_owned(), InputRequest::Elicitation(ElicitRequest::new(params)));
    }
    InputRequiredResult::new(Some(requests), Some(sealed))
}

fn accepted_slug(result: &ElicitResult) -> Option<String> {
    if result.action != ElicitationAction::Accept {
        return None;
    }
    result.content.as_ref()?.get("project")?.as_str().map(|s| s.trim().to_ascii_lowercase())
}

pub fn picked_slug(answer: &Value) -> Option<String> {
    serde_json::from_value::<ElicitResult>(answer.clone()).ok().as_ref().and_then(accepted_slug)
}

#[cfg(test)]
mod tests {
    use mooring_core::Project;
    use serde_json::json;

    use super::{elicitation_schema, picked_slug};

    #[test]
    fn only_an_accepted_form_with_a_project_is_a_pick() {
        let accept = json!({ "action": "accept", "content": { "project": " Beta " } });
        assert_eq!(picked_slug(&accept).as_deref(), Some("beta"));
        for no in [
            json!({ "action": "decline" }),
            json!({ "action": "cancel", "content": { "project": "beta" } }),
            json!({ "action": "accept", "content": { "project": 7 } }),
            json!({ "action": "accept" }),
            json!("beta"),
        ] {
            assert_eq!(picked_slug(&no), None, "{no}");
        }
    }

    #[test]
    fn the_form_offers_every_candidate_and_preselects_the_recommended_one() {
        let p = |slug: &str| Project { slug: slug.into(), name: slug.to_uppercase(), ..Project::default() };
        let schema = elicitation_schema(&[p("alpha"), p("beta")], Some("beta"));
        let project = &schema["properties"]["project"];
        let offered: Vec<&str> =
            project["oneOf"].as_array().unwrap().iter().map(|o| o["const"].as_str().unwrap()).collect();
        assert_eq!(offered, ["alpha", "beta"]);
        assert_eq!(project["default"], "beta");
        assert_eq!(schema["required"], json!(["project"]));
        assert!(elicitation_schema(&[p("alpha")], None)["properties"]["project"].get("default").is_none());
    }
}
