//! The commits made in a session's checkout while the session ran, read with gitoxide
//! (never the git binary): from HEAD back along first parents while commits are newer
//! than the session's start. Only ids and first lines are kept.

use std::path::Path;

use super::record::{Commit, trim};

/// Most commits read back from HEAD.
const MOST: usize = 20;
/// Longest subject kept.
const SUBJECT_CHARS: usize = 120;

/// Commits in the repository holding `dir` made at or after `since` (seconds since the
/// epoch) and no later than `until`, newest first. A directory in no repository, an
/// unborn branch or an unreadable object gives what was read so far.
pub fn since(dir: &Path, since: i64, until: i64) -> Vec<Commit> {
    let Ok(repo) = gix::discover(dir) else { return Vec::new() };
    let Ok(mut commit) = repo.head_commit() else { return Vec::new() };
    let mut out = Vec::new();
    for _ in 0..MOST {
        let Ok(time) = commit.time() else { break };
        if time.seconds < since {
            break;
        }
        if time.seconds <= until {
            let subject = commit
                .message()
                .map(|m| m.summary().to_string())
                .unwrap_or_else(|_| String::from_utf8_lossy(commit.message_raw_sloppy()).into_owned());
            let id = commit.id().shorten_or_id().to_string();
            out.push(Commit { id, subject: trim(subject.lines().next().unwrap_or(""), SUBJECT_CHARS) });
        }
        let Some(parent) = commit.parent_ids().next() else { break };
        let Some(next) = parent.object().ok().and_then(|o| o.try_into_commit().ok()) else { break };
        commit = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    fn git(dir: &std::path::Path, args: &[&str], when: &str) {
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
}
