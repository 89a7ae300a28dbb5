//! The desktop's side of the server's surfaces: native windows showing the server's own
//! pages, and a tray that follows what is waiting.

use std::sync::atomic::{AtomicBool, Ordering};

use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindowBuilder, Wry};
use tauri_plugin_notification::NotificationExt;

use mooring_server::{PickInfo, Surfaces};

use crate::tray;

/// "Pause questions" in the tray: questions go to the browser instead of windows.
static QUESTIONS_PAUSED: AtomicBool = AtomicBool::new(false);

/// Whether questions are paused.
pub fn questions_paused() -> bool {
    QUESTIONS_PAUSED.load(Ordering::Relaxed)
}

/// Flip "Pause questions"; returns the new state.
pub fn toggle_questions_paused() -> bool {
    !QUESTIONS_PAUSED.fetch_xor(true, Ordering::Relaxed)
}

/// Windows and tray refreshes for the server.
pub struct DesktopSurfaces {
    app: AppHandle<Wry>,
    data_dir: std::path::PathBuf,
}

impl DesktopSurfaces {
    /// Over the running app serving `data_dir`.
    pub fn new(app: AppHandle<Wry>, data_dir: std::path::PathBuf) -> Self {
        Self { app, data_dir }
    }
}

/// What a window is for: a prompt waits for the person (small, on top); the dashboard is
/// a normal window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A question or a project pick.
    Prompt,
    /// The dashboard.
    Dashboard,
}

/// Open (or focus) a window on one of the server's pages.
pub fn open_window(app: &AppHandle<Wry>, label: &str, url: &str, title: &str, kind: Kind) {
    let Ok(parsed) = url.parse::<tauri::Url>() else {
        tracing::warn!(url, "not a URL; no window opened");
        return;
    };
    if let Some(w) = app.get_webview_window(label) {
        // The dashboard opened at another section ("New project…") goes there.
        if w.url().is_ok_and(|now| now.fragment() != parsed.fragment()) {
            let _ = w.navigate(parsed);
        }
        let _ = w.show();
        let _ = w.set_focus();
        return;
    }
    let built = WebviewWindowBuilder::new(app, label, WebviewUrl::External(parsed))
        .title(title)
        .inner_size(
            if kind == Kind::Prompt { 620.0 } else { 1100.0 },
            if kind == Kind::Prompt { 720.0 } else { 820.0 },
        )
        .always_on_top(kind == Kind::Prompt)
        .focused(true)
        .build();
    if let Err(e) = built {
        tracing::warn!(error = %e, "could not open a window");
    }
}

/// A desktop notification; never the only signal (the tray and dashboard show the same).
pub fn notify(app: &AppHandle<Wry>, title: &str, body: &str) {
    tracing::info!(title, body, "notification");
    if let Err(e) = app.notification().builder().title(title).body(body).show() {
        tracing::debug!(error = %e, "notification not shown");
    }
}

impl Surfaces for DesktopSurfaces {
    fn can_show(&self) -> bool {
        true
    }

    fn show_pick(&self, url: &str, pick: &PickInfo) {
        let who = pick.client.as_deref().unwrap_or("An agent");
        open_window(
            &self.app,
            &format!("pick-{}", pick.id),
            url,
            &format!("{who} needs a project — Mooring"),
            Kind::Prompt,
        );
        notify(
            &self.app,
            &format!("{who} needs a project"),
            "Pick one in the Mooring window or the tray menu.",
        );
    }

    fn show_choice(&self, url: &str, title: &str) -> bool {
        if questions_paused() {
            return false;
        }
        let label = url.split("/choice/").nth(1).and_then(|r| r.split('?').next()).unwrap_or("question");
        // The person's own window may change their settings: it gets the API token.
        let url = mooring_server::token::for_person(url, &self.data_dir);
        open_window(&self.app, &format!("choice-{label}"), &url, &format!("{title} — Mooring"), Kind::Prompt);
        notify(&self.app, "An agent has a question", title);
        true
    }

    fn pick_closed(&self, pick_id: &str) {
        let Some(w) = self.app.get_webview_window(&format!("pick-{pick_id}")) else { return };
        // Long enough to read "This session now works in …" when the window answered.
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(1200));
            let _ = w.close();
        });
    }

    fn projects_changed(&self) {
        tray::refresh_now(&self.app);
    }

    fn notify(&self, title: &str, body: &str) {
        notify(&self.app, title, body);
    }

    fn waiting_changed(&self) {
        tray::refresh_now(&self.app);
    }

    fn show_dashboard(&self) -> bool {
        tray::show_dashboard(&self.app)
    }

    fn start_at_login(&self) -> Option<bool> {
        Some(tray::autostart_enabled(&self.app))
    }

    fn set_start_at_login(&self, on: bool) -> Result<(), String> {
        tray::set_autostart(&self.app, on)?;
        tray::refresh_now(&self.app);
        Ok(())
    }
}
