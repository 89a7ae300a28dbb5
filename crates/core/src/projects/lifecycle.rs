//! Project lifecycle over time: projects unused for `auto_pause_days` are paused, and
//! using one again resumes it. Both leave an event.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use crate::error::{Error, Result};
use crate::humanize::format_ts;
use crate::store::{Store, events, projects, settings};

/// Settings Mooring understands, with their defaults and ranges.
pub const SETTINGS: &[(&str, u32, u32, u32, &str)] = &[
    ("auto_pause_days", 7, 0, 3650, "days without use before a project is paused (0: never)"),
    ("preamble_max_decisions", 20, 0, 200, "decisions in the context preamble"),
    ("preamble_max_blockers", 10, 0, 200, "open blockers in the context preamble"),
    ("preamble_max_summaries", 5, 0, 200, "summaries in the context preamble"),
    ("preamble_max_digests", 3, 0, 50, "weekly digests of folded sessions in the context preamble"),
    (
        "fold_after_days",
        14,
        0,
        3650,
        "days after a captured session's last turn before it folds into its week's digest (0: never)",
    ),
    ("pick_wait_seconds", 120, 5, 3600, "how long a call waits for a pick in the desktop's window"),
    (
        "away_hold_minutes",
        9,
        0,
        9,
        "away with a paired phone, how long a finished Claude Code turn waits for your next instruction (0: never)",
    ),
    (
        "away_when_idle_minutes",
        0,
        0,
        240,
        "with a paired phone, switch to away after the desktop is idle this long, and back at the desk on return (0: never)",
    ),
    ("port", 7423, 1024, 65535, "port of the MCP server from the next start (--port overrides it)"),
    ("capture", 1, 0, 1, "1 keeps a record of every agent session through the clients' hooks; 0 keeps none"),
    (
        "import_clients_memory",
        0,
        0,
        1,
        "1 has the hub bring the clients' own memory and instruction files of every project's checkouts in \
         every 5 minutes (as `mooring import`); 0 only when asked",
    ),
    (
        "recall",
        1,
        0,
        1,
        "1 hands the model, at each prompt, the few entries of memory the prompt is about; 0 never",
    ),
    (
        "rerank",
        0,
        0,
        1,
        "1 re-orders searches by a sentence encoder (90 MB, scripts/fetch-model.sh --reranker): \
         better top 5, about 20 ms a search, and about 40 ms of one core to encode each entry once; 0 never",
    ),
];

/// The port to serve on when none is given: the `port` setting.
pub fn port(store: &Store) -> Result<u16> {
    // The range check in SETTINGS keeps it within u16.
    Ok(u16::try_from(setting(store, "port")?).unwrap_or(7423))
}

/// A setting's value (its default when unset).
pub fn setting(store: &Store, key: &str) -> Result<u32> {
    let (_, default, ..) = SETTINGS
        .iter()
        .find(|s| s.0 == key)
        .ok_or_else(|| Error::invalid("key", format!("unknown setting '{key}'; known: {}", known())))?;
    store.read(|c| Ok(settings::get(c, key)?.and_then(|v| v.parse().ok()).unwrap_or(*default)))
}

/// Change a setting, checking its range.
pub fn set_setting(store: &Store, key: &str, value: &str) -> Result<u32> {
    let v = check_setting(key, value).map_err(|mut e| {
        // The CLI's argument is called `value`.
        if e.field.as_deref() == Some(key) {
            e.field = Some("value".into());
        }
        e
    })?;
    store.write(|tx| settings::set(tx, key, &v.to_string(), &crate::humanize::now()))?;
    Ok(v)
}

/// Change several settings at once: all are checked first, then written in one
/// transaction, so a bad value leaves every setting as it was.
pub fn set_settings(store: &Store, changes: &[(String, String)]) -> Result<()> {
    let checked = changes
        .iter()
        .map(|(k, v)| check_setting(k, v).map(|v| (k.as_str(), v)))
        .collect::<Result<Vec<_>>>()?;
    let now = crate::humanize::now();
    store.write(|tx| {
        for (k, v) in &checked {
            settings::set(tx, k, &v.to_string(), &now)?;
        }
        Ok(())
    })
}

/// A setting's value checked against its range; errors name the key.
pub fn check_setting(key: &str, value: &str) -> Result<u32> {
    let (_, _, min, max, _) = SETTINGS
        .iter()
        .find(|s| s.0 == key)
        .ok_or_else(|| Error::invalid("key", format!("unknown setting '{key}'; known: {}", known())))?;
    value
        .trim()
        .parse()
        .ok()
        .filter(|v| (*min..=*max).contains(v))
        .ok_or_else(|| Error::invalid(key, format!("{key} must be a whole number from {min} to {max}")))
}

fn known() -> String {
    SETTINGS.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
}

/// Pause active projects unused since `now - auto_pause_days`. Returns their slugs.
pub fn auto_pause(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>> {
    let days = setting(store, "auto_pause_days")?;
    if days == 0 {
        return Ok(Vec::new());
    }
    let cutoff = format_ts(now - Duration::days(i64::from(days)));
    let stamp = format_ts(now);
    store.write(|tx| {
        let stale = projects::idle_since(tx, &cutoff)?;
        for (id, slug) in &stale {
            projects::auto_pause(tx, *id, &stamp)?;
            events::record(tx, *id, slug, "auto_paused", &json!({ "days_unused": days }), &stamp)?;
        }
        Ok(stale.into_iter().map(|(_, s)| s).collect())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{NewEntry, remember};
    use crate::store::Cached as _;
    use crate::{NewProject, ProjectEdit, ProjectStatus, Registry};

    fn age(store: &Store, slug: &str, days: i64) {
        let old = format_ts(Utc::now() - Duration::days(days));
        store
            .write(|tx| {
                tx.exec(
                    "UPDATE projects SET last_used_at = ?1, created_at = ?1 WHERE slug = ?2",
                    [&old, slug],
                )?;
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn idle_projects_pause_and_use_resumes_them() {
        let store = Store::open_in_memory().unwrap();
        let reg = Registry::new(&store);
        for name in ["Idle", "Busy", "Manual"] {
            reg.create(NewProject { name: name.into(), ..Default::default() }).unwrap();
        }
        age(&store, "idle", 10);
        age(&store, "manual", 10);
        reg.edit("manual", ProjectEdit { status: Some(ProjectStatus::Paused), ..Default::default() })
            .unwrap();
        assert_eq!(auto_pause(&store, Utc::now()).unwrap(), ["idle"]);
        assert_eq!(reg.get("idle").unwrap().status, ProjectStatus::Paused);
        assert_eq!(reg.get("busy").unwrap().status, ProjectStatus::Active);

        let note = NewEntry { kind: "note".into(), content: "back".into(), ..Default::default() };
        remember(&store, "idle", &note, None).unwrap();
        assert_eq!(
            reg.get("idle").unwrap().status,
            ProjectStatus::Active,
            "use resumes an auto-paused project"
        );
        remember(&store, "manual", &note, None).unwrap();
        assert_eq!(reg.get("manual").unwrap().status, ProjectStatus::Paused, "a person's pause stays");
        let kinds: Vec<String> = reg.events("idle").unwrap().into_iter().map(|e| e.kind).collect();
        assert!(kinds.contains(&"auto_paused".into()) && kinds.contains(&"auto_resumed".into()), "{kinds:?}");
    }

    #[test]
    fn zero_days_turns_it_off_and_settings_are_checked() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Idle".into(), ..Default::default() }).unwrap();
        age(&store, "idle", 100);
        set_setting(&store, "auto_pause_days", "0").unwrap();
        assert!(auto_pause(&store, Utc::now()).unwrap().is_empty());
        assert_eq!(set_setting(&store, "auto_pause_days", "-1").unwrap_err().field.as_deref(), Some("value"));
        assert_eq!(set_setting(&store, "colour", "1").unwrap_err().field.as_deref(), Some("key"));
        assert_eq!(setting(&store, "preamble_max_decisions").unwrap(), 20);
    }
}
