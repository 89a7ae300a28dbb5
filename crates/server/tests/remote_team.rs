//! The phone on a team project follows the person's role there: a viewer reads it from
//! the phone but cannot decide, add a blocker, resolve or archive; a member can decide.
//! A real PostgreSQL; the team's owner is a second store on it.

mod common;

use std::sync::Arc;

use chrono::Utc;
use common::TestServer;
use mooring_core::NewProject;
use mooring_core::remote::{Bot, Paired, Platform, RemoteConfig};
use mooring_server::remote::relay::{Incoming, Relay};
use mooring_team::testing::{PASSWORD, Postgres};
use mooring_team::{PgStore, Role, config};

fn said(relay: &Relay, text: &str) -> String {
    let msg = Incoming {
        user: "42".into(),
        chat: "42".into(),
        text: Some(text.into()),
        private: true,
        ..Incoming::default()
    };
    relay.handle(Platform::Telegram, &msg).into_iter().map(|o| o.text).collect::<Vec<_>>().join("\n")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_viewer_reads_from_the_phone_and_a_member_decides() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap();
    for (name, role) in [("Billing", Role::Viewer), ("Payments", Role::Member)] {
        ada.create_project(NewProject { name: name.into(), ..Default::default() }).unwrap();
        ada.set_member(&name.to_lowercase(), "Bob", role).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let joined =
        config::TeamConfig { url: url.clone(), person: "Bob".into(), password: Some(PASSWORD.into()) };
    config::save(dir.path(), &joined).unwrap();
    // Bob's phone, paired.
    let (mut bot, _) = Bot::new("123:token".into(), "http://127.0.0.1:9".into(), Utc::now());
    bot.pairing = None;
    bot.paired = Some(Paired { user: "42".into(), chat: "42".into(), at: "2026-11-26T00:00:00Z".into() });
    let remote = RemoteConfig { telegram: Some(bot), ..RemoteConfig::default() };
    remote.save(dir.path()).unwrap();
    let data = dir.path().to_owned();
    let srv = TestServer::start_in(dir, Arc::new(mooring_server::Headless)).await;
    for _ in 0..100 {
        if mooring_core::Registry::new(&srv.store).get("billing").is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let relay = Relay::new(srv.server.as_ref().unwrap().state.clone(), data);

    let view = said(&relay, "billing");
    assert!(view.contains("Billing"), "a viewer reads the project: {view}");
    for refused in
        ["decide billing use stripe", "blocker billing waiting on legal", "archive billing", "resume billing"]
    {
        let reply = said(&relay, refused);
        assert!(reply.contains("viewer") || reply.contains("owner"), "{refused:?} from a viewer: {reply}");
    }
    let everything = mooring_core::memory::ListQuery { limit: Some(100), ..Default::default() };
    let kept = mooring_core::memory::list(&ada, "billing", &everything).unwrap().entries;
    assert!(kept.is_empty(), "a viewer's words were kept: {kept:?}");
    assert_eq!(ada.project("billing").unwrap().project.status, mooring_core::ProjectStatus::Active);

    let done = said(&relay, "decide payments settle nightly");
    assert!(done.contains("decision #"), "a member decides from the phone: {done}");
}
