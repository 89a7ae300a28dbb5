//! The person's answer counts wherever it is given: with a desktop attached, a pending
//! session's call shows the client's own form *and* the picker; the first answer wins,
//! the other closes (the form request is cancelled, the picker window closed), and
//! nothing is left waiting. A declined form — Claude Code in `-p` declines at once —
//! falls back to the picker instead of failing, for session clients and for MCP
//! 2026-07-28 clients answering an `input_required` round alike.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Client, Gen, TestClient, TestServer, call, connect, ok};
use mooring_server::{PickInfo, Surfaces};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ErrorData, Implementation, InputResponses,
};
use rmcp::service::{RequestContext, RoleClient, ServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;

/// A desktop whose person clicks `choice` in the picker after `after`, and which
/// records the windows it was told to close.
struct Desk {
    choice: String,
    after: Duration,
    closed: Mutex<Vec<String>>,
}

impl Surfaces for Desk {
    fn can_show(&self) -> bool {
        true
    }

    fn show_pick(&self, url: &str, _pick: &PickInfo) {
        let (answer, project, after) =
            (url.replacen("?t=", "/answer?t=", 1), self.choice.clone(), self.after);
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            let _ = reqwest::Client::new().post(answer).json(&json!({ "project": project })).send().await;
        });
    }

    fn pick_closed(&self, pick_id: &str) {
        self.closed.lock().unwrap().push(pick_id.to_owned());
    }
}

fn desk(choice: &str, after_ms: u64) -> Arc<Desk> {
    Arc::new(Desk {
        choice: choice.into(),
        after: Duration::from_millis(after_ms),
        closed: Mutex::new(Vec::new()),
    })
}

/// A session client whose person answers its own form after `after` (None: declines
/// at once), and notices when the server withdraws the form.
#[derive(Clone)]
struct SlowForm {
    answer: Option<String>,
    after: Duration,
    withdrawn: Arc<AtomicUsize>,
}

impl rmcp::ClientHandler for SlowForm {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("slow", "1"),
        )
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(slug) = self.answer.clone() else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        tokio::select! {
            _ = tokio::time::sleep(self.after) => {
                Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "project": slug })))
            }
            _ = ctx.ct.cancelled() => {
                self.withdrawn.fetch_add(1, Ordering::SeqCst);
                Ok(ElicitResult::new(ElicitationAction::Cancel))
            }
        }
    }
}

async fn two_projects(surfaces: Arc<Desk>) -> TestServer {
    let srv = TestServer::start_with(surfaces).await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    srv
}

fn nothing_waiting(srv: &TestServer) {
    let state = srv.server.as_ref().unwrap().state.clone();
    assert!(state.picks.list().is_empty(), "a picker is still open");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_picker_click_first_wins_and_withdraws_the_form() {
    let d = desk("beta", 200);
    let srv = two_projects(d.clone()).await;
    let form =
        SlowForm { answer: Some("alpha".into()), after: Duration::from_secs(20), withdrawn: Arc::default() };
    let c = form.clone().serve(StreamableHttpClientTransport::from_uri(srv.url.as_str())).await.unwrap();
    let r = ok(&c.call_tool(CallToolRequestParams::new("get_last_handover")).await.unwrap());
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("beta"), Some("picker")), "{r}");
    for _ in 0..50 {
        if form.withdrawn.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(form.withdrawn.load(Ordering::SeqCst), 1, "the client's form was cancelled");
    nothing_waiting(&srv);
    let again = ok(&c.call_tool(CallToolRequestParams::new("get_last_handover")).await.unwrap());
    assert_eq!((again["project"].as_str(), again["decided_by"].as_str()), (Some("beta"), Some("session")));
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_clients_form_first_wins_and_closes_the_picker() {
    let d = desk("beta", 20_000);
    let srv = two_projects(d.clone()).await;
    let form = SlowForm {
        answer: Some("alpha".into()),
        after: Duration::from_millis(300),
        withdrawn: Arc::default(),
    };
    let c = form.clone().serve(StreamableHttpClientTransport::from_uri(srv.url.as_str())).await.unwrap();
    let r = ok(&c.call_tool(CallToolRequestParams::new("get_last_handover")).await.unwrap());
    assert_eq!(
        (r["project"].as_str(), r["decided_by"].as_str()),
        (Some("alpha"), Some("elicitation")),
        "{r}"
    );
    assert_eq!(d.closed.lock().unwrap().len(), 1, "the picker window was closed");
    nothing_waiting(&srv);
    assert_eq!(form.withdrawn.load(Ordering::SeqCst), 0);
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_declined_form_falls_back_to_the_picker() {
    let d = desk("beta", 300);
    let srv = two_projects(d.clone()).await;
    let c = connect(&srv.url, Gen::Legacy, TestClient::answering("decline"), &[]).await;
    let r = ok(&call(&c, "remember", json!({ "kind": "note", "content": "n" })).await);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("beta"), Some("picker")), "{r}");
    nothing_waiting(&srv);
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stateless_client_that_declines_its_form_gets_the_picker() {
    let d = desk("alpha", 300);
    let srv = two_projects(d.clone()).await;
    // A 2026-07-28 client with elicitation, identified as the stdio shim identifies one.
    let who = "msh_dddddddddddddddddddddddddddddddd";
    let me = TestClient { elicit_answer: Some("decline".into()), ..Default::default() };
    let c: Client = connect(&srv.url, Gen::Modern, me, &[("x-mooring-session", who)]).await;
    let first = c.peer().call_tool_once(CallToolRequestParams::new("get_last_handover")).await.unwrap();
    let state = match first {
        CallToolResponse::InputRequired(r) => r.request_state.expect("a request state"),
        other => panic!("expected input_required, got {other:?}"),
    };
    let mut declined = InputResponses::new();
    declined.insert("mooring_project".into(), json!({ "action": "decline" }));
    let mut retry = CallToolRequestParams::new("get_last_handover");
    retry.request_state = Some(state);
    retry.input_responses = Some(declined);
    let r = match c.peer().call_tool_once(retry).await.unwrap() {
        CallToolResponse::Complete(r) => ok(&r),
        other => panic!("expected a result, got {other:?}"),
    };
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("alpha"), Some("picker")), "{r}");
    assert_eq!(
        mooring_core::projects::session::get(&srv.store, who).unwrap().unwrap().project.as_deref(),
        Some("alpha"),
        "exactly one binding, to the picked project"
    );
    nothing_waiting(&srv);
}
