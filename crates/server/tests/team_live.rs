//! A change made on another machine of the team reaches this one's running server: the
//! tray and dashboard are told to refresh (the surfaces double records when), MCP
//! resource subscribers are notified, and a project handed to this person raises a
//! desktop notification. A real PostgreSQL; "another machine" is a second store on it.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Gen, TestClient, TestServer, connect};
use mooring_core::{NewProject, Registry};
use mooring_server::Surfaces;
use mooring_team::testing::{PASSWORD, Postgres};
use mooring_team::{PgStore, Role, config};
use rmcp::model::SubscribeRequestParams;

/// Bob's desktop: when its menus were refreshed, and what it told him.
#[derive(Default)]
struct Desktop {
    refreshed: Mutex<Vec<Instant>>,
    notes: Mutex<Vec<(String, String)>>,
}

impl Surfaces for Desktop {
    fn can_show(&self) -> bool {
        false
    }
    fn projects_changed(&self) {
        self.refreshed.lock().unwrap().push(Instant::now());
    }
    fn notify(&self, title: &str, body: &str) {
        self.notes.lock().unwrap().push((title.to_owned(), body.to_owned()));
    }
}

impl Desktop {
    /// Wait (bounded) until a refresh after `since` and `done` hold; how long after `since`.
    async fn refresh_after(&self, since: Instant, done: impl Fn() -> bool) -> Duration {
        let deadline = since + Duration::from_secs(10);
        loop {
            let first = self.refreshed.lock().unwrap().iter().copied().find(|t| *t >= since);
            if let Some(at) = first
                && done()
            {
                return at - since;
            }
            assert!(Instant::now() < deadline, "the desktop was never refreshed");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn another_machines_change_reaches_the_tray_subscribers_and_the_new_owner() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap();
    ada.create_project(NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    ada.set_member("billing", "Bob", Role::Member).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let joined =
        config::TeamConfig { url: url.clone(), person: "Bob".into(), password: Some(PASSWORD.into()) };
    config::save(dir.path(), &joined).unwrap();
    let desktop = Arc::new(Desktop::default());
    let started = Instant::now();
    let srv = TestServer::start_in(dir, desktop.clone()).await;
    // Listening begins with a resync: the desktop is refreshed once it hears the team.
    desktop.refresh_after(started, || true).await;
    let handler = TestClient::default();
    let watcher = connect(&srv.url, Gen::Legacy, handler.clone(), &[]).await;
    #[allow(deprecated)]
    watcher.subscribe(SubscribeRequestParams::new("mooring://projects/billing/context")).await.unwrap();

    // Ada creates a project with Bob in it: his tray offers it within a second.
    let made = Instant::now();
    ada.create_project(NewProject { name: "Payments".into(), ..Default::default() }).unwrap();
    ada.set_member("payments", "Bob", Role::Member).unwrap();
    let offered = || Registry::new(&srv.store).get("payments").is_ok();
    let took = desktop.refresh_after(made, offered).await;
    assert!(took < Duration::from_secs(1), "the tray refreshed {took:?} after the change");

    // Ada records a decision in Billing: Bob's subscriber hears of it.
    let written = Instant::now();
    let new = mooring_core::memory::NewEntry {
        kind: "decision".into(),
        content: "Stripe".into(),
        ..Default::default()
    };
    mooring_core::memory::remember(&ada, "billing", &new, None).unwrap();
    loop {
        if handler.updates.lock().unwrap().iter().any(|u| u == "mooring://projects/billing/context") {
            break;
        }
        assert!(written.elapsed() < Duration::from_secs(1), "the subscriber never heard of the change");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // Ada hands Billing to Bob: his desktop says so.
    ada.handoff("billing", "Bob").unwrap();
    let handed = Instant::now();
    loop {
        let notes = desktop.notes.lock().unwrap().clone();
        if let Some((title, body)) = notes.first() {
            assert_eq!(title, "A project is yours now");
            assert!(body.contains("Ada handed you billing"), "{body}");
            break;
        }
        assert!(handed.elapsed() < Duration::from_secs(1), "no notification of the handoff");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    watcher.cancel().await.unwrap();
}
