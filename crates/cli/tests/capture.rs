//! Capture through the real `mooring hook claude-code`, fed a transcript recorded from the
//! real Claude Code (2.1.330) as its `Stop`, `SessionEnd` and `SessionStart` hooks feed
//! it: one record per session however often the hook runs, nothing of a secret in any
//! file, the next session's preamble starting with what the last one asked, changed and
//! left open, the session's own record after a compaction, and the person's switches.

mod common;

use std::path::Path;

use common::Sandbox;
use serde_json::{Value, json};

const RECORDED: &str = include_str!("../../core/tests/fixtures/claude-code-2.1.330-work.jsonl");
const RECORDED_CWD: &str = "/tmp/rec/work";
const SECRET: &str = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";

/// The recorded session, as if it had run in `dir`.
fn transcript(sb: &Sandbox, dir: &Path, name: &str) -> std::path::PathBuf {
    let path = sb.home.join(name);
    std::fs::write(&path, RECORDED.replace(RECORDED_CWD, dir.to_str().unwrap())).unwrap();
    path
}

fn hook(sb: &Sandbox, input: Value, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = sb.cmd();
    // What a hook says is checked here, not how fast (that is `bench/`): an unoptimized
    // build on a busy machine must not miss the hook's 180 ms and say nothing.
    cmd.env("MOORING_HOOK_DEADLINE_MS", "4500");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "the hook never fails the client: {out:?}");
    out
}

fn turn_end(session: &str, cwd: &Path, transcript: &Path, event: &str) -> Value {
    json!({ "session_id": session, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event,
            "stop_hook_active": false, "reason": "prompt_input_exit" })
}

fn sessions(sb: &Sandbox) -> Vec<Value> {
    sb.json_ok(&["memory", "list", "retry", "--kind", "session"], None)["entries"].as_array().unwrap().clone()
}

#[test]
fn a_session_that_never_called_mooring_is_what_the_next_one_starts_from() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    let t = transcript(&sb, &work, "session-1.jsonl");
    for _ in 0..5 {
        let out = hook(&sb, turn_end("session-1", &work, &t, "Stop"), &[]);
        assert!(out.stdout.is_empty(), "a capture prints nothing");
    }
    hook(&sb, turn_end("session-1", &work, &t, "SessionEnd"), &[]);
    let found = sessions(&sb);
    assert_eq!(found.len(), 1, "one record per session: {found:?}");
    let record = found[0]["content"].as_str().unwrap();
    for what in
        ["Add a retry helper", "created retry.py", "Document the retry policy", "ended (prompt_input_exit)"]
    {
        assert!(record.contains(what), "{what} missing: {record}");
    }
    // `mooring sessions` shows what it asked and left open.
    let out = sb.cmd().args(["sessions", "retry"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Session: Add a retry helper")
            && text.contains("Still open: Document the retry policy"),
        "{text}"
    );
    let here = sb.cmd().arg("sessions").current_dir(&work).arg("--json").output().unwrap();
    let listed: Value = serde_json::from_slice(&here.stdout).unwrap();
    assert_eq!(
        (listed["project"].as_str(), listed["sessions"].as_array().map(Vec::len)),
        (Some("retry"), Some(1))
    );
    let nowhere = sb.cmd().arg("sessions").output().unwrap();
    assert!(
        !nowhere.status.success()
            && String::from_utf8_lossy(&nowhere.stderr).contains("mooring sessions SLUG")
    );
    // No file of Mooring's holds the token the session typed, nor the transcript's path.
    for entry in walk(&sb.data) {
        let bytes = std::fs::read(&entry).unwrap();
        assert!(
            !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
            "{} holds the token",
            entry.display()
        );
        // Nor what the session wrote into its file (file contents are never kept), nor
        // where the client keeps its transcript.
        let path = t.to_str().unwrap().as_bytes();
        for kept in [&b"def retry(n)"[..], &b"min(n, 3)"[..], path] {
            assert!(!bytes.windows(kept.len()).any(|w| w == kept), "{} holds {kept:?}", entry.display());
        }
    }

    // The next session in the project starts with it.
    let start = json!({ "session_id": "session-2", "cwd": work, "hook_event_name": "SessionStart", "source": "startup" });
    let out = hook(&sb, start, &[]);
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    let context = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    let last = context.find("## Last session").unwrap_or_else(|| panic!("no last session: {context}"));
    assert!(context[last..].contains("Still open") && context[last..].contains("retry.py"), "{context}");

    // After a compaction the session gets its own record back first.
    let compacted = json!({ "session_id": "session-1", "cwd": work, "hook_event_name": "SessionStart", "source": "compact" });
    let out = hook(&sb, compacted, &[]);
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    let context = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with("## This session before compaction"), "{context}");
}

#[test]
fn the_person_can_silence_one_session_or_all_and_no_project_means_nothing_stored() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    let elsewhere = sb.mkdir("elsewhere");
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    let t = transcript(&sb, &work, "t.jsonl");
    hook(&sb, turn_end("quiet", &work, &t, "Stop"), &[("MOORING_CAPTURE", "off")]);
    assert!(sessions(&sb).is_empty(), "MOORING_CAPTURE=off keeps nothing of the session");
    let out = hook(
        &sb,
        json!({ "cwd": work, "hook_event_name": "SessionStart", "source": "startup" }),
        &[("MOORING_CAPTURE", "off")],
    );
    assert!(out.stdout.is_empty(), "and adds nothing to it");
    hook(&sb, turn_end("nowhere", &elsewhere, &t, "Stop"), &[]);
    assert!(sessions(&sb).is_empty());
    sb.json_ok(&["capture", "off"], None);
    hook(&sb, turn_end("off", &work, &t, "Stop"), &[]);
    assert!(sessions(&sb).is_empty(), "capture off keeps nothing");
    sb.json_ok(&["capture", "on"], None);
    sb.json_ok(&["capture", "off", "--project", "retry"], None);
    hook(&sb, turn_end("off-here", &work, &t, "Stop"), &[]);
    assert!(sessions(&sb).is_empty(), "a project switched off keeps nothing");
    let refused = sb.cmd().args(["capture", "off", "--project", "nope"]).output().unwrap();
    assert!(
        !refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("no project 'nope'")
    );
    sb.json_ok(&["capture", "on", "--project", "retry"], None);
    // A repository can opt out for everyone who clones it.
    std::fs::write(work.join(".mooring.toml"), "project = \"retry\"\ncapture = false\n").unwrap();
    hook(&sb, turn_end("marked", &work, &t, "Stop"), &[]);
    assert!(sessions(&sb).is_empty(), "capture = false in .mooring.toml keeps nothing");
    std::fs::remove_file(work.join(".mooring.toml")).unwrap();
    hook(&sb, turn_end("on", &work, &t, "Stop"), &[]);
    hook(&sb, turn_end("on-too", &work, &t, "Stop"), &[]);
    assert_eq!(sessions(&sb).len(), 2, "two sessions, two records");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_prompt_about_a_decision_the_preamble_left_out_brings_it_once() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/leases");
    sb.json_ok(&["projects", "new", "Leases", "--code-path", work.to_str().unwrap()], None);
    let old = sb.json_ok(
        &[
            "memory",
            "add",
            "leases",
            "--kind",
            "decision",
            "Lease renewals retry twice with jitter, then the leader steps down",
        ],
        None,
    );
    for i in 0..25 {
        sb.json_ok(
            &[
                "memory",
                "add",
                "leases",
                "--kind",
                "decision",
                &format!("Decision {i}: metrics go to the {i}th shard"),
            ],
            None,
        );
    }
    // An ordinary "#N" in the preamble's text is not entry N: it stays recallable.
    let id = old["id"].to_string();
    sb.json_ok(&["projects", "leases", "--description", &format!("Tracking: see issue #{id}")], None);
    let start =
        json!({ "session_id": "s-1", "cwd": work, "hook_event_name": "SessionStart", "source": "startup" });
    let said: Value = serde_json::from_slice(&hook(&sb, start, &[]).stdout).unwrap();
    let preamble = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    // The newest decisions in full; older ones by title only (the preamble's early decisions).
    let (newest, early) = preamble.split_once("## Early decisions").expect("an early decisions block");
    assert!(!newest.contains("Lease renewals"), "the preamble holds the newest decisions only");
    assert!(early.contains("Lease renewals retry twice"), "{early}");
    assert!(preamble.contains(&format!("see issue #{id}")), "{preamble}");

    let prompt = |text: &str| {
        let input = json!({ "session_id": "s-1", "cwd": work, "hook_event_name": "UserPromptSubmit", "prompt": text,
                            "transcript_path": sb.home.join("none.jsonl") });
        hook(&sb, input, &[]).stdout
    };
    // What Claude Code submits for others (a background task's result, another session's
    // message) is not the person asking: nothing is recalled, and the entry is not spent.
    assert!(
        prompt("<task-notification>\n<summary>Why do lease renewals retry only twice?</summary>\n</task-notification>")
            .is_empty()
    );
    assert!(
        prompt("<cross-session-message from=\"docs\">why do lease renewals retry only twice?</cross-session-message>")
            .is_empty()
    );
    let out = prompt("Why do lease renewals retry only twice?");
    let said: Value = serde_json::from_slice(&out)
        .unwrap_or_else(|_| panic!("no recall: {}", String::from_utf8_lossy(&out)));
    assert_eq!(said["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    let context = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(
        context.contains("Lease renewals retry twice") && context.contains(&format!("#{}", old["id"])),
        "{context}"
    );
    assert!(
        prompt("Again: why do lease renewals retry twice?").is_empty(),
        "never the same entry twice in a session"
    );
    assert!(prompt("thanks, all good").is_empty(), "nothing relevant, nothing added");
    // Decisions the preamble gave in full are not recalled; older ones may be.
    let ids = |text: &str| -> Vec<String> {
        text.split('#')
            .skip(1)
            .map(|r| r.chars().take_while(char::is_ascii_digit).collect())
            .filter(|d: &String| !d.is_empty())
            .collect()
    };
    let out = prompt("which shard do the metrics go to?");
    let said: Value = serde_json::from_slice(&out).unwrap();
    let recalled = ids(said["hookSpecificOutput"]["additionalContext"].as_str().unwrap());
    // (Early decisions are titles only: their text may be recalled.)
    assert!(!recalled.is_empty() && recalled.iter().all(|id| !ids(newest).contains(id)), "{recalled:?}");
    sb.json_ok(&["config", "recall", "0"], None);
    let other = json!({ "session_id": "s-2", "cwd": work, "hook_event_name": "UserPromptSubmit",
                        "prompt": "Why do lease renewals retry only twice?" });
    assert!(hook(&sb, other, &[]).stdout.is_empty(), "recall 0 adds nothing");
}

#[test]
fn an_old_session_folds_into_its_weeks_digest_and_can_come_back() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    // The recorded session, as if it had run in September.
    let t = sb.home.join("old.jsonl");
    let old = RECORDED.replace(RECORDED_CWD, work.to_str().unwrap()).replace("2026-11-24T", "2026-09-02T");
    std::fs::write(&t, old).unwrap();
    hook(&sb, turn_end("session-old", &work, &t, "SessionEnd"), &[]);
    let id = sessions(&sb)[0]["id"].as_i64().unwrap();
    let before = sb.json_ok(&["context", "retry"], None)["text"].as_str().unwrap().to_owned();
    assert!(before.contains("## Last session"), "{before}");
    let done = sb.json_ok(&["memory", "fold", "--project", "retry"], None);
    assert_eq!(done["projects"][0]["done"]["folded"], 1, "{done}");
    let digest = &sb.json_ok(&["memory", "list", "retry", "--kind", "context_carry"], None)["entries"][0];
    let text = digest["content"].as_str().unwrap();
    assert!(text.starts_with("Week of 2026-08-31: 1 session (claude-code 1)"), "{text}");
    assert!(text.contains("Add a retry helper") && text.contains(&format!("#{id}")), "{text}");
    assert!(!text.contains(SECRET));
    assert_eq!(sessions(&sb)[0]["superseded_by"], digest["id"], "kept, folded");
    let after = sb.json_ok(&["context", "retry"], None)["text"].as_str().unwrap().to_owned();
    assert!(!after.contains("## Last session"), "{after}");
    assert!(after.contains("## Earlier weeks (1 session folded into 1 weekly digest"), "{after}");
    // Brought back, it stays back at the next fold.
    sb.json_ok(&["memory", "restore", "retry", &id.to_string()], None);
    let again = sb.json_ok(&["memory", "fold", "--project", "retry"], None);
    assert_eq!(again["projects"][0]["done"]["folded"], 0, "{again}");
    assert!(sessions(&sb)[0].get("superseded_by").is_none());
}

#[test]
fn files_a_command_changed_come_from_git_and_say_whose_they_may_be() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    common::git(&work, &["init", "-q"]);
    std::fs::write(work.join("tracked.txt"), "one\n").unwrap();
    std::fs::write(work.join(".gitignore"), "build/\n").unwrap();
    common::git(&work, &["add", "."]);
    common::git(&work, &["commit", "-qm", "init"]);
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    let t = transcript(&sb, &work, "session-git.jsonl");
    // What commands did during the turn (the recorded one asked long before now) ...
    std::fs::write(work.join("notes.txt"), "echo > notes.txt\n").unwrap();
    std::fs::write(work.join("tracked.txt"), "sed -i\n").unwrap();
    // ... the file the agent's own Write tool made, named by the transcript ...
    std::fs::write(work.join("retry.py"), "def retry(): ...\n").unwrap();
    // ... and what changed before the session asked anything, or is ignored.
    std::fs::write(work.join("stale.txt"), "from last year\n").unwrap();
    let old =
        std::process::Command::new("touch").args(["-d", "2020-01-01"]).arg(work.join("stale.txt")).status();
    assert!(old.unwrap().success());
    std::fs::create_dir_all(work.join("build")).unwrap();
    std::fs::write(work.join("build/out.o"), "ignored\n").unwrap();
    hook(&sb, turn_end("session-git", &work, &t, "Stop"), &[]);
    let record = sessions(&sb)[0]["content"].as_str().unwrap().to_owned();
    let seen = record
        .lines()
        .find_map(|l| {
            l.strip_prefix("**Also changed during its turns (seen by git; a command's doing or yours):** ")
        })
        .unwrap_or_else(|| panic!("no line of what git saw: {record}"));
    assert_eq!(seen, "notes.txt, tracked.txt", "{record}");
    assert!(record.contains("created retry.py"), "the tool's own word stays: {record}");
    assert!(!record.contains("stale.txt") && !record.contains("out.o"), "{record}");
}

#[test]
fn a_client_whose_start_hook_may_not_run_gets_the_context_with_its_first_prompt_once() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/leases");
    sb.json_ok(&["projects", "new", "Leases", "--code-path", work.to_str().unwrap()], None);
    sb.json_ok(&["memory", "add", "leases", "--kind", "decision", "Invoices are split per tenant"], None);
    // Qwen Code headless: no SessionStart, and an empty prompt after each tool result.
    let prompt = |text: &str| {
        let input = json!({ "session_id": "q-1", "cwd": work, "hook_event_name": "UserPromptSubmit", "prompt": text });
        let mut cmd = sb.cmd();
        cmd.env("MOORING_HOOK_DEADLINE_MS", "4500");
        let out = cmd.args(["hook", "qwen-code"]).write_stdin(input.to_string()).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(prompt("").is_empty(), "an empty prompt is not the person's: no context yet");
    let first = prompt("Add a retry helper");
    assert!(first.contains("Invoices are split per tenant"), "{first}");
    assert!(!prompt("Now document it").contains("Invoices are split per tenant"), "the context comes once");
}
