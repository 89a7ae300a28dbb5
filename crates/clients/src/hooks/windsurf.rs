//! Windsurf's Cascade hooks (`~/.codeium/windsurf/hooks.json`, a workspace's
//! `.windsurf/hooks.json`; Windsurf cannot run here, so this follows its published hook
//! reference): snake-cased events, `{"hooks": {EVENT: [{"command", "show_output"}]}}`.
//! Every input is `{agent_action_name, trajectory_id, execution_id, timestamp,
//! tool_info}`: `pre_user_prompt` has the prompt, `post_write_code` the file and its
//! edits, `post_run_command` the command line, its directory and exit code,
//! `post_mcp_tool_use` the server and tool, `post_cascade_response` Cascade's answer.
//! Its hooks are advisory (what they print is not read), so Windsurf gets no context
//! from them; and they say what each step did, so they are the session's record:
//! Mooring folds each as it fires (core's capture), never the output of a command or the
//! contents of a file they carry.

use serde_json::{Value, json};

use super::{Abilities, Dialect, Event, Input, Reply, text};

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: false, permissions: false, session_rules: false },
    setup_note: Some(
        "Windsurf's hooks cannot hand Cascade the project's context: its sessions are kept (what was asked, the files written, the commands run, the last answer), and Cascade reaches Mooring's memory through its MCP tools.",
    ),
    hands_context: false,
    // Its first hook of a session is the prompt's.
    start_path: &["hooks", "pre_user_prompt"],
    start_entry: entry,
    capture_paths: &[
        &["hooks", "post_write_code"],
        &["hooks", "post_run_command"],
        &["hooks", "post_mcp_tool_use"],
        &["hooks", "post_cascade_response"],
    ],
    capture_entry: Some(entry),
    ..Dialect::BASE
};

fn entry(command: &str) -> Value {
    json!({ "command": command, "show_output": false })
}

fn event(name: Option<&str>) -> Event {
    match name {
        Some("pre_user_prompt") => Event::Prompt,
        Some("post_cascade_response" | "post_cascade_response_with_transcript") => Event::TurnEnd,
        Some("post_write_code" | "post_run_command" | "post_mcp_tool_use") => Event::ToolUse(false),
        Some("session_end") => Event::SessionEnd,
        _ => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    let name = v.get("agent_action_name").and_then(Value::as_str).or(named);
    let event = event(name);
    let info = v.get("tool_info").unwrap_or(&Value::Null);
    Input {
        session: text(v, "trajectory_id"),
        cwd: text(info, "cwd"),
        prompt: info.get("user_prompt").and_then(Value::as_str).map(str::to_owned),
        last_message: text(info, "response"),
        end_reason: (event == Event::SessionEnd).then(|| "other".into()),
        record: event.recorded().then(|| v.clone()),
        ..Input::bare(event, name.unwrap_or(""))
    }
}

/// What it prints is not read: nothing is printed.
fn reply(_input: &Input, _reply: &Reply) -> Value {
    Value::Null
}
