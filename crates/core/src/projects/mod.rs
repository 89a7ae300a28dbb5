//! Projects and the resolution of a session's project: the registry of projects and
//! their code paths, the resolution levels and the one pipeline every entry point runs
//! (`decide`), markers and git in a checkout, the watcher that keeps paths current,
//! agent sessions, and a project's lifecycle and history in words.

pub mod claims;
pub mod decide;
pub mod decided_by;
pub mod event_words;
pub mod git;
pub mod lifecycle;
pub mod live;
pub mod live_index;
pub mod markers;
mod process;
pub mod recommend;
pub mod registry;
pub mod resolve;
pub mod session;
pub mod session_notes;
pub mod slug;
pub mod watch;
