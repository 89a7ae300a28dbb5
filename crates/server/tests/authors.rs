//! Who wrote an entry is recorded as it is written, and only the person's own surfaces
//! write as the person: a session-less MCP call is an agent whatever it sends, and an
//! agent retires an agent's entry but never the person's (that waits for the person).

mod common;

use common::{Gen, TestClient, TestServer, call, connect, ok};
use mooring_core::memory::NewEntry;
use mooring_core::model::Author;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn only_the_person_writes_as_the_person_and_an_agent_cannot_retire_their_decision() {
    let srv = TestServer::start().await;
    srv.project("Ledger", &[]);
    // The person's decision, as the CLI, REST and the phone write it.
    let mine = NewEntry {
        kind: "decision".into(),
        content: "Deploys go out on Tuesdays".into(),
        author: Some(Author::Person),
        ..NewEntry::default()
    };
    let mine =
        mooring_core::search::similar::remember(&*srv.store, "ledger", &mine, None, &[]).unwrap().entry;

    // A 2026-07-28 client: no session, nothing to tell who it is but its own name.
    let agent = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let said = ok(&call(
        &agent,
        "remember",
        json!({ "project": "ledger", "kind": "decision", "content": "Agents may deploy on Fridays" }),
    )
    .await);
    assert_eq!(said["entry"]["author"], "agent", "{said}");
    let theirs = said["entry"]["id"].as_i64().unwrap();

    let text = preamble(&agent).await;
    assert!(text.contains(&format!("(#{}, written by the person)", mine.id)), "{text}");
    assert!(text.contains(&format!("(#{theirs}, written by an agent (")), "{text}");
    assert_eq!(text.matches("written by the person").count(), 1, "only the person's entry: {text}");

    // The agent names both as replaced: its own goes, the person's stays until they say.
    let r = ok(&call(
        &agent,
        "remember",
        json!({ "project": "ledger", "kind": "decision", "content": "Deploys go out on Thursdays",
                "supersedes": [mine.id, theirs] }),
    )
    .await);
    let retired: Vec<i64> =
        r["superseded"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert_eq!(retired, [theirs], "{r}");
    assert_eq!(r["awaiting_person"][0]["id"], mine.id, "{r}");
    let waiting = r["waiting"].as_str().unwrap();
    assert!(waiting.contains("mooring memory supersede ledger"), "{waiting}");
    let text = preamble(&agent).await;
    assert!(text.contains("Deploys go out on Tuesdays"), "the person's decision left the preamble: {text}");
    assert!(!text.contains("Agents may deploy on Fridays"), "{text}");
}

async fn preamble(agent: &common::Client) -> String {
    let ctx = ok(&call(agent, "project_context", json!({ "project": "ledger" })).await);
    ctx["text"].as_str().unwrap().to_owned()
}
