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
    dirs::data_dir().map(|d| d.join("mooring")).ok_or_else(|| {
        Error::invalid(
            "data_dir",
            format!("no platform data directory is known; set {ENV_HOME} or pass --data-dir"),
        )
    })
}

/// Create the directory (private to the user) if it is not there.
pub fn ensure(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
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
    })
}

fn absolute(dir: &Path, field: &str) -> Result<PathBuf> {
    if dir.is_absolute() {
        return Ok(dir.to_path_buf());
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(dir))
        .map_err(|e| Error::invalid(field, format!("cannot make {} absolute: {e}", dir.display())))
}
