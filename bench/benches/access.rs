//! What the security checks cost per connection and per request: learning who owns a
//! loopback connection (once per connection, on Linux), sealing and checking an MRTR
//! request state, and scrubbing a log line.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_server::access::sealed::{Purpose, Sealer};

fn owner_lookup(c: &mut Criterion) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let _client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (server_side, peer) = listener.accept().unwrap();
    let local = server_side.local_addr().unwrap();
    // Other sockets on the machine: the lookup is by exact address, not a scan.
    let crowd: Vec<_> =
        (0..100).map(|_| std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap()).collect();
    c.bench_function("peer/owner_uid (sock_diag, 100 other sockets)", |b| {
        b.iter(|| black_box(mooring_server::access::peer::owner_uid(black_box(local), black_box(peer))))
    });
    drop(crowd);
}

fn sealing(c: &mut Criterion) {
    let sealer = Sealer::ephemeral();
    let id = Some("msh_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    c.bench_function("sealed/issue", |b| {
        b.iter(|| black_box(sealer.issue(Purpose::Choice, "c-0123456789ab", id, Duration::from_secs(600))))
    });
    let state = sealer.issue(Purpose::Choice, "c-0123456789ab", id, Duration::from_secs(600));
    c.bench_function("sealed/check", |b| {
        b.iter(|| black_box(sealer.check(black_box(&state), Purpose::Choice, id)))
    });
}

/// The front layer reads every MCP POST body twice: into a value (its shape checks) and
/// once more for keys given twice. What the second read adds to a typical tool call.
fn repeated_keys(c: &mut Criterion) {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 42, "method": "tools/call",
        "params": { "name": "remember", "arguments": {
            "project": "billing", "kind": "decision", "title": "Invoices through Stripe",
            "content": "We bill through Stripe, not our own ledger: refunds, taxes and disputes come with it. ".repeat(4),
            "tags": ["billing", "stripe", "payments"] },
            "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                       "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} } } }
    })
    .to_string();
    c.bench_function("front/parse a tools/call body into a value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<serde_json::Value>(black_box(body.as_bytes())).is_ok()))
    });
    c.bench_function("front/look for a repeated key in it", |b| {
        b.iter(|| {
            black_box(mooring_server::transport::repeated_keys::first_repeated(black_box(body.as_bytes())))
        })
    });
}

fn scrubbing(c: &mut Criterion) {
    let line = "2026-11-22T20:00:00Z DEBUG rmcp::transport: sending message session_id=mcs_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef url=http://127.0.0.1:7423/choice/c-1?t=mqt_00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let plain = "2026-11-22T20:00:00Z INFO mooring_server::run: watching code directories watches=42";
    c.bench_function("logging/scrub (two secrets)", |b| {
        b.iter(|| black_box(mooring_server::logging::scrub(black_box(line))))
    });
    c.bench_function("logging/scrub (none)", |b| {
        b.iter(|| black_box(mooring_server::logging::scrub(black_box(plain))))
    });
}

fn secret_scan(c: &mut Criterion) {
    // A 2 KB handover: prose, code, a commit hash and a UUID, and words like "token".
    let para = "Wired the lease renewal through etcd 3.5; commit 3f786850e387550fdab836ed7e6dc881de23001b. \
                Request 123e4567-e89b-12d3-a456-426614174000 timed out, so the token refresh now retries. \
                `let token = request.headers().get(\"authorization\");` stays as is. ";
    let note: String = para.repeat(2048 / para.len() + 1);
    let with_key = format!("{note} The key is {}{}.", "AKIA", "QZ7R2XK4M6P5T3VW");
    let started = std::time::Instant::now();
    mooring_core::guard::redact::scrub("warm up the rules");
    eprintln!("compiling the rules, once per process: {:?}", started.elapsed());
    let short = "Decided: leases live in etcd 3.5 with a 10 s TTL; renewals retry twice.";
    c.bench_function("redact/scrub 70 B note", |b| {
        b.iter(|| black_box(mooring_core::guard::redact::scrub(black_box(short))))
    });
    c.bench_function("redact/scrub 2 KB, no secret", |b| {
        b.iter(|| black_box(mooring_core::guard::redact::scrub(black_box(&note))))
    });
    c.bench_function("redact/scrub 2 KB, one key", |b| {
        b.iter(|| black_box(mooring_core::guard::redact::scrub(black_box(&with_key))))
    });
}

fn marker_walk(c: &mut Criterion) {
    // A session's directory 8 levels deep with no marker anywhere above: the common case.
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().canonicalize().unwrap().join("a/b/c/d/e/f/g/h");
    std::fs::create_dir_all(&deep).unwrap();
    c.bench_function("markers/nearest, none above, 8+ levels", |b| {
        b.iter(|| black_box(mooring_core::projects::markers::nearest(black_box(&deep)).unwrap()))
    });
}

criterion_group!(benches, owner_lookup, sealing, repeated_keys, scrubbing, secret_scan, marker_walk);
criterion_main!(benches);
