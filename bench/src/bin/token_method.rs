//! What memory costs a session, against what a session would have to read to learn the
//! same, on a folder of real transcripts (Claude Code, Codex, Gemini CLI). The method:
//!
//! 1. Every transcript is captured into one project as the hooks would (`capture`), then
//!    the records are rolled up into weekly digests (`fold_after_days` 14: every real
//!    transcript is older).
//! 2. **To read the same** (per session): the o200k tokens of the transcript's file, and
//!    of its text alone (every JSON string value, keys and structure dropped; tool output
//!    included, as a reader of the history would see it).
//! 3. **Handed by Mooring** (per session): the preamble a new session gets at its start
//!    (default budget, after the roll-up), and each of the person's prompts in the corpus
//!    replayed through recall (ids already given are not given again, as in a session):
//!    tokens per prompt, and per session at the corpus's prompts per session.
//! 4. The records themselves and the digests, in tokens, for scale.
//!
//! All counts are exact o200k token counts (`mooring-tokens`), no model is called.
//!
//! cargo run --release -p mooring-bench --bin token-method -- --transcripts DIR [--json] [--show-preamble]

use mooring_clients::Client;
use std::path::{Path, PathBuf};

use mooring_core::capture::{self, Turn};
use mooring_core::memory::preamble::{self, Caps};
use mooring_core::memory::{ListQuery, list};
use mooring_core::model::Kind;
use mooring_core::store::backend::{MemoryReads as _, PageFilter};
use mooring_core::{NewProject, Registry, Store};
use serde_json::{Value, json};

fn client_of(name: &str) -> Client {
    if name.contains("codex") {
        Client::Codex
    } else if name.contains("gemini") {
        Client::GeminiCli
    } else {
        Client::ClaudeCode
    }
}

/// Every string value of a JSON document, joined: the transcript's text without its
/// structure.
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn text_of(raw: &str) -> String {
    let mut out = String::new();
    let docs: Vec<Value> = match serde_json::from_str::<Value>(raw) {
        Ok(v) => vec![v],
        Err(_) => raw.lines().filter_map(|l| serde_json::from_str(l).ok()).collect(),
    };
    for d in &docs {
        strings(d, &mut out);
    }
    out
}

fn main() {
    let mut dir: Option<PathBuf> = None;
    let mut as_json = false;
    let mut show = false;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--transcripts" => dir = it.next().map(PathBuf::from),
            "--json" => as_json = true,
            "--show-preamble" => show = true,
            other => panic!("unknown argument {other}"),
        }
    }
    let dir = dir.unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/transcripts"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl" || e == "json"))
        .collect();
    files.sort();
    let home = tempfile::tempdir().unwrap();
    let store = Store::open_in(home.path()).unwrap();
    Registry::new(&store).create(NewProject { name: "Corpus".into(), ..NewProject::default() }).unwrap();
    let (mut file_tokens, mut text_tokens, mut sessions) = (0usize, 0usize, 0usize);
    let mut prompts: Vec<String> = Vec::new();
    for (n, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let raw = std::fs::read_to_string(file).unwrap_or_default();
        let session = format!("{n}-{name}");
        let mut turn = Turn::new(client_of(&name), &session, file);
        turn.ended = Some("bench");
        match capture::capture(&store, "corpus", &turn) {
            Ok(capture::Captured::Stored { .. }) => {}
            _ => continue,
        }
        sessions += 1;
        file_tokens += mooring_tokens::count(&raw);
        text_tokens += mooring_tokens::count(&text_of(&raw));
    }
    let records = entries(&store, "session");
    // The person's requests, as each record keeps them (its data, not its rendered text).
    let filter = PageFilter { kind: Some(Kind::Session), status: None, before: None, limit: 200 };
    for row in store.memory_page("corpus", &filter).unwrap().1 {
        let record: Option<capture::SessionRecord> =
            row.data.as_deref().and_then(|d| serde_json::from_str(d).ok());
        prompts.extend(record.map(|r| r.requests).unwrap_or_default());
    }
    let record_tokens: usize = records.iter().map(|r| mooring_tokens::count(&r.content)).sum();
    let folded = capture::digest::roll_up(&store, "corpus", 14, chrono::Utc::now()).unwrap();
    let digests = entries(&store, "context_carry");
    let digest_tokens: usize = digests.iter().map(|d| mooring_tokens::count(&d.content)).sum();
    let pre = preamble::build(&store, &store, "corpus", None, Caps::default()).unwrap();
    if show {
        eprintln!("{}", pre.text);
    }
    let mut given = pre.ids.clone();
    let (mut recall_tokens, mut recalled) = (0usize, 0usize);
    for p in &prompts {
        let found = mooring_core::search::recall::recall(&store, "corpus", p, &given).unwrap();
        let (text, ids) = mooring_core::search::recall::render(&found, false);
        if !ids.is_empty() {
            recall_tokens += mooring_tokens::count(&text);
            recalled += 1;
            given.extend(ids);
        }
    }
    let per = |t: usize| t.checked_div(sessions).unwrap_or(0);
    let prompts_per_session = prompts.len() as f64 / sessions.max(1) as f64;
    let recall_per_prompt = recall_tokens as f64 / prompts.len().max(1) as f64;
    let handed = pre.tokens as f64 + recall_per_prompt * prompts_per_session;
    let out = json!({
        "transcripts": files.len(),
        "sessions_captured": sessions,
        "to_read_per_session": { "file_tokens": per(file_tokens), "text_tokens": per(text_tokens) },
        "to_read_all": { "file_tokens": file_tokens, "text_tokens": text_tokens },
        "records": { "tokens_per_session": per(record_tokens), "tokens_all": record_tokens },
        "digests": { "weeks": digests.len(), "tokens_all": digest_tokens, "sessions_folded": folded.folded },
        "preamble_tokens": pre.tokens,
        "recall": { "prompts": prompts.len(), "with_recall": recalled, "tokens_all": recall_tokens,
                    "tokens_per_prompt": (recall_per_prompt * 10.0).round() / 10.0 },
        "handed_per_session": handed.round(),
        "share_of_text_per_session": format!("{:.1} %", 100.0 * handed / per(text_tokens).max(1) as f64),
        "share_of_all_text": format!("{:.2} %", 100.0 * (pre.tokens + recall_tokens) as f64 / text_tokens.max(1) as f64),
    });
    if as_json {
        println!("{out}");
        return;
    }
    println!(
        "{} transcripts, {sessions} captured sessions, {} prompts ({prompts_per_session:.1} a session)",
        files.len(),
        prompts.len()
    );
    println!(
        "to read the same, per session: {} tokens of file, {} tokens of text",
        per(file_tokens),
        per(text_tokens)
    );
    println!("to read the same, every session: {file_tokens} tokens of file, {text_tokens} tokens of text");
    println!("captured records: {} tokens a session ({record_tokens} in all)", per(record_tokens));
    println!(
        "weekly digests: {} weeks, {digest_tokens} tokens in all ({} sessions folded)",
        digests.len(),
        folded.folded
    );
    println!("preamble at a session's start: {} tokens (budget {})", pre.tokens, pre.budget_tokens);
    println!(
        "recall: {recalled} of {} prompts handed memory, {recall_tokens} tokens in all, {recall_per_prompt:.1} a prompt",
        prompts.len()
    );
    println!(
        "handed per session: {handed:.0} tokens = {} of the text one session's transcript holds; \
         the preamble plus every recall = {} of the corpus's text",
        out["share_of_text_per_session"].as_str().unwrap_or(""),
        out["share_of_all_text"].as_str().unwrap_or("")
    );
}

fn entries(store: &Store, kind: &str) -> Vec<mooring_core::memory::Entry> {
    let q = ListQuery { kind: Some(kind.into()), limit: Some(200), ..ListQuery::default() };
    list(store, "corpus", &q).unwrap().entries
}
