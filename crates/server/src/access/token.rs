//! The local token that guards the REST API and the pages: created at first start,
//! kept in the data directory readable only by the user.

use std::io::Write;
use std::path::Path;

/// File name in the data directory.
pub const FILE: &str = "token";

/// Read the token, creating it (mode 0600) if there is none.
pub fn load_or_create(data_dir: &Path) -> std::io::Result<String> {
    let path = data_dir.join(FILE);
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let t = existing.trim();
        if t.len() >= 32 {
            mooring_core::store::datadir::tighten(&path, 0o600);
            crate::logging::also_redact(t);
            return Ok(t.to_owned());
        }
    }
    mooring_core::store::datadir::ensure(data_dir).map_err(|e| std::io::Error::other(e.message))?;
    // A rewrite must not keep an old file's looser mode: replace the file, don't reuse it.
    let _ = std::fs::remove_file(&path);
    let token = mooring_core::guard::secret::random_id(mooring_core::guard::secret::API_TOKEN);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(&path)?;
    f.write_all(token.as_bytes())?;
    f.sync_all()?;
    Ok(token)
}

/// A page URL for the person's own window: the local API token rides in the fragment,
/// which the page reads and no server, log or agent ever sees.
pub fn for_person(url: &str, data_dir: &Path) -> String {
    match load_or_create(data_dir) {
        Ok(token) => format!("{url}#token={token}"),
        Err(_) => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_once_private_and_stable() {
        let dir = tempfile::tempdir().unwrap();
        let t1 = load_or_create(dir.path()).unwrap();
        let t2 = load_or_create(dir.path()).unwrap();
        assert_eq!(t1, t2);
        assert!(t1.starts_with("mat_") && t1.len() == 68, "{t1}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // A rewrite (an unusable old token) does not keep the old file's looser mode.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.path().join(FILE);
            std::fs::write(&path, "short").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let t3 = load_or_create(dir.path()).unwrap();
            assert_ne!(t3, "short");
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert!(!mooring_core::guard::secret::same(&t1, &t1[..63]));
        assert!(!mooring_core::guard::secret::same(&t1, "0".repeat(68)));
    }
}
