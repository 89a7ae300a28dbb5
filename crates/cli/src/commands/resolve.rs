//! `mooring resolve`: the resolution order, every level explained.

use mooring_core::projects::live_index::LiveIndex;
use mooring_core::projects::registry::find;
use mooring_core::projects::resolve::{Hints, Level, Outcome};
use mooring_core::{Registry, paths};

use super::Ctx;
use crate::cli::ResolveArgs;
use crate::format;
use crate::output::{Failure, print_json};

/// Environment variable naming the project of an agent's process (level 4).
pub const ENV_PROJECT: &str = "MOORING_PROJECT";

/// Run `resolve`.
pub fn run(ctx: &Ctx, args: ResolveArgs) -> Result<(), Failure> {
    let store = ctx.listed_store()?;
    let focus = Registry::new(&store).focus()?.map(|p| p.slug);
    let absolute = |field: &str, raw: Option<String>| -> Result<Option<String>, Failure> {
        raw.map(|r| {
            paths::normalize(field, &r, Some(&ctx.cwd)).map(|n| n.as_str().to_owned()).map_err(Failure::from)
        })
        .transpose()
    };
    let cwd = absolute("cwd", Some(args.cwd.unwrap_or_else(|| ctx.cwd.display().to_string())))?;
    let hints = Hints {
        explicit: args.project,
        session: None,
        workspace: absolute("workspace_id", args.workspace_id)?,
        env_project: std::env::var(ENV_PROJECT).ok().filter(|v| !v.trim().is_empty()),
        roots: args.root,
        cwd,
        focus,
        git: None,
    };
    // Exactly as the server decides a session's project (markers, git, clones bound).
    let decided = mooring_core::projects::decide::decide(&store, &LiveIndex::new(), hints)?;
    let (resolution, markers, bound) = (decided.resolution, decided.markers, decided.bound_clone);
    if let Some(l) =
        resolution.levels.iter().find(|l| l.level == Level::Explicit && l.outcome == Outcome::Rejected)
    {
        // An explicit choice that cannot be honoured is a mistake to fix, not a fallback.
        let slug = l.input.as_deref().unwrap_or_default();
        store.read(|c| find(c, "project", slug))?;
        return Err(mooring_core::Error::invalid("project", l.detail.clone()).into());
    }
    if ctx.json {
        let mut out = serde_json::to_value(&resolution).unwrap_or_default();
        out["bound_code_path"] = serde_json::to_value(&bound).unwrap_or_default();
        out["marker_offers"] = serde_json::to_value(&markers.offers).unwrap_or_default();
        out["marker_problems"] = serde_json::to_value(&markers.problems).unwrap_or_default();
        if let Some(listed) = ctx.team_list_json() {
            out["team_list"] = listed;
        }
        print_json(&out);
    } else {
        print!("{}", format::resolution(&resolution));
        for m in &markers.offers {
            println!(
                "{} in {} names project '{}', which does not exist: mooring projects new {:?} --slug {} --code-path {}",
                mooring_core::projects::markers::FILE,
                m.dir.display(),
                m.project,
                m.name.as_deref().unwrap_or(&m.project),
                m.project,
                m.dir.display()
            );
        }
        for p in &markers.problems {
            println!("skipped: {p}");
        }
        if let Some(dir) = &bound {
            println!(
                "{} is now a code path of '{}'.",
                dir.display(),
                resolution.project.as_deref().unwrap_or_default()
            );
        }
    }
    Ok(())
}
