//! A capture for a client that writes its session file only as it exits, after its last
//! hook (GitHub Copilot CLI): the hook hands its input to a process of its own, which
//! waits for the file and then captures it as the hook would have.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::cli::HookArgs;

/// The longest a waiter waits for the client to write its session file.
const AFTER_EXIT: Duration = Duration::from_secs(120);
/// A session file left unchanged this long by a client that is still running is read.
const QUIET: Duration = Duration::from_secs(2);

/// Start `mooring hook CLIENT EVENT --after-exit` apart from the client (its own process
/// group, no output to the client), handing it this hook's input.
pub fn start(data_dir: &Path, args: &HookArgs, raw: &str) -> std::io::Result<()> {
    use std::os::unix::process::CommandExt as _;
    use std::process::{Command, Stdio};
    let mut command = Command::new(std::env::current_exe()?);
    command.arg("--data-dir").arg(data_dir).args(["hook", &args.client]);
    command.args(args.event.as_deref()).arg("--after-exit");
    command.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).process_group(0);
    let mut child = command.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(raw.as_bytes())?;
    }
    Ok(())
}

/// Wait, within [`AFTER_EXIT`], until the client has written its session file: no longer
/// pending, or left unchanged for [`QUIET`] while the client still runs.
pub fn wait_for(transcript: &Path, pending: fn(&Path) -> bool) {
    let started = std::time::Instant::now();
    let mut last: Option<(u64, std::time::Instant)> = None;
    while started.elapsed() < AFTER_EXIT && pending(transcript) {
        if let Ok(meta) = std::fs::metadata(transcript) {
            match last {
                Some((size, since)) if size == meta.len() => {
                    if since.elapsed() >= QUIET {
                        return;
                    }
                }
                _ => last = Some((meta.len(), std::time::Instant::now())),
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}
