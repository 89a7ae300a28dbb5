//! `mooring serve`: the headless MCP server.

use std::sync::Arc;
use std::time::Duration;

use mooring_core::Error;
use mooring_server::{Headless, ServerConfig, StartError, loopback_host, start};
use serde_json::json;

use super::Ctx;
use crate::cli::ServeArgs;
use crate::output::{Failure, print_json};

/// Run until Ctrl-C or SIGTERM.
pub fn run(ctx: &Ctx, args: ServeArgs) -> Result<(), Failure> {
    let host = loopback_host(&args.host)?;
    if args.session_idle_hours == 0 {
        return Err(Failure::usage("session_idle_hours", "--session-idle-hours must be at least 1"));
    }
    let mut config = ServerConfig::new(&ctx.data_dir);
    config.host = host;
    config.port = match args.port {
        Some(p) => p,
        None => mooring_core::projects::lifecycle::port(&ctx.store()?)?,
    };
    // The default (or the saved setting) gives way to another program or Mooring; a
    // port asked for on the command line does not.
    config.any_port_if_taken = args.port.is_none();
    config.session_idle = Duration::from_secs(args.session_idle_hours * 3600);
    ctx.runtime()?.block_on(async {
        // One server per data directory: two would answer the same agents differently.
        if let Some(ep) = mooring_server::endpoint::running_in(&ctx.data_dir).await {
            if ctx.json {
                print_json(
                    &json!({ "already_running": true, "url": ep.url, "owner": ep.owner, "pid": ep.pid }),
                );
            } else {
                println!(
                    "Mooring is already running on this data directory ({}, pid {}) at {}; nothing to do.",
                    if ep.owner.is_empty() { "mooring serve" } else { &ep.owner },
                    ep.pid,
                    ep.url
                );
            }
            return Ok(());
        }
        let server = match start(config, Arc::new(Headless)).await {
            Ok(s) => s,
            Err(StartError::AlreadyRunning { url }) => {
                if ctx.json {
                    print_json(&json!({ "already_running": true, "url": url }));
                } else {
                    println!("Mooring is already running at {url}; nothing to do.");
                }
                return Ok(());
            }
            Err(e @ StartError::PortTaken { .. }) => return Err(Error::invalid("port", e.to_string()).into()),
            Err(StartError::Other(message)) => return Err(Error::storage(message).into()),
        };
        if ctx.json {
            print_json(&json!({ "url": server.url, "port": server.addr.port(), "pid": std::process::id(), "note": server.note }));
        } else {
            if let Some(note) = &server.note {
                println!("Note: {note}.");
            }
            println!("Mooring MCP server listening at {}", server.url);
            println!("Register your agent clients:  mooring setup claude-code   (also codex, gemini-cli, cursor, vscode, …;");
            println!("  `mooring setup --list` shows them). Each then starts `mooring stdio`, which tells Mooring");
            println!("  the directory the session works in, so the project is known from the first call.");
            println!("Clients that cannot start commands: {}  (no directory: the focus project decides, or you pick)", server.url);
            println!("Stop with Ctrl-C.");
        }
        wait_for_signal().await;
        server.shutdown().await;
        Ok(())
    })
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
