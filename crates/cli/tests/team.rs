//! Two people's Moorings (two data directories, two homes: two machines) on one team
//! PostgreSQL, driven through the real CLI and `mooring stdio` as an agent client
//! launches it: a decision recorded by one person's agent appears in the other person's
//! agent's context preamble, each resolving the project by their own checkout's path.

mod common;

use std::path::Path;

use common::Sandbox;
use mooring_team::testing::{PASSWORD, Postgres};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

/// One tool call from an agent whose client started `mooring stdio` in `cwd`.
async fn agent_call(sb: &Sandbox, cwd: &Path, tool: &str, args: Value) -> Value {
    common::agent_call(sb, cwd, &[], &[], tool, args).await
}

fn join(sb: &Sandbox, url: &str, name: &str) -> Value {
    let pw = sb.home.join("team-password");
    std::fs::write(&pw, format!("{PASSWORD}\n")).unwrap();
    sb.json_ok(&["team", "join", url, "--name", name, "--password-file", pw.to_str().unwrap()], None)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_decision_by_one_persons_agent_reaches_the_others_preamble_through_their_own_checkout() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    let ada_code = ada.mkdir("work/billing");
    let bob_code = bob.mkdir("src/billing-clone");
    let bob_deep = bob.mkdir("src/billing-clone/lib");

    join(&ada, &url, "Ada");
    let joined = join(&bob, &url, "Bob");
    assert_eq!(joined["person"], "Bob");
    // The password is kept privately, never in the URL or the output.
    assert!(!joined.to_string().contains(PASSWORD));
    let stored = ada.data.join("team.json");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&stored).unwrap().permissions().mode() & 0o777, 0o600);

    ada.json_ok(&["team", "new", "Billing", "--code-path", ada_code.to_str().unwrap()], None);
    ada.json_ok(&["team", "member", "billing", "Bob"], None);
    // Bob's machine learns of the project and binds his own checkout to it.
    let status = bob.json_ok(&["team", "status"], None);
    assert_eq!(
        (status["reachable"].as_bool(), status["projects"].clone()),
        (Some(true), json!([{ "slug": "billing", "role": "member", "owner": "Ada" }]))
    );
    assert_eq!(status["row_security"], true, "the team's plain role is held to row security: {status}");
    bob.json_ok(&["projects", "billing", "--add-code-path", bob_code.to_str().unwrap()], None);

    // Ada's agent, in her checkout, records a decision.
    let r = agent_call(
        &ada,
        &ada_code,
        "remember",
        json!({ "kind": "decision", "content": "Invoices go through Stripe, not our own ledger" }),
    )
    .await;
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("billing"), Some("cwd")));

    // Bob's agent, deep in his own clone, gets it in its preamble.
    let ctx = agent_call(&bob, &bob_deep, "project_context", json!({})).await;
    assert_eq!((ctx["project"].as_str(), ctx["decided_by"].as_str()), (Some("billing"), Some("cwd")));
    let text = ctx["text"].as_str().unwrap();
    assert!(text.contains("Invoices go through Stripe"), "{text}");
    // The model is told who wrote it: a teammate's agent, the teammate by name (an MCP
    // write is an agent's, never the person's own word).
    assert!(text.contains("written by an agent of Ada, a team member) Invoices go through Stripe"), "{text}");
    // And the entry says who wrote it.
    let listed = bob.json_ok(&["memory", "list", "billing"], None);
    assert_eq!(listed["entries"][0]["written_by"], "Ada");

    // A local project on Bob's machine stays local: Ada never sees it.
    bob.json_ok(&["projects", "new", "Scratch"], None);
    bob.json_ok(&["memory", "add", "scratch", "--kind", "note", "local only"], None);
    // (Search by meaning always has a nearest entry: Ada's own decision may come back.)
    let hits = ada.json_ok(&["memory", "search", "local"], None);
    let hits = hits["hits"].as_array().unwrap();
    assert!(hits.iter().all(|h| h["entry"]["content"] != "local only"), "{hits:?}");
    assert!(hits.iter().all(|h| h["entry"]["project"] == "billing"), "{hits:?}");

    // Bob's running Mooring hears of a project Ada creates and offers it without a
    // restart (the team announces every change; his hub refreshes its project list).
    let hub = bob.start_hub();
    let started = std::time::Instant::now();
    ada.json_ok(&["team", "new", "Payments"], None);
    ada.json_ok(&["team", "member", "payments", "Bob"], None);
    loop {
        let projects = bob.json_ok(&["projects", "list"], None);
        if projects.to_string().contains("\"payments\"") {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "never arrived: {projects}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // The dashboard's API says whose it is and who is in it; an owner's call from a
    // member is refused by the team.
    let api = hub.url.trim_end_matches("/mcp").to_owned() + "/api/v1";
    let token = String::from_utf8(bob.cmd().arg("token").output().unwrap().stdout).unwrap().trim().to_owned();
    let curl = |method: &str, path: &str| -> (u16, Value) {
        let out = std::process::Command::new("curl")
            .args([
                "-s",
                "-X",
                method,
                "-H",
                &format!("Authorization: Bearer {token}"),
                "-w",
                "\n%{http_code}",
            ])
            .arg(format!("{api}{path}"))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let (body, code) = text.rsplit_once('\n').unwrap();
        (code.parse().unwrap(), serde_json::from_str(body).unwrap_or(Value::Null))
    };
    let (code, listed) = curl("GET", "/projects?status=all");
    assert_eq!(code, 200);
    let payments =
        listed["projects"].as_array().unwrap().iter().find(|p| p["slug"] == "payments").unwrap().clone();
    assert_eq!(
        (payments["team"]["owner"].as_str(), payments["team"]["role"].as_str()),
        (Some("Ada"), Some("member"))
    );
    assert_eq!(payments["team"]["members"].as_array().unwrap().len(), 2);
    let scratch =
        listed["projects"].as_array().unwrap().iter().find(|p| p["slug"] == "scratch").unwrap().clone();
    assert!(scratch["team"].is_null(), "Bob's own project is local");
    let (code, refused) = curl("POST", "/projects/payments/archive");
    assert_eq!(code, 403, "{refused}");
    drop(hub);

    // Ownership moves with --handoff; the old owner can no longer delete.
    ada.json_ok(&["projects", "payments", "--handoff", "Bob"], None);
    let refused = ada.cmd().args(["projects", "payments", "--delete", "--yes"]).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("only the owner"), "{refused:?}");
    bob.json_ok(&["projects", "payments", "--status", "archived"], None);

    // Bob moves his own project in, memory and all; Ada, made a viewer, reads it and
    // cannot write.
    let shared = bob.json_ok(&["team", "share", "scratch"], None);
    assert_eq!(shared["entries"], 1);
    bob.json_ok(&["team", "member", "scratch", "Ada", "--role", "viewer"], None);
    ada.json_ok(&["team", "status"], None);
    let seen = ada.json_ok(&["memory", "list", "scratch"], None);
    assert_eq!(seen["entries"][0]["content"], "local only");
    let write = ada.cmd().args(["memory", "add", "scratch", "--kind", "note", "mine now?"]).output().unwrap();
    assert!(!write.status.success());
    assert!(String::from_utf8_lossy(&write.stderr).contains("viewer"), "{write:?}");

    // Leaving takes the team's projects off the machine; the memory stays in the team.
    bob.json_ok(&["team", "leave"], None);
    let left = bob.cmd().args(["memory", "list", "billing"]).output().unwrap();
    assert!(!left.status.success());
    let still = ada.json_ok(&["memory", "list", "billing"], None);
    assert_eq!(still["entries"].as_array().unwrap().len(), 1);
}

/// An agent's session: `mooring stdio` in `cwd`, kept open for many calls.
async fn agent(sb: &Sandbox, cwd: &Path) -> (rmcp::service::RunningService<rmcp::RoleClient, ()>, u32) {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_mooring"));
    cmd.arg("--data-dir").arg(&sb.data).arg("stdio").current_dir(cwd);
    cmd.env("HOME", &sb.home).env_remove("MOORING_PROJECT").env_remove("MOORING_HOME");
    let transport = TokioChildProcess::new(cmd).unwrap();
    let pid = transport.id().unwrap();
    (().serve(transport).await.expect("MCP handshake"), pid)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_instance_loses_no_acknowledged_write_of_either_writer() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    let (ada_code, bob_code) = (ada.mkdir("work/billing"), bob.mkdir("src/billing"));
    join(&ada, &url, "Ada");
    join(&bob, &url, "Bob");
    ada.json_ok(&["team", "new", "Billing", "--code-path", ada_code.to_str().unwrap()], None);
    ada.json_ok(&["team", "member", "billing", "Bob"], None);
    bob.json_ok(&["team", "status"], None);
    bob.json_ok(&["projects", "billing", "--add-code-path", bob_code.to_str().unwrap()], None);

    let write = |client: rmcp::service::RunningService<rmcp::RoleClient, ()>, who: &'static str| {
        tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            for i in 0..400 {
                let args = json!({ "kind": "note", "content": format!("{who} note {i}") });
                let params =
                    CallToolRequestParams::new("remember").with_arguments(args.as_object().cloned().unwrap());
                match client.call_tool(params).await {
                    Ok(r) if r.is_error != Some(true) => acknowledged.push(format!("{who} note {i}")),
                    _ => break,
                }
            }
            acknowledged
        })
    };
    let (ada_agent, _) = agent(&ada, &ada_code).await;
    let (bob_agent, bob_pid) = agent(&bob, &bob_code).await;
    let ada_writes = write(ada_agent, "ada");
    let bob_writes = write(bob_agent, "bob");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let killed = std::process::Command::new("kill").args(["-9", &bob_pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let (ada_acked, bob_acked) = (ada_writes.await.unwrap(), bob_writes.await.unwrap());
    assert!(!bob_acked.is_empty() && bob_acked.len() < 400, "Bob was killed mid-run: {}", bob_acked.len());
    assert_eq!(ada_acked.len(), 400, "Ada's writes go on");

    let mut stored = Vec::new();
    let mut before: Option<i64> = None;
    loop {
        let mut args = vec!["memory", "list", "billing", "--limit", "200"];
        let b = before.map(|b| b.to_string());
        if let Some(b) = &b {
            args.extend(["--before", b]);
        }
        let page = ada.json_ok(&args, None);
        stored.extend(
            page["entries"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap().to_owned()),
        );
        match page["next_before"].as_i64() {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    for note in ada_acked.iter().chain(&bob_acked) {
        assert!(stored.contains(note), "acknowledged but missing: {note}");
    }
}

#[test]
fn members_edit_a_team_projects_shared_fields_viewers_change_nothing_and_events_say_who() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let (ada, bob) = (Sandbox::new(), Sandbox::new());
    join(&ada, &url, "Ada");
    join(&bob, &url, "Bob");
    ada.json_ok(&["team", "new", "Billing"], None);
    ada.json_ok(&["team", "member", "billing", "Bob", "--role", "viewer"], None);
    bob.json_ok(&["team", "status"], None);
    // Bob's checkout is a clone: its remote names the repository.
    let clone = bob.mkdir("src/billing");
    let git = |args: &[&str]| {
        assert!(
            std::process::Command::new("git")
                .args(args)
                .current_dir(&clone)
                .output()
                .unwrap()
                .status
                .success()
        )
    };
    git(&["init", "-q"]);
    git(&["remote", "add", "origin", "https://github.com/acme/billing.git"]);

    // A viewer's edit is refused whole: not even his own code path is bound.
    let path = clone.to_str().unwrap();
    let refused = bob
        .cmd()
        .args(["projects", "billing", "--description", "Invoices", "--add-code-path", path])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("viewer of 'billing'"), "{refused:?}");
    let shown = bob.json_ok(&["projects", "billing"], None);
    assert_eq!(shown["project"]["code_paths"], json!([]));

    // As a member he renames it and binds his clone; the team learns its repository.
    ada.json_ok(&["team", "member", "billing", "Bob", "--role", "member"], None);
    let changed = bob.json_ok(
        &[
            "projects",
            "billing",
            "--name",
            "Billing Service",
            "--description",
            "Invoices",
            "--add-code-path",
            path,
        ],
        None,
    );
    let mut fields: Vec<&str> =
        changed["updated_fields"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    fields.sort();
    assert_eq!(fields, ["code_paths", "description", "name", "repo_url"]);
    // Ada sees it all on her next look, with who changed it; the code path stays Bob's.
    let seen = ada.json_ok(&["projects", "billing"], None);
    let p = &seen["project"];
    assert_eq!(
        (p["name"].as_str(), p["description"].as_str(), p["repo_url"].as_str()),
        (Some("Billing Service"), Some("Invoices"), Some("https://github.com/acme/billing.git"))
    );
    assert_eq!(p["code_paths"], json!([]));
    let edited: Vec<&Value> =
        seen["events"].as_array().unwrap().iter().filter(|e| e["kind"] == "edited").collect();
    assert_eq!(edited.len(), 2, "{seen}");
    assert!(edited.iter().all(|e| e["detail"]["by"] == "Bob"), "{seen}");
    // Status stays the owner's.
    let status = bob.cmd().args(["projects", "billing", "--status", "paused"]).output().unwrap();
    assert!(String::from_utf8_lossy(&status.stderr).contains("only the owner"), "{status:?}");

    // Leaving with --keep: the project stays on Bob's machine as his own, memory and his
    // checkout included; Ada's team project goes on without him.
    bob.json_ok(&["memory", "add", "billing", "--kind", "decision", "retry webhooks twice"], None);
    // Listings count a team project's memory where it lives.
    let listed = ada.json_ok(&["projects", "list"], None);
    let stats = &listed["projects"][0]["stats"];
    assert_eq!((stats["decisions"].as_u64(), stats["memory_total"].as_u64()), (Some(1), Some(1)), "{listed}");
    let left = bob.json_ok(&["team", "leave", "--keep"], None);
    assert_eq!(left["kept"], json!([{ "slug": "billing", "entries": 1 }]));
    let mine = bob.json_ok(&["memory", "list", "billing"], None);
    assert_eq!(
        (mine["entries"][0]["content"].as_str(), mine["entries"][0]["written_by"].as_str()),
        (Some("retry webhooks twice"), Some("Bob"))
    );
    let r = bob.json_ok(&["resolve"], Some(&clone));
    assert_eq!(r["project"], "billing", "{r}");
    bob.json_ok(&["memory", "add", "billing", "--kind", "note", "local now"], None);
    assert_eq!(ada.json_ok(&["memory", "list", "billing"], None)["entries"].as_array().unwrap().len(), 1);
}

/// What an agent's `remember` call answered: the entry, or the error's words.
async fn remember(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    content: &str,
) -> Result<Value, String> {
    let args = json!({ "kind": "note", "content": content });
    let params = CallToolRequestParams::new("remember").with_arguments(args.as_object().cloned().unwrap());
    match client.call_tool(params).await {
        Ok(r) if r.is_error != Some(true) => Ok(r.structured_content.unwrap_or(Value::Null)),
        Ok(r) => Err(serde_json::to_string(&r.content).unwrap()),
        Err(e) => Err(e.to_string()),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_hears_the_outage_by_name_works_on_locally_and_resumes_when_the_database_returns() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = Sandbox::new();
    let (team_code, own_code) = (ada.mkdir("work/billing"), ada.mkdir("work/scratch"));
    join(&ada, &url, "Ada");
    ada.json_ok(&["team", "new", "Billing", "--code-path", team_code.to_str().unwrap()], None);
    ada.json_ok(&["projects", "new", "Scratch", "--code-path", own_code.to_str().unwrap()], None);
    // Two agent sessions that stay up through the outage, as an editor's would.
    let (team_agent, _) = agent(&ada, &team_code).await;
    let (own_agent, _) = agent(&ada, &own_code).await;
    remember(&team_agent, "before the outage").await.unwrap();

    pg.stop();
    let refused = remember(&team_agent, "during the outage").await.unwrap_err();
    for words in ["team database has been unreachable since", "local projects keep working"] {
        assert!(refused.contains(words), "{words:?} not in {refused}");
    }
    let local = remember(&own_agent, "the team is away").await.unwrap();
    assert_eq!(local["project"], "scratch", "{local}");

    // The same session writes again once the database is back, without a restart.
    pg.restart();
    let started = std::time::Instant::now();
    while let Err(e) = remember(&team_agent, "after the return").await {
        assert!(started.elapsed() < std::time::Duration::from_secs(15), "never resumed: {e}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let listed = ada.json_ok(&["memory", "list", "billing"], None);
    let contents: Vec<&str> =
        listed["entries"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap()).collect();
    assert_eq!(contents, ["after the return", "before the outage"], "nothing lost, nothing queued");
}
