//! Every bad input fails with exit 1 or 2, a message naming the field, JSON that names
//! it too, and no change to the database.

mod common;

use common::Sandbox;
use serde_json::Value;

struct Case {
    args: Vec<String>,
    field: &'static str,
    exit: i32,
    env: Option<(&'static str, &'static str)>,
}

fn case(args: &[&str], field: &'static str, exit: i32) -> Case {
    Case { args: args.iter().map(|s| s.to_string()).collect(), field, exit, env: None }
}

#[test]
fn bad_inputs_fail_cleanly_and_change_nothing() {
    let sb = Sandbox::new();
    let le = sb.mkdir("code/le");
    let le_str = le.to_str().unwrap().to_owned();
    sb.cmd().args(["projects", "new", "Leader Election", "--code-path", &le_str]).assert().success();
    sb.cmd().args(["projects", "new", "Old Stuff"]).assert().success();
    sb.cmd().args(["projects", "old-stuff", "--status", "archived"]).assert().success();

    let long_slug = "a".repeat(65);
    let long_name = "n".repeat(121);
    let long_description = "d".repeat(4001);
    let cases = vec![
        case(&["projects", "new", ""], "name", 1),
        case(&["projects", "new", "   "], "name", 1),
        case(&["projects", "new", "!!! ???"], "name", 1),
        case(&["projects", "new", &long_name], "name", 1),
        case(&["projects", "new", "Two\nLines"], "name", 1),
        case(&["projects", "new", "X", "--slug", "Bad Slug"], "slug", 1),
        case(&["projects", "new", "X", "--slug=-lead"], "slug", 1),
        case(&["projects", "new", "X", "--slug", "under_score"], "slug", 1),
        case(&["projects", "new", "X", "--slug", "projects"], "slug", 1),
        case(&["projects", "new", "Help"], "slug", 1),
        case(&["projects", "new", "X", "--slug", &long_slug], "slug", 1),
        case(&["projects", "new", "Leader Election"], "slug", 1),
        case(&["projects", "new", "Y", "--code-path", &le_str], "code_path", 1),
        case(&["projects", "new", "Y", "--code-path", &format!("{le_str}/./")], "code_path", 1),
        case(&["projects", "new", "Y", "--code-path", "/"], "code_path", 1),
        case(&["projects", "new", "Y", "--code-path", "~someone/x"], "code_path", 1),
        case(&["projects", "new", "Y", "--code-path", "file://remote-host/x"], "code_path", 1),
        case(&["projects", "new", "Y", "--repo-url", "not a url"], "repo_url", 1),
        case(&["projects", "new", "Y", "--repo-url", "ftp://host/x"], "repo_url", 1),
        case(&["projects", "new", "Y", "--description", "bell\u{7}"], "description", 1),
        case(&["projects", "new", "Y", "--notes-path", "~nobody/notes"], "notes_path", 1),
        case(&["projects", "new"], "name", 2),
        case(&["projects", "nope"], "project", 1),
        case(&["projects", "leader-electoin"], "project", 1),
        case(&["projects", "leader-election", "--status", "weird"], "status", 2),
        case(&["projects", "leader-election", "--name", ""], "name", 1),
        case(&["projects", "leader-election", "--remove-code-path", "/not/there"], "remove_code_path", 1),
        case(&["projects", "leader-election", "--add-code-path", "/"], "add_code_path", 1),
        // Atomic: the valid rename must not land when a later part fails.
        case(
            &["projects", "leader-election", "--name", "Renamed", "--add-code-path", "/"],
            "add_code_path",
            1,
        ),
        case(
            &["projects", "leader-election", "--name", "Renamed", "--remove-code-path", "/nope"],
            "remove_code_path",
            1,
        ),
        case(&["projects", "leader-election", "--name", "Renamed", "--repo-url", "nope"], "repo_url", 1),
        case(&["projects", "leader-election", "--delete"], "yes", 2),
        case(&["projects", "leader-election", "--delete", "--yes", "--name", "X"], "name", 2),
        case(&["projects", "leader-election", "--yes"], "yes", 2),
        case(&["projects", "--name", "X"], "name", 2),
        case(&["projects", "--status", "bogus"], "status", 2),
        case(&["projects", "leader-election", "--frobnicate"], "frobnicate", 2),
        case(&["projects", "active", "nope"], "project", 1),
        case(&["projects", "active", "old-stuff"], "project", 1),
        case(&["projects", "active", "leader-election", "--clear"], "slug", 2),
        case(&["projects", "--delete", "--yes"], "delete", 2),
        case(&["resolve", "--project", "nope"], "project", 1),
        case(&["resolve", "--project", "old-stuff"], "project", 1),
        case(&["resolve", "--cwd", "~someone"], "cwd", 1),
        case(&["resolve", "--workspace-id", "file://remote-host/x"], "workspace_id", 1),
        case(&["resolve", "--bogus"], "bogus", 2),
        case(&["projects", "leader-election", "--description", &long_description], "description", 1),
        Case {
            env: Some(("MOORING_PROJECT", "old-stuff")),
            ..case(&["resolve", "--project", "nope"], "project", 1)
        },
    ];
    assert!(cases.len() >= 25);

    let mut problems = Vec::new();
    for c in &cases {
        if let Err(p) = std::panic::catch_unwind(|| check(&sb, c)) {
            let msg = p.downcast_ref::<String>().cloned().unwrap_or_default();
            problems.push(msg);
        }
    }
    assert!(problems.is_empty(), "{} bad inputs misbehaved:\n{}", problems.len(), problems.join("\n"));
}

fn check(sb: &Sandbox, c: &Case) {
    {
        let before = sb.fingerprint();
        for json in [false, true] {
            let mut cmd = sb.cmd();
            if let Some((k, v)) = c.env {
                cmd.env(k, v);
            }
            cmd.args(&c.args);
            if json {
                cmd.arg("--json");
            }
            let out = cmd.output().unwrap();
            let code = out.status.code().unwrap_or(-1);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(code, c.exit, "{:?} (json={json}) exited {code}: {stderr}", c.args);
            let mentions = [c.field.to_owned(), c.field.replace('_', "-"), c.field.to_uppercase()];
            assert!(
                mentions.iter().any(|m| stderr.contains(m.as_str())),
                "{:?}: stderr does not name '{}': {stderr}",
                c.args,
                c.field
            );
            assert!(!stderr.contains("panicked"), "{:?} panicked: {stderr}", c.args);
            if json {
                let v: Value = serde_json::from_slice(&out.stdout)
                    .unwrap_or_else(|e| panic!("{:?}: stdout is not JSON ({e})", c.args));
                assert_eq!(v["error"]["field"], c.field, "{:?}: {v}", c.args);
                assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
                let expected_code = if c.exit == 2 { "USAGE" } else { "" };
                if !expected_code.is_empty() {
                    assert_eq!(v["error"]["code"], expected_code);
                }
            } else {
                assert!(out.stdout.is_empty(), "{:?}: failure printed to stdout", c.args);
            }
        }
        assert_eq!(before, sb.fingerprint(), "{:?} changed the database", c.args);
    }
}

#[test]
fn conflicts_suggest_the_fix() {
    let sb = Sandbox::new();
    let le = sb.mkdir("code/le");
    sb.cmd()
        .args(["projects", "new", "Leader Election", "--code-path", le.to_str().unwrap()])
        .assert()
        .success();
    sb.cmd().args(["projects", "new", "x", "--slug", "leader-election-2"]).assert().success();
    let out = sb.cmd().args(["projects", "new", "Leader Election"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--slug leader-election-3"), "{err}");
    let out = sb.cmd().args(["projects", "new", "Y", "--code-path", le.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already belongs to project 'leader-election'"), "{err}");
    let out = sb.cmd().args(["projects", "leader-electoin"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean 'leader-election'"));
}

#[test]
fn a_reader_that_closes_stdout_early_ends_the_command_quietly() {
    // `mooring memory list … | grep -q …`: the reader may be gone before the last write.
    let sb = Sandbox::new();
    sb.json_ok(&["projects", "new", "Ledger"], None);
    for i in 0..40 {
        sb.json_ok(
            &["memory", "add", "ledger", "--kind", "note", &format!("Note {i} about the ledger export")],
            None,
        );
    }
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("mooring"));
    cmd.arg("--data-dir").arg(&sb.data).env("HOME", &sb.home).args(["memory", "list", "ledger", "--json"]);
    let mut child =
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
