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
    if matches!(client, Client::Opencode | Client::Kilo) {
        // One command line, and `environment` for its variables.
        let mut command = vec![spec.binary.display().to_string()];
        command.extend(shim_args(client, scope));
        let mut entry = json!({ "type": "local", "command": command, "enabled": true });
        if let Some(dir) = &spec.data_dir {
            entry["environment"] = json!({ "MOORING_HOME": dir.display().to_string() });
        }
        return entry;
    }
    if client == Client::CopilotCli {
        // Copilot CLI offers a server's tools only as far as its entry lists them.
        entry.insert("type".into(), json!("local"));
        entry.insert("tools".into(), json!(["*"]));
    }
    Value::Object(entry)
}

/// Where a client's session-start hook lives inside its hooks file (`["hooks",
/// "SessionStart"]` for a client without hooks, whose file is never written).
pub fn hooks_path(client: Client) -> &'static [&'static str] {
    client.dialect().map_or(&["hooks", "SessionStart"], |d| d.start_path)
}

/// Where a client's per-turn hooks live: each prompt (recall), each turn's end, before
/// compaction and the session's end (capture, fed the session's transcript); empty for a
/// client whose session files Mooring does not read yet. Each client's own file
/// (`hooks/`) says which, as checked against its pinned version.
pub fn capture_paths(client: Client) -> &'static [&'static [&'static str]] {
    client.dialect().map_or(&[], |d| d.capture_paths)
}

/// Mooring's capture hook group in the client's shape (no matcher: every turn's end,
/// every compaction, every session end).
pub fn capture_entry(client: Client, spec: &ShimSpec, path: &[&str]) -> Option<Value> {
    Some((client.dialect()?.capture_entry?)(&command_at(client, spec, path)))
}

/// The hook command for the entry at `path`: a client whose hook input does not name its
/// event is told it on the command line (the path's last key is the event).
fn command_at(client: Client, spec: &ShimSpec, path: &[&str]) -> String {
    let command = hook_command(client, spec);
    match (client.dialect().is_some_and(|d| d.names_event), path.last()) {
        (true, Some(event)) => format!("{command} {event}"),
        _ => command,
    }
}

/// Where a client's permission hook lives: the prompt goes to the person's phone in
/// away mode (at the desk the hook answers nothing and the client asks as usual).
pub fn permission_path(client: Client) -> Option<&'static [&'static str]> {
    client.dialect()?.permission_path
}

/// Mooring's permission hook group: every tool, and time for the person to answer (the
/// hook gives up ten seconds before the client would).
pub fn permission_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let d = client.dialect()?;
    Some((d.permission_entry?)(&command_at(client, spec, d.permission_path?)))
}

/// Where a client's pre-edit hook lives (claims are checked before a write).
pub fn pre_edit_path(client: Client) -> Option<&'static [&'static str]> {
    client.dialect()?.pre_edit_path
}

/// Mooring's pre-edit hook group: the client's file-writing tools.
pub fn pre_edit_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let d = client.dialect()?;
    Some((d.pre_edit_entry?)(&command_at(client, spec, d.pre_edit_path?)))
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

/// Mooring's session-start hook group (or, for Cursor, hook entry) in the client's
/// shape.
pub fn hook_entry(client: Client, spec: &ShimSpec) -> Option<Value> {
    let d = client.dialect()?;
    Some((d.start_entry)(&command_at(client, spec, d.start_path)))
}

/// Whether a hook group or entry is one Mooring installed (any binary path, any
/// version), so setup replaces it and `--remove` takes it out.
pub fn is_mooring_hook(client: Client, value: &Value) -> bool {
    let ours = |cmd: &Value| {
        let Some(c) = cmd.as_str() else { return false };
        let Some((_, after)) = c.rsplit_once(&format!(" hook {}", client.name())) else { return false };
        // Nothing after the client's name, or the event a client without event names in
        // its input is told (`mooring hook copilot-cli agentStop`).
        let after = after.trim_end();
        c.contains("mooring") && (after.is_empty() || (after.starts_with(' ') && !after[1..].contains(' ')))
    };
    let command = |h: &Value| if h.get("bash").is_some() { ours(&h["bash"]) } else { ours(&h["command"]) };
    match value.get("hooks").and_then(Value::as_array) {
        Some(hooks) => !hooks.is_empty() && hooks.iter().all(command),
        None => command(value),
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
