//! `mooring stdio` launched as an MCP client would, from inside a registered code path:
//! standalone, and bridged to a running hub.

mod common;

use common::{Sandbox, agent_call as call_in};
use serde_json::json;
use std::os::unix::fs::PermissionsExt;

fn setup() -> (Sandbox, std::path::PathBuf) {
    let sb = Sandbox::new();
    let code = sb.mkdir("code/alpha");
    let deep = sb.mkdir("code/alpha/src/deep");
    sb.cmd().args(["projects", "new", "Alpha", "--code-path", code.to_str().unwrap()]).assert().success();
    sb.cmd().args(["projects", "new", "Beta"]).assert().success();
    (sb, deep)
}

fn session_transports(sb: &Sandbox) -> Vec<String> {
    let conn = rusqlite::Connection::open(sb.data.join("mooring.db")).unwrap();
    let mut stmt = conn.prepare("SELECT transport FROM sessions ORDER BY created_at").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn standalone_stdio_resolves_from_its_working_directory() {
    let (sb, deep) = setup();
    let r = call_in(&sb, &deep, &[], &[], "get_last_handover", json!({})).await;
    assert_eq!(r["project"], "alpha");
    assert_eq!(r["decided_by"], "cwd");
    let r = call_in(&sb, &deep, &[("MOORING_PROJECT", "beta")], &[], "get_last_handover", json!({})).await;
    assert_eq!(r["project"], "beta");
    assert_eq!(r["decided_by"], "env");
    let other = sb.mkdir("elsewhere");
    let r =
        call_in(&sb, &other, &[], &["--workspace-id", deep.to_str().unwrap()], "resolve_project", json!({}))
            .await;
    assert_eq!(r["project"], "alpha");
    assert_eq!(r["decided_by"], "workspace");
    assert_eq!(session_transports(&sb), ["stdio", "stdio", "stdio"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn stdio_bridges_to_a_running_hub_with_the_same_hints() {
    let (sb, deep) = setup();
    let hub = sb.start_hub();
    let url = hub.url.clone();
    assert!(url.starts_with("http://127.0.0.1:"));
    let r = call_in(&sb, &deep, &[], &[], "get_last_handover", json!({})).await;
    assert_eq!(r["project"], "alpha");
    assert_eq!(r["decided_by"], "cwd");
    let r = call_in(
        &sb,
        &deep,
        &[("MOORING_PROJECT", "beta")],
        &[],
        "save_handover",
        json!({ "work_done": "w", "next_steps": "n" }),
    )
    .await;
    assert_eq!(r["project"], "beta");
    assert_eq!(r["decided_by"], "env");
    let other = sb.mkdir("elsewhere");
    let r =
        call_in(&sb, &other, &[], &["--workspace-id", "../code/alpha"], "resolve_project", json!({})).await;
    assert_eq!(r["decided_by"], "workspace");
    // Every call went through the hub, each shim process its own session.
    assert_eq!(session_transports(&sb), ["hub-stdio", "hub-stdio", "hub-stdio"]);

    // The hub's socket is the person's alone, and what shims use: with the endpoint file
    // gone they still reach the hub (not a standalone server of their own).
    let socket = sb.data.join("hub.sock");
    assert_eq!(std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777, 0o600);
    let endpoint = sb.data.join("endpoint.json");
    let aside = sb.data.join("endpoint.json.aside");
    std::fs::rename(&endpoint, &aside).unwrap();
    let r = call_in(&sb, &deep, &[], &[], "resolve_project", json!({})).await;
    assert_eq!(r["decided_by"], "cwd");
    assert_eq!(session_transports(&sb).last().unwrap(), "hub-stdio");
    // Without the socket (an older hub, a path too long for one), they bridge over HTTP.
    std::fs::rename(&aside, &endpoint).unwrap();
    std::fs::remove_file(&socket).unwrap();
    let r = call_in(&sb, &deep, &[], &[], "resolve_project", json!({})).await;
    assert_eq!(r["decided_by"], "cwd");
    assert_eq!(session_transports(&sb), ["hub-stdio"; 5]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_hub_socket_drops_a_connection_that_does_not_say_who_it_is() {
    use std::io::{Read, Write};
    let (sb, _) = setup();
    let _hub = sb.start_hub();
    for first in ["GET / HTTP/1.1\r\nHost: x\r\n\r\n", "{\"mooring\":1,\"session\":\"msh_guess\"}\n"] {
        let mut s = std::os::unix::net::UnixStream::connect(sb.data.join("hub.sock")).unwrap();
        s.write_all(first.as_bytes()).unwrap();
        // The hub may already have hung up after the first line (a broken pipe here, a
        // reset below): that is the refusal this test expects, as long as nothing came back.
        let _ = s.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n");
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        assert!(answer.is_empty(), "{first:?} got {}", String::from_utf8_lossy(&answer));
    }
}
