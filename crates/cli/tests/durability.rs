//! Every acknowledged write survives `kill -9` of the server: memory recorded through
//! MCP on a running `mooring serve` is all there after the process is killed without a
//! chance to flush anything (SQLite WAL; the performance work must not weaken this).

mod common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use common::Sandbox;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn acknowledged_writes_survive_kill_9() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Alpha"]).assert().success();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mooring"))
        .arg("--data-dir")
        .arg(&sb.data)
        .args(["serve", "--port", "0", "--json"])
        .env("HOME", &sb.home)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.trim_end().ends_with('}') {
        assert!(out.read_line(&mut text).unwrap() > 0, "serve exited: {text}");
    }
    let url = serde_json::from_str::<Value>(&text).unwrap()["url"].as_str().unwrap().to_owned();
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
    child.kill().unwrap();
    child.wait().unwrap();
    drop(client);
    let listed = sb.json_ok(&["memory", "list", "alpha", "--limit", "200"], None);
    let ids: Vec<i64> =
        listed["entries"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect();
    for id in &acknowledged {
        assert!(ids.contains(id), "acknowledged entry {id} is gone after kill -9");
    }
    assert_eq!(ids.len(), 200);
}
