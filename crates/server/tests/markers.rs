//! `.mooring.toml` markers through MCP: a known project binds the directory, an unknown
//! one comes back as the exact create_project call to make, the nearest marker wins.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use serde_json::json;

fn marker(dir: &std::path::Path, text: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(".mooring.toml"), text).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn markers_bind_known_projects_and_offer_unknown_ones() {
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    srv.project("Mono", &[]);
    let mono = srv.dir.path().join("clones/mono");
    marker(&mono, "project = \"mono\"\n");
    let billing = mono.join("services/billing");
    marker(&billing, "project = \"billing\"\n");
    let ledger = srv.dir.path().join("clones/ledger");
    marker(&ledger, "project = \"ledger\"\nname = \"Ledger\"\ndescription = \"Books\"\n");
    std::fs::create_dir_all(billing.join("src")).unwrap();

    for generation in [Gen::Legacy, Gen::Modern] {
        // Nearest marker wins; the directory becomes the project's code path.
        let cwd = billing.join("src").display().to_string();
        let client = connect(&srv.url, generation, TestClient::default(), &[("x-mooring-cwd", &cwd)]).await;
        let r = ok(&call(&client, "get_last_handover", json!({})).await);
        assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("billing"), Some("cwd")), "{r}");
        client.cancel().await.unwrap();

        let cwd = mono.join("services").display().to_string();
        let client = connect(&srv.url, generation, TestClient::default(), &[("x-mooring-cwd", &cwd)]).await;
        let r = ok(&call(&client, "get_last_handover", json!({})).await);
        assert_eq!(r["project"], "mono", "{r}");
        client.cancel().await.unwrap();

        // An unknown project: the error carries the create_project call.
        let cwd = ledger.display().to_string();
        let client = connect(&srv.url, generation, TestClient::default(), &[("x-mooring-cwd", &cwd)]).await;
        let body = err(&call(&client, "get_last_handover", json!({})).await);
        assert_eq!(body["code"], "PROJECT_SELECTION_REQUIRED");
        assert_eq!(body["next_call"]["tool"], "create_project");
        let args = &body["next_call"]["arguments"];
        assert_eq!((args["slug"].as_str(), args["name"].as_str()), (Some("ledger"), Some("Ledger")));
        assert_eq!(args["code_paths"][0], ledger.canonicalize().unwrap().display().to_string());
        assert!(body["message"].as_str().unwrap().contains(".mooring.toml"));
        client.cancel().await.unwrap();
    }
    let billing_paths = mooring_core::Registry::new(&srv.store).get("billing").unwrap().code_paths;
    assert_eq!(billing_paths[0].path, billing.canonicalize().unwrap().display().to_string());
    let events = mooring_core::Registry::new(&srv.store).events("billing").unwrap();
    assert_eq!(events.iter().filter(|e| e.kind == "marker_bound").count(), 1, "bound once, not per session");

    // Making the offered call works as given.
    let client = connect(
        &srv.url,
        Gen::Modern,
        TestClient::default(),
        &[("x-mooring-cwd", &ledger.display().to_string())],
    )
    .await;
    let body = err(&call(&client, "get_last_handover", json!({})).await);
    let created = ok(&call(&client, "create_project", body["next_call"]["arguments"].clone()).await);
    assert_eq!(created["project"]["slug"], "ledger");
    let r = ok(&call(&client, "get_last_handover", json!({})).await);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("ledger"), Some("cwd")));
    client.cancel().await.unwrap();
}
