//! What a hook's capture does: the session's project decided, the person's switches read,
//! and its record brought up to date from its files (or its hook's own input).

use std::path::{Path, PathBuf};

use mooring_clients::Client;
use mooring_clients::hooks::Input;

use super::Ctx;
use super::hook_log::log;

/// Bring the record of the hook's session up to date, in the project `decided` names.
pub(super) fn capture(
    ctx: &Ctx,
    client: Client,
    store: &mooring_core::Store,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    input: &Input,
    stop: std::time::Instant,
    decided: &mooring_core::projects::decide::Decided,
) -> Result<(), String> {
    let Some(slug) = decided.resolution.project.as_deref() else { return Ok(()) };
    // A hook that names no directory (Windsurf's prompt) runs in the session's.
    let cwd = input.cwd.clone().unwrap_or_else(|| ctx.cwd.display().to_string());
    let dir = Path::new(&cwd);
    // The marker above the session's directory as deciding its project read it; read here
    // only when deciding did not look (a level above the directory decided).
    let marker = match decided.hints.cwd.as_deref().and_then(|cwd| decided.markers.above(cwd)) {
        Some(seen) => seen.cloned(),
        None => mooring_core::projects::markers::nearest(dir).ok().flatten(),
    };
    if !mooring_core::capture::enabled(store, slug, marker.as_ref()).map_err(|e| e.message)? {
        return Ok(());
    }
    // A client whose hooks are the record names no transcript: its hook's input is read.
    let no_file = Path::new("");
    let transcript = input.transcript.as_deref().or(input.record.as_ref().map(|_| no_file));
    let (Some(session), Some(transcript)) = (input.session.as_deref(), transcript) else {
        return Err("the hook input names no session_id or transcript_path; nothing captured".into());
    };
    let code_path = code_path_of(store, dir);
    let key = mooring_core::capture::key(client.name(), session);
    let (held, conflicts) = mooring_core::projects::live::held(store, &key).map_err(|e| e.message)?;
    let turn = mooring_core::capture::Turn {
        cwd: Some(&cwd),
        code_path: code_path.as_deref().and_then(Path::to_str),
        agent_transcript: input.agent_transcript.as_deref(),
        ended: input.end_reason.as_deref(),
        deadline: Some(stop),
        event: input.record.as_ref().map(|v| (v, input.event.captures())),
        claims: (&held, conflicts),
        ..mooring_core::capture::Turn::new(client, session, transcript)
    };
    match mooring_core::capture::capture(memory, slug, &turn).map_err(|e| e.message)? {
        mooring_core::capture::Captured::Stored { redacted, .. } if redacted > 0 => {
            log(ctx, &format!("{client}: captured into {slug}; {redacted} secret(s) taken out"));
        }
        mooring_core::capture::Captured::Behind { .. } => {
            log(
                ctx,
                &format!("{client}: captured part of a long transcript into {slug}; the next turn reads on"),
            );
        }
        _ => {}
    }
    Ok(())
}

/// The registered code path holding `dir` (the deepest), for paths shown relative to the
/// checkout when the session is in no git repository.
fn code_path_of(store: &mooring_core::Store, dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    let index = store.read(mooring_core::projects::resolve::ProjectIndex::load).ok()?;
    index.match_path(&dir).map(|hit| hit.code_path)
}
