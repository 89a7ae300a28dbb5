//! The checked fields of a new project, whichever store keeps it.

use crate::error::Result;
use crate::projects::registry::NewProject;
use crate::{guard::validate, projects::slug};

/// The fields of a new project that every store keeps (a team's too), checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedFields {
    /// Display name.
    pub name: String,
    /// Slug: the one given, or one made from the name.
    pub slug: String,
    /// Description.
    pub description: String,
    /// Repository URL.
    pub repo_url: Option<String>,
}

impl SharedFields {
    /// Check name, slug, description and repository URL of `new`.
    pub fn check(new: &NewProject) -> Result<Self> {
        let name = validate::name(&new.name)?;
        let slug = match new.slug.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(s) => {
                slug::validate(s)?;
                s.to_owned()
            }
            None => slug::from_name(&name)?,
        };
        let description = validate::description(new.description.as_deref().unwrap_or(""))?;
        let repo_url = validate::repo_url(new.repo_url.as_deref().unwrap_or(""))?;
        Ok(Self { name, slug, description, repo_url })
    }
}
