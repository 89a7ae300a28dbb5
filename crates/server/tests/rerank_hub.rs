//! Re-ranking through the hub (the `rerank` setting): switched on, the hub's indexer
//! encodes what was remembered, and `search_memory` over MCP then fuses the sentence
//! encoder's meaning half, with no note left; switched off, the static model's again. Needs both models the test tools install.

mod common;

use std::time::{Duration, Instant};

use common::{Gen, TestClient, TestServer, call, connect, ok};
use mooring_core::store::backend::MemoryUpkeep as _;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn switched_on_the_hub_encodes_memory_and_searches_come_back_reranked() {
    let srv = TestServer::start().await;
    let slug = srv.project("Alpha", &[]);
    mooring_core::settings::Setting::Rerank.set(&srv.store, "1").unwrap();
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

    mooring_core::settings::Setting::Rerank.set(&srv.store, "0").unwrap();
    let off = ok(&call(&client, "search_memory", ask).await);
    // On, the encoder scored the meaning half of the fusion: the scores are not the
    // static model's. Which entries it lifts is checked in core's `rerank` tests.
    let scored = |v: &serde_json::Value| -> Vec<(i64, f64)> {
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["entry"]["id"].as_i64().unwrap(), h["score"].as_f64().unwrap()))
            .collect()
    };
    assert_ne!(scored(&on), scored(&off), "{on} / {off}");
    client.cancel().await.unwrap();
}
