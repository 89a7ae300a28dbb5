//! `mooring sessions [SLUG]`: the sessions captured in a project, newest first — what
//! each asked, changed and left open. Forgetting one (`forget` by its id) is for good:
//! capture does not bring it back.

use mooring_core::memory::{ListQuery, list};
use serde_json::json;

use super::Ctx;
use super::memory::project_of_dir;
use crate::cli::{CaptureArgs, SessionsArgs};
use crate::format;
use crate::output::{Failure, print_json};

/// Run `sessions`.
pub fn run(ctx: &Ctx, args: SessionsArgs) -> Result<(), Failure> {
    let (store, memory) = ctx.memory()?;
    let slug = match args.slug {
        Some(s) => s,
        None => match project_of_dir(&store, &ctx.cwd.display().to_string(), ctx, true)? {
            Some(p) => p,
            None => {
                return Err(Failure::usage(
                    "slug",
                    "this directory is in no project; name one: mooring sessions SLUG",
                ));
            }
        },
    };
    if let Some(mode) = &args.claims {
        return super::sessions_live::set_mode(ctx, &store, &slug, mode);
    }
    if args.live {
        return super::sessions_live::show(ctx, &store, &slug);
    }
    let q = ListQuery { kind: Some("session".into()), limit: Some(args.limit), ..ListQuery::default() };
    let page = list(&memory, &slug, &q)?;
    if ctx.json {
        print_json(&json!({ "project": slug, "sessions": page.entries }));
        return Ok(());
    }
    if page.entries.is_empty() {
        println!("No sessions captured in {slug} yet.");
        return Ok(());
    }
    for e in &page.entries {
        let day = e.created_at.get(..10).unwrap_or(&e.created_at);
        println!("#{}  {day}  {}", e.id, format::safe(&e.title));
        for line in
            e.content.lines().filter(|l| l.starts_with("**Still open:**") || l.starts_with("**Changed:**"))
        {
            println!("    {}", format::safe(&line.replace("**", "")));
        }
    }
    Ok(())
}

/// `capture on|off [--project SLUG]`.
pub fn capture(ctx: &Ctx, args: CaptureArgs) -> Result<(), Failure> {
    let store = ctx.listed_store()?;
    let on = args.state == "on";
    let project = mooring_core::capture::switch(&store, args.project.as_deref(), on)?;
    if ctx.json {
        print_json(&json!({ "capture": args.state, "project": project }));
        return Ok(());
    }
    let verb = if on { "captured" } else { "no longer captured" };
    match project {
        Some(slug) => println!("Agent sessions in {slug} are {verb} on this machine."),
        None if on => {
            println!("Agent sessions are captured again (projects switched off one by one stay off).")
        }
        None => println!("Agent sessions are no longer captured in any project."),
    }
    Ok(())
}
