//! Sessions cannot be taken over: no output names the session that wrote something (only
//! the client, by name), and an identity a client makes up is no identity at all, so
//! another client can neither learn a session's id nor re-point its project.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, ok};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn no_output_names_the_writer_session_and_made_up_ids_do_not_count() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let victim_id = mooring_core::guard::secret::random_id(mooring_core::guard::secret::SHIM_SESSION);
    let victim =
        connect(&srv.url, Gen::Legacy, TestClient::default(), &[("x-mooring-session", &victim_id)]).await;
    ok(&call(&victim, "select_project_for_session", json!({ "project": "alpha" })).await);
    ok(&call(&victim, "remember", json!({ "kind": "decision", "content": "Use etcd for leases" })).await);
    ok(&call(&victim, "save_handover", json!({ "work_done": "wired etcd", "next_steps": "load test" }))
        .await);
    ok(&call(&victim, "lock_context", json!({ "topic": "storage", "content": "etcd 3.5" })).await);

    // Another client reads everything there is to read about that work.
    let other = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let mut seen = String::new();
    for (tool, args) in [
        ("list_memory", json!({ "project": "alpha" })),
        ("search_memory", json!({ "query": "etcd", "all_projects": true })),
        ("get_last_handover", json!({ "project": "alpha" })),
        ("recall_context", json!({ "project": "alpha", "topic": "storage" })),
        ("project_context", json!({ "project": "alpha" })),
        ("list_projects", json!({})),
        ("get_project", json!({ "project": "alpha" })),
    ] {
        let out = ok(&call(&other, tool, args).await);
        seen.push_str(&out.to_string());
    }
    for (name, secret) in [("the id", victim_id.as_str()), ("its random part", &victim_id[4..])] {
        assert!(!seen.contains(secret), "{name} of the writing session leaked");
    }
    assert!(seen.contains("\"written_by\":\"mooring-test\""), "the client is named instead: {seen}");

    // Weak or made-up identities are ignored: a client cannot claim "victim" or a short id.
    for made_up in ["victim", "msh_1234", "stdio-1"] {
        let intruder =
            connect(&srv.url, Gen::Modern, TestClient::default(), &[("x-mooring-session", made_up)]).await;
        let r = ok(&call(&intruder, "resolve_project", json!({})).await);
        assert!(r["session_id"].is_null(), "{made_up} was taken as an identity: {r}");
        let e = call(&intruder, "active_project", json!({ "project": "beta" })).await;
        assert_eq!(e.is_error, Some(true), "{made_up} could set a project");
    }
    // The victim's project is untouched.
    let mine = ok(&call(&victim, "active_project", json!({})).await);
    assert_eq!(mine["active_project"], "alpha");
}
