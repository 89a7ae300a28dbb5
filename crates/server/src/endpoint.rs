//! `endpoint.json`: how `mooring stdio` and other tools find a running server.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// File name in the data directory.
pub const FILE: &str = "endpoint.json";

/// What a running server advertises.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    /// MCP URL, e.g. `http://127.0.0.1:7423/mcp`.
    pub url: String,
    /// Port.
    pub port: u16,
    /// Server process id.
    pub pid: u32,
    /// Start time (RFC 3339).
    pub started_at: String,
    /// Mooring version.
    pub version: String,
    /// Which program serves it (`mooring serve`, `mooring-desktop`).
    #[serde(default)]
    pub owner: String,
}

/// The live server already serving `data_dir`, if another process runs one: the one its
/// endpoint file names, and only if that server says it serves this install.
pub async fn running_in(data_dir: &Path) -> Option<Endpoint> {
    let ep = read(data_dir)?;
    if ep.pid == std::process::id() {
        return None;
    }
    serves(ep.url.trim_end_matches("/mcp"), data_dir).await.then_some(ep)
}

/// Whether the Mooring at `base` serves the install in `data_dir` (not another data
/// directory's, not another user's, not another program).
pub async fn serves(base: &str, data_dir: &Path) -> bool {
    match crate::access::sealed::install_id(data_dir) {
        Some(ours) => serves_install(base, &ours).await,
        None => false,
    }
}

/// Whether the Mooring at `base` serves the install whose id is `ours`.
pub async fn serves_install(base: &str, ours: &str) -> bool {
    install_at(base).await.is_some_and(|theirs| mooring_core::guard::secret::same(ours, &theirs))
}

/// Write the file atomically, readable only by the user.
pub fn write(dir: &Path, endpoint: &Endpoint) -> std::io::Result<PathBuf> {
    let path = dir.join(FILE);
    let tmp = dir.join(format!(".{FILE}.{}", std::process::id()));
    let body = serde_json::to_vec_pretty(endpoint).map_err(std::io::Error::other)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let _ = std::fs::remove_file(&tmp);
    let mut f = options.open(&tmp)?;
    f.write_all(&body)?;
    f.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Read the file, if present and well-formed.
pub fn read(dir: &Path) -> Option<Endpoint> {
    let text = std::fs::read_to_string(dir.join(FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Remove the file if it still names this process.
pub fn remove_if_ours(dir: &Path) {
    if read(dir).is_some_and(|e| e.pid == std::process::id()) {
        let _ = std::fs::remove_file(dir.join(FILE));
    }
}

/// The install id of the Mooring answering `/health` at `base` (`http://host:port`), if
/// a Mooring of ours answers there.
pub async fn install_at(base: &str) -> Option<String> {
    let client = reqwest::Client::builder().timeout(std::time::Duration::from_millis(800)).build().ok()?;
    let body =
        client.get(format!("{base}/health")).send().await.ok()?.json::<serde_json::Value>().await.ok()?;
    if body.get("name").and_then(|n| n.as_str()) != Some("mooring") {
        return None;
    }
    body.get("install").and_then(|i| i.as_str()).map(str::to_owned)
}

/// Ask the Mooring at `ep` to bring its dashboard forward (a second desktop launch does
/// this instead of starting). True when a window was shown.
pub async fn ask_to_show(ep: &Endpoint, data_dir: &Path) -> bool {
    let Ok(token) = crate::access::token::load_or_create(data_dir) else { return false };
    let Ok(client) = reqwest::Client::builder().timeout(std::time::Duration::from_secs(3)).build() else {
        return false;
    };
    let url = ep.url.trim_end_matches("/mcp").to_owned() + "/api/v1/desktop/show";
    let Ok(resp) = client.post(url).bearer_auth(token).send().await else { return false };
    resp.status().is_success()
}
