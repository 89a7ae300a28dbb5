//! Several agent sessions on one checkout, through the real `mooring hook claude-code`
//! fed what Claude Code's hooks send: the second writer to a file another live session
//! holds is asked or refused by the project's setting, the holder is untouched, a
//! worktree of the same clone never meets the others (its own sessions meet there), and
//! a session's end lets go.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Sandbox;
use serde_json::{Value, json};

const RECORDED: &str = include_str!("../../core/tests/fixtures/claude-code-2.1.330-work.jsonl");

fn hook(sb: &Sandbox, input: Value) -> Option<Value> {
    hook_of(sb, "claude-code", input)
}

/// `mooring hook CLIENT` fed `input`: what it printed, if anything but `null`.
fn hook_of(sb: &Sandbox, client: &str, input: Value) -> Option<Value> {
    let mut cmd = sb.cmd();
    cmd.env("MOORING_HOOK_DEADLINE_MS", "4500");
    let out = cmd.args(["hook", client]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "the hook never fails the client: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    (!text.trim().is_empty()).then(|| serde_json::from_str(&text).unwrap()).filter(|v: &Value| !v.is_null())
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A git checkout, `work/billing`, on `main` with one commit.
fn checkout(sb: &Sandbox) -> PathBuf {
    let work = sb.mkdir("work/billing");
    git(&work, &["init", "-q", "-b", "main"]);
    git(&work, &["commit", "-q", "--allow-empty", "-m", "init"]);
    work
}

/// [`checkout`], registered as project `billing`.
fn billing(sb: &Sandbox) -> PathBuf {
    let work = checkout(sb);
    sb.json_ok(&["projects", "new", "Billing", "--code-path", work.to_str().unwrap()], None);
    work
}

fn prompt(session: &str, cwd: &Path, words: &str) -> Value {
    json!({ "hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": cwd, "prompt": words,
            "transcript_path": cwd.join("none.jsonl") })
}

fn write(session: &str, cwd: &Path, tool: &str, file: &str) -> Value {
    json!({ "hook_event_name": "PreToolUse", "session_id": session, "cwd": cwd, "tool_name": tool,
            "tool_input": { "file_path": file, "content": "x" }, "transcript_path": cwd.join("none.jsonl") })
}

fn decision(out: &Option<Value>) -> Option<&str> {
    out.as_ref()?["hookSpecificOutput"]["permissionDecision"].as_str()
}

#[test]
fn the_second_writer_is_asked_or_refused_and_a_worktree_or_an_ended_session_never_blocks() {
    let sb = Sandbox::new();
    let work = checkout(&sb);
    let tree = sb.home.join("work/billing-feature");
    git(&work, &["worktree", "add", "-q", "-b", "feature", tree.to_str().unwrap()]);
    sb.json_ok(&["projects", "new", "Billing", "--code-path", work.to_str().unwrap()], None);

    hook(&sb, prompt("A", &work, "split invoices by customer"));
    hook(&sb, prompt("B", &work, "rename the customer fields"));
    assert_eq!(hook(&sb, write("A", &work, "Write", "src/billing.rs")), None, "free: claimed, nothing said");
    // B names it absolutely; the same file.
    let asked = hook(&sb, write("B", &work, "Edit", work.join("src/billing.rs").to_str().unwrap()));
    assert_eq!(decision(&asked), Some("ask"), "{asked:?}");
    let why = asked.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(
        why.starts_with("src/billing.rs is being edited by the claude-code session started")
            && why.contains("'split invoices by customer'")
            && why.ends_with("work elsewhere or ask the person."),
        "{why}"
    );
    assert_eq!(hook(&sb, write("A", &work, "Edit", "src/billing.rs")), None, "the holder is untouched");

    sb.json_ok(&["sessions", "billing", "--claims", "deny"], None);
    let refused = hook(&sb, write("B", &work, "MultiEdit", "src/billing.rs"));
    assert_eq!(decision(&refused), Some("deny"), "{refused:?}");
    // Another worktree of the clone is another checkout.
    assert_eq!(hook(&sb, write("C", &tree, "Write", "src/billing.rs")), None);
    // Inside that worktree, two sessions meet as in any checkout: the claim names it.
    let in_tree = hook(&sb, write("D", &tree, "Edit", tree.join("src/billing.rs").to_str().unwrap()));
    assert_eq!(decision(&in_tree), Some("deny"), "{in_tree:?}");
    let why = in_tree.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(why.contains("started") && !why.contains("split invoices"), "C holds it there, not A: {why}");
    // A tool that writes no file is not checked.
    let read = json!({ "hook_event_name": "PreToolUse", "session_id": "B", "cwd": work, "tool_name": "Read",
                       "tool_input": { "file_path": "src/billing.rs" } });
    assert_eq!(hook(&sb, read), None);

    let live = sb.json_ok(&["sessions", "billing", "--live"], None);
    assert_eq!(live["claims"], "deny", "{live}");
    let sessions = live["live"].as_array().unwrap();
    assert_eq!(sessions.len(), 4, "{live}");
    let a = sessions.iter().find(|s| s["request"] == "split invoices by customer").unwrap();
    assert_eq!(
        (a["claims"].clone(), a["branch"].clone()),
        (json!(["src/billing.rs"]), json!("main")),
        "{live}"
    );
    let b = sessions.iter().find(|s| s["request"] == "rename the customer fields").unwrap();
    assert_eq!(b["conflicts"], 2, "{live}");
    assert!(sessions.iter().any(|s| s["branch"] == "feature"), "{live}");

    // B's turn ends: its record says which writes met another's claim.
    let transcript = sb.home.join("t.jsonl");
    std::fs::write(&transcript, RECORDED.replace("/tmp/rec/work", work.to_str().unwrap())).unwrap();
    let stop =
        json!({ "hook_event_name": "Stop", "session_id": "B", "cwd": work, "transcript_path": transcript });
    hook(&sb, stop);
    // A's session ends: its record lists what it held, then what it held goes, and B may write.
    let end = json!({ "hook_event_name": "SessionEnd", "session_id": "A", "cwd": work, "reason": "exit",
                      "transcript_path": transcript });
    hook(&sb, end);
    let records = sb.json_ok(&["memory", "list", "billing", "--kind", "session"], None)["entries"].clone();
    let text = records.to_string();
    assert!(text.contains("**Held:** src/billing.rs"), "A's record lists its claim: {records}");
    assert!(text.contains("**Met:** 2 writes into what another live session held"), "{records}");
    assert_eq!(hook(&sb, write("B", &work, "Edit", "src/billing.rs")), None);
    let after = sb.json_ok(&["sessions", "billing", "--live"], None);
    assert_eq!(after["live"].as_array().unwrap().len(), 3, "{after}");
}

#[test]
fn a_shell_command_that_writes_a_held_file_is_refused_before_it_runs_and_one_that_reads_is_not_checked() {
    let sb = Sandbox::new();
    let work = billing(&sb);
    sb.json_ok(&["sessions", "billing", "--claims", "deny"], None);
    hook(&sb, prompt("A", &work, "split invoices by customer"));
    hook(&sb, prompt("B", &work, "tidy the logs"));
    assert_eq!(hook(&sb, write("A", &work, "Write", "src/billing.rs")), None);
    // Claude Code's Bash tool, as its PreToolUse hook sends it.
    let bash = |session: &str, command: &str| {
        json!({ "hook_event_name": "PreToolUse", "session_id": session, "cwd": work, "tool_name": "Bash",
                "tool_input": { "command": command, "description": "x" },
                "transcript_path": work.join("none.jsonl") })
    };
    let refused = hook(&sb, bash("B", "cargo fmt && sed -i 's/a/b/' src/billing.rs"));
    assert_eq!(decision(&refused), Some("deny"), "{refused:?}");
    let why = refused.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(why.contains("src/billing.rs") && why.contains("split invoices by customer"), "{why}");
    for harmless in ["ls -la src", "cat src/billing.rs | grep fn", "cargo test 2>/dev/null"] {
        assert_eq!(hook(&sb, bash("B", harmless)), None, "{harmless}");
    }
    // A redirection into a free file claims it for B: A is now refused there.
    assert_eq!(hook(&sb, bash("B", "echo done > notes/log.txt")), None);
    let back = hook(&sb, write("A", &work, "Edit", "notes/log.txt"));
    assert_eq!(decision(&back), Some("deny"), "{back:?}");
    // A here-document's lines are text: B writes src/new.rs, and its `rm` line is no command.
    let heredoc = "cat > src/new.rs << 'EOF'\nrm src/billing.rs\nEOF";
    assert_eq!(hook(&sb, bash("B", heredoc)), None, "only src/new.rs is written");
}

#[test]
fn opencode_s_patch_into_a_held_file_is_refused_with_what_its_plugin_throws() {
    let sb = Sandbox::new();
    let work = billing(&sb);
    sb.json_ok(&["sessions", "billing", "--claims", "deny"], None);
    hook(&sb, prompt("A", &work, "split invoices by customer"));
    assert_eq!(hook(&sb, write("A", &work, "Write", "src/billing.rs")), None);
    // What Mooring's opencode plugin hands over from `tool.execute.before`.
    let before = |tool: &str, args: Value| {
        let input = json!({ "hook_event_name": "tool.execute.before", "session_id": "ses_B", "cwd": work,
                            "tool_name": tool, "tool_input": args });
        hook_of(&sb, "opencode", input)
    };
    let patch = "*** Begin Patch\n*** Add File: src/tax.rs\n+x\n*** Update File: src/billing.rs\n@@\n-a\n+b\n*** End Patch";
    let refused = before("apply_patch", json!({ "patchText": patch }));
    let why = refused.as_ref().and_then(|r| r["deny"].as_str()).unwrap_or_default();
    assert!(why.contains("src/billing.rs") && why.contains("split invoices by customer"), "{refused:?}");
    assert_eq!(before("write", json!({ "filePath": "src/other.rs", "content": "x" })), None, "a free file");
    assert_eq!(before("read", json!({ "filePath": "src/billing.rs" })), None, "a read is not checked");
    // The patch's free file was claimed by it all the same.
    let taken = hook(&sb, write("A", &work, "Write", "src/tax.rs"));
    assert_eq!(decision(&taken), Some("deny"), "{taken:?}");
}

/// `mooring hook codex` started on Codex 0.169's `PreToolUse` for shell command `command`
/// (its edits come as `apply_patch` commands too), waiting for the person up to 20 s.
fn codex_writes(
    sb: &Sandbox,
    session: &str,
    cwd: &Path,
    command: &str,
    deadline_ms: u32,
) -> std::process::Child {
    use std::io::Write as _;
    let input = json!({ "hook_event_name": "PreToolUse", "session_id": session, "cwd": cwd,
                        "tool_name": "Bash", "tool_input": { "command": command },
                        "transcript_path": null, "model": "gpt-5", "permission_mode": "default" });
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("mooring"))
        .arg("--data-dir")
        .arg(&sb.data)
        .args(["hook", "codex"])
        .env("HOME", &sb.home)
        .env("MOORING_MODELS", common::models_root())
        .env("MOORING_PERMISSION_WAIT_SECONDS", "20")
        // Until it asks, the hook's own deadline holds.
        .env("MOORING_HOOK_DEADLINE_MS", deadline_ms.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    child
}

/// What a finished hook printed, as JSON.
fn printed(child: std::process::Child) -> Option<Value> {
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the hook never fails the client: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    (!text.trim().is_empty()).then(|| serde_json::from_str(&text).unwrap())
}

#[test]
fn codex_cannot_ask_so_mooring_asks_the_person_and_refuses_when_no_one_can_answer() {
    use mooring_core::choice::{Broker, Submission};
    let sb = Sandbox::new();
    let work = billing(&sb);
    hook(&sb, prompt("A", &work, "split invoices by customer"));
    assert_eq!(hook(&sb, write("A", &work, "Write", "src/billing.rs")), None);
    let command = "sed -i 's/total/sum/' src/billing.rs";

    // No hub runs to show a question: refused at once, holder named, nothing left open.
    let refused = printed(codex_writes(&sb, "X", &work, command, 4500));
    assert_eq!(decision(&refused), Some("deny"), "{refused:?}");
    let why = refused.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(why.contains("split invoices by customer") && why.contains("No Mooring hub is running"), "{why}");
    let store = mooring_core::Store::open_in(&sb.data).unwrap();
    let broker = Broker::new(&store);
    assert!(broker.open_list().unwrap().is_empty(), "no question waits for no one");

    // With the hub, the person is asked; their answer is the hook's.
    let _hub = sb.start_hub();
    // The second answer comes after the hook's deadline: once it asks, it waits for the person.
    for (pick, lets_it, after) in [("let_it_write", true, 0), ("refuse", false, 2_500)] {
        let child = codex_writes(&sb, "X", &work, command, 1_500);
        let started = std::time::Instant::now();
        let asked = loop {
            if let Some(q) = broker.open_list().unwrap().into_iter().next() {
                break q;
            }
            assert!(started.elapsed().as_secs() < 15, "the hook opened no question");
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        let prompt = &asked.checked.request.prompt;
        assert!(
            prompt.contains("about to write src/billing.rs") && prompt.contains("split invoices"),
            "{prompt}"
        );
        std::thread::sleep(std::time::Duration::from_millis(after).saturating_sub(started.elapsed()));
        let said = Submission { selected_ids: Some(vec![pick.into()]), ..Submission::default() };
        broker.submit(&asked.id, &said, mooring_core::model::Surface::Web).unwrap();
        let out = printed(child);
        if lets_it {
            assert_eq!(out, None, "let it write: the command runs");
        } else {
            assert_eq!(decision(&out), Some("deny"), "{out:?}");
            let why =
                out.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
            assert!(why.contains("The person refused this write"), "{why}");
        }
    }
}

/// The prompt hook's `additionalContext`, if it said anything.
fn context_of(out: &Option<Value>) -> String {
    out.as_ref()
        .map(|o| o["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default().to_owned())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_claims_a_folder_and_leaves_a_note_through_mooring_stdio_as_its_own_session() {
    let sb = Sandbox::new();
    let work = billing(&sb);
    // Both sessions' hooks and the shim below are this test's children: the shim's client
    // process is this test, whose latest-heard session is A (as a client runs one).
    hook(&sb, prompt("B", &work, "rename the customer fields"));
    hook(&sb, prompt("A", &work, "split invoices by customer"));

    let claimed = common::agent_call(
        &sb,
        &work,
        &[],
        &[],
        "claim",
        json!({ "what": "src/billing", "kind": "dir", "reason": "moving invoices" }),
    )
    .await;
    assert_eq!(claimed["held"], true, "{claimed}");
    let asked = hook(&sb, write("B", &work, "Write", "src/billing/invoice.rs"));
    assert_eq!(decision(&asked), Some("ask"), "{asked:?}");
    let why = asked.as_ref().unwrap()["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(why.contains("which holds src/billing/ (moving invoices)"), "{why}");

    // Through the hub too: A (heard from last again) tells B, by the handle
    // who_is_working gives.
    hook(&sb, prompt("A", &work, "carry on with the split"));
    let _hub = sb.start_hub();
    let working = common::agent_call(&sb, &work, &[], &[], "who_is_working", json!({})).await;
    let b = working["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["request"] == "rename the customer fields")
        .unwrap();
    // The claim made before the hub started is held there too: claims live in the database.
    let sessions = working["sessions"].as_array().unwrap();
    let a = sessions.iter().find(|s| s["request"] == "carry on with the split").unwrap();
    assert_eq!(a["claims"], json!(["src/billing/"]), "{working}");
    let to = b["handle"].as_str().unwrap().to_owned();
    let told = common::agent_call(
        &sb,
        &work,
        &[],
        &[],
        "tell_session",
        json!({ "to": to, "text": "I own src/billing/ until the split lands" }),
    )
    .await;
    assert!(told["to"].as_str().unwrap().contains("'rename the customer fields'"), "{told}");
    // B's next prompt gets it, once, as another agent's words; A's does not.
    let said = context_of(&hook(&sb, prompt("B", &work, "go on")));
    assert!(said.contains("Another agent session of this project left this"), "{said}");
    assert!(said.contains("I own src/billing/ until the split lands"), "{said}");
    assert!(!context_of(&hook(&sb, prompt("B", &work, "and now"))).contains("I own src/billing/"), "once");
    assert!(!context_of(&hook(&sb, prompt("A", &work, "next"))).contains("I own src/billing/"));
    assert_eq!(
        common::agent_call(
            &sb,
            &work,
            &[],
            &[],
            "claim",
            json!({ "what": "src/billing/", "kind": "dir", "release": true })
        )
        .await["message"],
        "Let go of src/billing/."
    );
    assert_eq!(hook(&sb, write("B", &work, "Write", "src/billing/invoice.rs")), None, "free once let go");
}
