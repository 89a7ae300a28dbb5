//! Whether an agent client's process still runs: what ends a live session the moment its
//! client is killed, before any quiet period.

/// Whether process `pid` still runs (where this system can tell; elsewhere only the
/// quiet period ends a silent session). A process killed but not yet reaped by its parent
/// (a zombie) runs no more.
pub(crate) fn running(pid: Option<i64>) -> bool {
    match pid {
        #[cfg(target_os = "linux")]
        Some(pid) => match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // The state follows the name's closing parenthesis (the name may hold one).
            Ok(stat) => stat.rsplit_once(") ").is_none_or(|(_, rest)| !rest.starts_with('Z')),
            Err(_) => false,
        },
        _ => true,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn a_process_runs_until_it_is_gone_or_killed_and_not_yet_reaped() {
        assert!(super::running(Some(i64::from(std::process::id()))));
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let pid = Some(i64::from(child.id()));
        assert!(super::running(pid));
        child.kill().unwrap();
        // Killed, not yet waited for: a zombie, which runs no more.
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!super::running(pid), "a killed client not yet reaped");
        child.wait().unwrap();
        assert!(!super::running(pid));
        assert!(super::running(None), "no process known: only the quiet period tells");
    }
}
