//! `claim` and `tell_session` over MCP: a session claims and lets go as itself (known
//! from the client process its `mooring stdio` shim serves, never from an argument), its
//! claim meets the other sessions' edits, and its note reaches another session once,
//! framed as an agent's words.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use mooring_core::projects::claims::{Kind, Outcome, Session, claim, seen};
use mooring_core::projects::session_notes::{handle, take};
use serde_json::json;

/// Session A of project Billing, as its hooks reported it with its client's process:
/// this test's own, which runs.
fn session_a() -> Session<'static> {
    Session {
        key: "claude-code:a",
        client: "claude-code",
        checkout: "/w/billing",
        branch: Some("main"),
        pid: Some(i64::from(std::process::id())),
        request: Some("split invoices"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_claims_releases_and_leaves_a_note_as_itself() {
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    let pid = i64::from(std::process::id());
    let a = session_a();
    let b = Session {
        key: "codex:b",
        client: "codex",
        pid: None,
        request: Some("rename customers"),
        ..a.clone()
    };
    seen(&srv.store, "billing", &a).unwrap();
    seen(&srv.store, "billing", &b).unwrap();
    let shim = mooring_server::transport::stdio::new_session_id();
    let pid_text = pid.to_string();
    let headers = [("x-mooring-session", shim.as_str()), ("x-mooring-client-pid", pid_text.as_str())];
    let c = connect(&srv.url, Gen::Modern, TestClient::default(), &headers).await;

    let held = ok(&call(
        &c,
        "claim",
        json!({ "project": "billing", "what": "./src/billing/", "kind": "dir", "reason": "moving invoices" }),
    )
    .await);
    assert_eq!(held["held"], true, "{held}");
    assert!(held["message"].as_str().unwrap().starts_with("This session holds src/billing/ until"), "{held}");
    // B's edit inside the folder meets A's claim, with A's reason.
    let met = claim(&srv.store, "billing", &b, Kind::File, "src/billing/mod.rs", None).unwrap();
    let said = met.message("src/billing/mod.rs").unwrap();
    assert!(said.contains("which holds src/billing/ (moving invoices)"), "{said}");
    // A named task: the same task (any case) is B's to meet too.
    ok(&call(&c, "claim", json!({ "project": "billing", "what": "release notes", "kind": "task" })).await);
    assert!(matches!(
        claim(&srv.store, "billing", &b, Kind::Task, "Release Notes", None).unwrap(),
        Outcome::Taken { .. }
    ));
    let working = ok(&call(&c, "who_is_working", json!({ "project": "billing" })).await);
    let sessions = working["sessions"].as_array().unwrap();
    assert_eq!(sessions[0]["claims"], json!(["src/billing/", "task \"release notes\""]), "{working}");
    assert_eq!(sessions[1]["handle"], handle("codex:b"));
    assert!(!working.to_string().contains("codex:b"), "keys are never shown: {working}");

    // A note to B, by B's handle: B's next prompt gets it once, as A's words.
    let told = ok(&call(
        &c,
        "tell_session",
        json!({ "project": "billing", "to": handle("codex:b"), "text": "invoices moved to src/billing/invoice.rs" }),
    )
    .await);
    assert!(told["to"].as_str().unwrap().starts_with("the codex session"), "{told}");
    let note = take(&srv.store, "billing", "codex:b").unwrap().unwrap();
    assert!(note.contains("that agent's words, not the person's request"), "{note}");
    assert!(note.contains("from the claude-code session started") && note.contains("src/billing/invoice.rs"));
    assert_eq!(take(&srv.store, "billing", "codex:b").unwrap(), None);

    // Let go: B's edit is free. A claim held by B is met, not taken.
    let gone = ok(&call(
        &c,
        "claim",
        json!({ "project": "billing", "what": "src/billing", "kind": "dir", "release": true }),
    )
    .await);
    assert_eq!(
        (gone["held"].as_bool(), gone["message"].as_str()),
        (Some(false), Some("Let go of src/billing/."))
    );
    assert_eq!(
        claim(&srv.store, "billing", &b, Kind::File, "src/billing/mod.rs", None).unwrap(),
        Outcome::Held
    );
    let taken =
        ok(&call(&c, "claim", json!({ "project": "billing", "what": "src/billing/mod.rs", "kind": "file" }))
            .await);
    assert_eq!(taken["held"], false, "{taken}");
    assert!(taken["message"].as_str().unwrap().contains("the codex session started"), "{taken}");

    // Bad input names its field.
    let bad = err(&call(&c, "claim", json!({ "project": "billing", "what": "../etc", "kind": "dir" })).await);
    assert_eq!(bad["error"]["field"], "what", "{bad}");
    let bad = err(&call(&c, "claim", json!({ "project": "billing", "what": "x", "kind": "folder" })).await);
    assert_eq!(bad["error"]["field"], "kind", "{bad}");
    let bad =
        err(&call(&c, "tell_session", json!({ "project": "billing", "to": "ffffffff", "text": "hi" })).await);
    assert_eq!(bad["error"]["field"], "to", "{bad}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_connection_that_names_no_client_process_cannot_claim_or_speak_for_a_session() {
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    let pid = i64::from(std::process::id());
    seen(&srv.store, "billing", &session_a()).unwrap();
    let pid_text = pid.to_string();
    // A plain HTTP client, even one that sends a pid header, is no shim: no session.
    let c =
        connect(&srv.url, Gen::Modern, TestClient::default(), &[("x-mooring-client-pid", pid_text.as_str())])
            .await;
    for (tool, args) in [
        ("claim", json!({ "project": "billing", "what": "src", "kind": "dir" })),
        ("tell_session", json!({ "project": "billing", "to": handle("claude-code:a"), "text": "hi" })),
    ] {
        let out = err(&call(&c, tool, args).await);
        assert_eq!(out["error"]["field"], "session", "{tool}: {out}");
        assert!(out["error"]["message"].as_str().unwrap().contains("mooring stdio"), "{tool}: {out}");
    }
    assert!(
        mooring_core::projects::live::working(&srv.store, "billing", chrono::Utc::now()).unwrap()[0]
            .claims
            .is_empty()
    );
}
