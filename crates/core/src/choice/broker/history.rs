//! The questions asked in a project, newest first, with their answers: what a project's
//! view lists. A question belongs to a project when the asking session had one.

use serde::Serialize;

use super::{Broker, decode};
use crate::error::Result;

/// A question as a project's view shows it (never its token).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Asked {
    /// Its id.
    pub id: String,
    /// The question's title.
    pub title: String,
    /// Where it stands.
    pub status: crate::model::ChoiceStatus,
    /// Asked at (RFC 3339).
    pub created_at: String,
    /// The answer in a sentence, once there is one.
    pub answer: Option<String>,
    /// Which surface answered.
    pub surface: Option<crate::model::Surface>,
}

impl Broker<'_> {
    /// The newest `limit` questions asked in project `slug`.
    pub fn asked_in(&self, slug: &str, limit: u32) -> Result<Vec<Asked>> {
        self.expire_due(chrono::Utc::now())?;
        let rows = self.store.read(|c| {
            crate::store::projects::find_row(c, "project", slug)?;
            crate::store::choices::in_project(c, slug, limit)
        })?;
        rows.into_iter()
            .map(|r| {
                let i = decode(r)?;
                Ok(Asked {
                    title: i.checked.request.title.clone(),
                    answer: i.response.as_ref().map(|r| r.selection.summary.clone()),
                    surface: i.surface,
                    status: i.status,
                    created_at: i.created_at,
                    id: i.id,
                })
            })
            .collect()
    }
}
