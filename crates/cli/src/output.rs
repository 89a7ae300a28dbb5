//! How results and errors reach the terminal: JSON for scripts, text for people.

use std::process::ExitCode;

use mooring_core::Error;
use serde::Serialize;

/// Exit code for a failed command.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code for a malformed command line.
pub const EXIT_USAGE: u8 = 2;

/// A command's failure: a domain error or a usage mistake.
#[derive(Debug)]
pub enum Failure {
    /// The command ran and failed.
    Domain(Error),
    /// The command line was wrong.
    Usage { field: Option<String>, message: String },
    /// The command already said what is wrong (`doctor`); only the exit code is left.
    Quiet,
}

impl Failure {
    /// What went wrong, as one sentence (for a log line).
    pub fn sentence(&self) -> String {
        match self {
            Failure::Domain(e) => e.message.clone(),
            Failure::Usage { message, .. } => message.clone(),
            Failure::Quiet => String::new(),
        }
    }
}

impl From<Error> for Failure {
    fn from(mut e: Error) -> Self {
        // Core names fields as the API and the tools do (`add_code_paths`); the CLI's
        // repeatable flags are singular (`--add-code-path`), and its errors name them.
        if let Some(flag) = e.field.as_deref().and_then(flag_field) {
            e.message = e.message.replacen(e.field.as_deref().unwrap_or_default(), flag, 1);
            e.field = Some(flag.to_owned());
        }
        Failure::Domain(e)
    }
}

/// The CLI flag's field for an API field, where they differ.
fn flag_field(api: &str) -> Option<&'static str> {
    match api {
        "code_paths" => Some("code_path"),
        "add_code_paths" => Some("add_code_path"),
        "remove_code_paths" => Some("remove_code_path"),
        _ => None,
    }
}

impl Failure {
    /// A usage error about `field`.
    pub fn usage(field: &str, message: impl Into<String>) -> Self {
        Failure::Usage { field: Some(field.to_owned()), message: message.into() }
    }

    fn parts(&self) -> (&str, Option<&str>, &str, u8) {
        match self {
            Failure::Domain(e) => (e.code.as_str(), e.field.as_deref(), &e.message, EXIT_FAILURE),
            Failure::Usage { field, message } => ("USAGE", field.as_deref(), message, EXIT_USAGE),
            Failure::Quiet => ("FAILED", None, "", EXIT_FAILURE),
        }
    }

    /// Print the failure (sentence on stderr; JSON on stdout too with `--json`).
    pub fn report(&self, json: bool) -> ExitCode {
        if matches!(self, Failure::Quiet) {
            return ExitCode::from(EXIT_FAILURE);
        }
        let (code, field, message, exit) = self.parts();
        eprintln!("error: {}", sentence(message));
        if json {
            let body = serde_json::json!({ "error": { "code": code, "message": message, "field": field } });
            println!("{body}");
        }
        ExitCode::from(exit)
    }
}

/// Print a value as pretty JSON.
pub fn print_json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: could not encode the result as JSON: {e}"),
    }
}

/// Print warnings for people on stderr (never mixed into stdout).
pub fn warn_all(warnings: &[String]) {
    for w in warnings {
        eprintln!("warning: {}", sentence(w));
    }
}

fn sentence(text: &str) -> String {
    let mut s = text.trim_end().to_owned();
    if !s.ends_with(['.', '?', '!']) {
        s.push('.');
    }
    s
}
