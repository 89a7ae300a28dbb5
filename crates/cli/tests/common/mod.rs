//! A throwaway home and data directory per test, and the `mooring` binary run in it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use assert_cmd::Command;
use serde_json::Value;

/// Where the test tools put the model for search by meaning (HOME moves into the sandbox,
/// the model stays where `scripts/fetch-model.sh` installed it).
pub fn models_root() -> PathBuf {
    mooring_core::search::semantic::models_root()
}

pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub home: PathBuf,
    pub data: PathBuf,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let data = root.join("data");
        std::fs::create_dir_all(&home).unwrap();
        Self { _dir: dir, home, data }
    }

    /// `mooring --data-dir DATA` with HOME in the sandbox and no stray hints.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("mooring").unwrap();
        cmd.arg("--data-dir")
            .arg(&self.data)
            .env("HOME", &self.home)
            .env_remove("MOORING_PROJECT")
            .env_remove("MOORING_HOME")
            // The clients' own homes follow HOME too.
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env("MOORING_MODELS", models_root())
            .current_dir(&self.home);
        cmd
    }

    /// Make a directory under HOME and return its canonical path.
    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let p = self.home.join(rel);
        std::fs::create_dir_all(&p).unwrap();
        p.canonicalize().unwrap()
    }

    /// Run with `--json`, expect success, parse stdout.
    pub fn json_ok(&self, args: &[&str], cwd: Option<&Path>) -> Value {
        let mut cmd = self.cmd();
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        let out = cmd.args(args).arg("--json").output().unwrap();
        assert!(out.status.success(), "mooring {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
    }

    /// Every row of every registry table, for "nothing changed" checks.
    pub fn fingerprint(&self) -> String {
        let conn = rusqlite::Connection::open(self.data.join("mooring.db")).unwrap();
        let mut out = String::new();
        for table in ["projects", "code_paths", "events", "settings", "memory", "context_locks"] {
            let mut stmt = conn.prepare(&format!("SELECT * FROM {table} ORDER BY 1")).unwrap();
            let cols = stmt.column_count();
            let mut rows = stmt.query([]).unwrap();
            while let Some(row) = rows.next().unwrap() {
                out.push_str(table);
                for i in 0..cols {
                    let v: rusqlite::types::Value = row.get(i).unwrap();
                    out.push_str(&format!("|{v:?}"));
                }
                out.push('\n');
            }
        }
        out
    }
}

/// A `mooring serve` on a free port over the sandbox's data; killed (SIGKILL) on drop.
pub struct Hub {
    pub child: Child,
    /// Its MCP URL.
    pub url: String,
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sandbox {
    /// Start `mooring serve --port 0` and wait until it prints where it listens.
    pub fn start_hub(&self) -> Hub {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mooring"))
            .arg("--data-dir")
            .arg(&self.data)
            .args(["serve", "--port", "0", "--json"])
            .env("HOME", &self.home)
            // A question it shows goes to no browser of the machine running the tests.
            .env("MOORING_OPEN_BROWSER", "0")
            .env("MOORING_MODELS", models_root())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut text = String::new();
        while !text.trim_end().ends_with('}') {
            assert!(out.read_line(&mut text).unwrap() > 0, "mooring serve exited: {text}");
        }
        let v: Value = serde_json::from_str(&text).unwrap();
        Hub { child, url: v["url"].as_str().unwrap().to_owned() }
    }
}

/// One tool call from an agent whose client started `mooring stdio` in `cwd` (with `env`
/// set and `extra` arguments after `stdio`); its structured result, which must not be an
/// error.
pub async fn agent_call(
    sb: &Sandbox,
    cwd: &Path,
    env: &[(&str, &str)],
    extra: &[&str],
    tool: &str,
    args: Value,
) -> Value {
    use rmcp::ServiceExt;
    let mut cmd = tokio::process::Command::new(assert_cmd::cargo::cargo_bin("mooring"));
    cmd.arg("--data-dir").arg(&sb.data).arg("stdio").args(extra).current_dir(cwd);
    cmd.env("HOME", &sb.home).env_remove("MOORING_PROJECT").env_remove("MOORING_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let transport = rmcp::transport::TokioChildProcess::new(cmd).unwrap();
    let client = ().serve(transport).await.expect("the stdio server completes the MCP handshake");
    let params = rmcp::model::CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    client.cancel().await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.unwrap()
}

/// Run the `git` binary in `dir` with a fixed identity and branch name; it must succeed.
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}
