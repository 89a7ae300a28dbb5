//! Reading files that come from a repository (markers today, git files next): someone
//! else wrote them, so they are opened only as regular files, read up to a cap, and given
//! a time bound, and a FIFO, a device or a symlink to one costs a warning, not a hang.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

/// How long one read may take (a stalled network mount) before it is given up on.
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ignored {
    /// A FIFO, socket, device or directory.
    NotRegular,
    /// Larger than the cap.
    TooLarge(u64),
    /// Not text.
    NotUtf8,
    /// The read did not finish within [`READ_TIMEOUT`].
    TimedOut,
    /// Any other failure (permissions, I/O).
    Unreadable(String),
    /// A link whose target lies outside the folder it was found in.
    Outside(PathBuf),
}

impl std::fmt::Display for Ignored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ignored::NotRegular => write!(f, "not a regular file"),
            Ignored::TooLarge(cap) => write!(f, "larger than {cap} bytes"),
            Ignored::NotUtf8 => write!(f, "not UTF-8 text"),
            Ignored::TimedOut => write!(f, "reading it took longer than {}s", READ_TIMEOUT.as_secs()),
            Ignored::Unreadable(e) => write!(f, "unreadable ({e})"),
            Ignored::Outside(dir) => write!(f, "a link to a file outside {}", dir.display()),
        }
    }
}

/// The text of `path` if it is a regular file of at most `cap` bytes; `Ok(None)` if
/// there is nothing at `path`.
pub fn read_text(path: &Path, cap: u64) -> Result<Option<String>, Ignored> {
    // Most lookups find nothing (a marker is looked for in every ancestor): answer those
    // and the obvious refusals from a stat, without a thread. What is opened is still
    // checked again on the opened file below.
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if !meta.is_file() => return Err(Ignored::NotRegular),
        Ok(meta) if meta.len() > cap => return Err(Ignored::TooLarge(cap)),
        _ => {}
    }
    let owned = path.to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    // The read runs on its own thread so that a mount that never answers costs this
    // caller READ_TIMEOUT, not forever.
    let spawned = std::thread::Builder::new().name("mooring-untrusted-read".into()).spawn(move || {
        let _ = tx.send(read_now(&owned, cap));
    });
    if let Err(e) = spawned {
        return Err(Ignored::Unreadable(e.to_string()));
    }
    rx.recv_timeout(READ_TIMEOUT).unwrap_or(Err(Ignored::TimedOut))
}

/// The text of `path` as [`read_text`] reads it, only if the file it names, links
/// followed, lies inside `within`: a committed `AGENTS.md -> ~/.netrc` is refused.
pub fn read_text_within(path: &Path, within: &Path, cap: u64) -> Result<Option<String>, Ignored> {
    let real = match path.canonicalize() {
        Ok(real) => real,
        // A dangling link is refused like one that leads out; nothing there is nothing.
        Err(_) if std::fs::symlink_metadata(path).is_ok() => {
            return Err(Ignored::Outside(within.to_path_buf()));
        }
        Err(_) => return Ok(None),
    };
    let fence = within.canonicalize().unwrap_or_else(|_| within.to_path_buf());
    if !real.starts_with(&fence) {
        return Err(Ignored::Outside(within.to_path_buf()));
    }
    // The resolved path is the one read, not the link that named it.
    read_text(&real, cap)
}

fn read_now(path: &Path, cap: u64) -> Result<Option<String>, Ignored> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Ignored::Unreadable(e.to_string())),
    };
    // What was opened decides, not what the path said a moment ago (no race with a swap).
    let meta = file.metadata().map_err(|e| Ignored::Unreadable(e.to_string()))?;
    if !meta.is_file() {
        return Err(Ignored::NotRegular);
    }
    if meta.len() > cap {
        return Err(Ignored::TooLarge(cap));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The size can change between fstat and read; the cap holds regardless.
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| Ignored::Unreadable(e.to_string()))?;
    if bytes.len() as u64 > cap {
        return Err(Ignored::TooLarge(cap));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| Ignored::NotUtf8)
}

static REPORTED: LazyLock<Mutex<HashSet<PathBuf>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

/// Log "ignored FILE: why" once per file for this process; true the first time.
pub fn report_once(path: &Path, why: &Ignored) -> bool {
    let mut seen = REPORTED.lock().unwrap_or_else(|p| p.into_inner());
    if seen.len() > 10_000 {
        seen.clear();
    }
    let first = seen.insert(path.to_path_buf());
    if first {
        tracing::warn!("ignored {}: {why}", path.display());
    }
    first
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::Instant;

    use super::*;

    #[test]
    fn regular_files_are_read_and_everything_else_refused_quickly() {
        let tmp = tempfile::tempdir().unwrap();
        let ok = tmp.path().join("ok.toml");
        std::fs::write(&ok, "project = \"a\"").unwrap();
        assert_eq!(read_text(&ok, 1024).unwrap().as_deref(), Some("project = \"a\""));
        assert_eq!(read_text(&tmp.path().join("absent"), 1024), Ok(None));

        let fifo = tmp.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let zero = tmp.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let big = tmp.path().join("big");
        std::fs::write(&big, vec![b'x'; 2048]).unwrap();
        let link_ok = tmp.path().join("link");
        std::os::unix::fs::symlink(&ok, &link_ok).unwrap();

        let started = Instant::now();
        assert_eq!(read_text(&fifo, 1024), Err(Ignored::NotRegular));
        assert_eq!(read_text(&zero, 1024), Err(Ignored::NotRegular));
        assert_eq!(read_text(tmp.path(), 1024), Err(Ignored::NotRegular));
        assert_eq!(read_text(&big, 1024), Err(Ignored::TooLarge(1024)));
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        assert!(read_text(&link_ok, 1024).unwrap().is_some(), "a symlink to a regular file is fine");
        std::fs::write(&big, [0xff, 0xfe]).unwrap();
        assert_eq!(read_text(&big, 1024), Err(Ignored::NotUtf8));
    }

    #[test]
    fn a_link_is_followed_only_while_it_stays_inside_its_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let checkout = tmp.path().join("checkout");
        std::fs::create_dir_all(checkout.join("docs")).unwrap();
        std::fs::write(checkout.join("docs/agents.md"), "inside").unwrap();
        std::fs::write(tmp.path().join(".netrc"), "machine x password y").unwrap();
        std::os::unix::fs::symlink("docs/agents.md", checkout.join("AGENTS.md")).unwrap();
        std::os::unix::fs::symlink("../.netrc", checkout.join("CLAUDE.md")).unwrap();
        std::os::unix::fs::symlink("../nowhere", checkout.join("GEMINI.md")).unwrap();
        let read = |name: &str| read_text_within(&checkout.join(name), &checkout, 1024);
        assert_eq!(read("AGENTS.md").unwrap().as_deref(), Some("inside"));
        assert_eq!(read("CLAUDE.md"), Err(Ignored::Outside(checkout.clone())));
        assert_eq!(read("GEMINI.md"), Err(Ignored::Outside(checkout.clone())));
        assert_eq!(read("absent.md"), Ok(None));
    }
}
