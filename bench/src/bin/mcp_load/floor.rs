//! The floors a server cannot go below on this machine: a trivial HTTP endpoint (hyper,
//! loopback TCP, a fixed JSON-RPC reply) on its own thread, and a trivial stdio process
//! (parse each line, echo its id). Their CPU per call is what transport alone costs, so
//! Mooring's figures can be read against them.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// Serve a fixed JSON-RPC result on its own thread; returns the URL and the thread's id
/// (its CPU time is readable at /proc/TID/stat).
pub(crate) fn trivial_endpoint() -> (String, u32) {
    serve_on_own_thread(|| {
        axum::Router::new().route(
            "/mcp",
            axum::routing::post(|| async { axum::Json(json!({ "jsonrpc": "2.0", "id": 1, "result": {} })) }),
        )
    })
}

/// Serve the router `app` makes on a loopback port (TCP_NODELAY, as Mooring does) from a
/// thread of its own with a single-thread runtime; the `/mcp` URL and the thread's id.
pub(crate) fn serve_on_own_thread(app: impl FnOnce() -> axum::Router + Send + 'static) -> (String, u32) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // SAFETY: gettid has no preconditions.
        tx.send(unsafe { libc::gettid() } as u32).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            use axum::serve::ListenerExt;
            listener.set_nonblocking(true).unwrap();
            let l = tokio::net::TcpListener::from_std(listener).unwrap().tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(l, app()).await.unwrap();
        });
    });
    (url, rx.recv().unwrap())
}

/// `mcp-load --echo`: answer each JSON-RPC line on stdin with an empty result for its id.
pub(crate) fn echo_stdio() {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { return };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else { continue };
        if let Some(id) = msg.get("id") {
            let reply = json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [] } });
            if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    }
}
