//! The hooks' part in claims across agents (`mooring_core::projects::claims`): every hook
//! of a session renews it as live (with its latest request), its end lets go of what it
//! held, and a client's pre-edit hook claims the file before the write, answering what
//! the project's setting says when another live session of the checkout holds it.

use std::path::{Path, PathBuf};

use mooring_clients::Client;
use mooring_clients::hooks::{Edit, Event, Guard, Input, Reply};
use mooring_core::Store;
use mooring_core::projects::claims::{self, Kind, Mode, Outcome, Session};

/// What this hook tells about its session: renewed, or ended.
pub fn note(store: &Store, client: Client, slug: &str, key: &str, input: &Input) -> Result<(), String> {
    if input.event == Event::SessionEnd {
        return claims::ended(store, key).map_err(|e| e.message);
    }
    let dir = input.cwd.as_deref().map(PathBuf::from);
    let (checkout, branch) =
        mooring_core::projects::live::checkout_of(dir.as_deref().unwrap_or(Path::new(".")));
    let request = input.prompt.as_deref().filter(|_| input.event == Event::Prompt && input.from_person);
    let s = session(client, key, &checkout, branch.as_deref(), request);
    claims::seen(store, slug, &s).map_err(|e| e.message)
}

/// The files `edit` writes: the one a file tool names, or those a shell command line
/// plainly writes (`mooring_core::capture::shell::written_files`); `None` for none.
pub fn files(edit: Edit) -> Option<Vec<String>> {
    let files = match edit {
        Edit::File(file) => vec![file],
        Edit::Shell(command) => mooring_core::capture::shell::written_files(&command),
    };
    (!files.is_empty()).then_some(files)
}

/// Before a tool writes `files`: claim each, and the hook's answer for the first one
/// another session holds (one project's setting decides it for them all). Where the
/// project asks and the client cannot, Mooring asks the person (`hook_ask`).
pub fn before_edit(
    data_dir: &Path,
    store: &Store,
    client: Client,
    slug: &str,
    key: &str,
    input: &Input,
    files: &[String],
) -> Result<Option<String>, String> {
    let mut held = None;
    for file in files {
        // A file outside the session's checkout is no one's to hold here.
        let Some((checkout, branch, rel)) = in_checkout(input, file) else { continue };
        let s = session(client, key, &checkout, branch.as_deref(), None);
        let outcome = claims::claim(store, slug, &s, Kind::File, &rel, None).map_err(|e| e.message)?;
        if let (Outcome::Taken { mode, .. }, Some(why)) = (&outcome, outcome.message(&rel)) {
            held = held.or(Some((*mode, why)));
        }
    }
    let guard = match held {
        Some((Mode::Ask, why)) if !super::hook_ask::client_asks(client) => {
            super::hook_ask::ask(data_dir, store, client, slug, input, files, &why)?
        }
        Some((Mode::Ask, why)) => Some(Guard::Ask(why)),
        Some((Mode::Deny, why)) => Some(Guard::Deny(why)),
        Some((Mode::Warn, why)) => Some(Guard::Warn(why)),
        Some((Mode::Off, _)) | None => None,
    };
    Ok(guard.map(|g| client.hook_reply(input, &Reply::Guard(g))))
}

/// Who else holds any of `files`, for a permission prompt about writing them (nothing
/// is claimed).
pub fn held_note(store: &Store, key: &str, input: &Input, files: &[String]) -> Option<String> {
    files.iter().find_map(|file| {
        let (checkout, _, rel) = in_checkout(input, file)?;
        claims::held_by_another(store, key, &checkout, &rel).ok().flatten()
    })
}

/// The checkout `file` (as the tool named it, from the session's folder) is in, its
/// branch, and the file's path inside it; `None` outside it.
fn in_checkout(input: &Input, file: &str) -> Option<(String, Option<String>, String)> {
    let base = input.cwd.as_deref().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    let path = base.join(file);
    let dir = path.parent().filter(|d| d.is_dir()).unwrap_or(&base);
    let (checkout, branch) = mooring_core::projects::live::checkout_of(dir);
    // Absolute through its nearest folder that exists, symbolic links resolved, so it
    // compares with the checkout's top.
    let (full, _) = mooring_core::paths::canonical_prefix(&path);
    let rel = full.strip_prefix(&checkout).ok()?.to_string_lossy().replace('\\', "/");
    Some((checkout, branch, rel))
}

fn session<'a>(
    client: Client,
    key: &'a str,
    checkout: &'a str,
    branch: Option<&'a str>,
    request: Option<&'a str>,
) -> Session<'a> {
    Session {
        key,
        client: client.name(),
        checkout,
        branch,
        pid: mooring_core::projects::live::client_pid(),
        request,
    }
}
