//! `mooring export` and `mooring import`.

use mooring_core::memory::transfer;
use serde_json::json;

use super::Ctx;
use crate::cli::{ExportArgs, ImportArgs};
use crate::output::{Failure, print_json};

/// Write a project to a folder.
pub fn export(ctx: &Ctx, args: ExportArgs) -> Result<(), Failure> {
    let store = ctx.store()?;
    let dir = ctx.cwd.join(&args.to);
    let files = transfer::export(&store, &args.slug, &dir)?;
    if ctx.json {
        print_json(&json!({ "dir": dir, "files": files }));
    } else {
        println!("Exported {} to {} ({}).", args.slug, dir.display(), files.join(", "));
    }
    Ok(())
}

/// Read a project from a folder.
pub fn import(ctx: &Ctx, args: ImportArgs) -> Result<(), Failure> {
    let store = ctx.store()?;
    let slug = transfer::import(&store, &ctx.cwd.join(&args.dir))?;
    if ctx.json {
        print_json(&json!({ "imported": slug }));
    } else {
        println!("Imported {slug}.");
    }
    Ok(())
}
