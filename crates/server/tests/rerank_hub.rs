//! Re-ranking through the hub (the `rerank` setting): switched on, the hub's indexer
//! encodes what was remembered, and `search_memory` over MCP then keeps the fusion's first
//! hit and scores the rest by the sentence encoder, with no note left; switched off, the
//! search is the fusion's again. Needs both models the test tools install.

mod common;

use std::time::{Duration, Instant};

use common::{Gen, TestClient, TestServer, call, connect, ok};
use mooring_core::store::backend::MemoryBackend as _;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn switched_on_the_hub_encodes_memory_and_searches_come_back_reranked() {
    let srv = TestServer::start().await;
    let slug = srv.project("Alpha", &[]);
    mooring_core::projects::lifecycle::set_setting(&srv.store, "rerank", "1").unwrap();
    let client = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let texts = [
        "Renewal cadence: every 5 s, TTL 15 s",
        "The leader renews its lease in etcd; a missed renewal steps it down",
        "Lease renewal steps for the office: sign the form, pay the deposit",
        "How we elect a leader: the first node to take the lease",
        "We renew certificates with certbot every 60 days",
    ];
    for t in texts {
        ok(&call(&client, "remember", json!({ "project": slug, "kind": "note", "content": t })).await);
    }
    let until = Instant::now() + Duration::from_secs(60);
    while srv.store.rerank_waiting(mooring_core::search::rerank::MODEL).unwrap() != Some(0) {
        assert!(Instant::now() < until, "the hub did not encode memory for re-ranking");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let ask = json!({ "project": slug, "query": "how often is the lease renewed?", "limit": 5 });
    let on = ok(&call(&client, "search_memory", ask.clone()).await);
    assert!(on["note"].is_null(), "every entry encoded: {on}");
    let scores: Vec<f64> =
        on["hits"].as_array().unwrap().iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");

    mooring_core::projects::lifecycle::set_setting(&srv.store, "rerank", "0").unwrap();
    let off = ok(&call(&client, "search_memory", ask).await);
    assert_eq!(
        on["hits"][0]["entry"]["id"], off["hits"][0]["entry"]["id"],
        "the fusion's first hit stays first"
    );
    // Re-ranked hits carry the encoder's cosines, not the fusion's scores. The order
    // itself is checked in core's `rerank` tests.
    let second = |v: &serde_json::Value| v["hits"][1]["score"].as_f64().unwrap();
    assert!(second(&on) > 0.1 && second(&on) <= 1.0, "a cosine: {on}");
    assert!((second(&on) - second(&off)).abs() > 1e-6, "{on} / {off}");
    client.cancel().await.unwrap();
}
