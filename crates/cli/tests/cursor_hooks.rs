//! Cursor through the real `mooring hook cursor`, fed what its hooks send (Cursor cannot
//! run here: the payloads and the transcript follow its published hook reference and
//! what public integrations recorded from Cursor 3.x and its CLI): its CLI names no
//! transcript, so Mooring finds it where Cursor keeps it; the record is kept once and
//! handed to the next conversation; and when Cursor runs Mooring's Claude Code hooks too
//! (its third-party setting), they stand aside.

mod common;

use common::Sandbox;
use serde_json::{Value, json};

const PUBLISHED: &str = include_str!("../../core/tests/fixtures/cursor-published-format-work.jsonl");
const SECRET: &str = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";

fn hook(sb: &Sandbox, client: &str, input: Value) -> String {
    let mut cmd = sb.cmd();
    cmd.env("MOORING_HOOK_DEADLINE_MS", "4500").env_remove("CURSOR_TRANSCRIPT_PATH");
    let out = cmd.args(["hook", client]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "the hook never fails the client: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_cursor_conversation_is_kept_from_where_cursor_keeps_it_and_handed_to_the_next() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    let root = work.to_str().unwrap();
    // `~/.cursor/projects/<the folder as a name>/agent-transcripts/<id>.jsonl`.
    let name: String = root
        .trim_start_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = sb.home.join(".cursor/projects").join(name).join("agent-transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("c-1.jsonl"), PUBLISHED.replace("/tmp/rec/work", root)).unwrap();
    let common = |event: &str, id: &str| {
        json!({ "conversation_id": id, "generation_id": "g-1", "model": "auto", "hook_event_name": event,
                "cursor_version": "3.6.31", "workspace_roots": [root], "user_email": null, "transcript_path": null })
    };
    let mut stop = common("stop", "c-1");
    stop["status"] = json!("completed");
    stop["loop_count"] = json!(0);
    for _ in 0..3 {
        assert!(hook(&sb, "cursor", stop.clone()).is_empty(), "a capture prints nothing");
    }
    let mut end = common("sessionEnd", "c-1");
    end["reason"] = json!("completed");
    hook(&sb, "cursor", end);
    let found = sb.json_ok(&["memory", "list", "retry", "--kind", "session"], None)["entries"].clone();
    assert_eq!(found.as_array().unwrap().len(), 1, "one record per conversation: {found}");
    let record = found[0]["content"].as_str().unwrap();
    assert!(record.contains("Add a retry helper") && record.contains("retry.py"), "{record}");
    assert!(!record.contains(SECRET) && !record.contains("def retry"), "{record}");

    // The next conversation starts from it.
    let mut start = common("sessionStart", "c-2");
    start["session_id"] = json!("c-2");
    start["is_background_agent"] = json!(false);
    let out: Value = serde_json::from_str(&hook(&sb, "cursor", start)).unwrap();
    let context = out["additional_context"].as_str().unwrap();
    assert!(context.contains("Add a retry helper"), "{context}");

    // Mooring's Claude Code hooks, run by Cursor, say and keep nothing.
    let claude = json!({ "session_id": "c-3", "hook_event_name": "SessionStart", "cursor_version": "3.6.31",
                         "workspace_roots": [root], "cwd": root, "source": "startup" });
    assert!(hook(&sb, "claude-code", claude).is_empty());
}

#[test]
fn the_client_list_says_what_each_client_s_hooks_bring() {
    let sb = Sandbox::new();
    let list = sb.json_ok(&["setup", "--list"], None);
    let row = |name: &str| {
        list["clients"].as_array().unwrap().iter().find(|r| r["client"] == name).unwrap().clone()
    };
    assert_eq!(
        (row("cursor")["capture"].as_bool(), row("cursor")["context"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(row("zed")["capture"].as_bool(), Some(false), "tools only");
    // Recall at each prompt only where the client reads a prompt hook's answer.
    assert_eq!(row("cursor")["recall"].as_bool(), Some(true));
    assert_eq!(
        (row("cline")["recall"].as_bool(), row("cline")["context"].as_bool()),
        (Some(false), Some(true))
    );
    assert_eq!(
        (row("windsurf")["recall"].as_bool(), row("windsurf")["context"].as_bool()),
        (Some(false), Some(false))
    );
    let count = |what: &str| list["clients"].as_array().unwrap().iter().filter(|r| r[what] == true).count();
    // Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, opencode, Kilo, Cline, Pi,
    // Cursor, Windsurf.
    assert_eq!(count("capture"), 11, "{list}");
    // All of those but Cline and Windsurf.
    assert_eq!(count("recall"), 9, "{list}");
    assert_eq!((row("kilo")["capture"].as_bool(), row("kilo")["recall"].as_bool()), (Some(true), Some(true)));
    // Pi has no MCP: its hooks are all there is, and no config file is named.
    assert_eq!((row("pi")["capture"].as_bool(), row("pi")["recall"].as_bool()), (Some(true), Some(true)));
    assert_eq!(row("pi")["config"], Value::Null);
}
