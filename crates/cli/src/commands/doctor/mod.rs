//! `mooring doctor`: checks the hub, the data directory, the watch limit and every agent
//! client found here, and says for each problem how to fix it. Exit 1 when something
//! needs fixing.

mod clients;

use std::path::Path;

use mooring_clients::Client;
use mooring_core::store::{DB_FILE, code_paths};
use serde::Serialize;
use serde_json::json;

use super::Ctx;
use super::setup::{client_env, status};
use crate::output::{Failure, print_json};

/// One line of the report.
#[derive(Debug, Serialize)]
struct Check {
    /// What was checked (`hub`, `data_dir`, `client:codex`…).
    name: String,
    /// `ok`, `info` or `problem`.
    status: &'static str,
    /// What was found.
    message: String,
    /// What to do about it (problems only).
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

fn ok(name: &str, message: String) -> Check {
    Check { name: name.into(), status: "ok", message, fix: None }
}
fn info(name: &str, message: String) -> Check {
    Check { name: name.into(), status: "info", message, fix: None }
}
fn problem(name: &str, message: String, fix: String) -> Check {
    Check { name: name.into(), status: "problem", message, fix: Some(fix) }
}

/// Run every check and print the report.
pub fn run(ctx: &Ctx) -> Result<(), Failure> {
    let mut checks = Vec::new();
    checks.extend(data_dir(ctx));
    checks.push(hub(ctx)?);
    checks.extend(watch_limit(ctx));
    checks.push(search_mode(ctx));
    checks.extend(remote(ctx));
    let env = client_env()?;
    for c in Client::ALL {
        checks.extend(clients::client(c, &status(c, &env)));
    }
    let problems = checks.iter().filter(|c| c.status == "problem").count();
    if ctx.json {
        print_json(&json!({ "ok": problems == 0, "problems": problems, "checks": checks }));
    } else {
        for c in &checks {
            let mark = match c.status {
                "ok" => "ok  ",
                "info" => "    ",
                _ => "FIX ",
            };
            println!("{mark} {}", c.message);
            if let Some(fix) = &c.fix {
                println!("     → {fix}");
            }
        }
        match problems {
            0 => println!("Nothing to fix."),
            n => println!("{n} thing{} to fix.", if n == 1 { "" } else { "s" }),
        }
    }
    if problems > 0 {
        return Err(Failure::Quiet);
    }
    Ok(())
}

fn data_dir(ctx: &Ctx) -> Vec<Check> {
    let dir = &ctx.data_dir;
    let mut out = vec![info("data_dir", format!("data directory: {}", dir.display()))];
    if !dir.join(DB_FILE).is_file() {
        out.push(problem(
            "data_dir",
            format!("no Mooring database in {}", dir.display()),
            "start Mooring once (the tray app, or `mooring serve`), or pass the --data-dir it uses".into(),
        ));
        return out;
    }
    for (path, want) in [
        (dir.to_path_buf(), 0o700),
        (dir.join(DB_FILE), 0o600),
        (dir.join("token"), 0o600),
        (dir.join("secret"), 0o600),
        (dir.join(mooring_core::remote::config_file::FILE), 0o600),
    ] {
        if let Some(mode) = mode_of(&path)
            && mode & 0o077 != 0
        {
            out.push(problem(
                "permissions",
                format!("{} is readable by other users (mode {mode:o})", path.display()),
                format!("chmod {want:o} {}", path.display()),
            ));
        }
    }
    out
}

/// The phone: each bot, whether it is paired and reachable (as the hub last saw it).
fn remote(ctx: &Ctx) -> Vec<Check> {
    use mooring_core::remote::{Platform, RemoteConfig};
    let config = match RemoteConfig::load(&ctx.data_dir) {
        Ok(c) => c,
        Err(e) => {
            return vec![problem(
                "remote",
                e.message,
                "remove remote.json and `mooring remote add` again".into(),
            )];
        }
    };
    let health = mooring_server::remote::status::read(&ctx.data_dir);
    let mut out = Vec::new();
    for p in Platform::ALL {
        let Some(bot) = config.bot(p) else { continue };
        let name = format!("remote:{}", p.name());
        if bot.paired.is_none() {
            out.push(problem(
                &name,
                format!("the {} bot is not paired with a phone", p.name()),
                format!("`mooring remote pair {}` and send the bot the code it prints", p.name()),
            ));
            continue;
        }
        match health.get(p.name()) {
            Some(h) if !h.up => out.push(problem(
                &name,
                format!(
                    "the {} bot cannot reach its platform: {}",
                    p.name(),
                    h.error.as_deref().unwrap_or("no reason")
                ),
                "check the network, or the token with `mooring remote add` (a revoked token needs a new one)"
                    .into(),
            )),
            Some(_) => out.push(ok(
                &name,
                format!("{} bot paired and reachable{}", p.name(), if config.away { "; away" } else { "" }),
            )),
            None => out.push(info(&name, format!("{} bot paired; Mooring is not running it now", p.name()))),
        }
    }
    out
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).ok().map(|m| m.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

fn hub(ctx: &Ctx) -> Result<Check, Failure> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| {
        Failure::from(mooring_core::Error::storage(format!("cannot start the async runtime: {e}")))
    })?;
    let found = rt.block_on(async {
        if let Some(ep) = mooring_server::endpoint::running_in(&ctx.data_dir).await {
            return Ok(ep);
        }
        let base = "http://127.0.0.1:7423";
        Err(mooring_server::endpoint::install_at(base).await.map(|_| base))
    });
    Ok(match found {
        Ok(ep) if ep.version != env!("CARGO_PKG_VERSION") => problem(
            "hub",
            format!("the hub at {} is Mooring {}, this command is {}", ep.url, ep.version, env!("CARGO_PKG_VERSION")),
            "quit and start the tray app (or `mooring serve`) again so both are the same version".into(),
        ),
        Ok(ep) => ok(
            "hub",
            format!(
                "hub running: {} (pid {}) at {}, on this data directory",
                if ep.owner.is_empty() { "mooring serve" } else { &ep.owner },
                ep.pid,
                ep.url
            ),
        ),
        Err(Some(base)) => problem(
            "hub",
            format!("a Mooring hub answers at {base} but serves another data directory than {}", ctx.data_dir.display()),
            "run this command with the hub's --data-dir (or MOORING_HOME), or start one on this directory with `mooring serve`".into(),
        ),
        Err(None) => problem(
            "hub",
            "no Mooring hub is running on this data directory".into(),
            "start the tray app (mooring-desktop) or `mooring serve`; without it each agent serves itself and questions reach you only in the agent".into(),
        ),
    })
}

/// Which search is in use: hybrid with the model, or keyword only and why.
fn search_mode(ctx: &Ctx) -> Check {
    use mooring_core::search::semantic;
    use mooring_core::store::backend::MemoryUpkeep as _;
    // Mooring works without the model: keyword only is a mode to know about, not a fault.
    if let Some(why) = semantic::availability().why() {
        return info("search", format!("keyword only: {why}"));
    }
    let progress = ctx.store().ok().and_then(|s| s.vector_progress(None).ok().flatten());
    let indexed = match progress {
        Some(p) if p.waiting > 0 => format!(
            "; {} of {} entries indexed so far (the hub indexes the rest, or run `mooring memory index`)",
            p.stored,
            p.stored + p.waiting
        ),
        Some(p) => format!("; all {} entries indexed", p.stored),
        None => String::new(),
    };
    ok("search", format!("hybrid: shared words and meaning (model {}){indexed}", semantic::MODEL))
}

fn watch_limit(ctx: &Ctx) -> Option<Check> {
    let limit: usize =
        std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches").ok()?.trim().parse().ok()?;
    let store = ctx.store().ok()?;
    let paths = store.read(code_paths::all).ok()?;
    let need = mooring_core::projects::watch::plan::watch_dirs(
        paths.iter().map(|p| Path::new(&p.path)),
        Path::is_dir,
    )
    .len();
    // Editors and other tools share the same per-user table; leave them most of it.
    Some(if need * 4 > limit {
        problem(
            "watch_limit",
            format!(
                "{} code paths need {need} file watches; the system allows {limit} per user, shared with editors",
                paths.len()
            ),
            "sudo sysctl fs.inotify.max_user_watches=524288 (and add it to /etc/sysctl.d/ to keep it)".into(),
        )
    } else {
        ok(
            "watch_limit",
            format!("{} code paths need {need} file watches of the {limit} allowed", paths.len()),
        )
    })
}
