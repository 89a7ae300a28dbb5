//! What a teammate's machine knows, driven through the real CLI, `mooring stdio`, the
//! hook and the REST API against a real PostgreSQL: the team's current membership reaches
//! a person's very first command (and a removal takes the project away again), an
//! unreachable team says the list may be stale, and nothing shared carries a path of
//! another person's machine.

mod common;

use std::path::Path;

use common::Sandbox;
use mooring_team::testing::{PASSWORD, Postgres};
use serde_json::{Value, json};

fn join(sb: &Sandbox, url: &str, name: &str) {
    let pw = sb.home.join("team-password");
    std::fs::write(&pw, format!("{PASSWORD}\n")).unwrap();
    sb.json_ok(&["team", "join", url, "--name", name, "--password-file", pw.to_str().unwrap()], None);
}

fn slugs(listed: &Value) -> Vec<String> {
    listed["projects"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap().to_owned()).collect()
}

/// A checkout of `slug` on this person's machine: the repository's committed marker.
fn checkout(sb: &Sandbox, rel: &str, slug: &str) -> std::path::PathBuf {
    let dir = sb.mkdir(rel);
    std::fs::write(dir.join(".mooring.toml"), format!("project = \"{slug}\"\n")).unwrap();
    dir
}

/// The Claude Code session-start hook, run as the client runs it, in `cwd`.
fn hook(sb: &Sandbox, cwd: &Path) -> Value {
    let input =
        json!({ "session_id": "s-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup" });
    // The team database is a real PostgreSQL on a shared test machine: the hook may take
    // longer than its usual 180 ms here, which says nothing about the list it reads.
    let out = sb
        .cmd()
        .args(["hook", "claude-code"])
        .env("MOORING_HOOK_DEADLINE_MS", "3000")
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

#[test]
fn a_new_members_first_command_sees_the_project_and_a_removed_ones_does_not() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    join(&ada, &url, "Ada");
    join(&bob, &url, "Bob");
    for name in ["Listing", "Resolving", "Preamble", "Hooked"] {
        ada.json_ok(&["team", "new", name], None);
        ada.json_ok(
            &[
                "memory",
                "add",
                &name.to_lowercase(),
                "--kind",
                "decision",
                &format!("{name} ships on Fridays"),
            ],
            None,
        );
    }
    let resolving = checkout(&bob, "src/resolving", "resolving");
    let preamble = checkout(&bob, "src/preamble", "preamble");
    let hooked = checkout(&bob, "src/hooked", "hooked");
    assert!(slugs(&bob.json_ok(&["projects"], None)).is_empty(), "Bob is in nothing yet");

    // Each project's member is added just before one command, which is Bob's first since.
    ada.json_ok(&["team", "member", "listing", "Bob"], None);
    let listed = bob.json_ok(&["projects"], None);
    assert_eq!(slugs(&listed), ["listing"]);
    assert_eq!(listed["team_list"]["reachable"], true, "{listed}");
    ada.json_ok(&["team", "member", "resolving", "Bob"], None);
    let text = String::from_utf8(bob.cmd().arg("projects").output().unwrap().stdout).unwrap();
    assert!(text.contains("resolving") && !text.contains("No projects"), "{text}");

    ada.json_ok(&["team", "member", "preamble", "Bob"], None);
    let r = bob.json_ok(&["resolve", "--cwd", resolving.to_str().unwrap()], None);
    assert_eq!(r["project"], "resolving", "{r}");
    let ctx = bob.json_ok(&["context", "--cwd", preamble.to_str().unwrap()], None);
    assert!(ctx.to_string().contains("Preamble ships on Fridays"), "{ctx}");

    ada.json_ok(&["team", "member", "hooked", "Bob"], None);
    let said = hook(&bob, &hooked);
    let context = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default();
    assert!(context.contains("Hooked ships on Fridays"), "{said}");

    // Taken out: gone from the listing and from resolution at the next command.
    ada.json_ok(&["team", "member", "resolving", "Bob", "--remove"], None);
    assert!(!slugs(&bob.json_ok(&["projects"], None)).contains(&"resolving".to_owned()));
    let r = bob.json_ok(&["resolve", "--cwd", resolving.to_str().unwrap()], None);
    assert!(r["project"].is_null(), "{r}");
    let refused = bob.cmd().args(["memory", "list", "resolving"]).output().unwrap();
    assert!(!refused.status.success());

    // Out of reach: the list is what this machine last saw, and every command says so.
    drop(pg);
    let out = bob.cmd().args(["projects", "--json"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut known = slugs(&listed);
    known.sort();
    assert_eq!(known, ["hooked", "listing", "preamble"], "{listed}");
    assert_eq!(listed["team_list"]["reachable"], false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("out of reach") && stderr.contains("may be out of date"), "{stderr}");
    let out = bob.cmd().args(["resolve", "--cwd", preamble.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("may be out of date"), "{out:?}");
    // The hook stays silent on stderr (a client shows it as a failure) and logs it.
    hook(&bob, &hooked);
    let log = std::fs::read_to_string(bob.data.join("hook.log")).unwrap();
    assert!(log.contains("may be out of date"), "{log}");
}

#[tokio::test(flavor = "multi_thread")]
async fn after_share_nothing_a_member_reads_names_a_path_of_the_owners_machine() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    join(&ada, &url, "Ada");
    join(&bob, &url, "Bob");
    // Ada's project, with the history a machine gives it: a code path, a second checkout
    // bound by its marker, a session, the focus.
    let code = ada.mkdir("work/billing");
    ada.json_ok(&["projects", "new", "Billing", "--code-path", code.to_str().unwrap()], None);
    let second = checkout(&ada, "elsewhere/billing-2", "billing");
    ada.json_ok(&["resolve", "--cwd", second.to_str().unwrap()], None);
    ada.json_ok(&["projects", "active", "billing"], None);
    common::agent_call(
        &ada,
        &code,
        &[],
        &[],
        "remember",
        json!({ "kind": "decision", "content": "Stripe only" }),
    )
    .await;
    ada.json_ok(&["team", "share", "billing"], None);
    ada.json_ok(&["team", "member", "billing", "Bob"], None);
    let ada_home = ada.home.to_str().unwrap().to_owned();

    // Bob's own checkout, so he has a path of his own in the project.
    let mine = checkout(&bob, "src/billing", "billing");
    bob.json_ok(&["resolve", "--cwd", mine.to_str().unwrap()], None);
    let shown = bob.json_ok(&["projects", "billing"], None);
    let text = shown.to_string();
    assert!(!text.contains(&ada_home), "Ada's paths reach Bob: {text}");
    assert!(text.contains("Stripe") || text.contains("memory_added"), "the shared history is there: {text}");
    let kinds: Vec<&str> =
        shown["events"].as_array().unwrap().iter().filter_map(|e| e["kind"].as_str()).collect();
    assert!(kinds.contains(&"shared") && kinds.contains(&"created"), "{kinds:?}");
    assert!(kinds.contains(&"marker_bound"), "Bob's own machine's events stay in his view: {kinds:?}");

    // The REST API (the dashboard's events) and an agent's get_project say the same.
    let hub = bob.start_hub();
    let api = hub.url.trim_end_matches("/mcp").to_owned() + "/api/v1";
    let token = String::from_utf8(bob.cmd().arg("token").output().unwrap().stdout).unwrap().trim().to_owned();
    for path in ["/projects/billing", "/projects/billing/events?limit=100", "/projects?status=all"] {
        let out = std::process::Command::new("curl")
            .args(["-s", "-f", "-H", &format!("Authorization: Bearer {token}")])
            .arg(format!("{api}{path}"))
            .output()
            .unwrap();
        let body = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success() && body.contains("billing"), "{path}: {body}");
        assert!(!body.contains(&ada_home), "{path} shows Ada's paths: {body}");
    }
    drop(hub);
    let got = common::agent_call(&bob, &mine, &[], &[], "get_project", json!({ "project": "billing" })).await;
    assert!(!got.to_string().contains(&ada_home), "{got}");

    // Ada's own view keeps her machine's history, paths and all, beside the team's.
    let own = ada.json_ok(&["projects", "billing"], None);
    let events = own["events"].as_array().unwrap();
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["kind"].as_str()).collect();
    for kind in
        ["created", "code_path_added", "marker_bound", "focus_set", "memory_added", "shared", "member_set"]
    {
        assert!(kinds.contains(&kind), "{kind} missing from Ada's view: {kinds:?}");
    }
    assert!(own.to_string().contains(code.to_str().unwrap()));
    let times: Vec<&str> = events.iter().filter_map(|e| e["at"].as_str()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "one history, oldest first: {times:?}");
}

#[test]
fn a_teammates_captured_session_is_shared_with_their_name_and_no_path_of_their_machine() {
    const RECORDED: &str = include_str!("../../core/tests/fixtures/claude-code-2.1.330-work.jsonl");
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    join(&ada, &url, "Ada");
    join(&bob, &url, "Bob");
    let work = ada.mkdir("work/billing");
    ada.json_ok(&["team", "new", "Billing", "--code-path", work.to_str().unwrap()], None);
    ada.json_ok(&["team", "member", "billing", "Bob"], None);
    // Ada's Claude Code session ends a turn in her checkout; the team keeps its record.
    let transcript = ada.home.join("t.jsonl");
    std::fs::write(&transcript, RECORDED.replace("/tmp/rec/work", work.to_str().unwrap())).unwrap();
    let input = json!({ "session_id": "ada-1", "transcript_path": transcript, "cwd": work, "hook_event_name": "Stop" });
    let out = ada.cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");

    let seen = bob.json_ok(&["sessions", "billing"], None);
    let sessions = seen["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{seen}");
    assert_eq!(sessions[0]["written_by"], "Ada");
    let text = sessions[0].to_string();
    assert!(text.contains("created retry.py") && text.contains("Document the retry policy"), "{text}");
    assert!(!text.contains(ada.home.to_str().unwrap()), "Ada's paths reach Bob: {text}");
}
