//! The files a shell command line plainly renames or deletes (`mv`, `git mv`, `rm`,
//! `git rm`), and those it plainly writes at all (what a claim is checked for before the
//! command runs), read from the command line alone — the command is never run again and
//! its output is never read. Anything less plain (globs, variables, substitutions, `find
//! -delete`) is left out rather than guessed, and a here-document's lines are text, not
//! commands.

use super::shell_lex::{here_document, simple_commands};

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
    for simple in simple_commands(command) {
        changes_of(&simple.words, &mut out);
        if out.len() >= MOST {
            out.truncate(MOST);
            break;
        }
    }
    out
}

/// Push the renames and deletions one simple command (its words) names to `out`.
fn changes_of(words: &[String], out: &mut Vec<Change>) {
    let mut words = words.iter().map(String::as_str).skip_while(|w| is_assignment(w)).peekable();
    let mut tool = words.next().unwrap_or("");
    if tool == "git" {
        tool = match words.next() {
            Some("mv") => "mv",
            Some("rm") => "rm",
            _ => return,
        };
    }
    let operands: Vec<&str> = words.filter(|w| !w.starts_with('-')).collect();
    if operands.iter().any(|w| !plain(w)) {
        return;
    }
    match (tool, operands.as_slice()) {
        ("rm", paths) => out.extend(paths.iter().map(|p| Change::Deleted(clean(p)))),
        ("mv", [from, to]) => out.push(Change::Renamed(clean(from), clean(to))),
        ("mv", [froms @ .., dir]) if !froms.is_empty() => {
            for from in froms {
                let name = std::path::Path::new(from).file_name().map(|n| n.to_string_lossy().into_owned());
                if let Some(name) = name {
                    out.push(Change::Renamed(clean(from), format!("{}/{name}", clean(dir))));
                }
            }
        }
        _ => {}
    }
}

/// The files `command` plainly writes, in order and each once: those it renames (both
/// names) or deletes, copies onto, touches, truncates, edits in place (`sed -i`), tees or
/// redirects output into. `/dev/null` and the like are no files.
pub fn written_files(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        let path = clean(path);
        if plain(&path) && !path.starts_with("/dev/") && !out.contains(&path) && out.len() < MOST {
            out.push(path);
        }
    };
    // The command line is split and parsed once; each simple command is read twice.
    let commands = simple_commands(command);
    let mut changes = Vec::new();
    for simple in &commands {
        changes_of(&simple.words, &mut changes);
    }
    for change in changes {
        match change {
            Change::Deleted(p) => add(&p),
            Change::Renamed(from, to) => {
                add(&from);
                add(&to);
            }
        }
    }
    for path in patched_files(command) {
        add(path);
    }
    for simple in &commands {
        for target in &simple.redirects {
            add(target);
        }
        let mut rest = simple.words.iter().map(String::as_str).skip_while(|w| is_assignment(w));
        let tool = rest.next().unwrap_or("");
        let args: Vec<&str> = rest.collect();
        for path in writes_of(tool, &args) {
            add(&path);
        }
    }
    out
}

/// The files an `apply_patch` here-document adds, updates, deletes or moves to (Codex
/// runs its edits so: `apply_patch <<'PATCH'` then `*** Update File: PATH` lines).
fn patched_files(command: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut lines = command.lines();
    while let Some(line) = lines.next() {
        let starts_patch =
            line.trim_start().starts_with("apply_patch") || line.trim_start().starts_with("applypatch");
        let Some(end) = here_document(line).filter(|_| starts_patch) else { continue };
        for body in lines.by_ref() {
            if body.trim() == end {
                break;
            }
            let named = ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "]
                .iter()
                .find_map(|head| body.strip_prefix(head));
            if let Some(path) = named.map(str::trim).filter(|p| !p.is_empty()) {
                out.push(path);
            }
        }
    }
    out
}

/// What tool `tool` (not `mv` or `rm`, read by [`file_changes`]) writes, given its words.
fn writes_of(tool: &str, args: &[&str]) -> Vec<String> {
    // The operands, leaving out options and the values of those in `valued`.
    let operands = |valued: &[&str]| -> Vec<String> {
        let mut out = Vec::new();
        let mut it = args.iter();
        while let Some(&w) = it.next() {
            if valued.contains(&w) {
                it.next();
            } else if !w.starts_with('-') {
                out.push(w.to_owned());
            }
        }
        out
    };
    match tool {
        "tee" | "touch" => operands(&[]),
        "truncate" => operands(&["-s", "--size", "-r", "--reference"]),
        "cp" => {
            let into = |dir: &str, froms: &[String]| -> Vec<String> {
                froms
                    .iter()
                    .filter_map(|from| std::path::Path::new(from).file_name())
                    .map(|name| format!("{}/{}", clean(dir), name.to_string_lossy()))
                    .collect()
            };
            let target = args.iter().position(|w| matches!(*w, "-t" | "--target-directory"));
            match (target.and_then(|i| args.get(i + 1)), operands(&["-t", "--target-directory"]).as_slice()) {
                (Some(dir), froms) => into(dir, froms),
                (None, [_, to]) if !to.ends_with('/') => vec![to.clone()],
                // Into a folder: each source's name there.
                (None, [froms @ .., dir]) => into(dir, froms),
                (None, []) => Vec::new(),
            }
        }
        "sed" if args.iter().any(|w| w.starts_with("-i") || w.starts_with("--in-place")) => {
            let scripted = args.iter().any(|w| matches!(*w, "-e" | "-f" | "--expression" | "--file"));
            // Without `-e` or `-f`, the first operand is the script.
            operands(&["-e", "-f", "--expression", "--file"])
                .into_iter()
                .skip(usize::from(!scripted))
                .collect()
        }
        _ => Vec::new(),
    }
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
    use super::{Change, file_changes, written_files};

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
    fn the_files_a_command_line_plainly_writes_are_read_before_it_runs() {
        let w = |c: &str| written_files(c);
        assert_eq!(w("cargo fmt && echo done > out/log.txt 2>&1"), ["out/log.txt"]);
        assert_eq!(
            w("echo x >>notes.md; cat a | tee -a b.txt c.txt >/dev/null"),
            ["notes.md", "b.txt", "c.txt"]
        );
        assert_eq!(w("mv src/a.rs src/b.rs && rm -f old.rs"), ["src/a.rs", "src/b.rs", "old.rs"]);
        assert_eq!(w("sed -i 's/a/b/' src/x.rs src/y.rs"), ["src/x.rs", "src/y.rs"]);
        assert_eq!(w("sed -i.bak -e 's/a/b/' -e 's/c/d/' x.rs"), ["x.rs"]);
        assert_eq!(
            w("cp a.rs b.rs; cp one two docs/; touch ./new.rs; truncate -s 0 big.log"),
            ["b.rs", "docs/one", "docs/two", "new.rs", "big.log"]
        );
        assert_eq!(w("sleep 1 & rm x"), ["x"], "a background command is a command of its own");
        assert_eq!(w("cp -t out/ a.rs lib/b.rs"), ["out/a.rs", "out/b.rs"]);
        // A here-document's body is text: its `rm` is written into the file, not run.
        assert_eq!(w("cat > src/main.rs << 'EOF'\nrm important.rs\nfn main() {}\nEOF\nls"), ["src/main.rs"]);
        // Codex 0.169's edit, as its PreToolUse hook hands it over (recorded).
        let patch = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: retry.py\n@@\n-    return n\n+    \
                     return min(n, 3)\n*** Delete File: old_retry.py\n*** Update File: a.rs\n*** Move to: b.rs\n\
                     *** End Patch\nPATCH";
        assert_eq!(w(patch), ["retry.py", "old_retry.py", "a.rs", "b.rs"]);
        // Quotes hold operators: the command with a quoted `|` is still read.
        assert_eq!(w(r#"grep -E "TODO|FIXME" src/x.rs > todo.txt"#), ["todo.txt"]);
        assert_eq!(w("sort < in.txt > out.txt"), ["out.txt"], "what is read is not written");
        for nothing in [
            "ls -la src",
            "grep -r foo . > $OUT",
            "sed 's/a/b/' x.rs",
            "echo hi >&2",
            "cat <<< 'rm x'",
            "cargo test 2>/dev/null",
            "echo 'a > b'",
            "echo '>' notes.txt",
            r#"git commit -m "split; rm -rf src""#,
        ] {
            assert_eq!(w(nothing), Vec::<String>::new(), "{nothing}");
        }
    }

    #[test]
    fn a_huge_command_line_gives_a_bounded_list() {
        let line = format!("rm {}", (0..10_000).map(|i| format!("f{i}")).collect::<Vec<_>>().join(" "));
        assert_eq!(file_changes(&line).len(), 50);
    }
}
