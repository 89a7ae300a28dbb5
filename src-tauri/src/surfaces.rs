//! The desktop's side of the server's surfaces: native windows showing the server's own
//! pages, and a tray that follows what is waiting. The server calls in here; this calls
//! the tray (menus) and the windows, never the other way round.

use tauri::{AppHandle, Manager, Wry};

use mooring_server::{PickInfo, Surfaces};

use crate::tray;
use crate::windows::{Kind, notify, open_window, questions_paused};

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
        let url = mooring_server::access::token::for_person(url, &self.data_dir);
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

    fn pick_folder(&self, title: &str) -> Option<mooring_server::surfaces::FolderAnswer> {
        use tauri_plugin_dialog::DialogExt;
        let (tx, rx) = tokio::sync::oneshot::channel();
        // Not blocking: the dialog runs on the event loop and answers through the channel.
        let mut dialog = self.app.dialog().file().set_title(title);
        // Start in a folder: GTK's chooser opened on "Recent" cannot take a typed folder.
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            dialog = dialog.set_directory(home);
        }
        dialog.pick_folder(move |picked| {
            let _ = tx.send(picked.and_then(|p| p.into_path().ok()));
        });
        Some(rx)
    }

    fn set_start_at_login(&self, on: bool) -> Result<(), String> {
        tray::set_autostart(&self.app, on)?;
        tray::refresh_now(&self.app);
        Ok(())
    }
}
