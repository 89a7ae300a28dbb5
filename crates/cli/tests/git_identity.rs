//! Project identity from git, on real repositories made with the `git` binary (the
//! product itself never runs it): linked worktrees next to the checkout and in Codex's
//! `~/.codex/worktrees/<id>/<repo>` layout, a worktree deleted, clones elsewhere found by
//! their remote (https- and ssh-style URLs), a remote shared by two projects, a code path
//! and a marker beating the git levels, `$HOME` as the working directory. Through the CLI
//! (`mooring resolve --cwd`) and through MCP with the stdio shim.

mod common;

use std::path::{Path, PathBuf};

use common::{Sandbox, git};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

/// A checkout at `code/le` with one commit, registered as project `le`.
fn checkout(sb: &Sandbox, repo_url: Option<&str>) -> PathBuf {
    let le = sb.mkdir("code/le");
    git(&le, &["init", "-q"]);
    std::fs::write(le.join("README"), "le\n").unwrap();
    git(&le, &["add", "README"]);
    git(&le, &["commit", "-qm", "init"]);
    let mut args =
        vec!["projects", "new", "Leader Election", "--slug", "le", "--code-path", le.to_str().unwrap()];
    if let Some(u) = repo_url {
        args.extend(["--repo-url", u]);
    }
    sb.cmd().args(&args).assert().success();
    sb.cmd().args(["projects", "new", "Payments"]).assert().success();
    le
}

fn resolve_at(sb: &Sandbox, dir: &Path) -> Value {
    sb.json_ok(&["resolve", "--cwd", dir.to_str().unwrap()], None)
}

fn level<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["levels"].as_array().unwrap().iter().find(|l| l["level"] == name).unwrap()
}

fn code_paths(sb: &Sandbox, slug: &str) -> Vec<String> {
    let p = sb.json_ok(&["projects", slug], None);
    p["project"]["code_paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_worktree_anywhere_resolves_to_its_checkouts_project_and_registers_nothing() {
    let sb = Sandbox::new();
    let le = checkout(&sb, None);
    let next_to = sb.home.join("code/le-fix");
    let codex = sb.home.join(".codex/worktrees/a1b2/le");
    std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
    git(&le, &["worktree", "add", "-q", next_to.to_str().unwrap()]);
    git(&le, &["worktree", "add", "-q", "-b", "codex", codex.to_str().unwrap()]);
    for wt in [&next_to, &codex] {
        let sub = wt.join("src");
        std::fs::create_dir_all(&sub).unwrap();
        let r = resolve_at(&sb, &sub);
        assert_eq!(r["project"], "le", "{r}");
        assert_eq!(r["decided_by"], "git_worktree");
        let detail = level(&r, "git_worktree")["detail"].as_str().unwrap().to_owned();
        assert!(detail.contains(&format!("worktree of {}", le.display())), "{detail}");
    }
    assert_eq!(code_paths(&sb, "le"), [le.display().to_string()], "worktrees are not registered");
    git(&le, &["worktree", "remove", "--force", next_to.to_str().unwrap()]);
    assert!(!next_to.exists());
    assert_eq!(code_paths(&sb, "le"), [le.display().to_string()], "deleting a worktree orphans nothing");
    let events = sb.json_ok(&["projects", "le"], None)["events"].to_string();
    assert!(!events.contains("le-fix"), "no event names the worktree: {events}");
}

#[test]
fn a_clone_elsewhere_is_found_by_its_remote_and_bound_once() {
    let sb = Sandbox::new();
    let le = checkout(&sb, Some("git@git.example.com:team/le.git"));
    let bare = sb.home.join("srv/le.git");
    std::fs::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "-q", "--bare"]);
    git(&le, &["push", "-q", bare.to_str().unwrap(), "main"]);
    let clone = sb.home.join("elsewhere/le-copy");
    git(&sb.home, &["clone", "-q", bare.to_str().unwrap(), clone.to_str().unwrap()]);
    // The clone names the repository the https way, the project the ssh way.
    git(&clone, &["remote", "set-url", "origin", "https://Git.Example.com/team/le/"]);
    let sub = clone.join("docs");
    std::fs::create_dir_all(&sub).unwrap();

    let r = resolve_at(&sb, &sub);
    assert_eq!(r["project"], "le", "{r}");
    assert_eq!(r["decided_by"], "git_remote");
    assert_eq!(r["bound_code_path"], clone.canonicalize().unwrap().display().to_string());
    assert!(code_paths(&sb, "le").contains(&clone.canonicalize().unwrap().display().to_string()));
    let events = sb.json_ok(&["projects", "le"], None)["events"].to_string();
    assert!(events.contains("remote_bound"), "{events}");
    // From now on the working directory decides, and nothing is bound twice.
    let again = resolve_at(&sb, &sub);
    assert_eq!(again["decided_by"], "cwd");
    assert_eq!(code_paths(&sb, "le").len(), 2);
}

#[test]
fn two_projects_with_one_remote_are_ambiguous_and_bind_nothing() {
    let sb = Sandbox::new();
    checkout(&sb, Some("https://git.example.com/team/le"));
    sb.cmd()
        .args(["projects", "payments", "--repo-url", "git@git.example.com:team/le.git"])
        .assert()
        .success();
    let clone = sb.mkdir("elsewhere/copy");
    git(&clone, &["init", "-q"]);
    git(&clone, &["remote", "add", "origin", "ssh://git@git.example.com/team/le.git"]);
    let r = resolve_at(&sb, &clone);
    assert_eq!(r["project"], Value::Null, "{r}");
    let remote = level(&r, "git_remote");
    assert_eq!(remote["outcome"], "ambiguous");
    assert_eq!(remote["candidates"], json!(["le", "payments"]));
    assert_eq!(code_paths(&sb, "payments").len(), 0);
    assert_eq!(code_paths(&sb, "le").len(), 1);
}

#[test]
fn code_paths_and_markers_beat_the_git_levels() {
    let sb = Sandbox::new();
    let le = checkout(&sb, None);
    // A worktree placed inside the Payments project's code path: the code path wins.
    let pay = sb.mkdir("code/payments");
    sb.cmd().args(["projects", "payments", "--add-code-path", pay.to_str().unwrap()]).assert().success();
    let inside = pay.join("le-wt");
    git(&le, &["worktree", "add", "-q", inside.to_str().unwrap()]);
    let r = resolve_at(&sb, &inside);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("payments"), Some("cwd")), "{r}");
    assert_eq!(
        level(&r, "git_worktree")["decided"],
        false,
        "the worktree level is shown but does not decide"
    );
    // A worktree elsewhere with a marker naming Payments: the marker wins.
    let marked = sb.home.join("scratch/le-marked");
    git(&le, &["worktree", "add", "-q", "-b", "m", marked.to_str().unwrap()]);
    std::fs::write(marked.join(".mooring.toml"), "project = \"payments\"\n").unwrap();
    let r = resolve_at(&sb, &marked);
    assert_eq!(r["project"], "payments", "{r}");
}

#[test]
fn the_home_directory_says_nothing_even_inside_a_code_path() {
    let sb = Sandbox::new();
    // A project whose code path contains the home directory (registered before the rule).
    let above = sb.home.parent().unwrap().to_path_buf();
    sb.cmd()
        .args(["projects", "new", "Everything", "--code-path", above.to_str().unwrap()])
        .assert()
        .success();
    let r = resolve_at(&sb, &sb.home);
    assert_eq!(r["project"], Value::Null, "{r}");
    let cwd = level(&r, "cwd");
    assert!(cwd["detail"].as_str().unwrap().contains("your home directory"), "{cwd}");
    // One level down is a real directory again.
    let r = resolve_at(&sb, &sb.mkdir("work"));
    assert_eq!(r["project"], "everything");
}

#[test]
fn a_new_project_takes_its_repository_from_the_checkout_without_credentials() {
    let sb = Sandbox::new();
    let app = sb.mkdir("code/app");
    git(&app, &["init", "-q"]);
    git(&app, &["remote", "add", "origin", "https://me:ghp_secret123@github.com/me/app.git"]);
    let created = sb.json_ok(&["projects", "new", "App", "--code-path", app.to_str().unwrap()], None);
    assert_eq!(created["project"]["repo_url"], "https://github.com/me/app.git", "{created}");
    let other = sb.mkdir("code/other");
    git(&other, &["init", "-q"]);
    git(&other, &["remote", "add", "upstream", "git@github.com:me/other.git"]);
    sb.cmd().args(["projects", "new", "Other"]).assert().success();
    let edited = sb.json_ok(&["projects", "other", "--add-code-path", other.to_str().unwrap()], None);
    assert_eq!(edited["project"]["repo_url"], "git@github.com:me/other.git", "{edited}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_in_a_worktree_records_memory_in_the_checkouts_project() {
    let sb = Sandbox::new();
    let le = checkout(&sb, None);
    let wt = sb.home.join(".codex/worktrees/f00d/le");
    std::fs::create_dir_all(wt.parent().unwrap()).unwrap();
    git(&le, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_mooring"));
    cmd.arg("--data-dir").arg(&sb.data).arg("stdio").current_dir(&wt);
    cmd.env("HOME", &sb.home).env_remove("MOORING_PROJECT").env_remove("MOORING_HOME");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let args = json!({ "kind": "decision", "content": "Worktrees share the checkout's memory." });
    let params = CallToolRequestParams::new("remember").with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    client.cancel().await.unwrap();
    let out = result.structured_content.unwrap();
    assert_eq!(out["project"], "le", "{out}");
    assert_eq!(out["decided_by"], "git_worktree");
    let listed = sb.json_ok(&["memory", "list", "le"], None);
    assert!(listed.to_string().contains("Worktrees share"), "{listed}");
}
