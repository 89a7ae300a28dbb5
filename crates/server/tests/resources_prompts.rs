//! Resources, the `resume` prompt, completion and subscriptions over MCP.

mod common;

use std::time::Duration;

use common::{Gen, TestClient, TestServer, call, connect, ok};
use rmcp::model::{
    GetPromptRequestParams, ReadResourceRequestParams, ResourceContents, SubscribeRequestParams,
};
use serde_json::{Value, json};

fn text_of(r: &rmcp::model::ReadResourceResult) -> String {
    match &r.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn resources_prompt_and_completion() {
    let srv = TestServer::start().await;
    srv.project("Leader Election", &[]);
    srv.project("Ledger", &[]);
    srv.project("Old", &[]);
    mooring_core::Registry::new(&srv.store).archive("old").unwrap();
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(
        &c,
        "remember",
        json!({ "project": "leader-election", "kind": "decision", "content": "Use etcd" }),
    )
    .await);
    ok(&call(
        &c,
        "save_handover",
        json!({ "project": "leader-election", "work_done": "w", "next_steps": "wire it" }),
    )
    .await);

    let listed: Vec<String> =
        c.list_all_resources().await.unwrap().into_iter().map(|r| r.uri.clone()).collect();
    assert!(listed.contains(&"mooring://projects".to_owned()));
    assert!(listed.contains(&"mooring://projects/leader-election/context".to_owned()));
    assert!(!listed.iter().any(|u| u.contains("/old/")), "archived projects are not offered");
    let templates = c.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 3);

    let read = |uri: &str| c.read_resource(ReadResourceRequestParams::new(uri));
    let projects: Value = serde_json::from_str(&text_of(&read("mooring://projects").await.unwrap())).unwrap();
    assert_eq!(projects["projects"].as_array().unwrap().len(), 3);
    let context = text_of(&read("mooring://projects/leader-election/context").await.unwrap());
    assert!(context.contains("Use etcd") && context.contains("wire it") && context.contains("**ledger**"));
    let decisions: Value = serde_json::from_str(&text_of(
        &read("mooring://projects/leader-election/memory/decision").await.unwrap(),
    ))
    .unwrap();
    assert_eq!(decisions["entries"][0]["content"], "Use etcd");
    let handover: Value =
        serde_json::from_str(&text_of(&read("mooring://projects/leader-election/handover").await.unwrap()))
            .unwrap();
    assert_eq!(handover["handover"]["next_steps"], "wire it");
    assert!(read("mooring://projects/nope/context").await.is_err());
    assert!(read("mooring://projects/leader-election/memory/rumor").await.is_err());

    let prompts = c.list_all_prompts().await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "resume"));
    let mut args = serde_json::Map::new();
    args.insert("project".into(), json!("leader-election"));
    let prompt = c.get_prompt(GetPromptRequestParams::new("resume").with_arguments(args)).await.unwrap();
    let body = serde_json::to_string(&prompt.messages).unwrap();
    assert!(body.contains("Use etcd") && body.contains("Continue this project"));
    assert!(c.get_prompt(GetPromptRequestParams::new("resume")).await.is_err(), "resume needs a project");

    let values = c.complete_prompt_simple("resume", "project", "le").await.unwrap();
    assert_eq!(values, ["leader-election", "ledger"]);
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn subscribers_hear_about_changes() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let handler = TestClient::default();
    let watcher = connect(&srv.url, Gen::Legacy, handler.clone(), &[]).await;
    #[allow(deprecated)]
    watcher.subscribe(SubscribeRequestParams::new("mooring://projects/alpha/context")).await.unwrap();
    let writer = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(&writer, "remember", json!({ "project": "beta", "kind": "note", "content": "elsewhere" }))
        .await);
    ok(&call(&writer, "remember", json!({ "project": "alpha", "kind": "note", "content": "here" })).await);
    let mut heard = Vec::new();
    for _ in 0..50 {
        heard = handler.updates.lock().unwrap().clone();
        if !heard.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(heard, ["mooring://projects/alpha/context"], "only the subscribed project's change is sent");
    watcher.cancel().await.unwrap();
    writer.cancel().await.unwrap();
}
