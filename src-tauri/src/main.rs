//! `mooring-desktop`: the tray application. Decides early whether a display exists,
//! because GTK start-up panics without one.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]
#![forbid(unsafe_code)]

mod alerts;
mod idle;
mod menu;
mod phone;
mod server;
mod surfaces;
mod tray;
mod windows;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use mooring_core::{Store, store::datadir};

/// Mooring's tray app: the projects menu (and, later, the MCP server in-process).
#[derive(Debug, Parser)]
#[command(name = "mooring-desktop", version, about)]
struct Args {
    /// Data directory (default: $MOORING_HOME, else the platform data directory)
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Port of the MCP server (0 picks a free one; default: the `port` setting, 7423)
    #[arg(long)]
    port: Option<u16>,
}

fn main() -> ExitCode {
    mooring_server::logging::init("info");
    let args = Args::parse();

    if !has_display() {
        eprintln!(
            "mooring-desktop needs a graphical session, and neither DISPLAY nor WAYLAND_DISPLAY \
             is set. On a machine without a desktop, run `mooring serve` instead."
        );
        return ExitCode::from(1);
    }
    let data_dir = match datadir::resolve(args.data_dir.as_deref()) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("mooring-desktop cannot find its data directory: {e}");
            return ExitCode::from(1);
        }
    };
    let store = match Store::open_in(&data_dir) {
        Ok(store) => Arc::new(store),
        Err(e) => {
            eprintln!("mooring-desktop cannot open its data: {e}");
            return ExitCode::from(1);
        }
    };
    // One Mooring per data directory: a second desktop (or a `mooring serve`) already
    // running there is told about instead of started beside.
    if let Some(ep) = tauri::async_runtime::block_on(mooring_server::endpoint::running_in(&data_dir)) {
        let owner = if ep.owner.is_empty() { "mooring serve".to_owned() } else { ep.owner.clone() };
        if owner == "mooring-desktop" {
            let shown = tauri::async_runtime::block_on(mooring_server::endpoint::ask_to_show(&ep, &data_dir));
            let what = if shown { "its dashboard is in front now" } else { "its tray menu has everything" };
            println!("Mooring is already running (pid {}); {what}.", ep.pid);
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "{owner} (pid {}) already serves this data directory at {}; stop it first, or use --data-dir \
             for a separate set of projects.",
            ep.pid, ep.url
        );
        return ExitCode::from(1);
    }
    let mut config = mooring_server::ServerConfig::new(&data_dir);
    config.port = match args.port {
        Some(p) => p,
        None => mooring_core::projects::lifecycle::port(&store).unwrap_or(mooring_server::DEFAULT_PORT),
    };
    config.owner = "mooring-desktop".to_owned();
    // A desktop started at login has no arguments: if another program (or another data
    // directory's Mooring) holds the port, serve on a free one rather than not at all.
    config.any_port_if_taken = args.port.is_none();
    let server = Arc::new(server::Handle::default());
    // tao panics when the display named by DISPLAY cannot be opened; turn that into a
    // sentence instead of a backtrace.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let app = tauri::Builder::default()
            .plugin(tauri_plugin_notification::init())
            .plugin(tauri_plugin_clipboard_manager::init())
            .plugin(tauri_plugin_dialog::init())
            .plugin(tauri_plugin_autostart::init(tauri_plugin_autostart::MacosLauncher::LaunchAgent, None))
            .setup({
                let server = server.clone();
                move |app| {
                    std::panic::set_hook(default_hook);
                    tray::install(app.handle(), store.clone(), server.clone())?;
                    let handle = app.handle().clone();
                    let surfaces = Arc::new(surfaces::DesktopSurfaces::new(handle.clone(), data_dir.clone()));
                    tauri::async_runtime::spawn(async move {
                        server.start(config, store, surfaces).await;
                        tray::refresh_now(&handle);
                    });
                    Ok(())
                }
            })
            .build(tauri::generate_context!())?;
        app.run(move |_, event| match event {
            // A tray app stays alive when its last window closes; Quit exits explicitly.
            tauri::RunEvent::ExitRequested { api, code: None, .. } => api.prevent_exit(),
            tauri::RunEvent::Exit => tauri::async_runtime::block_on(server.stop()),
            _ => {}
        });
        Ok::<(), tauri::Error>(())
    }));
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("mooring-desktop could not start: {e}");
            ExitCode::from(1)
        }
        Err(_) => {
            eprintln!(
                "mooring-desktop could not open the display ({}). Check that the desktop \
                 session is running, or run `mooring serve` for the headless server.",
                std::env::var("DISPLAY").or_else(|_| std::env::var("WAYLAND_DISPLAY")).unwrap_or_default()
            );
            ExitCode::from(1)
        }
    }
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}
