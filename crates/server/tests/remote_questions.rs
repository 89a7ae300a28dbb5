//! A question reaches the phone only when its project may: its project is resolved as it
//! opens (a workspace header, a directory), not read later from a session that may never
//! be bound; a question whose project nobody can tell goes out only while no project is
//! kept off; and the phone names each question's project.

mod common;

use std::sync::Arc;

use chrono::Utc;
use common::{Gen, TestClient, TestServer, call, connect};
use mooring_core::remote::{Bot, Paired, Platform, RemoteConfig};
use mooring_server::remote::relay::Relay;
use serde_json::json;

fn phone(relay: &Relay) -> String {
    relay.tick(Platform::Telegram).into_iter().map(|o| o.text).collect::<Vec<_>>().join("\n---\n")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kept_off_projects_questions_stay_at_the_desk_whoever_asks() {
    let dir = tempfile::tempdir().unwrap();
    let code = dir.path().join("code");
    let (app, web) = (code.join("app"), code.join("web"));
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(&web).unwrap();
    let (mut bot, _) = Bot::new("123:token".into(), "http://127.0.0.1:9".into(), Utc::now());
    bot.pairing = None;
    bot.paired = Some(Paired { user: "42".into(), chat: "42".into(), at: "2026-11-26T00:00:00Z".into() });
    let mut remote = RemoteConfig { telegram: Some(bot), away: true, ..RemoteConfig::default() };
    remote.never_remote.insert("app".into());
    remote.save(dir.path()).unwrap();
    std::fs::write(dir.path().join("choice-settings.json"), r#"{ "wait_limit_seconds": 1 }"#).unwrap();
    let data = dir.path().to_owned();
    let srv = TestServer::start_in(dir, Arc::new(mooring_server::Headless)).await;
    assert_eq!(srv.project("App", &[&app]), "app");
    assert_eq!(srv.project("Web", &[&web]), "web");
    let relay = Relay::new(srv.server.as_ref().unwrap().state.clone(), data.clone());

    let ask = |title: &'static str, workspace: Option<String>| {
        let url = srv.url.clone();
        async move {
            let ws = workspace.unwrap_or_default();
            let headers: Vec<(&'static str, &str)> =
                if ws.is_empty() { Vec::new() } else { vec![("x-workspace-id", ws.as_str())] };
            // 2026-07-28: no session, so nothing is ever bound; only the header tells.
            let client = connect(&url, Gen::Modern, TestClient::default(), &headers).await;
            let args = json!({ "title": title, "prompt": "Go ahead?", "selection_mode": "single",
                "options": [{ "id": "y", "label": "Yes", "recommended": true }, { "id": "n", "label": "No" }] });
            let r = call(&client, "provide_choice", args).await;
            assert_ne!(r.is_error, Some(true), "{r:?}");
        }
    };
    ask("Deploy app?", Some(app.display().to_string())).await;
    ask("Deploy web?", Some(web.display().to_string())).await;
    ask("Somewhere unknown?", None).await;

    let shown = phone(&relay);
    assert!(!shown.contains("Deploy app?"), "a kept-off project's question reached the phone: {shown}");
    assert!(!shown.contains("Somewhere unknown?"), "an unknown project's question went out: {shown}");
    assert!(shown.contains("Deploy web?"), "{shown}");
    assert!(shown.contains("web — Deploy web?"), "the phone names the question's project: {shown}");

    // Back on the phone, both wait there.
    let mut remote = RemoteConfig::load(&data).unwrap();
    remote.never_remote.clear();
    remote.save(&data).unwrap();
    let shown = phone(&relay);
    assert!(shown.contains("app — Deploy app?") && shown.contains("Somewhere unknown?"), "{shown}");
}

#[test]
fn a_question_without_a_project_goes_out_only_while_nothing_is_kept_off() {
    let mut config = RemoteConfig::default();
    assert!(config.question_ok(None) && config.question_ok(Some("app")));
    config.never_remote.insert("app".into());
    assert!(!config.question_ok(None) && !config.question_ok(Some("app")) && config.question_ok(Some("web")));
}
