//! `mooring team …`: join a team database, see how it is doing, leave it, and the team
//! projects' owner calls (new, member, handoff).

use std::path::Path;

use mooring_core::{Error, NewProject, ProjectEdit, Registry};
use mooring_team::config::{self, TeamConfig};
use mooring_team::{PgStore, Role, sync};
use serde_json::{Value, json};

use super::Ctx;
use crate::cli::{TeamAction, TeamArgs};
use crate::output::{Failure, print_json};

/// Dispatch `team`.
pub fn run(ctx: &Ctx, args: TeamArgs) -> Result<(), Failure> {
    match args.action {
        TeamAction::Join { url, name, password_file } => join(ctx, &url, &name, password_file.as_deref()),
        TeamAction::Status => status(ctx),
        TeamAction::Leave { keep } => leave(ctx, keep),
        TeamAction::New { name, slug, description, repo_url, code_paths } => {
            let (store, team) = joined(ctx)?;
            let created =
                team.create_project(NewProject { name, slug, description, repo_url, ..Default::default() })?;
            sync::refresh(&store, &team)?;
            if !code_paths.is_empty() {
                let edit = ProjectEdit { add_code_paths: code_paths, ..Default::default() };
                Registry::new(&store).with_base_dir(&ctx.cwd).edit(&created.slug, edit)?;
            }
            done(ctx, &json!({ "created": created.slug }), &format!("Created team project {}", created.slug));
            Ok(())
        }
        TeamAction::Member { slug, person, remove: true, .. } => {
            let (_, team) = joined(ctx)?;
            team.remove_member(&slug, &person)?;
            let text = format!("{} is no longer in {slug}", person.trim());
            done(ctx, &json!({ "project": slug, "person": person.trim(), "role": null }), &text);
            Ok(())
        }
        TeamAction::Member { slug, person, role, remove: false } => {
            let (_, team) = joined(ctx)?;
            let role = Role::parse("role", &role)?;
            team.set_member(&slug, &person, role)?;
            let text = format!("{} is now a {} of {slug}", person.trim(), role.as_str());
            done(ctx, &json!({ "project": slug, "person": person.trim(), "role": role.as_str() }), &text);
            Ok(())
        }
        TeamAction::Share { slug } => {
            let (store, team) = joined(ctx)?;
            let (project, entries) = team.share(&store, &slug)?;
            let text =
                format!("Moved {} into the team with {entries} memory entries; you own it", project.slug);
            done(ctx, &json!({ "project": project.slug, "entries": entries }), &text);
            Ok(())
        }
        TeamAction::Handoff { slug, person } => {
            let (_, team) = joined(ctx)?;
            let project = team.handoff(&slug, &person)?;
            let text = format!("{} now owns {}; you stay a member", person.trim(), project.slug);
            done(ctx, &json!({ "project": project.slug, "owner": person.trim() }), &text);
            Ok(())
        }
    }
}

fn done(ctx: &Ctx, value: &serde_json::Value, text: &str) {
    if ctx.json {
        print_json(value);
    } else {
        println!("{text}");
    }
}

/// The local store and the joined team.
fn joined(ctx: &Ctx) -> Result<(mooring_core::Store, PgStore), Failure> {
    let Some(c) = config::load(&ctx.data_dir)? else {
        return Err(Error::invalid(
            "team",
            "not in a team; join one with: mooring team join postgres://… --name NAME",
        )
        .into());
    };
    Ok((ctx.store()?, PgStore::open(&c.url, c.password.as_deref(), &c.person)?))
}

fn read_password(file: Option<&Path>) -> Result<Option<String>, Failure> {
    let password =
        super::secret_input::read(file, "password_file", "Team database password (empty if none)")?;
    Ok(password.filter(|p| !p.is_empty()))
}

fn join(ctx: &Ctx, url: &str, name: &str, password_file: Option<&Path>) -> Result<(), Failure> {
    if let Some(c) = config::load(&ctx.data_dir)? {
        return Err(Error::conflict(
            "team",
            format!("this Mooring is in a team already ({}); mooring team leave first", c.url),
        )
        .into());
    }
    let url = &mooring_team::tls::Tls::absolute_root(url, &ctx.cwd)?;
    let password = read_password(password_file)?;
    let team = PgStore::connect(url, password.as_deref(), name)?;
    let store = ctx.store()?;
    let config = TeamConfig { url: url.to_owned(), person: team.person().to_owned(), password };
    config::save(&ctx.data_dir, &config)?;
    let synced = sync::refresh(&store, &team)?;
    let value = json!({ "url": url, "person": team.person(), "tls": team.tls(), "exposed": team.exposed(url),
        "projects": synced.added, "clashes": synced.clashes });
    let mut text = format!("Joined the team at {url} as {}.\nTLS: {}.", team.person(), team.tls());
    if team.exposed(url) {
        text.push_str(
            "\nWarning: the database is on another host and its certificate is not checked; anyone in \
             between could read or pose as it. Use sslmode=verify-full (with sslrootcert=CA.pem for a \
             private authority).",
        );
    }
    if !synced.added.is_empty() {
        text.push_str(&format!(" Team projects here now: {}.", synced.added.join(", ")));
    }
    for slug in &synced.clashes {
        text.push_str(&format!("\nTeam project {slug} is left out: a project of yours here has that slug."));
    }
    done(ctx, &value, &text);
    Ok(())
}

fn status(ctx: &Ctx) -> Result<(), Failure> {
    let Some(c) = config::load(&ctx.data_dir)? else {
        done(
            ctx,
            &json!({ "team": null }),
            "Not in a team. Join one with: mooring team join postgres://… --name NAME",
        );
        return Ok(());
    };
    let store = ctx.store()?;
    let team = PgStore::open(&c.url, c.password.as_deref(), &c.person)?;
    let reach = team.ping().and_then(|lag| {
        sync::refresh(&store, &team)?;
        Ok((lag, team.projects()?))
    });
    let encryption = reach.as_ref().ok().and_then(|_| team.encryption().ok()).flatten();
    let row_security = reach.as_ref().ok().and_then(|_| team.row_security().ok());
    let here = store.read(mooring_core::store::team_projects::all)?;
    // Each team project on this machine, with whose it is and the person's part in it
    // (unknown while the database is out of reach).
    let projects: Vec<Value> = here
        .iter()
        .map(|(_, _, slug)| {
            let seen = reach.as_ref().ok().and_then(|(_, all)| all.iter().find(|s| s.project.slug == *slug));
            json!({ "slug": slug, "role": seen.map(|s| s.role.as_str()), "owner": seen.and_then(|s| s.owner.clone()) })
        })
        .collect();
    let listed: Vec<String> = projects
        .iter()
        .map(|p| match (p["role"].as_str(), p["owner"].as_str()) {
            (Some(role), owner) => format!(
                "{} (you: {role}; owner: {})",
                p["slug"].as_str().unwrap_or(""),
                owner.unwrap_or("none")
            ),
            (None, _) => p["slug"].as_str().unwrap_or("").to_owned(),
        })
        .collect();
    let (reachable, lag_ms, problem) = match &reach {
        Ok((lag, _)) => (true, Some(lag.as_secs_f64() * 1e3), None),
        Err(e) => (false, None, Some(e.message.clone())),
    };
    let value = json!({ "url": c.url, "person": c.person, "reachable": reachable, "lag_ms": lag_ms,
        "problem": problem, "tls": team.tls(), "encryption": encryption, "row_security": row_security,
        "projects": projects });
    let text = match (&reach, lag_ms) {
        (Ok(_), Some(ms)) => format!(
            "Team database: {}\nYou: {}\nReachable: yes ({ms:.1} ms round trip)\nTLS: {} ({})\n\
             Membership: {}\nTeam projects here: {}",
            c.url,
            c.person,
            team.tls(),
            encryption.as_deref().unwrap_or("this connection is plain text"),
            match row_security {
                Some(false) =>
                    "checked by Mooring only: the team's database role is a superuser (or bypasses \
                                row security); give the team a plain role that owns its database",
                _ => "checked by Mooring and enforced by the database (row security)",
            },
            if listed.is_empty() { "none".to_owned() } else { listed.join(", ") }
        ),
        _ => format!(
            "Team database: {}\nYou: {}\nReachable: no — {}\nLocal projects keep working.",
            c.url,
            c.person,
            problem.as_deref().unwrap_or("")
        ),
    };
    done(ctx, &value, &text);
    Ok(())
}

fn leave(ctx: &Ctx, keep: bool) -> Result<(), Failure> {
    let Some(c) = config::load(&ctx.data_dir)? else {
        done(ctx, &json!({ "left": false }), "Not in a team.");
        return Ok(());
    };
    let store = ctx.store()?;
    // Copied first: if the team cannot be read, nothing is left and nothing is lost.
    let kept = if keep {
        let team = PgStore::open(&c.url, c.password.as_deref(), &c.person)?;
        sync::refresh(&store, &team)?;
        team.keep(&store)?
    } else {
        Vec::new()
    };
    config::remove(&ctx.data_dir)?;
    let removed = store.write(|tx| {
        let all = mooring_core::store::team_projects::all(tx)?;
        for (id, _, _) in &all {
            mooring_core::store::projects::delete(tx, *id)?;
        }
        Ok(all.into_iter().map(|(_, _, slug)| slug).collect::<Vec<_>>())
    })?;
    let list = |slugs: Vec<&str>| if slugs.is_empty() { "none".to_owned() } else { slugs.join(", ") };
    let text = if keep {
        format!(
            "Left the team. Kept as your own projects on this machine, memory and all: {}. The team's copies go on without you.",
            list(kept.iter().map(|(s, _)| s.as_str()).collect())
        )
    } else {
        format!(
            "Left the team; its projects left this machine ({}). Their memory stays in the team.",
            list(removed.iter().map(String::as_str).collect())
        )
    };
    let kept_json: Vec<Value> = kept.iter().map(|(slug, n)| json!({ "slug": slug, "entries": n })).collect();
    done(ctx, &json!({ "left": true, "kept": kept_json, "removed": removed }), &text);
    Ok(())
}
