//! What settled a session's project: a level of the resolution order, the only active
//! project, or the person (asked in a form, in the Mooring window, on the phone, in the
//! conversation's app). Stored and shown by its name (`decided_by`).

use super::resolve::Level;

/// What settled a session's project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecidedBy {
    /// A level of the resolution order (`explicit`, `session`, `cwd`, …).
    Level(Level),
    /// The only active project (`auto_single`).
    AutoSingle,
    /// The person, asked by the client's form (`elicitation`).
    Elicitation,
    /// The person, in the Mooring window or the tray (`picker`).
    Picker,
    /// The person, on the phone (`phone`).
    Phone,
    /// The person, in the conversation's MCP App (`app`).
    App,
}

impl DecidedBy {
    /// Its stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Level(level) => level.as_str(),
            Self::AutoSingle => "auto_single",
            Self::Elicitation => "elicitation",
            Self::Picker => "picker",
            Self::Phone => "phone",
            Self::App => "app",
        }
    }

    /// From its stored name.
    pub fn parse(name: &str) -> Option<Self> {
        let other = [Self::AutoSingle, Self::Elicitation, Self::Picker, Self::Phone, Self::App];
        Level::ORDER.into_iter().map(Self::Level).chain(other).find(|d| d.as_str() == name)
    }

    /// Why it settled the project, for the note a session bound by it gets.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Level(level) => level.label(),
            Self::AutoSingle => "it is the only active project, so it was selected automatically",
            Self::Elicitation => "you chose it when asked",
            Self::Picker => "you chose it in the Mooring window",
            Self::Phone => "you chose it on your phone",
            Self::App => "you chose it in the conversation",
        }
    }
}

impl From<Level> for DecidedBy {
    fn from(level: Level) -> Self {
        Self::Level(level)
    }
}

impl std::fmt::Display for DecidedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_itself_and_no_two_share_one() {
        let mut all: Vec<DecidedBy> = Level::ORDER.into_iter().map(DecidedBy::Level).collect();
        all.extend([
            DecidedBy::AutoSingle,
            DecidedBy::Elicitation,
            DecidedBy::Picker,
            DecidedBy::Phone,
            DecidedBy::App,
        ]);
        for d in &all {
            assert_eq!(DecidedBy::parse(d.as_str()), Some(*d), "{d}");
        }
        let mut names: Vec<&str> = all.iter().map(|d| d.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert_eq!(DecidedBy::parse("nobody"), None);
    }
}
