//! The real-corpus tier: public transcripts of real sessions nobody here wrote (Claude Code
//! 1.0.98 to 2.1.152, Codex from the 2025 format to 0.146, Gemini CLI JSONL and legacy JSON),
//! each fed to the real `mooring hook CLIENT` as the client calls it — `Stop` after each
//! turn, then `SessionEnd` — and the stored record checked against the transcript itself:
//! every request is text the person typed or a slash command they ran, files and commands
//! are found, refused and rejected calls are absent, paths are relative to the checkout,
//! replaying turn by turn gives the record one pass gives, and planted secrets are stored
//! nowhere. The corpus lives beside the repository (`../shared/transcripts`); without it
//! the tier says so and checks nothing.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use common::Sandbox;
use serde_json::{Value, json};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/transcripts");
    if dir.is_dir() {
        return Some(dir);
    }
    eprintln!("SKIPPED: the real-transcript tier needs ../shared/transcripts beside the repository");
    None
}

fn client_of(name: &str) -> &'static str {
    if name.contains("codex") {
        "codex"
    } else if name.contains("gemini") {
        "gemini-cli"
    } else {
        "claude-code"
    }
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// The directory the session ran in, as the transcript names it.
fn original_cwd(text: &str) -> Option<String> {
    for v in lines(text) {
        for p in ["/cwd", "/payload/cwd"] {
            if let Some(c) = v.pointer(p).and_then(Value::as_str) {
                return Some(c.to_owned());
            }
        }
        let t = v.to_string();
        if let Some(at) = t.find("<cwd>") {
            let rest = &t[at + 5..];
            return rest.find("</cwd>").map(|end| rest[..end].to_owned());
        }
    }
    None
}

/// One transcript run through the hook in a sandbox of its own.
struct Run {
    sb: Sandbox,
    work: PathBuf,
    text: String,
    client: &'static str,
    path: PathBuf,
}

impl Run {
    fn new(name: &str, raw: &str) -> Self {
        let sb = Sandbox::new();
        let work = sb.mkdir("work/app");
        let text = match original_cwd(raw) {
            // Longest first: a session's cwd names the checkout, its subdirectories follow.
            Some(cwd) if cwd.len() > 1 => raw.replace(&cwd, work.to_str().unwrap()),
            _ => raw.to_owned(),
        };
        for v in lines(&text) {
            if let Some(c) = v.get("cwd").and_then(Value::as_str)
                && let Ok(rel) = Path::new(c).strip_prefix(&work)
            {
                std::fs::create_dir_all(work.join(rel)).unwrap();
            }
        }
        sb.json_ok(&["projects", "new", "App", "--code-path", work.to_str().unwrap()], None);
        let ext = if name.ends_with(".json") { "json" } else { "jsonl" };
        let path = sb.home.join(format!("transcript.{ext}"));
        Run { sb, work, text, client: client_of(name), path }
    }

    fn hook(&self, session: &str, event: &str, cwd: &Path, extra: Value) {
        let mut input = json!({ "session_id": session, "transcript_path": self.path, "cwd": cwd,
                                "hook_event_name": event, "reason": "other" });
        if let (Some(o), Some(e)) = (input.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        let out = self
            .sb
            .cmd()
            .env("MOORING_HOOK_DEADLINE_MS", "4500")
            .args(["hook", self.client])
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    }

    /// `Stop` after each turn (the transcript as it stood then), then `SessionEnd`.
    fn turn_by_turn(&self, session: &str) {
        let all: Vec<&str> = self.text.split_inclusive('\n').collect();
        let ends: Vec<usize> = if self.path.extension().is_some_and(|e| e == "json") {
            vec![all.len()]
        } else {
            let mut ends: Vec<usize> = (1..all.len()).filter(|&i| starts_turn(all[i])).collect();
            // Long sessions: at most 25 turn ends, spread over the session.
            let step = ends.len().div_ceil(25).max(1);
            ends = ends.into_iter().step_by(step).collect();
            ends.push(all.len());
            ends
        };
        let mut file = std::fs::File::create(&self.path).unwrap();
        let mut written = 0;
        for end in ends {
            file.write_all(all[written..end].concat().as_bytes()).unwrap();
            written = end;
            let cwd = last_cwd(&all[..end]).unwrap_or_else(|| self.work.clone());
            self.hook(session, "Stop", &cwd, json!({}));
        }
        self.hook(session, "SessionEnd", &self.work, json!({}));
    }

    fn one_pass(&self, session: &str) {
        std::fs::write(&self.path, &self.text).unwrap();
        self.hook(session, "Stop", &self.work, json!({}));
        self.hook(session, "SessionEnd", &self.work, json!({}));
    }

    /// The stored records' data, oldest first.
    fn records(&self) -> Vec<Value> {
        let conn = rusqlite::Connection::open(self.sb.data.join("mooring.db")).unwrap();
        let mut q = conn.prepare("SELECT data FROM memory WHERE kind = 'session' ORDER BY id").unwrap();
        let rows = q.query_map([], |r| r.get::<_, String>(0)).unwrap();
        rows.map(|d| serde_json::from_str(&d.unwrap()).unwrap()).collect()
    }

    fn rel(&self, path: &str) -> String {
        Path::new(path).strip_prefix(&self.work).map(|p| p.display().to_string()).unwrap_or_default()
    }
}

/// Whether a transcript line is where a new turn starts (the person's prompt).
fn starts_turn(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(line) else { return false };
    let user = v.get("type").and_then(Value::as_str) == Some("user")
        && v.pointer("/message/content").is_some_and(Value::is_string);
    let codex = v.pointer("/payload/type").and_then(Value::as_str) == Some("user_message")
        || v.get("type").and_then(Value::as_str) == Some("message")
            && v.get("role").and_then(Value::as_str) == Some("user");
    user || codex
}

fn last_cwd(lines: &[&str]) -> Option<PathBuf> {
    lines.iter().rev().find_map(|l| {
        let v: Value = serde_json::from_str(l).ok()?;
        v.get("cwd").and_then(Value::as_str).map(PathBuf::from)
    })
}

/// What a Claude Code transcript says the person typed, and what its tools did.
#[derive(Default, Debug)]
struct Truth {
    typed: Vec<String>,
    latest: Option<String>,
    files: BTreeSet<String>,
    commands: usize,
    refused: Vec<String>,
}

fn claude_truth(run: &Run, sub: &[Value]) -> Truth {
    let mut t = Truth::default();
    let main = lines(&run.text);
    let mut uses: Vec<(String, String, Value)> = Vec::new();
    let mut results: Vec<(String, bool, String)> = Vec::new();
    for v in main.iter().chain(sub) {
        let flag = |k: &str| v.get(k).and_then(Value::as_bool) == Some(true);
        let content = v.pointer("/message/content");
        let mut texts: Vec<String> = Vec::new();
        match content {
            Some(Value::String(s)) => texts.push(s.clone()),
            Some(Value::Array(items)) => {
                for i in items {
                    match i.get("type").and_then(Value::as_str) {
                        Some("text") => texts.push(i["text"].as_str().unwrap_or("").to_owned()),
                        Some("tool_use") => uses.push((
                            i["id"].as_str().unwrap_or("").into(),
                            i["name"].as_str().unwrap_or("").into(),
                            i["input"].clone(),
                        )),
                        Some("tool_result") => {
                            let said = match &i["content"] {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            results.push((
                                i["tool_use_id"].as_str().unwrap_or("").into(),
                                i["is_error"].as_bool() == Some(true),
                                said,
                            ))
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if v["type"] != "user" || flag("isMeta") || flag("isCompactSummary") || flag("isSidechain") {
            continue;
        }
        for text in texts {
            let text = text.trim().to_owned();
            if let Some(name) = between(&text, "<command-name>", "</command-name>") {
                let args = between(&text, "<command-args>", "</command-args>").unwrap_or_default();
                let typed = format!("{} {}", name.trim(), args.trim()).trim().to_owned();
                t.typed.push(typed.clone());
                if !args.trim().is_empty() || !["/exit", "/compact", "/mcp", "/clear"].contains(&name.trim())
                {
                    t.latest = Some(typed);
                }
            } else if !text.starts_with('<') && !text.starts_with("[Request interrupted") && !text.is_empty()
            {
                t.typed.push(text.clone());
                t.latest = Some(text);
            }
        }
    }
    let mut ran: BTreeSet<String> = BTreeSet::new();
    for (id, name, input) in &uses {
        let Some((_, error, said)) = results.iter().find(|r| &r.0 == id) else { continue };
        // The client's words for a call that never ran: rejected, interrupted, refused, or
        // cancelled before it started (`<tool_use_error>`).
        let rejected = said.contains("doesn't want to proceed")
            || said.contains("Request interrupted")
            || said.starts_with("<tool_use_error>")
            || said.starts_with("Claude requested permissions");
        match name.as_str() {
            "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => {
                let path = input["file_path"].as_str().or(input["notebook_path"].as_str()).unwrap_or("");
                // A file a later `rm` or `mv` took away is told as deleted or renamed.
                let moved = uses.iter().any(|(_, n, i)| {
                    n == "Bash"
                        && i["command"]
                            .as_str()
                            .is_some_and(|c| (c.contains("rm ") || c.contains("mv ")) && c.contains(path))
                });
                match (*error, run.rel(path)) {
                    (false, _) if moved => {}
                    (false, rel) if !rel.is_empty() => {
                        t.files.insert(rel);
                    }
                    (false, _) => {
                        let name = Path::new(path)
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        t.files.insert(format!("…/{name}"));
                    }
                    (true, _) if rejected => t.refused.push(path.to_owned()),
                    _ => {}
                }
            }
            "Bash" if rejected => t.refused.push(input["command"].as_str().unwrap_or("").to_owned()),
            "Bash" => {
                t.commands += 1;
                ran.insert(input["command"].as_str().unwrap_or("").to_owned());
            }
            _ => {}
        }
    }
    // A call refused once and made again later did happen.
    let changed: BTreeSet<String> = t.files.iter().cloned().collect();
    t.refused.retain(|r| !ran.contains(r) && !changed.contains(&run.rel(r)));
    t
}

fn between(text: &str, open: &str, close: &str) -> Option<String> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)?;
    Some(text[start..start + end].to_owned())
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect()
}

/// A kept request is a typed text (or its start, cut with an ellipsis).
fn typed_by_person(request: &str, typed: &[String]) -> bool {
    let stem = request.trim_end_matches('…');
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    typed.iter().any(|t| flat(t).starts_with(&flat(stem)))
}

#[test]
fn every_real_claude_code_transcript_records_what_the_person_asked_and_what_ran() {
    let Some(dir) = corpus() else { return };
    let mut checked = 0;
    let (mut found, mut expected, mut listed) = (0usize, 0usize, 0usize);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if client_of(&name) != "claude-code" || !name.ends_with(".jsonl") || name.contains("-sub-") {
            continue;
        }
        let raw = std::fs::read_to_string(&path).unwrap();
        let run = Run::new(&name, &raw);
        // A 2.x subagent's own transcript, where the corpus has it, sits where Claude Code
        // keeps it.
        let subagent = match name.as_str() {
            "spotter-4d5611e5.jsonl" => Some("spotter-sub-agent-a2898e3.jsonl"),
            _ => None,
        };
        let mut sub_lines = Vec::new();
        if let Some(sub) = subagent {
            let text = std::fs::read_to_string(dir.join(sub)).unwrap();
            let text = match original_cwd(&raw) {
                Some(cwd) => text.replace(&cwd, run.work.to_str().unwrap()),
                None => text,
            };
            let at = run.sb.home.join("transcript/subagents");
            std::fs::create_dir_all(&at).unwrap();
            std::fs::write(at.join("agent-a2898e3.jsonl"), &text).unwrap();
            sub_lines = lines(&text);
        }
        run.turn_by_turn("turn-by-turn");
        run.one_pass("one-pass");
        let records = run.records();
        let truth = claude_truth(&run, &sub_lines);
        if truth.typed.is_empty() && truth.files.is_empty() && truth.commands == 0 {
            continue;
        }
        assert_eq!(records.len(), 2, "{name}: one record per session");
        let (r, again) = (&records[0], &records[1]);
        let requests = strs(&r["requests"]);
        for q in &requests {
            assert!(typed_by_person(q, &truth.typed), "{name}: {q:?} is not something the person typed");
            for not_asked in ["[Request interrupted", "This session is being continued", "Caveat:"] {
                assert!(!q.starts_with(not_asked), "{name}: {q:?}");
            }
        }
        if let Some(latest) = &truth.latest {
            let last = requests.last().unwrap_or_else(|| panic!("{name}: no request kept"));
            assert!(
                typed_by_person(last, std::slice::from_ref(latest)),
                "{name}: latest {last:?}, typed {latest:?}"
            );
        }
        let files: BTreeSet<String> = r["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| matches!(f["action"].as_str(), Some("created" | "written" | "edited")))
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .collect();
        for differs in truth.files.symmetric_difference(&files) {
            eprintln!("{name}: files differ on {differs}");
        }
        if truth.files.len() <= 100 {
            found += truth.files.intersection(&files).count();
            expected += truth.files.len();
            listed += files.len();
        }
        for f in &files {
            assert!(!f.is_empty() && !f.starts_with('/'), "{name}: {f:?} is not relative to the checkout");
        }
        assert_eq!(r["commands_total"].as_u64(), Some(truth.commands as u64), "{name}: commands");
        let stored = r.to_string();
        for refused in &truth.refused {
            let shown = run.rel(refused);
            let shown = if shown.is_empty() { refused.clone() } else { shown };
            assert!(
                !r["files"].as_array().unwrap().iter().any(|f| f["path"] == shown.as_str())
                    && !r["commands"].as_array().unwrap().iter().any(|c| c["command"] == refused.as_str()),
                "{name}: refused {refused:?} is recorded: {stored}"
            );
        }
        // Replaying turn by turn gives the record one pass gives (a subagent's file is read
        // when a turn ends, so its calls may sit elsewhere in the order, and the latest
        // commands kept may differ; their count may not).
        let sorted = |v: &Value| {
            let mut items: Vec<String> = v.as_array().unwrap().iter().map(Value::to_string).collect();
            items.sort();
            items
        };
        for field in [
            "requests",
            "requests_total",
            "commands_total",
            "todos",
            "last_message",
            "context_carry",
            "compactions",
        ] {
            assert_eq!(r[field], again[field], "{name}: {field} differs between turn by turn and one pass");
        }
        let fields: &[&str] = if subagent.is_some() { &["files"] } else { &["files", "commands"] };
        for field in fields {
            let same = if subagent.is_some() {
                sorted(&r[field]) == sorted(&again[field])
            } else {
                r[field] == again[field]
            };
            assert!(
                same,
                "{name}: {field} differs between turn by turn and one pass:\n{}\n{}",
                r[field], again[field]
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} transcripts checked");
    let recall = found as f64 / expected.max(1) as f64;
    let precision = found as f64 / listed.max(1) as f64;
    eprintln!(
        "claude-code corpus: {checked} transcripts, files recall {recall:.3}, precision {precision:.3}"
    );
    assert!(recall >= 0.99 && precision >= 0.99, "recall {recall}, precision {precision}");
}

#[test]
fn a_compacted_session_carries_the_clients_summary_as_prose() {
    let Some(dir) = corpus() else { return };
    for name in ["spotter-fa812bfe.jsonl", "cl-2.1.29-compact.jsonl"] {
        let raw = std::fs::read_to_string(dir.join(name)).unwrap();
        let run = Run::new(name, &raw);
        run.one_pass("s");
        let r = &run.records()[0];
        let carry = r["context_carry"].as_str().unwrap_or_else(|| panic!("{name}: no context carry"));
        assert!(carry.chars().count() <= 1_501, "{name}: {} characters", carry.chars().count());
        assert!(
            !carry.contains("```") && !carry.contains("This session is being continued"),
            "{name}: {carry}"
        );
        assert!(r["compactions"].as_u64() >= Some(1), "{name}");
        let content =
            run.sb.json_ok(&["memory", "list", "app", "--kind", "session"], None)["entries"][0]["content"]
                .as_str()
                .unwrap()
                .to_owned();
        assert!(content.contains("**Before compaction:**"), "{name}: {content}");
    }
}

#[test]
fn codex_rollouts_of_every_format_give_their_requests_commands_and_files() {
    let Some(dir) = corpus() else { return };
    // (file, commands at least, files at least)
    for (name, commands, files) in [
        ("codex-0.58.0-acidicsoil.jsonl", 30, 1),
        ("codex-legacy-2025-09-acidicsoil.jsonl", 50, 10),
        ("codex-0.77.0-simonw.jsonl", 0, 0),
    ] {
        let raw = std::fs::read_to_string(dir.join(name)).unwrap();
        let run = Run::new(name, &raw);
        run.turn_by_turn("s");
        let records = run.records();
        assert_eq!(records.len(), 1, "{name}");
        let r = &records[0];
        let requests = strs(&r["requests"]);
        assert!(!requests.is_empty(), "{name}: no request");
        for q in &requests {
            for injected in ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions"] {
                assert!(!q.starts_with(injected), "{name}: {q:?}");
            }
        }
        assert!(r["commands_total"].as_u64() >= Some(commands), "{name}: {}", r["commands_total"]);
        assert!(r["files"].as_array().unwrap().len() >= files, "{name}: {}", r["files"]);
        assert!(
            !r["commands"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["command"].as_str().unwrap_or("").contains("*** Begin Patch")),
            "{name}: a patch is a change, not a command"
        );
        for f in r["files"].as_array().unwrap() {
            let p = f["path"].as_str().unwrap();
            assert!(!p.is_empty() && !p.starts_with('/'), "{name}: {p}");
        }
    }
}

#[test]
fn gemini_chats_in_both_formats_give_a_record() {
    let Some(dir) = corpus() else { return };
    for name in ["gemini-0.40-jazzyalex.jsonl", "odd-gemini-legacy-json.json"] {
        let raw = std::fs::read_to_string(dir.join(name)).unwrap();
        let run = Run::new(name, &raw);
        run.turn_by_turn("s");
        let records = run.records();
        assert_eq!(records.len(), 1, "{name}");
        assert!(!strs(&records[0]["requests"]).is_empty(), "{name}: {}", records[0]);
    }
}

#[test]
fn secrets_planted_in_real_transcripts_are_stored_nowhere() {
    let Some(dir) = corpus() else { return };
    let key_body =
        "MIIEowIBAAKCAQEA7bq98N7wFvR1Yb0fP5L2m5Y8Y5kq0dZc8k4x3sQf1vYx9n2sY0r8Vg1p0w3Jq5m7\n".repeat(20);
    let pem = format!("-----BEGIN RSA PRIVATE KEY-----\n{key_body}-----END RSA PRIVATE KEY-----");
    let planted = [
        "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c".to_owned(),
        "AKIAZ7K2QM9XZ7K2QM9X".to_owned(),
        pem.clone(),
    ];
    let raw = std::fs::read_to_string(dir.join("spotter-short.jsonl")).unwrap();
    let first = raw.lines().position(|l| l.contains("mix phx.server doesnt seem to start")).unwrap();
    let mut out: Vec<String> = raw.lines().map(str::to_owned).collect();
    let mut line: Value = serde_json::from_str(&out[first]).unwrap();
    // Past the 300 characters a request shows: the key's END line is far beyond the cut.
    let text = format!(
        "{} here is the key {} and the token {} and {}",
        "x".repeat(250),
        pem,
        planted[0],
        planted[1]
    );
    line["message"]["content"] = Value::String(text);
    out[first] = line.to_string();
    let run = Run::new("spotter-short.jsonl", &(out.join("\n") + "\n"));
    run.turn_by_turn("s");
    assert_eq!(run.records().len(), 1);
    let mut bytes = Vec::new();
    for f in std::fs::read_dir(&run.sb.data).unwrap() {
        let p = f.unwrap().path();
        if p.is_file() {
            bytes.extend(std::fs::read(p).unwrap());
        }
    }
    for secret in &planted {
        let probe = secret.lines().nth(1).unwrap_or(secret);
        assert!(
            !bytes.windows(probe.len()).any(|w| w == probe.as_bytes()),
            "{probe:.40} reached the data directory"
        );
    }
}
