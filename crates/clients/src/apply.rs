//! Reading a client's file and writing the new one: atomically (temp file + rename in the
//! same directory), with the original permissions, a backup of the previous version, and
//! through a symlink to its target so dotfile managers keep their link.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use similar::TextDiff;

use crate::ConfigError;

/// The largest client file Mooring will edit (`~/.claude.json` grows with history).
const MAX_FILE: u64 = 32 * 1024 * 1024;

/// One file's change.
#[derive(Debug, Clone)]
pub struct FileEdit {
    /// The file as the client names it.
    pub file: PathBuf,
    /// Its text before (None: it does not exist).
    pub before: Option<String>,
    /// Its text after.
    pub after: String,
    /// A script the client runs (Cline's hooks): its owner may run it.
    pub executable: bool,
}

impl FileEdit {
    /// Nothing would change.
    pub fn is_noop(&self) -> bool {
        self.before.as_deref().unwrap_or("") == self.after
    }

    /// A unified diff of the change, for `--dry-run`.
    pub fn diff(&self) -> String {
        let before = self.before.as_deref().unwrap_or("");
        let name = self.file.display().to_string();
        let old = if self.before.is_some() { name.clone() } else { "/dev/null".into() };
        TextDiff::from_lines(before, &self.after)
            .unified_diff()
            .context_radius(2)
            .header(&old, &name)
            .to_string()
    }
}

/// The file's text, or None when it does not exist. Refuses what is not a regular file.
pub fn read(file: &Path) -> Result<Option<String>, ConfigError> {
    let fail = |message: String| ConfigError::Io { file: file.to_path_buf(), message };
    let meta = match fs::metadata(file) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e.to_string())),
    };
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > MAX_FILE {
        return Err(fail(format!("larger than {} MB", MAX_FILE / 1024 / 1024)));
    }
    let mut text = String::new();
    fs::File::open(file)
        .and_then(|f| f.take(MAX_FILE).read_to_string(&mut text))
        .map_err(|e| fail(format!("cannot read it as UTF-8 text ({e})")))?;
    Ok(Some(text))
}

/// The backup kept next to a file.
pub fn backup_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".mooring-backup");
    target.with_file_name(name)
}

/// Write the change. Returns the backup made of the previous version, if any.
pub fn write(change: &FileEdit) -> Result<Option<PathBuf>, ConfigError> {
    let fail = |e: io::Error| ConfigError::Io { file: change.file.clone(), message: e.to_string() };
    // Write through a symlink to the file it points at.
    let target = fs::canonicalize(&change.file).unwrap_or_else(|_| change.file.clone());
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(fail)?;
    let old_meta = fs::metadata(&target).ok();
    let backup = match &old_meta {
        Some(_) => {
            let b = backup_path(&target);
            fs::copy(&target, &b).map_err(fail)?;
            Some(b)
        }
        None => None,
    };
    if change.after.is_empty() && old_meta.is_some() {
        // A file of Mooring's own taken out (a plugin): gone, its last version backed up.
        fs::remove_file(&target).map_err(fail)?;
        return Ok(backup);
    }
    let tmp = dir.join(format!(
        ".{}.mooring-{}.tmp",
        target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        set_permissions(&f, old_meta.as_ref(), change.executable)?;
        f.write_all(change.after.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(backup)
}

#[cfg(unix)]
fn set_permissions(f: &fs::File, old: Option<&fs::Metadata>, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // A new file holds paths of this person's tools: readable by them only (and run by
    // them, a script).
    let mode =
        old.map(|m| m.permissions().mode() & 0o7777).unwrap_or(0o600) | if executable { 0o100 } else { 0 };
    f.set_permissions(fs::Permissions::from_mode(mode))?;
    if let Some(m) = old {
        // Keep the owner and group when root edits someone's file (sudo); a failure to
        // change ownership as a normal user is expected and harmless.
        let _ = std::os::unix::fs::fchown(f, Some(m.uid()), Some(m.gid()));
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_permissions(f: &fs::File, old: Option<&fs::Metadata>, _executable: bool) -> io::Result<()> {
    if let Some(m) = old {
        f.set_permissions(m.permissions())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn write_keeps_permissions_makes_a_backup_and_follows_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles").join("mcp.json");
        fs::create_dir_all(real.parent().unwrap()).unwrap();
        fs::write(&real, "{}\n").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("mcp.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let change = FileEdit {
            file: link.clone(),
            before: Some("{}\n".into()),
            after: "{\"a\":1}\n".into(),
            executable: false,
        };
        let backup = write(&change).unwrap().unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read_to_string(&real).unwrap(), "{\"a\":1}\n");
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(fs::read_to_string(backup).unwrap(), "{}\n");
        let fresh = dir.path().join("new").join("config.toml");
        write(&FileEdit { file: fresh.clone(), before: None, after: "x = 1\n".into(), executable: false })
            .unwrap();
        assert_eq!(fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(fs::read_dir(dir.path().join("new")).unwrap().count() == 1, "no temp file left behind");
    }

    #[test]
    fn reading_refuses_directories_and_reports_missing_files_as_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read(&dir.path().join("absent")).unwrap().is_none());
        assert!(read(dir.path()).unwrap_err().to_string().contains("not a regular file"));
    }

    #[test]
    fn diff_names_the_file() {
        let c = FileEdit { file: "/t/a.json".into(), before: None, after: "{}\n".into(), executable: false };
        let d = c.diff();
        assert!(d.contains("--- /dev/null") && d.contains("+++ /t/a.json") && d.contains("+{}"), "{d}");
    }
}
