//! The files a shell command line plainly renames or deletes (`mv`, `git mv`, `rm`,
//! `git rm`), read from the command line alone — the command is never run again and its
//! output is never read. Anything less plain (globs, variables, substitutions, `find
//! -delete`) is left out rather than guessed.

/// A file change a command line names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `rm PATH`, `git rm PATH`.
    Deleted(String),
    /// `mv FROM TO`, `git mv FROM TO`.
    Renamed(String, String),
}

/// Most changes taken from one command line.
const MOST: usize = 50;

/// The renames and deletions `command` names, in order.
pub fn file_changes(command: &str) -> Vec<Change> {
    let mut out = Vec::new();
    for part in command.split(['\n', ';', '|', '&']) {
        let Ok(words) = shell_words::split(part) else { continue };
        let mut words = words.iter().map(String::as_str).skip_while(|w| is_assignment(w)).peekable();
        let mut tool = words.next().unwrap_or("");
        if tool == "git" {
            tool = match words.next() {
                Some("mv") => "mv",
                Some("rm") => "rm",
                _ => continue,
            };
        }
        let operands: Vec<&str> = words.filter(|w| !w.starts_with('-')).collect();
        if operands.iter().any(|w| !plain(w)) {
            continue;
        }
        match (tool, operands.as_slice()) {
            ("rm", paths) => out.extend(paths.iter().map(|p| Change::Deleted(clean(p)))),
            ("mv", [from, to]) => out.push(Change::Renamed(clean(from), clean(to))),
            ("mv", [froms @ .., dir]) if !froms.is_empty() => {
                for from in froms {
                    let name =
                        std::path::Path::new(from).file_name().map(|n| n.to_string_lossy().into_owned());
                    if let Some(name) = name {
                        out.push(Change::Renamed(clean(from), format!("{}/{name}", clean(dir))));
                    }
                }
            }
            _ => {}
        }
        if out.len() >= MOST {
            out.truncate(MOST);
            break;
        }
    }
    out
}

/// `NAME=value`, set for the command that follows.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// A path as written, with nothing the shell would expand.
fn plain(word: &str) -> bool {
    !word.is_empty() && !word.contains(['*', '?', '[', '$', '`', '~', '{', '>', '<', '(', ')'])
}

fn clean(path: &str) -> String {
    let p = path.trim_start_matches("./").trim_end_matches('/');
    if p.is_empty() { path.to_owned() } else { p.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::{Change, file_changes};

    fn renamed(a: &str, b: &str) -> Change {
        Change::Renamed(a.into(), b.into())
    }

    #[test]
    fn plain_renames_and_deletions_are_read_and_everything_else_is_left_out() {
        assert_eq!(
            file_changes("rm old_retry.py && mv notes.txt NOTES.md"),
            [Change::Deleted("old_retry.py".into()), renamed("notes.txt", "NOTES.md")]
        );
        assert_eq!(
            file_changes("git mv -f ./src/a.rs src/b.rs; git rm --cached x"),
            [renamed("src/a.rs", "src/b.rs"), Change::Deleted("x".into())]
        );
        assert_eq!(
            file_changes("mv a.txt b.txt docs/"),
            [renamed("a.txt", "docs/a.txt"), renamed("b.txt", "docs/b.txt")]
        );
        assert_eq!(file_changes("LC_ALL=C rm -rf build"), [Change::Deleted("build".into())]);
        for vague in
            ["rm *.o", "mv $A $B", "rm -rf ~/x", "git status", "echo rm x", "mv 'unclosed", "mv a", ""]
        {
            assert_eq!(file_changes(vague), [], "{vague}");
        }
    }

    #[test]
    fn a_huge_command_line_gives_a_bounded_list() {
        let line = format!("rm {}", (0..10_000).map(|i| format!("f{i}")).collect::<Vec<_>>().join(" "));
        assert_eq!(file_changes(&line).len(), 50);
    }
}
