//! `remote.json` on disk, with one writer at a time: the CLI, the hub's REST API and the
//! phone's relay all change it, so each change is read, made and written under an
//! exclusive lock on `remote.lock` ([`RemoteConfig::edit`]), and each write goes to a
//! file of its own moved into place. Two changes at once (a pairing while `mooring
//! remote away` runs) both land; neither is lost to the other's older copy.

use std::fs::File;
use std::io::Write as _;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::config::RemoteConfig;
use crate::error::{Error, Result};

/// File name in the data directory.
pub const FILE: &str = "remote.json";

/// The lock file beside it (empty; only its lock matters).
const LOCK: &str = "remote.lock";

impl RemoteConfig {
    /// The settings in `dir` (none yet: empty).
    pub fn load(dir: &Path) -> Result<Self> {
        match std::fs::read_to_string(dir.join(FILE)) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                Error::invalid(
                    "remote.json",
                    format!(
                        "{} is not readable ({e}); remove it and add the bots again",
                        dir.join(FILE).display()
                    ),
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(Error::storage(format!("cannot read {}: {e}", dir.join(FILE).display()))),
        }
    }

    /// The settings in `dir`, to change and [`Edit::save`]: nobody else writes them until
    /// the returned value is dropped.
    pub fn edit(dir: &Path) -> Result<Edit> {
        let lock = lock(dir)?;
        let config = Self::load(dir)?;
        Ok(Edit { dir: dir.to_owned(), config, _lock: lock })
    }

    /// Write the settings as they are (the first ones, or a whole new set): a new file,
    /// readable only by this user, moved into place under the lock. A change to what is
    /// there goes through [`RemoteConfig::edit`], so it is made to the latest.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let _lock = lock(dir)?;
        write(self, dir)
    }
}

/// The settings being changed, the lock held until dropped.
#[derive(Debug)]
pub struct Edit {
    dir: PathBuf,
    config: RemoteConfig,
    _lock: File,
}

impl Edit {
    /// Write the changed settings (the lock stays held until this is dropped).
    pub fn save(&self) -> Result<()> {
        write(&self.config, &self.dir)
    }
}

impl Deref for Edit {
    type Target = RemoteConfig;

    fn deref(&self) -> &RemoteConfig {
        &self.config
    }
}

impl DerefMut for Edit {
    fn deref_mut(&mut self) -> &mut RemoteConfig {
        &mut self.config
    }
}

/// `dir`'s remote settings for a reader that asks often (the relay, at every tick of a
/// third of a second): read again only when the file is another one or has changed
/// (every write moves a new file into place), else handed out as last read.
#[derive(Debug)]
pub struct Watched {
    dir: PathBuf,
    held: std::sync::Mutex<Option<(Stamp, RemoteConfig)>>,
}

/// What tells one version of the file from another without reading it.
type Stamp = Option<(u64, u64, std::time::SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some((inode, m.len(), m.modified().ok()?))
}

impl Watched {
    /// The settings in `dir`, read at the first [`Watched::get`].
    pub fn new(dir: &Path) -> Self {
        Self { dir: dir.to_owned(), held: std::sync::Mutex::new(None) }
    }

    /// The settings as they are on disk now.
    pub fn get(&self) -> Result<RemoteConfig> {
        let now = stamp(&self.dir.join(FILE));
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, config)) = held.as_ref()
            && *at == now
        {
            return Ok(config.clone());
        }
        let config = RemoteConfig::load(&self.dir)?;
        *held = Some((now, config.clone()));
        Ok(config)
    }
}

/// The exclusive lock on `dir`'s remote settings (waits for another holder).
fn lock(dir: &Path) -> Result<File> {
    crate::store::datadir::ensure(dir)?;
    let path = dir.join(LOCK);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file =
        options.open(&path).map_err(|e| Error::storage(format!("cannot open {}: {e}", path.display())))?;
    file.lock().map_err(|e| Error::storage(format!("cannot lock {}: {e}", path.display())))?;
    Ok(file)
}

/// Write `config` to a file of this write's own, moved over `remote.json`.
fn write(config: &RemoteConfig, dir: &Path) -> Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let text = serde_json::to_string_pretty(config).map_err(|e| Error::storage(e.to_string()))?;
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!("{FILE}.{}.{n}.tmp", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = (|| -> std::io::Result<()> {
        let mut f = options.open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, dir.join(FILE))
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(|e| Error::storage(format!("cannot write {}: {e}", dir.join(FILE).display())))
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::remote::{Bot, Platform};

    #[test]
    fn the_file_is_private_and_keeps_no_code_in_clear() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = RemoteConfig::default();
        let (bot, code) =
            Bot::new("123:secret-token".into(), Platform::Telegram.default_api().into(), Utc::now());
        config.telegram = Some(bot);
        config.save(dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert!(!text.contains(&code));
        assert_eq!(RemoteConfig::load(dir.path()).unwrap(), config);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(dir.path().join(FILE), "{nope").unwrap();
        let err = RemoteConfig::load(dir.path()).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("remote.json"));
        assert!(Platform::parse("irc").unwrap_err().message.contains("telegram or slack"));
    }

    #[test]
    fn changes_made_at_once_all_land() {
        let dir = tempfile::tempdir().unwrap();
        RemoteConfig::default().save(dir.path()).unwrap();
        std::thread::scope(|s| {
            for t in 0..8 {
                let dir = dir.path();
                s.spawn(move || {
                    for i in 0..10 {
                        let mut c = RemoteConfig::edit(dir).unwrap();
                        c.never_remote.insert(format!("p{t}-{i}"));
                        c.save().unwrap();
                    }
                });
            }
        });
        let kept = RemoteConfig::load(dir.path()).unwrap().never_remote;
        assert_eq!(kept.len(), 80, "every change landed: {kept:?}");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_watched_reader_sees_every_write_and_reads_only_after_one() {
        let dir = tempfile::tempdir().unwrap();
        let watched = Watched::new(dir.path());
        assert_eq!(watched.get().unwrap(), RemoteConfig::default(), "no file yet");
        let mut config = RemoteConfig::default();
        config.save(dir.path()).unwrap();
        for away in [true, false, true] {
            let mut edit = RemoteConfig::edit(dir.path()).unwrap();
            edit.away = away;
            edit.save().unwrap();
            drop(edit);
            assert_eq!(watched.get().unwrap().away, away, "the write is seen at once");
        }
        config.away = true;
        // The same file, length and time: not read again (its bytes, spoilt in place
        // with the time put back, would not parse).
        let path = dir.path().join(FILE);
        let (len, at) =
            (std::fs::metadata(&path).unwrap().len(), std::fs::metadata(&path).unwrap().modified().unwrap());
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        (&f).write_all(&vec![b'x'; len as usize]).unwrap();
        f.set_modified(at).unwrap();
        drop(f);
        assert_eq!(watched.get().unwrap(), config);
        assert!(RemoteConfig::load(dir.path()).is_err(), "the file itself is spoilt");
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        assert_eq!(watched.get().unwrap(), RemoteConfig::default(), "removed: none");
    }
}
