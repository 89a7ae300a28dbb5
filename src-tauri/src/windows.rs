//! Native windows on the server's pages, desktop notifications, and whether questions
//! may open windows now ("Pause questions"). The tray and the server's surfaces both use
//! these; they use nothing of either.

use std::sync::atomic::{AtomicBool, Ordering};

use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindowBuilder, Wry};
use tauri_plugin_notification::NotificationExt;

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
        // The dashboard opened at another page (a project's view) or section ("New
        // project…") goes there.
        if w.url().is_ok_and(|now| now.path() != parsed.path() || now.fragment() != parsed.fragment()) {
            let _ = w.navigate(parsed);
        }
        let _ = w.set_title(title);
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

/// Close the question windows whose question no longer waits: answered anywhere (this
/// window, the page, the terminal, the phone), cancelled or expired. The first answer wins,
/// and the other places stop asking.
pub fn close_ended_questions(app: &AppHandle<Wry>, open: &[String]) {
    for (label, window) in app.webview_windows() {
        if let Some(id) = label.strip_prefix("choice-")
            && !open.iter().any(|o| o == id)
        {
            let _ = window.close();
        }
    }
}
