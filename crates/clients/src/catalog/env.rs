//! What the clients' locations depend on: the system and a few environment variables.

use std::path::PathBuf;

/// Operating system whose conventions a path follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and other XDG desktops.
    Linux,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

impl Os {
    /// The system this binary was built for.
    pub fn current() -> Self {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// What the locations depend on: the system and a few environment variables.
#[derive(Debug, Clone)]
pub struct Env {
    /// Target system.
    pub os: Os,
    /// The person's home directory.
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME` (Linux).
    pub xdg_config_home: Option<PathBuf>,
    /// `%APPDATA%` (Windows).
    pub appdata: Option<PathBuf>,
    /// `$CODEX_HOME`.
    pub codex_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`.
    pub claude_config_dir: Option<PathBuf>,
    /// `$COPILOT_HOME`.
    pub copilot_home: Option<PathBuf>,
    /// `$QWEN_HOME`.
    pub qwen_home: Option<PathBuf>,
    /// `$CLINE_DIR`.
    pub cline_home: Option<PathBuf>,
    /// `$PI_CODING_AGENT_DIR`.
    pub pi_home: Option<PathBuf>,
}

impl Env {
    /// Read from this process's environment.
    pub fn from_process(home: PathBuf) -> Self {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        Self {
            os: Os::current(),
            home,
            xdg_config_home: var("XDG_CONFIG_HOME"),
            appdata: var("APPDATA"),
            codex_home: var("CODEX_HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            copilot_home: var("COPILOT_HOME"),
            qwen_home: var("QWEN_HOME"),
            cline_home: var("CLINE_DIR"),
            pi_home: var("PI_CODING_AGENT_DIR"),
        }
    }

    /// Where desktop apps keep per-user settings (`~/.config`, `~/Library/Application
    /// Support`, `%APPDATA%`).
    pub fn app_config_dir(&self) -> PathBuf {
        match self.os {
            Os::Linux => self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config")),
            Os::MacOs => self.home.join("Library").join("Application Support"),
            Os::Windows => self.appdata.clone().unwrap_or_else(|| self.home.join("AppData").join("Roaming")),
        }
    }

    pub(super) fn codex_dir(&self) -> PathBuf {
        self.codex_home.clone().unwrap_or_else(|| self.home.join(".codex"))
    }

    pub(super) fn copilot_dir(&self) -> PathBuf {
        self.copilot_home.clone().unwrap_or_else(|| self.home.join(".copilot"))
    }

    /// opencode's configuration folder (`$XDG_CONFIG_HOME/opencode`, else
    /// `~/.config/opencode`, on every system).
    pub fn opencode_dir(&self) -> PathBuf {
        self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config")).join("opencode")
    }

    /// Kilo's configuration folder (`$XDG_CONFIG_HOME/kilo`, else `~/.config/kilo`, on
    /// every system, as opencode's).
    pub fn kilo_dir(&self) -> PathBuf {
        self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config")).join("kilo")
    }

    /// Cline's folder (`$CLINE_DIR`, else `~/.cline`).
    pub fn cline_dir(&self) -> PathBuf {
        self.cline_home.clone().unwrap_or_else(|| self.home.join(".cline"))
    }

    /// Pi's folder (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`).
    pub fn pi_dir(&self) -> PathBuf {
        self.pi_home.clone().unwrap_or_else(|| self.home.join(".pi").join("agent"))
    }

    /// Qwen Code's folder (`$QWEN_HOME`, else `~/.qwen`).
    pub fn qwen_dir(&self) -> PathBuf {
        self.qwen_home.clone().unwrap_or_else(|| self.home.join(".qwen"))
    }

    pub(super) fn claude_dir(&self) -> PathBuf {
        self.claude_config_dir.clone().unwrap_or_else(|| self.home.join(".claude"))
    }
}
