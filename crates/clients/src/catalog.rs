//! The agent clients Mooring knows: where each keeps its MCP servers and hooks, in which
//! format, and what tells Mooring a session's project. Pure functions of [`Env`], so the
//! macOS and Windows locations are unit-tested on Linux.

use std::fmt;
use std::path::{Path, PathBuf};

mod env;

pub use env::{Env, Os};

/// An agent client `mooring setup` can register Mooring with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Client {
    /// Anthropic's Claude Code CLI.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    GeminiCli,
    /// GitHub's Copilot CLI.
    CopilotCli,
    /// Alibaba's Qwen Code CLI (a fork of Gemini CLI).
    QwenCode,
    /// The opencode CLI (SST).
    Opencode,
    /// The Kilo CLI (Kilo Code's, a fork of opencode).
    Kilo,
    /// The Cline CLI (3.x; its editor extensions keep their own settings).
    Cline,
    /// The Pi coding agent (`pi`): extensions, no MCP.
    Pi,
    /// The Cursor editor.
    Cursor,
    /// Visual Studio Code (Copilot agent mode).
    VsCode,
    /// The Windsurf editor.
    Windsurf,
    /// The Zed editor.
    Zed,
    /// The Claude desktop app (macOS, Windows).
    ClaudeDesktop,
}

/// File format of a client's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Plain JSON: the client rejects comments and trailing commas.
    Json,
    /// JSON with comments and trailing commas.
    Jsonc,
    /// TOML.
    Toml,
}

/// Which configuration file: the person's own, or one project's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every session of this person (the default).
    User,
    /// Sessions in this project directory only.
    Project(PathBuf),
}

/// What tells Mooring a session's project when this client starts the shim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// The client starts the shim in the directory the person works in.
    WorkingDirectory,
    /// The client substitutes its workspace folder into the shim's arguments.
    WorkspaceVariable(&'static str),
    /// The client starts servers in the project's root folder (Zed).
    ProjectRoot,
    /// Nothing per session: the focus project decides, else the person is asked.
    None,
}

/// Why a client cannot be configured as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Client {
    /// Every client, in the order `--list` shows them.
    pub const ALL: [Client; 14] = [
        Client::ClaudeCode,
        Client::Codex,
        Client::GeminiCli,
        Client::CopilotCli,
        Client::QwenCode,
        Client::Opencode,
        Client::Kilo,
        Client::Cline,
        Client::Pi,
        Client::Cursor,
        Client::VsCode,
        Client::Windsurf,
        Client::Zed,
        Client::ClaudeDesktop,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            Client::Codex => "codex",
            Client::GeminiCli => "gemini-cli",
            Client::CopilotCli => "copilot-cli",
            Client::QwenCode => "qwen-code",
            Client::Opencode => "opencode",
            Client::Kilo => "kilo",
            Client::Cline => "cline",
            Client::Pi => "pi",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Windsurf => "windsurf",
            Client::Zed => "zed",
            Client::ClaudeDesktop => "claude-desktop",
        }
    }

    /// The product's own name, for messages.
    pub fn title(self) -> &'static str {
        match self {
            Client::ClaudeCode => "Claude Code",
            Client::Codex => "Codex",
            Client::GeminiCli => "Gemini CLI",
            Client::CopilotCli => "GitHub Copilot CLI",
            Client::QwenCode => "Qwen Code",
            Client::Opencode => "opencode",
            Client::Kilo => "Kilo CLI",
            Client::Cline => "Cline",
            Client::Pi => "Pi",
            Client::Cursor => "Cursor",
            Client::VsCode => "VS Code",
            Client::Windsurf => "Windsurf",
            Client::Zed => "Zed",
            Client::ClaudeDesktop => "Claude Desktop",
        }
    }

    /// Parse a command-line name (a few common spellings accepted).
    pub fn parse(name: &str) -> Option<Self> {
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        let alias = match n.as_str() {
            "claude" => "claude-code",
            "gemini" => "gemini-cli",
            "copilot" => "copilot-cli",
            "qwen" => "qwen-code",
            "open-code" => "opencode",
            "kilo-code" | "kilocode" | "kilo-cli" => "kilo",
            "pi-coding-agent" | "pi-agent" => "pi",
            "code" | "vs-code" => "vscode",
            "claude-app" => "claude-desktop",
            other => other,
        };
        Self::ALL.into_iter().find(|c| c.name() == alias)
    }

    /// Format of the MCP configuration file.
    pub fn format(self) -> Format {
        match self {
            Client::Codex => Format::Toml,
            Client::VsCode
            | Client::Zed
            | Client::GeminiCli
            | Client::QwenCode
            | Client::Opencode
            | Client::Kilo => Format::Jsonc,
            _ => Format::Json,
        }
    }

    /// The key, at the top of the file, that holds the servers by name.
    pub fn servers_key(self) -> &'static str {
        match self {
            Client::Codex => "mcp_servers",
            Client::VsCode => "servers",
            Client::Zed => "context_servers",
            Client::Opencode | Client::Kilo => "mcp",
            _ => "mcpServers",
        }
    }

    /// What decides the project for this client's sessions.
    pub fn identity(self) -> Identity {
        match self {
            Client::ClaudeCode
            | Client::Codex
            | Client::GeminiCli
            | Client::CopilotCli
            | Client::QwenCode
            | Client::Opencode
            | Client::Kilo
            | Client::Cline
            | Client::Pi => Identity::WorkingDirectory,
            Client::Cursor | Client::VsCode => Identity::WorkspaceVariable("${workspaceFolder}"),
            Client::Zed => Identity::ProjectRoot,
            Client::Windsurf | Client::ClaudeDesktop => Identity::None,
        }
    }

    /// The MCP configuration file for `scope`.
    pub fn config_file(self, env: &Env, scope: &Scope) -> Result<PathBuf, Unsupported> {
        if self == Client::Pi {
            return Err(Unsupported(Self::NO_MCP.into()));
        }
        if let Scope::Project(dir) = scope {
            return self.project_file(dir);
        }
        Ok(match self {
            Client::ClaudeCode => match &env.claude_config_dir {
                Some(dir) => dir.join(".claude.json"),
                None => env.home.join(".claude.json"),
            },
            Client::Codex => env.codex_dir().join("config.toml"),
            Client::GeminiCli => env.home.join(".gemini").join("settings.json"),
            Client::CopilotCli => env.copilot_dir().join("mcp-config.json"),
            Client::QwenCode => env.qwen_dir().join("settings.json"),
            Client::Opencode => env.opencode_dir().join("opencode.json"),
            Client::Kilo => env.kilo_dir().join("kilo.json"),
            Client::Cline => env.cline_dir().join("data").join("settings").join("cline_mcp_settings.json"),
            Client::Pi => unreachable!("answered above"),
            Client::Cursor => env.home.join(".cursor").join("mcp.json"),
            Client::VsCode => env.app_config_dir().join("Code").join("User").join("mcp.json"),
            Client::Windsurf => env.home.join(".codeium").join("windsurf").join("mcp_config.json"),
            Client::Zed => match env.os {
                // Zed keeps ~/.config/zed on macOS too.
                Os::Windows => env.app_config_dir().join("Zed").join("settings.json"),
                _ => env
                    .xdg_config_home
                    .clone()
                    .unwrap_or_else(|| env.home.join(".config"))
                    .join("zed")
                    .join("settings.json"),
            },
            Client::ClaudeDesktop => match env.os {
                Os::Linux => {
                    return Err(Unsupported(
                        "Claude Desktop has no Linux build; on macOS its config is ~/Library/Application Support/Claude/claude_desktop_config.json, on Windows %APPDATA%\\Claude\\claude_desktop_config.json (pass --config FILE to write one anyway)".into(),
                    ));
                }
                _ => env.app_config_dir().join("Claude").join("claude_desktop_config.json"),
            },
        })
    }

    fn project_file(self, dir: &Path) -> Result<PathBuf, Unsupported> {
        Ok(match self {
            Client::ClaudeCode => dir.join(".mcp.json"),
            Client::Codex => dir.join(".codex").join("config.toml"),
            Client::GeminiCli => dir.join(".gemini").join("settings.json"),
            Client::QwenCode => dir.join(".qwen").join("settings.json"),
            Client::Opencode => dir.join("opencode.json"),
            Client::Kilo => dir.join("kilo.json"),
            Client::Cursor => dir.join(".cursor").join("mcp.json"),
            Client::VsCode => dir.join(".vscode").join("mcp.json"),
            Client::Zed => dir.join(".zed").join("settings.json"),
            Client::Windsurf | Client::ClaudeDesktop | Client::CopilotCli | Client::Cline | Client::Pi => {
                return Err(Unsupported(format!(
                    "{} has no project-scoped configuration; run without --project",
                    self.title()
                )));
            }
        })
    }

    /// The file that holds this client's session hooks, if it has them.
    pub fn hooks_file(self, env: &Env, scope: &Scope) -> Option<PathBuf> {
        let project = |rel: &[&str]| match scope {
            Scope::Project(dir) => Some(rel.iter().fold(dir.clone(), |p, part| p.join(part))),
            Scope::User => None,
        };
        match self {
            Client::ClaudeCode => project(&[".claude", "settings.json"])
                .or_else(|| Some(env.claude_dir().join("settings.json"))),
            Client::Codex => {
                project(&[".codex", "hooks.json"]).or_else(|| Some(env.codex_dir().join("hooks.json")))
            }
            Client::GeminiCli => project(&[".gemini", "settings.json"])
                .or_else(|| Some(env.home.join(".gemini").join("settings.json"))),
            // Its hooks live beside its servers, in Claude Code's shape.
            Client::QwenCode => {
                project(&[".qwen", "settings.json"]).or_else(|| Some(env.qwen_dir().join("settings.json")))
            }
            // Its hooks are a plugin: Mooring's is a file of its own.
            Client::Opencode => project(&[".opencode", "plugin", "mooring.js"])
                .or_else(|| Some(env.opencode_dir().join("plugin").join("mooring.js"))),
            Client::Kilo => project(&[".kilo", "plugin", "mooring.js"])
                .or_else(|| Some(env.kilo_dir().join("plugin").join("mooring.js"))),
            Client::Cursor => project(&[".cursor", "hooks.json"])
                .or_else(|| Some(env.home.join(".cursor").join("hooks.json"))),
            // Every `*.json` in the hooks folder is read; Mooring's is its own file.
            Client::CopilotCli => project(&[".github", "hooks", "mooring.json"])
                .or_else(|| Some(env.copilot_dir().join("hooks").join("mooring.json"))),
            // Its hooks are scripts named after their events; this is the first of Mooring's.
            Client::Cline => project(&[".clinerules", "hooks", "PreToolUse.bash"])
                .or_else(|| Some(env.cline_dir().join("hooks").join("PreToolUse.bash"))),
            // Its hooks are an extension: Mooring's is a file of its own.
            Client::Pi => project(&[".pi", "extensions", "mooring.ts"])
                .or_else(|| Some(env.pi_dir().join("extensions").join("mooring.ts"))),
            Client::Windsurf => project(&[".windsurf", "hooks.json"])
                .or_else(|| Some(env.home.join(".codeium").join("windsurf").join("hooks.json"))),
            Client::VsCode | Client::Zed | Client::ClaudeDesktop => None,
        }
    }

    /// Why a client without MCP gets no server entry: Pi leaves tools to its extensions.
    const NO_MCP: &'static str = "Pi has no MCP servers (by design: its tools come from extensions), so Mooring's tools are not offered there; `mooring setup pi --hooks` installs Mooring's extension, which hands Pi's sessions their project's context and recall and keeps each session in memory";

    /// Whether the client takes MCP servers (all but Pi).
    pub fn has_mcp(self) -> bool {
        self != Client::Pi
    }

    /// Whether the client runs session-start hooks Mooring can install.
    pub fn has_hooks(self) -> bool {
        self.dialect().is_some()
    }

    /// Places whose existence shows the client is installed or has been used here.
    pub fn traces(self, env: &Env) -> Vec<PathBuf> {
        match self {
            Client::ClaudeCode => vec![env.home.join(".claude.json"), env.claude_dir()],
            Client::Codex => vec![env.codex_dir()],
            Client::GeminiCli => vec![env.home.join(".gemini")],
            Client::CopilotCli => vec![env.copilot_dir()],
            Client::QwenCode => vec![env.qwen_dir()],
            Client::Opencode => vec![env.opencode_dir()],
            Client::Kilo => vec![env.kilo_dir()],
            Client::Cline => vec![env.cline_dir()],
            Client::Pi => vec![env.pi_dir()],
            Client::Cursor => vec![env.home.join(".cursor")],
            Client::VsCode => vec![env.app_config_dir().join("Code").join("User")],
            Client::Windsurf => vec![env.home.join(".codeium").join("windsurf")],
            Client::Zed => self
                .config_file(env, &Scope::User)
                .ok()
                .and_then(|f| f.parent().map(Path::to_path_buf))
                .into_iter()
                .collect(),
            Client::ClaudeDesktop => self
                .config_file(env, &Scope::User)
                .ok()
                .and_then(|f| f.parent().map(Path::to_path_buf))
                .into_iter()
                .collect(),
        }
    }

    /// The instruction file the client reads at a checkout's root, relative to it, if it
    /// has one of its own.
    pub fn instruction_file(self) -> Option<&'static str> {
        match self {
            Client::ClaudeCode => Some("CLAUDE.md"),
            // Cursor, Zed and others read it too.
            Client::Codex => Some("AGENTS.md"),
            Client::GeminiCli => Some("GEMINI.md"),
            Client::QwenCode => Some("QWEN.md"),
            // VS Code's Copilot reads the same file.
            Client::CopilotCli => Some(".github/copilot-instructions.md"),
            Client::Windsurf => Some(".windsurfrules"),
            // opencode, Kilo and Pi read AGENTS.md.
            Client::Cline => Some(".clinerules"),
            Client::Opencode
            | Client::Kilo
            | Client::Pi
            | Client::Cursor
            | Client::VsCode
            | Client::Zed
            | Client::ClaudeDesktop => None,
        }
    }

    /// Every client's instruction file (see [`Client::instruction_file`]), once each.
    pub fn instruction_files() -> Vec<&'static str> {
        let mut files: Vec<&'static str> = Vec::new();
        for file in Self::ALL.into_iter().filter_map(Client::instruction_file) {
            if !files.contains(&file) {
                files.push(file);
            }
        }
        files
    }

    /// The client's command, looked for on `PATH` by `--list` and `doctor`.
    pub fn command(self) -> Option<&'static str> {
        match self {
            Client::ClaudeCode => Some("claude"),
            Client::Codex => Some("codex"),
            Client::GeminiCli => Some("gemini"),
            Client::CopilotCli => Some("copilot"),
            Client::QwenCode => Some("qwen"),
            Client::Opencode => Some("opencode"),
            Client::Kilo => Some("kilo"),
            Client::Cline => Some("cline"),
            Client::Pi => Some("pi"),
            Client::Cursor => Some("cursor"),
            Client::VsCode => Some("code"),
            Client::Windsurf => Some("windsurf"),
            Client::Zed => Some("zed"),
            Client::ClaudeDesktop => None,
        }
    }

    /// One or two sentences on what decides the project for this client, for the person.
    pub fn identity_note(self) -> String {
        match self.identity() {
            Identity::WorkingDirectory => format!(
                "{} starts `mooring stdio` in the directory you run it from, so that directory decides the project on the first call.",
                self.title()
            ),
            Identity::WorkspaceVariable(var) => format!(
                "{} starts servers in your home directory, so the entry passes the open folder ({var}) as --workspace-id and the folder decides the project.",
                self.title()
            ),
            Identity::ProjectRoot => format!(
                "{} starts servers in the open project's root folder, so that folder decides the project (with several folders open, the first one).",
                self.title()
            ),
            Identity::None => format!(
                "{} tells servers nothing about the folder you work in: sessions use the focus project (`mooring projects active SLUG`), else Mooring asks you to pick one.",
                self.title()
            ),
        }
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
