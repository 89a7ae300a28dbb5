//! The command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use crate::cli_remote::RemoteArgs;
pub use crate::cli_team::{TeamAction, TeamArgs};

/// Mooring: which project each AI agent session is in, what it did, and what it should remember.
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
    /// Record, list and search project memory
    Memory(MemoryArgs),
    /// Print a project's context preamble (usable as a SessionStart hook)
    Context(ContextArgs),
    /// List the agent sessions captured in a project (what each asked, changed, left open)
    Sessions(SessionsArgs),
    /// Turn capturing agent sessions on or off, everywhere or for one project
    Capture(CaptureArgs),
    /// Write a project to a folder of Markdown files
    Export(ExportArgs),
    /// Read a project back from a folder written by export
    Import(ImportArgs),
    /// Print the local API token (created on first use)
    Token,
    /// Answer, list and configure the questions agents ask
    Choice(ChoiceArgs),
    /// Register Mooring with an agent client (see --list), so its sessions know their project
    Setup(SetupArgs),
    /// Check that Mooring and the agent clients are set up right, each problem with its fix
    Doctor,
    /// A client's hook: the project's context at a session's start, the memory a prompt is about, a record of each turn
    Hook(HookArgs),
    /// Share projects with a team through PostgreSQL: join, status, leave, new, member, handoff
    Team(TeamArgs),
    /// Answer from your phone away from the desk: pair a Telegram or Slack bot, away, back
    Remote(RemoteArgs),
    /// Show or change settings (auto_pause_days, preamble_max_*, capture, recall, rerank, …)
    Config {
        /// Setting to show or change (all when omitted)
        key: Option<String>,
        /// New value
        value: Option<String>,
    },
}

/// `setup`.
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// claude-code, codex, gemini-cli, copilot-cli, qwen-code, opencode, kilo, cline, pi, cursor, vscode, windsurf, zed or claude-desktop
    #[arg(required_unless_present = "list")]
    pub client: Option<String>,
    /// List the clients, whether each is found on this machine and set up
    #[arg(long, conflicts_with_all = ["client", "project", "hooks", "dry_run", "remove", "config", "binary"])]
    pub list: bool,
    /// Write the client's project-scoped file in DIR (pins the workspace) instead of yours
    #[arg(long, value_name = "DIR")]
    pub project: Option<String>,
    /// Also install a session-start hook that hands each session the project's context
    #[arg(long)]
    pub hooks: bool,
    /// Print the exact change; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Take Mooring's entry (and its hook) out again
    #[arg(long)]
    pub remove: bool,
    /// Edit this file instead of the client's usual one
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The mooring binary the client should start (default: the installed one)
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
}

/// `hook`.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// The client whose hook format to print (claude-code, codex, gemini-cli, copilot-cli, qwen-code, opencode, kilo, cline, pi, cursor, windsurf)
    pub client: String,
    /// The event, for a client whose hook input does not name it (Copilot CLI); the
    /// entries `mooring setup CLIENT --hooks` writes pass it
    pub event: Option<String>,
    /// Wait (in a process of its own, bounded) for a session file the client writes only
    /// once it exits, then capture it: what the hook starts for such a client
    #[arg(long, hide = true)]
    pub after_exit: bool,
}

/// `memory`.
#[derive(Debug, Args)]
pub struct MemoryArgs {
    #[command(subcommand)]
    pub action: MemoryAction,
}

/// Subcommands of `memory`.
#[derive(Debug, Subcommand)]
pub enum MemoryAction {
    /// Record a decision, blocker, summary or note
    Add {
        /// Project slug
        slug: String,
        /// decision, blocker, summary or note
        #[arg(long)]
        kind: String,
        /// One-line title (default: the first line of the text)
        #[arg(long)]
        title: Option<String>,
        /// Tag (repeatable)
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// Older entries this one replaces: they leave the preamble and recall, and stay
        /// in history (repeatable, or ids separated by commas)
        #[arg(long, value_name = "ID", value_delimiter = ',')]
        supersedes: Vec<i64>,
        /// The text ("-" reads standard input)
        text: String,
    },
    /// Mark older entries replaced by a newer one of the same kind (kept in history and
    /// search, marked; `memory restore` undoes it)
    Supersede {
        /// Project slug
        slug: String,
        /// The newer entry
        id: i64,
        /// The older entries it replaces
        #[arg(required = true, value_name = "OLD_ID")]
        old: Vec<i64>,
    },
    /// Undo `supersede`: the entry is back in the preamble and recall
    Restore {
        /// Project slug
        slug: String,
        /// The superseded entry
        id: i64,
    },
    /// Forget an entry: it leaves the preamble, recall, lists and search (a folded
    /// session also leaves its week's digest at the next fold); the event stays in history
    Forget {
        /// Project slug
        slug: String,
        /// The entry
        id: i64,
    },
    /// Fold captured sessions older than `fold_after_days` (14) into one digest per week
    /// (the server does this hourly; the originals are kept, hidden from the preamble
    /// and recall, and `memory restore ID` brings one back)
    Fold {
        /// Only this project (default: every project not archived)
        #[arg(long)]
        project: Option<String>,
    },
    /// List a project's memory, newest first
    List {
        /// Project slug
        slug: String,
        /// Only this kind
        #[arg(long)]
        kind: Option<String>,
        /// Only open or resolved
        #[arg(long)]
        status: Option<String>,
        /// How many (1 to 200)
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Only entries older than this id (the next page: `next_before` of the last)
        #[arg(long, value_name = "ID")]
        before: Option<i64>,
    },
    /// Search by shared words and by meaning
    Search {
        /// Words or a question
        query: String,
        /// Only this project (default: all)
        #[arg(long, value_name = "SLUG")]
        project: Option<String>,
        /// How many (1 to 200)
        #[arg(long, default_value_t = 10)]
        limit: u32,
        /// How to rank: both fused, shared words only, or meaning only
        #[arg(long, default_value = "hybrid", value_parser = ["hybrid", "keyword", "semantic"])]
        mode: String,
    },
    /// Give every entry its vector for search by meaning now (the hub does it in the
    /// background); safe to stop and run again
    Index,
}

/// `context`.
#[derive(Debug, Args)]
pub struct ContextArgs {
    /// Project slug (default: resolved from --cwd or the current directory)
    #[arg(conflicts_with = "cwd")]
    pub slug: Option<String>,
    /// Resolve the project from this directory
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// Token budget (200 to 200000)
    #[arg(long, default_value_t = 4000)]
    pub budget: usize,
}

/// `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// `on` or `off`
    #[arg(value_parser = ["on", "off"])]
    pub state: String,
    /// Only this project (default: every project)
    #[arg(long, value_name = "SLUG")]
    pub project: Option<String>,
}

/// `sessions`.
#[derive(Debug, Args)]
pub struct SessionsArgs {
    /// Project slug (default: the project of the current directory)
    pub slug: Option<String>,
    /// Most sessions shown
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub limit: u32,
    /// The sessions working in the project now, with what each holds
    #[arg(long)]
    pub live: bool,
    /// What a write into a file another live session holds meets in this project
    #[arg(long, value_parser = ["ask", "deny", "warn", "off"])]
    pub claims: Option<String>,
}

/// `export`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("where").required(true).args(["to", "agents_md", "claude_md"])))]
pub struct ExportArgs {
    /// Project slug
    pub slug: String,
    /// Folder to write (created; must be empty if it exists)
    #[arg(long, value_name = "DIR")]
    pub to: Option<String>,
    /// Write the decisions and open blockers into Mooring's marked block of this
    /// AGENTS.md, at the root of one of the project's checkouts (the rest is kept)
    #[arg(long, value_name = "FILE")]
    pub agents_md: Option<std::path::PathBuf>,
    /// The same for this CLAUDE.md
    #[arg(long, value_name = "FILE")]
    pub claude_md: Option<std::path::PathBuf>,
}

/// `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What to bring in: `claude-memory`, `codex-memory`, `gemini-memory` or
    /// `instructions` (the clients' own memory of the project's checkouts), or a folder
    /// written by `mooring export` (`./NAME` for a folder named like a source)
    #[arg(value_name = "SOURCE|DIR")]
    pub dir: String,
    /// The project to bring a client's memory into (default: the one this directory
    /// belongs to)
    #[arg(long)]
    pub project: Option<String>,
    /// Keep watching the client's files and bring in what changes, until interrupted
    #[arg(long)]
    pub watch: bool,
}

/// `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one; default: the `port` setting, 7423)
    #[arg(long)]
    pub port: Option<u16>,
    /// Loopback address to listen on (127.0.0.1 or ::1)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Hours an idle MCP session is kept
    #[arg(long, default_value_t = 8, value_name = "HOURS")]
    pub session_idle_hours: u64,
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
    /// Hand a team project you own to another person of the team
    #[arg(long, value_name = "PERSON")]
    pub handoff: Option<String>,
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

/// `choice`.
#[derive(Debug, Args)]
pub struct ChoiceArgs {
    #[command(subcommand)]
    pub action: ChoiceAction,
}

/// Subcommands of `choice`.
#[derive(Debug, Subcommand)]
pub enum ChoiceAction {
    /// Answer a question in this terminal (arrows, space, enter; Esc cancels)
    Answer {
        /// Interaction id (the agent's session_id)
        id: String,
        /// The interaction's page key (optional: the question is read from the data
        /// directory; older agents' commands still carry it)
        #[arg(long)]
        token: Option<String>,
    },
    /// List the questions still waiting
    List,
    /// Show or change interaction settings (saved in choice-settings.json)
    Settings {
        /// auto, native, web, terminal or elicitation
        #[arg(long)]
        transport: Option<String>,
        /// Replace every timeout with this many seconds (0 removes the override)
        #[arg(long)]
        timeout_override: Option<u32>,
        /// cancel or use_defaults
        #[arg(long)]
        timeout_action: Option<String>,
        /// Seconds a call waits before answering `pending`
        #[arg(long)]
        wait_limit_seconds: Option<u32>,
        /// Show option descriptions (true/false)
        #[arg(long)]
        show_descriptions: Option<bool>,
        /// Show text box placeholders (true/false)
        #[arg(long)]
        show_placeholder: Option<bool>,
        /// Offer note fields (true/false)
        #[arg(long)]
        capture_annotations: Option<bool>,
        /// Submit single-choice questions on the first click (true/false)
        #[arg(long)]
        single_submit: Option<bool>,
    },
}
