//! The official memory server, run with the same workloads for the side-by-side rows.

use super::*;

/// The official memory server's nearest tools for the same workloads.
fn peer_workload(name: &str, i: usize) -> (&'static str, Value) {
    match name {
        "remember" => (
            "add_observations",
            json!({ "observations": [{ "entityName": "e0", "contents": [format!("load note {i}")] }] }),
        ),
        "list_memory" => ("read_graph", json!({})),
        "search_memory" => ("search_nodes", json!({ "query": "zeppelin" })),
        _ => ("read_graph", json!({})),
    }
}

/// `@modelcontextprotocol/server-memory` (pinned in the test-tools cache) over stdio, with
/// 1,000 entities (one observation each, "zeppelin" in 1 %) and the same workloads.
pub(crate) fn peer_rows(secs: f64, entries: usize) -> Option<(Vec<Row>, f64)> {
    let dir = std::env::var_os("MOORING_TEST_TOOLS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/mooring-tests")))?;
    let bin = dir.join("peer/node_modules/.bin/mcp-server-memory");
    if !bin.exists() {
        eprintln!("no {}: run scripts/test-tools.sh for the side-by-side run", bin.display());
        return None;
    }
    let tmp = tempfile::tempdir().ok()?;
    let start = || {
        let mut cmd = Command::new(&bin);
        cmd.env("MEMORY_FILE_PATH", tmp.path().join("memory.jsonl"));
        StdioSession::start(cmd)
    };
    let mut seed = start();
    for chunk in (0..entries).collect::<Vec<_>>().chunks(100) {
        let entities: Vec<Value> = chunk
            .iter()
            .map(|i| {
                let zep = if i % 100 == 0 { "; zeppelin" } else { "" };
                json!({ "name": format!("e{i}"), "entityType": "note",
                        "observations": [format!("Entry {i}: renewals retry twice with a 10 s TTL{zep}.")] })
            })
            .collect();
        seed.request(
            "tools/call",
            json!({ "name": "create_entities", "arguments": { "entities": entities } }),
        )
        .ok()?;
    }
    drop(seed);
    let mut rows = Vec::new();
    let mut peak = 0.0f64;
    for name in ["remember", "list_memory", "search_memory"] {
        let s = start();
        let pid = s.child.id();
        let row = run_stdio_with(s, pid, "server-memory (stdio)", name, secs, peer_workload);
        peak = peak.max(row.peak_rss_mb.unwrap_or(0.0));
        rows.push(row);
    }
    Some((rows, peak))
}
