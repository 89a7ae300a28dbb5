//! The command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Mooring: which project each AI agent session is in, and what it should remember.
#[derive(Debug, Parser)]
#[command(name = "mooring", version, about, max_term_width = 80)]
pub struct Cli {
    /// Data directory (default: $MOORING_HOME, else the platform data directory)
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Print machine-readable JSON instead of text
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// Top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List, create, show and edit projects
    Projects(Box<ProjectsArgs>),
    /// Show which project a session here would be in, and why
    Resolve(ResolveArgs),
    /// Run the MCP server headless on 127.0.0.1 (no desktop needed)
    Serve(ServeArgs),
    /// Speak MCP on stdin/stdout: what an MCP client launches
    Stdio(StdioArgs),
}

/// `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one)
    #[arg(long, default_value_t = mooring_server::DEFAULT_PORT)]
    pub port: u16,
    /// Loopback address to listen on (127.0.0.1 or ::1)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Hours an idle MCP session is kept
    #[arg(long, default_value_t = 8, value_name = "HOURS")]
    pub session_idle_hours: u64,
    /// Also serve the MCP conformance suite's fixture tools (for tests)
    #[arg(long, hide = true)]
    pub conformance_fixtures: bool,
}

/// `stdio`.
#[derive(Debug, Args)]
pub struct StdioArgs {
    /// Workspace directory of this agent session (resolution level 3)
    #[arg(long, value_name = "DIR")]
    pub workspace_id: Option<String>,
}

/// `mooring projects [SLUG] [edit flags]` or one of its subcommands.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ProjectsArgs {
    #[command(subcommand)]
    pub action: Option<ProjectsAction>,

    /// Project to show or edit (omit to list)
    pub slug: Option<String>,

    #[command(flatten)]
    pub edit: EditFlags,
}

/// Subcommands of `projects`.
#[derive(Debug, Subcommand)]
pub enum ProjectsAction {
    /// Create a project
    New(NewArgs),
    /// List projects (the default)
    List(ListArgs),
    /// Show, set or clear the focus project (used when nothing else decides)
    Active(ActiveArgs),
}

/// Flags that edit a project (with SLUG) or filter the list (`--status` alone).
#[derive(Debug, Args, Default)]
pub struct EditFlags {
    /// New display name
    #[arg(long)]
    pub name: Option<String>,
    /// New description
    #[arg(long)]
    pub description: Option<String>,
    /// Add a code directory (repeatable)
    #[arg(long, value_name = "DIR")]
    pub add_code_path: Vec<String>,
    /// Remove a code directory (repeatable)
    #[arg(long, value_name = "DIR")]
    pub remove_code_path: Vec<String>,
    /// Notes directory ("" clears it)
    #[arg(long, value_name = "DIR")]
    pub notes_path: Option<String>,
    /// Repository URL ("" clears it)
    #[arg(long, value_name = "URL")]
    pub repo_url: Option<String>,
    /// With SLUG: set the status (active, paused, archived). Without: filter the list
    /// (also "all")
    #[arg(long)]
    pub status: Option<String>,
    /// Delete the project and everything it holds (needs --yes)
    #[arg(long)]
    pub delete: bool,
    /// Confirm --delete
    #[arg(long)]
    pub yes: bool,
}

/// `projects new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// Display name, e.g. "Leader Election"
    pub name: String,
    /// Slug (default: made from the name)
    #[arg(long)]
    pub slug: Option<String>,
    /// What the project is about
    #[arg(long)]
    pub description: Option<String>,
    /// Code directory (repeatable)
    #[arg(long, value_name = "DIR")]
    pub code_path: Vec<String>,
    /// Repository URL
    #[arg(long, value_name = "URL")]
    pub repo_url: Option<String>,
    /// Notes directory
    #[arg(long, value_name = "DIR")]
    pub notes_path: Option<String>,
}

/// `projects list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// active, paused, archived or all (default: all)
    #[arg(long)]
    pub status: Option<String>,
}

/// `projects active`.
#[derive(Debug, Args)]
pub struct ActiveArgs {
    /// Project to make the focus project
    #[arg(conflicts_with = "clear")]
    pub slug: Option<String>,
    /// Clear the focus project
    #[arg(long)]
    pub clear: bool,
}

/// `resolve`.
#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// Working directory to resolve from (default: the current one)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// Workspace directory or file:// URI, as an MCP client would send it
    #[arg(long, value_name = "DIR")]
    pub workspace_id: Option<String>,
    /// Explicit project, as a tool's `project` argument
    #[arg(long, value_name = "SLUG")]
    pub project: Option<String>,
    /// An MCP root (file:// URI or directory; repeatable)
    #[arg(long, value_name = "URI")]
    pub root: Vec<String>,
}
