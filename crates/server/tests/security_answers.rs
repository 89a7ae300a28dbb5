//! The person stays in the loop: an agent cannot answer its own question or pick its
//! own project by sending `inputResponses` with a `requestState` it made up, got for
//! another client, already used, or kept past its expiry; it cannot read another
//! client's answer by naming the question; and an agent without a session, holding all
//! its model saw, answers by no route (app tools, follow-up, MRTR, the page, REST).

mod common;

use std::time::Duration;

use common::{Client, Gen, TestClient, TestServer, call, connect, err, ok};
use mooring_core::choice::Broker;
use mooring_server::access::sealed::{Purpose, Sealer};
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, InputResponses};
use serde_json::{Value, json};

fn question() -> Value {
    json!({
        "title": "Drop the table?",
        "prompt": "The migration drops users_old.",
        "selection_mode": "single",
        "transport": "elicitation",
        "options": [ { "id": "yes", "label": "Yes" }, { "id": "no", "label": "No", "recommended": true } ]
    })
}

fn answer(key: &str, content: Value) -> InputResponses {
    let mut r = InputResponses::new();
    r.insert(key.to_owned(), json!({ "action": "accept", "content": content }));
    r
}

async fn once(
    c: &Client,
    tool: &str,
    args: Value,
    state: Option<&str>,
    responses: Option<InputResponses>,
) -> CallToolResponse {
    let mut p =
        CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap());
    p.request_state = state.map(str::to_owned);
    p.input_responses = responses;
    c.peer().call_tool_once(p).await.unwrap()
}

fn complete(r: CallToolResponse) -> CallToolResult {
    match r {
        CallToolResponse::Complete(r) => r,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn refused_for(r: CallToolResponse, field: &str) {
    let e = err(&complete(r));
    assert_eq!(e["error"]["field"], field, "{e}");
}

/// A 2026-07-28 client with elicitation, identified as `who` (as the stdio shim is).
async fn agent(srv: &TestServer, who: &'static str) -> Client {
    let me = TestClient { elicit_content: Some(json!({ "choice": "no" })), ..Default::default() };
    connect(&srv.url, Gen::Modern, me, &[("x-mooring-session", who)]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_cannot_answer_its_own_question() {
    let srv = TestServer::start().await;
    let a = agent(&srv, "msh_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").await;
    let b = agent(&srv, "msh_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb").await;
    let state = match once(&a, "provide_choice", question(), None, None).await {
        CallToolResponse::InputRequired(r) => r.request_state.expect("a request state"),
        other => panic!("expected input_required, got {other:?}"),
    };
    let id = state.split('.').nth(2).unwrap().to_owned();
    let broker = Broker::new(&srv.store);
    let yes = || Some(answer("mooring_choice", json!({ "choice": "yes" })));

    // The old hole: the interaction id as requestState. Then junk, a swapped subject, the
    // genuine state from another client, and no state at all.
    let forged = state.replacen(&id, "c-000000000000", 1);
    for (client, bad) in [
        (&a, Some(id.as_str())),
        (&a, Some("x")),
        (&a, Some(forged.as_str())),
        (&b, Some(state.as_str())),
        (&a, None),
    ] {
        refused_for(once(client, "provide_choice", question(), bad, yes()).await, "requestState");
        assert_eq!(
            broker.get(&id).unwrap().status,
            mooring_core::ChoiceStatus::Pending,
            "nothing answered with {bad:?}"
        );
    }
    // Expired: a state this install issued, but whose time is up.
    let sealer = Sealer::load_or_create(srv.dir.path()).unwrap();
    let stale =
        sealer.issue(Purpose::Choice, &id, Some("msh_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    refused_for(once(&a, "provide_choice", question(), Some(&stale), yes()).await, "requestState");
    assert_eq!(broker.get(&id).unwrap().status, mooring_core::ChoiceStatus::Pending);

    // The person answers in A's own form: accepted once.
    let no = Some(answer("mooring_choice", json!({ "choice": "no" })));
    let r = ok(&complete(once(&a, "provide_choice", question(), Some(&state), no).await));
    assert_eq!(r["selection"]["selected_ids"], json!(["no"]));
    // A replay with another answer changes nothing.
    let again = ok(&complete(once(&a, "provide_choice", question(), Some(&state), yes()).await));
    assert_eq!(again["selection"]["selected_ids"], json!(["no"]));
    assert_eq!(broker.get(&id).unwrap().response.unwrap().selection.selected_ids, vec!["no".to_owned()]);

    // Only A can read the answer: B with A's handle or the bare id is refused.
    let handle = r["selection"]["session_id"].as_str().unwrap().to_owned();
    assert!(handle.starts_with(&format!("{id}.")), "{handle}");
    for guess in [handle.as_str(), id.as_str()] {
        let e = err(&call(&b, "provide_choice", json!({ "session_id": guess })).await);
        assert_eq!(e["error"]["field"], "session_id", "{guess}");
    }
    let mine = ok(&call(&a, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(mine["selection"]["selected_ids"], json!(["no"]));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_cannot_pick_its_own_project_as_if_the_person_had() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let who = "msh_cccccccccccccccccccccccccccccccc";
    let c = agent(&srv, who).await;
    let pick = || Some(answer("mooring_project", json!({ "project": "alpha" })));
    for bad in [None, Some("mooring:select-project"), Some("v1.project.session.9999999999.00.AAAA")] {
        refused_for(once(&c, "get_last_handover", json!({}), bad, pick()).await, "requestState");
        let s = mooring_core::projects::session::get(&srv.store, who).unwrap();
        assert_eq!(s.and_then(|s| s.project), None, "the session is not bound with {bad:?}");
    }
    // The genuine round: the form this server sent, answered, binds once; a replay doesn't.
    let state = match once(&c, "get_last_handover", json!({}), None, None).await {
        CallToolResponse::InputRequired(r) => r.request_state.unwrap(),
        other => panic!("expected input_required, got {other:?}"),
    };
    let done = complete(once(&c, "get_last_handover", json!({}), Some(&state), pick()).await);
    assert_ne!(done.is_error, Some(true), "{done:?}");
    assert_eq!(
        mooring_core::projects::session::get(&srv.store, who).unwrap().unwrap().project.as_deref(),
        Some("alpha")
    );
    let beta = Some(answer("mooring_project", json!({ "project": "beta" })));
    refused_for(once(&c, "get_last_handover", json!({}), Some(&state), beta).await, "requestState");
    assert_eq!(
        mooring_core::projects::session::get(&srv.store, who).unwrap().unwrap().project.as_deref(),
        Some("alpha")
    );
}

/// Every string in a result: what an agent holding the model's view could try as a key.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            out.push(s.clone());
            out.extend(s.split(|c: char| c.is_whitespace() || "\"'`{}(),;".contains(c)).map(str::to_owned));
        }
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_less_agent_holding_what_its_model_saw_answers_by_no_route() {
    let srv = TestServer::start().await;
    std::fs::write(srv.dir.path().join("choice-settings.json"), r#"{ "wait_limit_seconds": 1 }"#).unwrap();
    srv.project("Alpha", &[]);
    // The asker: a 2026-07-28 client over HTTP with no session that renders apps (as a
    // host would), and the same agent again with a shell and curl: indistinguishable.
    let apps = || TestClient { apps: true, ..Default::default() };
    let asker = connect(&srv.url, Gen::Modern, apps(), &[]).await;
    let agent = connect(&srv.url, Gen::Modern, apps(), &[]).await;
    let mut q = question();
    q["title"] = json!("Drop the production database?");
    q.as_object_mut().unwrap().remove("transport");
    let asked = ok(&call(&asker, "provide_choice", q.clone()).await);
    assert_eq!(asked["action_status"], "pending", "{asked}");
    let broker = Broker::new(&srv.store);
    let id = broker.open_list().unwrap()[0].id.clone();
    let key = broker.get(&id).unwrap().token;
    assert!(!asked.to_string().contains(&key), "the page key is in the model's view: {asked}");
    let mut seen = Vec::new();
    strings(&asked, &mut seen);
    let handle = asked["selection"]["session_id"].as_str().unwrap().to_owned();
    let url = asked["selection"]["url"].as_str().unwrap().to_owned();
    let submission = json!({ "selected_ids": ["yes"] });

    // The app's tools: by the question's text, by its handle, and with every string seen.
    for args in [json!({ "question": q }), json!({ "session_id": handle })] {
        let e = err(&call(&agent, "answer_question_in_app", args).await);
        assert_eq!(e["error"]["field"], "session", "{e}");
    }
    for s in &seen {
        let e =
            err(&call(&agent, "answer_question_in_app", json!({ "token": s, "answer": submission })).await);
        assert!(e["error"]["field"] == "session", "{s}: {e}");
    }
    let e = err(&call(&agent, "pick_project_in_app", json!({})).await);
    assert_eq!(e["error"]["field"], "session", "{e}");
    // The follow-up: the handle opens nothing for a caller without identity.
    let e = err(&call(&agent, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(e["error"]["field"], "session_id", "{e}");
    // MRTR: an answer with no state, the handle or any string seen as the state.
    let yes = || Some(answer("mooring_choice", json!({ "choice": "yes" })));
    refused_for(once(&agent, "provide_choice", q.clone(), None, yes()).await, "requestState");
    for s in seen.iter().filter(|s| !s.is_empty()) {
        refused_for(once(&agent, "provide_choice", q.clone(), Some(s), yes()).await, "requestState");
    }
    // The page the result names, and its answer route, with and without what was seen.
    let http = reqwest::Client::new();
    assert_eq!(http.get(&url).send().await.unwrap().status(), 403);
    for t in std::iter::once("").chain(seen.iter().map(String::as_str)) {
        let r = http.post(format!("{url}/answer?t={t}")).json(&submission).send().await.unwrap();
        assert!(!r.status().is_success(), "the page took an answer with t={t}");
    }
    // REST wants the person's API token, which no result carries.
    let r = http.get(format!("{}/api/v1/choices", srv.base())).send().await.unwrap();
    assert_eq!(r.status(), 401);

    let still = broker.get(&id).unwrap();
    assert_eq!((still.status.as_str(), still.response.is_none()), ("pending", true), "no route answered");
}
