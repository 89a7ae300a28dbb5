//! SQLite's memory allocator: the C library's `malloc`, with a reallocation that grows a
//! block by half again rather than to the byte asked for. FTS5 walks a doclist backwards
//! by listing a page's row offsets in an array it grows eight entries at a time, one
//! `realloc` each: at 100,000 entries that was a tenth of a write's duplicate check (and
//! of an any-word search), most of it the C library moving and splitting blocks. Grown
//! by half, the same walk reallocates a handful of times per page.

use std::ffi::{c_int, c_void};

/// Bytes before each block holding its usable size, as SQLite's own default allocator
/// keeps it: 8, so blocks stay 8-byte aligned as SQLite requires.
const HEADER: usize = 8;

/// The allocator SQLite is given (`SQLITE_CONFIG_MALLOC` copies it).
pub(super) fn methods() -> rusqlite::ffi::sqlite3_mem_methods {
    rusqlite::ffi::sqlite3_mem_methods {
        xMalloc: Some(x_malloc),
        xFree: Some(x_free),
        xRealloc: Some(x_realloc),
        xSize: Some(x_size),
        xRoundup: Some(x_roundup),
        xInit: Some(x_init),
        xShutdown: Some(x_shutdown),
        pAppData: std::ptr::null_mut(),
    }
}

/// A block of `size` usable bytes (rounded up to 8), or null.
fn allocate(size: usize) -> *mut c_void {
    let size = round_up(size);
    // SAFETY: `malloc` with a non-zero size; its result is checked before use.
    let base = unsafe { libc::malloc(size + HEADER) }.cast::<u64>();
    if base.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: `base` is a fresh block of at least HEADER bytes, aligned for a u64 (malloc
    // aligns for every fundamental type); the caller's bytes start after the header.
    unsafe {
        base.write(size as u64);
        base.add(1).cast()
    }
}

fn round_up(n: usize) -> usize {
    n.saturating_add(7) & !7
}

/// # Safety
/// SQLite calls it as `xMalloc`.
unsafe extern "C" fn x_malloc(n: c_int) -> *mut c_void {
    allocate(usize::try_from(n).unwrap_or(0).max(1))
}

/// # Safety
/// `p` is null or a block this allocator returned and has not freed.
unsafe extern "C" fn x_free(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: `p` came from `allocate`, so its header starts 8 bytes before it and the
        // whole is one `malloc` block.
        unsafe { libc::free(p.cast::<u64>().sub(1).cast()) }
    }
}

/// # Safety
/// `p` is null or a block this allocator returned and has not freed.
unsafe extern "C" fn x_size(p: *mut c_void) -> c_int {
    if p.is_null() {
        return 0;
    }
    // SAFETY: `p` came from `allocate`: its header holds its usable size.
    let size = unsafe { p.cast::<u64>().sub(1).read() };
    c_int::try_from(size).unwrap_or(c_int::MAX)
}

/// # Safety
/// `p` is a block this allocator returned and has not freed (SQLite never passes null
/// here); on success the old pointer is no longer to be used unless it is returned.
unsafe extern "C" fn x_realloc(p: *mut c_void, n: c_int) -> *mut c_void {
    let n = usize::try_from(n).unwrap_or(0).max(1);
    // SAFETY: as `x_size`.
    let held = usize::try_from(unsafe { x_size(p) }).unwrap_or(0);
    if n <= held {
        return p;
    }
    // Half again, so a block grown a little at a time moves rarely (the headroom never
    // past what SQLite counts in an int; `n` itself always fits).
    let size = round_up(n).max(round_up(held.saturating_add(held / 2)).min(c_int::MAX as usize & !7));
    // SAFETY: `p`'s base is a live `malloc` block (see `x_free`); `realloc` keeps its
    // contents and its header, or returns null and leaves it as it was.
    let base = unsafe { libc::realloc(p.cast::<u64>().sub(1).cast(), size + HEADER) }.cast::<u64>();
    if base.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: as in `allocate`.
    unsafe {
        base.write(size as u64);
        base.add(1).cast()
    }
}

/// # Safety
/// None: SQLite calls it as `xRoundup`.
unsafe extern "C" fn x_roundup(n: c_int) -> c_int {
    c_int::try_from(round_up(usize::try_from(n).unwrap_or(0))).unwrap_or(c_int::MAX & !7)
}

/// # Safety
/// None: SQLite calls it as `xInit`.
unsafe extern "C" fn x_init(_: *mut c_void) -> c_int {
    rusqlite::ffi::SQLITE_OK
}

/// # Safety
/// None: SQLite calls it as `xShutdown`.
unsafe extern "C" fn x_shutdown(_: *mut c_void) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_grown_a_little_at_a_time_keeps_its_bytes_and_moves_rarely() {
        // SAFETY: the allocator's own functions on its own blocks, as SQLite calls them.
        unsafe {
            let mut p = x_malloc(32).cast::<u8>();
            assert!(!p.is_null());
            assert_eq!(x_size(p.cast()), 32);
            for i in 0..32 {
                p.add(i).write(i as u8);
            }
            let mut grown = 0;
            for n in (64..4_096).step_by(32) {
                let held = x_size(p.cast());
                p = x_realloc(p.cast(), n).cast::<u8>();
                assert!(!p.is_null());
                assert!(x_size(p.cast()) >= n, "{n}");
                grown += usize::from(x_size(p.cast()) != held);
            }
            for i in 0..32 {
                assert_eq!(p.add(i).read(), i as u8, "byte {i} kept");
            }
            // 126 growths of 32 bytes: by half again, about a dozen reallocations.
            assert!(grown <= 12, "{grown} reallocations");
            assert_eq!(x_roundup(13), 16);
            x_free(p.cast());
            x_free(std::ptr::null_mut());
        }
    }
}
