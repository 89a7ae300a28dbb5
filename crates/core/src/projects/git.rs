//! What git says about a session's directory: the checkout it is in, the main checkout
//! when that is a linked worktree, and the remote it was cloned from. Read with
//! gitoxide's `gix-discover` and `gix-config` (never the `git` binary); every file is a
//! repository's, so untrusted: only regular files, size-capped. Facts are cached per
//! directory for [`TTL`], so the walk up for `.git` is paid once per directory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long a directory's git facts are reused.
pub const TTL: Duration = Duration::from_secs(10);
/// Most directories cached at once (the cache starts over past it).
const CACHE_CAP: usize = 4096;
/// Git's own files are small; anything bigger is not one.
const MAX_FILE: u64 = 64 * 1024;
/// A repository's `config` may be bigger (many remotes and branches).
const MAX_CONFIG: u64 = 1024 * 1024;

/// Git facts of one directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitFacts {
    /// The root of the checkout holding the directory.
    pub checkout: PathBuf,
    /// When the checkout is a linked worktree: the main checkout's root.
    pub main_checkout: Option<PathBuf>,
    /// The remote's URL as configured (`origin`, else the only remote).
    pub remote_url: Option<String>,
    /// The same URL normalized for comparison ([`normalize_remote`]).
    pub remote_key: Option<String>,
    /// The branch the checkout is on (none when detached).
    pub branch: Option<String>,
}

type Cache = Mutex<HashMap<PathBuf, (Instant, Option<GitFacts>)>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The git facts of `dir` (canonical), cached for [`TTL`].
pub fn facts(dir: &Path) -> Option<GitFacts> {
    let now = Instant::now();
    if let Some((at, f)) = cache().lock().unwrap_or_else(|p| p.into_inner()).get(dir)
        && now.duration_since(*at) < TTL
    {
        return f.clone();
    }
    let found = read_facts(dir);
    let mut c = cache().lock().unwrap_or_else(|p| p.into_inner());
    if c.len() >= CACHE_CAP {
        c.clear();
    }
    c.insert(dir.to_path_buf(), (now, found.clone()));
    found
}

/// Forget cached facts (after a checkout moved, and in tests).
pub fn forget_all() {
    cache().lock().unwrap_or_else(|p| p.into_inner()).clear();
}

/// The remote of the checkout holding `dir`, for filling a project's `repo_url`: never
/// with credentials (`https://user:token@host/…` keeps only the host and path), and only
/// when it is a repository URL the project may hold.
pub fn remote_of(dir: &Path) -> Option<String> {
    let url = read_facts(dir)?.remote_url?;
    let url = match url::Url::parse(&url) {
        Ok(mut u) if !u.username().is_empty() || u.password().is_some() => {
            let _ = u.set_password(None);
            if u.scheme() != "ssh" {
                let _ = u.set_username("");
            }
            u.to_string()
        }
        _ => url,
    };
    crate::guard::validate::repo_url(&url).ok().flatten()
}

fn read_facts(dir: &Path) -> Option<GitFacts> {
    let (checkout, dot_git) = nearest_dot_git(dir)?;
    // A repository at the home directory or the root (dotfiles) says nothing about a project.
    if crate::paths::is_meaningless_dir(&checkout) {
        return None;
    }
    let meta = std::fs::symlink_metadata(&dot_git).ok()?;
    let (common_dir, main_checkout, branch) = if meta.is_dir() {
        (dot_git.clone(), None, branch_in(&dot_git))
    } else {
        // A FIFO, a device or a huge file named .git is someone's trap: skip it, say so once.
        if let Err(why) = crate::guard::untrusted::read_text(&dot_git, MAX_FILE) {
            crate::guard::untrusted::report_once(&dot_git, &why);
            return None;
        }
        let git_dir = gix_discover::path::from_gitdir_file(&dot_git).ok()?;
        let git_dir = absolute(&checkout, git_dir);
        let commondir = git_dir.join("commondir");
        if !regular_small(&commondir, MAX_FILE) {
            // A `.git` file without commondir: a submodule's checkout, not a worktree.
            let branch = branch_in(&git_dir);
            return Some(GitFacts { branch, ..with_remote(checkout, None, &git_dir) });
        }
        let common = gix_discover::path::from_plain_file_relative_to_file(&commondir)?.ok()?;
        let common = std::fs::canonicalize(common).ok()?;
        // Only a non-bare main repository (`<main>/.git`) has a main checkout.
        let main = (common.file_name() == Some(std::ffi::OsStr::new(".git")))
            .then(|| common.parent().map(Path::to_path_buf))
            .flatten();
        (common, main, branch_in(&git_dir))
    };
    Some(GitFacts { branch, ..with_remote(checkout, main_checkout, &common_dir) })
}

/// The branch a git directory's `HEAD` names (`ref: refs/heads/NAME`); none when detached.
fn branch_in(git_dir: &Path) -> Option<String> {
    let head = git_dir.join("HEAD");
    if !regular_small(&head, MAX_FILE) {
        return None;
    }
    let text = std::fs::read_to_string(head).ok()?;
    let name = text.trim().strip_prefix("ref: refs/heads/")?;
    (!name.is_empty() && !name.chars().any(char::is_control)).then(|| name.to_owned())
}

fn with_remote(checkout: PathBuf, main_checkout: Option<PathBuf>, common_dir: &Path) -> GitFacts {
    let remote_url = read_remote(&common_dir.join("config"));
    let remote_key = remote_url.as_deref().and_then(normalize_remote);
    GitFacts { checkout, main_checkout, remote_url, remote_key, branch: None }
}

/// The nearest directory at or above `dir` holding a `.git` entry, and that entry.
fn nearest_dot_git(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    dir.ancestors().find_map(|d| {
        let dot_git = d.join(".git");
        std::fs::symlink_metadata(&dot_git).is_ok().then(|| (d.to_path_buf(), dot_git))
    })
}

fn absolute(base: &Path, p: PathBuf) -> PathBuf {
    let joined = if p.is_relative() { base.join(p) } else { p };
    std::fs::canonicalize(&joined).unwrap_or(joined)
}

fn regular_small(path: &Path, max: u64) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() <= max)
}

/// `remote.origin.url`, else the URL of the only remote.
fn read_remote(config: &Path) -> Option<String> {
    if !regular_small(config, MAX_CONFIG) {
        return None;
    }
    let text = crate::guard::untrusted::read_text(config, MAX_CONFIG).ok()??;
    let meta = gix_config::file::Metadata::from(gix_config::Source::Local);
    let file = gix_config::File::from_bytes_no_includes(text.as_bytes(), meta, Default::default()).ok()?;
    if let Some(url) = file.string("remote.origin.url") {
        return Some(url.to_string());
    }
    let remotes: Vec<String> = file
        .sections_by_name("remote")?
        .filter_map(|s| s.header().subsection_name().map(|n| n.to_string()))
        .collect();
    match remotes.as_slice() {
        [only] => file.string_by("remote", Some(only.as_str().into()), "url").map(|u| u.to_string()),
        _ => None,
    }
}

/// A repository URL reduced to what identifies the repository: the host (lower case)
/// and the path without a trailing `.git` or slashes. `git@github.com:me/le.git`,
/// `https://GitHub.com/me/le/` and `ssh://git@github.com/me/le` are all
/// `github.com/me/le`. None when it is not a URL git would accept.
pub fn normalize_remote(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty() {
        return None;
    }
    let parsed = gix_url::parse(url).ok()?;
    let path = parsed.path.to_string();
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path).trim_end_matches('/');
    if path.is_empty() {
        return None;
    }
    Some(match parsed.host() {
        Some(host) => format!("{}/{}", host.to_ascii_lowercase(), path),
        None => format!("/{path}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remotes_compare_equal_across_spellings() {
        let want = Some("github.com/me/le".to_owned());
        for url in [
            "git@github.com:me/le.git",
            "https://github.com/me/le",
            "https://GitHub.com/me/le.git/",
            "ssh://git@github.com/me/le",
            "git://github.com/me/le.git",
            "https://github.com/me/le/",
        ] {
            assert_eq!(normalize_remote(url), want, "{url}");
        }
        assert_ne!(normalize_remote("git@github.com:me/le2.git"), want);
        assert_ne!(normalize_remote("git@gitlab.com:me/le.git"), want);
        assert_eq!(normalize_remote("/srv/git/le.git"), Some("/srv/git/le".to_owned()));
        assert_eq!(normalize_remote(""), None);
    }
}
