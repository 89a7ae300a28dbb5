use serde_json::{Value, json};

use super::*;

fn read(client: Client, v: Value) -> Input {
    client.hook_input(&v)
}

#[test]
fn each_client_s_event_names_read_as_one_event() {
    let cases = [
        (Client::ClaudeCode, "SessionStart", Event::Start),
        (Client::ClaudeCode, "UserPromptSubmit", Event::Prompt),
        (Client::ClaudeCode, "Stop", Event::TurnEnd),
        (Client::ClaudeCode, "SubagentStop", Event::SubagentEnd),
        (Client::ClaudeCode, "PreCompact", Event::PreCompact),
        (Client::ClaudeCode, "SessionEnd", Event::SessionEnd),
        (Client::ClaudeCode, "PermissionRequest", Event::Permission),
        (Client::ClaudeCode, "PreToolUse", Event::ToolUse(true)),
        (Client::Codex, "Stop", Event::TurnEnd),
        (Client::Codex, "PermissionRequest", Event::Permission),
        (Client::GeminiCli, "BeforeAgent", Event::Prompt),
        (Client::GeminiCli, "AfterAgent", Event::TurnEnd),
        (Client::GeminiCli, "PreCompress", Event::PreCompact),
        (Client::GeminiCli, "AfterTool", Event::ToolUse(false)),
        (Client::Cursor, "sessionStart", Event::Start),
        (Client::Cursor, "beforeSubmitPrompt", Event::Prompt),
        (Client::Cursor, "stop", Event::TurnEnd),
        (Client::Cursor, "preCompact", Event::PreCompact),
        // One client's name is not another's event.
        (Client::Cursor, "Stop", Event::Other),
        (Client::GeminiCli, "UserPromptSubmit", Event::Other),
        (Client::ClaudeCode, "BeforeAgent", Event::Other),
    ];
    for (client, name, want) in cases {
        let got = read(client, json!({ "hook_event_name": name }));
        assert_eq!(got.event, want, "{client} {name}");
        assert_eq!(got.event_name, name);
    }
    // No input at all (not JSON) is a start, as the client's start hook may send none.
    assert_eq!(Client::Codex.hook_input(&Value::Null).event, Event::Start);
}

#[test]
fn the_fields_each_client_names_its_own_way_are_read_into_one_input() {
    let claude = read(
        Client::ClaudeCode,
        json!({ "hook_event_name": "SessionEnd", "session_id": "s1", "transcript_path": "/t/s1.jsonl",
                "cwd": "/w/le", "reason": "logout", "last_assistant_message": "done" }),
    );
    assert_eq!(claude.session.as_deref(), Some("s1"));
    assert_eq!(claude.transcript.as_deref(), Some(std::path::Path::new("/t/s1.jsonl")));
    assert_eq!((claude.cwd.as_deref(), claude.end_reason.as_deref()), (Some("/w/le"), Some("logout")));
    assert_eq!(claude.last_message.as_deref(), Some("done"));
    let gemini = read(Client::GeminiCli, json!({ "hook_event_name": "AfterAgent", "prompt_response": "ok" }));
    assert_eq!(gemini.last_message.as_deref(), Some("ok"));
    let start = read(Client::ClaudeCode, json!({ "hook_event_name": "SessionStart", "source": "compact" }));
    assert!(start.after_compaction);
    let cursor = read(
        Client::Cursor,
        json!({ "hook_event_name": "beforeSubmitPrompt", "conversation_id": "c9",
                "workspace_roots": ["/w/a", "/w/b"], "prompt": "why?" }),
    );
    assert_eq!((cursor.session.as_deref(), cursor.cwd.as_deref()), (Some("c9"), Some("/w/a")));
    assert_eq!(cursor.prompt.as_deref(), Some("why?"));
    // Blank values name nothing.
    let blank = read(Client::ClaudeCode, json!({ "session_id": " ", "cwd": "" }));
    assert_eq!((blank.session, blank.cwd), (None, None));
    let tool = read(
        Client::ClaudeCode,
        json!({ "hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"},
                "permission_suggestions": [{"type": "addRules"}] }),
    );
    assert_eq!(tool.tool, Some(Tool { name: "Bash".into(), input: json!({"command": "ls"}) }));
    assert_eq!(tool.suggestions, Some(json!([{"type": "addRules"}])));
}

#[test]
fn replies_take_each_client_s_shape_and_context_stays_under_the_limit() {
    let start = Client::ClaudeCode.hook_input(&json!({ "hook_event_name": "SessionStart" }));
    let long = "line of context\n".repeat(2_000);
    let out: Value =
        serde_json::from_str(&Client::ClaudeCode.hook_reply(&start, &Reply::Context(long))).unwrap();
    let text = out["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(text.len() <= crate::entry::HOOK_MAX_CHARS && text.ends_with("context"), "{}", text.len());
    assert_eq!(out["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let prompt = Client::GeminiCli.hook_input(&json!({ "hook_event_name": "BeforeAgent" }));
    let out: Value =
        serde_json::from_str(&Client::GeminiCli.hook_reply(&prompt, &Reply::Context("hi".into()))).unwrap();
    assert_eq!(out["hookSpecificOutput"]["hookEventName"], "BeforeAgent", "the event is repeated as sent");
    let cursor = Client::Cursor.hook_input(&json!({ "hook_event_name": "sessionStart" }));
    let reply = |r: Reply| serde_json::from_str::<Value>(&Client::Cursor.hook_reply(&cursor, &r)).unwrap();
    assert_eq!(reply(Reply::Context("hi".into())), json!({"additional_context": "hi"}));
    assert_eq!(reply(Reply::Continue("go on".into())), json!({"followup_message": "go on"}));
    let stop = Client::Codex.hook_input(&json!({ "hook_event_name": "Stop" }));
    let out: Value =
        serde_json::from_str(&Client::Codex.hook_reply(&stop, &Reply::Continue("next".into()))).unwrap();
    assert_eq!(out, json!({"decision": "block", "reason": "next"}));
    let asked = Client::ClaudeCode.hook_input(&json!({ "hook_event_name": "PermissionRequest" }));
    let deny = Reply::Permission(Decision::Deny("away".into()));
    let out: Value = serde_json::from_str(&Client::ClaudeCode.hook_reply(&asked, &deny)).unwrap();
    assert_eq!(
        out,
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
               "decision": {"behavior": "deny", "message": "away"}}})
    );
}

#[test]
fn qwen_code_s_permission_prompt_is_read_and_answered_in_its_own_shape() {
    // As the pinned Qwen Code 0.15.10 sent it (`--input-format stream-json`).
    let sent = json!({"session_id": "64c6cbbb", "transcript_path": "/h/.qwen/projects/-w/chats/64c6cbbb.jsonl",
        "cwd": "/w", "hook_event_name": "PermissionRequest", "timestamp": "2026-11-28T23:37:06.093Z",
        "permission_mode": "default", "tool_name": "run_shell_command",
        "tool_input": {"command": "touch approved.txt", "description": "Mark the approval"}});
    let asked = Client::QwenCode.hook_input_named(&sent, Some("PermissionRequest"));
    assert_eq!(asked.event, Event::Permission);
    let tool = asked.tool.as_ref().unwrap();
    assert_eq!(
        (tool.name.as_str(), &tool.input["command"]),
        ("run_shell_command", &json!("touch approved.txt"))
    );
    let allow: Value =
        serde_json::from_str(&Client::QwenCode.hook_reply(&asked, &Reply::Permission(Decision::Allow)))
            .unwrap();
    assert_eq!(allow["hookSpecificOutput"]["decision"], json!({"behavior": "allow"}));
    let deny = Reply::Permission(Decision::Deny("refused".into()));
    let deny: Value = serde_json::from_str(&Client::QwenCode.hook_reply(&asked, &deny)).unwrap();
    assert_eq!(deny["hookSpecificOutput"]["decision"], json!({"behavior": "deny", "message": "refused"}));
    let abilities = Client::QwenCode.hook_abilities();
    assert!(abilities.permissions && !abilities.session_rules, "its allow takes no rules for the session");
}

#[test]
fn opencode_s_permission_event_is_read_without_its_diff_and_answered_as_its_reply_body() {
    // What Mooring's plugin hands over for opencode 1.18.33's `permission.asked`.
    let sent = json!({"hook_event_name": "permission.asked", "session_id": "ses_1", "cwd": "/w",
        "permission": {"id": "per_1", "permission": "bash", "patterns": ["touch approved.txt"],
                       "metadata": {"command": "touch approved.txt"}}});
    let asked = Client::Opencode.hook_input_named(&sent, Some("permission.asked"));
    assert_eq!(asked.event, Event::Permission);
    let tool = asked.tool.as_ref().unwrap();
    assert_eq!((tool.name.as_str(), &tool.input), ("bash", &json!({"command": "touch approved.txt"})));
    let edit = json!({"hook_event_name": "permission.asked",
        "permission": {"permission": "edit", "metadata": {"filepath": "/w/a.rs", "diff": "-secret\n+x"}}});
    let edit = Client::Opencode.hook_input_named(&edit, None);
    assert_eq!(
        edit.tool.unwrap().input,
        json!({"file_path": "/w/a.rs"}),
        "a diff never leaves the plugin's input"
    );
    let allow = Client::Opencode.hook_reply(&asked, &Reply::Permission(Decision::Allow));
    assert_eq!(serde_json::from_str::<Value>(&allow).unwrap(), json!({"reply": "once"}));
    let deny = Client::Opencode.hook_reply(&asked, &Reply::Permission(Decision::Deny("refused".into())));
    assert_eq!(
        serde_json::from_str::<Value>(&deny).unwrap(),
        json!({"reply": "reject", "message": "refused"})
    );
}

#[test]
fn only_the_clients_that_can_are_said_to_continue_or_answer_permissions() {
    assert!(Client::ClaudeCode.hook_abilities().session_rules);
    assert!(Client::Codex.hook_abilities().permissions && !Client::Codex.hook_abilities().session_rules);
    assert!(!Client::GeminiCli.hook_abilities().permissions && Client::GeminiCli.hook_abilities().continues);
    assert_eq!(
        Client::Zed.hook_abilities(),
        Abilities { captures: false, continues: false, permissions: false, session_rules: false }
    );
}

#[test]
fn prompts_claude_code_submits_for_others_are_not_the_person_s_words() {
    let prompt = |p: &str| {
        Client::ClaudeCode
            .hook_input(&json!({ "hook_event_name": "UserPromptSubmit", "prompt": p }))
            .from_person
    };
    assert!(prompt("why does the billing test fail?"));
    assert!(prompt("look at <task-notification> handling in the parser"), "the tag inside a request");
    assert!(!prompt("<task-notification>\n<task-id>b0</task-id>\n</task-notification>"));
    assert!(!prompt("  <cross-session-message from=\"docs\">can you rebase?</cross-session-message>"));
    assert!(!prompt("<channel source=\"telegram\">hi</channel>"));
    assert!(!prompt("<teammate-message teammate_id=\"a\">done</teammate-message>"));
    assert!(
        Client::Codex
            .hook_input(&json!({ "hook_event_name": "UserPromptSubmit", "prompt": "x" }))
            .from_person
    );
}

/// What the pinned Copilot CLI 1.0.102 handed its hooks in a `-p` session here (its input
/// names no event: the entry's command does).
fn copilot(event: &str, recorded: &str) -> Input {
    Client::CopilotCli.hook_input_named(&serde_json::from_str(recorded).unwrap(), Some(event))
}

#[test]
fn copilot_cli_s_recorded_hook_inputs_read_as_the_same_protocol() {
    let start =
        copilot("sessionStart", include_str!("../../tests/fixtures/copilot-cli-1.0.102/sessionStart.json"));
    assert_eq!(start.event, Event::Start);
    assert_eq!(start.session.as_deref(), Some("ba26725f-b859-491e-b321-ff48b2cce01f"));
    assert_eq!(start.cwd.as_deref(), Some("/tmp/coprec/repo"));
    let prompt = copilot(
        "userPromptSubmitted",
        include_str!("../../tests/fixtures/copilot-cli-1.0.102/userPromptSubmitted.json"),
    );
    assert_eq!((prompt.event, prompt.prompt.as_deref()), (Event::Prompt, Some("Add a retry helper")));
    let stop = copilot("agentStop", include_str!("../../tests/fixtures/copilot-cli-1.0.102/agentStop.json"));
    assert_eq!(stop.event, Event::TurnEnd);
    assert!(stop.transcript.as_deref().is_some_and(|t| t.ends_with("events.jsonl")));
    let end = copilot("sessionEnd", include_str!("../../tests/fixtures/copilot-cli-1.0.102/sessionEnd.json"));
    assert_eq!((end.event, end.end_reason.as_deref()), (Event::SessionEnd, Some("complete")));
    // Its replies are flat, as its hook reference and the recorded run's model request show.
    let out: Value =
        serde_json::from_str(&Client::CopilotCli.hook_reply(&prompt, &Reply::Context("hi".into()))).unwrap();
    assert_eq!(out, json!({"additionalContext": "hi"}));
}

/// What the pinned Qwen Code 0.15.10 handed its hooks in a `-p` session here.
fn qwen(recorded: &str) -> Input {
    Client::QwenCode.hook_input(&serde_json::from_str(recorded).unwrap())
}

#[test]
fn qwen_code_s_recorded_hook_inputs_read_as_claude_code_s_and_its_empty_prompt_is_not_the_person() {
    let prompt = qwen(include_str!("../../tests/fixtures/qwen-code-0.15.10/UserPromptSubmit.json"));
    assert_eq!((prompt.event, prompt.prompt.as_deref()), (Event::Prompt, Some("Add a retry helper")));
    assert!(prompt.from_person);
    assert!(prompt.transcript.as_deref().is_some_and(|t| t.extension().is_some_and(|e| e == "jsonl")));
    let again = qwen(include_str!("../../tests/fixtures/qwen-code-0.15.10/UserPromptSubmit-after-tool.json"));
    assert_eq!(again.event, Event::Prompt);
    assert!(!again.from_person, "the empty prompt after a tool result is not the person's");
    let stop = qwen(include_str!("../../tests/fixtures/qwen-code-0.15.10/Stop.json"));
    assert_eq!(stop.event, Event::TurnEnd);
    assert_eq!(
        stop.last_message.as_deref(),
        Some("Retry helper written; the retry policy still needs documenting.")
    );
    // Its prompt hook reads `hookSpecificOutput.additionalContext` (the pinned cli.js).
    let out: Value =
        serde_json::from_str(&Client::QwenCode.hook_reply(&prompt, &Reply::Context("hi".into()))).unwrap();
    assert_eq!(out["hookSpecificOutput"]["additionalContext"], "hi");
    let d = Client::QwenCode.dialect().unwrap();
    assert!(d.start_may_not_fire && d.abilities.continues && d.abilities.captures);
}

#[test]
fn copilot_cli_s_session_file_is_pending_until_written_and_its_client_gone() {
    let pending = Client::CopilotCli.dialect().unwrap().transcript_pending.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    assert!(pending(&events), "not written yet");
    std::fs::write(&events, "{}\n").unwrap();
    let lock = dir.path().join("inuse.4242.lock");
    std::fs::write(&lock, "").unwrap();
    assert!(pending(&events), "the client still runs");
    std::fs::remove_file(&lock).unwrap();
    assert!(!pending(&events));
    assert!(Client::ClaudeCode.dialect().unwrap().transcript_pending.is_none());
}

#[test]
fn opencode_s_plugin_input_reads_as_a_prompt_and_a_turn_s_end_and_its_reply_is_flat() {
    let prompt = Client::Opencode.hook_input(&json!({
        "hook_event_name": "chat.message", "session_id": "ses_1", "cwd": "/w", "prompt": "why?",
        "transcript_path": "/home/me/.local/share/opencode/opencode.db" }));
    assert_eq!(
        (prompt.event, prompt.session.as_deref(), prompt.prompt.as_deref()),
        (Event::Prompt, Some("ses_1"), Some("why?"))
    );
    let idle = Client::Opencode
        .hook_input(&json!({ "hook_event_name": "session.idle", "session_id": "ses_1",
                                                     "last_assistant_message": "First part done." }));
    assert_eq!((idle.event, idle.last_message.as_deref()), (Event::TurnEnd, Some("First part done.")));
    // The phone's words come back as `continue`, which the plugin sends as the next message.
    let next: Value =
        serde_json::from_str(&Client::Opencode.hook_reply(&idle, &Reply::Continue("go on".into()))).unwrap();
    assert_eq!(next, json!({"continue": "go on"}));
    assert!(Client::Opencode.hook_abilities().continues && Client::Kilo.hook_abilities().continues);
    let out: Value =
        serde_json::from_str(&Client::Opencode.hook_reply(&prompt, &Reply::Context("hi".into()))).unwrap();
    assert_eq!(out, json!({"additionalContext": "hi"}));
    let d = Client::Opencode.dialect().unwrap();
    assert!(d.plugin.is_some() && d.start_may_not_fire && d.abilities.captures);
}

#[test]
fn cursor_s_hooks_read_its_session_and_folders_and_find_its_transcript() {
    // As its CLI sends them: no transcript path; the folder as Windows names it.
    let stop = read(
        Client::Cursor,
        json!({ "hook_event_name": "stop", "conversation_id": "c9", "generation_id": "g1", "status": "completed",
                "loop_count": 0, "workspace_roots": ["/C:/Users/me/ledger"], "transcript_path": null }),
    );
    assert_eq!((stop.event, stop.session.as_deref()), (Event::TurnEnd, Some("c9")));
    assert_eq!(stop.cwd.as_deref(), Some("C:/Users/me/ledger"));
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join(".cursor/projects/work-ledger/agent-transcripts");
    assert_eq!(super::cursor::transcript_of(home.path(), "/work/ledger", "c9"), dir.join("c9.jsonl"));
    // The editor nests each conversation's file in a folder of its own.
    std::fs::create_dir_all(dir.join("c9")).unwrap();
    std::fs::write(dir.join("c9/c9.jsonl"), "").unwrap();
    assert_eq!(super::cursor::transcript_of(home.path(), "/work/ledger", "c9"), dir.join("c9/c9.jsonl"));
    // An id never climbs out of the folder.
    let odd = super::cursor::transcript_of(home.path(), "/work/ledger", "../../x");
    assert!(odd.starts_with(&dir) && odd.ends_with("x.jsonl"), "{}", odd.display());
    // The path Cursor names wins.
    let named = read(
        Client::Cursor,
        json!({ "hook_event_name": "sessionEnd", "transcript_path": "/t/c9.jsonl",
                                            "final_status": "completed" }),
    );
    assert_eq!(named.transcript.as_deref(), Some(std::path::Path::new("/t/c9.jsonl")));
    assert_eq!(named.end_reason.as_deref(), Some("completed"));
}

#[test]
fn cursor_s_prompt_reply_goes_on_with_the_context_and_claude_hooks_it_runs_stand_aside() {
    let prompt =
        Client::Cursor.hook_input(&json!({ "hook_event_name": "beforeSubmitPrompt", "prompt": "why?" }));
    let out: Value =
        serde_json::from_str(&Client::Cursor.hook_reply(&prompt, &Reply::Context("recall".into()))).unwrap();
    assert_eq!(out, json!({ "continue": true, "additional_context": "recall" }));
    // Cursor running Mooring's Claude Code hooks (its third-party setting) adds its own
    // fields: that run does nothing, Mooring's Cursor hooks answer.
    let via_cursor = Client::ClaudeCode
        .hook_input(&json!({ "hook_event_name": "UserPromptSubmit", "prompt": "why?",
        "session_id": "c9", "cursor_version": "3.6.31", "workspace_roots": ["/w"] }));
    assert_eq!(via_cursor.event, Event::Other);
    let claude =
        Client::ClaudeCode.hook_input(&json!({ "hook_event_name": "UserPromptSubmit", "prompt": "why?" }));
    assert_eq!(claude.event, Event::Prompt);
}

#[test]
fn windsurf_s_hooks_are_its_record_and_are_never_answered() {
    let write = read(
        Client::Windsurf,
        json!({ "agent_action_name": "post_write_code", "trajectory_id": "t1", "execution_id": "e1",
                "timestamp": "2026-11-27T10:00:00Z", "tool_info": { "file_path": "/w/a.py", "edits": [] } }),
    );
    assert_eq!((write.event, write.session.as_deref()), (Event::ToolUse(false), Some("t1")));
    assert!(write.record.is_some(), "each step is folded into the record");
    let prompt = read(
        Client::Windsurf,
        json!({ "agent_action_name": "pre_user_prompt", "trajectory_id": "t1",
                                                "tool_info": { "user_prompt": "why?" } }),
    );
    assert_eq!((prompt.event, prompt.prompt.as_deref()), (Event::Prompt, Some("why?")));
    let run = read(
        Client::Windsurf,
        json!({ "agent_action_name": "post_run_command", "trajectory_id": "t1",
                                             "tool_info": { "command_line": "ls", "cwd": "/w" } }),
    );
    assert_eq!(run.cwd.as_deref(), Some("/w"));
    // A read or a hook it does not keep is not recorded.
    let read_code =
        read(Client::Windsurf, json!({ "agent_action_name": "post_read_code", "trajectory_id": "t1" }));
    assert_eq!((read_code.event, read_code.record), (Event::Other, None));
    assert_eq!(Client::Windsurf.hook_reply(&prompt, &Reply::Context("x".into())), "null");
}

#[test]
fn vs_code_running_mooring_s_entries_gets_the_start_s_context_once_and_nothing_read() {
    // VS Code's Local harness: Claude's snake-cased fields plus a timestamp.
    let vscode = |event: &str| {
        json!({ "timestamp": "2026-11-27T10:30:00.000Z", "hook_event_name": event, "session_id": "v1",
                "transcript_path": "/code/User/workspaceStorage/x/GitHub.copilot-chat/transcripts/v1.jsonl",
                "cwd": "/w", "prompt": "why?", "source": "new" })
    };
    assert_eq!(Client::ClaudeCode.hook_input(&vscode("SessionStart")).event, Event::Start);
    assert_eq!(Client::ClaudeCode.hook_input(&vscode("UserPromptSubmit")).event, Event::Other);
    assert_eq!(Client::ClaudeCode.hook_input(&vscode("Stop")).event, Event::Other, "no transcript read");
    let copilot = Client::CopilotCli.hook_input_named(&vscode("SessionStart"), Some("sessionStart"));
    assert_eq!(copilot.event, Event::Other, "the Copilot CLI entries stand aside");
    // Claude Code's own input has no timestamp: all as before.
    let claude = json!({ "hook_event_name": "Stop", "session_id": "c1", "transcript_path": "/t.jsonl" });
    assert_eq!(Client::ClaudeCode.hook_input(&claude).event, Event::TurnEnd);
    let copilot =
        Client::CopilotCli.hook_input_named(&json!({ "sessionId": "s", "cwd": "/w" }), Some("agentStop"));
    assert_eq!(copilot.event, Event::TurnEnd);
}

#[test]
fn cline_s_recorded_hook_inputs_read_into_one_input() {
    let cline = |text: &str, event: &str| {
        Client::Cline.hook_input_named(&serde_json::from_str(text).unwrap(), Some(event))
    };
    let tool = cline(include_str!("../../tests/fixtures/cline-3.0.65/PreToolUse.json"), "PreToolUse");
    assert_eq!(tool.event, Event::ToolUse(true));
    assert_eq!(
        tool.tool.as_ref().map(|t| t.name.as_str()),
        Some("run_commands"),
        "the last tool call recorded"
    );
    assert_eq!(tool.cwd.as_deref(), Some("/tmp/rec/work"));
    let session = tool.session.clone().unwrap();
    let done = cline(include_str!("../../tests/fixtures/cline-3.0.65/TaskComplete.json"), "TaskComplete");
    assert_eq!((done.event, done.session.as_deref()), (Event::TurnEnd, Some(session.as_str())));
    // Its session file, found from the root session's id.
    let file = done.transcript.unwrap();
    assert!(file.ends_with(format!("{session}/{session}.messages.json")), "{}", file.display());
    assert_eq!(
        done.last_message.as_deref(),
        Some("Retry helper written; the retry policy still needs documenting.")
    );
    // What it reads back at a tool call; nothing at a task's start.
    let out = Client::Cline.hook_reply(&tool, &Reply::Context("the preamble".into()));
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({ "contextModification": "the preamble" })
    );
    let start = cline(include_str!("../../tests/fixtures/cline-3.0.65/TaskStart.json"), "TaskStart");
    assert_eq!(start.event, Event::Other);
    // An id that would climb out of Cline's folder names no file.
    let odd = cline(r#"{"sessionContext": {"rootSessionId": "../../etc"}}"#, "TaskComplete");
    assert_eq!(odd.transcript, None);
}

#[test]
fn codex_s_recorded_pre_tool_input_is_a_shell_command_and_an_ask_is_refused() {
    let sent = include_str!("../../tests/fixtures/codex-0.169.0/PreToolUse-apply_patch.json");
    let input = Client::Codex.hook_input(&serde_json::from_str(sent).unwrap());
    assert_eq!(input.event, Event::ToolUse(true));
    let tool = input.tool.as_ref().unwrap();
    let edit = (Client::Codex.dialect().unwrap().edited)(tool);
    assert!(
        matches!(&edit, Some(Edit::Shell(c)) if c.starts_with("apply_patch <<'PATCH'") && c.contains("*** Delete File: old_retry.py")),
        "{edit:?}"
    );
    // 0.169 runs the command when the answer is `ask`: it is refused, with the reason.
    let reply = Client::Codex.hook_reply(&input, &Reply::Guard(Guard::Ask("held".into())));
    let out: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny", "{out}");
    assert_eq!(out["hookSpecificOutput"]["permissionDecisionReason"], "held");
    let claude = Client::ClaudeCode.hook_reply(&input, &Reply::Guard(Guard::Ask("held".into())));
    assert!(claude.contains("\"ask\""), "Claude Code asks: {claude}");
}

#[test]
fn gemini_cli_before_tool_names_what_its_tools_write_and_takes_a_top_level_deny() {
    // The shape Gemini CLI 0.61's `BeforeTool` sends, and the one it reads: a top-level
    // `decision` (its `hookSpecificOutput` context is not read before a tool).
    for (tool, args, want) in [
        ("write_file", json!({ "file_path": "retry.py", "content": "x" }), Edit::File("retry.py".into())),
        (
            "replace",
            json!({ "file_path": "/w/a.rs", "old_string": "a", "new_string": "b" }),
            Edit::File("/w/a.rs".into()),
        ),
        ("run_shell_command", json!({ "command": "rm old.py" }), Edit::Shell("rm old.py".into())),
    ] {
        let sent = json!({ "hook_event_name": "BeforeTool", "session_id": "g", "cwd": "/w", "tool_name": tool,
                           "tool_input": args, "transcript_path": "/t.json" });
        let input = Client::GeminiCli.hook_input(&sent);
        assert_eq!(input.event, Event::ToolUse(true));
        let edit = (Client::GeminiCli.dialect().unwrap().edited)(input.tool.as_ref().unwrap());
        assert_eq!(edit, Some(want), "{tool}");
    }
    let read = json!({ "hook_event_name": "BeforeTool", "tool_name": "read_file", "tool_input": { "file_path": "a" } });
    let input = Client::GeminiCli.hook_input(&read);
    assert_eq!((Client::GeminiCli.dialect().unwrap().edited)(input.tool.as_ref().unwrap()), None);
    for guard in [Guard::Deny("held".into()), Guard::Ask("held".into())] {
        let out: Value =
            serde_json::from_str(&Client::GeminiCli.hook_reply(&input, &Reply::Guard(guard))).unwrap();
        assert_eq!(out, json!({ "decision": "deny", "reason": "held" }));
    }
    assert!(!Client::GeminiCli.dialect().unwrap().asks_before_edit, "Mooring asks the person for it");
}

#[test]
fn qwen_code_pre_tool_use_names_what_its_tools_write_and_never_sends_its_refusing_ask() {
    // The shape Qwen Code 0.15.10's `PreToolUse` sends (its tools by their own names), and
    // the one it reads: Claude Code's `permissionDecision`, where `ask` refuses too.
    let qwen = Client::QwenCode.dialect().unwrap();
    for (tool, args, want) in [
        (
            "write_file",
            json!({ "file_path": "/w/retry.py", "content": "x" }),
            Edit::File("/w/retry.py".into()),
        ),
        (
            "edit",
            json!({ "file_path": "a.rs", "old_string": "a", "new_string": "b" }),
            Edit::File("a.rs".into()),
        ),
        ("run_shell_command", json!({ "command": "mv a b" }), Edit::Shell("mv a b".into())),
    ] {
        let sent = json!({ "hook_event_name": "PreToolUse", "session_id": "q", "cwd": "/w", "tool_name": tool,
                           "tool_input": args, "tool_use_id": "t1", "permission_mode": "yolo" });
        let input = Client::QwenCode.hook_input(&sent);
        assert_eq!(input.event, Event::ToolUse(true));
        assert_eq!((qwen.edited)(input.tool.as_ref().unwrap()), Some(want), "{tool}");
    }
    let read = json!({ "hook_event_name": "PreToolUse", "tool_name": "read_file", "tool_input": { "file_path": "a" } });
    let input = Client::QwenCode.hook_input(&read);
    assert_eq!((qwen.edited)(input.tool.as_ref().unwrap()), None);
    for guard in [Guard::Deny("held".into()), Guard::Ask("held".into())] {
        let out: Value =
            serde_json::from_str(&Client::QwenCode.hook_reply(&input, &Reply::Guard(guard))).unwrap();
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(out["hookSpecificOutput"]["permissionDecisionReason"], "held");
    }
    assert!(!qwen.asks_before_edit, "Mooring asks the person for it");
    let entry = (qwen.pre_edit_entry.unwrap())("mooring hook qwen-code");
    let matcher = regex_lite_free_match(entry["matcher"].as_str().unwrap());
    assert_eq!(matcher, ["write_file", "edit", "run_shell_command"]);
}

#[test]
fn opencode_s_writing_tools_are_read_for_their_files_and_a_refusal_is_what_its_plugin_throws() {
    // What Mooring's plugin hands over from opencode 1.18.33's `tool.execute.before`; an
    // `apply_patch` goes to core as Codex's patches do (cli/tests/claims.rs reads it).
    let opencode = Client::Opencode.dialect().unwrap();
    let patch = "*** Begin Patch\n*** Add File: b.rs\n+x\n*** End Patch";
    for (tool, args, want) in [
        (
            "write",
            json!({ "filePath": "/w/retry.py", "content": "x" }),
            Some(Edit::File("/w/retry.py".into())),
        ),
        (
            "edit",
            json!({ "filePath": "a.rs", "oldString": "a", "newString": "b" }),
            Some(Edit::File("a.rs".into())),
        ),
        ("bash", json!({ "command": "echo x > out.txt" }), Some(Edit::Shell("echo x > out.txt".into()))),
        (
            "apply_patch",
            json!({ "patchText": patch }),
            Some(Edit::Shell(format!("apply_patch <<'MOORING_PATCH'\n{patch}\nMOORING_PATCH"))),
        ),
        ("read", json!({ "filePath": "a.rs" }), None),
    ] {
        let sent = json!({ "hook_event_name": "tool.execute.before", "session_id": "ses_1", "cwd": "/w",
                           "tool_name": tool, "tool_input": args });
        let input = Client::Opencode.hook_input(&sent);
        assert_eq!(input.event, Event::ToolUse(true));
        assert_eq!((opencode.edited)(input.tool.as_ref().unwrap()), want, "{tool}");
    }
    let input = Client::Opencode.hook_input(&json!({ "hook_event_name": "tool.execute.before" }));
    for guard in [Guard::Deny("held".into()), Guard::Ask("held".into())] {
        let out: Value =
            serde_json::from_str(&Client::Opencode.hook_reply(&input, &Reply::Guard(guard))).unwrap();
        assert_eq!(out, json!({ "deny": "held" }));
    }
    let warned = Client::Opencode.hook_reply(&input, &Reply::Guard(Guard::Warn("held".into())));
    assert!(!warned.contains("deny"), "a warning never stops the tool: {warned}");
    assert!(!opencode.asks_before_edit, "Mooring asks the person for it");
}

#[test]
fn cline_s_writing_tools_are_read_for_their_files_and_a_refusal_stops_its_task() {
    let cline = Client::Cline.dialect().unwrap();
    // Its recorded `PreToolUse` (a commit, which names no file it writes).
    let recorded: Value =
        serde_json::from_str(include_str!("../../tests/fixtures/cline-3.0.65/PreToolUse.json")).unwrap();
    let input = Client::Cline.hook_input_named(&recorded, Some("PreToolUse"));
    assert_eq!(input.event, Event::ToolUse(true));
    let commit = "git add -A && git commit -q -m 'Add the retry helper'";
    assert_eq!((cline.edited)(input.tool.as_ref().unwrap()), Some(Edit::Shell(commit.into())));
    let patch = "*** Begin Patch\n*** Add File: b.rs\n+x\n*** End Patch";
    for (tool, args, want) in [
        ("editor", json!({ "path": "/w/retry.py", "new_text": "x" }), Some(Edit::File("/w/retry.py".into()))),
        (
            "run_commands",
            json!({ "commands": ["rm a", "touch b"] }),
            Some(Edit::Shell("rm a\ntouch b".into())),
        ),
        ("apply_patch", json!({ "input": patch }), Some(Edit::patch(patch))),
        ("apply_patch", json!(patch), Some(Edit::patch(patch))),
        ("read_files", json!({ "paths": ["a"] }), None),
    ] {
        assert_eq!((cline.edited)(&Tool { name: tool.into(), input: args }), want, "{tool}");
    }
    for guard in [Guard::Deny("held".into()), Guard::Ask("held".into())] {
        let out: Value =
            serde_json::from_str(&Client::Cline.hook_reply(&input, &Reply::Guard(guard))).unwrap();
        assert_eq!(out, json!({ "cancel": true, "errorMessage": "held" }));
    }
    let warned: Value =
        serde_json::from_str(&Client::Cline.hook_reply(&input, &Reply::Guard(Guard::Warn("held".into()))))
            .unwrap();
    assert_eq!(warned, json!({ "contextModification": "held" }), "its model reads a warning");
    assert!(!cline.asks_before_edit);
}

#[test]
fn copilot_cli_s_recorded_pre_tool_use_names_the_file_and_a_refusal_is_its_top_level_deny() {
    let copilot_cli = Client::CopilotCli.dialect().unwrap();
    let input =
        copilot("preToolUse", include_str!("../../tests/fixtures/copilot-cli-1.0.102/preToolUse.json"));
    assert_eq!(input.event, Event::ToolUse(true));
    assert_eq!(
        (copilot_cli.edited)(input.tool.as_ref().unwrap()),
        Some(Edit::File("/tmp/rec/work/retry.py".into()))
    );
    for (tool, args, want) in [
        ("edit", json!({ "path": "a.rs", "old_str": "a", "new_str": "b" }), Some(Edit::File("a.rs".into()))),
        ("bash", json!({ "command": "rm a", "description": "x" }), Some(Edit::Shell("rm a".into()))),
        ("view", json!({ "path": "a.rs" }), None),
    ] {
        assert_eq!((copilot_cli.edited)(&Tool { name: tool.into(), input: args }), want, "{tool}");
    }
    for guard in [Guard::Deny("held".into()), Guard::Ask("held".into())] {
        let out: Value =
            serde_json::from_str(&Client::CopilotCli.hook_reply(&input, &Reply::Guard(guard))).unwrap();
        assert_eq!(out, json!({ "permissionDecision": "deny", "permissionDecisionReason": "held" }));
    }
    // A warning reaches its model and grants nothing the person's rules would ask about.
    let warned: Value = serde_json::from_str(
        &Client::CopilotCli.hook_reply(&input, &Reply::Guard(Guard::Warn("held".into()))),
    )
    .unwrap();
    assert_eq!(warned, json!({ "additionalContext": "held" }));
    assert!(!copilot_cli.asks_before_edit);
}

/// The tool names an anchored `^(a|b|c)$` matcher names.
fn regex_lite_free_match(matcher: &str) -> Vec<&str> {
    matcher.strip_prefix("^(").and_then(|m| m.strip_suffix(")$")).expect("anchored").split('|').collect()
}
