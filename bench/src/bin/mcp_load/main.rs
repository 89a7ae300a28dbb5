//! Load on a real Mooring over its real transports with raw JSON-RPC: HTTP on kept-alive
//! connections (both protocol generations, N concurrent sessions), stdio (the process an
//! MCP client launches), and the stdio shim bridged to a hub. Per workload it reports
//! p50/p99, calls/s and the server's CPU per call (from /proc/PID/stat over the timed
//! phase), plus cold start (spawn → first `tools/list`) and idle/peak RSS. The first rows
//! are the floors: a trivial HTTP endpoint (also the generator's own ceiling) and a
//! trivial stdio process, with their CPU per call — what the transport alone costs — then
//! an rmcp server with one trivial tool on each transport: what the SDK adds.
//!
//!     cargo build --release -p mooring-cli
//!     cargo run --release -p mooring-bench --bin mcp-load -- [--secs S] [--entries N] [--peer] [--team] [--json]
//!
//! `--team` makes the two projects team projects in a PostgreSQL the run starts (Debian's
//! server binaries), so the same rows show what team mode costs.
//!
//! `--peer` also runs `@modelcontextprotocol/server-memory` (installed by
//! scripts/test-tools.sh) over stdio with its nearest tools (add_observations,
//! read_graph, search_nodes) on 1,000 entities and prints the CPU ratios.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mooring_bench::arg;
use serde_json::{Value, json};

mod floor;
mod peer;
mod rmcp_floor;
mod sessions;

use peer::peer_rows;
use sessions::{Gen, HttpSession, StdioSession};

/// One measured run.
struct Row {
    transport: String,
    sessions: usize,
    workload: String,
    p50_ms: f64,
    p99_ms: f64,
    calls_per_s: f64,
    cpu_ms_per_call: Option<f64>,
    errors: usize,
    /// Peak RSS of the process that did the work (stdio rows).
    peak_rss_mb: Option<f64>,
}

fn mooring_bin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe.parent().unwrap().join("mooring");
    assert!(bin.is_file(), "build it first: cargo build --release -p mooring-cli ({})", bin.display());
    bin
}

/// utime + stime of a process, in ms.
fn cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks * 1000.0 / hz
}

/// VmRSS and VmHWM of a process, in MB.
fn rss_mb(pid: u32) -> (f64, f64) {
    (status_mb(pid, "VmRSS:"), status_mb(pid, "VmHWM:"))
}

/// One size field of /proc/PID/status, in MB.
fn status_mb(pid: u32, key: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

/// The tool calls of each workload (the mixed one cycles through the others).
fn workload(name: &str, i: usize) -> (&'static str, Value) {
    match name {
        // Writes go to the other project, so the reads keep measuring 1,000 entries.
        "remember" => {
            ("remember", json!({ "project": "other", "kind": "note", "content": format!("load note {i}") }))
        }
        "list_memory" => ("list_memory", json!({ "limit": 10 })),
        "search_memory" => ("search_memory", json!({ "query": "zeppelin", "limit": 10 })),
        "list_projects" => ("list_projects", json!({})),
        "project_context" => ("project_context", json!({})),
        "resolve_project" => ("resolve_project", json!({})),
        _ => workload(
            ["remember", "list_memory", "search_memory", "list_projects", "resolve_project"][i % 5],
            i,
        ),
    }
}

const WORKLOADS: [&str; 7] = [
    "remember",
    "list_memory",
    "search_memory",
    "list_projects",
    "project_context",
    "resolve_project",
    "mixed",
];

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize]
}

/// A server process: `mooring serve`, or the trivial endpoint.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(bin: &Path, data: &Path) -> (Server, Duration) {
    let started = Instant::now();
    let mut child = Command::new(bin)
        .arg("--data-dir")
        .arg(data)
        .args(["serve", "--port", "0", "--json"])
        .env("MOORING_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // `serve --json` prints one pretty JSON object: read until it parses.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    let url = loop {
        assert!(out.read_line(&mut text).unwrap() > 0, "mooring serve exited: {text}");
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            break v["url"].as_str().unwrap().to_owned();
        }
    };
    let server = Server { child, url };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let c = HttpSession::open(&server.url, Gen::Modern, None).await;
        c.request("tools/list", json!({})).await.unwrap();
    });
    (server, started.elapsed())
}

fn summarize(
    transport: &str,
    sessions: usize,
    name: &str,
    mut lat: Vec<f64>,
    errors: usize,
    wall: f64,
    cpu: Option<f64>,
) -> Row {
    lat.sort_by(|a, b| a.total_cmp(b));
    let calls = lat.len() + errors;
    Row {
        transport: transport.to_owned(),
        sessions,
        workload: name.to_owned(),
        p50_ms: percentile(&lat, 0.5),
        p99_ms: percentile(&lat, 0.99),
        calls_per_s: calls as f64 / wall,
        cpu_ms_per_call: cpu.map(|c| c / calls.max(1) as f64),
        errors,
        peak_rss_mb: None,
    }
}

/// An HTTP server under load: where it listens, the process or thread whose CPU time
/// counts, and its row label.
struct Target<'a> {
    url: &'a str,
    cpu_of: u32,
    label: &'a str,
}

/// Run `name` on `sessions` HTTP sessions for `secs`.
fn run_http(target: Target<'_>, generation: Gen, sessions: usize, name: &str, secs: f64, ws: &str) -> Row {
    let Target { url, cpu_of, label } = target;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let mut clients = Vec::new();
        for _ in 0..sessions {
            clients.push(Arc::new(HttpSession::open(url, generation, Some(ws)).await));
        }
        // Warm each connection and the server's caches.
        for c in &clients {
            let (tool, args) = workload(name, 0);
            let _ = c.request("tools/call", json!({ "name": tool, "arguments": args })).await;
        }
        let cpu0 = cpu_ms(cpu_of);
        let started = Instant::now();
        let deadline = started + Duration::from_secs_f64(secs);
        let mut tasks = Vec::new();
        for (k, c) in clients.iter().enumerate() {
            let (c, name) = (c.clone(), name.to_owned());
            tasks.push(tokio::spawn(async move {
                let (mut lat, mut errors, mut i) = (Vec::new(), 0, k * 1_000_000);
                while Instant::now() < deadline {
                    i += 1;
                    let (tool, args) = workload(&name, i);
                    let t = Instant::now();
                    match c.request("tools/call", json!({ "name": tool, "arguments": args })).await {
                        Ok(_) => lat.push(t.elapsed().as_secs_f64() * 1e3),
                        Err(e) => {
                            if errors == 0 && std::env::var_os("MCP_LOAD_DEBUG").is_some() {
                                eprintln!("{name}: {e}");
                            }
                            errors += 1
                        }
                    }
                }
                (lat, errors)
            }));
        }
        let (mut lat, mut errors) = (Vec::new(), 0);
        for t in tasks {
            let (l, e) = t.await.unwrap();
            lat.extend(l);
            errors += e;
        }
        let wall = started.elapsed().as_secs_f64();
        summarize(label, sessions, name, lat, errors, wall, Some(cpu_ms(cpu_of) - cpu0))
    })
}

/// Run `name` over one stdio session for `secs`; `cpu_of` is the process doing the work.
fn run_stdio(s: StdioSession, cpu_of: u32, label: &str, name: &str, secs: f64) -> Row {
    run_stdio_with(s, cpu_of, label, name, secs, workload)
}

fn run_stdio_with(
    mut s: StdioSession,
    cpu_of: u32,
    label: &str,
    name: &str,
    secs: f64,
    workload: fn(&str, usize) -> (&'static str, Value),
) -> Row {
    let (tool, args) = workload(name, 0);
    let _ = s.request("tools/call", json!({ "name": tool, "arguments": args }));
    let cpu0 = cpu_ms(cpu_of);
    let started = Instant::now();
    let (mut lat, mut errors, mut i) = (Vec::new(), 0, 0);
    while started.elapsed().as_secs_f64() < secs {
        i += 1;
        let (tool, args) = workload(name, i);
        let t = Instant::now();
        match s.request("tools/call", json!({ "name": tool, "arguments": args })) {
            Ok(_) => lat.push(t.elapsed().as_secs_f64() * 1e3),
            Err(_) => errors += 1,
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let mut row = summarize(label, 1, name, lat, errors, wall, Some(cpu_ms(cpu_of) - cpu0));
    row.peak_rss_mb = Some(rss_mb(cpu_of).1);
    row
}

/// Row labels of the floors.
const FLOOR_HTTP: &str = "floor: trivial HTTP endpoint";
const FLOOR_STDIO: &str = "floor: trivial stdio process";
const FLOOR_RMCP_HTTP: &str = "floor: rmcp trivial tool, HTTP";
const FLOOR_RMCP_STDIO: &str = "floor: rmcp trivial tool, stdio";

fn main() {
    if std::env::args().any(|a| a == "--echo") {
        return floor::echo_stdio();
    }
    if std::env::args().any(|a| a == "--rmcp-stdio") {
        return rmcp_floor::serve_stdio();
    }
    let json_out = std::env::args().any(|a| a == "--json");
    let secs: f64 = arg("--secs", 3.0);
    let entries: usize = arg("--entries", 1_000);
    // `--only "stdio list_memory"`: run just the rows whose "transport workload" holds this.
    let only: String = arg("--only", String::new());
    let want = |transport: &str, workload: &str| format!("{transport} {workload}").contains(&only);
    let bin = mooring_bin();
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    // `--team`: the projects are team projects in a PostgreSQL started here (memory there,
    // everything else as usual), to compare against the embedded store.
    let pg = std::env::args().any(|a| a == "--team").then(mooring_team::testing::Postgres::start);
    let code = match &pg {
        Some(pg) => {
            mooring_bench::seed_team_memory(&data, entries, &pg.fresh_db(), mooring_team::testing::PASSWORD)
        }
        None => mooring_bench::seed_memory(&data, entries),
    };
    let ws = code.display().to_string();
    let mut rows = Vec::new();

    if want(FLOOR_HTTP, "list_projects") {
        let (url, tid) = floor::trivial_endpoint();
        for sessions in [1, 8] {
            let target = Target { url: &url, cpu_of: tid, label: FLOOR_HTTP };
            rows.push(run_http(target, Gen::Modern, sessions, "list_projects", secs, &ws));
        }
    }
    if want(FLOOR_STDIO, "list_projects") {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.arg("--echo");
        let s = StdioSession::start(cmd);
        let child = s.child.id();
        rows.push(run_stdio(s, child, FLOOR_STDIO, "list_projects", secs));
    }
    if want(FLOOR_RMCP_HTTP, "list_projects") {
        let (url, tid) = rmcp_floor::serve_http();
        let target = Target { url: &url, cpu_of: tid, label: FLOOR_RMCP_HTTP };
        rows.push(run_http(target, Gen::Modern, 1, "list_projects", secs, &ws));
    }
    if want(FLOOR_RMCP_STDIO, "list_projects") {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.arg("--rmcp-stdio");
        let s = StdioSession::start(cmd);
        let child = s.child.id();
        rows.push(run_stdio(s, child, FLOOR_RMCP_STDIO, "list_projects", secs));
    }

    let (server, cold) = serve(&bin, &data);
    let pid = server.child.id();
    let (idle_rss, _) = rss_mb(pid);
    for generation in [Gen::Modern, Gen::Legacy] {
        for name in WORKLOADS.into_iter().filter(|w| want(&format!("http {}", generation.label()), w)) {
            let label = match generation {
                Gen::Legacy => "http 2025-11-25",
                Gen::Modern => "http 2026-07-28",
            };
            rows.push(run_http(
                Target { url: &server.url, cpu_of: pid, label },
                generation,
                1,
                name,
                secs,
                &ws,
            ));
        }
    }
    // Record, read and search under 8 and 64 concurrent sessions, then all tools mixed.
    for sessions in [8, 64] {
        let scope = format!("http {sessions} sessions");
        for name in ["remember", "list_memory", "search_memory"].into_iter().filter(|w| want(&scope, w)) {
            let target = Target { url: &server.url, cpu_of: pid, label: "http 2026-07-28" };
            rows.push(run_http(target, Gen::Modern, sessions, name, secs, &ws));
        }
    }
    if want("http 64 sessions", "mixed") {
        let target = Target { url: &server.url, cpu_of: pid, label: "http 2026-07-28" };
        rows.push(run_http(target, Gen::Modern, 64, "mixed", secs, &ws));
    }
    // The stdio shim bridged to this hub: the time is the bridge's plus the hub's.
    for name in ["list_memory", "remember"].into_iter().filter(|w| want("stdio shim", w)) {
        let shim = StdioSession::spawn(&bin, &data, &code);
        rows.push(run_stdio(shim, pid, "stdio shim → hub", name, secs));
    }
    // Resident memory once the server has been idle a moment (it returns freed heap then).
    std::thread::sleep(std::time::Duration::from_secs(5));
    let (after_rss, peak_rss) = rss_mb(pid);
    // Heap and stacks, against pages of the binary and of files the kernel can drop.
    let (after_anon, after_file) = (status_mb(pid, "RssAnon:"), status_mb(pid, "RssFile:"));
    drop(server);
    // Standalone stdio: the shim serves by itself when no hub runs.
    for name in WORKLOADS.into_iter().filter(|w| want("stdio", w)) {
        let s = StdioSession::spawn(&bin, &data, &code);
        let child = s.child.id();
        rows.push(run_stdio(s, child, "stdio", name, secs));
    }

    let peer = std::env::args().any(|a| a == "--peer").then(|| peer_rows(secs, entries)).flatten();
    if let Some((peer_rows, _)) = &peer {
        for p in peer_rows {
            if let Some(ours) = rows.iter().find(|r| r.transport == "stdio" && r.workload == p.workload) {
                let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
                    (Some(a), Some(b)) if b > 0.0 => format!("{:.1}x", a / b),
                    _ => "-".into(),
                };
                eprintln!(
                    "side by side, {}: server-memory {:.3} ms CPU/call vs Mooring stdio {:.3} → Mooring uses {} less CPU",
                    p.workload,
                    p.cpu_ms_per_call.unwrap_or(f64::NAN),
                    ours.cpu_ms_per_call.unwrap_or(f64::NAN),
                    ratio(p.cpu_ms_per_call, ours.cpu_ms_per_call)
                );
            }
        }
    }
    // Each stdio row runs its own server: its peak is what one client's server grows to.
    let stdio_peak =
        rows.iter().filter(|r| r.transport == "stdio").filter_map(|r| r.peak_rss_mb).reduce(f64::max);
    if let Some(peak) = stdio_peak {
        eprintln!("Mooring stdio server peak RSS {peak:.1} MB (the largest of its rows' processes)");
    }
    if let Some((peer_rows, peak)) = peer {
        eprintln!("server-memory peak RSS {peak:.1} MB");
        rows.extend(peer_rows);
    }
    if json_out {
        let out: Vec<Value> = rows
            .iter()
            .map(|r| {
                json!({ "transport": r.transport, "sessions": r.sessions, "workload": r.workload,
                "p50_ms": r.p50_ms, "p99_ms": r.p99_ms, "calls_per_s": r.calls_per_s,
                "cpu_ms_per_call": r.cpu_ms_per_call, "errors": r.errors, "peak_rss_mb": r.peak_rss_mb })
            })
            .collect();
        let all = json!({ "entries": entries, "secs": secs, "cold_start_ms": cold.as_secs_f64() * 1e3,
            "idle_rss_mb": idle_rss, "rss_after_mb": after_rss, "rss_after_anon_mb": after_anon, "rss_after_file_mb": after_file, "peak_rss_mb": peak_rss, "rows": out });
        println!("{}", serde_json::to_string_pretty(&all).unwrap());
        return;
    }
    println!(
        "Mooring under load: {entries} entries, {secs} s per row; cold start {:.0} ms; server RSS idle {idle_rss:.1} MB, after the workload (5 s idle) {after_rss:.1} MB ({after_anon:.1} anonymous, {after_file:.1} file-backed), peak {peak_rss:.1} MB",
        cold.as_secs_f64() * 1e3
    );
    println!(
        "{:<38} {:>4} {:<16} {:>8} {:>8} {:>9} {:>9} {:>6}",
        "transport", "sess", "workload", "p50 ms", "p99 ms", "calls/s", "cpu ms", "errors"
    );
    for r in rows {
        let cpu = r.cpu_ms_per_call.map(|c| format!("{c:.3}")).unwrap_or_else(|| "-".into());
        println!(
            "{:<38} {:>4} {:<16} {:>8.3} {:>8.3} {:>9.0} {:>9} {:>6}",
            r.transport, r.sessions, r.workload, r.p50_ms, r.p99_ms, r.calls_per_s, cpu, r.errors
        );
    }
}
