//! The permission hook (Claude Code's `PermissionRequest`): at the desk it answers
//! nothing and the client shows its own dialog; in away mode, with a paired phone, the
//! prompt becomes a question the hub posts to the phone, and the hook waits for the
//! person's Allow or Deny. No answer in time is a deny that says the person was away.

use std::time::{Duration, Instant};

use mooring_core::choice::{Broker, TimeoutAction, check};
use mooring_core::remote::RemoteConfig;
use mooring_core::remote::permission::{self, Verdict};
use serde_json::{Value, json};

use super::Ctx;

/// How long the hook waits for the phone unless `MOORING_PERMISSION_WAIT_SECONDS` says
/// otherwise; `mooring setup` gives the client's hook ten seconds more than this.
pub const WAIT_SECONDS: u32 = 110;

fn wait_seconds() -> u32 {
    std::env::var("MOORING_PERMISSION_WAIT_SECONDS")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .map_or(WAIT_SECONDS, |s| s.clamp(10, 3_600))
}

/// What the hook prints: `None` at the desk (the client asks as usual).
pub fn answer(ctx: &Ctx, client: &str, input: &Value) -> Result<Option<String>, String> {
    let config = RemoteConfig::load(&ctx.data_dir).map_err(|e| e.message)?;
    let paired =
        [config.telegram.as_ref(), config.slack.as_ref()].into_iter().flatten().any(|b| b.paired.is_some());
    if !config.away || !paired || !ctx.data_dir.join(mooring_core::store::DB_FILE).exists() {
        return Ok(None);
    }
    let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("a tool");
    let tool_input = input.get("tool_input").cloned().unwrap_or(Value::Null);
    let store = ctx.store().map_err(|e| super::hook::describe(&e))?;
    let dir =
        input.get("cwd").and_then(Value::as_str).map_or_else(|| ctx.cwd.display().to_string(), str::to_owned);
    let decided = super::memory::decide_dir(&store, &dir, ctx, false).ok();
    let slug = decided.and_then(|d| d.resolution.project);
    let place = [slug.clone(), Some(client.to_owned()), shown_dir(&dir)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ");
    let wait = wait_seconds();
    let request = permission::request(tool, &tool_input, &place, wait);
    let checked = check(request).map_err(|e| e.message)?;
    let broker = Broker::new(&store);
    let asked = broker.open(checked, None, TimeoutAction::Cancel).map_err(|e| e.message)?;
    let until = Instant::now() + Duration::from_secs(u64::from(wait));
    let verdict = loop {
        let now = broker.get(&asked.id).map_err(|e| e.message)?;
        if let Some(v) = permission::verdict(&now) {
            break (v, now.surface);
        }
        if Instant::now() >= until {
            break (Verdict::Deny(permission::away()), None);
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    if let Some(slug) = &slug {
        let allowed = verdict.0 == Verdict::Allow;
        let detail = json!({ "tool": tool, "allowed": allowed, "answered_on": verdict.1, "client": client });
        let _ = mooring_core::Registry::new(&store).record_event(slug, "permission_answered", &detail);
    }
    let decision = match verdict.0 {
        Verdict::Allow => json!({ "behavior": "allow" }),
        Verdict::Deny(message) => json!({ "behavior": "deny", "message": message }),
    };
    Ok(Some(
        json!({ "hookSpecificOutput": { "hookEventName": "PermissionRequest", "decision": decision } })
            .to_string(),
    ))
}

/// The session's directory as the phone shows it: its last two parts, never a home path.
fn shown_dir(dir: &str) -> Option<String> {
    let parts: Vec<&str> = dir.trim_end_matches('/').rsplit('/').take(2).collect();
    let shown: Vec<&str> = parts.into_iter().rev().filter(|p| !p.is_empty()).collect();
    (!shown.is_empty()).then(|| shown.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phone_sees_the_checkouts_last_parts_only() {
        assert_eq!(shown_dir("/home/ana/code/app/").as_deref(), Some("code/app"));
        assert_eq!(shown_dir("/").as_deref(), None);
    }
}
