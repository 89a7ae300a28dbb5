//! How messages reach the server: Streamable HTTP (its hyper loop and the front layer
//! that answers malformed messages), the hub socket for `mooring stdio` (and the questions short-lived processes ask it), stdio itself,
//! and the MCP sessions those carry (capped, persisted, trimmed when idle).

pub mod admission;
pub mod body_deadline;
pub mod code_pages;
pub mod http;
pub mod hub_ask;
pub mod hub_socket;
pub mod idle_trim;
pub mod listen;
pub mod mcp_front;
pub mod repeated_keys;
pub mod session_cap;
pub mod session_store;
pub mod stdio;
