//! What capture costs a real session, through the real `mooring hook claude-code`
//! process: a Claude Code transcript replayed turn by turn (the lines up to each of the
//! person's prompts written, then `Stop`, as the client does), and a cold start (the
//! whole transcript there, a record that never saw it; `Stop` again until the record has
//! read it all — each turn reads slices until the hook's deadline). Prints p50/p99/max of
//! the per-turn hook and how many turns the cold start needed.
//!
//! `--transcript FILE` (default: the Claude Code 2.1.330 session recorded for the
//! capture tests, 2.9 MB); `--scale-mb N` repeats its lines until the file is N MB (a
//! 50 MB session); `--busy N` keeps N threads spinning meanwhile (a busy laptop);
//! `--rounds N` replays it N times (a long session has few prompts; the samples pool);
//! `--json` prints one object. Uses the `mooring` binary built next to it:
//!
//! cargo build --release -p mooring-cli && cargo run --release -p mooring-bench --bin capture-replay -- --scale-mb 50 --busy 2

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::{Value, json};

const RECORDED: &str = "crates/core/tests/fixtures/claude-code-2.1.330-real.jsonl";

struct Args {
    transcript: PathBuf,
    scale_mb: Option<u64>,
    busy: usize,
    rounds: usize,
    json: bool,
}

fn args() -> Args {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut a = Args { transcript: root.join(RECORDED), scale_mb: None, busy: 0, rounds: 1, json: false };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().unwrap_or_else(|| panic!("{name} needs a value"));
        match arg.as_str() {
            "--transcript" => a.transcript = PathBuf::from(value("--transcript")),
            "--scale-mb" => {
                a.scale_mb = Some(value("--scale-mb").parse().expect("--scale-mb: a whole number"))
            }
            "--busy" => a.busy = value("--busy").parse().expect("--busy: a whole number"),
            "--rounds" => a.rounds = value("--rounds").parse().expect("--rounds: a whole number"),
            "--json" => a.json = true,
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

fn mooring_bin() -> PathBuf {
    // target/release/capture-replay → target/release/mooring
    let bin = std::env::current_exe().unwrap().parent().unwrap().join("mooring");
    assert!(bin.is_file(), "no mooring binary next to this one: cargo build --release -p mooring-cli first");
    bin
}

/// Whether a line is where the person's next turn starts.
fn starts_turn(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(line) else { return false };
    v.get("type").and_then(Value::as_str) == Some("user")
        && v.get("isMeta").and_then(Value::as_bool) != Some(true)
        && v.pointer("/message/content").is_some_and(Value::is_string)
}

/// The transcript's lines with its working directory moved to `work`, repeated (fresh
/// uuids, so each copy reads as new lines) until they reach `scale_mb`.
fn lines(path: &Path, work: &Path, scale_mb: Option<u64>) -> Vec<String> {
    let raw = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cwd = raw.lines().find_map(|l| {
        let v: Value = serde_json::from_str(l).ok()?;
        v.get("cwd").and_then(Value::as_str).map(str::to_owned)
    });
    let text = match cwd {
        Some(c) if c.len() > 1 => raw.replace(&c, work.to_str().unwrap()),
        _ => raw,
    };
    let one: Vec<String> = text.lines().map(str::to_owned).collect();
    let want = scale_mb.map_or(0, |mb| mb << 20);
    let mut out = one.clone();
    let mut size: u64 = out.iter().map(|l| l.len() as u64 + 1).sum();
    let mut copy = 0;
    while size < want {
        copy += 1;
        for l in &one {
            let l = l.replace("\"uuid\":\"", &format!("\"uuid\":\"c{copy}-"));
            size += l.len() as u64 + 1;
            out.push(l);
        }
    }
    out
}

fn stop(bin: &Path, data: &Path, transcript: &Path, cwd: &Path) -> f64 {
    let input = json!({ "session_id": "replay", "transcript_path": transcript, "cwd": cwd,
                        "hook_event_name": "Stop" });
    let started = Instant::now();
    let mut child = Command::new(bin)
        .arg("--data-dir")
        .arg(data)
        .args(["hook", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "the hook failed");
    started.elapsed().as_secs_f64() * 1e3
}

/// How far the stored record has read its transcript.
fn read_to(data: &Path) -> u64 {
    let conn = rusqlite::Connection::open(data.join("mooring.db")).unwrap();
    let data: Option<String> =
        conn.query_row("SELECT data FROM memory WHERE kind = 'session'", [], |r| r.get(0)).unwrap_or(None);
    data.and_then(|d| serde_json::from_str::<Value>(&d).ok())
        .and_then(|v| v.get("read_to").and_then(Value::as_u64))
        .unwrap_or(0)
}

fn setup(bin: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let data = dir.join("data");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let ok = Command::new(bin)
        .arg("--data-dir")
        .arg(&data)
        .args(["projects", "new", "Replay", "--code-path"])
        .arg(&work)
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(ok, "projects new failed");
    (data, work)
}

fn percentile(sorted: &[f64], p: usize) -> f64 {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn main() {
    let a = args();
    let bin = mooring_bin();
    let spin = Arc::new(AtomicBool::new(true));
    let spinners: Vec<_> = (0..a.busy)
        .map(|_| {
            let spin = spin.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while spin.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            })
        })
        .collect();

    // Turn by turn, `rounds` times over, each in a data directory of its own.
    let mut turns = Vec::new();
    let mut caught_up = true;
    let mut bytes = 0;
    let mut all = Vec::new();
    let mut work = PathBuf::new();
    for _ in 0..a.rounds {
        let dir = tempfile::tempdir().unwrap();
        let data;
        (data, work) = setup(&bin, dir.path());
        all = lines(&a.transcript, &work, a.scale_mb);
        bytes = all.iter().map(|l| l.len() as u64 + 1).sum();
        let path = dir.path().join("transcript.jsonl");
        let mut file = std::fs::File::create(&path).unwrap();
        for (i, line) in all.iter().enumerate() {
            if i > 0 && starts_turn(line) {
                file.flush().unwrap();
                turns.push(stop(&bin, &data, &path, &work));
            }
            writeln!(file, "{line}").unwrap();
        }
        file.flush().unwrap();
        turns.push(stop(&bin, &data, &path, &work));
        caught_up &= read_to(&data) == bytes;
    }
    let mut sorted = turns.clone();
    sorted.sort_by(f64::total_cmp);

    // Cold: the whole transcript, a record that never saw it.
    let cold_dir = tempfile::tempdir().unwrap();
    let (cold_data, cold_work) = setup(&bin, cold_dir.path());
    let cold_path = cold_dir.path().join("transcript.jsonl");
    let moved: Vec<String> =
        all.iter().map(|l| l.replace(work.to_str().unwrap(), cold_work.to_str().unwrap())).collect();
    std::fs::write(&cold_path, moved.join("\n") + "\n").unwrap();
    let mut cold = Vec::new();
    while read_to(&cold_data) < bytes && cold.len() < 100 {
        cold.push(stop(&bin, &cold_data, &cold_path, &cold_work));
    }
    spin.store(false, Ordering::Relaxed);
    spinners.into_iter().for_each(|t| t.join().unwrap());

    let mb = bytes as f64 / (1 << 20) as f64;
    let (p50, p99, max) = (percentile(&sorted, 50), percentile(&sorted, 99), sorted[sorted.len() - 1]);
    if a.json {
        let out = json!({ "mb": mb, "turns": turns.len(), "p50_ms": p50, "p99_ms": p99, "max_ms": max,
                          "caught_up": caught_up, "cold_turns": cold.len(), "cold_ms": cold, "busy": a.busy });
        println!("{out}");
    } else {
        println!("{:.1} MB, {} turns, {} busy threads", mb, turns.len(), a.busy);
        println!(
            "  per turn: p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms; record current: {caught_up}"
        );
        let each: Vec<String> = cold.iter().map(|ms| format!("{ms:.0}")).collect();
        println!("  cold start: read in {} turns ({} ms)", cold.len(), each.join(", "));
    }
}
