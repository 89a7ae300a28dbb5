//! Handover tools: the first project-scoped tools, gated on the session's project.

use mooring_core::memory::handover::{self, HandoverInput};
use rmcp::model::CallToolResult;

use super::outputs::{HandoverSaved, LastHandover};
use super::params;
use super::results::{fail, ok};
use super::tools_memory::Scope;
use crate::state::AppState;

/// `save_handover` in a decided project.
pub fn save(state: &AppState, s: Scope, p: params::SaveHandover) -> CallToolResult {
    let (project, decided_by, note) = (s.project.as_str(), s.decided_by.as_str(), s.note);
    let input = HandoverInput {
        work_done: p.work_done,
        next_steps: p.next_steps,
        open_questions: p.open_questions,
        files: p.files,
    };
    match handover::save(&*state.memory, project, &input, s.session.as_deref()) {
        Ok(h) => ok(&HandoverSaved {
            project: project.to_owned(),
            decided_by: decided_by.to_owned(),
            message: note.unwrap_or_else(|| format!("Handover saved to '{project}'.")),
            handover: h,
        }),
        Err(e) => fail(&e),
    }
}

/// `get_last_handover` in a decided project.
pub fn last(state: &AppState, s: Scope, _p: params::GetLastHandover) -> CallToolResult {
    let (project, decided_by, note) = (s.project.as_str(), s.decided_by.as_str(), s.note);
    let found = handover::last(&*state.memory, project)
        .and_then(|h| Ok((h, handover::captured_since_handover(&*state.memory, project)?)));
    match found {
        Ok((h, captured)) => {
            let mut summary = match &h {
                Some(h) => format!("Last handover for '{project}' ({}).", h.created),
                None => format!("No handover yet for '{project}'."),
            };
            if let Some(c) = &captured {
                summary = format!("{summary} {} What it did is in captured_session.", c.summary());
            }
            let message = match note {
                Some(n) => format!("{n} {summary}"),
                None => summary,
            };
            ok(&LastHandover {
                project: project.to_owned(),
                decided_by: decided_by.to_owned(),
                handover: h,
                captured_session: captured,
                message,
            })
        }
        Err(e) => fail(&e),
    }
}
