//! `mooring sessions --live [SLUG]`: the agent sessions working in a project now, each
//! with its client, checkout, branch, latest request and what it holds; and `--claims
//! MODE`, what a write into a file another live session holds meets in the project.

use mooring_core::Store;
use mooring_core::humanize::ago;
use mooring_core::projects::claims::Mode;
use mooring_core::projects::live as claims;
use serde_json::json;

use super::Ctx;
use crate::format;
use crate::output::{Failure, print_json};

/// Print `slug`'s live sessions.
pub fn show(ctx: &Ctx, store: &Store, slug: &str) -> Result<(), Failure> {
    let now = chrono::Utc::now();
    let working = claims::working(store, slug, now)?;
    let mode = claims::mode(store, slug)?;
    if ctx.json {
        print_json(&json!({ "project": slug, "claims": mode.as_str(), "live": working }));
        return Ok(());
    }
    if working.is_empty() {
        println!("No agent session is working in {slug} now.");
        return Ok(());
    }
    for w in &working {
        let branch = w.branch.as_deref().map(|b| format!(" on {b}")).unwrap_or_default();
        println!(
            "{}  {}{branch}  started {}, last heard {}",
            format::safe(&w.client),
            format::safe(&w.checkout),
            ago(Some(&w.started_at), now),
            ago(Some(&w.last_at), now)
        );
        if let Some(r) = &w.request {
            println!("    asked: {}", format::safe(r));
        }
        if !w.claims.is_empty() {
            println!("    holds: {}", format::safe(&w.claims.join(", ")));
        }
        if w.conflicts > 0 {
            println!(
                "    met another session's claim {} time{}",
                w.conflicts,
                if w.conflicts == 1 { "" } else { "s" }
            );
        }
    }
    println!(
        "A write into a file another session holds: {} (mooring sessions {slug} --claims ask|deny|warn|off)",
        mode.as_str()
    );
    Ok(())
}

/// Set `slug`'s mode.
pub fn set_mode(ctx: &Ctx, store: &Store, slug: &str, mode: &str) -> Result<(), Failure> {
    let mode = Mode::parse(mode)?;
    claims::set_mode(store, slug, mode)?;
    if ctx.json {
        print_json(&json!({ "project": slug, "claims": mode.as_str() }));
    } else {
        let said = match mode {
            Mode::Ask => "asks you",
            Mode::Deny => "is refused, with who holds it",
            Mode::Warn => "goes ahead, the agent told who holds it",
            Mode::Off => "is not checked (nothing is claimed)",
        };
        println!("{slug}: a write into a file another live session holds {said}.");
    }
    Ok(())
}
