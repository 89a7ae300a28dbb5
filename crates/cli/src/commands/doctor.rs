//! `mooring doctor`: checks the hub, the data directory, the watch limit and every agent
//! client found here, and says for each problem how to fix it. Exit 1 when something
//! needs fixing.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use mooring_clients::{Client, Identity};
use mooring_core::store::{DB_FILE, code_paths};
use serde::Serialize;
use serde_json::{Value, json};

use super::Ctx;
use super::setup::{client_env, is_build_path, status};
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
        checks.extend(client(c, &status(c, &env)));
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

fn client(c: Client, s: &Value) -> Vec<Check> {
    let name = format!("client:{}", c.name());
    let title = c.title();
    if s["detected"].as_bool() != Some(true) && s["configured"].as_bool() != Some(true) {
        return vec![];
    }
    if let Some(e) = s["error"].as_str() {
        return vec![problem(
            &name,
            format!("{title}: its config cannot be read: {e}"),
            "fix the file, then `mooring setup ".to_owned() + c.name() + "`",
        )];
    }
    if !c.has_mcp() {
        // Its hooks are all Mooring has there (Pi): no entry, no tools.
        return vec![match s["hooks"].as_bool() {
            Some(true) => ok(
                &name,
                format!(
                    "{title}: Mooring's extension installed (each session gets the project's context with its first prompt and is kept in memory; {title} has no MCP, so no tools)"
                ),
            ),
            _ => problem(
                &name,
                format!("{title} is here but Mooring's extension is not installed"),
                format!("mooring setup {}", c.name()),
            ),
        }];
    }
    let Some(entry) = s["entry"].as_object() else {
        return vec![problem(
            &name,
            format!("{title} is here but Mooring is not set up in it"),
            format!("mooring setup {}", c.name()),
        )];
    };
    let mut out = Vec::new();
    let http = ["url", "httpUrl", "serverUrl"].iter().find_map(|k| entry.get(*k).and_then(Value::as_str));
    if let Some(url) = http {
        out.push(problem(
            &name,
            format!("{title} reaches Mooring over HTTP ({url}): it sends no working directory, so with several projects each session asks you or takes the focus project"),
            format!("mooring setup {} (registers the stdio shim, which knows the directory)", c.name()),
        ));
        return out;
    }
    // A command line as one string, or (opencode) as an array whose first item it is.
    let command = match entry.get("command") {
        Some(Value::Array(argv)) => argv.first().and_then(Value::as_str).unwrap_or(""),
        other => other.and_then(Value::as_str).unwrap_or(""),
    };
    let binary = Path::new(command);
    if !binary.is_absolute() || !binary.is_file() {
        out.push(problem(
            &name,
            format!("{title} starts {command:?}, which does not exist"),
            format!("mooring setup {}", c.name()),
        ));
    } else if is_build_path(binary) {
        out.push(problem(
            &name,
            format!("{title} starts {command}, a build directory that the next `cargo build` replaces"),
            format!("install with scripts/start.sh, then mooring setup {}", c.name()),
        ));
    } else {
        match version_of(binary) {
            Some(v) if v == env!("CARGO_PKG_VERSION") => {
                let how = match c.identity() {
                    Identity::None => {
                        "stdio; it tells Mooring no folder, so the focus project decides or you are asked"
                    }
                    Identity::WorkspaceVariable(_) => "stdio, with the open folder as --workspace-id",
                    _ => "stdio from the session's directory, which decides the project",
                };
                out.push(ok(&name, format!("{title}: starts {command} ({how})")));
            }
            v => out.push(problem(
                &name,
                format!(
                    "{title} starts {command}, which is Mooring {} (this is {})",
                    v.as_deref().unwrap_or("of unknown version"),
                    env!("CARGO_PKG_VERSION")
                ),
                format!("mooring setup {} (points it at this installation)", c.name()),
            )),
        }
    }
    match s["hooks"].as_bool() {
        Some(true) => {
            // A client whose start hook may not run hands the context over at the first prompt.
            let when = if c.dialect().is_some_and(|d| !d.hands_context) {
                "each session is kept from its hooks; they cannot hand it the project's context, its MCP tools can"
            } else if c.dialect().is_some_and(|d| d.context_at_first_tool) {
                "each session gets the project's context with its first tool call"
            } else if c.dialect().is_some_and(|d| d.start_may_not_fire) {
                "each session gets the project's context with its first prompt"
            } else {
                "each session starts with the project's context"
            };
            out.push(ok(&name, format!("{title}: session hooks installed ({when})")));
        }
        Some(false) => {
            let gives = if c.dialect().is_some_and(|d| d.hands_context) {
                "hands each session the project's context"
            } else {
                "keeps each session in the project's memory"
            };
            out.push(info(
                &name,
                format!("{title}: no session hook; `mooring setup {} --hooks` {gives}", c.name()),
            ));
        }
        None => {}
    }
    out
}

/// `mooring --version` of another binary (2 s at most).
fn version_of(binary: &Path) -> Option<String> {
    let mut child = Command::new(binary)
        .arg("--version")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    loop {
        if child.try_wait().ok()?.is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().ok()?;
    String::from_utf8(out.stdout).ok()?.split_whitespace().nth(1).map(str::to_owned)
}
