//! The real server stack with the MCP conformance suite's fixtures, for
//! `tests/e2e/conformance.sh` only: `conformance-server DATA_DIR` prints
//! `{"url": …}` once listening and serves until killed.

use std::sync::Arc;

use mooring_server::{Headless, ServerConfig, start};

#[tokio::main]
async fn main() -> Result<(), String> {
    let data_dir = std::env::args().nth(1).ok_or("usage: conformance-server DATA_DIR")?;
    let mut config = ServerConfig::new(data_dir);
    config.port = 0;
    config.conformance_fixtures = true;
    let server = start(config, Arc::new(Headless)).await.map_err(|e| e.to_string())?;
    println!("{}", serde_json::json!({ "url": server.url }));
    let _ = tokio::signal::ctrl_c().await;
    server.shutdown().await;
    Ok(())
}
