//! The phone: what the person types on a chat platform (the commands docs/remote.md lists), what
//! Mooring writes back, and the settings that pair one person's phone with a bot. The
//! transports that carry it live in the server.

pub mod claim_question;
pub mod commands;
pub mod config;
pub mod config_file;
pub mod idle;
pub mod inbox;
pub mod permission;
pub mod phone;
pub mod spec;
pub mod turn_end;

pub use commands::{Command, parse};
pub use config::{Bot, Paired, Platform, RemoteConfig};
