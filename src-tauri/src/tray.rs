//! The tray icon and its menu. On Linux the icon emits no clicks, so every action is a
//! menu item; the menu is rebuilt whenever the projects change.

use std::sync::Arc;
use std::time::Duration;

use mooring_core::choice::{Broker, Interaction};
use mooring_core::{Project, Registry, Store};

use crate::menu::{
    AUTOSTART, AWAY, AtWork, CLEAR_FOCUS, COPY_STDIO, COPY_URL, DASHBOARD, Entry, NEW_PROJECT, OPEN_PREFIX,
    PAUSE_QUESTIONS, PROJECT_PREFIX, QUIT, Toggles, WORKING_PREFIX, Waiting, menu_model,
};
use crate::server::{self, Status};
use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem, Submenu};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager, Wry};

/// Id of the one tray icon.
pub const TRAY_ID: &str = "main";
/// How often the menu checks the database for changes made elsewhere (CLI, agents).
const REFRESH: Duration = Duration::from_secs(2);

/// Create the tray icon and keep its menu current.
pub fn install(app: &AppHandle<Wry>, store: Arc<Store>, server: Arc<server::Handle>) -> tauri::Result<()> {
    let (entries, signature) = snapshot(app, &store, &server, &look(&store));
    let menu = build(app, &entries)?;
    let icon = Image::from_bytes(include_bytes!("../../icons/tray.png"))?;
    let (events_store, events_server) = (store.clone(), server.clone());
    TrayIconBuilder::with_id(TRAY_ID)
        .icon(icon)
        .tooltip("Mooring")
        .menu(&menu)
        .on_menu_event(move |app, event| on_menu(app, &events_store, &events_server, event.id().as_ref()))
        .build(app)?;
    app.manage(Shared { store: store.clone(), server: server.clone() });
    crate::phone::watch_idle(app.clone(), store.clone(), server.clone(), refresh_now);
    let handle = app.clone();
    std::thread::spawn(move || {
        let mut last = signature;
        let mut seen = crate::alerts::LastLook::default();
        loop {
            std::thread::sleep(REFRESH);
            // One read per tick serves both the menu and the notifications.
            let now = look(&store);
            for alert in alerts(&mut seen, &store, &now) {
                crate::windows::notify(&handle, &alert.title, &alert.body);
            }
            let open: Vec<String> = now.open.iter().map(|i| i.id.clone()).collect();
            crate::windows::close_ended_questions(&handle, &open);
            let (entries, signature) = snapshot(&handle, &store, &server, &now);
            if signature != last {
                last = signature;
                refresh(&handle, &entries);
            }
        }
    });
    Ok(())
}

/// What the menu needs to rebuild itself from anywhere.
struct Shared {
    store: Arc<Store>,
    server: Arc<server::Handle>,
}

/// Rebuild the menu now (after the server started, say).
pub fn refresh_now(app: &AppHandle<Wry>) {
    if let Some(shared) = app.try_state::<Shared>() {
        refresh(app, &snapshot(app, &shared.store, &shared.server, &look(&shared.store)).0);
    }
}

fn on_menu(app: &AppHandle<Wry>, store: &Store, server: &server::Handle, id: &str) {
    let registry = Registry::new(store);
    let result = match id {
        QUIT => {
            app.exit(0);
            return;
        }
        CLEAR_FOCUS => registry.clear_focus().map(|_| ()),
        DASHBOARD | NEW_PROJECT => {
            open_dashboard(app, server, if id == NEW_PROJECT { "#new" } else { "" });
            return;
        }
        COPY_URL | COPY_STDIO => {
            copy(app, server, id == COPY_URL);
            return;
        }
        PAUSE_QUESTIONS => {
            let paused = crate::windows::toggle_questions_paused();
            tracing::info!(paused, "questions paused");
            Ok(())
        }
        AUTOSTART => {
            toggle_autostart(app);
            Ok(())
        }
        AWAY => {
            crate::phone::toggle_away(server);
            Ok(())
        }
        other if other.starts_with(OPEN_PREFIX) || other.starts_with(WORKING_PREFIX) => {
            let slug = other.split_once(':').map_or(other, |(_, slug)| slug);
            let name = registry.get(slug).map(|p| p.name).unwrap_or_else(|_| slug.to_owned());
            open_page(app, server, &format!("/project/{slug}"), "", &format!("Mooring — {name}"));
            return;
        }
        other if other.starts_with("wait:") => {
            open_waiting(app, store, server, other);
            return;
        }
        other => match other.strip_prefix(PROJECT_PREFIX) {
            Some(slug) => registry.set_focus(slug).map(|p| {
                // Every session waiting for a pick gets the focus project.
                let n = server.state().map(|state| state.picks.answer_all(&p.slug)).unwrap_or(0);
                let waiting = match n {
                    0 => String::new(),
                    1 => " The waiting session got it.".to_owned(),
                    n => format!(" The {n} waiting sessions got it."),
                };
                crate::windows::notify(
                    app,
                    &format!("Focus project: {}", p.name),
                    &format!("Sessions nothing else decides work in {}.{waiting}", p.slug),
                );
            }),
            None => return,
        },
    };
    if let Err(e) = result {
        tracing::warn!(error = %e, "tray action failed");
    }
    refresh(app, &snapshot(app, store, server, &look(store)).0);
}

fn refresh(app: &AppHandle<Wry>, entries: &[Entry]) {
    let Some(tray) = app.tray_by_id(TRAY_ID) else { return };
    match build(app, entries) {
        Ok(menu) => {
            if let Err(e) = tray.set_menu(Some(menu)) {
                tracing::warn!(error = %e, "could not replace the tray menu");
            }
        }
        Err(e) => tracing::warn!(error = %e, "could not build the tray menu"),
    }
}

/// The menu entries and a signature that changes when they do.
fn snapshot(
    app: &AppHandle<Wry>,
    store: &Store,
    server: &server::Handle,
    now: &Look,
) -> (Vec<Entry>, String) {
    let registry = Registry::new(store);
    let focus = registry.focus().ok().flatten().map(|p| p.slug);
    // Sessions that made a request in the last 10 minutes count as connected.
    let since = mooring_core::humanize::format_ts(chrono::Utc::now() - chrono::Duration::minutes(10));
    let sessions = store.read(|c| mooring_core::store::sessions::active_since(c, &since)).unwrap_or(0);
    let crowded = mooring_core::projects::live::crowded(store, chrono::Utc::now()).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "could not read the live sessions for the tray");
        Vec::new()
    });
    let (away, phone_trouble) = crate::phone::state(server);
    let toggles = Toggles {
        questions_paused: crate::windows::questions_paused(),
        autostart: autostart_enabled(app),
        away,
        phone_trouble,
    };
    let entries = menu_model(
        &now.projects,
        &now.team,
        focus.as_deref(),
        &server.status(),
        &waiting(server, &now.open),
        &AtWork { sessions, crowded },
        toggles,
    );
    let signature = format!("{entries:?}");
    (entries, signature)
}

/// The projects and open questions, read once for the menu and the notifications.
struct Look {
    projects: Vec<Project>,
    /// Which of them are team projects.
    team: Vec<String>,
    open: Vec<Interaction>,
}

fn look(store: &Store) -> Look {
    let projects = Registry::new(store).list(None).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "could not read projects for the tray");
        Vec::new()
    });
    let open = Broker::new(store).open_list().unwrap_or_else(|e| {
        tracing::warn!(error = %e, "could not read open questions for the tray");
        Vec::new()
    });
    let team = store
        .read(mooring_core::store::team_projects::all)
        .map(|all| all.into_iter().map(|(_, _, slug)| slug).collect())
        .unwrap_or_default();
    Look { projects, team, open }
}

/// Notifications owed since the last look: questions that timed out, paths gone missing.
fn alerts(seen: &mut crate::alerts::LastLook, store: &Store, now: &Look) -> Vec<crate::alerts::Alert> {
    let broker = Broker::new(store);
    let open = now.open.iter().map(|i| (i.id.clone(), i.checked.request.title.clone())).collect();
    seen.update(open, &now.projects, |id| broker.get(id).ok().map(|i| i.status))
}

/// Picks and questions waiting for the person.
fn waiting(server: &server::Handle, open: &[Interaction]) -> Vec<Waiting> {
    let mut out = Vec::new();
    if let Some(state) = server.state() {
        for p in state.picks.list() {
            let who = p.client.unwrap_or_else(|| "An agent".into());
            out.push(Waiting { id: format!("wait:pick:{}", p.id), label: format!("{who} needs a project") });
        }
    }
    out.extend(
        open.iter()
            .map(|i| Waiting { id: format!("wait:choice:{}", i.id), label: i.checked.request.title.clone() }),
    );
    out
}

/// Put the MCP URL or the stdio command on the clipboard.
fn copy(app: &AppHandle<Wry>, server: &server::Handle, url: bool) {
    use tauri_plugin_clipboard_manager::ClipboardExt;
    let text = if url {
        match server.status() {
            Status::Serving(u) | Status::Elsewhere(u) => u,
            _ => return,
        }
    } else {
        let exe = std::env::current_exe().ok().and_then(|p| p.parent().map(|d| d.join("mooring")));
        let exe =
            exe.filter(|p| p.exists()).map(|p| p.display().to_string()).unwrap_or_else(|| "mooring".into());
        format!("{exe} stdio")
    };
    if let Err(e) = app.clipboard().write_text(text) {
        tracing::warn!(error = %e, "could not copy to the clipboard");
    }
}

/// Whether Mooring starts at login.
pub fn autostart_enabled(app: &AppHandle<Wry>) -> bool {
    use tauri_plugin_autostart::ManagerExt;
    app.autolaunch().is_enabled().unwrap_or(false)
}

/// Turn start at login on or off; the error is a sentence for the person.
pub fn set_autostart(app: &AppHandle<Wry>, on: bool) -> Result<(), String> {
    use tauri_plugin_autostart::ManagerExt;
    let launcher = app.autolaunch();
    let result = if on { launcher.enable() } else { launcher.disable() };
    result.map_err(|e| format!("could not change start at login: {e}"))
}

fn toggle_autostart(app: &AppHandle<Wry>) {
    if let Err(e) = set_autostart(app, !autostart_enabled(app)) {
        tracing::warn!("{e}");
    }
}

/// Open the dashboard from outside the menu (a second launch asked for it).
pub fn show_dashboard(app: &AppHandle<Wry>) -> bool {
    let Some(shared) = app.try_state::<Shared>() else { return false };
    open_dashboard(app, &shared.server, "");
    app.get_webview_window("dashboard").is_some()
}

/// The dashboard (at `anchor`), with the local token so its API calls are allowed.
fn open_dashboard(app: &AppHandle<Wry>, server: &server::Handle, anchor: &str) {
    open_page(app, server, "/dashboard", anchor, "Mooring");
}

/// One of the dashboard's pages (`/dashboard`, `/project/SLUG`) in the dashboard window.
fn open_page(app: &AppHandle<Wry>, server: &server::Handle, path: &str, anchor: &str, title: &str) {
    let Some(state) = server.state() else { return };
    let (Some(base), Some(dir)) = (state.base_url.clone(), state.data_dir.clone()) else { return };
    match mooring_server::access::token::load_or_create(&dir) {
        Ok(token) => crate::windows::open_window(
            app,
            "dashboard",
            &format!("{base}{path}?token={token}{anchor}"),
            title,
            crate::windows::Kind::Dashboard,
        ),
        Err(e) => tracing::warn!(error = %e, "no API token for the dashboard"),
    }
}

/// Open the window of a waiting item.
fn open_waiting(app: &AppHandle<Wry>, store: &Store, server: &server::Handle, id: &str) {
    let Some(state) = server.state() else { return };
    let base = state.base_url.clone().unwrap_or_default();
    if let Some(pick_id) = id.strip_prefix("wait:pick:") {
        if let Some(p) = state.picks.list().into_iter().find(|p| p.id == pick_id) {
            let url = format!("{base}/pick/{}?t={}", p.id, p.token);
            crate::windows::open_window(
                app,
                &format!("pick-{}", p.id),
                &url,
                "Choose a project — Mooring",
                crate::windows::Kind::Prompt,
            );
        }
    } else if let Some(choice_id) = id.strip_prefix("wait:choice:")
        && let Ok(i) = mooring_core::choice::Broker::new(store).get(choice_id)
    {
        let url = format!("{base}/choice/{}?t={}", i.id, i.token);
        let url = match &state.data_dir {
            Some(dir) => mooring_server::access::token::for_person(&url, dir),
            None => url,
        };
        crate::windows::open_window(
            app,
            &format!("choice-{}", i.id),
            &url,
            &format!("{} — Mooring", i.checked.request.title),
            crate::windows::Kind::Prompt,
        );
    }
}

fn build(app: &AppHandle<Wry>, entries: &[Entry]) -> tauri::Result<Menu<Wry>> {
    let menu = Menu::new(app)?;
    for entry in entries {
        match entry {
            Entry::Submenu { label, items } => {
                let sub = Submenu::new(app, label, true)?;
                for item in items {
                    match item {
                        Entry::Project { id, label, focused } => sub.append(&CheckMenuItem::with_id(
                            app,
                            id,
                            label,
                            true,
                            *focused,
                            None::<&str>,
                        )?)?,
                        Entry::Label(text) => {
                            sub.append(&MenuItem::with_id(app, "label", text, false, None::<&str>)?)?
                        }
                        Entry::Open { id, label } => {
                            sub.append(&MenuItem::with_id(app, id, label, true, None::<&str>)?)?
                        }
                        _ => {}
                    }
                }
                menu.append(&sub)?
            }
            Entry::Toggle { id, label, on } => {
                menu.append(&CheckMenuItem::with_id(app, *id, label, true, *on, None::<&str>)?)?
            }
            Entry::Label(text) => {
                menu.append(&MenuItem::with_id(app, "label", text, false, None::<&str>)?)?
            }
            Entry::Project { id, label, focused } => {
                menu.append(&CheckMenuItem::with_id(app, id, label, true, *focused, None::<&str>)?)?
            }
            Entry::Action { id, label } => {
                menu.append(&MenuItem::with_id(app, *id, label, true, None::<&str>)?)?
            }
            Entry::Waiting { id, label } | Entry::Open { id, label } => {
                menu.append(&MenuItem::with_id(app, id, label, true, None::<&str>)?)?
            }
            Entry::Separator => menu.append(&PredefinedMenuItem::separator(app)?)?,
        }
    }
    Ok(menu)
}
