//! Where each client keeps its files, per platform.

use super::*;

fn env(os: Os) -> Env {
    let home = match os {
        Os::Windows => PathBuf::from(r"C:\Users\me"),
        Os::MacOs => PathBuf::from("/Users/me"),
        Os::Linux => PathBuf::from("/home/me"),
    };
    Env {
        os,
        appdata: (os == Os::Windows).then(|| PathBuf::from(r"C:\Users\me\AppData\Roaming")),
        home,
        xdg_config_home: None,
        codex_home: None,
        claude_config_dir: None,
        copilot_home: None,
        qwen_home: None,
        cline_home: None,
        pi_home: None,
    }
}

#[test]
fn claude_desktop_lives_in_the_platform_app_folder_and_not_on_linux() {
    let mac = Client::ClaudeDesktop.config_file(&env(Os::MacOs), &Scope::User).unwrap();
    assert_eq!(mac, PathBuf::from("/Users/me/Library/Application Support/Claude/claude_desktop_config.json"));
    let win = Client::ClaudeDesktop.config_file(&env(Os::Windows), &Scope::User).unwrap();
    assert_eq!(
        win,
        PathBuf::from(r"C:\Users\me\AppData\Roaming").join("Claude").join("claude_desktop_config.json")
    );
    let linux = Client::ClaudeDesktop.config_file(&env(Os::Linux), &Scope::User).unwrap_err();
    assert!(linux.0.contains("no Linux build") && linux.0.contains("--config"), "{linux}");
}

#[test]
fn user_files_follow_each_clients_own_convention() {
    let e = env(Os::Linux);
    let file = |c: Client| c.config_file(&e, &Scope::User).unwrap();
    assert_eq!(file(Client::ClaudeCode), PathBuf::from("/home/me/.claude.json"));
    assert_eq!(file(Client::Codex), PathBuf::from("/home/me/.codex/config.toml"));
    assert_eq!(file(Client::GeminiCli), PathBuf::from("/home/me/.gemini/settings.json"));
    assert_eq!(file(Client::Cursor), PathBuf::from("/home/me/.cursor/mcp.json"));
    assert_eq!(file(Client::VsCode), PathBuf::from("/home/me/.config/Code/User/mcp.json"));
    assert_eq!(file(Client::Windsurf), PathBuf::from("/home/me/.codeium/windsurf/mcp_config.json"));
    assert_eq!(file(Client::Zed), PathBuf::from("/home/me/.config/zed/settings.json"));
    let mac = env(Os::MacOs);
    assert_eq!(
        Client::VsCode.config_file(&mac, &Scope::User).unwrap(),
        PathBuf::from("/Users/me/Library/Application Support/Code/User/mcp.json")
    );
    assert_eq!(
        Client::Zed.config_file(&mac, &Scope::User).unwrap(),
        PathBuf::from("/Users/me/.config/zed/settings.json")
    );
}

#[test]
fn environment_overrides_are_honoured() {
    let mut e = env(Os::Linux);
    e.codex_home = Some("/opt/codex".into());
    e.claude_config_dir = Some("/opt/claude".into());
    e.xdg_config_home = Some("/x".into());
    assert_eq!(Client::Codex.config_file(&e, &Scope::User).unwrap(), PathBuf::from("/opt/codex/config.toml"));
    assert_eq!(
        Client::ClaudeCode.config_file(&e, &Scope::User).unwrap(),
        PathBuf::from("/opt/claude/.claude.json")
    );
    assert_eq!(
        Client::ClaudeCode.hooks_file(&e, &Scope::User).unwrap(),
        PathBuf::from("/opt/claude/settings.json")
    );
    assert_eq!(Client::Zed.config_file(&e, &Scope::User).unwrap(), PathBuf::from("/x/zed/settings.json"));
}

#[test]
fn project_scope_uses_the_project_file_or_says_there_is_none() {
    let scope = Scope::Project("/w/le".into());
    let e = env(Os::Linux);
    assert_eq!(Client::ClaudeCode.config_file(&e, &scope).unwrap(), PathBuf::from("/w/le/.mcp.json"));
    assert_eq!(Client::VsCode.config_file(&e, &scope).unwrap(), PathBuf::from("/w/le/.vscode/mcp.json"));
    assert_eq!(Client::Codex.hooks_file(&e, &scope).unwrap(), PathBuf::from("/w/le/.codex/hooks.json"));
    assert!(Client::Windsurf.config_file(&e, &scope).unwrap_err().0.contains("no project-scoped"));
}

#[test]
fn names_round_trip_and_aliases_parse() {
    for c in Client::ALL {
        assert_eq!(Client::parse(c.name()), Some(c));
    }
    assert_eq!(Client::parse("Claude"), Some(Client::ClaudeCode));
    assert_eq!(Client::parse("gemini"), Some(Client::GeminiCli));
    assert_eq!(Client::parse("emacs"), None);
}

#[test]
fn has_hooks_agrees_with_where_hooks_live() {
    let e = env(Os::Linux);
    for c in Client::ALL {
        assert_eq!(c.has_hooks(), c.hooks_file(&e, &Scope::User).is_some(), "{c}");
    }
}
