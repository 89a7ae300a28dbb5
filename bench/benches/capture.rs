//! What capturing a session costs at a turn's end: reading the transcript's new lines,
//! folding them into the session's record, scrubbing it and storing it in place. The
//! transcript is built from lines recorded from the real Claude Code (tool calls, their
//! results, the client's own large request blobs), repeated with fresh ids.
//!
//! - `stop`: 200 new lines on top of 10,000 already read (the per-turn case);
//! - `end of a 100 MB session`: the last turn of a session whose transcript is 100 MB,
//!   its record current up to that turn;
//! - `first read of 100 MB`: a record that never saw the transcript (one slice of 8 MB;
//!   `capture` stores it and reads the next while the hook's deadline allows).
//!
//! - `git status at a turn's end`: what git saw change during the turn (files a command
//!   wrote), in a checkout of 2,000 tracked files with 20 changed and 10 new.
//!
//! Measured on the library path `capture` takes (session lookup, read from the offset,
//! fold, scrub, render, store); the `mooring hook` process adds its start-up, which the
//! `hook` benchmark measures.

mod seed;

use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_core::capture::{Place, SessionRecord, Turn, advance, entry, key, transcript};
use mooring_core::store::backend::{MemoryReads as _, MemoryWrites as _};
use mooring_core::{NewProject, Registry, Store};

const RECORDED: &str = include_str!("../../crates/core/tests/fixtures/claude-code-2.1.330-work.jsonl");

/// Lines like the recorded ones: a command, its result, an edit, its result, a message;
/// every 50th a large request blob as the client writes them.
fn lines(n: usize) -> Vec<String> {
    // A conversation line (the client's request blobs name every tool too).
    let pick = |needle: &str| {
        let turn = |l: &&str| l.contains("\"type\":\"assistant\"") || l.contains("\"type\":\"user\"");
        RECORDED.lines().filter(turn).find(|l| l.contains(needle)).unwrap().to_owned()
    };
    let bash = pick("\"name\":\"Bash\"");
    let result = pick("\"tool_use_id\":\"toolu_04\"");
    let edit = pick("\"name\":\"Edit\"");
    let text = pick("Retry helper written");
    let blob = RECORDED.lines().max_by_key(|l| l.len()).unwrap().to_owned();
    (0..n)
        .map(|i| {
            let id = format!("toolu_b{i:06}");
            match i % 50 {
                49 => blob.clone(),
                _ => match i % 5 {
                    0 => bash.replace("toolu_04", &id),
                    1 => result.replace("toolu_04", &format!("toolu_b{:06}", i - 1)),
                    2 => edit.replace("toolu_03", &id),
                    3 => result.replace("toolu_04", &id),
                    _ => text.clone(),
                },
            }
        })
        .collect()
}

fn write(path: &Path, lines: &[String]) -> u64 {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for l in lines {
        f.write_all(l.as_bytes()).unwrap();
        f.write_all(b"\n").unwrap();
    }
    f.flush().unwrap();
    std::fs::metadata(path).unwrap().len()
}

/// One turn's capture from `record` (as stored after the previous turn): what
/// `capture::capture` does, from a given record instead of the stored one.
fn turn(store: &Store, path: &Path, record: &SessionRecord) -> u64 {
    turn_in(store, path, record, "/tmp/rec/work")
}

/// [`turn`] for a session whose working directory is `cwd` (a git checkout: the commits
/// made during the session are read too).
fn turn_in(store: &Store, path: &Path, record: &SessionRecord, cwd: &str) -> u64 {
    let k = key("claude-code", "bench");
    let (_, _existing) = store.session_entry("bench", &k).unwrap();
    let mut r = record.clone();
    let t = Turn { cwd: Some(cwd), ..Turn::new(mooring_clients::Client::ClaudeCode, "bench", path) };
    advance(&mut r, &t, Place { root: Some(cwd), cwd: Some(cwd) }).unwrap();
    let (row, _) = entry(&mut r).unwrap();
    store.put_session("bench", &k, &row, mooring_core::memory::check_writable).unwrap();
    r.read_to
}

/// The record as it stands after reading `path` up to `upto` bytes.
fn record_upto(path: &Path, upto: u64) -> SessionRecord {
    let mut r = SessionRecord::new("claude-code", &key("claude-code", "bench"));
    let fold = mooring_core::capture::folder(mooring_clients::Client::ClaudeCode).unwrap();
    while r.read_to < upto {
        let c = transcript::read_from(path, r.read_to, transcript::SLICE).unwrap();
        let place = Place { root: Some("/tmp/rec/work"), cwd: Some("/tmp/rec/work") };
        for line in &c.lines {
            fold(&mut r, line, place);
        }
        if c.read_to == r.read_to {
            break;
        }
        r.read_to = c.read_to.min(upto);
    }
    r
}

fn capture(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    Registry::new(&store).create(NewProject { name: "Bench".into(), ..NewProject::default() }).unwrap();
    let mut group = c.benchmark_group("capture");
    group.sample_size(20);

    let all = lines(10_200);
    let small = dir.path().join("10k.jsonl");
    let before = write(&small, &all[..10_000]);
    write(&small, &all);
    let record = record_upto(&small, before);
    eprintln!("10,200 lines: {} bytes", std::fs::metadata(&small).unwrap().len());
    group.bench_function("stop: 200 new lines after 10,000", |b| {
        b.iter(|| black_box(turn(&store, &small, &record)))
    });

    let repo = checkout(dir.path(), 5_000);
    group.bench_function("stop: 200 new lines after 10,000, in a checkout of 5,000 commits", |b| {
        b.iter(|| black_box(turn_in(&store, &small, &record, &repo)))
    });

    // A 100 MB transcript: as many lines as it takes.
    let per_line = all.iter().map(|l| l.len() + 1).sum::<usize>() / all.len();
    let big_lines = lines(100 * 1024 * 1024 / per_line);
    let big = dir.path().join("100mb.jsonl");
    let size = write(&big, &big_lines);
    let last_turn_start = size - all[..200].iter().map(|l| l.len() as u64 + 1).sum::<u64>();
    eprintln!("big transcript: {size} bytes, {} lines", big_lines.len());
    let nearly = record_upto(&big, last_turn_start);
    group.bench_function("end of a 100 MB session (last 200 lines new)", |b| {
        b.iter(|| black_box(turn(&store, &big, &nearly)))
    });
    let fresh = SessionRecord::new("claude-code", &key("claude-code", "bench"));
    group.sample_size(10);
    group.bench_function("first read of a 100 MB transcript (one 8 MB slice)", |b| {
        b.iter(|| black_box(turn(&store, &big, &fresh)))
    });
    group.finish();
}

fn git_status(c: &mut Criterion) {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("wide");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(["-c", "user.name=b", "-c", "user.email=b@example.test"])
            .args(args)
            .current_dir(&repo)
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    };
    for i in 0..2_000 {
        let file = repo.join(format!("src/m{:02}/f{i}.rs", i % 40));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, format!("fn f{i}() {{}}\n")).unwrap();
    }
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "wide"]);
    // File times come from the kernel's coarse clock: a second's slack, as capture allows.
    let since = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
    for i in 0..20 {
        std::fs::write(repo.join(format!("src/m{:02}/f{i}.rs", i % 40)), "changed\n").unwrap();
    }
    for i in 0..10 {
        std::fs::write(repo.join(format!("notes-{i}.txt")), "new\n").unwrap();
    }
    assert_eq!(mooring_core::capture::worktree::changed_since(&repo, since).len(), 30);
    let mut group = c.benchmark_group("capture");
    group.sample_size(20);
    group.bench_function("git status at a turn's end (2,000 tracked files, 30 changed)", |b| {
        b.iter(|| black_box(mooring_core::capture::worktree::changed_since(&repo, since)))
    });
    group.finish();
}

/// A git checkout of `n` commits, the last two made during the recorded session (git
/// fast-import writes them in one go).
fn checkout(dir: &Path, n: usize) -> String {
    use std::process::{Command, Stdio};
    let repo = dir.join("checkout");
    std::fs::create_dir_all(&repo).unwrap();
    assert!(Command::new("git").args(["init", "-q"]).current_dir(&repo).status().unwrap().success());
    let first = RECORDED.lines().find_map(|l| {
        let v: serde_json::Value = serde_json::from_str(l).ok()?;
        let at = v.get("timestamp")?.as_str()?;
        chrono::DateTime::parse_from_rfc3339(at).ok().map(|t| t.timestamp())
    });
    let start = first.unwrap();
    let mut script = String::new();
    for i in 0..n {
        let when = if i + 2 >= n { start + 1 + i as i64 - n as i64 + 2 } else { start - 86_400 + i as i64 };
        let msg = format!("Commit {i}");
        script.push_str(&format!(
            "commit refs/heads/main\ncommitter A <a@example.test> {when} +0000\ndata {}\n{msg}\n",
            msg.len()
        ));
        script.push('\n');
    }
    let mut child = Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(&repo)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(
        Command::new("git")
            .args(["symbolic-ref", "HEAD", "refs/heads/main"])
            .current_dir(&repo)
            .status()
            .unwrap()
            .success()
    );
    // fast-import writes no reflog: write HEAD's as `git commit` would have, one entry a
    // commit, so the reader walks a long log back to the session's start.
    let ids =
        Command::new("git").args(["rev-list", "--reverse", "main"]).current_dir(&repo).output().unwrap();
    let mut log = String::new();
    let mut prev = "0".repeat(40);
    for (i, id) in String::from_utf8(ids.stdout).unwrap().lines().enumerate() {
        let when = if i + 2 >= n { start + 1 + i as i64 - n as i64 + 2 } else { start - 86_400 + i as i64 };
        log.push_str(&format!("{prev} {id} A <a@example.test> {when} +0000\tcommit: Commit {i}\n"));
        prev = id.to_owned();
    }
    std::fs::create_dir_all(repo.join(".git/logs")).unwrap();
    std::fs::write(repo.join(".git/logs/HEAD"), log).unwrap();
    let commits = mooring_core::capture::commits::since(&repo, start, start + 3_600);
    assert_eq!(commits.len(), 2, "the checkout's last two commits are the session's");
    repo.display().to_string()
}

/// A prompt's recall on a project with 100,000 entries: the any-word search, the bar and
/// the rendering within its token budget.
fn recall(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    Registry::new(&store).create(NewProject { name: "Big".into(), ..NewProject::default() }).unwrap();
    seed::hundred_thousand(&store, "big");
    let mut group = c.benchmark_group("recall");
    group.bench_function("a prompt on a project with 100,000 entries", |b| {
        b.iter(|| {
            let found = mooring_core::search::recall::recall(
                &store,
                "big",
                "How often do the leases renew their replicas?",
                &[],
            )
            .unwrap();
            black_box(mooring_core::search::recall::render(&found, false))
        })
    });
    group.bench_function("a prompt that matches nothing (100,000 entries)", |b| {
        b.iter(|| {
            black_box(mooring_core::search::recall::recall(&store, "big", "thanks, looks good", &[]).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, capture, recall, git_status);
criterion_main!(benches);
