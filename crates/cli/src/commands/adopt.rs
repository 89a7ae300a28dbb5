//! `mooring import claude-memory|codex-memory|gemini-memory|instructions`: the clients'
//! own memory of a project's checkouts brought in, once or as it changes (`--watch`).

use std::path::PathBuf;
use std::time::Duration;

use mooring_core::memory::adopt::{self, Homes, Imported, Source};
use mooring_core::{Error, Registry};
use serde_json::json;

use super::Ctx;
use crate::output::{Failure, print_json};

/// How often `--watch` looks again for folders that did not exist yet.
const RESCAN: Duration = Duration::from_secs(10);

/// Bring `source` into `project` (or the project of the current directory).
pub fn run(ctx: &Ctx, source: Source, project: Option<&str>, watch: bool) -> Result<(), Failure> {
    let (local, memory) = ctx.memory()?;
    let named = match project {
        Some(s) => s.to_owned(),
        None => super::memory::project_of_dir(&local, &ctx.cwd.to_string_lossy(), ctx, true)?.ok_or_else(
            || {
                Error::invalid(
                    "project",
                    "this directory belongs to no project; name one with --project SLUG",
                )
            },
        )?,
    };
    let project = Registry::new(&local).get(&named)?;
    let (slug, roots) = (project.slug.clone(), adopt::checkouts(&project));
    if roots.is_empty() {
        return Err(Error::invalid(
            "project",
            format!("'{slug}' has no code path to read the clients' memory of; add one with `mooring projects {slug} --add-code-path DIR`"),
        )
        .into());
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let homes = Homes::from_env(&home);
    let once = || -> Result<Imported, Failure> {
        let mut found = adopt::find(&homes, source, &roots, &home);
        adopt::keep_own(&local, &slug, &mut found)?;
        Ok(adopt::import(&memory, &slug, &found)?)
    };
    let done = once()?;
    report(ctx, &slug, source, &done);
    if !watch {
        return Ok(());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
        if e.is_ok_and(|e| !e.kind.is_access()) {
            let _ = tx.send(());
        }
    })
    .map_err(|e| Error::storage(format!("cannot watch the client's files: {e}")))?;
    let folders: Vec<PathBuf> = roots.iter().flat_map(|r| homes.folders(source, r)).collect();
    let mut watched = Vec::new();
    loop {
        for f in &folders {
            if !watched.contains(f) && f.is_dir() {
                use notify::Watcher as _;
                let mode = if source == Source::Instructions {
                    notify::RecursiveMode::NonRecursive
                } else {
                    notify::RecursiveMode::Recursive
                };
                if watcher.watch(f, mode).is_ok() {
                    watched.push(f.clone());
                }
            }
        }
        let woke = rx.recv_timeout(RESCAN);
        if matches!(woke, Err(std::sync::mpsc::RecvTimeoutError::Disconnected)) {
            return Ok(());
        }
        // A burst of writes is one change.
        std::thread::sleep(Duration::from_millis(300));
        while rx.try_recv().is_ok() {}
        match once() {
            Ok(done) if done.added > 0 => report(ctx, &slug, source, &done),
            Ok(_) => {}
            Err(e) => eprintln!("mooring: could not bring in {}: {}", source.name(), e.sentence()),
        }
    }
}

fn report(ctx: &Ctx, slug: &str, source: Source, done: &Imported) {
    if ctx.json {
        print_json(&json!({ "project": slug, "source": source.name(), "done": done }));
        return;
    }
    for why in &done.skipped {
        eprintln!("mooring: skipped {why}");
    }
    println!(
        "{}: {} found, {} added, {} already in {slug}{}{}",
        source.name(),
        done.found,
        done.added,
        done.unchanged,
        if done.superseded > 0 {
            format!(", {} superseded by their new text", done.superseded)
        } else {
            String::new()
        },
        if done.redacted > 0 { format!(" ({} secrets taken out)", done.redacted) } else { String::new() },
    );
}
