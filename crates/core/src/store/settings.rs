//! The `settings` key/value table: preferences that persist across restarts.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;

/// Key of the focus project (resolution level 7), stored as a slug.
pub const FOCUS_PROJECT: &str = "focus_project";

/// Read a setting.
pub fn get(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn.row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional()?)
}

/// Write a setting.
pub fn set(conn: &Connection, key: &str, value: &str, now: &str) -> Result<()> {
    conn.exec(
        "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        params![key, value, now],
    )?;
    Ok(())
}

/// Remove a setting; returns whether it was set.
pub fn clear(conn: &Connection, key: &str) -> Result<bool> {
    Ok(conn.exec("DELETE FROM settings WHERE key = ?1", [key])? > 0)
}
