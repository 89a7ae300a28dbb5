//! What Mooring writes into a client's configuration: its MCP server entry and its
//! session-start hook, each in that client's own shape.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::catalog::{Client, Identity, Scope};

/// The name of Mooring's entry in every client's server list.
pub const SERVER_NAME: &str = "mooring";

/// How the client should start Mooring.
#[derive(Debug, Clone)]
pub struct ShimSpec {
    /// Absolute path of the installed `mooring` binary.
    pub binary: PathBuf,
    /// The data directory, when it is not the default one (clients may not pass
    /// `MOORING_HOME` through, so it is written into the entry).
    pub data_dir: Option<PathBuf>,
}

/// An entry's keys in the order people expect to read them (serde_json sorts them).
pub fn ordered(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    const FIRST: [&str; 6] = ["type", "name", "matcher", "command", "args", "env"];
    let rank = |k: &str| FIRST.iter().position(|f| *f == k).unwrap_or(FIRST.len());
    let mut items: Vec<_> = map.iter().collect();
    items.sort_by_key(|(k, _)| rank(k));
    items
}

/// The arguments of `mooring stdio` for this client and scope.
pub fn shim_args(client: Client, scope: &Scope) -> Vec<String> {
    let mut args = vec!["stdio".to_owned()];
    match (scope, client.identity()) {
        (Scope::Project(dir), _) => {
            args.push("--workspace-id".into());
            args.push(dir.display().to_string());
        }
        (Scope::User, Identity::WorkspaceVariable(var)) => {
            args.push("--workspace-id".into());
            args.push(var.into());
        }
        _ => {}
    }
    args
}

/// The client's MCP server entry for Mooring.
pub fn server_entry(client: Client, scope: &Scope, spec: &ShimSpec) -> Value {
    let mut entry = serde_json::Map::new();
    if matches!(client, Client::ClaudeCode | Client::VsCode) {
        entry.insert("type".into(), json!("stdio"));
    }
    entry.insert("command".into(), json!(spec.binary.display().to_string()));
    entry.insert("args".into(), json!(shim_args(client, scope)));
    if let Some(dir) = &spec.data_dir {
        entry.insert("env".into(), json!({ "MOORING_HOME": dir.display().to_string() }));
    }
    Value::Object(entry)
}

/// Where a client's hooks live inside its hooks file.
pub fn hooks_path(client: Client) -> &'static [&'static str] {
    match client {
        Client::Cursor => &["hooks", "sessionStart"],
        _ => &["hooks", "SessionStart"],
    }
}

/// Where a client's per-turn hooks live: each prompt (recall), each turn's end, before
/// compaction and the session's end (capture, fed the session's transcript); empty for a
/// client whose session files Mooring does not read yet. Checked against the pinned
/// clients: Codex has no end-of-session hook (its `Stop` at every turn's end keeps the
/// record current); Gemini CLI's prompt hook is `BeforeAgent`, its turn end `AfterAgent`.
pub fn capture_paths(client: Client) -> &'static [&'static [&'static str]] {
    match client {
        Client::ClaudeCode => &[
            &["hooks", "UserPromptSubmit"],
            &["hooks", "Stop"],
            &["hooks", "PreCompact"],
            &["hooks", "SessionEnd"],
        ],
        Client::Codex => &[&["hooks", "UserPromptSubmit"], &["hooks", "Stop"], &["hooks", "PreCompact"]],
        Client::GeminiCli => &[
            &["hooks", "BeforeAgent"],
            &["hooks", "AfterAgent"],
            &["hooks", "PreCompress"],
            &["hooks", "SessionEnd"],
        ],
        _ => &[],
    }
}

/// Mooring's capture hook group in the client's shape (no matcher: every turn's end,
/// every compaction, every session end).
pub fn capture_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let command = hook_command(client, spec);
    match client {
        // Claude Code's turn end may hold for the away person's next instruction (the hook
        // bounds itself: capture within seconds, the hold within nine minutes).
        Client::ClaudeCode => {
            Some(json!({ "hooks": [{ "type": "command", "command": command, "timeout": 600 }] }))
        }
        // Codex's `Stop` takes `decision: block` with a reason too (checked against 0.169).
        Client::Codex => {
            Some(json!({ "hooks": [{ "type": "command", "command": command, "timeout": 600 }] }))
        }
        // Gemini CLI's `AfterAgent` takes `decision: block` with a reason as the next
        // prompt (checked against 0.61); its timeout is in milliseconds.
        Client::GeminiCli => Some(json!({
            "hooks": [{ "name": "mooring-capture", "type": "command", "command": command, "timeout": 600_000 }]
        })),
        _ => None,
    }
}

/// Where a client's permission hook lives: the prompt goes to the person's phone in
/// away mode (at the desk the hook answers nothing and the client asks as usual). Claude
/// Code's `PermissionRequest`, checked against the pinned 2.1.330 (it runs in `-p` too);
/// Codex's, the same shape in and out, checked against 0.169 (its interactive session
/// asks; `codex exec` never does). Gemini CLI 0.61 has no permission hook.
pub fn permission_path(client: Client) -> Option<&'static [&'static str]> {
    match client {
        Client::ClaudeCode | Client::Codex => Some(&["hooks", "PermissionRequest"]),
        _ => None,
    }
}

/// Mooring's permission hook group: every tool, and time for the person to answer (the
/// hook gives up ten seconds before the client would).
pub fn permission_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let command = hook_command(client, spec);
    permission_path(client)?;
    let hooks = json!([{ "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT }]);
    Some(match client {
        // Codex reads a matcher as a pattern: no matcher is every tool.
        Client::Codex => json!({ "hooks": hooks }),
        _ => json!({ "matcher": "*", "hooks": hooks }),
    })
}

/// The seconds the client gives the permission hook.
pub const PERMISSION_TIMEOUT: u64 = 120;

/// The shell command a hook runs.
pub fn hook_command(client: Client, spec: &ShimSpec) -> String {
    let mut cmd = shell_quote(&spec.binary);
    if let Some(dir) = &spec.data_dir {
        cmd.push_str(" --data-dir ");
        cmd.push_str(&shell_quote(dir));
    }
    cmd.push_str(" hook ");
    cmd.push_str(client.name());
    cmd
}

/// Mooring's hook group (or, for Cursor, hook entry) in the client's shape.
pub fn hook_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let command = hook_command(client, spec);
    Some(match client {
        // Timeouts: seconds for Claude Code and Codex, milliseconds for Gemini CLI. The
        // hook bounds itself well below either.
        Client::ClaudeCode => json!({
            "matcher": "startup|resume|clear|compact",
            "hooks": [{ "type": "command", "command": command, "timeout": 5 }]
        }),
        Client::Codex => json!({
            "matcher": "startup|resume|clear",
            "hooks": [{ "type": "command", "command": command, "timeout": 5, "statusMessage": "Loading the Mooring project context" }]
        }),
        Client::GeminiCli => json!({
            "hooks": [{ "name": "mooring-context", "type": "command", "command": command, "timeout": 5000 }]
        }),
        Client::Cursor => json!({ "command": command }),
        _ => return None,
    })
}

/// Whether a hook group or entry is one Mooring installed (any binary path, any
/// version), so setup replaces it and `--remove` takes it out.
pub fn is_mooring_hook(client: Client, value: &Value) -> bool {
    let suffix = format!(" hook {}", client.name());
    let ours =
        |cmd: &Value| cmd.as_str().is_some_and(|c| c.contains("mooring") && c.trim_end().ends_with(&suffix));
    match value.get("hooks").and_then(Value::as_array) {
        Some(hooks) => !hooks.is_empty() && hooks.iter().all(|h| ours(&h["command"])),
        None => ours(&value["command"]),
    }
}

/// A path as one shell word (POSIX quoting; left bare when nothing needs quoting).
pub fn shell_quote(path: &Path) -> String {
    let s = path.display().to_string();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:@%".contains(c)) {
        return s;
    }
    if cfg!(windows) {
        return format!("\"{}\"", s.replace('"', "\\\""));
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The most a client takes from a session-start hook (Claude Code cuts at 10,000
/// characters); Mooring stays under it.
pub const HOOK_MAX_CHARS: usize = 9_000;

/// At most `max` characters, cut at the last line break before the limit.
pub(crate) fn clip(text: &str, max: usize) -> &str {
    if text.chars().count() <= max {
        return text;
    }
    let end = text.char_indices().nth(max).map(|(i, _)| i).unwrap_or(text.len());
    let cut = &text[..end];
    match cut.rfind('\n') {
        Some(i) if i > 0 => &text[..i],
        _ => cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> ShimSpec {
        ShimSpec { binary: "/home/me/.local/bin/mooring".into(), data_dir: None }
    }

    #[test]
    fn editors_get_their_workspace_variable_and_cli_clients_their_cwd() {
        let cursor = server_entry(Client::Cursor, &Scope::User, &spec());
        assert_eq!(cursor["args"], json!(["stdio", "--workspace-id", "${workspaceFolder}"]));
        let claude = server_entry(Client::ClaudeCode, &Scope::User, &spec());
        assert_eq!(
            claude,
            json!({"type": "stdio", "command": "/home/me/.local/bin/mooring", "args": ["stdio"]})
        );
        let project = server_entry(Client::Codex, &Scope::Project("/w/le".into()), &spec());
        assert_eq!(project["args"], json!(["stdio", "--workspace-id", "/w/le"]));
    }

    #[test]
    fn a_non_default_data_dir_travels_in_the_entry_and_the_hook() {
        let s = ShimSpec { binary: "/opt/my tools/mooring".into(), data_dir: Some("/d/it's".into()) };
        assert_eq!(server_entry(Client::Codex, &Scope::User, &s)["env"], json!({"MOORING_HOME": "/d/it's"}));
        let cmd = hook_command(Client::ClaudeCode, &s);
        assert_eq!(cmd, r"'/opt/my tools/mooring' --data-dir '/d/it'\''s' hook claude-code");
    }

    #[test]
    fn hooks_are_recognised_whatever_the_binary_path() {
        let old = json!({"hooks": [{"type": "command", "command": "/old/mooring hook claude-code"}]});
        assert!(is_mooring_hook(Client::ClaudeCode, &old));
        assert!(!is_mooring_hook(Client::Codex, &old));
        let theirs = json!({"hooks": [{"command": "echo hi"}]});
        assert!(!is_mooring_hook(Client::ClaudeCode, &theirs));
        assert!(is_mooring_hook(Client::Cursor, &json!({"command": "mooring hook cursor"})));
    }
}
