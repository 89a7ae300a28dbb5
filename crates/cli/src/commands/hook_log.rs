//! `hook.log` in the data directory: what a hook could not do, where the person can read
//! it (a hook's stdout is the client's, and its stderr looks to the client like a failure).

use std::io::Write;

use super::Ctx;

/// `hook.log` is started afresh past this size.
const MAX_LOG: u64 = 256 * 1024;

/// One line in `hook.log` (never on stdout, which the client reads).
pub(super) fn log(ctx: &Ctx, line: &str) {
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
