//! What a session-start hook costs the client: the whole `mooring hook claude-code`
//! process (start, open the database, resolve the session's directory, build the
//! preamble with the o200k tokenizer, print) against a data directory with 20 projects
//! and 2,000 memory entries. Clients wait for it before the session starts; the bound is
//! 200 ms. Uses the `mooring` binary built next to this benchmark
//! (`cargo build --release -p mooring-cli` first).

mod seed;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_core::Store;
use mooring_core::memory::{NewEntry, remember};

fn mooring_bin() -> Option<PathBuf> {
    // target/release/deps/hook-… → target/release/mooring
    let bin = std::env::current_exe().ok()?.parent()?.parent()?.join("mooring");
    bin.is_file().then_some(bin)
}

fn hook(c: &mut Criterion) {
    let Some(bin) = mooring_bin() else {
        eprintln!(
            "no mooring binary next to the benchmark: run `cargo build --release -p mooring-cli` first"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let code = dir.path().join("code");
    for p in 0..20 {
        std::fs::create_dir_all(code.join(format!("p{p}/src"))).unwrap();
        let out = Command::new(&bin)
            .arg("--data-dir")
            .arg(&data)
            .args(["projects", "new", &format!("Project {p}"), "--slug", &format!("p{p}"), "--code-path"])
            .arg(code.join(format!("p{p}")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let store = Store::open_in(&data).unwrap();
    for i in 0..2_000 {
        let entry = NewEntry {
            kind: ["decision", "note", "summary", "blocker"][i % 4].into(),
            title: Some(format!("Entry {i} about leases and elections")),
            content: format!("Entry {i}: renewals retry twice, the lease lives in etcd with a 10 s TTL."),
            tags: vec![],
            ..NewEntry::default()
        };
        remember(&store, &format!("p{}", i % 20), &entry, None).unwrap();
    }
    drop(store);
    let input = format!(
        r#"{{"session_id":"s","cwd":"{}","hook_event_name":"SessionStart"}}"#,
        code.join("p3/src").display()
    );
    let mut group = c.benchmark_group("hook");
    group.sample_size(30);
    group.bench_function("claude-code (whole process, 2,000 entries)", |b| {
        b.iter(|| {
            let (_, out) = run_once(&bin, &data, &input);
            assert!(out.starts_with(b"{\"hookSpecificOutput\""), "the hook printed nothing");
        })
    });
    group.finish();
}

/// One run of `mooring hook claude-code` with `input`: its wall time and what it printed.
fn run_once(bin: &std::path::Path, data: &std::path::Path, input: &str) -> (std::time::Duration, Vec<u8>) {
    let started = std::time::Instant::now();
    let mut child = Command::new(bin)
        .arg("--data-dir")
        .arg(data)
        .args(["hook", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (started.elapsed(), out.stdout)
}

fn percentiles(name: &str, mut times: Vec<std::time::Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    eprintln!(
        "hook/{name}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} runs)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        times.len()
    );
}

/// The per-turn and per-prompt hooks as the client runs them (whole process), with
/// percentiles: a turn's end that brings 200 new transcript lines into a record that
/// has read 10,000, and a prompt's recall on a project with 100,000 entries.
fn per_turn(_c: &mut Criterion) {
    let Some(bin) = mooring_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let code = dir.path().join("code");
    std::fs::create_dir_all(&code).unwrap();
    let out = Command::new(&bin)
        .arg("--data-dir")
        .arg(&data)
        .args(["projects", "new", "Big", "--code-path"])
        .arg(&code)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    const RECORDED: &str = include_str!("../../crates/core/tests/fixtures/claude-code-2.1.330-work.jsonl");
    let lines: Vec<&str> = RECORDED.lines().collect();
    let transcript = dir.path().join("t.jsonl");
    let mut f = std::fs::File::create(&transcript).unwrap();
    let append = |f: &mut std::fs::File, n: usize| {
        for i in 0..n {
            writeln!(f, "{}", lines[i % lines.len()]).unwrap();
        }
    };
    append(&mut f, 10_000);
    let stop = format!(
        r#"{{"session_id":"s","cwd":"{}","hook_event_name":"Stop","transcript_path":"{}"}}"#,
        code.display(),
        transcript.display()
    );
    run_once(&bin, &data, &stop);
    let times = (0..200)
        .map(|_| {
            append(&mut f, 200);
            run_once(&bin, &data, &stop).0
        })
        .collect();
    percentiles("Stop: 200 new lines after 10,000 (whole process)", times);

    let store = Store::open_in(&data).unwrap();
    seed::hundred_thousand(&store, "big");
    // Their vectors too (the hub's indexer would write them): recall compares the prompt
    // by meaning with the project's newest 10,000 when words alone find too few.
    let indexed = mooring_core::search::semantic::index_pending(&store, None).unwrap();
    eprintln!("hook/UserPromptSubmit: {indexed} entries indexed for recall by meaning");
    drop(store);
    // The first hook after a bulk insert of 100,000 entries folds the insert's log into
    // the database (a checkpoint): reported on its own, as it is not a prompt's cost.
    let first = format!(
        r#"{{"session_id":"warm","cwd":"{}","hook_event_name":"UserPromptSubmit","prompt":"leases"}}"#,
        code.display()
    );
    let warm: Vec<_> = (0..3).map(|_| run_once(&bin, &data, &first).0).collect();
    eprintln!("hook/UserPromptSubmit: the first three runs after the bulk insert: {warm:?}");
    let times = (0..200)
        .map(|i| {
            let prompt = format!(
                r#"{{"session_id":"p{i}","cwd":"{}","hook_event_name":"UserPromptSubmit","prompt":"How often do the leases renew their replicas?"}}"#,
                code.display()
            );
            run_once(&bin, &data, &prompt).0
        })
        .collect();
    percentiles("UserPromptSubmit: recall on 100,000 entries (whole process)", times);
}

/// A real session's turns on a busy machine (both cores kept busy by other work): the
/// 3.5 MB Claude Code transcript from the real corpus replayed turn by turn (`Stop` after
/// each of its turns), and a 50 MB transcript (the corpus's long sessions one after
/// another) met by one `Stop` with nothing read yet: how long each hook takes, and how
/// many turns it takes to catch up. Skipped without the corpus beside the repository.
fn real_sessions(_c: &mut Criterion) {
    let Some(bin) = mooring_bin() else { return };
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/transcripts");
    let Ok(raw) = std::fs::read_to_string(corpus.join("spotter-fa812bfe.jsonl")) else {
        eprintln!("hook/real sessions: SKIPPED (no ../shared/transcripts)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let code = dir.path().join("code");
    std::fs::create_dir_all(&code).unwrap();
    let ok = Command::new(&bin)
        .arg("--data-dir")
        .arg(&data)
        .args(["projects", "new", "Real", "--code-path"])
        .arg(&code)
        .output()
        .unwrap();
    assert!(ok.status.success());
    let text = raw.replace("/home/USER/projects/spotter-worktrees/spotter-a0y", code.to_str().unwrap());
    let busy = Busy::start(2);
    let stop = |session: &str, path: &std::path::Path| {
        format!(
            r#"{{"session_id":"{session}","cwd":"{}","hook_event_name":"Stop","transcript_path":"{}"}}"#,
            code.display(),
            path.display()
        )
    };
    // 3.5 MB, turn by turn.
    let t = dir.path().join("real.jsonl");
    let all: Vec<&str> = text.split_inclusive('\n').collect();
    let mut f = std::fs::File::create(&t).unwrap();
    let mut times = Vec::new();
    let mut written = 0;
    for (i, line) in all.iter().enumerate() {
        f.write_all(line.as_bytes()).unwrap();
        written += 1;
        let turn_end = i + 1 == all.len() || (written >= 40 && all[i + 1].contains("\"type\":\"user\""));
        if turn_end {
            times.push(run_once(&bin, &data, &stop("real", &t)).0);
            written = 0;
        }
    }
    percentiles("Stop on a real 3.5 MB session, turn by turn, both cores busy", times);
    // 50 MB at once.
    let big = dir.path().join("big.jsonl");
    let mut g = std::fs::File::create(&big).unwrap();
    let mut size = 0;
    while size < 50 << 20 {
        g.write_all(text.as_bytes()).unwrap();
        size += text.len();
    }
    let mut turns = Vec::new();
    loop {
        let (took, _) = run_once(&bin, &data, &stop("big", &big));
        turns.push(took);
        let store = Store::open_in(&data).unwrap();
        let key = mooring_core::capture::key("claude-code", "big");
        let (_, row) =
            mooring_core::store::backend::MemoryReads::session_entry(&store, "real", &key).unwrap();
        let read_to = row
            .and_then(|r| r.data)
            .and_then(|d| serde_json::from_str::<serde_json::Value>(&d).ok())
            .and_then(|v| v["read_to"].as_u64())
            .unwrap_or(0);
        if read_to >= size as u64 || turns.len() >= 20 {
            eprintln!(
                "hook/Stop on a 50 MB transcript, nothing read yet: caught up in {} turns: {turns:?}",
                turns.len()
            );
            break;
        }
    }
    drop(busy);
}

/// Short commands end at once, idle or busy: `mooring projects` and the session-start hook
/// outside any project, 500 runs each, with the machine idle and with both cores kept busy
/// (a stop lost by the WAL checkpoint thread once held about half of them 250 ms).
fn short_commands(_c: &mut Criterion) {
    let Some(bin) = mooring_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let run = |args: &[&str], input: &str| {
        let started = std::time::Instant::now();
        let mut child = Command::new(&bin)
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        child.wait().unwrap();
        started.elapsed()
    };
    run(&["projects"], "");
    let outside =
        format!(r#"{{"session_id":"s","cwd":"{}","hook_event_name":"SessionStart"}}"#, dir.path().display());
    for busy in [false, true] {
        let _burning = Busy::start(if busy { 2 } else { 0 });
        let load = if busy { "both cores busy" } else { "idle" };
        percentiles(&format!("mooring projects, {load}"), (0..500).map(|_| run(&["projects"], "")).collect());
        let hook = |_| run(&["hook", "claude-code"], &outside);
        percentiles(&format!("SessionStart outside a project, {load}"), (0..500).map(hook).collect());
    }
}

/// `n` threads spinning on the cores until dropped: a machine busy with other work.
struct Busy {
    on: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<u64>>,
}

impl Busy {
    fn start(n: usize) -> Self {
        let on = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let threads = (0..n)
            .map(|_| {
                let on = on.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while on.load(std::sync::atomic::Ordering::Relaxed) {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    }
                    x
                })
            })
            .collect();
        Self { on, threads }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.on.store(false, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

criterion_group!(benches, hook, per_turn, real_sessions, short_commands);
criterion_main!(benches);
