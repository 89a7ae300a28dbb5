//! Resolution with the git levels, against 100,000 code paths: a session 6 levels deep
//! in a linked worktree (git_worktree) and in a clone elsewhere (git_remote), with the
//! directory's git facts read cold (cache dropped before every call) and cached. Prints
//! p50/p99 per case; `--json` for files. The repositories are made with the `git` binary
//! (setup only; Mooring reads them with gitoxide).
//!
//! cargo run --release -p mooring-bench --bin resolve-git

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use mooring_bench::index_with;
use mooring_core::projects::git;
use mooring_core::{Hints, resolve};

const ROUNDS: usize = 2_000;

fn git_in(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=b", "-c", "user.email=b@example.com", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

fn deep(dir: &Path) -> PathBuf {
    let d = dir.join("a/b/c/d/e/f");
    std::fs::create_dir_all(&d).unwrap();
    d.canonicalize().unwrap()
}

fn percentiles(mut us: Vec<f64>) -> (f64, f64) {
    us.sort_by(|a, b| a.total_cmp(b));
    (us[us.len() / 2], us[us.len() * 99 / 100])
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let mut index = index_with(100_000, &root);
    // p0 is a real checkout with a remote; a worktree and a clone live outside every code path.
    let checkout = root.join("p0");
    std::fs::create_dir_all(&checkout).unwrap();
    git_in(&checkout, &["init", "-q"]);
    std::fs::write(checkout.join("f"), "x").unwrap();
    git_in(&checkout, &["add", "f"]);
    git_in(&checkout, &["commit", "-qm", "x"]);
    git_in(&checkout, &["remote", "add", "origin", "git@git.example.com:team/p0.git"]);
    index.add_remote("https://git.example.com/team/p0", "p0");
    let elsewhere = tempfile::tempdir().unwrap();
    let wt = elsewhere.path().join("wt");
    git_in(&checkout, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    let clone = elsewhere.path().join("clone");
    std::fs::create_dir_all(&clone).unwrap();
    git_in(&clone, &["init", "-q"]);
    git_in(&clone, &["remote", "add", "origin", "https://git.example.com/team/p0.git"]);

    let mut rows = Vec::new();
    for (case, dir, want) in
        [("git_worktree", deep(&wt), "git_worktree"), ("git_remote", deep(&clone), "git_remote")]
    {
        for cached in [false, true] {
            let base = Hints { cwd: Some(dir.display().to_string()), ..Hints::default() };
            let mut times = Vec::with_capacity(ROUNDS);
            for _ in 0..ROUNDS {
                if !cached {
                    git::forget_all();
                }
                let started = Instant::now();
                let mut hints = base.clone();
                // What the gate does once nothing above decided: resolve, read git, resolve.
                let first = resolve(&index, &hints);
                assert!(first.decided_by.is_none());
                hints.git = mooring_core::projects::resolve::git_facts(&hints);
                let r = resolve(&index, &hints);
                times.push(started.elapsed().as_secs_f64() * 1e6);
                assert_eq!(r.decided_by.map(|l| l.as_str()), Some(want));
            }
            let (p50, p99) = percentiles(times);
            rows.push((case, if cached { "cached" } else { "cold" }, p50, p99));
        }
    }
    if json {
        let out: Vec<_> = rows
            .iter()
            .map(
                |(c, m, p50, p99)| serde_json::json!({ "case": c, "cache": m, "p50_us": p50, "p99_us": p99 }),
            )
            .collect();
        println!("{}", serde_json::to_string_pretty(&out).unwrap());
    } else {
        println!("resolution with git levels, 100,000 code paths, cwd 6 levels deep, {ROUNDS} calls each");
        println!("{:<14} {:<7} {:>10} {:>10}", "case", "cache", "p50 µs", "p99 µs");
        for (c, m, p50, p99) in rows {
            println!("{c:<14} {m:<7} {p50:>10.1} {p99:>10.1}");
        }
    }
}
