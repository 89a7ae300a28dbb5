//! The whole `tools/list` as a client receives it — names, descriptions, input and output
//! schemas, annotations, in order — compared with the snapshot in `snapshots/`. A change to
//! any tool fails here until the snapshot is updated on purpose (`cargo insta review`, or
//! `INSTA_UPDATE=always cargo test -p mooring-server --test tools_snapshot` and read the
//! diff), so a schema change is visible in review.

mod common;

use common::{Gen, TestClient, TestServer, connect};

#[tokio::test(flavor = "multi_thread")]
async fn the_tool_list_clients_receive_matches_its_snapshot_on_both_generations() {
    let srv = TestServer::start().await;
    let mut lists = Vec::new();
    for generation in [Gen::Legacy, Gen::Modern] {
        let client = connect(&srv.url, generation, TestClient::default(), &[]).await;
        let tools = client.list_all_tools().await.unwrap();
        lists.push(serde_json::to_value(&tools).unwrap());
        client.cancel().await.unwrap();
    }
    assert_eq!(lists[0], lists[1], "both protocol generations list the same tools");
    insta::assert_json_snapshot!("tools_list", lists[0]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tool_list_a_host_that_renders_apps_receives_matches_its_snapshot() {
    let srv = TestServer::start().await;
    let host = connect(&srv.url, Gen::Modern, TestClient { apps: true, ..Default::default() }, &[]).await;
    let tools = host.list_all_tools().await.unwrap();
    host.cancel().await.unwrap();
    insta::assert_json_snapshot!("tools_list_apps", serde_json::to_value(&tools).unwrap());
}
