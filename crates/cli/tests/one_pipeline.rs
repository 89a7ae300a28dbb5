//! One pipeline decides a session's project: the same directory layouts (a code path, a
//! git worktree, a clone found by its remote, a `.mooring.toml` marker, the home
//! directory, nowhere known) asked through the three entry points — an agent's tool call
//! over MCP (the gate), `mooring resolve`, the hooks (`mooring context`, which the
//! session-start hook runs) and the MCP tool `resolve_project` — each on a fresh copy of the same registry, give the same
//! project, and bind the same marker and clone directories.

mod common;

use std::path::{Path, PathBuf};

use common::{Sandbox, git};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

/// Two projects (so nothing is chosen as the only one) and the six layouts: each a name,
/// a directory, and the project it belongs to.
fn layouts(sb: &Sandbox) -> Vec<(&'static str, PathBuf, Option<&'static str>)> {
    let le = sb.mkdir("code/le");
    git(&le, &["init", "-q"]);
    std::fs::write(le.join("README"), "le\n").unwrap();
    git(&le, &["add", "README"]);
    git(&le, &["commit", "-qm", "init"]);
    git(&le, &["remote", "add", "origin", "https://example.com/acme/le.git"]);
    let (le_s, url) = (le.to_str().unwrap(), "https://example.com/acme/le.git");
    let new_le =
        ["projects", "new", "Leader Election", "--slug", "le", "--code-path", le_s, "--repo-url", url];
    sb.cmd().args(new_le).assert().success();
    sb.cmd().args(["projects", "new", "Payments", "--slug", "payments"]).assert().success();

    let inside = sb.mkdir("code/le/src");
    let worktree = sb.home.join("code/le-fix");
    git(&le, &["worktree", "add", "-q", worktree.to_str().unwrap()]);
    let clone = sb.mkdir("elsewhere/le-clone");
    git(&clone, &["init", "-q"]);
    git(&clone, &["remote", "add", "origin", "git@example.com:acme/le.git"]);
    let marked = sb.mkdir("work/payments-api");
    std::fs::write(marked.join(".mooring.toml"), "project = \"payments\"\n").unwrap();
    let nowhere = sb.mkdir("scratch/notes");
    vec![
        ("code path", inside, Some("le")),
        ("worktree", worktree.canonicalize().unwrap(), Some("le")),
        ("remote clone", clone, Some("le")),
        ("marker", marked, Some("payments")),
        ("home", sb.home.clone(), None),
        ("nothing", nowhere, None),
    ]
}

fn project(v: &Value) -> Option<String> {
    v["project"].as_str().map(str::to_owned)
}

/// The project an agent's project-scoped tool call gets in `dir` (none when it is asked
/// to choose).
async fn by_gate(sb: &Sandbox, dir: &Path) -> Option<String> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_mooring"));
    cmd.arg("--data-dir").arg(&sb.data).arg("stdio").current_dir(dir);
    cmd.env("HOME", &sb.home).env_remove("MOORING_PROJECT").env_remove("MOORING_HOME");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let args = json!({ "limit": 1 });
    let params = CallToolRequestParams::new("list_memory").with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    client.cancel().await.unwrap();
    if result.is_error == Some(true) {
        return None;
    }
    result.structured_content.as_ref().and_then(project)
}

/// What the MCP tool `resolve_project` explains for `dir`, asked from a stdio session
/// started in the home directory (which says nothing).
async fn by_resolve_tool(sb: &Sandbox, dir: &Path) -> Option<String> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_mooring"));
    cmd.arg("--data-dir").arg(&sb.data).arg("stdio").current_dir(&sb.home);
    cmd.env("HOME", &sb.home).env_remove("MOORING_PROJECT").env_remove("MOORING_HOME");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let args = json!({ "cwd": dir.to_str().unwrap() });
    let params =
        CallToolRequestParams::new("resolve_project").with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    client.cancel().await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.as_ref().and_then(project)
}

fn by_resolve(sb: &Sandbox, dir: &Path) -> Option<String> {
    project(&sb.json_ok(&["resolve", "--cwd", dir.to_str().unwrap()], None))
}

fn by_hook(sb: &Sandbox, dir: &Path) -> Option<String> {
    project(&sb.json_ok(&["context", "--cwd", dir.to_str().unwrap()], None))
}

fn code_paths(sb: &Sandbox) -> Vec<String> {
    let mut all: Vec<String> = ["le", "payments"]
        .iter()
        .flat_map(|slug| {
            let p = sb.json_ok(&["projects", slug], None);
            p["project"]["code_paths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| format!("{slug}: {}", c["path"].as_str().unwrap()))
                .collect::<Vec<_>>()
        })
        .collect();
    all.sort();
    all
}

#[tokio::test(flavor = "multi_thread")]
async fn every_entry_point_decides_each_layout_the_same_way() {
    let mut answers = Vec::new();
    for entry in ["gate", "resolve", "hook", "resolve_project"] {
        let sb = Sandbox::new();
        let table = layouts(&sb);
        let mut got = Vec::new();
        for (name, dir, want) in &table {
            let p = match entry {
                "gate" => by_gate(&sb, dir).await,
                "resolve" => by_resolve(&sb, dir),
                "resolve_project" => by_resolve_tool(&sb, dir).await,
                _ => by_hook(&sb, dir),
            };
            assert_eq!(p.as_deref(), *want, "{entry}: {name} ({})", dir.display());
            got.push(p);
        }
        // What deciding recorded: the marker's directory and the clone, bound the same way
        // whichever entry point met them (paths relative to each sandbox's home).
        let home = sb.home.display().to_string();
        let bound: Vec<String> = code_paths(&sb).into_iter().map(|c| c.replace(&home, "~")).collect();
        answers.push((entry, got, bound));
    }
    let (_, first, bound) = &answers[0];
    assert!(bound.contains(&"payments: ~/work/payments-api".to_owned()), "{bound:?}");
    assert!(bound.contains(&"le: ~/elsewhere/le-clone".to_owned()), "{bound:?}");
    for (entry, got, b) in &answers[1..] {
        assert_eq!(got, first, "{entry} decides as the gate does");
        assert_eq!(b, bound, "{entry} binds what the gate binds");
    }
}
