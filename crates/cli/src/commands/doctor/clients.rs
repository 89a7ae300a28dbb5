//! `mooring doctor`'s lines for one agent client: whether it is set up, which binary it
//! starts, and what its hooks do.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use mooring_clients::{Client, Identity};
use serde_json::Value;

use super::{Check, info, ok, problem};
use crate::commands::setup::is_build_path;

/// The lines for client `c`, from its `setup --list` status `s`.
pub(super) fn client(c: Client, s: &Value) -> Vec<Check> {
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
            if s["claims"].as_bool() == Some(false) {
                out.push(info(
                    &name,
                    format!(
                        "{title}: its writes are not checked against other sessions' claims; `mooring setup {} --hooks` adds the check",
                        c.name()
                    ),
                ));
            }
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
