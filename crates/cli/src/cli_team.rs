//! The `team` command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `mooring team …`.
#[derive(Debug, Args)]
pub struct TeamArgs {
    /// What to do
    #[command(subcommand)]
    pub action: TeamAction,
}

/// Team subcommands.
#[derive(Debug, Subcommand)]
pub enum TeamAction {
    /// Join a team database (postgres://USER@HOST:PORT/DB?sslmode=...); the password comes
    /// from --password-file or a prompt, never the URL or the command line
    Join {
        /// The database URL, without a password
        url: String,
        /// Your name in the team (how your entries and changes are signed)
        #[arg(long)]
        name: String,
        /// Read the password from this file ("-" for standard input)
        #[arg(long, value_name = "FILE")]
        password_file: Option<PathBuf>,
    },
    /// Show the team database, who you are in it, whether it answers and how fast
    Status,
    /// Leave the team: its projects leave this machine (their memory stays in the team)
    Leave {
        /// Keep a copy of every team project you can read as your own project here,
        /// memory, context locks and history included (once; the team's copy goes on)
        #[arg(long)]
        keep: bool,
    },
    /// Create a team project that you own, with this machine's checkout if given
    New {
        /// Display name
        name: String,
        /// Slug (derived from the name when omitted)
        #[arg(long)]
        slug: Option<String>,
        /// Description
        #[arg(long)]
        description: Option<String>,
        /// Repository URL (teammates' clones resolve by it)
        #[arg(long)]
        repo_url: Option<String>,
        /// This machine's checkout of it (repeatable)
        #[arg(long = "code-path", value_name = "DIR")]
        code_paths: Vec<String>,
    },
    /// Give a person a role in a team project you own, or take them out of it
    Member {
        /// Project slug
        slug: String,
        /// The person's name in the team
        person: String,
        /// member (reads and writes) or viewer (reads)
        #[arg(long, default_value = "member")]
        role: String,
        /// Take the person out of the project (it disappears from their machine)
        #[arg(long, conflicts_with = "role")]
        remove: bool,
    },
    /// Move one of your projects into the team: the project, its memory and its history,
    /// in one transaction (your code paths here stay bound to it)
    Share {
        /// Project slug
        slug: String,
    },
    /// Hand a team project you own to another person (you stay a member)
    Handoff {
        /// Project slug
        slug: String,
        /// The person's name in the team
        person: String,
    },
}
