//! Planted secrets of every common shape — in the person's prompt, a command the agent
//! ran, a task it kept and its last message — reach no file under the data directory,
//! no output and no row of the team database: a session captured by the real
//! `mooring hook claude-code` into a team project, from a transcript recorded from the
//! real Claude Code with those fields replaced.

mod common;

use common::Sandbox;
use mooring_team::testing::{PASSWORD, Postgres};
use serde_json::{Value, json};

const RECORDED: &str = include_str!("../../core/tests/fixtures/claude-code-2.1.330-work.jsonl");
const RECORDED_CWD: &str = "/tmp/rec/work";

/// `text` as it sits inside a JSON string.
fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap();
    quoted[1..quoted.len() - 1].to_owned()
}

struct Planted {
    /// (where, the secret's value) for every planted secret.
    values: Vec<(&'static str, String)>,
}

fn plant(transcript: &str) -> (String, Planted) {
    let ghp = "ghp_Q4w8Er2Ty6Ui0Op3As7Df1Gh5Jk9Lz2Xc4Vb6N"; // 40 characters after the prefix
    let pem_body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
    let or_key = format!("sk-or-v1-{}", "9f8e7d6c5b4a".repeat(5) + "3b2a");
    let ds_key = "sk-4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c";
    let prompt = format!(
        "{} {ghp} and the key below\n-----BEGIN PRIVATE KEY-----\n{pem_body}\nAnd the secret is u8HkQ2xLmN4pR7tV9wYz",
        "Please look at the deploy script and fix the retries; ".repeat(5)
    );
    let command = "mysql -u root -pS3cretPassw0rd -e 'select 1' && sshpass -p 'Hunter2Secret!' ssh deploy@host \
                   && docker login -u me -p dckr_pat_AbCdEfGhIjKlMnOpQrStUvWxYz12 \
                   && aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY \
                   && deploy --password Sup3rS3cretValue99";
    let todo = format!("Rotate {or_key} and the DeepSeek key {ds_key}");
    let last = "Done. For the record the password is Zq9Xw8Cv7Bn6Mm5Ll4Kk and it works.";
    let out = transcript
        .replace("Retry helper written; the retry policy still needs documenting.", &escaped(last))
        .replace("Add a retry helper and keep a todo list", &escaped(&prompt))
        .replace(
            "GITHUB_TOKEN=ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c git status --short",
            &escaped(command),
        )
        .replace("Document the retry policy", &escaped(&todo));
    let values = vec![
        ("a ghp_ token across the request's cut", ghp[4..24].to_owned()),
        ("a ghp_ token's tail", ghp[24..].to_owned()),
        ("a private key without its END line", pem_body[..30].to_owned()),
        ("a secret named in words", "u8HkQ2xLmN4pR7tV9wYz".to_owned()),
        ("mysql -p", "S3cretPassw0rd".to_owned()),
        ("sshpass -p", "Hunter2Secret".to_owned()),
        ("docker login -p", "dckr_pat_AbCdEfGhIjKlMnOpQrStUvWxYz12".to_owned()),
        ("aws configure set", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY".to_owned()),
        ("--password VALUE", "Sup3rS3cretValue99".to_owned()),
        ("an OpenRouter key", or_key[9..].to_owned()),
        ("a DeepSeek key", ds_key[3..].to_owned()),
        ("a password in the last message", "Zq9Xw8Cv7Bn6Mm5Ll4Kk".to_owned()),
    ];
    (out, Planted { values })
}

fn hook(sb: &Sandbox, input: Value) -> String {
    let out = sb
        .cmd()
        .args(["hook", "claude-code"])
        .env("MOORING_HOOK_DEADLINE_MS", "4500")
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every byte of every file under `dir`, as text.
fn every_file(dir: &std::path::Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            every_file(&path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn no_planted_secret_reaches_a_file_an_output_or_the_team_database() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let sb = Sandbox::new();
    let pw = sb.home.join("team-password");
    std::fs::write(&pw, format!("{PASSWORD}\n")).unwrap();
    sb.json_ok(&["team", "join", &url, "--name", "Ada", "--password-file", pw.to_str().unwrap()], None);
    let work = sb.mkdir("work/retry");
    sb.json_ok(&["team", "new", "Retry"], None);
    sb.json_ok(&["projects", "retry", "--add-code-path", work.to_str().unwrap()], None);

    let (text, planted) = plant(&RECORDED.replace(RECORDED_CWD, work.to_str().unwrap()));
    assert!(
        planted.values.iter().all(|(_, v)| text.contains(v.as_str())),
        "every secret is in the transcript"
    );
    let t = sb.home.join("session.jsonl");
    std::fs::write(&t, &text).unwrap();
    let end = |event: &str| {
        json!({ "session_id": "s-1", "transcript_path": t, "cwd": work, "hook_event_name": event,
                "stop_hook_active": false, "reason": "prompt_input_exit" })
    };
    let mut outputs = hook(&sb, end("Stop"));
    outputs += &hook(&sb, end("SessionEnd"));
    // The next session's start and a prompt: what Mooring hands the next model.
    outputs += &hook(
        &sb,
        json!({ "session_id": "s-2", "cwd": work, "hook_event_name": "SessionStart", "source": "startup" }),
    );
    outputs += &hook(
        &sb,
        json!({ "session_id": "s-2", "cwd": work, "hook_event_name": "UserPromptSubmit",
                                  "prompt": "what about the deploy password and the keys?" }),
    );
    let listed = sb.json_ok(&["memory", "list", "retry", "--kind", "session"], None);
    let record = listed["entries"][0]["content"].as_str().unwrap_or_default().to_owned();
    assert!(record.contains("[redacted:"), "the record was stored, scrubbed: {record}");
    for field in ["Please look at the deploy script", "mysql -u root", "Rotate", "For the record"] {
        assert!(
            record.contains(field),
            "the planted field {field:?} is in the record (so it was scanned): {record}"
        );
    }
    outputs += &listed.to_string();
    outputs +=
        &sb.json_ok(&["memory", "search", "password deploy key", "--project", "retry"], None).to_string();

    let mut files = String::new();
    every_file(&sb.data, &mut files);
    let team = pg.dump(&url);
    assert!(team.contains("[redacted:"), "the team holds the scrubbed record");
    for (what, value) in &planted.values {
        assert!(!files.contains(value.as_str()), "{what} reached a file under the data directory");
        assert!(!outputs.contains(value.as_str()), "{what} reached an output");
        assert!(!team.contains(value.as_str()), "{what} reached the team database");
    }
}
