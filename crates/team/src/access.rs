//! Who may do what in a team project, decided in one place. Team mode uses one database
//! role for every Mooring (the team's connection), with these checks in each statement's
//! transaction, rather than a PostgreSQL role per person: people join with a name, not a
//! database account, and one role keeps joining to a URL and a password (see
//! docs/architecture.md). The database backs the membership part up with row security
//! keyed on the person each connection names (migration V9).

use mooring_core::{Error, Project, Result};

/// A person's place in a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Reads memory.
    Viewer,
    /// Reads and writes memory.
    Member,
    /// Also archives, deletes, manages members and hands the project off.
    Owner,
}

impl Role {
    /// Storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Viewer => "viewer",
            Self::Member => "member",
            Self::Owner => "owner",
        }
    }

    /// Parse a role given by a person.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "viewer" => Ok(Self::Viewer),
            "member" => Ok(Self::Member),
            "owner" => Ok(Self::Owner),
            other => {
                Err(Error::invalid(field, format!("{field} '{other}' is not one of owner, member, viewer")))
            }
        }
    }
}

/// A team project as one person sees it.
#[derive(Debug, Clone)]
pub struct TeamView {
    /// The project.
    pub project: Project,
    /// The person's role in it.
    pub role: Role,
    /// The owner's name, if it has one.
    pub owner: Option<String>,
}

impl TeamView {
    /// Writing memory needs a member or the owner.
    pub fn may_write(&self) -> Result<()> {
        if self.role >= Role::Member {
            return Ok(());
        }
        Err(Error::forbidden(
            "project",
            format!(
                "you are a viewer of '{}' and cannot change it; ask {} to make you a member",
                self.project.slug,
                self.asker()
            ),
        ))
    }

    /// Archiving, deleting, members and handoff need the owner.
    pub fn must_own(&self, what: &str) -> Result<()> {
        if self.role == Role::Owner {
            return Ok(());
        }
        Err(Error::forbidden(
            "project",
            format!("only the owner of '{}' can {what}; ask {}", self.project.slug, self.asker()),
        ))
    }

    fn asker(&self) -> String {
        self.owner.as_deref().map(|o| format!("its owner, {o},")).unwrap_or_else(|| "its owner".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(role: Role) -> TeamView {
        let project = Project { slug: "alpha".into(), ..Default::default() };
        TeamView { project, role, owner: Some("Ada".into()) }
    }

    #[test]
    fn viewers_read_members_write_owners_decide() {
        let viewer = seen(Role::Viewer).may_write().unwrap_err();
        assert_eq!(viewer.code, mooring_core::ErrorCode::Forbidden);
        assert!(
            viewer.message.contains("viewer of 'alpha'") && viewer.message.contains("Ada"),
            "{}",
            viewer.message
        );
        assert!(seen(Role::Member).may_write().is_ok());
        assert!(seen(Role::Member).must_own("archive it").unwrap_err().message.contains("only the owner"));
        assert!(seen(Role::Owner).must_own("archive it").is_ok());
        assert_eq!(Role::parse("role", " Viewer ").unwrap(), Role::Viewer);
        assert_eq!(Role::parse("role", "admin").unwrap_err().field.as_deref(), Some("role"));
    }
}
