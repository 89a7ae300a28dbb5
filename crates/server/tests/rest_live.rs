//! The REST routes that were tested only through a browser or not at all, over real
//! HTTP: a project's questions, the long poll `/changes` woken by a write another
//! process makes, and `/desktop/*` with a desktop and without one.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TestServer;
use mooring_core::choice::{Broker, ChoiceRequest, TimeoutAction, check};
use mooring_core::store::sessions::ClientFacts;
use mooring_core::{NewProject, Registry, Store, projects::session};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn get(srv: &TestServer, path: &str) -> (StatusCode, Value) {
    send(srv, reqwest::Method::GET, path, None).await
}

async fn send(
    srv: &TestServer,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let token = mooring_server::access::token::load_or_create(srv.dir.path()).unwrap();
    let mut req =
        reqwest::Client::new().request(method, format!("{}/api/v1{path}", srv.base())).bearer_auth(token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_projects_questions_are_the_ones_its_sessions_asked() {
    let srv = TestServer::start().await;
    let slug = srv.project("Billing", &[]);
    srv.project("Other", &[]);
    let facts = ClientFacts { transport: "http", ..Default::default() };
    session::touch(&srv.store, "s-billing", &facts).unwrap();
    session::bind(&srv.store, "s-billing", &slug, mooring_core::projects::resolve::Level::Session.into())
        .unwrap();
    let request: ChoiceRequest = serde_json::from_value(json!({
        "title": "Which currency?",
        "prompt": "Invoices in EUR or USD?",
        "selection_mode": "single",
        "options": [ { "id": "eur", "label": "EUR", "recommended": true }, { "id": "usd", "label": "USD" } ]
    }))
    .unwrap();
    let broker = Broker::new(&srv.store);
    broker.open(check(request.clone()).unwrap(), Some("s-billing"), TimeoutAction::Cancel).unwrap();
    broker.open(check(request).unwrap(), None, TimeoutAction::Cancel).unwrap();

    let (s, body) = get(&srv, &format!("/projects/{slug}/questions")).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["project"], slug.as_str());
    let asked = body["questions"].as_array().unwrap();
    assert_eq!(asked.len(), 1, "only the question its session asked: {body}");
    assert!(asked[0].to_string().contains("Which currency?"), "{body}");
    let (s, other) = get(&srv, "/projects/other/questions").await;
    assert_eq!((s, other["questions"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_long_poll_returns_on_a_write_another_process_makes_and_not_before() {
    let srv = TestServer::start().await;
    let (s, now) = get(&srv, "/changes").await;
    assert_eq!(s, StatusCode::OK);
    let version = now["version"].as_u64().unwrap();
    let waiting = {
        let path = format!("/changes?after={version}");
        let base = srv.base();
        let token = mooring_server::access::token::load_or_create(srv.dir.path()).unwrap();
        tokio::spawn(async move {
            let resp = reqwest::Client::new()
                .get(format!("{base}/api/v1{path}"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
            resp.json::<Value>().await.unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(!waiting.is_finished(), "the poll waits while nothing changes");
    // Another process's write: its own connection to the same database file, as a
    // `mooring` command or a client's hook has.
    let other = Store::open_in(srv.dir.path()).unwrap();
    Registry::new(&other)
        .create(NewProject { name: "From elsewhere".into(), ..NewProject::default() })
        .unwrap();
    let woke =
        tokio::time::timeout(Duration::from_secs(10), waiting).await.expect("the poll returns").unwrap();
    assert!(woke["version"].as_u64().unwrap() > version, "{woke}");
}

/// A desktop whose folder picker answers with `folder`, holding the dialog until told.
struct Desk {
    folder: std::path::PathBuf,
    release: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
}

impl mooring_server::Surfaces for Desk {
    fn can_show(&self) -> bool {
        true
    }
    fn show_dashboard(&self) -> bool {
        true
    }
    fn pick_folder(&self, _title: &str) -> Option<mooring_server::surfaces::FolderAnswer> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (hold, held) = tokio::sync::oneshot::channel();
        *self.release.lock().unwrap() = Some(hold);
        let folder = self.folder.clone();
        tokio::spawn(async move {
            let _ = held.await;
            let _ = tx.send(Some(folder));
        });
        Some(rx)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn desktop_routes_show_and_pick_with_a_desktop_and_refuse_without_one() {
    let headless = TestServer::start().await;
    let (s, body) = send(&headless, reqwest::Method::POST, "/desktop/show", None).await;
    assert_eq!(s, StatusCode::CONFLICT, "{body}");
    assert!(body.to_string().contains("mooring serve"), "{body}");
    let (s, body) = send(&headless, reqwest::Method::POST, "/desktop/pick-folder", Some(json!({}))).await;
    assert_eq!(s, StatusCode::CONFLICT, "{body}");
    assert!(body.to_string().contains("type the path"), "{body}");

    let desk = Arc::new(Desk { folder: "/home/ana/code/billing".into(), release: Mutex::new(None) });
    let srv = TestServer::start_with(desk.clone()).await;
    let (s, body) = send(&srv, reqwest::Method::POST, "/desktop/show", None).await;
    assert_eq!((s, body["shown"].clone()), (StatusCode::OK, json!(true)));
    let first = {
        let (base, token) =
            (srv.base(), mooring_server::access::token::load_or_create(srv.dir.path()).unwrap());
        tokio::spawn(async move {
            reqwest::Client::new()
                .post(format!("{base}/api/v1/desktop/pick-folder"))
                .bearer_auth(token)
                .json(&json!({ "title": "Where is the code?" }))
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        })
    };
    for _ in 0..100 {
        if desk.release.lock().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (s, body) = send(&srv, reqwest::Method::POST, "/desktop/pick-folder", Some(json!({}))).await;
    assert_eq!(s, StatusCode::CONFLICT, "one dialog at a time: {body}");
    let (s, body) =
        send(&srv, reqwest::Method::POST, "/desktop/pick-folder", Some(json!({ "colour": 1 }))).await;
    assert_eq!(
        (s, body["error"]["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("colour")),
        "{body}"
    );
    desk.release.lock().unwrap().take().unwrap().send(()).unwrap();
    let picked = tokio::time::timeout(Duration::from_secs(5), first).await.unwrap().unwrap();
    assert_eq!(picked["path"], "/home/ana/code/billing");
}
