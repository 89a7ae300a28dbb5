//! Mooring's server: the MCP endpoint (Streamable HTTP and stdio), agent sessions and
//! project gating, behind loopback-only Host and Origin checks. One [`start`] entry; a
//! desktop adds its windows through [`Surfaces`].

pub mod access;
pub mod caller;
pub mod changes;
pub mod config;
pub mod endpoint;
pub mod jobs;
pub mod logging;
pub mod mcp;
pub mod pages;
pub mod picks;
pub mod remote;
pub mod resource_uris;
pub mod rest;
pub mod run;
pub mod state;
pub mod surfaces;
pub mod transport;

pub use config::{DEFAULT_PORT, ServerConfig, loopback_host};
pub use picks::PickInfo;
pub use run::{RunningServer, StartError, start, start_serving, start_with_store};
pub use surfaces::{Headless, Surfaces};
