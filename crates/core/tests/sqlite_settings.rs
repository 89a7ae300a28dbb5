//! SQLite's process-wide settings take hold when the store is the first to open a
//! connection (its own process here: a test binary's other tests would race it).

use mooring_core::{NewProject, Registry, Store};

#[test]
fn the_store_turns_off_sqlites_memory_statistics_and_its_global_lock() {
    let store = Store::open_in_memory().unwrap();
    Registry::new(&store).create(NewProject { name: "A".into(), ..NewProject::default() }).unwrap();
    // SAFETY: a plain read of SQLite's counters.
    let used = unsafe { rusqlite::ffi::sqlite3_memory_used() };
    assert_eq!(used, 0, "with statistics on, SQLite counts (and locks) every allocation");
}
