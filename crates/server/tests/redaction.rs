//! A secret pasted into memory, a handover, a context lock or a question's notes never
//! reaches the database: it comes back as `[redacted:<kind>]` and the agent is told.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, ok};
use mooring_core::choice::{Broker, Submission};
use serde_json::json;

fn aws_key() -> String {
    format!("{}{}", "AKIA", "QZ7R2XK4M6P5T3VW")
}

fn github_token() -> String {
    format!("{}{}", "ghp_", "aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5")
}

#[tokio::test(flavor = "multi_thread")]
async fn pasted_secrets_are_redacted_everywhere_and_the_agent_is_told() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    for generation in [Gen::Legacy, Gen::Modern] {
        let c = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let text = format!("Deploy with key {} and token {}", aws_key(), github_token());
        let r =
            ok(&call(&c, "remember", json!({ "project": "alpha", "kind": "decision", "content": text }))
                .await);
        let e = &r["entry"];
        assert_eq!(
            e["content"],
            "Deploy with key [redacted:aws-access-token] and token [redacted:github-pat]"
        );
        assert_eq!(e["redacted"]["count"], 2);
        assert!(e["redacted"]["message"].as_str().unwrap().contains("never kept"), "{r}");

        let h = ok(&call(
            &c,
            "save_handover",
            json!({ "project": "alpha", "work_done": format!("rotated {}", github_token()), "next_steps": "ship" }),
        )
        .await);
        let h = h.to_string();
        assert!(h.contains("rotated [redacted:github-pat]") && !h.contains(&github_token()), "{h}");
        assert!(h.contains("\"kinds\":[\"github-pat\"]"), "the agent is told: {h}");

        let l = ok(&call(
            &c,
            "lock_context",
            json!({ "project": "alpha", "topic": "deploy", "content": format!("AWS_SECRET_ACCESS_KEY={}", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") }),
        )
        .await);
        let l = l.to_string();
        assert!(l.contains("[redacted:") && !l.contains("wJalrXUtnFEMI"), "{l}");
        c.cancel().await.unwrap();
    }
    // Nothing verbatim anywhere in the database file.
    let db = std::fs::read(srv.dir.path().join("mooring.db")).unwrap();
    let wal = std::fs::read(srv.dir.path().join("mooring.db-wal")).unwrap_or_default();
    for secret in [aws_key(), github_token(), "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".to_owned()] {
        let found = |hay: &[u8]| hay.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(!found(&db) && !found(&wal), "a secret reached the database file");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_answer_keeps_no_secret_from_the_notes() {
    let srv = TestServer::start().await;
    let request = serde_json::from_value(json!({
        "title": "Which key?", "prompt": "Pick one.", "selection_mode": "hybrid",
        "options": [ { "id": "a", "label": "A", "recommended": true } ]
    }))
    .unwrap();
    let checked = mooring_core::choice::check(request).unwrap();
    let broker = Broker::new(&srv.store);
    let i = broker.open(checked, None, mooring_core::choice::TimeoutAction::Cancel).unwrap();
    let sub = Submission {
        selected_ids: Some(vec!["a".into()]),
        custom_input: Some(format!("use {}", github_token())),
        global_annotation: Some(format!("old key was {}", aws_key())),
        ..Default::default()
    };
    let r = broker.submit(&i.id, &sub, mooring_core::model::Surface::Web).unwrap();
    let stored = serde_json::to_string(&broker.get(&i.id).unwrap().response).unwrap();
    assert!(!stored.contains(&github_token()) && !stored.contains(&aws_key()), "{stored}");
    assert!(r.warnings.iter().any(|w| w.contains("secret")), "{:?}", r.warnings);
}
