//! `mooring memory`, `context`, `export`/`import` and `token` through the binary.

mod common;

use common::Sandbox;
use serde_json::Value;

#[test]
fn memory_context_and_a_round_trip_through_markdown() {
    let sb = Sandbox::new();
    let code = sb.mkdir("code/le");
    let deep = sb.mkdir("code/le/src");
    sb.cmd()
        .args(["projects", "new", "Leader Election", "--code-path", code.to_str().unwrap()])
        .assert()
        .success();
    sb.cmd().args(["projects", "new", "Monitoring"]).assert().success();
    let d = sb.json_ok(
        &["memory", "add", "leader-election", "--kind", "decision", "--tag", "storage", "Use etcd 3.5"],
        None,
    );
    assert_eq!(d["kind"], "decision");
    assert_eq!(d["tags"], serde_json::json!(["storage"]));
    sb.cmd()
        .args(["memory", "add", "leader-election", "--kind", "blocker", "-"])
        .write_stdin("Waiting on certs\n")
        .assert()
        .success();
    let list = sb.json_ok(&["memory", "list", "leader-election", "--kind", "blocker"], None);
    assert_eq!(list["entries"][0]["content"], "Waiting on certs");
    let hits = sb.json_ok(&["memory", "search", "etcd"], None);
    assert_eq!(hits["hits"][0]["entry"]["project"], "leader-election");

    // `context` resolves the project from the working directory, as a SessionStart hook.
    let out = sb.cmd().current_dir(&deep).args(["context", "--budget", "400"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# Project: Leader Election"), "{text}");
    assert!(text.contains("Waiting on certs") && text.contains("**monitoring**"));
    let outside = sb.mkdir("elsewhere");
    let out = sb.cmd().current_dir(&outside).arg("context").output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "outside any project the hook prints nothing");

    // Export, import into another data dir, export again: the same files.
    let first = sb.home.join("export-1");
    sb.json_ok(&["export", "leader-election", "--to", first.to_str().unwrap()], None);
    let other = Sandbox::new();
    let imported = other.json_ok(&["import", first.to_str().unwrap()], None);
    assert_eq!(imported["imported"], "leader-election");
    let second = other.home.join("export-2");
    other.json_ok(&["export", "leader-election", "--to", second.to_str().unwrap()], None);
    for f in ["project.md", "decisions.md", "blockers.md", "locks.md", "handovers.md"] {
        assert_eq!(std::fs::read(first.join(f)).unwrap(), std::fs::read(second.join(f)).unwrap(), "{f}");
    }
    let err = other.cmd().args(["import", first.to_str().unwrap()]).assert().code(1);
    assert!(String::from_utf8_lossy(&err.get_output().stderr).contains("already exists"));
}

#[test]
fn memory_refusals_and_token() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Alpha"]).assert().success();
    for (args, field) in [
        (vec!["memory", "add", "alpha", "--kind", "rumor", "x"], "kind"),
        (vec!["memory", "add", "alpha", "--kind", "note", "  "], "content"),
        (vec!["memory", "add", "nope", "--kind", "note", "x"], "project"),
        (vec!["memory", "list", "alpha", "--limit", "0"], "limit"),
        (vec!["memory", "search", "?!"], "query"),
        (vec!["context", "alpha", "--budget", "5"], "budget_tokens"),
        (vec!["export", "nope", "--to", "x"], "project"),
    ] {
        let out = sb.cmd().args(&args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["field"], field, "{args:?}");
    }
    let t1 = sb.json_ok(&["token"], None);
    let t2 = sb.json_ok(&["token"], None);
    assert_eq!(t1["token"], t2["token"]);
    assert_eq!(t1["token"].as_str().unwrap().len(), 68);
}

#[test]
fn export_writes_its_block_into_the_named_agents_md_and_nothing_else() {
    let sb = Sandbox::new();
    let code = sb.mkdir("code/le");
    sb.mkdir("code/le/docs");
    sb.cmd()
        .args(["projects", "new", "Leader Election", "--code-path", code.to_str().unwrap()])
        .assert()
        .success();
    sb.json_ok(&["memory", "add", "leader-election", "--kind", "decision", "Use etcd 3.5"], None);
    sb.json_ok(&["memory", "add", "leader-election", "--kind", "blocker", "Waiting on certs"], None);
    let agents = code.join("AGENTS.md");
    std::fs::write(&agents, "# House rules\nNo force pushes.\n").unwrap();
    // Named relative to where the person stands, as a shell would.
    let out = sb
        .cmd()
        .current_dir(&code)
        .args(["--json", "export", "leader-election", "--agents-md", "AGENTS.md"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["decisions"].as_u64(), v["open_blockers"].as_u64(), v["changed"].as_bool()),
        (Some(1), Some(1), Some(true))
    );
    let text = std::fs::read_to_string(&agents).unwrap();
    assert!(text.starts_with("# House rules\nNo force pushes.\n\n<!-- mooring:begin"), "{text}");
    assert!(text.contains("- Use etcd 3.5 (#1, ") && text.contains("- Waiting on certs (#2, "), "{text}");
    assert!(text.contains("Waiting on certs (#2, written by"), "each line names its author: {text}");
    // A subfolder's file, or a path outside the checkout, is refused and not created.
    for bad in [code.join("docs/AGENTS.md"), sb.mkdir("elsewhere").join("AGENTS.md")] {
        let out = sb
            .cmd()
            .args(["export", "leader-election", "--agents-md", bad.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not at the root of a checkout"), "{err}");
        assert!(!bad.exists());
    }
    // Neither a folder nor a file named: clap says which to give.
    let out = sb.cmd().args(["export", "leader-election"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--agents-md"));
}

#[test]
fn a_new_decision_names_the_one_it_contradicts_and_supersedes_it_without_deleting() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Ledger"]).assert().success();
    for text in ["Use Redis for the session cache", "Deploys go out on Tuesdays", "Ledger stays on MySQL"] {
        sb.json_ok(&["memory", "add", "ledger", "--kind", "decision", text], None);
    }
    let new = sb
        .json_ok(&["memory", "add", "ledger", "--kind", "decision", "We moved the ledger to Postgres"], None);
    let candidates = new["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 1, "{new}");
    assert_eq!(candidates[0]["title"], "Ledger stays on MySQL");
    let (new_id, old_id) = (new["id"].as_i64().unwrap(), candidates[0]["id"].as_i64().unwrap());
    // A bad id names the field and writes nothing.
    let before = sb.json_ok(&["memory", "list", "ledger"], None)["entries"].as_array().unwrap().len();
    let out = sb
        .cmd()
        .args([
            "--json",
            "memory",
            "add",
            "ledger",
            "--kind",
            "decision",
            "--supersedes",
            "999",
            "Ledger on Postgres 17",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(err["error"]["field"], "supersedes", "{err}");
    assert_eq!(sb.json_ok(&["memory", "list", "ledger"], None)["entries"].as_array().unwrap().len(), before);

    let done = sb.json_ok(&["memory", "supersede", "ledger", &new_id.to_string(), &old_id.to_string()], None);
    assert_eq!(done["superseded"][0]["superseded_by"], new_id);
    let context = sb.cmd().args(["context", "ledger"]).output().unwrap();
    let context = String::from_utf8_lossy(&context.stdout);
    assert!(
        !context.contains("Ledger stays on MySQL") && context.contains("moved the ledger to Postgres"),
        "{context}"
    );
    let list = sb.json_ok(&["memory", "list", "ledger"], None);
    assert!(
        list["entries"].as_array().unwrap().iter().any(|e| e["id"] == old_id && e["superseded_by"] == new_id)
    );
    // The readable list and search mark it with what superseded it, as the JSON does.
    let text = |args: &[&str]| String::from_utf8(sb.cmd().args(args).output().unwrap().stdout).unwrap();
    let listed = text(&["memory", "list", "ledger"]);
    let mark = format!("superseded by #{new_id}");
    let at = listed.find("Ledger stays on MySQL").unwrap();
    assert!(listed[at..].lines().nth(1).unwrap().contains(&mark), "{listed}");
    assert_eq!(listed.matches("superseded by").count(), 1, "only the retired one: {listed}");
    let found = text(&["memory", "search", "--mode", "keyword", "MySQL"]);
    assert!(found.contains(&mark), "{found}");
    sb.json_ok(&["memory", "restore", "ledger", &old_id.to_string()], None);
    let context = sb.cmd().args(["context", "ledger"]).output().unwrap();
    assert!(String::from_utf8_lossy(&context.stdout).contains("Ledger stays on MySQL"));
}

#[test]
fn memory_forget_is_the_command_the_docs_name() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Ledger"]).assert().success();
    let e = sb.json_ok(&["memory", "add", "ledger", "--kind", "note", "Forget me soon"], None);
    let id = e["id"].as_i64().unwrap().to_string();
    let out = sb.cmd().args(["memory", "forget", "ledger", &id]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Forgot note #"), "{out:?}");
    let list = sb.json_ok(&["memory", "list", "ledger"], None);
    assert!(list["entries"].as_array().unwrap().is_empty(), "{list}");
    let again = sb.cmd().args(["--json", "memory", "forget", "ledger", &id]).output().unwrap();
    assert_eq!(again.status.code(), Some(1), "forgetting twice names the entry");
}
