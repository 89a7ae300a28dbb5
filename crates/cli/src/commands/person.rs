//! A hook asking the person something and waiting for the answer: the question is
//! opened in the store, where the hub shows it and the phone's relay posts it when the
//! person is away, and the hook polls it until it ends or its time is up.

use std::time::{Duration, Instant};

use mooring_core::Store;
use mooring_core::choice::{Broker, ChoiceRequest, Interaction, Submission, TimeoutAction, check};

/// How long a hook waits for the person's answer about a tool (a permission prompt, a
/// write into a held file) unless `MOORING_PERMISSION_WAIT_SECONDS` says otherwise (the
/// client gives the hook `mooring_clients::entry::PERMISSION_TIMEOUT`, ten seconds more).
pub const WAIT_SECONDS: u32 = 110;

/// Seconds from the environment variable `var` (10 s to an hour), else `default`.
pub fn seconds(var: &str, default: u32) -> u32 {
    std::env::var(var).ok().and_then(|v| v.trim().parse::<u32>().ok()).map_or(default, |s| s.clamp(10, 3_600))
}

/// Where a session runs, as a question to the person names it: its project, its client
/// and its folder (`leases · codex · ~/code/leases`), whichever are known.
pub fn place(slug: Option<&str>, client: &str, dir: &str) -> String {
    [slug.map(str::to_owned), Some(client.to_owned()), mooring_core::remote::phone::place_of(dir)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Ask, then wait until the question ends or `seconds` pass; the question as it ended
/// (still pending when time ran out). While it waits, words the person sent for this
/// session some other way (`heard`) answer it as a typed reply would.
pub fn ask_and_wait(
    store: &Store,
    project: Option<&str>,
    request: ChoiceRequest,
    seconds: u32,
    heard: &mut dyn FnMut() -> Option<String>,
) -> Result<Interaction, String> {
    let asked = open(store, project, request)?;
    wait_for(store, &asked, seconds, heard)
}

/// Open a question of `project` for the person (shown by the hub, posted to the phone
/// when away, as every open question).
pub fn open(store: &Store, project: Option<&str>, request: ChoiceRequest) -> Result<Interaction, String> {
    let checked = check(request).map_err(|e| e.message)?;
    Broker::new(store).open_in(checked, None, project, TimeoutAction::Cancel).map_err(|e| e.message)
}

/// Wait until `asked` ends or `seconds` pass; the question as it ended (still pending
/// when time ran out). See [`ask_and_wait`] for `heard`.
pub fn wait_for(
    store: &Store,
    asked: &Interaction,
    seconds: u32,
    heard: &mut dyn FnMut() -> Option<String>,
) -> Result<Interaction, String> {
    let broker = Broker::new(store);
    let until = Instant::now() + Duration::from_secs(u64::from(seconds));
    loop {
        let now = broker.get(&asked.id).map_err(|e| e.message)?;
        if !now.status.is_pending() || Instant::now() >= until {
            return Ok(now);
        }
        if let Some(words) = heard() {
            let said = Submission { custom_input: Some(words), ..Submission::default() };
            // Answered meanwhile on the phone itself: that answer stands.
            let _ = broker.submit(&asked.id, &said, mooring_core::model::Surface::Phone);
            return broker.get(&asked.id).map_err(|e| e.message);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
