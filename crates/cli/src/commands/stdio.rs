//! `mooring stdio`: bridge to a running hub, or serve MCP here on the same database.

use std::sync::Arc;

use mooring_core::paths;
use mooring_server::transport::stdio::{
    ShimHints, bridge, find_hub, hub_headers, new_session_id, serve_standalone,
};

use super::Ctx;
use super::resolve::ENV_PROJECT;
use crate::cli::StdioArgs;
use crate::output::Failure;

/// Run until the client closes stdin. Only protocol messages go to stdout.
pub fn run(ctx: &Ctx, args: StdioArgs) -> Result<(), Failure> {
    let workspace = args
        .workspace_id
        .map(|w| paths::normalize("workspace_id", &w, Some(&ctx.cwd)).map(|n| n.as_str().to_owned()))
        .transpose()?;
    let hints = ShimHints {
        workspace,
        cwd: Some(ctx.cwd.display().to_string()),
        env_project: std::env::var(ENV_PROJECT).ok().filter(|v| !v.trim().is_empty()),
        client_pid: mooring_core::projects::live::client_pid(),
    };
    let session_id = new_session_id();
    ctx.single_thread_runtime()?.block_on(async {
        #[cfg(unix)]
        if let Some(outcome) =
            mooring_server::transport::hub_socket::bridge(&ctx.data_dir, &session_id, &hints).await
        {
            return outcome.map_err(|e| Failure::from(mooring_core::Error::storage(e)));
        }
        let outcome = match find_hub(&ctx.data_dir).await {
            Some(url) => {
                tracing::info!(%url, "bridging to the Mooring hub");
                // The token proves this is the person where the server cannot tell who
                // connects; it is read here, from the private data directory, never pasted.
                let token = mooring_server::access::token::load_or_create(&ctx.data_dir).ok();
                bridge(&url, hub_headers(&session_id, &hints, token.as_deref())).await
            }
            None => {
                tracing::info!("no Mooring hub running; serving MCP over stdio");
                serve_standalone(Arc::new(ctx.store()?), session_id, hints).await
            }
        };
        outcome.map_err(|e| Failure::from(mooring_core::Error::storage(e)))
    })
}
