//! With a desktop attached, a pending session's call opens the picker and waits for the
//! person instead of failing: the call continues with the picked project.

mod common;

use std::sync::{Arc, Mutex};

use common::{Gen, TestClient, TestServer, call, connect, ok};
use mooring_server::{PickInfo, Surfaces};
use serde_json::json;

/// A desktop whose "person" clicks `choice` in every picker window it is shown.
struct Clicker {
    choice: String,
    shown: Mutex<Vec<String>>,
}

impl Surfaces for Clicker {
    fn can_show(&self) -> bool {
        true
    }

    fn show_pick(&self, url: &str, _pick: &PickInfo) {
        self.shown.lock().unwrap().push(url.to_owned());
        let (answer, project) = (url.replacen("?t=", "/answer?t=", 1), self.choice.clone());
        tokio::spawn(async move {
            let page = reqwest::get(answer.replace("/answer", "/state")).await.unwrap();
            assert_eq!(page.status(), 200, "the picker's state is reachable with its token");
            let r = reqwest::Client::new()
                .post(answer)
                .json(&json!({ "project": project }))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
        });
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_picker_answers_inside_the_call() {
    let clicker = Arc::new(Clicker { choice: "beta".into(), shown: Mutex::new(Vec::new()) });
    let srv = TestServer::start_with(clicker.clone()).await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let r = ok(&call(&c, "save_handover", json!({ "work_done": "w", "next_steps": "n" })).await);
    assert_eq!(r["project"], "beta");
    assert_eq!(r["decided_by"], "picker");
    let url = clicker.shown.lock().unwrap()[0].clone();
    assert!(url.starts_with(&format!("{}/pick/", srv.base())), "{url}");
    // Remembered for the session; and the finished pick's page is gone.
    assert_eq!(ok(&call(&c, "get_last_handover", json!({})).await)["decided_by"], "session");
    assert_eq!(reqwest::get(&url).await.unwrap().status(), 404);
    c.cancel().await.unwrap();
}

/// A desktop that shows windows but whose person answers through the tray's focus click.
struct Tray;

impl Surfaces for Tray {
    fn can_show(&self) -> bool {
        true
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_focus_click_answers_every_waiting_session() {
    let srv = TestServer::start_with(Arc::new(Tray)).await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let state = srv.server.as_ref().unwrap().state.clone();
    let mut calls = Vec::new();
    for _ in 0..2 {
        let c = Arc::new(connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await);
        calls.push(tokio::spawn(async move { ok(&call(&c, "get_last_handover", json!({})).await) }));
    }
    for _ in 0..100 {
        if state.picks.list().len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(state.picks.answer_all("alpha"), 2);
    for c in calls {
        let r = c.await.unwrap();
        assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("alpha"), Some("picker")));
    }
}

/// A desktop whose person creates a new project from the picker ("New project here").
struct Creator;

impl Surfaces for Creator {
    fn can_show(&self) -> bool {
        true
    }

    fn show_pick(&self, url: &str, pick: &PickInfo) {
        let create = url.replacen("?t=", "/create?t=", 1);
        let here = pick.workspace.clone();
        tokio::spawn(async move {
            let body = json!({ "name": "Fresh Repo", "code_path": here });
            let r = reqwest::Client::new().post(create).json(&body).send().await.unwrap();
            assert_eq!(r.status(), 200);
        });
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn new_project_here_from_the_picker() {
    let srv = TestServer::start_with(Arc::new(Creator)).await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let repo = srv.dir.path().join("fresh-repo");
    std::fs::create_dir_all(&repo).unwrap();
    let ws = format!("file://{}", repo.display());
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[("x-workspace-id", &ws)]).await;
    let r = ok(&call(&c, "get_last_handover", json!({})).await);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("fresh-repo"), Some("picker")));
    let p = mooring_core::Registry::new(&srv.store).get("fresh-repo").unwrap();
    assert_eq!(p.code_paths[0].path, repo.canonicalize().unwrap().to_str().unwrap());
    // The session now resolves by its workspace too.
    let again = ok(&call(&c, "resolve_project", json!({})).await);
    assert_eq!(again["project"], "fresh-repo");
    c.cancel().await.unwrap();
}

/// A desktop whose folder picker stays open until the test answers it.
#[derive(Default)]
struct Folders {
    opened: Mutex<Vec<tokio::sync::oneshot::Sender<Option<std::path::PathBuf>>>>,
}

impl Surfaces for Folders {
    fn can_show(&self) -> bool {
        true
    }

    fn pick_folder(&self, _title: &str) -> Option<mooring_server::surfaces::FolderAnswer> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.opened.lock().unwrap().push(tx);
        Some(rx)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_folder_picker_at_a_time_however_often_it_is_asked_for() {
    let folders = Arc::new(Folders::default());
    let srv = TestServer::start_with(folders.clone()).await;
    let token = std::fs::read_to_string(srv.dir.path().join("token")).unwrap().trim().to_owned();
    let url = format!("{}/api/v1/desktop/pick-folder", srv.base());
    let ask = || reqwest::Client::new().post(&url).bearer_auth(&token).json(&json!({})).send();
    let first = tokio::spawn(ask());
    while folders.opened.lock().unwrap().is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    for _ in 0..20 {
        let again = ask().await.unwrap();
        assert_eq!(again.status(), 409, "a second dialog while one is open");
    }
    assert_eq!(folders.opened.lock().unwrap().len(), 1, "twenty asks opened no other window");
    let tx = folders.opened.lock().unwrap().pop().unwrap();
    tx.send(Some("/tmp".into())).unwrap();
    let picked: serde_json::Value = first.await.unwrap().unwrap().json().await.unwrap();
    assert_eq!(picked["path"], "/tmp");
    // Closed: the next ask opens one again.
    let next = tokio::spawn(ask());
    while folders.opened.lock().unwrap().is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    folders.opened.lock().unwrap().pop().unwrap().send(None).unwrap();
    assert_eq!(next.await.unwrap().unwrap().status(), 200);
}
