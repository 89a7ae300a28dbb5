//! The HTTP edge as an attacker meets it: a question's token reaches only its question,
//! the Host check takes exactly loopback names and our port, `/mcp` needs proof when the
//! connection's owner is unknown, private files are repaired at start, a data
//! directory's server is adopted only by its own, connections that never finish their
//! headers (or sit idle) are closed, and live sessions stay under their cap.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Gen, TestClient, TestServer, call, connect, initialize_body, ok, raw_post, test_config};
use mooring_core::Store;
use mooring_core::choice::{Broker, ChoiceRequest, TimeoutAction, check};
use mooring_server::{Headless, ServerConfig, StartError, start_with_store};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn open_question(store: &Store) -> mooring_core::choice::Interaction {
    let request: ChoiceRequest = serde_json::from_value(json!({
        "title": "Deploy?",
        "prompt": "Ship it now?",
        "selection_mode": "single",
        "options": [ { "id": "y", "label": "Yes", "recommended": true }, { "id": "n", "label": "No" } ]
    }))
    .unwrap();
    Broker::new(store).open(check(request).unwrap(), None, TimeoutAction::Cancel).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_token_reaches_only_its_question() {
    let srv = TestServer::start().await;
    let i = open_question(&srv.store);
    let http = reqwest::Client::new();
    let settings_file = srv.dir.path().join("choice-settings.json");
    let before = std::fs::read(&settings_file).ok();
    let old_route = http
        .post(format!("{}/choice/{}/settings?t={}", srv.base(), i.id, i.token))
        .json(&json!({ "transport": "terminal" }))
        .send()
        .await
        .unwrap();
    assert!(old_route.status() == 404 || old_route.status() == 405, "{}", old_route.status());
    let patch = http
        .patch(format!("{}/api/v1/settings", srv.base()))
        .bearer_auth(&i.token)
        .json(&json!({ "interaction": { "transport": "terminal" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(patch.status(), 401);
    assert_eq!(std::fs::read(&settings_file).ok(), before, "settings untouched");
    // Another question's page with this token: not found.
    let other = open_question(&srv.store);
    let page =
        http.get(format!("{}/choice/{}/state?t={}", srv.base(), other.id, i.token)).send().await.unwrap();
    assert_eq!(page.status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_host_check_takes_exactly_loopback_names_and_our_port() {
    let srv = TestServer::start().await;
    let token = std::fs::read_to_string(srv.dir.path().join("token")).unwrap();
    let port = srv.server.as_ref().unwrap().addr.port();
    let http = reqwest::Client::new();
    for host in [
        "[::1]evil.example",
        format!("[::1]:{port}evil").as_str(),
        "localhost",
        "127.0.0.1:1",
        "evil.example",
    ] {
        for path in ["/api/v1/projects", "/", "/health"] {
            let r = http
                .get(format!("{}{path}", srv.base()))
                .header("host", host)
                .bearer_auth(token.trim())
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 403, "{host} {path}");
        }
    }
    let ok =
        http.get(format!("{}/api/v1/projects", srv.base())).bearer_auth(token.trim()).send().await.unwrap();
    assert_eq!(ok.status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_needs_the_token_when_the_connection_owner_is_unknown() {
    use tower::ServiceExt;
    // The router without the accept loop's owner tag: as on a platform that cannot tell.
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open_in(dir.path()).unwrap());
    let state = Arc::new(mooring_server::state::AppState::new(
        store,
        Arc::new(Headless),
        Duration::from_secs(1),
        None,
    ));
    let config = ServerConfig::new(dir.path());
    let app = mooring_server::transport::http::router(
        state,
        &config,
        7423,
        "mat_secret".into(),
        Default::default(),
    );
    let init = initialize_body("raw");
    let request = |auth: Option<&str>| {
        let mut b = http::Request::post("/mcp")
            .header("host", "127.0.0.1:7423")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(a) = auth {
            b = b.header("authorization", a);
        }
        b.body(axum::body::Body::from(init.clone())).unwrap()
    };
    let refused = app.clone().oneshot(request(None)).await.unwrap();
    assert_eq!(refused.status(), 401);
    let body = axum::body::to_bytes(refused.into_body(), 4096).await.unwrap();
    assert!(String::from_utf8_lossy(&body).contains("mooring stdio"), "the refusal says how to fix it");
    assert_eq!(app.clone().oneshot(request(Some("Bearer wrong"))).await.unwrap().status(), 401);
    assert_eq!(app.oneshot(request(Some("Bearer mat_secret"))).await.unwrap().status(), 200);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn loose_private_files_are_repaired_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(data.join("token"), "mat_".to_owned() + &"ab".repeat(32)).unwrap();
    std::fs::set_permissions(data.join("token"), std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(Store::open_in(&data).unwrap());
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(data.join("mooring.db"), std::fs::Permissions::from_mode(0o644)).unwrap();

    let mut config = ServerConfig::new(&data);
    config.port = 0;
    let server = mooring_server::start(config, Arc::new(Headless)).await.unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700);
    for f in ["token", "mooring.db", "secret", "endpoint.json"] {
        assert_eq!(mode(&data.join(f)), 0o600, "{f}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_is_adopted_only_by_its_own_data_directory() {
    let srv = TestServer::start().await;
    let port = srv.server.as_ref().unwrap().addr.port();
    let other = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open_in(other.path()).unwrap());
    let mut config = test_config(other.path(), port);
    // Asked for that port by name: an error, not the other data directory's server.
    match start_with_store(config.clone(), store.clone(), Arc::new(Headless)).await {
        Err(StartError::PortTaken { port: p }) => assert_eq!(p, port),
        Err(e) => panic!("expected PortTaken, got {e}"),
        Ok(_) => panic!("expected PortTaken, got a server"),
    }
    // With the default port it moves to a free one and says so.
    config.any_port_if_taken = true;
    let moved = start_with_store(config.clone(), store, Arc::new(Headless)).await.unwrap();
    assert_ne!(moved.addr.port(), port);
    assert!(moved.note.as_deref().unwrap_or_default().contains(&port.to_string()), "{:?}", moved.note);
    let own = mooring_server::endpoint::install_at(&srv.base()).await.unwrap();
    let theirs = mooring_server::endpoint::install_at(moved.url.trim_end_matches("/mcp")).await.unwrap();
    assert_ne!(own, theirs, "each data directory has its own install id");
    moved.shutdown().await;
    // The same data directory on the same port: adopted.
    let mut same = ServerConfig::new(srv.dir.path());
    same.port = port;
    same.any_port_if_taken = true;
    match start_with_store(same, srv.store.clone(), Arc::new(Headless)).await {
        Err(StartError::AlreadyRunning { url }) => assert_eq!(url, srv.url),
        Err(e) => panic!("expected AlreadyRunning, got {e}"),
        Ok(_) => panic!("expected AlreadyRunning, got a second server"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn stalled_and_idle_connections_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path(), 0);
    config.limits.header_read_timeout = Duration::from_millis(800);
    let server = mooring_server::start(config, Arc::new(Headless)).await.unwrap();
    let mut conns = Vec::new();
    for n in 0..50 {
        let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        if n % 2 == 0 {
            // Half a request line, never finished.
            s.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1").await.unwrap();
        }
        conns.push(s);
    }
    for mut s in conns {
        let mut buf = [0u8; 512];
        // A 408 (or nothing) and then the close; without the timeout this waits forever.
        let closed = tokio::time::timeout(Duration::from_secs(5), async {
            while let Ok(n) = s.read(&mut buf).await
                && n > 0
            {}
        })
        .await;
        assert!(closed.is_ok(), "the server kept a stalled connection open");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_stay_under_their_cap_and_an_evicted_one_keeps_its_project() {
    let mut srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let port = srv.server.as_ref().unwrap().addr.port();
    srv.server.take().unwrap().shutdown().await;
    let mut config = test_config(srv.dir.path(), port);
    config.max_sessions = 8;
    let server = start_with_store(config, srv.store.clone(), Arc::new(Headless)).await.unwrap();
    let first = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(&first, "select_project_for_session", json!({ "project": "beta" })).await);
    let http = reqwest::Client::new();
    let init = initialize_body("flood");
    for _ in 0..200 {
        let r = raw_post(&http, &srv.url, init.clone()).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let id = r.headers().get("mcp-session-id").unwrap().to_str().unwrap().to_owned();
        assert!(mooring_core::guard::secret::is_strong_id(&id), "{id}");
    }
    assert!(server.live_sessions() <= 8, "{} live sessions", server.live_sessions());
    // The first session was evicted long ago; its next call restores it, project and all.
    let r = ok(&call(&first, "active_project", json!({})).await);
    assert_eq!(r["active_project"], "beta");
    assert_eq!(r["decided_by"], "session");
    first.cancel().await.unwrap();
    server.shutdown().await;
}

/// The HTTP status line a raw request on `stream` gets, if any within `wait`.
async fn status_line(stream: &mut tokio::net::TcpStream, request: &str, wait: Duration) -> Option<String> {
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(wait, stream.read(&mut buf)).await.ok()?.ok()?;
    String::from_utf8_lossy(&buf[..n]).lines().next().map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread")]
async fn open_connections_are_capped_and_a_waiting_one_is_served_when_one_ends() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path(), 0);
    config.limits.max_connections = 4;
    let server = mooring_server::start(config, Arc::new(Headless)).await.unwrap();
    let get = format!("GET /health HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        assert!(status_line(&mut s, &get, Duration::from_secs(5)).await.unwrap().contains("200"));
        held.push(s);
    }
    // A fifth connection waits in the backlog: no answer while four are open...
    let mut fifth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    assert_eq!(status_line(&mut fifth, &get, Duration::from_millis(500)).await, None);
    // ...and is served once one of them ends.
    drop(held.pop());
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(5), fifth.read(&mut buf)).await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn question_page_websockets_are_capped() {
    let srv = TestServer::start().await;
    let i = open_question(&srv.store);
    let addr = srv.server.as_ref().unwrap().addr;
    let upgrade = format!(
        "GET /choice/{}/ws?t={} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        i.id, i.token
    );
    let mut open = Vec::new();
    for _ in 0..mooring_server::state::MAX_WEBSOCKETS {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let line = status_line(&mut s, &upgrade, Duration::from_secs(5)).await.unwrap();
        assert!(line.contains("101"), "{line}");
        open.push(s);
    }
    let mut one_more = tokio::net::TcpStream::connect(addr).await.unwrap();
    let line = status_line(&mut one_more, &upgrade, Duration::from_secs(5)).await.unwrap();
    assert!(line.contains("503"), "{line}");
}
