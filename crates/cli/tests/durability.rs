//! Every acknowledged write survives `kill -9` of the server: memory recorded through
//! MCP on a running `mooring serve` is all there after the process is killed without a
//! chance to flush anything (SQLite WAL; the performance work must not weaken this).

mod common;

use common::Sandbox;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn acknowledged_writes_survive_kill_9() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Alpha"]).assert().success();
    let mut hub = sb.start_hub();
    let url = hub.url.clone();
    let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    let mut acknowledged = Vec::new();
    for i in 0..200 {
        let args = json!({ "project": "alpha", "kind": "note", "content": format!("durable note {i}") });
        let params =
            CallToolRequestParams::new("remember").with_arguments(args.as_object().cloned().unwrap());
        let r = client.call_tool(params).await.unwrap();
        assert_ne!(r.is_error, Some(true), "{r:?}");
        acknowledged.push(r.structured_content.unwrap()["entry"]["id"].as_i64().unwrap());
    }
    // SIGKILL right after the last acknowledgement: no shutdown, no checkpoint.
    hub.child.kill().unwrap();
    hub.child.wait().unwrap();
    drop(client);
    let listed = sb.json_ok(&["memory", "list", "alpha", "--limit", "200"], None);
    let ids: Vec<i64> =
        listed["entries"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect();
    for id in &acknowledged {
        assert!(ids.contains(id), "acknowledged entry {id} is gone after kill -9");
    }
    assert_eq!(ids.len(), 200);
}
