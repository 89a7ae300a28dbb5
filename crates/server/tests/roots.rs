//! MCP roots with rmcp's client (2025-11-25 sessions): fetched after initialization and
//! again on roots/list_changed, matched against code paths, ambiguity left to the person
//! with the candidates recommended, and the workspace header held within the roots.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use serde_json::json;

fn uri(p: &std::path::Path) -> String {
    format!("file://{}", p.display())
}

struct Dirs {
    api: std::path::PathBuf,
    api_docs: std::path::PathBuf,
    web: std::path::PathBuf,
}

fn setup(srv: &TestServer) -> Dirs {
    let base = srv.dir.path().join("src");
    let dirs = Dirs { api: base.join("api"), api_docs: base.join("api-docs"), web: base.join("web") };
    for d in [&dirs.api, &dirs.api_docs, &dirs.web] {
        std::fs::create_dir_all(d).unwrap();
    }
    srv.project("Api", &[&dirs.api, &dirs.api_docs]);
    srv.project("Web", &[&dirs.web]);
    dirs
}

fn client_with(roots: &[&std::path::Path]) -> TestClient {
    TestClient { roots: Some(roots.iter().map(|p| uri(p)).collect()), ..Default::default() }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_root_inside_a_code_path_decides() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    let client = connect(&srv.url, Gen::Legacy, client_with(&[&d.web]), &[]).await;
    // Asked for right after initialization, before any tool call.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let rows = srv.store.read(|c| mooring_core::store::sessions::recent(c, 10)).unwrap();
        if rows.iter().any(|s| s.roots == [uri(&d.web)]) {
            break;
        }
        assert!(Instant::now() < deadline, "roots were not fetched after initialize: {rows:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = ok(&call(&client, "save_handover", json!({ "work_done": "a", "next_steps": "b" })).await);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("web"), Some("roots")), "{r}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn two_roots_of_one_project_decide() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    let client = connect(&srv.url, Gen::Legacy, client_with(&[&d.api, &d.api_docs]), &[]).await;
    let r = ok(&call(&client, "resolve_project", json!({})).await);
    assert_eq!(r["project"], "api", "{r}");
    assert_eq!(r["decided_by"], "roots");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn roots_of_two_projects_are_ambiguous_and_the_candidates_come_first() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    srv.project("Unrelated", &[]);
    // The most recently used project is not one the roots point at.
    srv.store
        .write(|tx| {
            tx.execute(
                "UPDATE projects SET last_used_at = '2099-01-01T00:00:00Z' WHERE slug = 'unrelated'",
                [],
            )?;
            Ok(())
        })
        .unwrap();
    let client = connect(&srv.url, Gen::Legacy, client_with(&[&d.web, &d.api]), &[]).await;
    let body = err(&call(&client, "save_handover", json!({ "work_done": "a", "next_steps": "b" })).await);
    assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED");
    assert_eq!(body["candidates"], json!(["web", "api"]));
    let rec = body["recommended"].as_str().unwrap();
    assert!(rec == "web" || rec == "api", "recommended {rec}, not one the roots point at");
    let first: Vec<&str> =
        body["projects"].as_array().unwrap()[..2].iter().map(|p| p["slug"].as_str().unwrap()).collect();
    assert!(first.contains(&"web") && first.contains(&"api"), "{first:?}");
    let levels = body["levels"].as_array().unwrap();
    let roots = levels.iter().find(|l| l["level"] == "roots").unwrap();
    assert_eq!(roots["outcome"], "ambiguous");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn changed_roots_are_fetched_again_and_resolution_follows() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    let live = Arc::new(Mutex::new(vec![uri(&d.web)]));
    let handler = TestClient { live_roots: Some(live.clone()), ..Default::default() };
    let client = connect(&srv.url, Gen::Legacy, handler, &[]).await;
    let r = ok(&call(&client, "resolve_project", json!({})).await);
    assert_eq!(r["project"], "web");

    *live.lock().unwrap() = vec![uri(&d.api)];
    client.notify_roots_list_changed().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let r = ok(&call(&client, "resolve_project", json!({})).await);
        if r["project"] == "api" {
            assert_eq!(r["decided_by"], "roots");
            break;
        }
        assert!(Instant::now() < deadline, "resolution did not follow the new roots: {r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_header_outside_the_roots_is_refused_naming_them() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    let handler = client_with(&[&d.web]);
    let ws = d.api.display().to_string();
    let client = connect(&srv.url, Gen::Legacy, handler, &[("x-workspace-id", &ws)]).await;
    let body = err(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!(body["error"]["field"], "X-Workspace-Id", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(&uri(&d.web)), "the roots are not listed: {message}");
    client.cancel().await.unwrap();

    // Inside the roots, the header decides (level 3 beats roots).
    let inside = d.web.join("sub");
    std::fs::create_dir_all(&inside).unwrap();
    let ws = inside.display().to_string();
    let client = connect(&srv.url, Gen::Legacy, client_with(&[&d.web]), &[("x-workspace-id", &ws)]).await;
    let r = ok(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("web"), Some("workspace")));
    client.cancel().await.unwrap();
}

/// The "done when": a renamed repository still resolves for a new session
/// started inside its new location, and list_projects shows the new path.
#[tokio::test(flavor = "multi_thread")]
async fn a_renamed_repository_resolves_from_its_new_place() {
    let srv = TestServer::start().await;
    let d = setup(&srv);
    let renamed = srv.dir.path().join("src/web-app");
    std::fs::rename(&d.web, &renamed).unwrap();
    std::fs::create_dir_all(renamed.join("src")).unwrap();
    let cwd = renamed.join("src").display().to_string();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let client = connect(&srv.url, Gen::Modern, TestClient::default(), &[("x-mooring-cwd", &cwd)]).await;
        let r = call(&client, "get_last_handover", json!({})).await;
        client.cancel().await.unwrap();
        if r.is_error != Some(true) {
            let r = ok(&r);
            assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("web"), Some("cwd")));
            break;
        }
        assert!(Instant::now() < deadline, "a session in the renamed directory never resolved");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let client = connect(&srv.url, Gen::Modern, TestClient::default(), &[]).await;
    let list = ok(&call(&client, "list_projects", json!({})).await);
    let web = list["projects"].as_array().unwrap().iter().find(|p| p["slug"] == "web").unwrap().clone();
    assert_eq!(web["code_paths"][0]["path"], renamed.canonicalize().unwrap().display().to_string());
    assert_eq!(web["code_paths"][0]["state"], "present");
    client.cancel().await.unwrap();
}
