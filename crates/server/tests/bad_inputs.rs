//! Bad input over MCP and HTTP: each case gets a clear error naming the field (or a
//! JSON-RPC parse / invalid-params error) and writes nothing. A start on the corpus; the
//! CLI has its own in `crates/cli/tests/bad_inputs.rs`.

mod common;

use common::{Gen, TestClient, TestServer, call, connect};
use serde_json::{Value, json};

fn counts(srv: &TestServer) -> (i64, i64, i64, i64) {
    srv.store
        .read(|c| {
            let n = |t: &str| c.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get::<_, i64>(0));
            Ok((n("projects")?, n("memory")?, n("choices")?, n("context_locks")?))
        })
        .unwrap()
}

fn question() -> Value {
    json!({
        "title": "Pick", "prompt": "Which?", "selection_mode": "single", "transport": "terminal",
        "options": [ { "id": "a", "label": "A", "recommended": true }, { "id": "b", "label": "B" } ]
    })
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_tool_arguments_name_their_field_and_write_nothing() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let huge = "x".repeat(900 * 1024);
    let cases: Vec<(&str, Value, &str)> = vec![
        ("provide_choice", with(question(), "colour", json!("red")), "colour"),
        ("provide_choice", with(question(), "timeout_seconds", json!(-1)), "timeout_seconds"),
        ("provide_choice", with(question(), "selection_mode", json!("dropdown")), "selection_mode"),
        ("provide_choice", with(question(), "allow_cancel", json!("no")), "allow_cancel"),
        ("provide_choice", with(question(), "options", json!("a,b")), "options"),
        ("provide_choice", with(question(), "session_id", json!(5)), "session_id"),
        ("provide_choice", json!({ "session_id": "c-1", "title": 3 }), "title"),
        ("remember", json!({ "project": "", "kind": "decision", "content": "x" }), "project"),
        (
            "remember",
            json!({ "project": "alpha", "kind": "decision", "content": "x", "tags": [huge.clone()] }),
            "tags",
        ),
        ("remember", json!({ "project": huge.clone(), "kind": "decision", "content": "x" }), "project"),
        ("remember", json!({ "project": "alpha", "kind": "wish", "content": "x" }), "kind"),
        (
            "remember",
            json!({ "project": "alpha", "kind": "decision", "content": "x", "colour": 1 }),
            "colour",
        ),
        ("lock_context", json!({ "project": "alpha", "topic": huge.clone(), "content": "x" }), "topic"),
        ("lock_context", json!({ "project": "alpha", "topic": "t", "content": 5 }), "content"),
        ("search_memory", json!({ "query": "x", "project": "" }), "project"),
    ];
    for generation in [Gen::Legacy, Gen::Modern] {
        let c = connect(&srv.url, generation, TestClient::default(), &[]).await;
        for (tool, args, field) in &cases {
            let before = counts(&srv);
            let r = call(&c, tool, args.clone()).await;
            assert_eq!(r.is_error, Some(true), "{tool} {field}: {r:?}");
            let body = r.structured_content.clone().unwrap();
            assert_eq!(body["error"]["field"], *field, "{tool}: {body}");
            let size = serde_json::to_string(&r).unwrap().len();
            assert!(size < 4096, "{tool} {field}: a {size}-byte answer echoes the input");
            assert_eq!(counts(&srv), before, "{tool} {field} wrote something");
        }
        c.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn malformed_requests_get_json_rpc_errors_and_http_errors_carry_a_body() {
    let srv = TestServer::start().await;
    let http = reqwest::Client::new();
    let post = |body: &'static str| {
        http.post(&srv.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
            .send()
    };
    let r = post("not json").await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"]["code"], -32700);
    let r = post(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":"x"}"#).await.unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(1), json!(-32602)), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("params"), "{v}");

    let gone = http.delete(&srv.url).header("mcp-session-id", "mcs_0000").send().await.unwrap();
    assert_eq!(gone.status(), 404);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let r = post(init).await.unwrap();
    let id = r.headers().get("mcp-session-id").unwrap().to_str().unwrap().to_owned();
    let ended = http.delete(&srv.url).header("mcp-session-id", &id).send().await.unwrap();
    assert!(ended.status().is_success(), "{}", ended.status());

    let token = std::fs::read_to_string(srv.dir.path().join("token")).unwrap();
    let wrong =
        http.put(format!("{}/api/v1/projects", srv.base())).bearer_auth(token.trim()).send().await.unwrap();
    assert_eq!(wrong.status(), 405);
    assert_eq!(wrong.json::<Value>().await.unwrap()["error"]["code"], "METHOD_NOT_ALLOWED");
    let nowhere = http.get(format!("{}/nowhere", srv.base())).send().await.unwrap();
    assert_eq!(nowhere.status(), 404);
    assert_eq!(nowhere.json::<Value>().await.unwrap()["error"]["code"], "NOT_FOUND");
}
