//! The registry's day-to-day side: the focus project, use, and the audit log.

use chrono::{TimeDelta, Utc};
use serde_json::json;

use super::{Registry, find};
use crate::error::{Error, Result};
use crate::humanize::{format_ts, now};
use crate::model::{Event, Project, ProjectStatus};
use crate::store::projects::find_row;
use crate::store::{events, projects, settings};

impl Registry<'_> {
    /// The focus project (resolution level 7), if set and still present.
    pub fn focus(&self) -> Result<Option<Project>> {
        self.store.read(|c| match settings::get(c, settings::FOCUS_PROJECT)? {
            Some(slug) => projects::by_slug(c, &slug),
            None => Ok(None),
        })
    }

    /// Make a project the focus project; archived projects cannot be.
    pub fn set_focus(&self, slug: &str) -> Result<Project> {
        self.store.write(|tx| {
            let project = find(tx, "project", slug)?;
            if project.status == ProjectStatus::Archived {
                return Err(Error::invalid(
                    "project",
                    format!("'{}' is archived; resume it before making it the focus project", project.slug),
                ));
            }
            let stamp = now();
            settings::set(tx, settings::FOCUS_PROJECT, &project.slug, &stamp)?;
            events::record(tx, project.id, &project.slug, "focus_set", &json!({}), &stamp)?;
            Ok(project)
        })
    }

    /// Clear the focus project; returns the slug that was focused.
    pub fn clear_focus(&self) -> Result<Option<String>> {
        self.store.write(|tx| {
            let old = settings::get(tx, settings::FOCUS_PROJECT)?;
            settings::clear(tx, settings::FOCUS_PROJECT)?;
            Ok(old)
        })
    }

    /// Add something that happened to a project's audit log (a permission answered from
    /// the phone, say).
    pub fn record_event(&self, slug: &str, kind: &str, detail: &serde_json::Value) -> Result<()> {
        self.store.write(|tx| {
            let project = find(tx, "project", slug)?;
            events::record(tx, project.id, &project.slug, kind, detail, &now())
        })
    }

    /// The audit log of a project.
    pub fn events(&self, slug: &str) -> Result<Vec<Event>> {
        self.store.read(|c| {
            let p = find_row(c, "project", slug)?;
            events::for_project(c, p.id)
        })
    }

    /// Note that a session used the project now (resuming it if it was paused for
    /// inactivity).
    ///
    /// Used within the sessions' write-back interval and not waiting to be auto-resumed,
    /// it costs one read and no write transaction: "last used" orders lists, where
    /// seconds do not matter.
    pub fn touch_used(&self, slug: &str) -> Result<()> {
        let since = format_ts(Utc::now() - TimeDelta::seconds(crate::projects::session::TOUCH_EVERY_SECS));
        if self.store.read(|c| projects::used_since(c, slug, &since))? {
            return Ok(());
        }
        self.store.write(|tx| {
            let p = find_row(tx, "project", slug)?;
            projects::mark_used(tx, p.id, &now())
        })
    }

    /// A page of the audit log, newest first, with the total count.
    pub fn events_page(&self, slug: &str, limit: u32, offset: u32) -> Result<(Vec<Event>, u64)> {
        if limit == 0 || limit > 500 {
            return Err(Error::invalid("limit", format!("limit {limit} is out of range; use 1 to 500")));
        }
        self.store.read(|c| {
            let p = find_row(c, "project", slug)?;
            events::page(c, p.id, limit, offset)
        })
    }
}
