//! What a desktop adds to the server: windows that ask the person. Headless servers use
//! [`Headless`], which has none; the server does the waiting either way.

use crate::picks::PickInfo;

/// The folder the person picks, once they have (none: they cancelled).
pub type FolderAnswer = tokio::sync::oneshot::Receiver<Option<std::path::PathBuf>>;

/// Native surfaces a desktop provides.
pub trait Surfaces: Send + Sync + 'static {
    /// Whether a window can be shown now.
    fn can_show(&self) -> bool;
    /// Show the project picker for a waiting session at `url` (the server's page).
    fn show_pick(&self, _url: &str, _pick: &PickInfo) {}
    /// Show a question at `url`; true when a native window took it.
    fn show_choice(&self, _url: &str, _title: &str) -> bool {
        false
    }
    /// A pick ended (answered, timed out, or given the focus project): close its window.
    fn pick_closed(&self, _pick_id: &str) {}
    /// Projects changed: refresh menus.
    fn projects_changed(&self) {}
    /// Tell the person something that happened elsewhere (a project handed to them);
    /// never the only signal, as the tray and dashboard show the same.
    fn notify(&self, _title: &str, _body: &str) {}
    /// Something started or stopped waiting for the person.
    fn waiting_changed(&self) {}
    /// Bring the dashboard forward; false where there is no window to show.
    fn show_dashboard(&self) -> bool {
        false
    }
    /// Whether Mooring starts at login; `None` where that is not the server's to say.
    fn start_at_login(&self) -> Option<bool> {
        None
    }
    /// Ask the person for a folder with the system's folder picker (`title` says what
    /// for); `None` where there is no desktop. The answer comes later: the folder, or
    /// none when the person cancelled.
    fn pick_folder(&self, _title: &str) -> Option<FolderAnswer> {
        None
    }
    /// Turn starting at login on or off; the error is a sentence for the person.
    fn set_start_at_login(&self, _on: bool) -> Result<(), String> {
        Err("start at login belongs to the desktop app; this is `mooring serve`".to_owned())
    }
}

/// No windows: every question goes back to the agent or the browser.
#[derive(Debug, Clone, Copy, Default)]
pub struct Headless;

impl Surfaces for Headless {
    fn can_show(&self) -> bool {
        false
    }
}
