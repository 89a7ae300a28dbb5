//! The team this data directory has joined: `team.json` beside the database, private
//! (0600) like PostgreSQL's own `.pgpass`, since it holds the password Mooring needs to
//! reconnect. Written whole (a temporary file renamed over it), never half.

use std::path::{Path, PathBuf};

use mooring_core::{Error, Result};
use serde::{Deserialize, Serialize};

/// File name inside the data directory.
pub const FILE: &str = "team.json";

/// How to reach the team database, and as whom.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamConfig {
    /// `postgres://user@host:port/db?sslmode=…`, without the password.
    pub url: String,
    /// This person's name in the team.
    pub person: String,
    /// The database password (absent when the server trusts the connection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
}

impl std::fmt::Debug for TeamConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password, in a log or anywhere else.
        f.debug_struct("TeamConfig").field("url", &self.url).field("person", &self.person).finish()
    }
}

fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

/// The joined team, if any.
pub fn load(data_dir: &Path) -> Result<Option<TeamConfig>> {
    let file = path(data_dir);
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::storage(format!("cannot read {}: {e}", file.display()))),
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        Error::invalid(
            "team",
            format!(
                "{} is not a team file Mooring wrote ({e}); run mooring team leave, then join again",
                file.display()
            ),
        )
    })
}

/// Keep `config` as the joined team.
pub fn save(data_dir: &Path, config: &TeamConfig) -> Result<()> {
    let file = path(data_dir);
    let tmp = data_dir.join(format!(".{FILE}.tmp"));
    let text = serde_json::to_string_pretty(config).map_err(|e| Error::storage(e.to_string()))?;
    write_private(&tmp, text.as_bytes())
        .and_then(|()| std::fs::rename(&tmp, &file))
        .map_err(|e| Error::storage(format!("cannot write {}: {e}", file.display())))
}

/// Forget the joined team; whether there was one.
pub fn remove(data_dir: &Path) -> Result<bool> {
    match std::fs::remove_file(path(data_dir)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::storage(format!("cannot remove {}: {e}", path(data_dir).display()))),
    }
}

#[cfg(unix)]
fn write_private(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::remove_file(file);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(file)?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_private(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(file, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_private_whole_and_never_shows_the_password() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), None);
        let config = TeamConfig {
            url: "postgres://mooring@127.0.0.1:5432/team".into(),
            person: "Ada".into(),
            password: Some("s3cret-pass".into()),
        };
        save(dir.path(), &config).unwrap();
        assert_eq!(load(dir.path()).unwrap().as_ref(), Some(&config));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(!format!("{config:?}").contains("s3cret"));
        std::fs::write(dir.path().join(FILE), "{ not json").unwrap();
        assert_eq!(load(dir.path()).unwrap_err().field.as_deref(), Some("team"));
        assert!(remove(dir.path()).unwrap());
        assert!(!remove(dir.path()).unwrap());
    }
}
