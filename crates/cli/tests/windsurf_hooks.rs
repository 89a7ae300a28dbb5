//! Windsurf through the real `mooring hook windsurf`, fed what its Cascade hooks send
//! (Windsurf cannot run here: the payloads follow its published hook reference). Its
//! hooks are advisory and say what each step did, so they are the session's record:
//! folded as they fire, one record per trajectory, nothing printed, and never a
//! command's output, a file's contents or a secret kept.

mod common;

use std::path::Path;

use common::Sandbox;
use serde_json::{Value, json};

const SECRET: &str = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";

/// Windsurf runs a hook in the workspace's folder.
fn hook(sb: &Sandbox, dir: &Path, input: Value) -> String {
    let mut cmd = sb.cmd();
    cmd.env("MOORING_HOOK_DEADLINE_MS", "4500").current_dir(dir);
    let out = cmd.args(["hook", "windsurf"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "the hook never fails the client: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn event(name: &str, at: &str, info: Value) -> Value {
    json!({ "agent_action_name": name, "trajectory_id": "traj-1", "execution_id": format!("x-{at}"),
            "timestamp": format!("2026-11-27T10:{at}Z"), "tool_info": info })
}

#[test]
fn a_windsurf_session_is_kept_from_its_hooks_as_they_fire() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/retry");
    sb.json_ok(&["projects", "new", "Retry", "--code-path", work.to_str().unwrap()], None);
    let file = work.join("retry.py");
    let steps = [
        event("pre_user_prompt", "00:00", json!({ "user_prompt": "Add a retry helper" })),
        event(
            "post_write_code",
            "00:10",
            json!({ "file_path": file, "edits": [{ "old_string": "", "new_string": "def retry(f, n):\n    return min(n, 3)\n" }] }),
        ),
        event(
            "post_write_code",
            "00:20",
            json!({ "file_path": file, "edits": [{ "old_string": "min(n, 3)", "new_string": "min(n, 5)" }] }),
        ),
        event(
            "post_read_code",
            "00:25",
            json!({ "file_path": work.join("notes.txt"), "content": "retry twice" }),
        ),
        event(
            "post_run_command",
            "00:30",
            json!({ "command_line": format!("git push https://{SECRET}@github.com/x/y"), "cwd": work, "exit_code": 1, "output": "fatal: remote said no" }),
        ),
        event(
            "post_mcp_tool_use",
            "00:40",
            json!({ "mcp_server_name": "mooring", "mcp_tool_name": "remember", "mcp_tool_arguments": { "kind": "decision" }, "mcp_result": "{}" }),
        ),
        event(
            "post_cascade_response",
            "00:50",
            json!({ "response": "Retry helper written; pushing failed." }),
        ),
    ];
    for step in &steps {
        assert!(hook(&sb, &work, step.clone()).is_empty(), "its hooks are advisory: nothing is printed");
    }
    let found = sb.json_ok(&["memory", "list", "retry", "--kind", "session"], None)["entries"].clone();
    assert_eq!(found.as_array().unwrap().len(), 1, "one record per trajectory: {found}");
    let record = found[0]["content"].as_str().unwrap();
    assert!(record.contains("Add a retry helper") && record.contains("wrote retry.py"), "{record}");
    assert!(record.contains("Retry helper written"), "{record}");
    assert!(record.contains("git push"), "{record}");
    for never in [SECRET, "def retry", "fatal: remote said no", "retry twice", "notes.txt"] {
        assert!(!record.contains(never), "{never} in {record}");
    }
    // The same trajectory's next turn brings the same record up to date.
    hook(
        &sb,
        &work,
        event("pre_user_prompt", "05:00", json!({ "user_prompt": "Now document the retry policy" })),
    );
    let found = sb.json_ok(&["memory", "list", "retry", "--kind", "session"], None)["entries"].clone();
    assert_eq!(found.as_array().unwrap().len(), 1);
    assert!(found[0]["content"].as_str().unwrap().contains("Now document the retry policy"));
}

#[test]
fn windsurf_s_hooks_go_where_it_reads_them() {
    let sb = Sandbox::new();
    let file = sb.home.join(".codeium/windsurf/hooks.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, r#"{"hooks": {"pre_run_command": [{"command": "./guard.sh"}]}}"#).unwrap();
    let binary = sb.home.join("bin/mooring");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin("mooring"), &binary).unwrap();
    sb.cmd().args(["setup", "windsurf", "--hooks", "--binary", binary.to_str().unwrap()]).assert().success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["hooks"]["pre_run_command"], json!([{"command": "./guard.sh"}]), "the person's hooks stay");
    for event in [
        "pre_user_prompt",
        "post_write_code",
        "post_run_command",
        "post_mcp_tool_use",
        "post_cascade_response",
    ] {
        let command = v["hooks"][event][0]["command"].as_str().unwrap_or_default();
        assert!(command.ends_with("hook windsurf"), "{event}: {v}");
    }
}
