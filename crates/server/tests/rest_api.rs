//! The REST management API over real HTTP: the token, every documented route, status
//! codes, and agreement with docs/openapi.json.

mod common;

use common::TestServer;
use mooring_server::rest::ROUTES;
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

struct Api {
    http: Client,
    base: String,
    token: String,
}

impl Api {
    fn new(srv: &TestServer) -> Self {
        let token = mooring_server::access::token::load_or_create(srv.dir.path()).unwrap();
        Self { http: Client::new(), base: srv.base(), token }
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        self.send(method, path, body, Some(&self.token.clone())).await
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_route_needs_the_token() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let api = Api::new(&srv);
    for (method, path) in ROUTES {
        let path = path.replace("{slug}", "alpha");
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        for token in [None, Some("wrong"), Some(&"0".repeat(64)[..])] {
            let (status, body) = api.send(method.clone(), &path, None, token).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path} with {token:?}");
            assert_eq!(body["error"]["code"], "UNAUTHORIZED");
        }
    }
    // With the token every documented route exists (the 401 above would hide a missing one).
    for (method, path) in ROUTES {
        let path = path.replace("{slug}", "alpha").replace("/search", "/search?q=x");
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let (status, body) = api.call(method.clone(), &path, None).await;
        let route_missing =
            body["error"]["message"].as_str().is_some_and(|m| m.contains("no such API route"));
        assert!(
            !route_missing && status != StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}: {status} {body}"
        );
    }
    // DELETE removed alpha on the way (later routes answered "no project", which still
    // proves they exist); make it again for the check below.
    let (status, _) = api.call(Method::GET, "/api/v1/projects/alpha", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    srv.project("Alpha", &[]);
    // The token did not leak into a change: alpha is untouched.
    let (status, body) = api.call(Method::GET, "/api/v1/projects/alpha", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["project"]["status"], "active");
}

#[tokio::test(flavor = "multi_thread")]
async fn project_lifecycle_memory_events_and_context() {
    let srv = TestServer::start().await;
    let api = Api::new(&srv);
    let (s, created) = api
        .call(
            Method::POST,
            "/api/v1/projects",
            Some(json!({ "name": "Leader Election", "description": "etcd" })),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(created["project"]["slug"], "leader-election");
    let (s, _) = api.call(Method::POST, "/api/v1/projects", Some(json!({ "name": "Monitoring" }))).await;
    assert_eq!(s, StatusCode::CREATED);

    let (s, list) = api.call(Method::GET, "/api/v1/projects?limit=1&offset=1", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list["total"], 2);
    assert_eq!(list["projects"].as_array().unwrap().len(), 1);

    let (s, m) = api
        .call(
            Method::POST,
            "/api/v1/projects/leader-election/memory",
            Some(json!({ "kind": "decision", "content": "Use etcd" })),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(m["kind"], "decision");
    let (_, page) =
        api.call(Method::GET, "/api/v1/projects/leader-election/memory?kind=decision", None).await;
    assert_eq!(page["entries"][0]["content"], "Use etcd");

    let (s, detail) = api.call(Method::GET, "/api/v1/projects/leader-election", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(detail["project"]["stats"]["decisions"], 1);
    assert_eq!(detail["recent_memory"][0]["content"], "Use etcd");
    assert!(detail["recent_events"].as_array().unwrap().len() >= 2);

    let (s, edited) = api
        .call(
            Method::PATCH,
            "/api/v1/projects/leader-election",
            Some(json!({ "description": "etcd leases" })),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(edited["updated_fields"], json!(["description"]));

    let (s, ctx) = api.call(Method::GET, "/api/v1/projects/leader-election/context?budget=500", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(ctx["tokens"].as_u64().unwrap() <= 500);
    assert!(ctx["text"].as_str().unwrap().contains("**monitoring**"));

    let (s, a) = api.call(Method::POST, "/api/v1/projects/leader-election/archive", None).await;
    assert_eq!((s, a["project"]["status"].as_str()), (StatusCode::OK, Some("archived")));
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/projects/leader-election/memory",
            Some(json!({ "kind": "note", "content": "x" })),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "archived projects are read-only: {e}");
    let (s, r) = api.call(Method::POST, "/api/v1/projects/leader-election/resume", None).await;
    assert_eq!((s, r["project"]["status"].as_str()), (StatusCode::OK, Some("active")));

    let (s, ev) = api.call(Method::GET, "/api/v1/projects/leader-election/events?limit=2", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(ev["events"].as_array().unwrap().len(), 2);
    assert_eq!(ev["events"][0]["kind"], "resumed", "newest first");
    assert!(ev["total"].as_u64().unwrap() >= 5);

    let (s, _) = api.call(Method::DELETE, "/api/v1/projects/monitoring", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = api.call(Method::GET, "/api/v1/projects/monitoring", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// Method, path, body, expected status, expected field.
type Case = (Method, &'static str, Option<Value>, StatusCode, Option<&'static str>);

#[tokio::test(flavor = "multi_thread")]
async fn errors_have_the_right_status_and_name_the_field() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let api = Api::new(&srv);
    let cases: Vec<Case> = vec![
        (
            Method::POST,
            "/api/v1/projects",
            Some(json!({ "name": "Alpha" })),
            StatusCode::CONFLICT,
            Some("slug"),
        ),
        (
            Method::POST,
            "/api/v1/projects",
            Some(json!({ "name": "" })),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("name"),
        ),
        (
            Method::POST,
            "/api/v1/projects",
            Some(json!({ "nmae": "x" })),
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
        ),
        (
            Method::POST,
            "/api/v1/projects",
            Some(json!({ "name": 5 })),
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
        ),
        (Method::GET, "/api/v1/projects/nope", None, StatusCode::NOT_FOUND, Some("project")),
        (
            Method::GET,
            "/api/v1/projects?status=sleepy",
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("status"),
        ),
        (Method::GET, "/api/v1/projects?limit=0", None, StatusCode::UNPROCESSABLE_ENTITY, Some("limit")),
        (Method::GET, "/api/v1/projects?limit=abc", None, StatusCode::BAD_REQUEST, None),
        (
            Method::PATCH,
            "/api/v1/projects/alpha",
            Some(json!({ "status": "gone" })),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("status"),
        ),
        (
            Method::PATCH,
            "/api/v1/projects/alpha",
            Some(json!({ "add_code_paths": [format!("/tmp/{}", "d".repeat(300))] })),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("add_code_paths"),
        ),
        (
            Method::POST,
            "/api/v1/projects/alpha/memory",
            Some(json!({ "kind": "rumor", "content": "x" })),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("kind"),
        ),
        (
            Method::GET,
            "/api/v1/projects/alpha/context?budget=5",
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("budget_tokens"),
        ),
        (Method::GET, "/api/v1/nothing-here", None, StatusCode::NOT_FOUND, None),
    ];
    for (method, path, body, status, field) in cases {
        let (s, v) = api.call(method.clone(), path, body).await;
        assert_eq!(s, status, "{method} {path}: {v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{method} {path}: {v}");
        if let Some(f) = field {
            assert_eq!(v["error"]["field"], f, "{method} {path}");
        }
    }
    // Malformed JSON is a 400.
    let resp = api
        .http
        .post(format!("{}/api/v1/projects", api.base))
        .bearer_auth(&api.token)
        .header("content-type", "application/json")
        .body("{oops")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    // A foreign Origin is refused before the token is even looked at.
    let resp = api
        .http
        .get(format!("{}/api/v1/projects", api.base))
        .bearer_auth(&api.token)
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
}

#[test]
fn openapi_documents_exactly_the_routes() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json")).unwrap();
    let spec: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(spec["openapi"], "3.1.0");
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in ["get", "post", "patch", "delete", "put"] {
            if let Some(op) = item.get(method) {
                documented.push((method.to_uppercase(), path.clone()));
                assert!(op["responses"]["401"].is_object(), "{method} {path} does not document 401");
            }
        }
    }
    let mut routes: Vec<(String, String)> =
        ROUTES.iter().map(|(m, p)| (m.to_string(), p.to_string())).collect();
    documented.sort();
    routes.sort();
    assert_eq!(documented, routes);
}

/// The dashboard's settings panel: read, change several at once, and a bad value that
/// leaves every setting as it was.
#[tokio::test(flavor = "multi_thread")]
async fn settings_are_read_and_changed_all_or_nothing() {
    let srv = TestServer::start().await;
    let api = Api::new(&srv);
    let (status, s) = api.call(Method::GET, "/api/v1/settings", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["settings"]["auto_pause_days"]["value"], 7);
    assert_eq!(s["settings"]["port"]["default"], 7423);
    assert_eq!(s["interaction"]["timeout_action"], "cancel");
    assert!(s["start_at_login"].is_null(), "a headless server has no start at login");
    assert_eq!(s["server"]["url"], format!("{}/mcp", srv.base()));

    let change = json!({
        "settings": { "auto_pause_days": 14, "port": "7500" },
        "interaction": { "timeout_action": "use_defaults", "single_submit": true },
    });
    let (status, s) = api.call(Method::PATCH, "/api/v1/settings", Some(change)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["settings"]["auto_pause_days"]["value"], 14);
    assert_eq!(s["settings"]["port"]["value"], 7500);
    assert_eq!(s["interaction"]["single_submit"], true);
    assert_eq!(mooring_core::projects::lifecycle::port(&srv.store).unwrap(), 7500);

    let bad = [
        (json!({ "settings": { "auto_pause_days": 1, "port": 80 } }), "port"),
        (json!({ "settings": { "auto_pause_days": 1, "nap_length": 3 } }), "key"),
        (
            json!({ "settings": { "auto_pause_days": 1 }, "interaction": { "wait_limit_seconds": 0 } }),
            "wait_limit_seconds",
        ),
        (json!({ "settings": { "auto_pause_days": 1 }, "start_at_login": true }), ""),
    ];
    for (body, field) in bad {
        let (status, e) = api.call(Method::PATCH, "/api/v1/settings", Some(body.clone())).await;
        assert!(status.is_client_error(), "{body}: {status}");
        if !field.is_empty() {
            assert_eq!(e["error"]["field"], field, "{body}: {e}");
        }
        assert!(!e["error"]["message"].as_str().unwrap().is_empty());
        let (_, now) = api.call(Method::GET, "/api/v1/settings", None).await;
        assert_eq!(now["settings"]["auto_pause_days"]["value"], 14, "{body} changed a setting");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_project_view_reads_and_corrects_memory() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    let api = Api::new(&srv);
    let add = |kind: &str, content: &str| json!({ "kind": kind, "content": content });
    let (s, decision) = api
        .call(
            Method::POST,
            "/api/v1/projects/alpha/memory",
            Some(add("decision", "Ledger stays append-only")),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, blocker) =
        api.call(Method::POST, "/api/v1/projects/alpha/memory", Some(add("blocker", "CI is red"))).await;
    let (_, note) = api
        .call(
            Method::POST,
            "/api/v1/projects/alpha/memory",
            Some(add("note", "<img src=x onerror=alert(1)>")),
        )
        .await;

    // Resolve with a note; a second time, or a decision, is refused with the reason.
    let path = format!("/api/v1/projects/alpha/memory/{}/resolve", blocker["id"]);
    let (s, resolved) = api.call(Method::POST, &path, Some(json!({ "note": "flaky test pinned" }))).await;
    assert_eq!(s, StatusCode::OK, "{resolved}");
    assert_eq!(
        (resolved["status"].as_str(), resolved["resolution"].as_str()),
        (Some("resolved"), Some("flaky test pinned"))
    );
    let (s, again) = api.call(Method::POST, &path, Some(json!({}))).await;
    assert!(s.is_client_error() && again["error"]["message"].as_str().is_some(), "{s} {again}");
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/projects/alpha/memory/{}/resolve", decision["id"]),
            Some(json!({})),
        )
        .await;
    assert!(s.is_client_error());
    let (s, bad) = api.call(Method::POST, &path, Some(json!({ "nope": 1 }))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");

    // Forget: gone from the list, and a second forget is a 404.
    let (s, _) =
        api.call(Method::DELETE, &format!("/api/v1/projects/alpha/memory/{}", note["id"]), None).await;
    assert_eq!(s, StatusCode::OK);
    let (_, page) = api.call(Method::GET, "/api/v1/projects/alpha/memory?kind=note", None).await;
    assert_eq!(page["entries"].as_array().unwrap().len(), 0);
    let (s, _) =
        api.call(Method::DELETE, &format!("/api/v1/projects/alpha/memory/{}", note["id"]), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Events in words; the activity of today; locks with their versions.
    let (_, events) = api.call(Method::GET, "/api/v1/projects/alpha/events", None).await;
    let texts: Vec<&str> =
        events["events"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"decision: Ledger stays append-only"), "{texts:?}");
    assert!(texts.contains(&"blocker resolved: CI is red"), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("forgot note")), "{texts:?}");
    let (_, act) = api.call(Method::GET, "/api/v1/projects/alpha/activity?days=14", None).await;
    let days = act["days"].as_array().unwrap();
    assert_eq!(days.len(), 14);
    let today = &days[13];
    assert_eq!(
        (today["decisions"].as_u64(), today["blockers_opened"].as_u64(), today["blockers_resolved"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    let (s, _) = api.call(Method::GET, "/api/v1/projects/alpha/activity?days=0", None).await;
    assert!(s.is_client_error());
    mooring_core::memory::locks::lock(&*srv.store, "alpha", "api", "v1 text", &[], None).unwrap();
    mooring_core::memory::locks::lock(&*srv.store, "alpha", "api", "v2 text", &[], None).unwrap();
    let (_, locks) = api.call(Method::GET, "/api/v1/projects/alpha/locks", None).await;
    assert_eq!(locks["locks"][0]["version"], 2);
    let (_, v1) = api.call(Method::GET, "/api/v1/projects/alpha/locks/api?version=1", None).await;
    assert_eq!(v1["content"], "v1 text");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_dashboards_glance_has_the_dot_the_last_session_and_who_is_live() {
    use mooring_core::store::sessions::{self, ClientFacts};
    let srv = TestServer::start().await;
    let api = Api::new(&srv);
    for name in ["Leader Election", "Quiet One"] {
        let (s, _) = api.call(Method::POST, "/api/v1/projects", Some(json!({ "name": name }))).await;
        assert_eq!(s, StatusCode::CREATED);
    }
    // A captured session's record (as the hooks keep it), with a secret the glance must
    // not show even if one got past capture.
    let row = mooring_core::store::rows::NewMemoryRow {
        kind: "session".into(),
        title: "claude-code session".into(),
        content: "**Asked:** \"fix the flaky test\"\n**Last word:** \"All green; token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\"".into(),
        tags: "claude-code".into(),
        status: None,
        data: None,
        author: Some(mooring_core::model::Author::Captured),
        written_by: None,
        key: None,
    };
    use mooring_core::store::backend::MemoryWrites as _;
    srv.store.insert_memory("leader-election", &[row], None, |_| Ok(())).unwrap();
    let now = mooring_core::humanize::format_ts(chrono::Utc::now());
    let id = mooring_core::Registry::new(&srv.store).get("leader-election").unwrap().id;
    srv.store
        .write(|c| {
            for (sid, client) in [("s1", "claude-code"), ("s2", "claude-code"), ("s3", "codex")] {
                let facts =
                    ClientFacts { client_name: Some(client), transport: "http", ..ClientFacts::default() };
                sessions::upsert_seen(c, sid, &facts, &now)?;
                sessions::set_project(c, sid, Some(id), Some("session"), &now)?;
            }
            Ok(())
        })
        .unwrap();
    let (s, list) = api.call(Method::GET, "/api/v1/projects?glance=true", None).await;
    assert_eq!(s, StatusCode::OK);
    let glance = |slug: &str| {
        list["projects"].as_array().unwrap().iter().find(|p| p["slug"] == slug).unwrap()["glance"].clone()
    };
    let le = glance("leader-election");
    assert_eq!(le["live"], "claude-code ×2 · codex", "{le}");
    assert_eq!(le["live_count"], 3);
    let last = le["last_session"].as_str().unwrap();
    assert!(last.starts_with("All green") && !last.contains("ghp_0123"), "{last}");
    let quiet = glance("quiet-one");
    assert_eq!((quiet["last_session"].clone(), quiet["live"].clone()), (Value::Null, Value::Null));
    assert!(quiet["dot"].is_string());
    // Without the flag the list stays as it was.
    let (_, plain) = api.call(Method::GET, "/api/v1/projects", None).await;
    assert!(plain["projects"][0].get("glance").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_phones_settings_change_away_and_the_kept_off_list_and_never_show_a_token() {
    let srv = TestServer::start().await;
    let api = Api::new(&srv);
    api.call(Method::POST, "/api/v1/projects", Some(json!({ "name": "Leader Election" }))).await;
    let (s, r) = api.call(Method::GET, "/api/v1/remote", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(r, json!({ "away": false, "bots": [], "kept_off": [] }));
    let (s, e) =
        api.call(Method::PATCH, "/api/v1/remote", Some(json!({ "away": true, "kept_off": ["nope"] }))).await;
    assert!(s.is_client_error(), "{s} {e}");
    assert!(e.to_string().contains("kept_off"), "{e}");
    let (_, r) = api.call(Method::GET, "/api/v1/remote", None).await;
    assert_eq!(r["away"], false, "a refused change wrote part of itself");
    let (s, r) = api
        .call(Method::PATCH, "/api/v1/remote", Some(json!({ "away": true, "kept_off": ["leader-election"] })))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((r["away"].clone(), r["kept_off"].clone()), (json!(true), json!(["leader-election"])));
    let (s, _) = api.call(Method::PATCH, "/api/v1/remote", Some(json!({ "token": "x" }))).await;
    assert!(s.is_client_error());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_project_view_reads_who_is_working_and_what_each_holds() {
    use mooring_core::projects::claims::{Kind, Session, claim};
    let srv = TestServer::start().await;
    srv.project("Billing", &[]);
    let api = Api::new(&srv);
    let (status, none) = api.call(Method::GET, "/api/v1/projects/billing/live", None).await;
    assert_eq!(
        (status, none["live"].as_array().map(Vec::len), none["claims"].as_str()),
        (StatusCode::OK, Some(0), Some("ask"))
    );
    let s = Session {
        key: "k",
        client: "codex",
        checkout: "/w/billing",
        branch: Some("main"),
        pid: None,
        request: Some("split invoices"),
    };
    claim(&srv.store, "billing", &s, Kind::Dir, "src/billing", Some("moving it")).unwrap();
    let (_, now) = api.call(Method::GET, "/api/v1/projects/billing/live", None).await;
    assert_eq!(now["live"][0]["claims"], json!(["src/billing/"]), "{now}");
    assert_eq!(now["live"][0]["request"], "split invoices");
    assert!(now["live"][0].get("key").is_none(), "no session key leaves: {now}");
    // The person's note, by the handle the view got: kept for the session's next prompt.
    let handle = now["live"][0]["handle"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/projects/billing/live/{handle}/note");
    let (status, left) = api.call(Method::POST, &path, Some(json!({ "text": "wait for me" }))).await;
    assert_eq!(status, StatusCode::OK, "{left}");
    assert!(left["to"].as_str().unwrap().starts_with("the codex session started"), "{left}");
    let note = mooring_core::projects::session_notes::take(&srv.store, "billing", "k").unwrap().unwrap();
    assert!(note.contains("The person left this") && note.contains("wait for me"), "{note}");
    let bad = "/api/v1/projects/billing/live/00000000/note";
    let (status, e) = api.call(Method::POST, bad, Some(json!({ "text": "hi" }))).await;
    assert_eq!((status, e["error"]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("to")), "{e}");
    let (status, e) = api.call(Method::POST, &path, Some(json!({ "txt": "hi" }))).await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("txt")),
        "{e}"
    );
}
