//! Paths from people and agents, made absolute and canonical.

use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// A path after normalization, and whether it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizedPath {
    /// Absolute, canonical where it exists, lexically cleaned where it does not.
    pub path: PathBuf,
    /// Whether the directory exists right now.
    pub exists: bool,
}

impl NormalizedPath {
    /// The path as stored (UTF-8 checked at normalization).
    pub fn as_str(&self) -> &str {
        self.path.to_str().unwrap_or_default()
    }
}

/// The longest path taken (Linux's PATH_MAX): a longer one cannot name a directory, and
/// would only swell every preamble that lists it.
pub const MAX_PATH_BYTES: usize = 4_096;

/// The longest name of one directory or file, in bytes (`NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;

/// Expand `~`, accept `file://` URIs, make absolute against `base`, resolve symlinks.
///
/// `base` is the directory relative paths are taken from; `None` refuses relative paths
/// (a server's working directory means nothing to the agent that sent the path).
pub fn normalize(field: &str, input: &str, base: Option<&Path>) -> Result<NormalizedPath> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(Error::invalid(field, format!("{field} is empty; give a directory path")));
    }
    if trimmed.len() > MAX_PATH_BYTES {
        return Err(Error::invalid(
            field,
            format!(
                "{field} is {} bytes long; a path is at most {MAX_PATH_BYTES} bytes (the system's own limit)",
                trimmed.len()
            ),
        ));
    }
    if trimmed.contains('\0') {
        return Err(Error::invalid(
            field,
            format!("{field} contains a NUL byte; give a plain directory path"),
        ));
    }
    let raw = if trimmed.starts_with("file:") {
        from_file_uri(field, trimmed)?
    } else {
        expand_tilde(field, trimmed)?
    };
    // `file:///tmp/x%00b` decodes to a NUL: check what the path is, not how it was spelled.
    if raw.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(Error::invalid(
            field,
            format!("{field} contains a NUL byte (after decoding); give a plain directory path"),
        ));
    }
    // The system refuses a name over 255 bytes; say so here, for every entry point alike,
    // rather than store a code path no directory can ever have.
    if let Some(long) = raw.components().map(|c| c.as_os_str().len()).find(|&n| n > MAX_NAME_BYTES) {
        return Err(Error::invalid(
            field,
            format!(
                "{field} has a component of {long} bytes; a file or directory name is at most {MAX_NAME_BYTES} bytes (the system's own limit)"
            ),
        ));
    }
    let absolute = if raw.is_absolute() {
        raw
    } else {
        match base {
            Some(base) => base.join(raw),
            None => {
                return Err(Error::invalid(
                    field,
                    format!("{field} '{input}' is relative; give an absolute path"),
                ));
            }
        }
    };
    let cleaned = clean(&absolute);
    let (path, exists) = canonical_prefix(&cleaned);
    if path.as_os_str().len() > MAX_PATH_BYTES {
        return Err(Error::invalid(
            field,
            format!("{field} resolves to a path over {MAX_PATH_BYTES} bytes; give a shorter one"),
        ));
    }
    if path.to_str().is_none() {
        return Err(Error::invalid(
            field,
            format!("{field} '{input}' is not valid UTF-8; rename the directory or use another"),
        ));
    }
    Ok(NormalizedPath { path, exists })
}

/// The home directory or the file-system root: where editors start servers and where a
/// dotfiles repository lives. A session there says nothing about its project.
pub fn is_meaningless_dir(path: &Path) -> bool {
    path.parent().is_none() || is_home(path)
}

/// Whether a canonical path is the home directory. Runs on every resolution: only a path
/// with the home directory's own name costs a `canonicalize` of `$HOME` (a symlinked home).
fn is_home(path: &Path) -> bool {
    dirs::home_dir().is_some_and(|h| {
        h == path || (h.file_name() == path.file_name() && h.canonicalize().is_ok_and(|c| c == path))
    })
}

/// A directory a project may claim as a code path: not `/` and not the home directory,
/// which would make every session anywhere (or every editor started in `$HOME`) resolve
/// to that project.
pub fn check_claimable(field: &str, path: &Path) -> Result<()> {
    if path == Path::new("/") {
        return Err(Error::invalid(
            field,
            format!("{field} '/' would claim every directory; give the project's own directory"),
        ));
    }
    if is_home(path) {
        return Err(Error::invalid(
            field,
            format!(
                "{field} {} is your home directory, where editors start agent sessions; give the \
                 project's own directory",
                path.display()
            ),
        ));
    }
    Ok(())
}

/// Parse a `file://` URI into a path.
pub fn from_file_uri(field: &str, uri: &str) -> Result<PathBuf> {
    url::Url::parse(uri).ok().filter(|u| u.scheme() == "file").and_then(|u| u.to_file_path().ok()).ok_or_else(
        || {
            Error::invalid(
                field,
                format!("{field} '{uri}' is not a usable file:// URI; use e.g. file:///home/me/code/app"),
            )
        },
    )
}

fn expand_tilde(field: &str, input: &str) -> Result<PathBuf> {
    if input == "~" || input.starts_with("~/") {
        let home = dirs::home_dir().ok_or_else(|| {
            Error::invalid(
                field,
                format!("{field} starts with ~ but the home directory is unknown; give an absolute path"),
            )
        })?;
        let rest = input.trim_start_matches('~').trim_start_matches('/');
        return Ok(if rest.is_empty() { home } else { home.join(rest) });
    }
    if input.starts_with('~') {
        return Err(Error::invalid(
            field,
            format!("{field} '{input}': ~user paths are not supported; give an absolute path"),
        ));
    }
    Ok(PathBuf::from(input))
}

/// Remove `.` and resolve `..` without touching the disk.
fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Canonicalize the deepest existing ancestor and append the rest, so a path that does
/// not exist yet still lands where its parent's symlinks point.
pub fn canonical_prefix(path: &Path) -> (PathBuf, bool) {
    if let Ok(canon) = path.canonicalize() {
        return (canon, true);
    }
    let mut tail = Vec::new();
    let mut cursor = path.to_path_buf();
    while let Some(name) = cursor.file_name().map(|n| n.to_owned()) {
        tail.push(name);
        cursor.pop();
        if let Ok(mut canon) = cursor.canonicalize() {
            for part in tail.iter().rev() {
                canon.push(part);
            }
            return (canon, false);
        }
    }
    (path.to_path_buf(), false)
}

/// Device and inode of a directory, without following a symlink at `path`.
pub fn file_id(path: &Path) -> std::io::Result<Option<(u64, u64)>> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"));
    }
    Ok(id_of(&meta))
}

#[cfg(unix)]
fn id_of(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn id_of(_meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_join_the_base_or_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir(base.join("app")).unwrap();
        let n = normalize("code_path", "./app/../app", Some(&base)).unwrap();
        assert_eq!(n.path, base.join("app"));
        assert!(n.exists);
        let err = normalize("code_path", "app", None).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("code_path"));
        assert!(err.message.contains("relative"));
    }

    #[test]
    fn a_path_longer_than_the_system_allows_is_refused_by_field_without_echoing_it() {
        let long = format!("/tmp/{}", "a/".repeat(25_000));
        let err = normalize("add_code_paths", &long, None).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("add_code_paths"));
        assert!(err.message.contains("at most 4096 bytes") && err.message.len() < 200, "{}", err.message);
        let deep = format!("/tmp/{}", format!("{}/", "b".repeat(250)).repeat(15));
        assert!(deep.len() > 3_700 && normalize("code_path", &deep, None).is_ok());
        // One name over the system's 255 bytes is refused the same way on every entry point.
        let err = normalize("add_code_paths", &format!("/tmp/{}", "c".repeat(300)), None).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("add_code_paths"));
        assert!(err.message.contains("component of 300 bytes"), "{}", err.message);
    }

    #[test]
    fn symlinks_resolve_even_below_a_missing_leaf() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let n = normalize("code_path", link.to_str().unwrap(), None).unwrap();
        assert_eq!(n.path, real);
        let missing = normalize("code_path", link.join("later/deep").to_str().unwrap(), None).unwrap();
        assert_eq!(missing.path, real.join("later/deep"));
        assert!(!missing.exists);
    }

    #[test]
    fn tilde_and_file_uris_expand() {
        let home = dirs::home_dir().unwrap();
        let n = normalize("code_path", "~/no-such-dir-for-mooring", None).unwrap();
        assert!(n.path.ends_with("no-such-dir-for-mooring"));
        assert!(n.path.starts_with(home.canonicalize().unwrap()));
        let u = normalize("workspace_id", "file:///tmp/a%20b", None).unwrap();
        assert!(u.path.ends_with("a b"));
    }

    #[test]
    fn bad_inputs_name_the_field() {
        for bad in ["", "   ", "~other/x", "file://host-only-no-path\u{0}", "a\0b"] {
            let err = normalize("notes_path", bad, Some(Path::new("/"))).unwrap_err();
            assert_eq!(err.field.as_deref(), Some("notes_path"), "{bad:?}");
        }
        let err = normalize("workspace_id", "file://remote-host/share", None).unwrap_err();
        assert!(err.message.contains("file://"));
    }
}
