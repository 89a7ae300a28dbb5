//! `mooring import claude-memory|…|instructions` through the real binary: a project's
//! clients' memory brought in once (from the checkout, its project found as a session's
//! would be), kept current with `--watch`, and a wrong source named.

mod common;

use std::time::{Duration, Instant};

use common::Sandbox;

fn notes(sb: &Sandbox) -> Vec<serde_json::Value> {
    sb.json_ok(&["memory", "list", "ledger", "--kind", "note"], None)["entries"].as_array().unwrap().clone()
}

#[test]
fn claude_memory_comes_in_once_and_instructions_follow_their_file() {
    let sb = Sandbox::new();
    let work = sb.mkdir("work/ledger");
    sb.json_ok(&["projects", "new", "Ledger", "--code-path", work.to_str().unwrap()], None);
    // Claude Code 2.1.330's folder for the checkout and a topic file as its prompt words it.
    let key: String =
        work.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let memory = sb.home.join(".claude/projects").join(key).join("memory");
    std::fs::create_dir_all(&memory).unwrap();
    std::fs::write(memory.join("MEMORY.md"), "- [Cents](project_cents.md) — money in cents\n").unwrap();
    std::fs::write(
        memory.join("project_cents.md"),
        "---\nname: money-in-cents\ndescription: Ledger amounts are integer cents\nmetadata:\n  type: project\n---\n\nNever use floats for money.\n",
    )
    .unwrap();
    let done = sb.json_ok(&["import", "claude-memory"], Some(&work));
    assert_eq!(
        (done["project"].as_str(), done["done"]["added"].as_u64()),
        (Some("ledger"), Some(1)),
        "{done}"
    );
    let again = sb.json_ok(&["import", "claude-memory", "--project", "ledger"], None);
    assert_eq!(again["done"]["added"], 0, "idempotent: {again}");
    let n = notes(&sb);
    assert_eq!(n.len(), 1);
    assert_eq!(n[0]["title"], "Ledger amounts are integer cents");
    assert!(n[0]["content"].as_str().unwrap().contains("_From Claude Code's memory (~/.claude/projects/"));

    // --watch: a section added to AGENTS.md comes in while it runs.
    let mut watch = std::process::Command::new(assert_cmd::cargo::cargo_bin("mooring"))
        .args([
            "--data-dir",
            sb.data.to_str().unwrap(),
            "import",
            "instructions",
            "--project",
            "ledger",
            "--watch",
        ])
        .env("HOME", &sb.home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    std::fs::write(work.join("AGENTS.md"), "## Testing\n\nRun `make itest` before a commit.\n").unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    let found = loop {
        let n = notes(&sb);
        if n.iter().any(|e| e["title"] == "Testing") || Instant::now() > until {
            break n;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    watch.kill().unwrap();
    let _ = watch.wait();
    assert!(found.iter().any(|e| e["title"] == "Testing"), "{found:?}");
    assert_eq!(
        std::fs::read_to_string(work.join("AGENTS.md")).unwrap(),
        "## Testing\n\nRun `make itest` before a commit.\n"
    );

    let out = sb.cmd().args(["import", "cursor-memory", "--project", "ledger"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("claude-memory, codex-memory"), "{err}");
}
