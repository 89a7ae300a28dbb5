//! Keep resident only the code a long-running server runs. The kernel maps a binary's
//! pages 64 KB around each one touched ("fault-around"), and start-up (argument
//! parsing, opening the store, the runtime) touches code the server never runs again:
//! for a 50 MB binary that left 14 MB of it resident before the first request and 21 MB
//! after a workload, against 8–9 MB the requests use. Once serving starts, the binary's
//! clean read-only mappings are marked random-access (no fault-around: a page comes in
//! when it is run) and their pages are let go (they stay in the system's file cache, so
//! bringing one back costs a minor fault, not a read).

/// Let the executable's clean, read-only pages go and load them one by one from now on.
/// A mapping holding any page of its own (relocated data: the kernel counts it as
/// anonymous) is left alone.
#[cfg(target_os = "linux")]
pub fn on_demand() {
    let (Ok(exe), Ok(smaps)) =
        (std::fs::read_link("/proc/self/exe"), std::fs::read_to_string("/proc/self/smaps"))
    else {
        return;
    };
    let exe = exe.to_string_lossy();
    for (start, end) in clean_read_only(&smaps, &exe) {
        // SAFETY: the range is one whole mapping of the executable's file, read-only and
        // without a page of its own (written), as the kernel reported a moment ago: dropping
        // its pages loses nothing, the next access maps them again from the file.
        unsafe {
            let at = start as *mut libc::c_void;
            libc::madvise(at, end - start, libc::MADV_RANDOM);
            libc::madvise(at, end - start, libc::MADV_DONTNEED);
        }
    }
}

/// Elsewhere the kernel's mappings are not read: nothing to do.
#[cfg(not(target_os = "linux"))]
pub fn on_demand() {}

/// The `(start, end)` of each mapping of `exe` in `smaps` that is not writable and has
/// no anonymous page (a file page the linker has just written counts as dirty but is
/// the file's, so "dirty" is not the test).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn clean_read_only(smaps: &str, exe: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut clean = false;
    let mut close = |current: &mut Option<(usize, usize)>, clean: bool| {
        if let Some(range) = current.take().filter(|_| clean) {
            found.push(range);
        }
    };
    for line in smaps.lines() {
        let mut fields = line.split_whitespace();
        let first = fields.next().unwrap_or("");
        if let Some((a, b)) = first.split_once('-').filter(|_| !first.ends_with(':')) {
            close(&mut current, clean);
            let perms = fields.next().unwrap_or("");
            let path = fields.nth(3).unwrap_or("");
            let range = usize::from_str_radix(a, 16).ok().zip(usize::from_str_radix(b, 16).ok());
            current = range.filter(|_| path == exe && perms.starts_with('r') && !perms.contains('w'));
            clean = true;
        } else if first == "Anonymous:" && fields.next() != Some("0") {
            clean = false;
        }
    }
    close(&mut current, clean);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
5600-5700 r--p 00000000 fe:00 12 /opt/mooring
Rss:                 64 kB
Private_Dirty:        0 kB
Anonymous:            0 kB
5700-5900 r-xp 00100000 fe:00 12 /opt/mooring
Private_Dirty:        0 kB
Anonymous:            0 kB
5900-5a00 r--p 00300000 fe:00 12 /opt/mooring
Private_Dirty:       32 kB
Anonymous:           32 kB
5980-59a0 r-xp 00380000 fe:00 12 /opt/mooring
Private_Dirty:       64 kB
Anonymous:            0 kB
5a00-5b00 rw-p 00400000 fe:00 12 /opt/mooring
Private_Dirty:        0 kB
7f00-7f10 r-xp 00000000 fe:00 40 /usr/lib/libc.so.6
Private_Dirty:        0 kB
";

    #[test]
    fn only_the_executables_clean_read_only_mappings_are_let_go() {
        // Relocated data (its own pages), writable data and other files' code stay as they are.
        assert_eq!(
            clean_read_only(SMAPS, "/opt/mooring"),
            vec![(0x5600, 0x5700), (0x5700, 0x5900), (0x5980, 0x59a0)]
        );
        assert!(clean_read_only(SMAPS, "/opt/other").is_empty());
    }
}
