//! `mooring setup` and `mooring doctor` as the person runs them: an installed binary,
//! the client's real file under HOME, a hub that is up or not, files with the wrong mode.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use common::Sandbox;
use serde_json::Value;

/// Put an executable `mooring` where an install would: a two-line launcher of the built
/// binary rather than a copy, since a debug build is ~100 MB and CI disks are not large.
fn install(sb: &Sandbox) -> PathBuf {
    let bin = sb.home.join(".local/bin");
    fs::create_dir_all(&bin).unwrap();
    let target = bin.join("mooring");
    let built = assert_cmd::cargo::cargo_bin("mooring");
    fs::write(&target, format!("#!/bin/sh\nexec '{}' \"$@\"\n", built.display())).unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o755)).unwrap();
    target
}

fn doctor(sb: &Sandbox) -> (i32, Value) {
    let out = sb.cmd().args(["doctor", "--json"]).env("PATH", "/usr/bin:/bin").output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap(), v)
}

fn problems(v: &Value) -> Vec<String> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "problem")
        .map(|c| format!("{}: {} → {}", c["name"].as_str().unwrap(), c["message"], c["fix"]))
        .collect()
}

#[test]
fn setup_refuses_a_binary_in_a_build_directory() {
    let sb = Sandbox::new();
    // No installed mooring on PATH either (an empty directory as PATH).
    let out = sb.cmd().args(["setup", "claude-code"]).env("PATH", sb.mkdir("empty-path")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("build directory") && err.contains("scripts/start.sh") && err.contains("--binary"),
        "{err}"
    );
    assert!(!sb.home.join(".claude.json").exists());
}

#[test]
fn setup_writes_once_dry_runs_refuses_broken_files_and_removes() {
    let sb = Sandbox::new();
    let bin = install(&sb);
    let bin_s = bin.to_str().unwrap();
    let file = sb.home.join(".claude.json");

    let dry = sb.cmd().args(["setup", "claude-code", "--binary", bin_s, "--dry-run"]).output().unwrap();
    assert!(dry.status.success());
    let shown = String::from_utf8_lossy(&dry.stdout);
    assert!(shown.contains("+++ ") && shown.contains(bin_s) && shown.contains("nothing written"), "{shown}");
    assert!(!file.exists(), "a dry run writes nothing");

    sb.cmd().args(["setup", "claude-code", "--binary", bin_s]).assert().success();
    let once = fs::read_to_string(&file).unwrap();
    let v: Value = serde_json::from_str(&once).unwrap();
    assert_eq!(v["mcpServers"]["mooring"]["command"], bin_s);
    assert_eq!(v["mcpServers"]["mooring"]["env"]["MOORING_HOME"], sb.data.to_str().unwrap());
    let again = sb.cmd().args(["setup", "claude-code", "--binary", bin_s]).output().unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("already up to date"));
    assert_eq!(fs::read_to_string(&file).unwrap(), once, "running it twice gives the same file");

    fs::write(&file, "{\n  \"numStartups\": 3,\n  oops\n}\n").unwrap();
    let broken = sb.cmd().args(["setup", "claude-code", "--binary", bin_s]).output().unwrap();
    assert_eq!(broken.status.code(), Some(1));
    let err = String::from_utf8_lossy(&broken.stderr);
    assert!(err.contains(".claude.json line 3") && err.contains("Nothing was written"), "{err}");
    assert!(fs::read_to_string(&file).unwrap().contains("oops"), "a broken file is left as it was");

    fs::write(&file, &once).unwrap();
    sb.cmd().args(["setup", "claude-code", "--remove"]).assert().success();
    let v: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert!(v["mcpServers"].get("mooring").is_none(), "{v}");
}

#[test]
fn doctor_names_a_missing_hub_a_stale_binary_and_loose_permissions_then_finds_nothing() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Alpha"]).assert().success();
    let bin = install(&sb);
    sb.cmd().args(["setup", "claude-code", "--hooks", "--binary", bin.to_str().unwrap()]).assert().success();

    // The hub is not running, the database is readable by others, and the client points at
    // a binary that was moved away.
    fs::set_permissions(sb.data.join("mooring.db"), fs::Permissions::from_mode(0o644)).unwrap();
    let file = sb.home.join(".claude.json");
    let stale = fs::read_to_string(&file).unwrap().replace(bin.to_str().unwrap(), "/opt/old/mooring");
    fs::write(&file, stale).unwrap();
    // Hooks from before claims were checked: no PreToolUse entry.
    let settings = sb.home.join(".claude/settings.json");
    let mut hooks: Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    hooks["hooks"].as_object_mut().unwrap().remove("PreToolUse");
    fs::write(&settings, hooks.to_string()).unwrap();
    let (code, v) = doctor(&sb);
    let unchecked = |v: &Value| {
        v["checks"].as_array().unwrap().iter().any(|c| {
            c["name"] == "client:claude-code"
                && c["message"].as_str().unwrap().contains("not checked against other sessions' claims")
        })
    };
    assert!(unchecked(&v), "{v}");
    assert_eq!(code, 1, "{v}");
    let found = problems(&v);
    assert!(found.iter().any(|p| p.starts_with("hub:") && p.contains("mooring serve")), "{found:?}");
    assert!(found.iter().any(|p| p.starts_with("permissions:") && p.contains("chmod 600")), "{found:?}");
    assert!(
        found.iter().any(|p| p.starts_with("client:claude-code:")
            && p.contains("/opt/old/mooring")
            && p.contains("mooring setup claude-code")),
        "{found:?}"
    );

    // Each fix as the report says it.
    fs::set_permissions(sb.data.join("mooring.db"), fs::Permissions::from_mode(0o600)).unwrap();
    sb.cmd().args(["setup", "claude-code", "--hooks", "--binary", bin.to_str().unwrap()]).assert().success();
    let _hub = sb.start_hub();
    let (code, v) = doctor(&sb);
    assert_eq!(code, 0, "{:?}", problems(&v));
    assert_eq!(v["ok"], true);
    assert!(!unchecked(&v), "setup put the check back: {v}");
    let names: Vec<&str> =
        v["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"hub") && names.contains(&"client:claude-code"), "{names:?}");
}

#[test]
fn a_client_registered_over_http_is_told_why_the_shim_is_better() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Alpha"]).assert().success();
    fs::write(
        sb.home.join(".claude.json"),
        r#"{"mcpServers": {"mooring": {"type": "http", "url": "http://127.0.0.1:7423/mcp"}}}"#,
    )
    .unwrap();
    let (_, v) = doctor(&sb);
    let found = problems(&v);
    assert!(
        found.iter().any(|p| p.starts_with("client:claude-code:")
            && p.contains("over HTTP")
            && p.contains("stdio shim")),
        "{found:?}"
    );
}

#[test]
fn the_hook_answers_inside_a_project_and_stays_silent_and_successful_otherwise() {
    let sb = Sandbox::new();
    let code = sb.mkdir("code/alpha");
    sb.cmd().args(["projects", "new", "Alpha", "--code-path", code.to_str().unwrap()]).assert().success();
    sb.cmd().args(["memory", "add", "alpha", "--kind", "decision", "Use raft"]).assert().success();
    let hook = |input: String| {
        let out = sb.cmd().args(["hook", "claude-code"]).write_stdin(input).output().unwrap();
        assert!(out.status.success(), "the hook never fails the client's start");
        String::from_utf8(out.stdout).unwrap()
    };
    let inside =
        hook(format!(r#"{{"cwd":"{}","hook_event_name":"SessionStart"}}"#, code.join("src").display()));
    let v: Value = serde_json::from_str(&inside).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    assert!(v["hookSpecificOutput"]["additionalContext"].as_str().unwrap().contains("Use raft"), "{v}");
    let elsewhere = sb.mkdir("elsewhere");
    assert_eq!(hook(format!(r#"{{"cwd":"{}"}}"#, elsewhere.display())), "", "outside a project: nothing");
    // A database that cannot be opened: no output, exit 0, the reason in hook.log.
    fs::write(sb.data.join("mooring.db"), "not a database").unwrap();
    assert_eq!(hook(format!(r#"{{"cwd":"{}"}}"#, code.display())), "");
    let log = fs::read_to_string(sb.data.join("hook.log")).unwrap();
    assert!(log.contains("claude-code:"), "{log}");
}
