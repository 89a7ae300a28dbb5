//! The tools one live session uses toward the others: `claim` (a file, folder, glob or
//! task, checked against the other sessions of its checkout) and `tell_session` (a note
//! another session gets at its next prompt). Both act as the calling session, which is
//! known only from the connection (the client process `mooring stdio` serves), never
//! from an argument: no agent can claim or speak as another.

use chrono::Utc;
use mooring_core::projects::claims::{self, Kind};
use mooring_core::projects::{live, session_notes};
use mooring_core::{Error, Result as CoreResult};
use rmcp::model::CallToolResult;

use super::outputs::{Claimed, Scoped, Told};
use super::params;
use super::results::{fail, ok};
use super::tools_memory::Scope;
use crate::state::AppState;

/// The key of the live session calling, from the client process its connection serves.
fn calling_session(state: &AppState, s: &Scope) -> CoreResult<String> {
    let unknown = || {
        Error::invalid(
            "session",
            format!(
                "Mooring cannot tell which session of '{}' this is: connect through `mooring stdio` \
                 (what `mooring setup CLIENT` writes) with the client's hooks installed \
                 (`mooring setup CLIENT --hooks`), then send a prompt so they report it",
                s.project
            ),
        )
    };
    let pid = s.client_pid.ok_or_else(unknown)?;
    live::session_of_process(&state.store, &s.project, pid, Utc::now())?.ok_or_else(unknown)
}

fn scoped<T: serde::Serialize>(s: Scope, result: CoreResult<T>) -> CallToolResult {
    match result {
        Ok(result) => {
            ok(&Scoped { project: s.project, decided_by: s.decided_by.to_string(), note: s.note, result })
        }
        Err(e) => fail(&e),
    }
}

/// `claim`: hold (or let go of) what the agent names, for the calling session.
pub fn claim(state: &AppState, s: Scope, p: params::Claim) -> CallToolResult {
    let result = (|| {
        let kind = Kind::parse(&p.kind)?;
        let key = calling_session(state, &s)?;
        if p.release {
            let n = claims::release(&state.store, &key, Some((kind, &p.what)))?;
            let shown = claims::shown_as(kind, &p.what);
            let message = if n == 0 {
                format!("This session did not hold {shown}.")
            } else {
                format!("Let go of {shown}.")
            };
            return Ok(Claimed { held: false, message });
        }
        let outcome = claims::claim_as(&state.store, &s.project, &key, kind, &p.what, p.reason.as_deref())?;
        let shown = claims::shown_as(kind, &p.what);
        // Held by another: a result the agent acts on, not a failure.
        Ok(match outcome.message(&shown) {
            Some(message) => Claimed { held: false, message },
            None => Claimed {
                held: true,
                message: format!(
                    "This session holds {shown} until it ends; other live sessions' writes there are checked."
                ),
            },
        })
    })();
    scoped(s, result)
}

/// `tell_session`: a note from the calling session to another live one.
pub fn tell(state: &AppState, s: Scope, p: params::TellSession) -> CallToolResult {
    let result = (|| {
        let key = calling_session(state, &s)?;
        let writer = session_notes::Writer::Session(&key);
        let to = session_notes::leave(&state.store, &s.project, writer, &p.to, &p.text, Utc::now())?;
        let message = format!("Left for {to}: it gets the note once, at its next prompt, as your words.");
        Ok(Told { to, message })
    })();
    scoped(s, result)
}
