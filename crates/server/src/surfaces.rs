//! What a desktop adds to the server: windows that ask the person. Headless servers use
//! [`Headless`], which has none.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use mooring_core::Project;

/// A request to the person: pick the project for a session.
#[derive(Debug, Clone)]
pub struct PickRequest {
    /// The session waiting, if it has an identity.
    pub session_id: Option<String>,
    /// Client name, to tell the person who is asking.
    pub client: Option<String>,
    /// Projects to offer, likeliest first.
    pub projects: Vec<Project>,
    /// Slug to preselect.
    pub recommended: Option<String>,
    /// How long the call will wait.
    pub timeout: Duration,
}

/// A boxed future, so the trait stays object-safe.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Native surfaces a desktop provides.
pub trait Surfaces: Send + Sync + 'static {
    /// Whether a picker window can be shown now.
    fn can_pick(&self) -> bool;
    /// Show the picker and resolve with the chosen slug, or `None` on cancel/timeout.
    fn pick_project(&self, request: PickRequest) -> BoxFuture<Option<String>>;
    /// Something the person should see changed (projects, sessions); refresh menus.
    fn projects_changed(&self) {}
}

/// No windows: every question goes back to the agent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Headless;

impl Surfaces for Headless {
    fn can_pick(&self) -> bool {
        false
    }

    fn pick_project(&self, _request: PickRequest) -> BoxFuture<Option<String>> {
        Box::pin(async { None })
    }
}
