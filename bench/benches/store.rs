//! What a tool call costs below MCP: the store operation itself, and encoding its result
//! the way a tool result goes out (text plus structured content, in one JSON-RPC
//! message). `mcp-load`'s CPU per call minus these and minus its transport floor is what
//! the protocol layer and the project gate add.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_core::Store;
use mooring_core::memory::{self, ListQuery};
mod common;

use rmcp::model::{CallToolResult, JsonRpcResponse, NumberOrString, RequestId, ServerResult};

fn store_ops(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    mooring_bench::seed_memory(&data, 1_000);
    let store = Store::open_in(&data).unwrap();
    common::memory_ops(c, "store", &store);
    let query = ListQuery { limit: Some(10), ..Default::default() };

    let page = memory::list(&store, "le", &query).unwrap();
    c.bench_function("encode list_memory result", |b| {
        b.iter(|| {
            let result = CallToolResult::structured(serde_json::to_value(black_box(&page)).unwrap());
            let message = JsonRpcResponse {
                jsonrpc: Default::default(),
                id: RequestId::from(NumberOrString::Number(7)),
                result: ServerResult::CallToolResult(result),
            };
            black_box(serde_json::to_vec(&message).unwrap())
        })
    });
}

criterion_group!(benches, store_ops);
criterion_main!(benches);
