//! A secret the person hands the CLI (a database password, a bot token): from a file,
//! from standard input (`-`), or typed at a hidden prompt; never from the command line.

use std::io::{IsTerminal, Read};
use std::path::Path;

use mooring_core::Error;

/// The first line of the secret from `file` (`-`: standard input) or, at a terminal,
/// typed at `prompt`; `None` when there is neither. `field` names the option in errors.
pub fn read(file: Option<&Path>, field: &str, prompt: &str) -> Result<Option<String>, Error> {
    let text = match file {
        Some(p) if p == Path::new("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| Error::invalid(field, format!("cannot read standard input: {e}")))?;
            s
        }
        Some(p) => std::fs::read_to_string(p).map_err(|e| {
            Error::invalid(field, format!("cannot read {}: {e}; give a readable file", p.display()))
        })?,
        None if std::io::stdin().is_terminal() => dialoguer::Password::new()
            .with_prompt(prompt)
            .allow_empty_password(true)
            .interact()
            .map_err(|e| Error::invalid(field, format!("cannot read it: {e}")))?,
        None => return Ok(None),
    };
    Ok(Some(text.lines().next().unwrap_or_default().trim().to_owned()))
}
