//! Project lifecycle over time: projects unused for `auto_pause_days` are paused, and
//! using one again resumes it. Both leave an event.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use crate::error::Result;
use crate::humanize::format_ts;
use crate::settings::Setting;
use crate::store::{Store, events, projects};

/// The port to serve on when none is given: the `port` setting.
pub fn port(store: &Store) -> Result<u16> {
    // The setting's range keeps it within u16.
    let port = Setting::Port.get(store)?;
    Ok(u16::try_from(port).unwrap_or(Setting::Port.spec().default as u16))
}

/// Pause active projects unused since `now - auto_pause_days`. Returns their slugs.
pub fn auto_pause(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>> {
    let days = Setting::AutoPauseDays.get(store)?;
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
        Setting::AutoPauseDays.set(&store, "0").unwrap();
        assert!(auto_pause(&store, Utc::now()).unwrap().is_empty());
        assert_eq!(Setting::AutoPauseDays.set(&store, "-1").unwrap_err().field.as_deref(), Some("value"));
        assert_eq!(Setting::parse("colour").unwrap_err().field.as_deref(), Some("key"));
        assert_eq!(Setting::PreambleMaxDecisions.get(&store).unwrap(), 20);
    }
}
