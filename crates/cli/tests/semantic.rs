//! Search by meaning through the binary: `memory index` and `memory search --mode` (which
//! embeds what waits first), the
//! keyword fallback (with its note) without the model, and a backfill killed with
//! SIGKILL resuming with nothing done twice. Needs the model the test tools install.

mod common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use common::Sandbox;

/// Entries of one project: the answer and neighbours on other subjects.
const ENTRIES: &[&str] = &[
    "Renewal cadence: every 5 s, TTL 15 s",
    "The dashboard is plain ES modules with no bundler",
    "Invoices are rendered to PDF with the customer's billing address",
    "CI runs on two cores; keep the whole run under forty minutes",
    "Screenshots in the docs are refreshed by the page tests",
    "The team database is PostgreSQL 15 on a loopback port in tests",
    "Translations live in one JSON file per locale",
    "Release builds use fat LTO and one codegen unit",
];

fn sandbox_with_entries() -> Sandbox {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Leases"]).assert().success();
    for text in ENTRIES {
        sb.cmd().args(["memory", "add", "leases", "--kind", "decision", text]).assert().success();
    }
    sb
}

fn ranks_of(found: &serde_json::Value, content: &str) -> Option<usize> {
    found["hits"].as_array().unwrap().iter().position(|h| h["entry"]["content"] == content)
}

#[test]
fn a_question_sharing_no_word_finds_its_answer_by_meaning_and_by_keyword_only_without_the_model() {
    let sb = sandbox_with_entries();
    let question = "How often do we refresh the leader's lease?";
    // No Mooring runs to index what was just added: the search gives it its vectors
    // first, so meaning finds the answer at once, with nothing left waiting.
    let early =
        sb.json_ok(&["memory", "search", question, "--project", "leases", "--mode", "semantic"], None);
    assert!(early.get("note").is_none(), "{early}");
    assert!(ranks_of(&early, ENTRIES[0]).is_some_and(|r| r < 5), "{early}");

    let index = sb.json_ok(&["memory", "index"], None);
    assert_eq!(index["stored"], ENTRIES.len());
    assert_eq!((index["indexed"].as_u64(), index["waiting"].as_u64()), (Some(0), Some(0)), "{index}");

    let keyword =
        sb.json_ok(&["memory", "search", question, "--project", "leases", "--mode", "keyword"], None);
    assert_eq!(ranks_of(&keyword, ENTRIES[0]), None, "no shared word, no keyword hit: {keyword}");
    for mode in ["semantic", "hybrid"] {
        let found = sb.json_ok(&["memory", "search", question, "--project", "leases", "--mode", mode], None);
        assert_eq!(found["mode"], mode);
        assert!(found.get("note").is_none(), "{found}");
        let rank = ranks_of(&found, ENTRIES[0]);
        assert!(rank.is_some_and(|r| r < 5), "{mode}: the answer is not in the first five: {found}");
    }
    // Exact words still rank their entry first in the default mode.
    let exact = sb.json_ok(&["memory", "search", "invoices billing", "--project", "leases"], None);
    assert_eq!(ranks_of(&exact, ENTRIES[2]), Some(0), "{exact}");

    // Without the model: keyword ranking and a note naming the fix, never an error.
    let out = sb
        .cmd()
        .env("MOORING_MODELS", sb.home.join("no-models-here"))
        .args(["memory", "search", "billing", "--project", "leases", "--mode", "semantic", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(found["mode"], "keyword");
    assert_eq!(ranks_of(&found, ENTRIES[2]), Some(0));
    assert!(found["note"].as_str().unwrap().contains("scripts/fetch-model.sh"), "{found}");
    // And `doctor` says which mode is in use.
    // (It exits 1 here: no hub runs in the sandbox.)
    let out = sb.cmd().args(["doctor", "--json"]).output().unwrap();
    let doctor: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let search = doctor["checks"].as_array().unwrap().iter().find(|c| c["name"] == "search").unwrap().clone();
    assert!(search["message"].as_str().unwrap().starts_with("hybrid"), "{search}");

    let bad = sb.cmd().args(["memory", "search", "x", "--mode", "fuzzy"]).assert().code(2);
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("--mode"));
}

#[test]
fn an_index_killed_midway_resumes_with_every_entry_indexed_once() {
    let sb = Sandbox::new();
    sb.cmd().args(["projects", "new", "Bulk"]).assert().success();
    // Many entries at once, straight into the database (the queue fills by trigger).
    let db = sb.data.join("mooring.db");
    let total = 8_000;
    {
        let mut conn = rusqlite::Connection::open(&db).unwrap();
        let tx = conn.transaction().unwrap();
        for i in 0..total {
            tx.execute(
                "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                 VALUES (1, 'note', ?1, ?2, 't', 't')",
                rusqlite::params![
                    format!("Note {i}"),
                    format!("Entry {i} about subject {} and {}", i % 97, i % 31)
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mooring"))
        .arg("--data-dir")
        .arg(&sb.data)
        .args(["memory", "index"])
        .env("HOME", &sb.home)
        .env("MOORING_MODELS", common::models_root())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("indexed "), "{first}");
    child.kill().unwrap(); // SIGKILL: no cleanup runs.
    child.wait().unwrap();

    let counts = || -> (i64, i64) {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let q = |sql: &str| conn.query_row(sql, [], |r| r.get(0)).unwrap();
        (q("SELECT count(*) FROM memory_vectors"), q("SELECT count(*) FROM vector_queue"))
    };
    let (stored, waiting) = counts();
    assert!(stored > 0 && waiting > 0, "killed midway: {stored} stored, {waiting} waiting");
    assert_eq!(stored + waiting, total, "every entry is stored or waiting, none both");

    let again = sb.json_ok(&["memory", "index"], None);
    assert_eq!(again["waiting"], 0);
    assert_eq!(again["indexed"], waiting, "only what was left is embedded");
    assert_eq!(counts(), (total, 0));
}

#[test]
fn with_the_hub_running_a_short_lived_command_asks_it_rather_than_loading_the_model() {
    let sb = sandbox_with_entries();
    sb.json_ok(&["memory", "index"], None);
    let question = "How often do we refresh the leader's lease?";
    let without_model = |mode: &str| -> serde_json::Value {
        let out = sb
            .cmd()
            .env("MOORING_MODELS", sb.home.join("no-models-here"))
            .args(["memory", "search", question, "--project", "leases", "--mode", mode, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let hub = sb.start_hub();
    // The command has no model of its own: only the hub can have found the answer.
    for mode in ["semantic", "hybrid"] {
        let found = without_model(mode);
        assert_eq!(found["mode"], mode, "{found}");
        assert!(found.get("note").is_none(), "{found}");
        assert!(ranks_of(&found, ENTRIES[0]).is_some_and(|r| r < 5), "{mode}: {found}");
        assert!(
            found["hits"][ranks_of(&found, ENTRIES[0]).unwrap()]["found_by"]
                .as_array()
                .unwrap()
                .contains(&serde_json::json!("semantic")),
            "{found}"
        );
    }
    drop(hub);
    // No hub to ask and no model: keyword only, with the fix named, as before.
    let alone = without_model("semantic");
    assert_eq!(alone["mode"], "keyword", "{alone}");
    assert!(alone["note"].as_str().unwrap().contains("scripts/fetch-model.sh"), "{alone}");
}
