//! Pi's hooks are an extension (checked against the pinned 0.73.1): a module in its
//! `extensions/` folder (`~/.pi/agent`, a checkout's `.pi/`) whose handlers see each
//! prompt before the model does (`before_agent_start`, which can add a message the model
//! reads), the end of the agent's run (`agent_end`), a compaction coming
//! (`session_before_compact`) and the session's end (`session_shutdown`). Mooring's
//! extension (one file, written whole) runs `mooring hook pi EVENT` with a Claude-shaped
//! input it builds from the handler's context: the session's id, its file (Pi's JSONL,
//! which core's capture reads) and its directory. Pi has no hook that can speak at a
//! session's start, so the first prompt brings the project's context; and no MCP, so
//! Mooring's tools are not offered there.

use serde_json::Value;

use super::{Abilities, Dialect, Event, Input, Reply, common, opencode};
use crate::entry::ShimSpec;

/// As opencode's plugin reads it; Pi's extension does not go on with the phone's words.
fn reply(input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Continue(_) => Value::Null,
        _ => opencode::reply(input, reply),
    }
}

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: false, permissions: false, session_rules: false },
    start_may_not_fire: true,
    plugin: Some(plugin),
    ..Dialect::BASE
};

fn event(name: Option<&str>) -> Event {
    match name {
        Some("before_agent_start") => Event::Prompt,
        Some("agent_end") => Event::TurnEnd,
        Some("session_before_compact") => Event::PreCompact,
        Some("session_shutdown") => Event::SessionEnd,
        _ => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    let mut input = common(v, named, event);
    // A prompt another extension sent (`pi.sendUserMessage`) reaches the same handler;
    // Pi's `input` event says where it came from, and the extension passes that on.
    input.from_person = v.get("source").and_then(Value::as_str) != Some("extension");
    input
}

/// The extension file, running this Mooring.
fn plugin(spec: &ShimSpec) -> String {
    EXTENSION
        .replace("__RUNS__", &format!("{}\n\n{}", opencode::CONTEXT_FOR, opencode::LATER))
        .replace("__ARGV__", &opencode::argv_json(spec, "pi"))
}

const EXTENSION: &str = r#"// Mooring for Pi: the project's context and recall at each prompt, and each session
// kept in the project's memory. Written by `mooring setup pi --hooks`;
// `mooring setup pi --remove` takes it out. mooring hook pi
import { spawn, spawnSync } from "node:child_process";

const ARGV = __ARGV__;

// Where the prompt being answered came from: typed, sent over RPC, or by an extension.
let source = "interactive";

function input(event, ctx, fields) {
  const session = ctx.sessionManager;
  return JSON.stringify({
    hook_event_name: event,
    session_id: session.getSessionId(),
    transcript_path: session.getSessionFile() || "",
    cwd: ctx.cwd,
    ...fields,
  });
}

__RUNS__

export default function (pi) {
  pi.on("input", (event) => {
    source = event.source || "interactive";
  });
  pi.on("before_agent_start", (event, ctx) => {
    const context = contextFor("before_agent_start", input("before_agent_start", ctx, { prompt: event.prompt, source }));
    if (context) return { message: { customType: "mooring", content: context, display: false } };
  });
  pi.on("agent_end", (_event, ctx) => later("agent_end", input("agent_end", ctx, {})));
  pi.on("session_before_compact", (_event, ctx) => {
    later("session_before_compact", input("session_before_compact", ctx, {}));
  });
  pi.on("session_shutdown", (event, ctx) =>
    later("session_shutdown", input("session_shutdown", ctx, { reason: event.reason })),
  );
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Client;
    use crate::hooks::Reply;
    use serde_json::json;

    /// What Mooring's extension handed the pinned 0.73.1's hooks in a recorded session
    /// (`scripts/record-session-fixtures.sh pi`).
    fn recorded(event: &str) -> Input {
        let text = match event {
            "before_agent_start" => include_str!("../../tests/fixtures/pi-0.73.1/before_agent_start.json"),
            "agent_end" => include_str!("../../tests/fixtures/pi-0.73.1/agent_end.json"),
            _ => include_str!("../../tests/fixtures/pi-0.73.1/session_shutdown.json"),
        };
        Client::Pi.hook_input_named(&serde_json::from_str(text).unwrap(), Some(event))
    }

    #[test]
    fn the_extension_s_recorded_inputs_read_as_a_prompt_a_turn_s_end_and_the_session_s_end() {
        let prompt = recorded("before_agent_start");
        assert_eq!(prompt.event, Event::Prompt);
        assert_eq!(prompt.prompt.as_deref(), Some("Add a retry helper"));
        assert!(prompt.from_person);
        assert_eq!(prompt.cwd.as_deref(), Some("/tmp/rec/work"));
        let session = prompt.session.clone().unwrap();
        let end = recorded("agent_end");
        assert_eq!((end.event, end.session.as_deref()), (Event::TurnEnd, Some(session.as_str())));
        let file = end.transcript.clone().unwrap();
        assert!(file.to_string_lossy().ends_with(&format!("_{session}.jsonl")), "{}", file.display());
        let quit = recorded("session_shutdown");
        assert_eq!((quit.event, quit.end_reason.as_deref()), (Event::SessionEnd, Some("quit")));
        // A prompt another extension sent is not the person's.
        let sent = Client::Pi.hook_input(
            &json!({ "hook_event_name": "before_agent_start", "prompt": "x", "source": "extension" }),
        );
        assert!(!sent.from_person);
        // The context goes back as the extension reads it; nothing else is answered.
        let out = Client::Pi.hook_reply(&prompt, &Reply::Context("the preamble".into()));
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap(),
            json!({ "additionalContext": "the preamble" })
        );
        assert_eq!(Client::Pi.hook_reply(&end, &Reply::Continue("go on".into())), "null");
    }

    #[test]
    fn the_extension_quotes_the_command_line_as_data() {
        let spec = ShimSpec { binary: "/opt/my \"mooring\"/mooring".into(), data_dir: Some("/d".into()) };
        let text = plugin(&spec);
        assert!(
            text.contains(r#"const ARGV = ["/opt/my \"mooring\"/mooring","--data-dir","/d","hook","pi"];"#),
            "{text}"
        );
        assert!(text.contains("mooring hook pi"), "Mooring's own file says so");
        for event in ["before_agent_start", "agent_end", "session_before_compact", "session_shutdown"] {
            assert!(text.contains(&format!("pi.on(\"{event}\"")), "{event}");
            assert_ne!(event_of(event), Event::Other, "{event}");
        }
    }

    fn event_of(name: &str) -> Event {
        event(Some(name))
    }
}
