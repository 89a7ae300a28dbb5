//! The commits a session made in its checkout, read with gitoxide (never the git binary)
//! from the reflog of the checkout's HEAD: its `commit`, `commit (amend)`, `commit
//! (initial)`, `commit (merge)`, `cherry-pick` and `revert` entries within the session's
//! time. A commit that arrived by `pull`, `merge`, `rebase` or `checkout` moved HEAD too,
//! but under another entry, so it is not the session's. Only ids and first lines are kept.

use std::path::Path;

use super::record::{Commit, trim};

/// Most commits kept.
const MOST: usize = 20;
/// Most reflog entries read back from the newest.
const READ: usize = 500;
/// Longest subject kept.
const SUBJECT_CHARS: usize = 120;

/// What a reflog entry's message says HEAD moved for.
fn made_here(message: &str) -> bool {
    let what = message.split(':').next().unwrap_or("");
    matches!(
        what,
        "commit" | "commit (amend)" | "commit (initial)" | "commit (merge)" | "cherry-pick" | "revert"
    )
}

/// Commits made in the checkout holding `dir` at or after `since` (seconds since the
/// epoch) and no later than `until`, newest first. A directory in no repository, a HEAD
/// without a reflog or an unreadable object gives what was read so far.
pub fn since(dir: &Path, since: i64, until: i64) -> Vec<Commit> {
    let Ok(repo) = gix::discover(dir) else { return Vec::new() };
    let Ok(head) = repo.head() else { return Vec::new() };
    let mut log = head.log_iter();
    let Ok(Some(entries)) = log.rev() else { return Vec::new() };
    let mut out: Vec<Commit> = Vec::new();
    let mut replaced: Vec<gix::ObjectId> = Vec::new();
    for entry in entries.take(READ) {
        let Ok(entry) = entry else { break };
        let when = entry.signature.time.seconds;
        if when < since {
            break;
        }
        let message = entry.message.to_string();
        if when > until || !made_here(&message) {
            continue;
        }
        // An amended commit is gone from the history: the amend replaced it.
        if message.starts_with("commit (amend)") {
            replaced.push(entry.previous_oid);
        }
        if replaced.contains(&entry.new_oid) || out.len() == MOST {
            continue;
        }
        let Some(commit) = repo.find_object(entry.new_oid).ok().and_then(|o| o.try_into_commit().ok()) else {
            continue;
        };
        let subject = commit
            .message()
            .map(|m| m.summary().to_string())
            .unwrap_or_else(|_| String::from_utf8_lossy(commit.message_raw_sloppy()).into_owned());
        let id = commit.id().shorten_or_id().to_string();
        out.push(Commit { id, subject: trim(subject.lines().next().unwrap_or(""), SUBJECT_CHARS) });
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use std::process::Command;

    /// `git ARGS` in `dir` as author and committer A, dated `when`.
    pub(in crate::capture) fn git(dir: &std::path::Path, args: &[&str], when: &str) {
        let ok = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_DATE", when)
            .env("GIT_COMMITTER_DATE", when)
            .env("GIT_AUTHOR_NAME", "A")
            .env("GIT_AUTHOR_EMAIL", "a@example.test")
            .env("GIT_COMMITTER_NAME", "A")
            .env("GIT_COMMITTER_EMAIL", "a@example.test")
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn only_the_commits_made_during_the_session_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q"], "@1000000000 +0000");
        git(d, &["commit", "-q", "--allow-empty", "-m", "Before the session"], "@1000000000 +0000");
        git(
            d,
            &["commit", "-q", "--allow-empty", "-m", "Add the retry helper\n\nwith a body"],
            "@1000000100 +0000",
        );
        git(d, &["commit", "-q", "--allow-empty", "-m", "Cap retries at 3"], "@1000000200 +0000");
        let got = super::since(&d.join("."), 1_000_000_050, 1_000_000_300);
        let subjects: Vec<&str> = got.iter().map(|c| c.subject.as_str()).collect();
        assert_eq!(subjects, ["Cap retries at 3", "Add the retry helper"]);
        assert!(got.iter().all(|c| c.id.len() >= 7 && c.id.chars().all(|ch| ch.is_ascii_hexdigit())));
        assert!(
            super::since(d, 1_000_000_050, 1_000_000_150).iter().all(|c| c.subject != "Cap retries at 3")
        );
        let empty = tempfile::tempdir().unwrap();
        assert!(super::since(empty.path(), 0, i64::MAX).is_empty());
    }

    #[test]
    fn a_commit_pulled_from_a_teammate_is_not_the_sessions_and_an_amend_replaces_its_commit() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, theirs) = (dir.path().join("mine"), dir.path().join("theirs"));
        std::fs::create_dir_all(&theirs).unwrap();
        git(&theirs, &["init", "-q", "-b", "main"], "@1000000000 +0000");
        git(&theirs, &["commit", "-q", "--allow-empty", "-m", "Start"], "@1000000000 +0000");
        let ok =
            Command::new("git").args(["clone", "-q"]).arg(&theirs).arg(&mine).status().unwrap().success();
        assert!(ok);
        // During the session: a teammate's commit arrives by pull, and the agent commits and
        // amends its own.
        git(&theirs, &["commit", "-q", "--allow-empty", "-m", "Teammate's change"], "@1000000100 +0000");
        git(&mine, &["pull", "-q", "--ff-only"], "@1000000150 +0000");
        git(&mine, &["commit", "-q", "--allow-empty", "-m", "Add retries (draft)"], "@1000000200 +0000");
        git(&mine, &["commit", "-q", "--allow-empty", "--amend", "-m", "Add retries"], "@1000000250 +0000");
        let got = super::since(&mine, 1_000_000_050, 1_000_000_300);
        let subjects: Vec<&str> = got.iter().map(|c| c.subject.as_str()).collect();
        assert_eq!(subjects, ["Add retries"], "{got:?}");
    }
}
