//! MCP Apps through rmcp clients: where a host draws the question only after the call's
//! result, the person's answer in the app reaches the agent's follow-up; the apps' tools
//! answer only their own conversation, once, and only a client that renders apps.

mod common;

use std::sync::{Arc, Mutex};

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use mooring_server::{PickInfo, Surfaces};
use serde_json::json;

/// A desktop that shows nothing but keeps each picker's page key (the person's link).
#[derive(Default)]
struct Keys(Mutex<Vec<String>>);

impl Surfaces for Keys {
    fn can_show(&self) -> bool {
        false
    }

    fn show_pick(&self, _url: &str, pick: &PickInfo) {
        self.0.lock().unwrap().push(pick.token.clone());
    }
}

fn question() -> serde_json::Value {
    json!({
        "title": "Deploy now?",
        "prompt": "The release is tagged; deploying takes ten minutes of downtime.",
        "selection_mode": "single",
        "allow_global_annotation": true,
        "options": [
            { "id": "now", "label": "Deploy now", "recommended": true },
            { "id": "later", "label": "Tonight" }
        ]
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn an_app_drawn_after_the_result_answers_the_follow_up_once() {
    let srv = TestServer::start().await;
    std::fs::write(srv.dir.path().join("choice-settings.json"), r#"{ "wait_limit_seconds": 1 }"#).unwrap();
    let host = connect(&srv.url, Gen::Legacy, TestClient { apps: true, ..Default::default() }, &[]).await;
    let other = connect(&srv.url, Gen::Legacy, TestClient { apps: true, ..Default::default() }, &[]).await;
    let pending = ok(&call(&host, "provide_choice", question()).await);
    assert_eq!(pending["action_status"], "pending");
    assert!(pending["surface"].is_null(), "nothing opened outside the conversation: {pending}");
    let handle = pending["selection"]["session_id"].as_str().unwrap().to_owned();

    // Another conversation can neither read nor find this one's question.
    let theirs = err(&call(&other, "answer_question_in_app", json!({ "session_id": handle })).await);
    assert_eq!(theirs["error"]["field"], "session_id", "{theirs}");
    let theirs = err(&call(&other, "answer_question_in_app", json!({ "question": question() })).await);
    assert_eq!(theirs["error"]["code"], "NOT_FOUND", "{theirs}");

    let opened = ok(&call(&host, "answer_question_in_app", json!({ "session_id": handle })).await);
    assert_eq!(opened["question"]["request"]["title"], "Deploy now?");
    assert_eq!(opened["question"]["mode"], "single");
    let token = opened["token"].as_str().unwrap().to_owned();
    let stolen = err(&call(
        &other,
        "answer_question_in_app",
        json!({ "token": token, "answer": { "selected_ids": ["now"] } }),
    )
    .await);
    assert_eq!(stolen["error"]["field"], "token", "bound to the conversation that asked: {stolen}");
    let answer = json!({ "token": token, "answer": { "selected_ids": ["later"], "global_annotation": "after the demo" } });
    let answered = ok(&call(&host, "answer_question_in_app", answer.clone()).await);
    assert_eq!(answered["response"]["action_status"], "selected");
    let replay = err(&call(&host, "answer_question_in_app", answer).await);
    assert_eq!(replay["error"]["field"], "token", "single use: {replay}");

    let follow_up = ok(&call(&host, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(follow_up["action_status"], "selected");
    assert_eq!(follow_up["selection"]["selected_ids"], json!(["later"]));
    assert_eq!(follow_up["selection"]["global_annotation"], "after the demo");
    assert_eq!(follow_up["surface"], "app");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_apps_tools_refuse_a_client_that_does_not_render_apps_and_its_list_is_unchanged() {
    let srv = TestServer::start().await;
    for generation in [Gen::Legacy, Gen::Modern] {
        let plain = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let tools = plain.list_all_tools().await.unwrap();
        assert!(tools.iter().all(|t| t.meta.is_none() && !t.name.ends_with("_in_app")));
        for tool in ["answer_question_in_app", "pick_project_in_app"] {
            let refused = err(&call(&plain, tool, json!({})).await);
            assert!(refused["error"]["message"].as_str().unwrap().contains("renders MCP Apps"), "{refused}");
        }
        let resources = plain.list_all_resources().await.unwrap();
        assert!(resources.iter().all(|r| !r.uri.starts_with("ui://")));
    }
    let host = connect(&srv.url, Gen::Modern, TestClient { apps: true, ..Default::default() }, &[]).await;
    let tools = host.list_all_tools().await.unwrap();
    let pick = tools.iter().find(|t| t.name == "select_project_for_session").unwrap();
    assert_eq!(pick.meta.as_ref().unwrap().0["ui"]["resourceUri"], "ui://mooring/project-picker.html");
    assert!(pick.input_schema.get("required").is_none(), "the person may pick: no project required");
    let resources = host.list_all_resources().await.unwrap();
    assert!(resources.iter().any(|r| r.uri == "ui://mooring/choice.html"
        && r.mime_type.as_deref() == Some("text/html;profile=mcp-app")));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_picker_drawn_after_the_call_ended_binds_its_own_session_once() {
    let srv = TestServer::start().await;
    let host = connect(&srv.url, Gen::Legacy, TestClient { apps: true, ..Default::default() }, &[]).await;
    for name in ["Alpha", "Beta"] {
        ok(&call(&host, "create_project", json!({ "name": name })).await);
    }
    let shown = ok(&call(&host, "pick_project_in_app", json!({})).await);
    assert_eq!(shown["waiting"], false);
    let slugs: Vec<&str> =
        shown["projects"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs.len(), 2, "{slugs:?}");
    let token = shown["token"].as_str().unwrap();
    let unknown =
        err(&call(&host, "pick_project_in_app", json!({ "token": token, "project": "gamma" })).await);
    assert_eq!(unknown["error"]["code"], "NOT_FOUND", "{unknown}");
    let picked = ok(&call(&host, "pick_project_in_app", json!({ "token": token, "project": "alpha" })).await);
    assert_eq!((picked["picked"].as_str(), picked["remembered"].as_bool()), (Some("alpha"), Some(true)));
    let again = err(&call(&host, "pick_project_in_app", json!({ "token": token, "project": "beta" })).await);
    assert_eq!(again["error"]["field"], "token", "{again}");
    let active = ok(&call(&host, "active_project", json!({})).await);
    assert_eq!(active["active_project"], "alpha");
    let sessions = srv.store.read(|c| mooring_core::store::sessions::recent(c, 10)).unwrap();
    assert!(
        sessions
            .iter()
            .any(|s| s.project.as_deref() == Some("alpha") && s.decided_by.as_deref() == Some("app"))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn new_project_here_is_created_in_the_sessions_directory_and_bound() {
    let srv = TestServer::start().await;
    let code = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", code.path().display());
    let handler = TestClient { apps: true, ..Default::default() };
    let host = connect(&srv.url, Gen::Legacy, handler, &[("x-workspace-id", uri.as_str())]).await;
    let shown = ok(&call(&host, "pick_project_in_app", json!({})).await);
    let here = shown["here"].as_str().unwrap().to_owned();
    assert_eq!(std::path::Path::new(&here), code.path().canonicalize().unwrap());
    let token = shown["token"].as_str().unwrap();
    let forged =
        err(&call(&host, "pick_project_in_app", json!({ "token": "x.y.z", "create": "Forged" })).await);
    assert_eq!(forged["error"]["field"], "token", "{forged}");
    let listed = ok(&call(&host, "list_projects", json!({})).await);
    assert!(!listed.to_string().contains("forged"), "a forged token creates nothing: {listed}");
    let picked =
        ok(&call(&host, "pick_project_in_app", json!({ "token": token, "create": "Gamma Service" })).await);
    assert_eq!(picked["picked"], "gamma-service");
    let project = ok(&call(&host, "get_project", json!({ "project": "gamma-service" })).await);
    assert_eq!(
        project["project"]["code_paths"][0]["path"].as_str().map(std::path::Path::new),
        Some(std::path::Path::new(&here)),
        "{project}"
    );
    assert_eq!(ok(&call(&host, "active_project", json!({})).await)["active_project"], "gamma-service");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_waiting_pick_is_answered_in_the_app_with_a_token_sealed_to_its_conversation() {
    let keys = Arc::new(Keys::default());
    let srv = TestServer::start_with(keys.clone()).await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let host =
        Arc::new(connect(&srv.url, Gen::Legacy, TestClient { apps: true, ..Default::default() }, &[]).await);
    let other = connect(&srv.url, Gen::Legacy, TestClient { apps: true, ..Default::default() }, &[]).await;
    let asking = host.clone();
    let waiting = tokio::spawn(async move { call(&asking, "select_project_for_session", json!({})).await });
    let mut shown = json!(null);
    for _ in 0..100 {
        shown = ok(&call(&host, "pick_project_in_app", json!({})).await);
        if shown["waiting"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(shown["waiting"], true, "{shown}");
    let token = shown["token"].as_str().unwrap().to_owned();
    let key = keys.0.lock().unwrap()[0].clone();
    assert!(!shown.to_string().contains(&key), "the picker page's key reached the app's result: {shown}");
    let stolen =
        err(&call(&other, "pick_project_in_app", json!({ "token": token, "project": "alpha" })).await);
    assert_eq!(stolen["error"]["field"], "token", "{stolen}");
    let picked = ok(&call(&host, "pick_project_in_app", json!({ "token": token, "project": "beta" })).await);
    assert_eq!(picked["picked"], "beta");
    let done = ok(&waiting.await.unwrap());
    assert_eq!(done["selected"], "beta", "{done}");
    let replay =
        err(&call(&host, "pick_project_in_app", json!({ "token": token, "project": "alpha" })).await);
    assert_eq!(replay["error"]["field"], "token", "{replay}");
    assert_eq!(ok(&call(&host, "active_project", json!({})).await)["active_project"], "beta");
}
