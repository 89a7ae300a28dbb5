//! Windsurf's session, from its Cascade hooks as they fire (its hooks say what each step
//! did; Windsurf cannot run here, so this reads the shapes of its published hook
//! reference): `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`.
//! `pre_user_prompt` is a request; `post_write_code` a file written (`edits` that replace
//! nothing) or edited; `post_run_command` a command line and whether its exit code says
//! it failed (its `output` is never read); `post_mcp_tool_use` a tool, counted when it is
//! one of Mooring's; `post_cascade_response` Cascade's last words.

use mooring_clients::Client;
use mooring_clients::hooks::Event;
use serde_json::Value;

use super::record::{FileAction, Place, SessionRecord, shown_path};

/// Fold one hook's input in.
pub fn apply(record: &mut SessionRecord, event: &Value, place: Place<'_>) {
    if let Some(at) = event.get("timestamp").and_then(Value::as_str) {
        record.saw_time(at);
    }
    // Which hook fired is read through its dialect; a step is known by what it carries.
    let input = Client::Windsurf.hook_input(event);
    let info = event.get("tool_info").unwrap_or(&Value::Null);
    let text = |k: &str| info.get(k).and_then(Value::as_str).filter(|t| !t.trim().is_empty());
    match input.event {
        Event::Prompt => {
            if let Some(prompt) = input.prompt.as_deref().filter(|p| !p.trim().is_empty()) {
                record.request(prompt);
            }
        }
        Event::TurnEnd => {
            if let Some(response) = &input.last_message {
                record.last_word(response);
            }
        }
        Event::ToolUse(false) => {
            if let Some(path) = text("file_path") {
                let edits =
                    info.get("edits").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                let whole = !edits.is_empty()
                    && edits
                        .iter()
                        .all(|e| e.get("old_string").and_then(Value::as_str).is_none_or(str::is_empty));
                let action = if whole { FileAction::Written } else { FileAction::Edited };
                record.file(&shown_path(path, place), action, false);
            } else if let Some(command) = text("command_line") {
                let cwd = text("cwd").or(place.cwd);
                let index = record.command(&super::record::intake(command), Place { cwd, ..place }, false);
                if info.get("exit_code").and_then(Value::as_i64).is_some_and(|c| c != 0) {
                    record.command_failed(index);
                }
            } else if let (Some(server), Some(tool)) = (text("mcp_server_name"), text("mcp_tool_name")) {
                record.mooring_tool(&format!("mcp__{server}__{tool}"));
            }
        }
        _ => {}
    }
}
