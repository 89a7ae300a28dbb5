//! The hooks in away mode. At the desk they answer nothing and the client does as it
//! always does; with the person away and a phone paired:
//! - a permission prompt (Claude Code's `PermissionRequest`) becomes a question the hub
//!   posts to the phone (naming the live session that holds the file, for a write into
//!   another's claim), and the hook waits for Allow or Deny; no answer in time is a
//!   deny that says the person was away;
//! - a turn's end (`Stop`; Gemini CLI's `AfterAgent`) tells the phone the agent
//!   finished, with its last word, and holds for a reply that becomes the agent's next
//!   instruction (all three clients take `decision: block` with the words as the reason).

use mooring_clients::Client;
use mooring_clients::hooks::{Decision, Input, Reply};
use mooring_core::Store;
use mooring_core::remote::permission::{self, Verdict};
use mooring_core::remote::{RemoteConfig, turn_end};
use serde_json::json;

use super::Ctx;
use super::person::{WAIT_SECONDS, ask_and_wait, seconds};

/// The longest a finished turn holds for the next instruction (the `away_hold_minutes`
/// setting, at most nine, within the capture hook's 600 s; `MOORING_AWAY_HOLD_SECONDS`
/// overrides it).
pub const HOLD_SECONDS: u32 = 540;

/// The store and the settings when the person is away with a paired phone; `None` at
/// the desk.
fn away_store(ctx: &Ctx) -> Result<Option<(Store, RemoteConfig)>, String> {
    let config = RemoteConfig::load(&ctx.data_dir).map_err(|e| e.message)?;
    if !config.away_with_phone() || !ctx.data_dir.join(mooring_core::store::DB_FILE).exists() {
        return Ok(None);
    }
    ctx.store().map(|s| Some((s, config))).map_err(|e| e.sentence())
}

/// The session's project and how the phone names where it runs.
fn place(ctx: &Ctx, store: &Store, client: Client, input: &Input) -> (Option<String>, String) {
    let dir = input.cwd.clone().unwrap_or_else(|| ctx.cwd.display().to_string());
    let slug = super::memory::decide_dir(store, &dir, ctx, false).ok().and_then(|d| d.resolution.project);
    let shown = super::person::place(slug.as_deref(), client.name(), &dir);
    (slug, shown)
}

/// The permission hook's output: `None` at the desk (the client asks as usual).
pub fn permission(ctx: &Ctx, client: Client, input: &Input) -> Result<Option<String>, String> {
    let Some((store, config)) = away_store(ctx)? else { return Ok(None) };
    let tool = input.tool.as_ref().map_or("a tool", |t| t.name.as_str());
    let tool_input = input.tool.as_ref().map_or(serde_json::Value::Null, |t| t.input.clone());
    let (slug, place) = place(ctx, &store, client, input);
    if !config.question_ok(slug.as_deref()) {
        return Ok(None);
    }
    let wait = seconds("MOORING_PERMISSION_WAIT_SECONDS", WAIT_SECONDS);
    // Only a client that takes rules back from the hook is offered "allow for the
    // session" (Codex 0.169 fails closed on any field beyond allow/deny).
    let rules = if client.hook_abilities().session_rules {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        permission::session_rules(input.suggestions.as_ref(), home.as_deref())
    } else {
        Vec::new()
    };
    let mut asked = permission::request(tool, &tool_input, &place, wait, &rules);
    // A write into a file another live session holds: the person reads who holds it.
    let files =
        input.tool.as_ref().and_then(|t| (client.dialect()?.edited)(t)).and_then(super::hook_claims::files);
    let key = input.session.as_deref().map(|s| mooring_core::capture::key(client.name(), s));
    if let (Some(files), Some(key)) = (files, key)
        && let Some(held) = super::hook_claims::held_note(&store, &key, input, &files)
    {
        asked.prompt.push_str(&format!("\n{held}"));
    }
    let ended = ask_and_wait(&store, slug.as_deref(), asked, wait, &mut || None)?;
    let verdict = permission::verdict(&ended).unwrap_or_else(|| Verdict::Deny(permission::away()));
    if let Some(slug) = &slug {
        let allowed = matches!(verdict, Verdict::Allow | Verdict::AllowSession);
        let for_session = verdict == Verdict::AllowSession;
        let detail = json!({ "tool": tool, "allowed": allowed, "for_session": for_session,
                             "answered_on": ended.surface, "client": client.name() });
        let _ = mooring_core::Registry::new(&store).record_event(slug, "permission_answered", &detail);
    }
    let decision = match verdict {
        Verdict::Allow => Decision::Allow,
        Verdict::AllowSession => Decision::AllowWithRules(rules),
        Verdict::Deny(message) => Decision::Deny(message),
    };
    Ok(Some(client.hook_reply(input, &Reply::Permission(decision))))
}

/// A finished turn's output: the person's next instruction as the `Stop` hook's block
/// reason, or `None` (at the desk, no reply, or "let it stop").
pub fn turn_end(ctx: &Ctx, client: Client, input: &Input) -> Result<Option<String>, String> {
    let Some((store, config)) = away_store(ctx)? else { return Ok(None) };
    let (slug, place) = place(ctx, &store, client, input);
    if !config.question_ok(slug.as_deref()) {
        return Ok(None);
    }
    let last = input.last_message.as_deref();
    let minutes = mooring_core::settings::Setting::AwayHoldMinutes.get(&store).map_err(|e| e.message)?;
    if minutes == 0 {
        return Ok(None);
    }
    let hold = seconds("MOORING_AWAY_HOLD_SECONDS", (minutes * 60).min(HOLD_SECONDS));
    // `SLUG words` sent from the phone for this session while it holds are its next
    // instruction, as a reply to the "finished" message would be.
    let key = input.session.as_deref().map(|s| mooring_core::capture::key(client.name(), s));
    let mut heard = || {
        let (slug, key) = (slug.as_deref()?, key.as_deref()?);
        let words = mooring_core::remote::inbox::take_words(&store, slug, key).ok()?;
        (!words.is_empty()).then(|| words.join("\n"))
    };
    let ended =
        ask_and_wait(&store, slug.as_deref(), turn_end::request(&place, last, hold), hold, &mut heard)?;
    Ok(turn_end::instruction(&ended).map(|next| {
        let reason = format!(
            "The person, away from the desk, replied from their phone with your next instruction: {next}"
        );
        client.hook_reply(input, &Reply::Continue(reason))
    }))
}
