//! Memory tools over MCP: every tool, its refusals, and the story of issue 4 — one session
//! records, a later one (another client, after a restart) picks it all up.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn a_later_session_gets_everything_within_budget() {
    let mut srv = TestServer::start().await;
    srv.project("Leader Election", &[]);
    srv.project("Monitoring", &[]);
    srv.project("Old Stuff", &[]);
    mooring_core::Registry::new(&srv.store).archive("old-stuff").unwrap();

    let a = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(&a, "select_project_for_session", json!({ "project": "leader-election" })).await);
    let d = ok(&call(
        &a,
        "remember",
        json!({ "kind": "decision", "content": "Use etcd 3.5 with TLS", "tags": ["storage"] }),
    )
    .await);
    assert_eq!(d["decided_by"], "session");
    assert_eq!(d["entry"]["kind"], "decision");
    ok(&call(
        &a,
        "remember",
        json!({ "kind": "decision", "title": "Lease TTL", "content": "15s with 5s renewal" }),
    )
    .await);
    let b =
        ok(&call(&a, "remember", json!({ "kind": "blocker", "content": "Waiting on SRE for TLS certs" }))
            .await);
    assert_eq!(b["entry"]["status"], "open");
    let l1 = ok(&call(
        &a,
        "lock_context",
        json!({ "topic": "api-contract", "content": "GET /leader returns the holder" }),
    )
    .await);
    let l2 = ok(&call(
        &a,
        "lock_context",
        json!({ "topic": "api-contract", "content": "GET /leader returns holder and term" }),
    )
    .await);
    assert_eq!((l1["version"].as_i64(), l2["version"].as_i64()), (Some(1), Some(2)));
    ok(&call(&a, "save_handover", json!({ "work_done": "lease renewal", "next_steps": "wire the sidecar" }))
        .await);
    a.cancel().await.unwrap();

    srv.restart().await;
    let b = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let sel = ok(&call(&b, "select_project_for_session", json!({ "project": "leader-election" })).await);
    assert_eq!(sel["handover"]["next_steps"], "wire the sidecar");
    let ctx = ok(&call(&b, "project_context", json!({ "project": "leader-election" })).await);
    let text = ctx["text"].as_str().unwrap();
    for needle in [
        "Use etcd 3.5",
        "Lease TTL",
        "Waiting on SRE",
        "wire the sidecar",
        "api-contract (v2",
        "**monitoring**",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from\n{text}");
    }
    assert!(!text.contains("old-stuff"));
    assert!(ctx["tokens"].as_u64().unwrap() <= 4000);
    assert_eq!(ctx["budget_tokens"], 4000);
    let recalled = ok(&call(
        &b,
        "recall_context",
        json!({ "project": "leader-election", "topic": "api-contract", "version": 1 }),
    )
    .await);
    assert_eq!(recalled["lock"]["content"], "GET /leader returns the holder");
    let topics = ok(&call(&b, "recall_context", json!({ "project": "leader-election" })).await);
    assert_eq!(topics["topics"][0]["version"], 2);
    b.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn list_resolve_forget_and_search() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let in_alpha = |v: Value| {
        let mut v = v;
        v["project"] = json!("alpha");
        v
    };
    let b = ok(&call(
        &c,
        "remember",
        in_alpha(json!({ "kind": "blocker", "content": "raft election flaps under load" })),
    )
    .await);
    let id = b["entry"]["id"].as_i64().unwrap();
    ok(&call(
        &c,
        "remember",
        in_alpha(json!({ "kind": "note", "content": "raft logs are compacted nightly" })),
    )
    .await);
    ok(&call(&c, "remember", json!({ "project": "beta", "kind": "note", "content": "a raft of changes" }))
        .await);

    let page = ok(&call(&c, "list_memory", in_alpha(json!({ "limit": 1 }))).await);
    assert_eq!(page["entries"].as_array().unwrap().len(), 1);
    let next = page["next_before"].as_i64().unwrap();
    let page2 = ok(&call(&c, "list_memory", in_alpha(json!({ "limit": 1, "before": next }))).await);
    assert_eq!(page2["entries"][0]["id"], id);

    let resolved =
        ok(&call(&c, "resolve_blocker", in_alpha(json!({ "id": id, "resolution": "tuned timeouts" }))).await);
    assert_eq!(resolved["entry"]["status"], "resolved");
    let again = err(&call(&c, "resolve_blocker", in_alpha(json!({ "id": id }))).await);
    assert_eq!(again["error"]["code"], "CONFLICT");

    let hits = ok(&call(&c, "search_memory", in_alpha(json!({ "query": "raft" }))).await);
    assert_eq!(hits["hits"].as_array().unwrap().len(), 2);
    let all = ok(&call(&c, "search_memory", json!({ "query": "raft", "all_projects": true })).await);
    let projects: Vec<&str> =
        all["hits"].as_array().unwrap().iter().map(|h| h["entry"]["project"].as_str().unwrap()).collect();
    assert!(projects.contains(&"beta") && projects.contains(&"alpha"));

    let gone = ok(&call(&c, "forget", in_alpha(json!({ "id": id }))).await);
    assert_eq!(gone["entry"]["id"], id);
    let hits = ok(&call(&c, "search_memory", in_alpha(json!({ "query": "election" }))).await);
    assert_eq!(hits["hits"].as_array().unwrap().len(), 0, "forgotten entries leave search");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_are_tool_errors_naming_the_field() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Old", &[]);
    mooring_core::Registry::new(&srv.store).archive("old").unwrap();
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let cases = [
        ("remember", json!({ "project": "alpha", "kind": "opinion", "content": "x" }), "kind"),
        ("remember", json!({ "project": "alpha", "kind": "note", "content": "   " }), "content"),
        ("remember", json!({ "project": "alpha", "kind": "note", "content": "x".repeat(20_001) }), "content"),
        (
            "remember",
            json!({ "project": "alpha", "kind": "note", "content": "x", "title": "t".repeat(201) }),
            "title",
        ),
        ("remember", json!({ "project": "old", "kind": "note", "content": "x" }), "project"),
        ("remember", json!({ "project": "alpha", "kind": 5, "content": "x" }), "kind"),
        ("resolve_blocker", json!({ "project": "alpha", "id": 999 }), "id"),
        ("forget", json!({ "project": "alpha", "id": 999 }), "id"),
        ("list_memory", json!({ "project": "alpha", "limit": 500 }), "limit"),
        ("search_memory", json!({ "project": "alpha", "query": "?!" }), "query"),
        ("lock_context", json!({ "project": "alpha", "topic": "has space", "content": "x" }), "topic"),
        ("lock_context", json!({ "project": "old", "topic": "t", "content": "x" }), "project"),
        ("recall_context", json!({ "project": "alpha", "topic": "nothing" }), "topic"),
        ("recall_context", json!({ "project": "alpha", "version": 2 }), "topic"),
        ("project_context", json!({ "project": "alpha", "budget_tokens": 10 }), "budget_tokens"),
        ("project_context", json!({ "project": "nope" }), "project"),
    ];
    for (tool, args, field) in cases {
        let body = err(&call(&c, tool, args.clone()).await);
        assert_eq!(body["error"]["field"], field, "{tool} {args}");
    }
    // Reading an archived project still works.
    ok(&call(&c, "list_memory", json!({ "project": "old" })).await);
    c.cancel().await.unwrap();
}

/// Every project-scoped tool says which level decided its project, for both protocol
/// generations (a stateless client needs it on every result to know what to pass next).
#[tokio::test(flavor = "multi_thread")]
async fn every_project_scoped_result_says_what_decided() {
    let srv = TestServer::start().await;
    let code = srv.dir.path().join("code/le");
    std::fs::create_dir_all(&code).unwrap();
    srv.project("Leader Election", &[&code]);
    srv.project("Monitoring", &[]);
    let ws = code.display().to_string();
    for generation in [Gen::Legacy, Gen::Modern] {
        let c = connect(&srv.url, generation, TestClient::default(), &[("x-workspace-id", &ws)]).await;
        let blocker =
            ok(&call(&c, "remember", json!({ "kind": "blocker", "content": "Waiting on certs" })).await);
        let note = ok(&call(&c, "remember", json!({ "kind": "note", "content": "scratch" })).await);
        let calls = [
            ("save_handover", json!({ "work_done": "x", "next_steps": "y" })),
            ("get_last_handover", json!({})),
            ("remember", json!({ "kind": "decision", "content": "Use raft" })),
            ("list_memory", json!({})),
            ("resolve_blocker", json!({ "id": blocker["entry"]["id"] })),
            ("forget", json!({ "id": note["entry"]["id"] })),
            ("search_memory", json!({ "query": "raft" })),
            ("lock_context", json!({ "topic": "api", "content": "GET /leader" })),
            ("recall_context", json!({ "topic": "api" })),
            ("project_context", json!({})),
            ("who_is_working", json!({})),
            ("claim", json!({ "what": "src", "kind": "dir" })),
            ("tell_session", json!({ "to": "0000", "text": "hi" })),
        ];
        for tool in mooring_server::mcp::catalog::project_scoped() {
            let (_, args) =
                calls.iter().find(|(n, _)| *n == tool).unwrap_or_else(|| panic!("no call for {tool}"));
            let result = call(&c, tool, args.clone()).await;
            if ["claim", "tell_session"].contains(&tool) {
                // They act as a live session, which a plain HTTP client is not; the project
                // was decided before they said so.
                let out = err(&result);
                let said = out["error"]["message"].as_str().unwrap_or_default();
                assert!(said.contains("session of 'leader-election'"), "{generation:?} {tool}: {out}");
                continue;
            }
            let out = ok(&result);
            assert_eq!(out["decided_by"], "workspace", "{generation:?} {tool}: {out}");
            assert_eq!(out["project"], "leader-election", "{generation:?} {tool}: {out}");
        }
        c.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn who_is_working_shows_the_live_sessions_and_what_they_hold_never_their_keys() {
    use mooring_core::projects::claims::{Kind, Session, claim};
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    let a = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let none = ok(&call(&a, "who_is_working", json!({ "project": "billing" })).await);
    assert_eq!((none["sessions"].as_array().unwrap().len(), none["claims"].as_str()), (0, Some("ask")));
    // A Codex session's hook claimed a file before writing it.
    let codex = Session {
        key: "codex:secret-key-hash",
        client: "codex",
        checkout: "/w/billing",
        branch: Some("main"),
        pid: None,
        request: Some("split invoices"),
    };
    claim(&srv.store, "billing", &codex, Kind::File, "src/billing.rs", None).unwrap();
    let now = ok(&call(&a, "who_is_working", json!({ "project": "billing" })).await);
    let s = &now["sessions"][0];
    assert_eq!(
        (s["client"].as_str(), s["request"].as_str()),
        (Some("codex"), Some("split invoices")),
        "{now}"
    );
    assert_eq!(s["claims"], json!(["src/billing.rs"]));
    assert!(!now.to_string().contains("secret-key-hash"), "a session's key is never shown: {now}");
    assert_eq!(now["message"], "One agent session is working in 'billing' now.");
}
