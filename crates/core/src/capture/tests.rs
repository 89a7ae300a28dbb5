//! Capture on a transcript recorded from the real Claude Code (2.1.330, `claude -p`
//! against the test tier's scripted model: two tasks, a file written then edited, a
//! command carrying a token, one task completed), stored in a real store.

use mooring_clients::Client;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Captured, SessionRecord, Turn, capture, key};
use crate::memory::{ListQuery, list};
use crate::{NewProject, Registry, Store};

/// Recorded with `tests/e2e/lib/model_standin.py` (STANDIN_SCRIPT=work) in /tmp/rec/work.
const RECORDED: &str = include_str!("../../tests/fixtures/claude-code-2.1.330-work.jsonl");
const CWD: &str = "/tmp/rec/work";
/// A client session id, long enough that finding it in a file means it was stored.
const SESSION: &str = "5b1d3c0e-9a7f-4e21-b6d4-c1a2f3e4d5c6";
const SECRET: &str = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";

fn fold(text: &str) -> SessionRecord {
    let mut r = SessionRecord::new("claude-code", "k");
    for line in text.lines() {
        if let Ok(v) = serde_json::from_str(line) {
            super::claude_code::apply(&mut r, &v, super::Place { root: Some(CWD), cwd: Some(CWD) });
        }
    }
    r
}

struct World {
    dir: tempfile::TempDir,
    store: Store,
}

impl World {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        Registry::new(&store).create(NewProject { name: "Retry".into(), ..NewProject::default() }).unwrap();
        Self { dir, store }
    }

    fn transcript(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn capture(&self, session: &str, transcript: &Path) -> Captured {
        let turn = Turn { cwd: Some(CWD), ..Turn::new(Client::ClaudeCode, session, transcript) };
        capture(&self.store, "retry", &turn).unwrap()
    }

    /// The stored record of `client`'s session [`SESSION`].
    fn record(&self, client: &str) -> SessionRecord {
        let (_, row) =
            crate::store::backend::MemoryReads::session_entry(&self.store, "retry", &key(client, SESSION))
                .unwrap();
        serde_json::from_str(&row.unwrap().data.unwrap()).unwrap()
    }

    fn sessions(&self) -> Vec<crate::memory::Entry> {
        let q = ListQuery { kind: Some("session".into()), limit: Some(50), ..ListQuery::default() };
        list(&self.store, "retry", &q).unwrap().entries
    }
}

#[test]
fn the_recorded_session_folds_into_what_was_asked_changed_run_and_left_open() {
    let r = fold(RECORDED);
    assert_eq!(r.requests, ["Add a retry helper and keep a todo list"]);
    assert_eq!(r.files.len(), 1, "{:?}", r.files);
    assert_eq!(
        (r.files[0].path.as_str(), r.files[0].action),
        ("retry.py", super::record::FileAction::Created)
    );
    assert_eq!(r.commands.len(), 1);
    assert!(r.commands[0].command.ends_with("git status --short") && !r.commands[0].failed);
    let todos: Vec<(&str, bool)> = r.todos.iter().map(|t| (t.subject.as_str(), t.open())).collect();
    assert_eq!(todos, [("Add the retry helper", false), ("Document the retry policy", true)]);
    assert_eq!(
        r.last_message.as_deref(),
        Some("Retry helper written; the retry policy still needs documenting.")
    );
    assert!(r.mooring_tools.is_empty());
    assert!(r.started_at.is_some() && r.last_at >= r.started_at);
    // Nothing of the client's own context (system prompt, reminders) is taken for a request.
    assert!(!r.requests.iter().any(|q| q.contains("system-reminder") || q.contains("Environment")));
}

#[test]
fn a_session_is_stored_once_scrubbed_and_brought_up_to_date_turn_by_turn() {
    let w = World::new();
    // The first turn's hook sees half the transcript; the second sees all of it.
    let lines: Vec<&str> = RECORDED.lines().collect();
    let half = lines
        .iter()
        .position(|l| l.contains("\"type\":\"assistant\"") && l.contains("\"name\":\"Write\""))
        .unwrap();
    let path = w.transcript("t.jsonl", &(lines[..half].join("\n") + "\n"));
    assert!(matches!(w.capture(SESSION, &path), Captured::Stored { .. }));
    assert!(w.sessions()[0].content.contains("Still open"), "{}", w.sessions()[0].content);
    std::fs::write(&path, RECORDED).unwrap();
    for _ in 0..5 {
        assert!(matches!(w.capture(SESSION, &path), Captured::Stored { .. }));
    }
    let sessions = w.sessions();
    assert_eq!(sessions.len(), 1, "one record per session, however often the hook runs");
    let text = &sessions[0].content;
    assert!(text.contains("created retry.py") && text.contains("Document the retry policy"), "{text}");
    assert!(!text.contains(SECRET) && text.contains("[redacted"), "{text}");
    let raw = std::fs::read(w.dir.path().join("mooring.db")).unwrap();
    let wal = std::fs::read(w.dir.path().join("mooring.db-wal")).unwrap_or_default();
    for bytes in [&raw, &wal] {
        assert!(!bytes.windows(SECRET.len()).any(|b| b == SECRET.as_bytes()), "the token reached a file");
    }
    // The client's session id (it can resume the session) is stored nowhere; its hash
    // keys the record.
    let id = SESSION.as_bytes();
    assert!(!raw.windows(id.len()).any(|b| b == id) && !wal.windows(id.len()).any(|b| b == id));
    use crate::store::backend::MemoryReads as _;
    let (_, found) = w.store.session_entry("retry", &key("claude-code", SESSION)).unwrap();
    assert_eq!(found.map(|r| r.id), Some(sessions[0].id));

    // A second session in the same project is a second record.
    let other = w.transcript("u.jsonl", RECORDED);
    w.capture("s-2", &other);
    assert_eq!(w.sessions().len(), 2);
}

#[test]
fn a_forgotten_record_stays_forgotten_and_an_empty_session_stores_nothing() {
    let w = World::new();
    let quiet = w.transcript("q.jsonl", "{\"type\":\"queue-operation\"}\n");
    assert_eq!(w.capture("s-0", &quiet), Captured::Nothing);
    assert!(w.sessions().is_empty());
    let path = w.transcript("t.jsonl", RECORDED);
    let Captured::Stored { id, .. } = w.capture("s-1", &path) else { panic!("not stored") };
    crate::memory::forget(&w.store, "retry", id).unwrap();
    assert_eq!(w.capture("s-1", &path), Captured::Forgotten);
    assert!(w.sessions().is_empty());
}

#[test]
fn a_damaged_transcript_loses_nothing_else() {
    let w = World::new();
    let mut bytes = RECORDED.as_bytes().to_vec();
    bytes.extend(b"\xff\xfe junk that is not json\n{\"type\":\"something-new\",\"x\":1}\n");
    bytes.extend(
        format!("{{\"type\":\"user\",\"message\":{{\"content\":\"{}\"}}}}\n", "y".repeat(2 << 20)).as_bytes(),
    );
    bytes.extend(b"{\"type\":\"user\",\"message\":{\"content\":\"and then the tests\"");
    let path = w.dir.path().join("t.jsonl");
    std::fs::File::create(&path).unwrap().write_all(&bytes).unwrap();
    assert!(matches!(w.capture("s-1", &path), Captured::Stored { .. }));
    let record = &w.sessions()[0];
    assert!(record.content.contains("Add a retry helper"), "{}", record.content);
    assert!(!record.content.contains("and then the tests"), "a line still being written waits");
    // The line is finished later: the next turn reads it.
    std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"}}\n").unwrap();
    w.capture("s-1", &path);
    assert!(w.sessions()[0].content.contains("and then the tests"));
}

/// Recorded by `scripts/record-session-fixtures.sh` from Codex 0.169.0 and Gemini CLI
/// 0.61.0 in /tmp/rec/work: a file added then edited, a file deleted (by apply_patch for
/// Codex, `rm` for Gemini CLI), a command carrying a token, a rename and a commit.
const CODEX: &str = include_str!("../../tests/fixtures/codex-0.169.0-work.jsonl");
const GEMINI: &str = include_str!("../../tests/fixtures/gemini-cli-0.61.0-work.jsonl");
/// Recorded from GitHub Copilot CLI 1.0.102 (`copilot -p`, its `create`, `edit` and `bash`
/// tools over the Anthropic stand-in, `STANDIN_SCRIPT=work`; the recording's /tmp folders
/// renamed to the others'): the same session's work.
const COPILOT: &str = include_str!("../../tests/fixtures/copilot-cli-1.0.102-work.jsonl");
/// Recorded from Qwen Code 0.15.10 by `tests/e2e/qwen_code.sh` (`qwen -p`, its
/// `write_file`, `edit` and `run_shell_command` over the Chat Completions stand-in, with
/// Mooring's hooks installed, so the person's line carries the project's context as a
/// second part; the /tmp folders renamed to the others'): the same session's work.
const QWEN: &str = include_str!("../../tests/fixtures/qwen-code-0.15.10-work.jsonl");
/// Exported from opencode 1.18.33's database after `opencode run` (its `write`, `edit`,
/// `todowrite` and `bash` over the Chat Completions stand-in, with a plugin that added a
/// synthetic part to the prompt), one `{message, part, at}` a line as the capture reads
/// its rows: the same session's work.
const OPENCODE: &str = include_str!("../../tests/fixtures/opencode-1.18.33-work.jsonl");
/// Exported the same way from the Kilo CLI 7.7.7's database after `kilo run`, by
/// `tests/e2e/kilo.sh` (kept with `KEEP=1`): a fork of opencode, the same schema.
const KILO: &str = include_str!("../../tests/fixtures/kilo-7.7.7-work.jsonl");
/// Pi 0.73.1's session file (`scripts/record-session-fixtures.sh pi`), with the context
/// Mooring's extension added as a message of its own.
const PI: &str = include_str!("../../tests/fixtures/pi-0.73.1-work.jsonl");

fn fold_as(client: Client, text: &str) -> SessionRecord {
    let fold = super::folder(client).unwrap();
    let mut r = SessionRecord::new(client.name(), "k");
    // A line each, or (Cline) the messages of one JSON document.
    let lines: Vec<serde_json::Value> = match client {
        Client::Cline => {
            serde_json::from_str::<serde_json::Value>(text).unwrap()["messages"].as_array().unwrap().clone()
        }
        _ => text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect(),
    };
    for v in &lines {
        fold(&mut r, v, super::Place { root: Some("/tmp/rec/work"), cwd: Some("/tmp/rec/work") });
    }
    r
}

#[test]
fn every_client_s_recorded_session_folds_into_the_same_record() {
    use super::record::FileAction::{Created, Deleted, Renamed, Written};
    for client in [
        Client::Codex,
        Client::GeminiCli,
        Client::CopilotCli,
        Client::QwenCode,
        Client::Opencode,
        Client::Kilo,
        Client::Cline,
        Client::Pi,
    ] {
        let recorded = match client {
            Client::Codex => CODEX,
            Client::Cline => CLINE,
            Client::GeminiCli => GEMINI,
            Client::QwenCode => QWEN,
            Client::Opencode => OPENCODE,
            Client::Kilo => KILO,
            Client::Pi => PI,
            _ => COPILOT,
        };
        let r = fold_as(client, recorded);
        assert_eq!(r.requests, ["Add a retry helper"], "{client}");
        let files: Vec<(&str, super::record::FileAction, Option<&str>)> =
            r.files.iter().map(|f| (f.path.as_str(), f.action, f.from.as_deref())).collect();
        // Created then edited in the session stays "created"; Pi's `write` does not say
        // whether the file was new.
        let new = if client == Client::Pi { Written } else { Created };
        assert_eq!(
            files,
            [
                ("retry.py", new, None),
                ("old_retry.py", Deleted, None),
                ("NOTES.md", Renamed, Some("notes.txt"))
            ],
            "{client}"
        );
        let commands: Vec<&str> = r.commands.iter().map(|c| c.command.as_str()).collect();
        assert!(commands.iter().any(|c| c.ends_with("git status --short")), "{client}: {commands:?}");
        assert!(commands.iter().any(|c| c.contains("git commit")), "{client}: {commands:?}");
        assert!(
            !commands.iter().any(|c| c.contains("apply_patch")),
            "{client}: a patch is a change, not a command"
        );
        assert!(r.commands.iter().all(|c| !c.failed), "{client}");
        assert_eq!(
            r.last_message.as_deref(),
            Some("Retry helper written; the retry policy still needs documenting.")
        );
        assert!(r.model.is_some() && r.started_at.is_some() && r.last_at >= r.started_at, "{client}");
        assert!(
            !r.requests.iter().any(|q| q.contains("environment_context") || q.contains("session_context"))
        );
        // The file's contents, in both session files, are in no field.
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("min(n, 3)") && !json.contains("def retry"), "{client}: {json}");
    }
}

/// Cursor cannot run here: its transcript is written from the shape its published
/// integrations recorded (Cursor 3.x and its CLI), doing the same work.
const CURSOR: &str = include_str!("../../tests/fixtures/cursor-published-format-work.jsonl");

#[test]
fn cursor_s_transcript_in_its_published_format_folds_into_the_record() {
    use super::record::FileAction::{Deleted, Renamed, Written};
    let r = fold_as(Client::Cursor, CURSOR);
    // The person's words only: not the time, the attached file or the client's reminder.
    assert_eq!(r.requests, ["Add a retry helper"]);
    let files: Vec<(&str, super::record::FileAction)> =
        r.files.iter().map(|f| (f.path.as_str(), f.action)).collect();
    // No tool's result is written: a file written and then edited is "written".
    assert_eq!(files, [("retry.py", Written), ("old_retry.py", Deleted), ("NOTES.md", Renamed)]);
    assert!(!files.iter().any(|(p, _)| *p == "notes.txt"), "a file read is not a change");
    let commands: Vec<&str> = r.commands.iter().map(|c| c.command.as_str()).collect();
    assert!(commands.contains(&"git status --short") && commands.iter().any(|c| c.contains("git commit")));
    assert_eq!(
        r.last_message.as_deref(),
        Some("Retry helper written; the retry policy still needs documenting.")
    );
    assert_eq!(r.mooring_tools.get("remember"), Some(&1));
    let todos: Vec<&str> = r.todos.iter().map(|t| t.subject.as_str()).collect();
    assert_eq!(todos, ["Write retry.py", "Document the retry policy"]);
    let json = serde_json::to_string(&r).unwrap();
    assert!(
        !json.contains("min(n, 3)") && !json.contains("def retry") && !json.contains("retry twice"),
        "{json}"
    );
}

#[test]
fn cursor_s_timeless_transcript_is_dated_by_its_file_and_its_secrets_never_stored() {
    let w = World::new();
    let path = w.transcript("c9.jsonl", CURSOR);
    let turn = Turn { cwd: Some(CWD), ..Turn::new(Client::Cursor, SESSION, &path) };
    capture(&w.store, "retry", &turn).unwrap();
    let sessions = w.sessions();
    assert_eq!(sessions.len(), 1);
    let text = format!("{} {}", sessions[0].title, sessions[0].content);
    assert!(text.contains("Add a retry helper") && !text.contains(SECRET), "{text}");
    let record = w.record("cursor");
    assert!(record.started_at.is_some() && record.last_at >= record.started_at, "{record:?}");
}

/// Recorded by `scripts/record-session-fixtures.sh cline` from Cline 3.0.65 (its whole
/// session file, as it stands when its `TaskComplete` hook runs).
const CLINE: &str = include_str!("../../tests/fixtures/cline-3.0.65-work.messages.json");

#[test]
fn cline_s_session_file_is_read_whole_and_on_as_it_grows() {
    // What it folds into is checked with the other clients' recordings above.
    let w = World::new();
    let path = w.transcript("s.messages.json", CLINE);
    let turn = Turn { cwd: Some(CWD), ..Turn::new(Client::Cline, SESSION, &path) };
    capture(&w.store, "retry", &turn).unwrap();
    let r = w.record("cline");
    assert_eq!(r.requests, ["Add a retry helper"]);
    assert_eq!(r.read_to, 12, "every message of the file");
    let text = w.sessions()[0].content.clone();
    assert!(!text.contains(SECRET) && !text.contains("def retry"), "{text}");
    // The file is rewritten as the session goes on: the next turn reads only what it gained.
    let mut grown: serde_json::Value = serde_json::from_str(CLINE).unwrap();
    let ask = serde_json::json!({ "id": "u2", "role": "user", "ts": 1_795_823_100_000_i64,
        "content": [{ "type": "text", "text": "<user_input mode=\"act\">Now document the retry policy<hook_context>Context from a hook</hook_context></user_input>" }] });
    grown["messages"].as_array_mut().unwrap().push(ask);
    std::fs::write(&path, grown.to_string()).unwrap();
    capture(&w.store, "retry", &turn).unwrap();
    let r = w.record("cline");
    assert_eq!(r.requests, ["Add a retry helper", "Now document the retry policy"]);
    assert_eq!(r.requests_total, 2);
}

#[test]
fn gemini_folds_each_tool_call_once_though_its_line_is_written_again() {
    let once = fold_as(Client::GeminiCli, GEMINI);
    let doubled: String = GEMINI.lines().flat_map(|l| [l, l]).collect::<Vec<_>>().join("\n");
    let twice = fold_as(Client::GeminiCli, &doubled);
    assert_eq!(twice.commands, once.commands);
    assert_eq!(twice.commands_total, once.commands_total);
}

#[test]
fn a_client_whose_files_mooring_does_not_read_is_refused_by_name() {
    let w = World::new();
    let path = w.transcript("t.jsonl", RECORDED);
    let turn = Turn::new(Client::Zed, "s", &path);
    let err = capture(&w.store, "retry", &turn).unwrap_err().to_string();
    assert!(err.contains("does not read zed's session files"), "{err}");
    assert!(super::reads(Client::Codex) && super::reads(Client::Windsurf) && !super::reads(Client::Zed));
}

#[test]
fn another_transcript_for_the_same_session_is_read_from_its_start() {
    let w = World::new();
    let first = w.transcript("a.jsonl", RECORDED);
    w.capture(SESSION, &first);
    let ask = r#"{"type":"user","timestamp":"2026-11-24T10:00:00Z","message":{"role":"user","content":"Now document the retry policy"}}"#;
    let second = w.transcript("b.jsonl", &format!("{ask}\n"));
    assert!(matches!(w.capture(SESSION, &second), Captured::Stored { .. }));
    let text = &w.sessions()[0].content;
    assert!(text.contains("Now document the retry policy") && !text.contains("created retry.py"), "{text}");
}

#[test]
fn a_slow_turn_stores_what_it_read_and_the_next_turn_reads_on() {
    let w = World::new();
    // Far more than one slice: the turn's deadline has passed before it starts.
    let lines: Vec<&str> = RECORDED.lines().collect();
    let mut text = String::new();
    while text.len() < 3 * super::transcript::SLICE as usize {
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    let path = w.transcript("long.jsonl", &text);
    let late = Turn {
        cwd: Some(CWD),
        deadline: Some(std::time::Instant::now()),
        ..Turn::new(Client::ClaudeCode, SESSION, &path)
    };
    let mut turns = 0;
    loop {
        turns += 1;
        match capture(&w.store, "retry", &late).unwrap() {
            Captured::Behind { .. } => assert!(turns < 10, "no progress"),
            Captured::Stored { .. } => break,
            other => panic!("{other:?}"),
        }
    }
    assert!(turns >= 3, "{turns} turns for three slices");
    let record = w.record("claude-code");
    assert_eq!(record.read_to, text.len() as u64);
}

/// Recorded by `scripts/record-session-fixtures.sh claude-real` from Claude Code 2.1.330
/// in /tmp/rec/real: `/review the auth module` (a custom slash command), `git pull`, `cd assets`, a
/// Write there, an Edit and an `rm` the permission system refused, a subagent (`Agent`)
/// that wrote `lib/helper.js` in its own transcript, a commit with a two-line message, a
/// 1.3 MB prompt, then `/compact` with the model's summary.
fn real_fixture(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)).unwrap()
}

#[test]
fn a_recorded_real_world_session_says_what_really_happened() {
    let w = World::new();
    let path = w.dir.path().join("7c0ffee0.jsonl");
    let main = real_fixture("claude-code-2.1.330-real.jsonl");
    std::fs::write(&path, &main).unwrap();
    let sub = w.dir.path().join("7c0ffee0/subagents");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("agent-a6c62002944d08d98.jsonl"),
        real_fixture("claude-code-2.1.330-real-subagent.jsonl"),
    )
    .unwrap();
    // The hook's cwd follows the agent's `cd`.
    let turn = Turn {
        cwd: Some("/tmp/rec/real/assets"),
        code_path: Some("/tmp/rec/real"),
        ..Turn::new(Client::ClaudeCode, SESSION, &path)
    };
    assert!(matches!(capture(&w.store, "retry", &turn).unwrap(), Captured::Stored { .. }));
    let (_, row) =
        crate::store::backend::MemoryReads::session_entry(&w.store, "retry", &key("claude-code", SESSION))
            .unwrap();
    let row = row.unwrap();
    let r: SessionRecord = serde_json::from_str(row.data.as_deref().unwrap()).unwrap();
    assert_eq!(r.read_to, main.len() as u64, "the 1.3 MB line is read, not skipped");
    assert_eq!(r.requests.len(), 2, "{:?}", r.requests);
    assert_eq!(r.requests[0], "/review the auth module");
    assert!(
        r.requests[1].starts_with("Why does this log repeat? GET /health 200")
            && r.requests[1].ends_with('…')
    );
    let files: Vec<(&str, super::record::FileAction, bool)> =
        r.files.iter().map(|f| (f.path.as_str(), f.action, f.subagent)).collect();
    use super::record::FileAction::{Created, Written};
    // A subagent's transcript has no `toolUseResult` to say the file was new: written.
    assert_eq!(
        files,
        [("assets/app.js", Created, false), ("lib/helper.js", Written, true)],
        "the refused Edit is absent"
    );
    let commands: Vec<(&str, bool)> = r.commands.iter().map(|c| (c.command.as_str(), c.failed)).collect();
    assert_eq!(
        commands,
        [
            ("git pull -q", false),
            ("cd assets", false),
            ("git add -A && git commit -q -m \"Add the app script …", false)
        ],
        "the refused rm never ran"
    );
    let carry = r.context_carry.as_deref().unwrap();
    assert!(
        carry.contains("review the auth module") && carry.contains("Document the auth review"),
        "{carry}"
    );
    assert!(!carry.contains("```") && !carry.contains("Working notes"), "{carry}");
    assert_eq!(r.compactions, 1);
    assert!(
        row.content.contains("**Before compaction:**")
            && row.content.contains("wrote lib/helper.js (subagent)")
    );
    assert!(!row.content.contains("README") && !row.content.contains("../docs"), "{}", row.content);
}

#[test]
fn a_private_span_across_a_messages_text_blocks_is_dropped_whole() {
    let w = World::new();
    let line = serde_json::json!({"type": "user", "timestamp": "2026-11-24T10:00:00Z", "message": {"role": "user",
        "content": [{"type": "text", "text": "Deploy with <private>the vault pass"},
                    {"type": "text", "text": "is Qx7-plum-Harbor</private> tonight"}]}});
    let path = w.transcript("p.jsonl", &format!("{line}\n"));
    w.capture(SESSION, &path);
    let text = &w.sessions()[0].content;
    assert!(!text.contains("Qx7-plum-Harbor") && !text.contains("vault pass"), "{text}");
    assert!(text.contains("Deploy with") && text.contains("tonight"), "{text}");
}

#[test]
fn every_string_a_record_holds_is_scanned_whatever_field_holds_it() {
    let mut r = SessionRecord::new("claude-code", "k");
    r.model = Some(format!("model {SECRET}"));
    r.ended = Some(format!("reason {SECRET}"));
    r.add_todo(&format!("rotate {SECRET}"), Some(SECRET.to_owned()));
    r.carry(&format!("The key {SECRET} was rotated."));
    r.wait(
        "call-1",
        super::record::Pending::Command {
            command: format!("curl -u x:{SECRET}"),
            cwd: None,
            subagent: false,
        },
    );
    let found = r.scrub();
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains(SECRET), "{json}");
    assert!(found.count >= 5, "{found:?}");
    assert!(r.pending.contains_key("call-1"), "call ids are Mooring's and stay");
}

#[test]
fn a_secret_caught_in_one_field_is_taken_out_of_every_field() {
    // An AWS secret value: named in the command line, bare in the agent's last word.
    let value = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    let mut r = SessionRecord::new("claude-code", "k");
    r.command(&format!("aws configure set aws_secret_access_key {value}"), super::Place::default(), false);
    r.last_message = Some(format!("Done. I set the key to {value} as you asked."));
    r.requests.push(format!("use this: {value}"));
    let found = r.scrub();
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains(value), "{json}");
    assert!(r.last_message.as_deref().unwrap().contains("[redacted:"), "{:?}", r.last_message);
    assert!(found.count >= 3, "{found:?}");
    // And an unlabelled one after its key id is found on its own.
    let mut alone = SessionRecord::new("claude-code", "k2");
    alone.last_message = Some(format!("Key AKIAQZ7R2XK4M6P5T3VW and {value}."));
    alone.scrub();
    assert!(!alone.last_message.as_deref().unwrap().contains(value), "{:?}", alone.last_message);
}

#[test]
fn what_git_saw_never_overrides_what_a_tool_or_a_subagent_named() {
    let mut r = SessionRecord::new("claude-code", "k");
    r.file("lib/helper.js", super::record::FileAction::Written, true);
    r.file("notes.txt", super::record::FileAction::SeenByGit, false);
    r.seen_by_git(
        &[std::path::PathBuf::from("/w/lib/helper.js")],
        super::Place { root: Some("/w"), cwd: Some("/w") },
    );
    r.file("notes.txt", super::record::FileAction::Edited, false);
    let helper = r.files.iter().find(|f| f.path == "lib/helper.js").unwrap();
    assert!(helper.subagent && helper.action == super::record::FileAction::Written, "{helper:?}");
    let notes = r.files.iter().find(|f| f.path == "notes.txt").unwrap();
    assert_eq!(notes.action, super::record::FileAction::Edited, "a tool's word replaces git's");
    // Git can see a subagent's write before its transcript is flushed: the subagent's
    // word, when it comes, replaces git's, including who wrote the file.
    let mut late = SessionRecord::new("claude-code", "k2");
    late.file("lib/helper.js", super::record::FileAction::SeenByGit, false);
    late.file("lib/helper.js", super::record::FileAction::Written, true);
    let helper = &late.files[0];
    assert!(helper.subagent && helper.action == super::record::FileAction::Written, "{helper:?}");
    assert!(late.markdown().contains("lib/helper.js (subagent)"), "{}", late.markdown());
}

#[test]
fn opencode_sessions_are_read_from_its_database_a_slice_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("opencode.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
                               time_updated INTEGER NOT NULL, data TEXT NOT NULL);
         CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
                            time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);",
    )
    .unwrap();
    // Two sessions' rows, as recorded; and a row that is not JSON.
    for (n, line) in OPENCODE.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for session in ["ses_a", "ses_b"] {
            let (m, p) = (format!("{session}_m{n:03}"), format!("{session}_p{n:03}"));
            conn.execute(
                "INSERT INTO message VALUES (?1, ?2, 0, 0, ?3)",
                rusqlite::params![m, session, v["message"].to_string()],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO part VALUES (?1, ?2, ?3, ?4, 0, ?5)",
                rusqlite::params![p, m, session, v["at"].as_i64().unwrap(), v["part"].to_string()],
            )
            .unwrap();
        }
    }
    conn.execute("INSERT INTO message VALUES ('ses_a_zz', 'ses_a', 0, 0, 'not json')", []).unwrap();
    conn.execute("INSERT INTO part VALUES ('ses_a_zz', 'ses_a_zz', 'ses_a', 0, 0, '{')", []).unwrap();
    drop(conn);
    let place = super::Place { root: Some("/tmp/rec/work"), cwd: Some("/tmp/rec/work") };
    let mut r = SessionRecord::new("opencode", "k");
    let more = super::opencode::advance(&mut r, &db, "ses_a", place).unwrap();
    assert!(!more);
    assert_eq!(
        r.read_to,
        OPENCODE.lines().count() as u64 + 1,
        "every row of its session, the bad one passed over"
    );
    assert_eq!(r.requests, ["Add a retry helper"]);
    assert_eq!(r.commands.len(), 3);
    // Read again, nothing new: nothing is folded twice.
    assert!(!super::opencode::advance(&mut r, &db, "ses_a", place).unwrap());
    assert_eq!(r.commands.len(), 3);
    let missing = super::opencode::advance(&mut r, &dir.path().join("none.db"), "ses_a", place).unwrap_err();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
}
