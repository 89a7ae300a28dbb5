//! Where a session works, and its paths as a record shows them: relative to the session's
//! checkout whatever directory the agent had `cd`-ed into, never one machine's absolute
//! path, never empty.

use std::path::{Component, Path, PathBuf};

/// Where a session works: its checkout, which paths are shown relative to, and the
/// directory a line ran in, which relative paths start from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place<'a> {
    /// The checkout (git top level or the project's code path).
    pub root: Option<&'a str>,
    /// The directory the client ran the line in (it follows the agent's `cd`).
    pub cwd: Option<&'a str>,
}

impl<'a> Place<'a> {
    /// The same checkout, with the line's own directory when it names one.
    pub fn at(self, cwd: Option<&'a str>) -> Self {
        Self { cwd: cwd.filter(|c| Path::new(c).is_absolute()).or(self.cwd), ..self }
    }
}

/// `path` as the record keeps it: inside the checkout (or, without one, the directory),
/// relative to it; elsewhere, its name only; never empty.
pub fn shown_path(path: &str, place: Place<'_>) -> String {
    let p = Path::new(path);
    let absolute = match (p.is_absolute(), place.cwd) {
        (true, _) => lexical(p),
        (false, Some(cwd)) => lexical(&Path::new(cwd).join(p)),
        (false, None) => {
            let rel = lexical(p);
            return match rel.as_os_str().is_empty() {
                true => "…".to_owned(),
                false => rel.display().to_string(),
            };
        }
    };
    for base in [place.root, place.cwd].into_iter().flatten() {
        if let Ok(rel) = absolute.strip_prefix(lexical(Path::new(base)))
            && !rel.as_os_str().is_empty()
        {
            return rel.display().to_string();
        }
    }
    match absolute.file_name() {
        Some(name) => format!("…/{}", name.to_string_lossy()),
        None => "…".to_owned(),
    }
}

/// `path` with `.` and `..` worked out on the text alone (the file may be gone).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Place, shown_path};

    #[test]
    fn paths_are_relative_to_the_checkout_whatever_the_agent_cd_ed_into() {
        let root = Place { root: Some("/w/app"), cwd: Some("/w/app") };
        let inside = root.at(Some("/w/app/assets"));
        assert_eq!(shown_path("/w/app/assets/js/live.ex", inside), "assets/js/live.ex");
        assert_eq!(shown_path("js/live.ex", inside), "assets/js/live.ex");
        assert_eq!(shown_path("../lib/a.ex", inside), "lib/a.ex");
        assert_eq!(shown_path("/etc/hosts", inside), "…/hosts");
        // The checkout itself is never an empty path.
        assert_eq!(shown_path("/w/app", inside), "…/app");
        assert_eq!(shown_path("./x/./y.rs", Place::default()), "x/y.rs");
        assert_eq!(shown_path("/w/app/a.rs", Place { root: None, cwd: Some("/w/app") }), "a.rs");
    }
}
