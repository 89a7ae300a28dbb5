//! The MCP endpoint over real HTTP with rmcp clients of both protocol generations.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, err, initialize_body, ok, raw_post};
use serde_json::json;

const GENS: [Gen; 2] = [Gen::Legacy, Gen::Modern];

#[tokio::test(flavor = "multi_thread")]
async fn tools_are_listed_with_schemas_on_both_generations() {
    let srv = TestServer::start().await;
    for generation in GENS {
        let client = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let tools = client.list_all_tools().await.unwrap();
        let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "active_project",
                "claim",
                "create_project",
                "edit_project",
                "forget",
                "get_last_handover",
                "get_project",
                "list_memory",
                "list_projects",
                "lock_context",
                "project_context",
                "provide_choice",
                "recall_context",
                "remember",
                "resolve_blocker",
                "resolve_project",
                "save_handover",
                "search_memory",
                "select_project_for_session",
                "set_workspace_id",
                "tell_session",
                "who_is_working"
            ],
            "{generation:?}"
        );
        for t in &tools {
            assert!(t.output_schema.is_some(), "{} has no output schema", t.name);
            // Rust-width formats (uint64…) make Ajv-based clients (Gemini CLI) warn per field.
            let schemas = serde_json::to_string(&(&t.input_schema, &t.output_schema)).unwrap();
            for odd in ["uint", "int32", "int64", "double", "float"] {
                assert!(!schemas.contains(&format!("\"format\":\"{odd}")), "{} has format {odd}", t.name);
            }
            assert!(t.description.as_deref().is_some_and(|d| !d.is_empty()));
        }
        let info = client.peer_info().and_then(|i| i.server_info.clone()).map(|s| s.name);
        if generation == Gen::Legacy {
            assert_eq!(info.as_deref(), Some("mooring"));
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn project_crud_and_clear_errors() {
    let srv = TestServer::start().await;
    let code = srv.dir.path().join("code/le");
    std::fs::create_dir_all(&code).unwrap();
    let client = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;

    let created =
        ok(&call(&client, "create_project", json!({ "name": "Leader Election", "code_paths": [code] }))
            .await);
    assert_eq!(created["project"]["slug"], "leader-election");
    assert_eq!(created["project"]["code_paths"][0]["state"], "present");

    let listed = ok(&call(&client, "list_projects", json!({})).await);
    let p = &listed["projects"][0];
    assert_eq!(p["slug"], "leader-election");
    for stat in ["decisions", "open_blockers", "context_locks", "memory_total"] {
        assert_eq!(p["stats"][stat], 0, "{stat}");
    }
    assert_eq!(p["last_used"], "never");

    let edited = ok(&call(
        &client,
        "edit_project",
        json!({ "project": "leader-election", "description": "Raft", "status": "paused" }),
    )
    .await);
    assert_eq!(edited["updated_fields"], json!(["description", "status"]));
    let got = ok(&call(&client, "get_project", json!({ "project": "leader-election" })).await);
    assert_eq!(got["project"]["status"], "paused");

    // Refusals are isError results naming the field.
    let dup = err(&call(&client, "create_project", json!({ "name": "Leader Election" })).await);
    assert_eq!(dup["error"]["code"], "CONFLICT");
    assert_eq!(dup["error"]["field"], "slug");
    assert!(dup["error"]["message"].as_str().unwrap().contains("leader-election-2"));
    let rel =
        err(&call(&client, "create_project", json!({ "name": "X", "code_paths": ["relative/dir"] })).await);
    assert_eq!(rel["error"]["field"], "code_paths", "the field create_project takes");
    let typo = err(&call(&client, "get_project", json!({ "projcet": "x" })).await);
    assert_eq!(typo["error"]["code"], "INVALID_ARGUMENTS");
    let wrong_type = err(&call(&client, "get_project", json!({ "project": 42 })).await);
    assert_eq!(wrong_type["error"]["code"], "INVALID_ARGUMENTS");
    let missing = err(&call(&client, "get_project", json!({ "project": "nope" })).await);
    assert_eq!(missing["error"]["code"], "NOT_FOUND");
    let status = err(&call(&client, "list_projects", json!({ "status": "sleeping" })).await);
    assert_eq!(status["error"]["field"], "status");
    let unknown = client
        .call_tool(rmcp::model::CallToolRequestParams::new("no_such_tool"))
        .await
        .expect_err("unknown tools are protocol errors");
    assert!(unknown.to_string().contains("no_such_tool"), "{unknown}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_header_decides_the_project() {
    let srv = TestServer::start().await;
    let a = srv.dir.path().join("a");
    let b = srv.dir.path().join("b/sub");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    srv.project("Alpha", &[&a]);
    srv.project("Beta", &[b.parent().unwrap()]);
    for generation in GENS {
        let ws = format!("file://{}", b.display());
        let client = connect(&srv.url, generation, TestClient::default(), &[("x-workspace-id", &ws)]).await;
        let r = ok(&call(&client, "get_last_handover", json!({})).await);
        assert_eq!(r["project"], "beta", "{generation:?}");
        assert_eq!(r["decided_by"], "workspace");
        assert_eq!(r["handover"], serde_json::Value::Null);
        let levels = ok(&call(&client, "resolve_project", json!({})).await);
        assert_eq!(levels["decided_by"], "workspace");
        assert_eq!(levels["levels"].as_array().unwrap().len(), 9);
        client.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn pending_session_gets_selection_required_with_stats() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    for generation in GENS {
        let client = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let r = call(&client, "save_handover", json!({ "work_done": "x", "next_steps": "y" })).await;
        let body = err(&r);
        assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED", "{generation:?}");
        let projects = body["projects"].as_array().unwrap();
        assert_eq!(projects.len(), 2);
        assert!(projects[0]["stats"]["context_locks"].is_number());
        assert!(projects[0]["last_used"].is_string());
        let recommended = body["recommended"].as_str().unwrap();
        assert_eq!(body["next_call"]["tool"], "select_project_for_session");
        assert_eq!(body["next_call"]["arguments"]["project"], recommended);
        let text = format!("{:?}", r.content);
        assert!(text.contains("select_project_for_session"));
        // Nothing was written.
        let none = mooring_core::memory::handover::last(&*srv.store, recommended).unwrap();
        assert!(none.is_none());
        client.cancel().await.unwrap();
    }
}

/// A workspace no code path covers still points somewhere: a directory named like a
/// project makes it the recommendation over the most recently used one.
#[tokio::test(flavor = "multi_thread")]
async fn the_recommendation_follows_the_session_workspace() {
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    srv.project("Recent Thing", &[]);
    // Timestamps have whole seconds: make billing plainly older.
    srv.store
        .write(|tx| {
            tx.execute("UPDATE projects SET created_at = '2020-01-01T00:00:00Z' WHERE slug = 'billing'", [])?;
            Ok(())
        })
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("billing-v2");
    std::fs::create_dir(&ws).unwrap();
    let ws = ws.display().to_string();
    for generation in GENS {
        let plain = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let body = err(&call(&plain, "save_handover", json!({ "work_done": "x", "next_steps": "y" })).await);
        assert_eq!(body["recommended"], "recent-thing", "recency without a workspace ({generation:?})");
        plain.cancel().await.unwrap();
        let client = connect(&srv.url, generation, TestClient::default(), &[("x-workspace-id", &ws)]).await;
        let body = err(&call(&client, "save_handover", json!({ "work_done": "x", "next_steps": "y" })).await);
        assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED");
        assert_eq!(body["recommended"], "billing", "{generation:?}");
        assert_eq!(body["next_call"]["arguments"]["project"], "billing");
        client.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn pending_session_is_asked_by_elicitation_and_the_call_continues() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    for generation in GENS {
        let handler = TestClient::answering("beta");
        let client = connect(&srv.url, generation, handler.clone(), &[]).await;
        let r =
            ok(&call(&client, "save_handover", json!({ "work_done": "did it", "next_steps": "more" })).await);
        assert_eq!(r["project"], "beta", "{generation:?}");
        assert_eq!(r["decided_by"], "elicitation");
        assert_eq!(r["handover"]["work_done"], "did it");
        assert_eq!(handler.elicitation_count(), 1);
        let schema = handler.last_schema.lock().unwrap().clone().unwrap();
        let options = schema["properties"]["project"]["oneOf"].as_array().unwrap();
        assert_eq!(options.len(), 2);
        assert!(options[0]["title"].as_str().unwrap().contains("context lock"));
        if generation == Gen::Legacy {
            // The choice is remembered for the session: no second question.
            let again = ok(&call(&client, "get_last_handover", json!({})).await);
            assert_eq!(again["project"], "beta");
            assert_eq!(again["decided_by"], "session");
            assert_eq!(handler.elicitation_count(), 1);
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn declined_elicitation_falls_back_to_selection_required() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let client = connect(&srv.url, Gen::Legacy, TestClient::answering("decline"), &[]).await;
    let body = err(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn stateless_client_passes_project_explicitly() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let client = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let saved = ok(&call(
        &client,
        "save_handover",
        json!({ "project": "alpha", "work_done": "w", "next_steps": "n" }),
    )
    .await);
    assert_eq!(saved["decided_by"], "explicit");
    let sel = ok(&call(&client, "select_project_for_session", json!({ "project": "alpha" })).await);
    assert_eq!(sel["remembered"], false);
    assert!(sel["message"].as_str().unwrap().contains("pass \"project\""));
    let bad = err(&call(&client, "get_last_handover", json!({ "project": "nope" })).await);
    assert_eq!(bad["error"]["field"], "project");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn select_returns_the_last_handover() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let first = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let sel = ok(&call(&first, "select_project_for_session", json!({ "project": "alpha" })).await);
    assert_eq!(sel["handover"], serde_json::Value::Null);
    assert!(sel["message"].as_str().unwrap().contains("No handover yet"));
    ok(&call(
        &first,
        "save_handover",
        json!({ "work_done": "built the parser", "next_steps": "write tests", "files": ["src/parse.rs"] }),
    )
    .await);
    first.cancel().await.unwrap();

    for generation in GENS {
        let second = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let sel = ok(&call(&second, "select_project_for_session", json!({ "project": "alpha" })).await);
        assert_eq!(sel["handover"]["work_done"], "built the parser");
        assert_eq!(sel["handover"]["files"], json!(["src/parse.rs"]));
        assert!(sel["message"].as_str().unwrap().contains("write tests"));
        second.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_only_active_project_is_selected_automatically() {
    let srv = TestServer::start().await;
    srv.project("Solo", &[]);
    let client = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let r = ok(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(r["project"], "solo");
    assert_eq!(r["decided_by"], "auto_single");
    assert!(r["message"].as_str().unwrap().contains("automatically"));
    client.cancel().await.unwrap();

    // A hint that points elsewhere stops auto-selection.
    let elsewhere = srv.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let ws = format!("file://{}", elsewhere.display());
    let client = connect(&srv.url, Gen::Legacy, TestClient::default(), &[("x-workspace-id", &ws)]).await;
    let body = err(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn active_project_reads_sets_and_clears() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let client = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let r = ok(&call(&client, "active_project", json!({})).await);
    assert_eq!(r["active_project"], serde_json::Value::Null);
    let r = ok(&call(&client, "active_project", json!({ "project": "beta" })).await);
    assert_eq!(r["active_project"], "beta");
    assert_eq!(r["decided_by"], "session");
    let r = ok(&call(&client, "active_project", json!({ "project": null })).await);
    assert_eq!(r["active_project"], serde_json::Value::Null);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_must_lie_within_declared_roots() {
    let srv = TestServer::start().await;
    let root = srv.dir.path().join("root");
    let inside = root.join("app");
    let outside = srv.dir.path().join("other");
    for d in [&inside, &outside] {
        std::fs::create_dir_all(d).unwrap();
    }
    srv.project("App", &[&inside]);
    srv.project("Other", &[&outside]);
    let handler =
        TestClient { roots: Some(vec![format!("file://{}", root.display())]), ..Default::default() };
    let client = connect(&srv.url, Gen::Legacy, handler, &[]).await;
    let bad = err(&call(
        &client,
        "set_workspace_id",
        json!({ "workspace_uri": format!("file://{}", outside.display()) }),
    )
    .await);
    assert_eq!(bad["error"]["field"], "workspace_uri");
    assert!(bad["error"]["message"].as_str().unwrap().contains("outside the roots"));
    let not_uri =
        err(&call(&client, "set_workspace_id", json!({ "workspace_uri": inside.display().to_string() }))
            .await);
    assert!(not_uri["error"]["message"].as_str().unwrap().contains("file://"));
    let set = ok(&call(
        &client,
        "set_workspace_id",
        json!({ "workspace_uri": format!("file://{}", inside.display()) }),
    )
    .await);
    assert_eq!(set["project"], "app");
    let r = ok(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(r["decided_by"], "workspace");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_keeps_its_project_across_a_server_restart() {
    let mut srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let client = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(&client, "select_project_for_session", json!({ "project": "beta" })).await);
    srv.restart().await;
    let r = ok(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(r["project"], "beta");
    assert_eq!(r["decided_by"], "session");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn foreign_host_and_origin_are_refused() {
    let srv = TestServer::start().await;
    let http = reqwest::Client::new();
    let init = initialize_body("raw");
    let post = |extra: Option<(&'static str, &'static str)>| {
        let mut req = raw_post(&http, &srv.url, init.clone());
        if let Some((k, v)) = extra {
            req = req.header(k, v);
        }
        req.send()
    };
    assert_eq!(post(None).await.unwrap().status(), 200);
    assert_eq!(post(Some(("host", "evil.example"))).await.unwrap().status(), 403);
    assert_eq!(post(Some(("origin", "http://evil.example"))).await.unwrap().status(), 403);
    // Another local dev server's page is not ours: only this server's own origin passes.
    assert_eq!(post(Some(("origin", "http://localhost:3000"))).await.unwrap().status(), 403);
    let own = srv.base();
    let own_origin =
        raw_post(&http, &srv.url, init.clone()).header("origin", own.as_str()).send().await.unwrap();
    assert_eq!(own_origin.status(), 200);
    let health =
        http.get(format!("{}/health", srv.base())).header("host", "evil.example").send().await.unwrap();
    assert_eq!(health.status(), 403);
    // Malformed JSON is a clear client error, not a crash.
    let bad = raw_post(&http, &srv.url, "{not json").send().await.unwrap();
    assert!(bad.status().is_client_error(), "{}", bad.status());
    // A body over the limit is refused.
    // Just over the 1 MiB limit, so the whole body is in flight when the server answers.
    let huge = "x".repeat(1024 * 1024 + 16 * 1024);
    let big = raw_post(&http, &srv.url, huge).send().await;
    // The server answers 413 from Content-Length and stops reading; whether the client sees
    // that status or a closed connection first depends on how much of the body it had sent.
    match big {
        Ok(r) => assert_eq!(r.status(), 413),
        Err(e) => assert!(e.is_request(), "expected a refusal, got {e}"),
    }
    // A fresh client: the refused request's connection is closed by the server, and a
    // pooled client may try to reuse it.
    let fresh = raw_post(&reqwest::Client::new(), &srv.url, init.clone()).send().await.unwrap();
    assert_eq!(fresh.status(), 200, "the server is still up");
}

/// A session captured from Claude Code's transcript (recorded from the real client).
fn capture_recorded_session(srv: &TestServer, slug: &str) {
    let path = srv.dir.path().join("transcript.jsonl");
    std::fs::write(&path, include_str!("../../core/tests/fixtures/claude-code-2.1.330-work.jsonl")).unwrap();
    let turn = mooring_core::capture::Turn {
        cwd: Some("/tmp/rec/work"),
        ..mooring_core::capture::Turn::new(mooring_clients::Client::ClaudeCode, "s-1", &path)
    };
    let done = mooring_core::capture::capture(&*srv.store, slug, &turn).unwrap();
    assert!(matches!(done, mooring_core::capture::Captured::Stored { .. }));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_captured_session_is_the_last_word_until_a_handover_follows_it() {
    use rmcp::model::{ReadResourceRequestParams, ResourceContents};
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    capture_recorded_session(&srv, "alpha");
    for generation in GENS {
        let c = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let sel = ok(&call(&c, "select_project_for_session", json!({ "project": "alpha" })).await);
        let said = sel["message"].as_str().unwrap();
        assert!(said.contains("captured by Mooring") && said.contains("Document the retry policy"), "{said}");
        let last = ok(&call(&c, "get_last_handover", json!({})).await);
        assert_eq!(last["handover"], serde_json::Value::Null);
        assert_eq!(last["captured_session"]["client"], "claude-code");
        let text = last["captured_session"]["content"].as_str().unwrap();
        assert!(text.contains("created retry.py") && text.contains("Add a retry helper"), "{text}");
        assert!(last["message"].as_str().unwrap().contains("captured by Mooring"));
        let read = c
            .read_resource(ReadResourceRequestParams::new("mooring://projects/alpha/handover"))
            .await
            .unwrap();
        let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
            panic!("not text")
        };
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert!(v["captured_session"]["content"].as_str().unwrap().contains("retry.py"), "{v}");
        c.cancel().await.unwrap();
    }
    // A handover the agent writes afterwards is the last word again.
    let c = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    ok(&call(&c, "select_project_for_session", json!({ "project": "alpha" })).await);
    ok(&call(&c, "save_handover", json!({ "work_done": "documented retries", "next_steps": "ship" })).await);
    let last = ok(&call(&c, "get_last_handover", json!({})).await);
    assert_eq!(last["handover"]["work_done"], "documented retries");
    assert_eq!(last["captured_session"], serde_json::Value::Null);
    c.cancel().await.unwrap();
}
