//! `mooring memory …`, `mooring context`, `mooring token`.

use std::io::Read;

use mooring_core::memory::preamble::{self, Caps};
use mooring_core::memory::{self, ListQuery, NewEntry};
use mooring_core::projects::resolve::Hints;
use mooring_core::{Error, Registry, paths, search};
use serde_json::json;

use super::Ctx;
use super::resolve::ENV_PROJECT;
use crate::cli::{ContextArgs, MemoryAction, MemoryArgs};
use crate::format;
use crate::output::{Failure, print_json};

/// Dispatch `memory`.
pub fn run(ctx: &Ctx, args: MemoryArgs) -> Result<(), Failure> {
    let (local, store) = ctx.memory()?;
    match args.action {
        MemoryAction::Add { slug, kind, title, tags, supersedes, text } => {
            let content = if text == "-" {
                let mut s = String::new();
                std::io::stdin()
                    .read_to_string(&mut s)
                    .map_err(|e| Error::invalid("text", format!("cannot read standard input: {e}")))?;
                s
            } else {
                text
            };
            let new = NewEntry {
                kind,
                title,
                content,
                tags,
                author: Some(mooring_core::model::Author::Person),
                client: None,
            };
            let done = search::similar::remember(&store, &slug, &new, None, &supersedes)?;
            let entry = &done.entry;
            if ctx.json {
                // The entry as before, with what it superseded and its candidates beside.
                let mut out = serde_json::to_value(entry).unwrap_or_default();
                out["superseded"] = json!(done.superseded);
                out["candidates"] = json!(done.candidates);
                print_json(&out);
            } else {
                println!(
                    "Recorded {} #{} in {}: {}",
                    entry.kind.as_str(),
                    entry.id,
                    entry.project,
                    format::safe(&entry.title)
                );
                for old in &done.superseded {
                    println!("  supersedes #{}: {}", old.id, format::safe(&old.title));
                }
                print_candidates(&slug, entry.id, &done.candidates);
            }
        }
        MemoryAction::Supersede { slug, id, old } => {
            let done = memory::supersede::supersede(&store, &slug, id, &old)?;
            if ctx.json {
                print_json(&json!({ "superseded": done }));
            } else {
                for e in &done {
                    println!("#{} is superseded by #{id}: {}", e.id, format::safe(&e.title));
                }
            }
        }
        MemoryAction::Restore { slug, id } => {
            let e = memory::supersede::restore(&store, &slug, id)?;
            if ctx.json {
                print_json(&e);
            } else {
                println!("#{} is no longer superseded: {}", e.id, format::safe(&e.title));
            }
        }
        MemoryAction::Forget { slug, id } => {
            let e = memory::forget(&store, &slug, id)?;
            if ctx.json {
                print_json(&e);
            } else {
                println!("Forgot {} #{} in {}: {}", e.kind.as_str(), e.id, e.project, format::safe(&e.title));
            }
        }
        MemoryAction::Fold { project } => {
            let done = mooring_core::capture::digest::roll_up_all(
                &local,
                &store,
                project.as_deref(),
                chrono::Utc::now(),
            )?;
            if ctx.json {
                let out: Vec<_> =
                    done.iter().map(|(slug, d)| json!({ "project": slug, "done": d })).collect();
                print_json(&json!({ "projects": out }));
            } else if done.is_empty() {
                println!(
                    "Nothing to fold: no captured session is old enough, or its week's digest is current."
                );
            } else {
                for (slug, d) in &done {
                    println!(
                        "{slug}: {} sessions folded, {} digests written, {} weeks in all",
                        d.folded, d.written, d.weeks
                    );
                }
            }
        }
        MemoryAction::List { slug, kind, status, limit, before } => {
            let page = memory::list(&store, &slug, &ListQuery { kind, status, limit: Some(limit), before })?;
            if ctx.json {
                print_json(&page);
            } else {
                print!("{}", format::safe(&format::entries(&page.entries)));
            }
        }
        MemoryAction::Search { query, project, limit, mode } => {
            let mode = search::Mode::parse("mode", &mode)?;
            let r = search::Request { query: &query, project: project.as_deref(), kind: None, limit, mode };
            embed_waiting(&store, mode);
            let found =
                mooring_core::search::rerank::find(&store, mooring_core::search::rerank::wanted(&local), &r)?;
            if ctx.json {
                print_json(&found);
            } else {
                print!("{}", format::safe(&format::hits(&found.hits)));
                if let Some(note) = &found.note {
                    eprintln!("note: {}", format::safe(note));
                }
            }
        }
        MemoryAction::Index => index(ctx, &local, &store)?,
    }
    Ok(())
}

/// Before a search by meaning, give what waits its vector (a few microseconds an entry),
/// for at most a second: with no Mooring running, nothing else would, and what the CLI
/// just added would be found by keyword only. What is left is reported by the search.
/// Nothing waiting (the common case, and always soon where the hub runs), the model is
/// not loaded here at all.
fn embed_waiting(store: &dyn mooring_core::store::backend::MemoryBackend, mode: search::Mode) {
    use mooring_core::search::semantic;
    if mode == search::Mode::Keyword || !store.vectors_waiting(None).is_ok_and(|w| w.is_some_and(|w| w > 0)) {
        return;
    }
    if semantic::availability().why().is_some() {
        return;
    }
    if let Err(e) = semantic::index_pending(store, Some(std::time::Duration::from_secs(1))) {
        tracing::warn!(error = %e.message, "could not index waiting entries before the search");
    }
}

/// `memory index`: the backfill (this machine's projects and the team's), in batches with a progress line each second, until no
/// entry waits; stopping it midway loses nothing (each batch is its own transaction).
fn index(
    ctx: &Ctx,
    local: &mooring_core::Store,
    store: &dyn mooring_core::store::backend::MemoryBackend,
) -> Result<(), Failure> {
    use mooring_core::search::semantic;
    if let Some(why) = semantic::availability().why() {
        return Err(Error::invalid("model", why).into());
    }
    let progress = || {
        store
            .vector_progress(None)
            .map(|p| p.unwrap_or(mooring_core::store::backend::VectorProgress { waiting: 0, stored: 0 }))
    };
    let started = std::time::Instant::now();
    let mut done = 0usize;
    // A first line after the first batch, then one a second.
    let mut slice = std::time::Duration::ZERO;
    loop {
        let n = semantic::index_pending(store, Some(slice))?;
        slice = std::time::Duration::from_secs(1);
        done += n;
        let p = progress()?;
        if !ctx.json {
            eprintln!("indexed {} of {} entries", p.stored, p.stored + p.waiting);
        }
        if p.waiting == 0 || n == 0 {
            if mooring_core::search::rerank::wanted(local) {
                encode_for_rerank(ctx, store)?;
            }
            let secs = started.elapsed().as_secs_f64();
            if ctx.json {
                print_json(
                    &json!({ "indexed": done, "stored": p.stored, "waiting": p.waiting, "seconds": secs }),
                );
            } else {
                println!(
                    "Search by meaning is ready: {} entries have their vector ({done} new, {secs:.1} s).",
                    p.stored
                );
            }
            return Ok(());
        }
    }
}

/// With re-ranking on, encode every entry that waits for it (about 40 ms each), with a
/// progress line each second.
fn encode_for_rerank(
    ctx: &Ctx,
    store: &dyn mooring_core::store::backend::MemoryBackend,
) -> Result<(), Failure> {
    use mooring_core::search::rerank;
    if let Err(why) = rerank::encoder() {
        return Err(Error::invalid("rerank", why).into());
    }
    loop {
        let n = rerank::index_pending(store, Some(std::time::Duration::from_secs(1)))?;
        let waiting = store.rerank_waiting(rerank::MODEL)?.unwrap_or(0);
        if !ctx.json {
            eprintln!("encoded {n} more for re-ranking; {waiting} waiting");
        }
        if waiting == 0 || n == 0 {
            return Ok(());
        }
    }
}

/// `context`: the preamble of a project named or resolved from a directory.
pub fn context(ctx: &Ctx, args: ContextArgs) -> Result<(), Failure> {
    let (store, memory) = ctx.memory()?;
    let slug = match args.slug {
        Some(s) => s,
        None => {
            let dir = args.cwd.unwrap_or_else(|| ctx.cwd.display().to_string());
            match project_of_dir(&store, &dir, ctx, true)? {
                Some(p) => p,
                None => {
                    // A SessionStart hook outside any project prints nothing and succeeds.
                    if ctx.json {
                        print_json(&json!({ "project": null }));
                    }
                    return Ok(());
                }
            }
        }
    };
    let caps = Caps::load(&store)?;
    let p = preamble::build(&store, &memory, &slug, Some(args.budget), caps)?;
    if ctx.json {
        print_json(&p);
    } else {
        print!("{}", format::safe(&p.text));
    }
    Ok(())
}

/// The project a session started in `dir` would be in (markers applied), if any; without
/// `with_focus`, only the directory (and `MOORING_PROJECT`) decides.
pub fn project_of_dir(
    store: &mooring_core::Store,
    dir: &str,
    ctx: &Ctx,
    with_focus: bool,
) -> Result<Option<String>, Failure> {
    Ok(decide_dir(store, dir, ctx, with_focus)?.resolution.project)
}

/// How a session started in `dir` is decided, exactly as the server decides (the
/// resolution, the markers read, what was bound); `with_focus` as for [`project_of_dir`].
pub fn decide_dir(
    store: &mooring_core::Store,
    dir: &str,
    ctx: &Ctx,
    with_focus: bool,
) -> Result<mooring_core::projects::decide::Decided, Failure> {
    let cwd = paths::normalize("cwd", dir, Some(&ctx.cwd))?;
    let focus = if with_focus { Registry::new(store).focus()?.map(|p| p.slug) } else { None };
    let hints = Hints {
        cwd: Some(cwd.as_str().to_owned()),
        env_project: std::env::var(ENV_PROJECT).ok().filter(|v| !v.trim().is_empty()),
        focus,
        ..Hints::default()
    };
    // Exactly as the server decides a session's project.
    Ok(mooring_core::projects::decide::decide(
        store,
        &mooring_core::projects::live_index::LiveIndex::new(),
        hints,
    )?)
}

/// `token`.
pub fn token(ctx: &Ctx) -> Result<(), Failure> {
    let token = mooring_server::access::token::load_or_create(&ctx.data_dir).map_err(|e| {
        Error::storage(format!("cannot read or create the token in {}: {e}", ctx.data_dir.display()))
    })?;
    if ctx.json {
        print_json(&json!({ "token": token }));
    } else {
        println!("{token}");
    }
    Ok(())
}

/// `config [KEY [VALUE]]`.
pub fn config(ctx: &Ctx, key: Option<String>, value: Option<String>) -> Result<(), Failure> {
    use mooring_core::settings::Setting;
    let store = ctx.store()?;
    let shown: Vec<(&str, u32, &str)> = match (key.as_deref(), value) {
        (Some(k), value) => {
            let s = Setting::parse(k)?;
            let v = match value {
                Some(v) => s.set(&store, &v)?,
                None => s.get(&store)?,
            };
            vec![(s.key(), v, s.spec().about)]
        }
        (None, _) => {
            let mut all = Vec::new();
            for s in Setting::ALL {
                all.push((s.key(), s.get(&store)?, s.spec().about));
            }
            all
        }
    };
    if ctx.json {
        let map: serde_json::Map<String, serde_json::Value> =
            shown.iter().map(|(k, v, _)| ((*k).to_owned(), json!(v))).collect();
        print_json(&map);
    } else {
        for (k, v, about) in shown {
            if about.is_empty() {
                println!("{k} = {v}");
            } else {
                println!("{k} = {v}    ({about})");
            }
        }
    }
    Ok(())
}

/// The earlier entries a new one may repeat or contradict, and how to retire them.
fn print_candidates(slug: &str, id: i64, candidates: &[search::similar::Candidate]) {
    if candidates.is_empty() {
        return;
    }
    println!("Earlier entries it may repeat or contradict:");
    for c in candidates {
        println!(
            "  #{} ({}, {:.2}, {}): {}",
            c.id,
            c.likely.as_str(),
            c.similarity,
            c.created,
            format::safe(&c.title)
        );
    }
    let ids: Vec<String> = candidates.iter().map(|c| c.id.to_string()).collect();
    println!("If it replaces them: mooring memory supersede {slug} {id} {}", ids.join(" "));
}
