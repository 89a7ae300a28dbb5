//! The one error type of the domain: every failure names a field and a fix.

use serde::Serialize;

/// Machine-readable class of an [`Error`]; stable strings for `--json` and tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// Input broke a rule (format, length, reserved word…).
    InvalidInput,
    /// Input clashes with existing data (duplicate slug, path owned elsewhere).
    Conflict,
    /// The named thing does not exist.
    NotFound,
    /// The database or the file system failed.
    Storage,
    /// The person may not do this (a viewer writing, a member handing off).
    Forbidden,
    /// A service the call needs is out of reach for now (the team database).
    Unavailable,
}

impl ErrorCode {
    /// The code as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Storage => "STORAGE",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::Unavailable => "UNAVAILABLE",
        }
    }
}

/// A failure with the field it concerns and a sentence that says how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// What kind of failure this is.
    pub code: ErrorCode,
    /// The input field at fault (`slug`, `code_path`, …), when there is one.
    pub field: Option<String>,
    /// One sentence for a person: what is wrong and what to do.
    pub message: String,
}

impl Error {
    /// Not allowed to this person; `message` says who may.
    pub fn forbidden(field: &str, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, Some(field), message)
    }

    /// A service out of reach; `message` says what still works.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unavailable, None, message)
    }

    /// Bad input in `field`.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidInput, Some(field), message)
    }

    /// Input in `field` clashes with stored data.
    pub fn conflict(field: &str, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, Some(field), message)
    }

    /// The thing named by `field` does not exist.
    pub fn not_found(field: &str, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, Some(field), message)
    }

    /// Storage failed; not the caller's fault.
    pub fn storage(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Storage, None, message)
    }

    fn new(code: ErrorCode, field: Option<&str>, message: impl Into<String>) -> Self {
        // An error quotes its input at most in part: a 1 MB tag must not come back whole.
        let message = excerpt(&message.into(), MAX_MESSAGE);
        Self { code, field: field.map(|f| excerpt(f, MAX_FIELD)), message }
    }
}

/// Longest error message, in characters.
pub const MAX_MESSAGE: usize = 400;
/// Longest field name in an error, in characters.
pub const MAX_FIELD: usize = 100;

/// The field serde names in "missing field `work_done`" or "unknown field `projcet`".
pub fn field_in_serde_message(detail: &str) -> Option<String> {
    let start = detail.find('`')? + 1;
    let end = start + detail[start..].find('`')?;
    Some(detail[start..end].to_owned())
}

/// `text` if it has at most `max` characters, else its start and how much was cut.
pub fn excerpt(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_owned();
    }
    let keep = max.saturating_sub(30);
    let head: String = text.chars().take(keep).collect();
    format!("{head}… ({} characters cut)", total - keep)
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::storage(format!("database error: {e}"))
    }
}

impl From<rusqlite_migration::Error> for Error {
    fn from(e: rusqlite_migration::Error) -> Self {
        Error::storage(format!("could not upgrade the database schema: {e}"))
    }
}

/// Result alias for the domain.
pub type Result<T, E = Error> = std::result::Result<T, E>;
