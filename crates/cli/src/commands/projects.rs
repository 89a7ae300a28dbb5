//! `mooring projects …`: list, create, show, edit, delete, focus.

use mooring_core::{NewProject, ProjectEdit, ProjectStatus, Registry};
use mooring_team::routed;
use serde_json::json;

use super::Ctx;
use crate::cli::{ActiveArgs, EditFlags, NewArgs, ProjectsAction, ProjectsArgs};
use crate::format;
use crate::output::{Failure, print_json, warn_all};

/// Dispatch `projects`.
pub fn run(ctx: &Ctx, args: ProjectsArgs) -> Result<(), Failure> {
    match (args.action, args.slug) {
        (Some(ProjectsAction::New(new)), _) => create(ctx, new),
        (Some(ProjectsAction::List(args)), _) => list(ctx, args.status.as_deref()),
        (Some(ProjectsAction::Active(active)), _) => focus(ctx, active),
        (None, None) => {
            let delete_flag = (args.edit.delete || args.edit.yes).then_some(if args.edit.delete {
                "delete"
            } else {
                "yes"
            });
            if let Some(flag) = edit_flag_given(&args.edit).or(delete_flag) {
                return Err(Failure::usage(
                    flag,
                    format!(
                        "--{} needs a project: mooring projects SLUG --{} …",
                        flag.replace('_', "-"),
                        flag.replace('_', "-")
                    ),
                ));
            }
            list(ctx, args.edit.status.as_deref())
        }
        (None, Some(slug)) => show_or_edit(ctx, &slug, args.edit),
    }
}

fn list(ctx: &Ctx, status: Option<&str>) -> Result<(), Failure> {
    let filter = match status.map(str::trim) {
        None | Some("all") => None,
        Some(s) => Some(s.parse::<ProjectStatus>().map_err(|_| {
            Failure::usage("status", format!("--status '{s}' is not one of active, paused, archived, all"))
        })?),
    };
    let store = ctx.listed_store()?;
    let team = ctx.team()?;
    let mut projects = Registry::new(&store).list(filter)?;
    routed::fill_stats(&store, team.as_deref(), &mut projects);
    if ctx.json {
        let mut out = json!({ "projects": projects });
        if let Some(listed) = ctx.team_list_json() {
            out["team_list"] = listed;
        }
        print_json(&out);
    } else {
        print!("{}", format::project_list(&projects));
    }
    Ok(())
}

fn create(ctx: &Ctx, args: NewArgs) -> Result<(), Failure> {
    let store = ctx.store()?;
    let changed = Registry::new(&store).with_base_dir(&ctx.cwd).create(NewProject {
        name: args.name,
        slug: args.slug,
        description: args.description,
        code_paths: args.code_path,
        repo_url: args.repo_url,
        notes_path: args.notes_path,
    })?;
    warn_all(&changed.warnings);
    if ctx.json {
        print_json(&changed);
    } else {
        println!("Created {} ({}).", changed.project.slug, changed.project.name);
        print!("{}", format::project_detail(&changed.project, &[]));
    }
    Ok(())
}

fn show_or_edit(ctx: &Ctx, slug: &str, flags: EditFlags) -> Result<(), Failure> {
    // The team's projects as the team has them now (a project just created or handed
    // over elsewhere); out of reach, one's own projects still work.
    let store = ctx.listed_store()?;
    let team = ctx.team()?;
    let is_team = routed::is_team(&store, slug)?;
    let registry = Registry::new(&store).with_base_dir(&ctx.cwd);
    if let Some(person) = &flags.handoff {
        if let Some(flag) = edit_flag_given(&flags).or(flags.status.as_ref().map(|_| "status")) {
            return Err(Failure::usage(
                flag,
                format!("--handoff cannot be combined with --{}", flag.replace('_', "-")),
            ));
        }
        let project = routed::handoff(&store, team.as_deref(), slug, person)?;
        let text = format!("{} now owns {}; you stay a member.", person.trim(), project.slug);
        if ctx.json {
            print_json(&json!({ "project": project.slug, "owner": person.trim() }));
        } else {
            println!("{text}");
        }
        return Ok(());
    }
    if flags.delete {
        if let Some(flag) = edit_flag_given(&flags) {
            return Err(Failure::usage(
                flag,
                format!("--delete cannot be combined with --{}", flag.replace('_', "-")),
            ));
        }
        if !flags.yes {
            let whose = if is_team { " for everyone in the team" } else { "" };
            return Err(Failure::usage(
                "yes",
                format!(
                    "deleting '{slug}' removes all its memory{whose}; add --yes to confirm, or archive it with --status archived"
                ),
            ));
        }
        let gone = registry.get(slug)?;
        routed::delete(&registry, team.as_deref(), &gone.slug)?;
        if ctx.json {
            print_json(&json!({ "deleted": gone.slug }));
        } else if is_team {
            println!("Deleted team project {} ({}) for everyone.", gone.slug, gone.name);
        } else {
            println!("Deleted {} ({}).", gone.slug, gone.name);
        }
        return Ok(());
    }
    if flags.yes {
        return Err(Failure::usage("yes", "--yes only confirms --delete"));
    }
    let status = flags
        .status
        .as_deref()
        .map(|s| {
            s.parse::<ProjectStatus>().map_err(|_| {
                Failure::usage("status", format!("--status '{s}' is not one of active, paused, archived"))
            })
        })
        .transpose()?;
    let edit = ProjectEdit {
        name: flags.name,
        description: flags.description,
        add_code_paths: flags.add_code_path,
        remove_code_paths: flags.remove_code_path,
        notes_path: flags.notes_path,
        repo_url: flags.repo_url,
        status,
    };
    if edit.is_empty() {
        let mut project = registry.get(slug)?;
        routed::fill_stats(&store, team.as_deref(), std::slice::from_mut(&mut project));
        let events = routed::events(&store, team.as_deref(), &project.slug)?;
        if ctx.json {
            print_json(&json!({ "project": project, "events": events }));
        } else {
            print!("{}", format::project_detail(&project, &events));
        }
        return Ok(());
    }
    let changed = routed::edit(&registry, team.as_deref(), slug, edit)?;
    warn_all(&changed.warnings);
    if ctx.json {
        print_json(&changed);
    } else {
        if changed.updated_fields.is_empty() {
            println!("Nothing changed: {} already had those values.", changed.project.slug);
        } else {
            println!("Updated {}: {}.", changed.project.slug, changed.updated_fields.join(", "));
        }
        print!("{}", format::project_detail(&changed.project, &[]));
    }
    Ok(())
}

fn focus(ctx: &Ctx, args: ActiveArgs) -> Result<(), Failure> {
    let store = ctx.listed_store()?;
    let registry = Registry::new(&store);
    let (focus, message) = if args.clear {
        let old = registry.clear_focus()?;
        let msg = match &old {
            Some(s) => format!("Cleared the focus project (was {s})."),
            None => "There was no focus project.".to_owned(),
        };
        (None, msg)
    } else if let Some(slug) = args.slug {
        let p = registry.set_focus(&slug)?;
        let msg = format!("{} is now the focus project: sessions that nothing else decides use it.", p.slug);
        (Some(p.slug), msg)
    } else {
        let p = registry.focus()?;
        let msg = match &p {
            Some(p) => format!("Focus project: {} ({}).", p.slug, p.name),
            None => "No focus project. Set one with: mooring projects active SLUG".to_owned(),
        };
        (p.map(|p| p.slug), msg)
    };
    if ctx.json {
        print_json(&json!({ "active_project": focus }));
    } else {
        println!("{message}");
    }
    Ok(())
}

/// The first edit flag present, by field name (for usage errors).
fn edit_flag_given(f: &EditFlags) -> Option<&'static str> {
    [
        (f.name.is_some(), "name"),
        (f.description.is_some(), "description"),
        (!f.add_code_path.is_empty(), "add_code_path"),
        (!f.remove_code_path.is_empty(), "remove_code_path"),
        (f.notes_path.is_some(), "notes_path"),
        (f.repo_url.is_some(), "repo_url"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
}
