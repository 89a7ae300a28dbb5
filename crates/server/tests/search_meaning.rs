//! Search by meaning through the hub: the hub's indexer gives what an agent remembers
//! its vector; `search_memory` (MCP, both generations) and `GET /search` find a question
//! that shares no word with its answer in modes hybrid and semantic, not in keyword;
//! forgetting takes the vector away; an agent's natural question finds a decision that
//! shares one word with it, each hit saying which ranking found it. Needs the model the
//! test tools install.

mod common;

use std::time::{Duration, Instant};

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use mooring_core::store::backend::MemoryUpkeep as _;
use serde_json::{Value, json};

const ANSWER: &str = "Renewal cadence: every 5 s, TTL 15 s";
const QUESTION: &str = "How often do we refresh the leader's lease?";
const OTHERS: &[&str] = &[
    "The dashboard is plain ES modules with no bundler",
    "Invoices are rendered to PDF with the customer's billing address",
    "CI runs on two cores; keep the whole run under forty minutes",
    "Screenshots in the docs are refreshed by the page tests",
    "The team database is PostgreSQL 15 on a loopback port in tests",
    "Translations live in one JSON file per locale",
];

/// Wait for the hub's indexer to catch up.
async fn indexed(srv: &TestServer) {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let p = srv.store.vector_progress(Some("alpha")).unwrap().unwrap();
        if p.waiting == 0 && p.stored > 0 {
            return;
        }
        assert!(Instant::now() < until, "the hub did not index memory: {p:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn rank(found: &Value) -> Option<usize> {
    found["hits"].as_array().unwrap().iter().position(|h| h["entry"]["content"] == ANSWER)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_in_other_words_finds_its_answer_over_mcp_and_rest_until_forgotten() {
    mooring_core::search::semantic::model().unwrap_or_else(|a| panic!("{a:?}: run scripts/fetch-model.sh"));
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let mut answer_id = 0;
    for text in std::iter::once(&ANSWER).chain(OTHERS) {
        let e =
            ok(&call(&c, "remember", json!({ "project": "alpha", "kind": "decision", "content": text }))
                .await);
        if *text == ANSWER {
            answer_id = e["entry"]["id"].as_i64().unwrap();
        }
    }
    indexed(&srv).await;

    for generation in [Gen::Legacy, Gen::Modern] {
        let c = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let search = |mode: Option<&str>| {
            let mut args = json!({ "project": "alpha", "query": QUESTION });
            if let Some(m) = mode {
                args["mode"] = json!(m);
            }
            args
        };
        let hybrid = ok(&call(&c, "search_memory", search(None)).await);
        assert_eq!(hybrid["mode"], "hybrid");
        assert!(rank(&hybrid).is_some_and(|r| r < 5), "{hybrid}");
        let semantic = ok(&call(&c, "search_memory", search(Some("semantic"))).await);
        assert_eq!(semantic["mode"], "semantic");
        assert!(rank(&semantic).is_some_and(|r| r < 5), "{semantic}");
        let keyword = ok(&call(&c, "search_memory", search(Some("keyword"))).await);
        assert_eq!(rank(&keyword), None, "no shared word: {keyword}");
        let bad = err(&call(&c, "search_memory", search(Some("fuzzy"))).await);
        assert_eq!(bad["error"]["field"], "mode", "{bad}");
        c.cancel().await.unwrap();
    }

    let token = mooring_server::access::token::load_or_create(srv.dir.path()).unwrap();
    let http = reqwest::Client::new();
    let get = |query: String| {
        let req = http.get(format!("{}/api/v1/search?{query}", srv.base())).bearer_auth(&token);
        async move {
            let resp = req.send().await.unwrap();
            (resp.status().as_u16(), resp.json::<Value>().await.unwrap())
        }
    };
    let q = QUESTION.replace(' ', "+").replace('?', "%3F").replace('\'', "%27");
    let (status, found) = get(format!("q={q}&project=alpha")).await;
    assert_eq!(status, 200);
    assert_eq!(found["mode"], "hybrid");
    assert!(rank(&found).is_some_and(|r| r < 5), "{found}");
    let (status, bad) = get(format!("q={q}&mode=fuzzy")).await;
    assert_eq!(status, 422, "{bad}");
    assert_eq!(bad["error"]["field"], "mode", "{bad}");

    ok(&call(&c, "forget", json!({ "project": "alpha", "id": answer_id })).await);
    let vectors: i64 = srv
        .store
        .read(|conn| {
            Ok(conn.query_row(
                "SELECT count(*) FROM memory_vectors WHERE memory_id = ?1",
                [answer_id],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert_eq!(vectors, 0, "forgotten memory leaves no vector");
    let after =
        ok(&call(&c, "search_memory", json!({ "project": "alpha", "query": QUESTION, "mode": "semantic" }))
            .await);
    assert_eq!(rank(&after), None, "{after}");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agents_natural_question_finds_a_decision_sharing_one_word_with_it_and_says_who_found_it() {
    mooring_core::search::semantic::model().unwrap_or_else(|a| panic!("{a:?}: run scripts/fetch-model.sh"));
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let c = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let decision = "The ledger stays on Postgres until the audit is over";
    for text in std::iter::once(&decision).chain(OTHERS) {
        ok(&call(&c, "remember", json!({ "project": "alpha", "kind": "decision", "content": text })).await);
    }
    indexed(&srv).await;
    // Of its words only "ledger" is in the decision; the rest are stop words and words
    // no entry holds, so no entry holds them all.
    let question = "What did we end up choosing for the ledger storage?";
    let position = |found: &Value| {
        found["hits"].as_array().unwrap().iter().position(|h| h["entry"]["content"] == decision)
    };
    let keyword =
        ok(&call(&c, "search_memory", json!({ "project": "alpha", "query": question, "mode": "keyword" }))
            .await);
    assert_eq!(position(&keyword), Some(0), "{keyword}");
    assert_eq!(keyword["hits"][0]["found_by"], json!(["keyword"]), "{keyword}");
    let hybrid = ok(&call(&c, "search_memory", json!({ "project": "alpha", "query": question })).await);
    // The fusion's keyword half is every entry holding any of the words, by BM25: the
    // one shared rare word and meaning both find it, first, and the hit says so.
    assert_eq!(position(&hybrid), Some(0), "{hybrid}");
    assert_eq!(hybrid["hits"][0]["found_by"], json!(["keyword", "semantic"]), "{hybrid}");
    // A question of only common words matches nothing by keyword, and says why.
    let vague = ok(&call(
        &c,
        "search_memory",
        json!({ "project": "alpha", "query": "what did we do about it?", "mode": "keyword" }),
    )
    .await);
    assert_eq!(vague["hits"], json!([]));
    assert!(vague["note"].as_str().unwrap().contains("only common words"), "{vague}");
    c.cancel().await.unwrap();
}
