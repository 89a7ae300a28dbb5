//! Bad input over MCP and HTTP: each case gets a clear error naming the field (or a
//! JSON-RPC parse / invalid-params error) and writes nothing. A start on the corpus; the
//! CLI has its own in `crates/cli/tests/bad_inputs.rs`.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, initialize_body, raw_post};
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
        (
            "provide_choice",
            with(
                question(),
                "options",
                json!(
                    (0..51)
                        .map(|i| json!({ "id": format!("o{i}"), "label": "x", "recommended": i == 0 }))
                        .collect::<Vec<_>>()
                ),
            ),
            "options",
        ),
        (
            "provide_choice",
            with(with(question(), "selection_mode", json!("hybrid")), "placeholder", json!("p".repeat(600))),
            "placeholder",
        ),
        ("provide_choice", with(question(), "title", json!("t".repeat(300))), "title"),
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
    let post = |body: &str| raw_post(&http, &srv.url, body.to_owned()).send();
    let r = post("not json").await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"]["code"], -32700);
    let r = post(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":"x"}"#).await.unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(1), json!(-32602)), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("params"), "{v}");

    let gone = http.delete(&srv.url).header("mcp-session-id", "mcs_0000").send().await.unwrap();
    assert_eq!(gone.status(), 404);
    let r = post(&initialize_body("c")).await.unwrap();
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

/// Values of the wrong type for a property of JSON-schema type `ty`.
fn wrong_values(ty: &str) -> Vec<Value> {
    match ty {
        "string" => vec![json!(1), json!(true), json!([]), json!({}), json!(["a"])],
        "integer" => vec![json!("1"), json!(1.5), json!(true), json!([]), json!({}), json!(-1e30)],
        "number" => vec![json!("1"), json!(true), json!([]), json!({})],
        "boolean" => vec![json!("yes"), json!(1), json!([]), json!({})],
        "array" => vec![json!("a"), json!(1), json!({}), json!([{}]), json!([[1]])],
        "object" => vec![json!("a"), json!(1), json!([])],
        _ => vec![],
    }
}

/// The JSON-schema type of a property (`["string", "null"]` counts as string).
fn type_of(schema: &Value) -> Option<String> {
    match &schema["type"] {
        Value::String(t) => Some(t.clone()),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null").map(str::to_owned),
        _ => schema["anyOf"].as_array().and_then(|alts| alts.iter().find_map(type_of)),
    }
}

/// Every tool, every property, values of the wrong type (and an unknown field): each call is
/// refused naming that property, on both protocol generations, and writes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn every_property_of_every_tool_refuses_the_wrong_type_by_name() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let mut checked = 0;
    for generation in [Gen::Legacy, Gen::Modern] {
        let c = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let tools = c.list_all_tools().await.unwrap();
        for tool in &tools {
            let schema = serde_json::to_value(&tool.input_schema).unwrap();
            let props = schema["properties"].as_object().cloned().unwrap_or_default();
            let mut cases: Vec<(Value, String)> =
                vec![(json!({ "zzz_not_a_field": 1 }), "zzz_not_a_field".into())];
            for (name, prop) in &props {
                let Some(ty) = type_of(prop) else { continue };
                for bad in wrong_values(&ty) {
                    cases.push((json!({ name.clone(): bad }), name.clone()));
                }
            }
            for (args, field) in cases {
                let before = counts(&srv);
                let r = call(&c, &tool.name, args.clone()).await;
                assert_eq!(r.is_error, Some(true), "{} {args}: accepted: {r:?}", tool.name);
                let body = r.structured_content.clone().unwrap();
                let named = body["error"]["field"].as_str().unwrap_or_default();
                assert!(
                    named == field
                        || named.starts_with(&format!("{field}."))
                        || named.starts_with(&format!("{field}[")),
                    "{} {args}: field {named:?}, expected {field}: {body}",
                    tool.name
                );
                assert_eq!(counts(&srv), before, "{} {args} wrote something", tool.name);
                checked += 1;
            }
        }
        c.cancel().await.unwrap();
    }
    eprintln!("{checked} bad-argument cases checked");
    assert!(checked >= 300, "only {checked} cases");
}

/// A REST route and the fields of its body with their JSON types.
type Route = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// Every field of every REST body, with values of the wrong type and an unknown field:
/// 422 naming the field, nothing written; a body that is not JSON is 400, not JSON at all
/// (wrong content type) 415.
#[tokio::test(flavor = "multi_thread")]
async fn every_rest_body_field_refuses_the_wrong_type_by_name() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let token = std::fs::read_to_string(srv.dir.path().join("token")).unwrap().trim().to_owned();
    let http = reqwest::Client::new();
    let routes: [Route; 4] = [
        (
            "POST",
            "/api/v1/projects",
            &[
                ("name", "string"),
                ("slug", "string"),
                ("description", "string"),
                ("code_paths", "array"),
                ("repo_url", "string"),
                ("notes_path", "string"),
            ],
        ),
        (
            "PATCH",
            "/api/v1/projects/alpha",
            &[
                ("name", "string"),
                ("description", "string"),
                ("add_code_paths", "array"),
                ("remove_code_paths", "array"),
                ("notes_path", "string"),
                ("repo_url", "string"),
                ("status", "string"),
            ],
        ),
        (
            "POST",
            "/api/v1/projects/alpha/memory",
            &[("kind", "string"), ("title", "string"), ("content", "string"), ("tags", "array")],
        ),
        (
            "PATCH",
            "/api/v1/settings",
            &[("settings", "object"), ("interaction", "object"), ("start_at_login", "boolean")],
        ),
    ];
    let mut checked = 0;
    for (method, path, fields) in routes {
        let mut cases: Vec<(Value, String)> =
            vec![(json!({ "zzz_not_a_field": 1 }), "zzz_not_a_field".into())];
        for (field, ty) in fields {
            for bad in wrong_values(ty) {
                cases.push((json!({ *field: bad }), (*field).to_owned()));
            }
        }
        for (body, field) in cases {
            let before = counts(&srv);
            let r = http
                .request(method.parse().unwrap(), format!("{}{path}", srv.base()))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 422, "{method} {path} {body}");
            let v: Value = r.json().await.unwrap();
            let named = v["error"]["field"].as_str().unwrap_or_default();
            assert!(
                named == field
                    || named.starts_with(&format!("{field}["))
                    || named.starts_with(&format!("{field}.")),
                "{method} {path} {body}: {v}"
            );
            assert_eq!(counts(&srv), before, "{method} {path} {body} wrote something");
            checked += 1;
        }
        let r = http
            .request(method.parse().unwrap(), format!("{}{path}", srv.base()))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{method} {path}");
        let r = http
            .request(method.parse().unwrap(), format!("{}{path}", srv.base()))
            .bearer_auth(&token)
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 415, "{method} {path}");
    }
    eprintln!("{checked} REST bad-body cases checked");
}

/// A message that gives a key twice — at the top, in params, in a tool's arguments — is
/// refused by name on both protocol generations (serde_json would keep the last one
/// silently and rmcp answered "method not found"), and nothing is written.
#[tokio::test(flavor = "multi_thread")]
async fn a_key_given_twice_is_refused_by_name_at_every_level_on_both_generations() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let http = reqwest::Client::new();
    // A 2025-06-18 session, as the issue found it (no Mcp-Name header).
    let r = raw_post(&http, &srv.url, initialize_body("dup")).send().await.unwrap();
    let session = r.headers().get("mcp-session-id").unwrap().to_str().unwrap().to_owned();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let legacy = |body: String| {
        raw_post(&http, &srv.url, body)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
    };
    let modern = |body: String| {
        raw_post(&http, &srv.url, body)
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "remember")
    };
    let remember = r#""arguments":{"project":"alpha","kind":"decision","content":"one"}"#;
    // Control: each generation's well-formed call goes through and writes.
    for (send, body) in [
        (
            &legacy as &dyn Fn(String) -> reqwest::RequestBuilder,
            format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"remember",{remember}}}}}"#
            ),
        ),
        (
            &modern,
            format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"remember",{remember},{meta}}}}}"#
            ),
        ),
    ] {
        let text = send(body).send().await.unwrap().text().await.unwrap();
        assert!(text.contains("\"result\"") && !text.contains("isError\":true"), "{text}");
    }
    let written = counts(&srv);
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","method":"tools/call","params":{"name":"remember",ARGS,META}}"#,
            -32600,
            "method",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"id":10,"method":"tools/call","params":{"name":"remember",ARGS,META}}"#,
            -32600,
            "id",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_projects","name":"remember",ARGS,META}}"#,
            -32602,
            "params.name",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"remember","arguments":{"project":"alpha","kind":"decision","kind":"blocker","content":"two"},META}}"#,
            -32602,
            "params.arguments.kind",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"remember","arguments":{"project":"alpha","kind":"decision","content":"two","tags":["a"],"tags":["b"]},META}}"#,
            -32602,
            "params.arguments.tags",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"remember",ARGS,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            -32602,
            "params._meta.io.modelcontextprotocol/protocolVersion",
        ),
    ];
    for (generation, send) in
        [("2025-11-25", &legacy as &dyn Fn(String) -> reqwest::RequestBuilder), ("2026-07-28", &modern)]
    {
        for (template, code, key) in cases {
            let body = template.replace("ARGS", remember).replace("META", meta);
            let v: Value = send(body.clone()).send().await.unwrap().json().await.unwrap();
            assert_eq!(v["error"]["code"], code, "{generation} {body}: {v}");
            let message = v["error"]["message"].as_str().unwrap();
            assert!(
                message.contains(&format!("the key {key} appears more than once")),
                "{generation}: {message}"
            );
            assert!(message.contains("send each key once"), "{message}");
            // The id is echoed unless it is the key given twice (then neither is trusted).
            assert_eq!(v["id"], if key == "id" { Value::Null } else { json!(9) }, "{generation}: {v}");
            assert_eq!(counts(&srv), written, "{generation} {body} wrote something");
        }
    }
}
