//! What a session-start hook costs the client: the whole `mooring hook claude-code`
//! process (start, open the database, resolve the session's directory, build the
//! preamble with the o200k tokenizer, print) against a data directory with 20 projects
//! and 2,000 memory entries. Clients wait for it before the session starts; the bound is
//! 200 ms. Uses the `mooring` binary built next to this benchmark
//! (`cargo build --release -p mooring-cli` first).

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
            let mut child = Command::new(&bin)
                .arg("--data-dir")
                .arg(&data)
                .args(["hook", "claude-code"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.stdout.starts_with(b"{\"hookSpecificOutput\""), "the hook printed nothing");
        })
    });
    group.finish();
}

criterion_group!(benches, hook);
criterion_main!(benches);
