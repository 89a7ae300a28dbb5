//! Where Mooring keeps its data: `--data-dir`, else `$MOORING_HOME`, else the platform
//! data directory.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Environment variable that moves the data directory.
pub const ENV_HOME: &str = "MOORING_HOME";

/// Pick the data directory from an explicit override, the environment, or the platform.
pub fn resolve(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = explicit {
        return absolute(dir, "data_dir");
    }
    if let Some(dir) = std::env::var_os(ENV_HOME).filter(|v| !v.is_empty()) {
        return absolute(Path::new(&dir), ENV_HOME);
    }
    platform_default().ok_or_else(|| {
        Error::invalid(
            "data_dir",
            format!("no platform data directory is known; set {ENV_HOME} or pass --data-dir"),
        )
    })
}

/// The platform data directory, where Mooring lives when nothing moves it.
pub fn platform_default() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("mooring"))
}

/// Create the directory private to the user if it is not there, and keep it private:
/// the directory is made 0700 and every file in it 0600 when they are looser (another
/// local user must not read the database, the token or the secret), saying so once.
pub fn ensure(dir: &Path) -> Result<()> {
    if !dir.is_dir() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| {
            Error::invalid(
                "data_dir",
                format!(
                    "cannot create the data directory {}: {e}; choose another with --data-dir",
                    dir.display()
                ),
            )
        })?;
    }
    keep_private(dir);
    Ok(())
}

/// Tighten the data directory and the files in it; what cannot be changed is reported,
/// not fatal (a read-only mount still serves).
#[cfg(unix)]
fn keep_private(dir: &Path) {
    tighten(dir, 0o700);
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        // Only plain files; never follow a symlink someone planted to chmod its target.
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            tighten(&entry.path(), 0o600);
        }
    }
}

#[cfg(not(unix))]
fn keep_private(_dir: &Path) {}

/// Set `mode` on `path` when its permissions give more than that to anyone.
#[cfg(unix)]
pub fn tighten(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else { return };
    let current = meta.permissions().mode() & 0o777;
    if current & !mode == 0 {
        return;
    }
    match std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
        Ok(()) => tracing::warn!(
            path = %path.display(),
            was = format!("{current:o}"),
            now = format!("{mode:o}"),
            "made private: other local users could read it"
        ),
        Err(e) => tracing::warn!(path = %path.display(), error = %e, "could not make it private"),
    }
}

/// Permissions are not modes on this platform.
#[cfg(not(unix))]
pub fn tighten(_path: &Path, _mode: u32) {}

fn absolute(dir: &Path, field: &str) -> Result<PathBuf> {
    if dir.is_absolute() {
        return Ok(dir.to_path_buf());
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(dir))
        .map_err(|e| Error::invalid(field, format!("cannot make {} absolute: {e}", dir.display())))
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn an_existing_loose_directory_and_its_files_are_made_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        for f in ["mooring.db", "token", "endpoint.json"] {
            std::fs::write(dir.join(f), "x").unwrap();
            std::fs::set_permissions(dir.join(f), std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let outside = tmp.path().join("outside");
        std::fs::write(&outside, "x").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("planted")).unwrap();

        ensure(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        for f in ["mooring.db", "token", "endpoint.json"] {
            assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
        }
        assert_eq!(mode(&outside), 0o644, "a symlink's target outside is left alone");
    }

    #[test]
    fn a_new_directory_is_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b");
        ensure(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
    }
}
