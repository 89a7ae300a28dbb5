//! `mooring hook CLIENT`: what a client's session-start hook runs. It reads the hook's
//! JSON on stdin, resolves the project of the session's directory and prints the context
//! preamble in the client's hook format. It never fails the client's start: outside a
//! project it prints nothing, and any error or a slow answer (over [`DEADLINE`]) leaves
//! empty output, exit 0, and a line in `hook.log` in the data directory.

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use mooring_clients::Client;
use mooring_clients::entry::hook_output;
use mooring_core::preamble::{self, Caps};
use serde_json::Value;

use super::Ctx;
use super::memory::project_of_dir;
use crate::cli::HookArgs;
use crate::output::Failure;

/// The longest a hook may take; clients wait for it before the session starts.
const DEADLINE: Duration = Duration::from_millis(180);
/// Tokens of preamble a hook hands over (the output is cut to the client's limit too).
const BUDGET: usize = 2_000;
/// The most of stdin read: hook inputs are small JSON objects.
const MAX_INPUT: u64 = 1024 * 1024;
/// `hook.log` is started afresh past this size.
const MAX_LOG: u64 = 256 * 1024;

/// Run the hook; always succeeds.
pub fn run(ctx: &Ctx, args: HookArgs) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let Some(client) = Client::parse(&args.client).filter(|c| c.has_hooks()) else {
        log(ctx, &format!("unknown hook client \"{}\"", args.client));
        return Ok(());
    };
    let (tx, rx) = mpsc::channel();
    let data_dir = ctx.data_dir.clone();
    let base = ctx.cwd.clone();
    // The work runs on its own thread so a stuck disk or a huge database cannot hold the
    // client's start past the deadline: the process exits and takes the thread with it.
    std::thread::spawn(move || {
        let ctx = Ctx::at(data_dir, false, base);
        let _ = tx.send(answer(&ctx, client));
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(Ok(Some(out))) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush());
        }
        Ok(Ok(None)) => {}
        Ok(Err(why)) => log(ctx, &format!("{client}: {why}")),
        Err(_) => log(
            ctx,
            &format!("{client}: no answer within {} ms; printed nothing", started.elapsed().as_millis()),
        ),
    }
    Ok(())
}

/// The hook's output, None outside a project.
fn answer(ctx: &Ctx, client: Client) -> Result<Option<String>, String> {
    let mut input = String::new();
    let _ = std::io::stdin().lock().take(MAX_INPUT).read_to_string(&mut input);
    let dir = session_dir(&input).unwrap_or_else(|| ctx.cwd.display().to_string());
    if !ctx.data_dir.join(mooring_core::store::DB_FILE).exists() {
        return Ok(None);
    }
    // The client shows a hook's stderr as if something failed: a stale list goes to the log.
    ctx.quiet.set(true);
    let (store, memory) = ctx.memory().map_err(|e| describe(&e))?;
    if let Some(note) = ctx.stale_note() {
        log(ctx, &format!("{client}: {note}"));
    }
    let Some(slug) = project_of_dir(&store, &dir, ctx, false).map_err(|e| describe(&e))? else {
        return Ok(None);
    };
    let caps = Caps::load(&store).map_err(|e| e.message.clone())?;
    let p = preamble::build(&store, &memory, &slug, Some(BUDGET), caps).map_err(|e| e.message.clone())?;
    Ok(Some(hook_output(client, &p.text)))
}

/// The session's directory from the hook input: `cwd` (Claude Code, Codex, Gemini CLI)
/// or the first of `workspace_roots` (Cursor).
fn session_dir(input: &str) -> Option<String> {
    let v: Value = serde_json::from_str(input).ok()?;
    let dir = v.get("cwd").and_then(Value::as_str).or_else(|| v.get("workspace_roots")?.get(0)?.as_str())?;
    (!dir.trim().is_empty()).then(|| dir.to_owned())
}

fn describe(f: &Failure) -> String {
    match f {
        Failure::Domain(e) => e.message.clone(),
        Failure::Usage { message, .. } => message.clone(),
        Failure::Quiet => String::new(),
    }
}

/// One line in `hook.log` (never on stdout, which the client reads).
fn log(ctx: &Ctx, line: &str) {
    let file = ctx.data_dir.join("hook.log");
    if std::fs::metadata(&file).is_ok_and(|m| m.len() > MAX_LOG) {
        let _ = std::fs::remove_file(&file);
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    if let Ok(mut f) = opts.open(&file) {
        let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ");
        let _ = writeln!(f, "{now} {}", mooring_server::logging::scrub(line));
    }
    tracing::debug!("{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_directory_comes_from_cwd_or_cursors_roots() {
        assert_eq!(session_dir(r#"{"cwd":"/w/le","session_id":"x"}"#).as_deref(), Some("/w/le"));
        assert_eq!(session_dir(r#"{"workspace_roots":["/w/a","/w/b"]}"#).as_deref(), Some("/w/a"));
        assert_eq!(session_dir("not json"), None);
        assert_eq!(session_dir(r#"{"cwd":""}"#), None);
    }
}
