//! A project's whole life through the CLI, checked field by field in `--json`.

mod common;

use common::Sandbox;
use serde_json::Value;

fn slugs(list: &Value) -> Vec<String> {
    list["projects"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn create_edit_resolve_archive_resume_delete() {
    let sb = Sandbox::new();
    let le = sb.mkdir("code/le");
    let deep = sb.mkdir("code/le/src/deep");
    let lex = sb.mkdir("code/lex");
    let le2 = sb.mkdir("code/le2");

    // Create, with ~ expanded and the path canonical.
    let created = sb.json_ok(&["projects", "new", "Leader Election", "--code-path", "~/code/le"], None);
    let p = &created["project"];
    assert_eq!(p["slug"], "leader-election");
    assert_eq!(p["name"], "Leader Election");
    assert_eq!(p["status"], "active");
    assert_eq!(p["code_paths"][0]["path"], le.to_str().unwrap());
    assert_eq!(p["code_paths"][0]["state"], "present");
    assert_eq!(p["last_used"], "never");
    assert_eq!(p["stats"]["memory_total"], 0);
    assert_eq!(created["warnings"], Value::Array(vec![]));

    // A path that does not exist yet is accepted with a warning.
    let other = sb.json_ok(&["projects", "new", "Other Work", "--code-path", "later/dir"], Some(&sb.home));
    assert_eq!(other["project"]["slug"], "other-work");
    assert_eq!(other["project"]["code_paths"][0]["state"], "missing");
    assert!(other["warnings"][0].as_str().unwrap().contains("does not exist"));

    // Several edits in one go.
    let edited = sb.json_ok(
        &[
            "projects",
            "leader-election",
            "--name",
            "Leader Election v2",
            "--description",
            "Raft rewrite",
            "--add-code-path",
            le2.to_str().unwrap(),
            "--repo-url",
            "git@github.com:me/le.git",
        ],
        None,
    );
    let fields: Vec<&str> =
        edited["updated_fields"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(fields, ["name", "description", "repo_url", "code_paths"]);
    assert_eq!(edited["project"]["name"], "Leader Election v2");
    assert_eq!(edited["project"]["repo_url"], "git@github.com:me/le.git");
    assert_eq!(edited["project"]["code_paths"].as_array().unwrap().len(), 2);

    // Resolve from a subdirectory: decided by the working directory, every level listed.
    let r = sb.json_ok(&["resolve"], Some(&deep));
    assert_eq!(r["project"], "leader-election");
    assert_eq!(r["decided_by"], "cwd");
    let levels = r["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 9);
    let names: Vec<&str> = levels.iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["explicit", "session", "workspace", "env", "roots", "cwd", "git_worktree", "git_remote", "focus"]
    );
    assert_eq!(levels[5]["decided"], true);
    assert_eq!(levels[5]["outcome"], "matched");
    // A sibling sharing the prefix resolves to nothing.
    let r = sb.json_ok(&["resolve"], Some(&lex));
    assert_eq!(r["project"], Value::Null);
    assert_eq!(r["decided_by"], Value::Null);

    // Higher levels win over the working directory.
    // other-work's code path did not exist when registered; once it does, it resolves.
    sb.mkdir("later/dir");
    let r = sb.json_ok(&["resolve", "--cwd", deep.to_str().unwrap(), "--workspace-id", "~/later/dir"], None);
    assert_eq!(r["decided_by"], "workspace", "a workspace id beats the cwd");
    assert_eq!(r["project"], "other-work");
    let out = sb
        .cmd()
        .current_dir(&deep)
        .env("MOORING_PROJECT", "other-work")
        .args(["resolve", "--json"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["project"], "other-work");
    assert_eq!(r["decided_by"], "env");

    // Symlinked working directories resolve to their target.
    std::os::unix::fs::symlink(&le, sb.home.join("le-link")).unwrap();
    let r = sb.json_ok(&["resolve", "--cwd", "le-link/src"], Some(&sb.home));
    assert_eq!(r["project"], "leader-election");

    // Focus project decides when nothing else does.
    let f = sb.json_ok(&["projects", "active", "other-work"], None);
    assert_eq!(f["active_project"], "other-work");
    let r = sb.json_ok(&["resolve"], Some(&lex));
    assert_eq!(r["project"], "other-work");
    assert_eq!(r["decided_by"], "focus");

    // Archive: out of resolution and the active list, data kept.
    let a = sb.json_ok(&["projects", "leader-election", "--status", "archived"], None);
    assert_eq!(a["updated_fields"], serde_json::json!(["status"]));
    assert_eq!(a["project"]["status"], "archived");
    assert!(a["project"]["archived_at"].is_string());
    let r = sb.json_ok(&["resolve"], Some(&deep));
    assert_eq!(r["project"], "other-work", "archived code paths no longer decide");
    assert_eq!(slugs(&sb.json_ok(&["projects", "--status", "archived"], None)), ["leader-election"]);
    assert_eq!(slugs(&sb.json_ok(&["projects", "list", "--status", "active"], None)), ["other-work"]);
    assert_eq!(slugs(&sb.json_ok(&["projects"], None)).len(), 2);

    // Resume.
    let back = sb.json_ok(&["projects", "leader-election", "--status", "active"], None);
    assert_eq!(back["project"]["status"], "active");
    assert_eq!(back["project"]["archived_at"], Value::Null);
    assert_eq!(back["project"]["description"], "Raft rewrite", "archiving kept the data");
    let r = sb.json_ok(&["resolve"], Some(&deep));
    assert_eq!(r["project"], "leader-election");

    // The audit log tells the story.
    let shown = sb.json_ok(&["projects", "leader-election"], None);
    let kinds: Vec<&str> =
        shown["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["created", "code_path_added", "code_path_added", "edited", "archived", "resumed"]);

    // Remove a code path, then delete.
    let rm = sb.json_ok(&["projects", "leader-election", "--remove-code-path", le2.to_str().unwrap()], None);
    assert_eq!(rm["project"]["code_paths"].as_array().unwrap().len(), 1);
    let del = sb.json_ok(&["projects", "leader-election", "--delete", "--yes"], None);
    assert_eq!(del["deleted"], "leader-election");
    assert_eq!(slugs(&sb.json_ok(&["projects"], None)), ["other-work"]);
    sb.cmd().args(["projects", "leader-election"]).assert().code(1);

    // Clearing the focus.
    let cleared = sb.json_ok(&["projects", "active", "--clear"], None);
    assert_eq!(cleared["active_project"], Value::Null);
    assert_eq!(sb.json_ok(&["projects", "active"], None)["active_project"], Value::Null);
}

#[test]
fn text_output_fits_eighty_columns() {
    let sb = Sandbox::new();
    let long = "A Very Long Project Name That Keeps Going And Going Past Any Sensible Width";
    let code = format!("{}/x/{}", sb.home.display(), "d".repeat(90));
    let created = sb.json_ok(&["projects", "new", long, "--code-path", &code], None);
    let slug = created["project"]["slug"].as_str().unwrap().to_owned();
    assert_eq!(slug.len(), 64);
    for args in [vec!["projects"], vec!["projects", &slug], vec!["resolve", "--cwd", &code]] {
        let out = sb.cmd().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.is_empty());
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{args:?}: {line:?} is {} wide", line.chars().count());
        }
    }
}

#[test]
fn empty_registry_says_how_to_start() {
    let sb = Sandbox::new();
    sb.cmd().arg("projects").assert().success().stdout(predicates::str::contains("mooring projects new"));
    let v = sb.json_ok(&["projects"], None);
    assert_eq!(v["projects"], Value::Array(vec![]));
}

#[test]
fn version_and_help() {
    let sb = Sandbox::new();
    sb.cmd().arg("--version").assert().success().stdout(predicates::str::contains(env!("CARGO_PKG_VERSION")));
    sb.cmd()
        .args(["projects", "--help"])
        .assert()
        .success()
        .stdout(predicates::str::contains("--add-code-path"));
}

#[test]
fn data_dir_comes_from_mooring_home() {
    let sb = Sandbox::new();
    let mut cmd = assert_cmd::Command::cargo_bin("mooring").unwrap();
    cmd.env("MOORING_HOME", &sb.data)
        .env("HOME", &sb.home)
        .args(["projects", "new", "Env Home"])
        .assert()
        .success();
    assert!(sb.data.join("mooring.db").is_file());
}
