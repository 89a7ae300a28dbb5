//! A write into a file another live session holds, in a project that asks first, from a
//! client whose pre-edit hook cannot have the client ask (Codex: its `ask` counts as a
//! failed hook and the command runs). Mooring asks the person itself: it opens the
//! question, has the hub show it (the desktop's window or the browser, and the phone
//! when away, as every open question), and waits for "Let it write" or "Refuse". With
//! no hub to show it, or no answer in time, the write is refused with the holder named.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use mooring_clients::Client;
use mooring_clients::hooks::{Guard, Input};
use mooring_core::Store;
use mooring_core::choice::{Broker, Submission};
use mooring_core::model::Surface;
use mooring_core::remote::claim_question;

/// Set once the hook's work waits on the person: its deadline no longer holds.
static ASKING: AtomicBool = AtomicBool::new(false);

/// The hook's answer from its worker: within `deadline`, or, once the worker has asked
/// the person, as long as they have to answer. (The deadline guards a client against a
/// stuck disk at every tool call; a question to the person is waited for.)
pub fn receive<T>(rx: &mpsc::Receiver<T>, deadline: Duration) -> Result<T, RecvTimeoutError> {
    match rx.recv_timeout(deadline) {
        Err(RecvTimeoutError::Timeout) if ASKING.load(Ordering::SeqCst) => {
            rx.recv_timeout(Duration::from_secs(u64::from(wait_seconds()) + 5))
        }
        other => other,
    }
}

/// Whether the client asks the person itself when its pre-edit hook says `ask`.
pub fn client_asks(client: Client) -> bool {
    client.dialect().is_some_and(|d| d.asks_before_edit)
}

/// The person's answer to `held` (the claim's sentence) for `files`: `None` lets the
/// write go on, else the refusal.
pub fn ask(
    data_dir: &Path,
    store: &Store,
    client: Client,
    slug: &str,
    input: &Input,
    files: &[String],
    held: &str,
) -> Result<Option<Guard>, String> {
    let place = super::person::place(Some(slug), client.name(), input.cwd.as_deref().unwrap_or("."));
    let wait = wait_seconds();
    let request = claim_question::request(client.name(), files, held, &place, wait);
    let asked = super::person::open(store, Some(slug), request)?;
    if !mooring_server::transport::hub_socket::show_choice(data_dir, &asked.id) {
        // No one will see it: it does not stay open in the list of questions.
        let gone = Submission { cancel: true, ..Submission::default() };
        let _ = Broker::new(store).submit(&asked.id, &gone, Surface::Timeout);
        return Ok(Some(Guard::Deny(claim_question::unasked(held))));
    }
    ASKING.store(true, Ordering::SeqCst);
    let ended = super::person::wait_for(store, &asked, wait, &mut || None)?;
    let answer =
        claim_question::answer(&ended, held).unwrap_or_else(|| Err(claim_question::unanswered(held)));
    Ok(answer.err().map(Guard::Deny))
}

/// How long the person has to answer (`MOORING_PERMISSION_WAIT_SECONDS`, as for a
/// permission prompt, within the hook entry's timeout).
fn wait_seconds() -> u32 {
    super::person::seconds("MOORING_PERMISSION_WAIT_SECONDS", super::person::WAIT_SECONDS)
}
