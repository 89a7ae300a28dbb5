//! `mooring export` and `mooring import`.

use std::path::Path;

use mooring_core::memory::{instructions, transfer};
use mooring_core::settings::Setting;
use mooring_core::{Error, Registry};
use serde_json::json;

use super::Ctx;
use crate::cli::{ExportArgs, ImportArgs};
use crate::output::{Failure, print_json};

/// Write a project to a folder, or its block into an instruction file.
pub fn export(ctx: &Ctx, args: ExportArgs) -> Result<(), Failure> {
    let named = match (&args.agents_md, &args.claude_md) {
        (Some(f), _) => Some((instructions::Target::AgentsMd, f)),
        (_, Some(f)) => Some((instructions::Target::ClaudeMd, f)),
        _ => None,
    };
    if let Some((target, file)) = named {
        return instruction_file(ctx, &args.slug, target, &ctx.cwd.join(file));
    }
    let store = ctx.store()?;
    let dir = ctx.cwd.join(args.to.as_deref().unwrap_or_default());
    let files = transfer::export(&store, &args.slug, &dir)?;
    if ctx.json {
        print_json(&json!({ "dir": dir, "files": files }));
    } else {
        println!("Exported {} to {} ({}).", args.slug, dir.display(), files.join(", "));
    }
    Ok(())
}

/// The project's decisions and open blockers in Mooring's block of `file`.
fn instruction_file(ctx: &Ctx, slug: &str, target: instructions::Target, file: &Path) -> Result<(), Failure> {
    // A team project's memory is the team's: read where it lives.
    let (store, memory) = ctx.memory()?;
    let project = Registry::new(&store).get(slug)?;
    let limits = (Setting::PreambleMaxDecisions.get(&store)?, Setting::PreambleMaxBlockers.get(&store)?);
    let written = instructions::export(&memory, &project, target, file, limits)?;
    if ctx.json {
        print_json(&json!({
            "file": written.path, "decisions": written.decisions,
            "open_blockers": written.blockers, "changed": written.changed,
        }));
    } else if written.changed {
        println!(
            "Wrote {} decisions and {} open blockers into Mooring's block of {} (the rest of it is as it was).",
            written.decisions,
            written.blockers,
            written.path.display()
        );
    } else {
        println!("{} already holds the current block; nothing written.", written.path.display());
    }
    Ok(())
}

/// Read a project from a folder, or a client's memory into a project.
pub fn import(ctx: &Ctx, args: ImportArgs) -> Result<(), Failure> {
    if let Ok(source) = mooring_core::memory::adopt::Source::parse("source", &args.dir) {
        return super::adopt::run(ctx, source, args.project.as_deref(), args.watch);
    }
    if args.project.is_some() || args.watch {
        return Err(Error::invalid(
            "source",
            format!(
                "'{}' is not a source (claude-memory, codex-memory, gemini-memory, instructions); \
                 --project and --watch only go with one",
                args.dir
            ),
        )
        .into());
    }
    let store = ctx.store()?;
    let slug = transfer::import(&store, &ctx.cwd.join(&args.dir))?;
    if ctx.json {
        print_json(&json!({ "imported": slug }));
    } else {
        println!("Imported {slug}.");
    }
    Ok(())
}
