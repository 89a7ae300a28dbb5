//! `mooring setup CLIENT`: register Mooring with an agent client, in that client's own
//! file and format, so its sessions start `mooring stdio` from an installed binary.

use std::path::{Path, PathBuf};

use mooring_clients::{Action, Client, ConfigError, Env, FileEdit, Scope, ShimSpec, apply};
use mooring_core::{Error, paths, store::datadir};
use serde_json::{Value, json};

use super::Ctx;
use crate::cli::SetupArgs;
use crate::output::{Failure, print_json};

/// Dispatch `setup`.
pub fn run(ctx: &Ctx, args: SetupArgs) -> Result<(), Failure> {
    let env = client_env()?;
    if args.list {
        return list(ctx, &env);
    }
    let client = parse_client(args.client.as_deref().unwrap_or_default())?;
    let scope = match &args.project {
        Some(dir) => {
            Scope::Project(PathBuf::from(paths::normalize("project", dir, Some(&ctx.cwd))?.as_str()))
        }
        None => Scope::User,
    };
    let action = if args.remove { Action::Remove } else { Action::Install };
    // A client without MCP servers (Pi) has only hooks to set up.
    let want_hooks = args.hooks || !client.has_mcp();
    let spec =
        ShimSpec { binary: installed_binary(args.binary.as_deref(), action)?, data_dir: entry_data_dir(ctx) };
    let mut changes = Vec::new();
    let mut notes = Vec::new();
    let file = if client.has_mcp() {
        let file = match &args.config {
            Some(f) => ctx.cwd.join(f),
            None => client.config_file(&env, &scope).map_err(|u| Failure::usage("client", u.0))?,
        };
        changes.push((
            "server",
            mooring_clients::server_change(client, &scope, &spec, &file, action).map_err(config_failure)?,
        ));
        Some(file)
    } else {
        None
    };
    // `--remove` also takes out a hook installed earlier; install adds one only on request.
    if want_hooks || args.remove {
        match client.hooks_file(&env, &scope) {
            Some(hooks) if Some(&hooks) == file.as_ref() => {
                // One file holds both (Gemini CLI): the hook goes on top of the entry.
                let merged = mooring_clients::hook_change_after(client, &spec, &changes[0].1, action)
                    .map_err(config_failure)?;
                changes[0] = ("server and hook", merged);
            }
            Some(hooks) => {
                // One change, or one per script for a client whose hooks are scripts.
                for change in
                    mooring_clients::hook_changes(client, &spec, &hooks, action).map_err(config_failure)?
                {
                    if want_hooks || !change.is_noop() {
                        changes.push(("hook", change));
                    }
                }
            }
            None if want_hooks => notes
                .push(format!("{} has no session hooks; only the server entry is written.", client.title())),
            None => {}
        }
    }
    if args.dry_run {
        return dry_run(ctx, client, &changes);
    }
    let mut written = Vec::new();
    for (what, change) in &changes {
        if change.is_noop() {
            continue;
        }
        let backup = apply::write(change).map_err(config_failure)?;
        written.push(json!({ "what": what, "file": change.file, "backup": backup }));
    }
    if action == Action::Install {
        if client.has_mcp() {
            notes.push(client.identity_note());
        } else {
            notes.push(format!("{} has no MCP servers, so Mooring's tools are not offered there; its extension hands each session its project's context (the directory you run it from decides the project).", client.title()));
        }
        if let Some(note) = client.dialect().and_then(|d| d.setup_note).filter(|_| want_hooks) {
            notes.push(note.into());
        }
        if client == Client::ClaudeCode && matches!(scope, Scope::Project(_)) {
            notes.push("Claude Code asks once before it uses servers from a project's .mcp.json; approve \"mooring\" there.".into());
        }
        let captures = captures(client);
        if want_hooks && !captures && client.has_hooks() {
            notes.push(format!(
                "{} sessions get the project's context at their start{}; they are not captured into memory yet (Mooring does not capture {}'s sessions yet).",
                client.title(),
                if mooring_clients::entry::capture_paths(client).is_empty() { "" } else { " and, at each prompt, the few entries of memory it is about" },
                client.title()
            ));
        }
        if want_hooks && captures {
            let recall = if recalls(client) {
                ", and each prompt gets the few entries of memory it is about; turn these off with `mooring capture off [--project SLUG]` / `mooring config recall 0`"
            } else {
                "; turn this off with `mooring capture off [--project SLUG]`"
            };
            notes.push(format!(
                "{} sessions are now captured into their project's memory at every turn (no model, secrets taken out){recall}, or for one session with MOORING_CAPTURE=off.",
                client.title()
            ));
        }
    }
    report(ctx, client, &scope, action, &spec, &changes, &written, &notes);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn report(
    ctx: &Ctx,
    client: Client,
    scope: &Scope,
    action: Action,
    spec: &ShimSpec,
    changes: &[(&str, FileEdit)],
    written: &[Value],
    notes: &[String],
) {
    if ctx.json {
        print_json(&json!({
            "client": client.name(),
            "action": if action == Action::Install { "install" } else { "remove" },
            "binary": spec.binary,
            "files": changes.iter().map(|(what, c)| json!({ "what": what, "file": c.file, "changed": !c.is_noop() })).collect::<Vec<_>>(),
            "written": written,
            "notes": notes,
        }));
        return;
    }
    for (what, change) in changes {
        let file = change.file.display();
        let verb = match (action, change.is_noop()) {
            (Action::Install, true) => "already up to date in",
            (Action::Install, false) => "written to",
            (Action::Remove, true) => "not present in",
            (Action::Remove, false) => "removed from",
        };
        let plugin = client.dialect().is_some_and(|d| d.plugin.is_some());
        let name = match (*what, plugin) {
            ("server", _) => "Mooring's MCP server entry",
            (_, true) if !client.has_mcp() => "Mooring's extension",
            (_, true) => "Mooring's plugin",
            _ => "Mooring's session hooks",
        };
        println!("{}: {name} {verb} {file}", client.title());
    }
    for w in written {
        if let Some(b) = w["backup"].as_str() {
            println!("  previous version kept in {b}");
        }
    }
    if action == Action::Install && client.has_mcp() {
        println!(
            "  starts: {} {}",
            spec.binary.display(),
            mooring_clients::entry::shim_args(client, scope).join(" ")
        );
    }
    for n in notes {
        println!("  {n}");
    }
    if action == Action::Install && !written.is_empty() {
        println!("  Start a new {} session to pick it up.", client.title());
    }
}

fn dry_run(ctx: &Ctx, client: Client, changes: &[(&str, FileEdit)]) -> Result<(), Failure> {
    if ctx.json {
        print_json(&json!({
            "client": client.name(),
            "dry_run": true,
            "changes": changes.iter().map(|(what, c)| json!({ "what": what, "file": c.file, "changed": !c.is_noop(), "diff": c.diff() })).collect::<Vec<_>>(),
        }));
        return Ok(());
    }
    for (_, change) in changes {
        if change.is_noop() {
            println!("{}: no change", change.file.display());
        } else {
            print!("{}", change.diff());
        }
    }
    println!("(dry run: nothing written)");
    Ok(())
}

/// `setup --list`.
fn list(ctx: &Ctx, env: &Env) -> Result<(), Failure> {
    let rows: Vec<Value> = Client::ALL.iter().map(|c| status(*c, env)).collect();
    if ctx.json {
        print_json(&json!({ "clients": rows }));
        return Ok(());
    }
    println!("{:<15} {:<6} {:<14} {:<16} CONFIG", "CLIENT", "FOUND", "MOORING", "WITH --hooks");
    for r in &rows {
        let found = if r["detected"].as_bool() == Some(true) { "yes" } else { "-" };
        let mooring = match (r["configured"].as_bool(), r["error"].is_string(), r["hooks"].as_bool()) {
            (_, true, _) => "unreadable",
            (Some(true), _, Some(true)) => "set up, hooks",
            (Some(true), _, _) => "set up",
            (_, _, Some(true)) => "hooks",
            _ => "-",
        };
        let on = |key: &str| r[key].as_bool() == Some(true);
        let memory = match (on("capture"), on("recall"), on("context")) {
            (true, true, _) => "capture, recall",
            (true, false, true) => "capture, context",
            (true, false, false) => "capture",
            (false, _, true) => "context",
            (false, _, false) => "tools only",
        };
        println!(
            "{:<15} {:<6} {:<14} {:<16} {}",
            r["client"].as_str().unwrap_or(""),
            found,
            mooring,
            memory,
            r["config"].as_str().unwrap_or("(none here)")
        );
    }
    Ok(())
}

/// One client's state on this machine, as `--list` and `doctor` show it.
pub fn status(client: Client, env: &Env) -> Value {
    let detected = client.traces(env).iter().any(|p| p.exists())
        || client.command().is_some_and(|c| on_path(c).is_some());
    let file = client.config_file(env, &Scope::User).ok();
    let (entry, error) = match &file {
        Some(f) => match mooring_clients::configured_entry(client, f) {
            Ok(e) => (e, None),
            Err(e) => (None, Some(e.to_string())),
        },
        None => (None, None),
    };
    let hooks_file = client.hooks_file(env, &Scope::User);
    let hook =
        hooks_file.as_ref().map(|f| mooring_clients::hook_installed(client, f).ok().flatten().is_some());
    let claims = hooks_file.as_ref().and_then(|f| mooring_clients::claims_checked(client, f));
    json!({
        "client": client.name(),
        "title": client.title(),
        "detected": detected,
        "config": file,
        "configured": entry.is_some(),
        "entry": entry,
        "hooks": hook,
        // Whether its hooks check a write against other sessions' claims before it runs.
        "claims": claims,
        // What its hooks do once installed: the project's context at a session's start;
        // with capture, each session kept and recalled at each prompt.
        "context": client.dialect().is_some_and(|d| d.hands_context),
        "recall": recalls(client),
        "capture": captures(client),
        "error": error,
    })
}

/// Whether `client`'s hooks keep its sessions in memory.
fn captures(client: Client) -> bool {
    client.hook_abilities().captures && mooring_core::capture::reads(client)
}

/// Whether `client`'s prompts get a recall from its hooks.
fn recalls(client: Client) -> bool {
    captures(client) && client.dialect().is_some_and(|d| d.recalls())
}

/// The first executable `name` on `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// The locations clients use, for this person.
pub fn client_env() -> Result<Env, Failure> {
    let home = dirs::home_dir()
        .ok_or_else(|| Error::invalid("home", "no home directory is known; set HOME".to_owned()))?;
    Ok(Env::from_process(home))
}

fn parse_client(name: &str) -> Result<Client, Failure> {
    Client::parse(name).ok_or_else(|| {
        let all: Vec<_> = Client::ALL.iter().map(|c| c.name()).collect();
        Failure::usage("client", format!("unknown client \"{}\"; use one of {}", name, all.join(", ")))
    })
}

/// The data directory to write into entries: only when it is not the default one.
pub fn entry_data_dir(ctx: &Ctx) -> Option<PathBuf> {
    (datadir::platform_default().as_deref() != Some(ctx.data_dir.as_path())).then(|| ctx.data_dir.clone())
}

/// Whether a path is inside a cargo build directory (`…/target/debug/…`).
pub fn is_build_path(p: &Path) -> bool {
    let parts: Vec<_> = p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    parts.windows(2).any(|w| w[0] == "target" && matches!(w[1].as_str(), "debug" | "release"))
}

/// The installed `mooring` the client should start: `--binary`, else this one unless it
/// runs from a build directory, else the first on `PATH` outside one.
pub fn installed_binary(explicit: Option<&Path>, action: Action) -> Result<PathBuf, Failure> {
    if let Some(b) = explicit {
        let abs = std::fs::canonicalize(b).map_err(|e| {
            Failure::usage(
                "binary",
                format!("{} cannot be used ({e}); give the path of an installed mooring", b.display()),
            )
        })?;
        if !is_executable(&abs) {
            return Err(Failure::usage("binary", format!("{} is not an executable file", abs.display())));
        }
        return Ok(abs);
    }
    let me = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    if let Some(me) = me.as_ref().filter(|m| !is_build_path(m)) {
        return Ok(me.clone());
    }
    if let Some(found) =
        on_path("mooring").and_then(|p| std::fs::canonicalize(p).ok()).filter(|p| !is_build_path(p))
    {
        return Ok(found);
    }
    // Removing needs no binary: entries are found by name.
    if action == Action::Remove {
        return Ok(me.unwrap_or_else(|| PathBuf::from("mooring")));
    }
    Err(Failure::usage(
        "binary",
        format!(
            "this mooring runs from a build directory ({}), which `cargo build` replaces; install it first with scripts/start.sh (it goes to ~/.local/bin), or pass --binary PATH",
            me.map(|m| m.display().to_string()).unwrap_or_default()
        ),
    ))
}

fn config_failure(e: ConfigError) -> Failure {
    let field = match e {
        ConfigError::Unsupported(_) => "client",
        _ => "config",
    };
    Failure::from(Error::invalid(field, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_directories_are_recognised() {
        assert!(is_build_path(Path::new("/work/main/target/debug/mooring")));
        assert!(is_build_path(Path::new("/x/target/release/deps/mooring")));
        assert!(!is_build_path(Path::new("/home/me/.local/bin/mooring")));
        assert!(!is_build_path(Path::new("/srv/target/mooring")));
    }
}
