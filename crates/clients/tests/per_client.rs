//! Every client's own file, written through the public API as `mooring setup` does:
//! fresh, beside other servers and comments, twice, removed, refused when broken,
//! permissions kept.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use mooring_clients::{
    Action, Client, ConfigError, Env, Format, Os, Scope, ShimSpec, apply, hook_change, server_change,
};
use serde_json::{Value, json};

fn env(home: &Path, os: Os) -> Env {
    Env {
        os,
        home: home.to_path_buf(),
        xdg_config_home: None,
        appdata: None,
        codex_home: None,
        claude_config_dir: None,
        copilot_home: None,
        qwen_home: None,
        cline_home: None,
        pi_home: None,
    }
}

fn spec() -> ShimSpec {
    ShimSpec { binary: "/home/me/.local/bin/mooring".into(), data_dir: Some("/home/me/.mooring-alt".into()) }
}

/// Each client with an OS it exists on.
fn clients() -> Vec<(Client, Os)> {
    Client::ALL
        .into_iter()
        .filter(|c| c.has_mcp())
        .map(|c| (c, if c == Client::ClaudeDesktop { Os::MacOs } else { Os::Linux }))
        .collect()
}

fn install(c: Client, file: &Path) -> mooring_clients::FileEdit {
    let change = server_change(c, &Scope::User, &spec(), file, Action::Install).unwrap();
    apply::write(&change).unwrap();
    change
}

/// Another server and a comment, in the client's own format.
fn existing(c: Client) -> String {
    match c.format() {
        Format::Toml => {
            "# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"other-server\" # keep me\n".into()
        }
        Format::Jsonc => format!(
            "{{\n  // mine\n  \"{}\": {{\n    \"other\": {{ \"command\": \"other-server\" }}, // keep me\n  }},\n  \"theme\": \"dark\",\n}}\n",
            c.servers_key()
        ),
        Format::Json => format!(
            "{{\n  \"{}\": {{\n    \"other\": {{ \"command\": \"other-server\" }}\n  }},\n  \"theme\": \"dark\"\n}}\n",
            c.servers_key()
        ),
    }
}

fn entry_in(c: Client, file: &Path) -> Option<Value> {
    mooring_clients::configured_entry(c, file).unwrap()
}

#[test]
fn fresh_files_get_a_working_entry_for_every_client() {
    for (c, os) in clients() {
        let home = tempfile::tempdir().unwrap();
        let file = c.config_file(&env(home.path(), os), &Scope::User).unwrap();
        let change = install(c, &file);
        assert!(change.before.is_none(), "{c}");
        let entry = entry_in(c, &file).unwrap_or_else(|| panic!("{c}: no entry in\n{}", change.after));
        if matches!(c, Client::Opencode | Client::Kilo) {
            // Their own shape: see `opencode_gets_a_plugin_file_of_mooring_s_own_written_whole_and_taken_away`.
            assert_eq!(entry["command"], json!(["/home/me/.local/bin/mooring", "stdio"]));
            continue;
        }
        assert_eq!(entry["command"], "/home/me/.local/bin/mooring", "{c}");
        assert_eq!(entry["args"][0], "stdio", "{c}");
        assert_eq!(entry["env"]["MOORING_HOME"], "/home/me/.mooring-alt", "{c}: the data dir travels in env");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600, "{c}");
    }
}

#[test]
fn other_servers_and_comments_survive_install_twice_and_remove() {
    for (c, os) in clients() {
        let home = tempfile::tempdir().unwrap();
        let file = c.config_file(&env(home.path(), os), &Scope::User).unwrap();
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let before = existing(c);
        fs::write(&file, &before).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();

        install(c, &file);
        let once = fs::read_to_string(&file).unwrap();
        assert!(once.contains("other-server"), "{c}:\n{once}");
        if c.format() != Format::Json {
            assert!(once.contains("# mine") || once.contains("// mine"), "{c}: comments kept\n{once}");
            assert!(once.contains("keep me"), "{c}:\n{once}");
        }
        assert!(entry_in(c, &file).is_some(), "{c}");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o644, "{c}: mode kept");
        assert_eq!(
            fs::read_to_string(apply::backup_path(&file)).unwrap(),
            before,
            "{c}: backup of the previous file"
        );

        let twice = server_change(c, &Scope::User, &spec(), &file, Action::Install).unwrap();
        assert!(twice.is_noop(), "{c}: second run changes nothing:\n{}", twice.diff());

        let removed = server_change(c, &Scope::User, &spec(), &file, Action::Remove).unwrap();
        apply::write(&removed).unwrap();
        assert!(entry_in(c, &file).is_none(), "{c}");
        let after = fs::read_to_string(&file).unwrap();
        assert!(after.contains("other-server") && !after.contains("mooring"), "{c}:\n{after}");
        if c.format() == Format::Toml {
            assert_eq!(after, before, "codex: remove restores the file byte for byte");
        }
    }
}

#[test]
fn a_broken_file_is_refused_with_its_line_and_left_untouched() {
    for (c, os) in clients() {
        let home = tempfile::tempdir().unwrap();
        let file = c.config_file(&env(home.path(), os), &Scope::User).unwrap();
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let broken = match c.format() {
            Format::Toml => "model = \"o3\"\n[mcp_servers\n",
            _ => "{\n  \"theme\": \"dark\"\n  \"x\": 1\n}\n",
        };
        fs::write(&file, broken).unwrap();
        let err = server_change(c, &Scope::User, &spec(), &file, Action::Install).unwrap_err();
        match &err {
            ConfigError::Unparseable { file: f, line, .. } => {
                assert_eq!(f, &file, "{c}");
                assert!(*line == 2 || *line == 3, "{c}: line {line}");
            }
            other => panic!("{c}: {other:?}"),
        }
        let text = err.to_string();
        assert!(text.contains(&file.display().to_string()) && text.contains("Nothing was written"), "{text}");
        assert_eq!(fs::read_to_string(&file).unwrap(), broken, "{c}");
        assert!(!apply::backup_path(&file).exists(), "{c}");
    }
}

#[test]
fn project_scope_pins_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let scope = Scope::Project(dir.path().to_path_buf());
    for c in
        [Client::ClaudeCode, Client::Codex, Client::GeminiCli, Client::Cursor, Client::VsCode, Client::Zed]
    {
        let file = c.config_file(&env(Path::new("/nonexistent"), Os::Linux), &scope).unwrap();
        assert!(file.starts_with(dir.path()), "{c}: {}", file.display());
        apply::write(&server_change(c, &scope, &spec(), &file, Action::Install).unwrap()).unwrap();
        let entry = entry_in(c, &file).unwrap();
        assert_eq!(
            entry["args"],
            json!(["stdio", "--workspace-id", dir.path().display().to_string()]),
            "{c}"
        );
    }
}

fn hooks_file(c: Client, home: &Path) -> PathBuf {
    c.hooks_file(&env(home, Os::Linux), &Scope::User).unwrap()
}

#[test]
fn hooks_are_added_beside_the_persons_own_and_taken_out_again() {
    for c in [Client::ClaudeCode, Client::Codex, Client::GeminiCli, Client::Cursor, Client::Windsurf] {
        let home = tempfile::tempdir().unwrap();
        let file = hooks_file(c, home.path());
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let key = mooring_clients::entry::hooks_path(c)[1];
        let theirs = if matches!(c, Client::Cursor | Client::Windsurf) {
            json!({"command": "./my-hook.sh"})
        } else {
            json!({"matcher": "startup", "hooks": [{"type": "command", "command": "./my-hook.sh"}]})
        };
        let before =
            serde_json::to_string_pretty(&json!({"model": "x", "hooks": {key: [theirs.clone()]}})).unwrap();
        fs::write(&file, &before).unwrap();
        let change = hook_change(c, &spec(), &file, Action::Install).unwrap();
        apply::write(&change).unwrap();
        let v: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
        let list = v["hooks"][key].as_array().unwrap();
        assert_eq!(list.len(), 2, "{c}: {v}");
        assert_eq!(list[0], theirs, "{c}");
        let cmd = list[1].get("hooks").map(|h| &h[0]["command"]).unwrap_or(&list[1]["command"]);
        assert_eq!(
            cmd.as_str().unwrap(),
            format!("/home/me/.local/bin/mooring --data-dir /home/me/.mooring-alt hook {c}")
        );
        assert!(mooring_clients::hook_installed(c, &file).unwrap().is_some(), "{c}");
        // Claude Code, Codex and Gemini CLI also run Mooring at each prompt, each turn's
        // end, before compaction and (where the client has it) at the session's end.
        for path in mooring_clients::entry::capture_paths(c) {
            let group = &v["hooks"][path[1]][0];
            assert!(group.get("matcher").is_none(), "{c} {path:?}: every event, no matcher");
            // Cursor's and Windsurf's entries are flat (`{"command"}`), the others grouped.
            let command = group.get("hooks").map(|h| &h[0]["command"]).unwrap_or(&group["command"]);
            assert_eq!(command, cmd, "{c} {path:?}");
        }
        assert!(!mooring_clients::entry::capture_paths(c).is_empty(), "{c}");
        assert!(hook_change(c, &spec(), &file, Action::Install).unwrap().is_noop(), "{c}: twice");
        apply::write(&hook_change(c, &spec(), &file, Action::Remove).unwrap()).unwrap();
        let v: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(v["hooks"][key], json!([theirs]), "{c}");
        for path in mooring_clients::entry::capture_paths(c) {
            assert!(v["hooks"].get(path[1]).is_none_or(|h| h == &json!([])), "{c}: {v}");
        }
    }
}

#[test]
fn copilot_cli_gets_a_versioned_hooks_file_of_its_own_with_the_event_in_each_command() {
    let c = Client::CopilotCli;
    let home = tempfile::tempdir().unwrap();
    let file = hooks_file(c, home.path());
    assert!(file.ends_with(".copilot/hooks/mooring.json"), "{}", file.display());
    // The person's own hook for the same event, in their own file's shape.
    let theirs = json!({"type": "command", "bash": "./my-hook.sh", "timeoutSec": 10});
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(
        &file,
        serde_json::to_string(&json!({"version": 1, "hooks": {"sessionStart": [theirs]}})).unwrap(),
    )
    .unwrap();
    apply::write(&hook_change(c, &spec(), &file, Action::Install).unwrap()).unwrap();
    let v: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["version"], 1);
    let mooring = "/home/me/.local/bin/mooring --data-dir /home/me/.mooring-alt hook copilot-cli";
    assert_eq!(v["hooks"]["sessionStart"][0], theirs);
    assert_eq!(v["hooks"]["sessionStart"][1]["bash"], format!("{mooring} sessionStart"));
    assert_eq!(v["hooks"]["userPromptSubmitted"][0]["bash"], format!("{mooring} userPromptSubmitted"));
    // A turn's end may hold for the away person's next words (the hook bounds itself).
    assert_eq!(v["hooks"]["agentStop"][0]["bash"], format!("{mooring} agentStop"));
    assert_eq!(v["hooks"]["agentStop"][0]["timeoutSec"], 600);

    assert!(mooring_clients::hook_installed(c, &file).unwrap().is_some());
    assert!(hook_change(c, &spec(), &file, Action::Install).unwrap().is_noop(), "twice");
    apply::write(&hook_change(c, &spec(), &file, Action::Remove).unwrap()).unwrap();
    let v: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["hooks"]["sessionStart"], json!([theirs]));
    assert!(v["hooks"].get("userPromptSubmitted").is_none_or(|h| h == &json!([])), "{v}");
    // A fresh file starts with its version.
    let fresh = home.path().join("fresh.json");
    let change = hook_change(c, &spec(), &fresh, Action::Install).unwrap();
    assert!(change.after.contains("\"version\": 1"), "{}", change.after);
}

#[test]
fn opencode_gets_a_plugin_file_of_mooring_s_own_written_whole_and_taken_away() {
    // Kilo, a fork of opencode, the same way under its own names.
    for (c, app, config_name, project_dir) in [
        (Client::Opencode, "opencode", "opencode.json", ".opencode"),
        (Client::Kilo, "kilo", "kilo.json", ".kilo"),
    ] {
        let home = tempfile::tempdir().unwrap();
        let env = env(home.path(), Os::Linux);
        let config = c.config_file(&env, &Scope::User).unwrap();
        assert_eq!(config, home.path().join(format!(".config/{app}/{config_name}")));
        install(c, &config);
        let entry = entry_in(c, &config).unwrap();
        assert_eq!(
            entry,
            json!({ "type": "local", "command": ["/home/me/.local/bin/mooring", "stdio"], "enabled": true,
                    "environment": { "MOORING_HOME": "/home/me/.mooring-alt" } })
        );
        let file = c.hooks_file(&env, &Scope::User).unwrap();
        assert_eq!(file, home.path().join(format!(".config/{app}/plugin/mooring.js")));
        let change = hook_change(c, &spec(), &file, Action::Install).unwrap();
        apply::write(&change).unwrap();
        let plugin = fs::read_to_string(&file).unwrap();
        // The binary and data directory as JSON strings: data, never code.
        let argv = format!(
            r#"const ARGV = ["/home/me/.local/bin/mooring","--data-dir","/home/me/.mooring-alt","hook","{}"];"#,
            c.name()
        );
        assert!(plugin.contains(&argv), "{plugin}");
        // It starts Mooring before the tools that write, named as the client's module names them.
        assert!(plugin.contains(r#"const WRITES = ["write","edit","apply_patch","bash"];"#), "{plugin}");
        // The session's database is the client's own.
        assert!(plugin.contains(&format!(r#"...["{app}","{app}.db"]);"#)), "{plugin}");
        assert!(mooring_clients::hook_installed(c, &file).unwrap().is_some());
        assert!(hook_change(c, &spec(), &file, Action::Install).unwrap().is_noop(), "twice: unchanged");
        let removed = hook_change(c, &spec(), &file, Action::Remove).unwrap();
        apply::write(&removed).unwrap();
        assert!(!file.exists(), "removed, not emptied");
        assert!(mooring_clients::hook_installed(c, &file).unwrap().is_none());
        let project = c.hooks_file(&env, &Scope::Project("/w/le".into())).unwrap();
        assert_eq!(project, PathBuf::from(format!("/w/le/{project_dir}/plugin/mooring.js")));
    }
}

#[test]
fn pi_gets_an_extension_of_mooring_s_own_and_no_server_entry() {
    let c = Client::Pi;
    let home = tempfile::tempdir().unwrap();
    let env = env(home.path(), Os::Linux);
    // No MCP: no file to write a server into, and the error says what to run instead.
    let why = c.config_file(&env, &Scope::User).unwrap_err().0;
    assert!(!c.has_mcp() && why.contains("mooring setup pi --hooks"), "{why}");
    let file = c.hooks_file(&env, &Scope::User).unwrap();
    assert_eq!(file, home.path().join(".pi/agent/extensions/mooring.ts"));
    apply::write(&hook_change(c, &spec(), &file, Action::Install).unwrap()).unwrap();
    assert!(mooring_clients::hook_installed(c, &file).unwrap().is_some());
    assert!(hook_change(c, &spec(), &file, Action::Install).unwrap().is_noop(), "twice: unchanged");
    apply::write(&hook_change(c, &spec(), &file, Action::Remove).unwrap()).unwrap();
    assert!(!file.exists(), "removed, not emptied");
    // $PI_CODING_AGENT_DIR moves it; a checkout has its own.
    let moved = Env { pi_home: Some("/p".into()), ..env.clone() };
    assert_eq!(c.hooks_file(&moved, &Scope::User).unwrap(), PathBuf::from("/p/extensions/mooring.ts"));
    let project = c.hooks_file(&env, &Scope::Project("/w/le".into())).unwrap();
    assert_eq!(project, PathBuf::from("/w/le/.pi/extensions/mooring.ts"));
}

#[test]
fn setup_says_whose_writes_are_checked_against_claims_and_an_older_install_reads_as_unchecked() {
    let checked = [
        Client::ClaudeCode,
        Client::Codex,
        Client::GeminiCli,
        Client::QwenCode,
        Client::CopilotCli,
        Client::Opencode,
        Client::Kilo,
        Client::Cline,
    ];
    for (c, os) in clients() {
        let home = tempfile::tempdir().unwrap();
        let Some(file) = c.hooks_file(&env(home.path(), os), &Scope::User) else { continue };
        assert_eq!(mooring_clients::claims_checked(c, &file), None, "{c}: nothing installed");
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        for edit in mooring_clients::hook_changes(c, &spec(), &file, Action::Install).unwrap() {
            apply::write(&edit).unwrap();
        }
        let now = mooring_clients::claims_checked(c, &file);
        assert_eq!(now, checked.contains(&c).then_some(true), "{c}");
        // An install from before the check: the file without it.
        let text = fs::read_to_string(&file).unwrap();
        let older = match c {
            Client::Opencode | Client::Kilo => text.replace("\"tool.execute.before\"", "\"tool.other\""),
            _ => match mooring_clients::entry::pre_edit_path(c) {
                Some(path) => {
                    let mut v: Value = serde_json::from_str(&text).unwrap();
                    v[path[0]].as_object_mut().unwrap().remove(path[1]);
                    serde_json::to_string(&v).unwrap()
                }
                None => continue,
            },
        };
        fs::write(&file, older).unwrap();
        assert_eq!(mooring_clients::claims_checked(c, &file), Some(false), "{c}: an older install");
    }
}
