//! How a server is started.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use mooring_core::Error;

/// The documented default port (`http://127.0.0.1:7423/mcp`).
pub const DEFAULT_PORT: u16 = 7423;

/// Settings for [`crate::start`].
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Data directory (database, endpoint file).
    pub data_dir: PathBuf,
    /// Loopback address to bind.
    pub host: IpAddr,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// How long an idle legacy MCP session lives.
    pub session_idle: Duration,
    /// Most MCP sessions kept in memory; past it the least recently used one is evicted
    /// (its project choice stays in the database and comes back with it).
    pub max_sessions: usize,
    /// How long a call waits for the person to pick a project in a desktop window.
    pub pick_timeout: Duration,
    /// Bounds on connections.
    pub limits: Limits,
    /// Largest request body accepted.
    pub max_body_bytes: usize,
    /// When `port` is taken by something else, listen on a free port instead of failing
    /// (for the default port; a port the person asked for is an error).
    pub any_port_if_taken: bool,
    /// Write `endpoint.json` so `mooring stdio` can find this server.
    pub write_endpoint_file: bool,
    /// The program serving (written to endpoint.json for messages).
    pub owner: String,
}

impl ServerConfig {
    /// Defaults for a data directory: loopback, the default port, 8-hour sessions.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            host: IpAddr::from([127, 0, 0, 1]),
            port: DEFAULT_PORT,
            session_idle: Duration::from_secs(8 * 3600),
            max_sessions: 256,
            limits: Limits::default(),
            pick_timeout: Duration::from_secs(120),
            max_body_bytes: 1024 * 1024,
            any_port_if_taken: false,
            write_endpoint_file: true,
            owner: "mooring serve".to_owned(),
        }
    }
}

/// Accept only loopback addresses: Mooring is a local server.
pub fn loopback_host(input: &str) -> Result<IpAddr, Error> {
    let trimmed = input.trim().trim_start_matches('[').trim_end_matches(']');
    let ip = if trimmed.eq_ignore_ascii_case("localhost") {
        IpAddr::from([127, 0, 0, 1])
    } else {
        trimmed.parse::<IpAddr>().map_err(|_| {
            Error::invalid("host", format!("host '{input}' is not an IP address; use 127.0.0.1 or ::1"))
        })?
    };
    if !ip.is_loopback() {
        return Err(Error::invalid(
            "host",
            format!(
                "host {ip} is not a loopback address; Mooring only listens on this machine \
                 (use 127.0.0.1 or ::1)"
            ),
        ));
    }
    Ok(ip)
}

/// Bounds on connections.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Open connections at once; more wait in the kernel's backlog.
    pub max_connections: usize,
    /// Open connections one owner (a uid, or the unknown owner) may hold at once.
    pub max_per_owner: usize,
    /// Time to send a request's headers, and the longest a kept-alive connection may sit
    /// idle between requests.
    pub header_read_timeout: Duration,
    /// Time to send a request's whole body once its headers are in.
    pub body_read_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: 256,
            max_per_owner: 192,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_pass() {
        assert!(loopback_host("127.0.0.1").is_ok());
        assert!(loopback_host("[::1]").is_ok());
        assert!(loopback_host("localhost").is_ok());
        for bad in ["0.0.0.0", "192.168.1.2", "::", "example.com", ""] {
            assert_eq!(loopback_host(bad).unwrap_err().field.as_deref(), Some("host"), "{bad}");
        }
    }
}
