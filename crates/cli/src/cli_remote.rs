//! The `remote` command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `mooring remote …`.
#[derive(Debug, Args)]
pub struct RemoteArgs {
    /// What to do
    #[command(subcommand)]
    pub action: RemoteAction,
}

/// Remote subcommands.
#[derive(Debug, Subcommand)]
pub enum RemoteAction {
    /// Add a bot (telegram or slack): its token from --token-file or a prompt, never the
    /// command line; prints the code to send it from your phone
    Add {
        /// telegram or slack
        platform: String,
        /// Read the token from this file ("-" for standard input)
        #[arg(long, value_name = "FILE")]
        token_file: Option<PathBuf>,
        /// Slack only: read the bot token (xoxb-…) from this file ("-" for standard
        /// input); --token-file then holds the app-level token (xapp-…)
        #[arg(long, value_name = "FILE")]
        bot_token_file: Option<PathBuf>,
        /// The platform's API address (a stand-in's, for trying it out); HTTPS, or HTTP
        /// to this machine only
        #[arg(long, value_name = "URL")]
        api: Option<String>,
    },
    /// A new pairing code for a bot (pairs a new phone; the old one stops being heard)
    Pair {
        /// telegram or slack
        platform: String,
    },
    /// Show each bot, who it answers, whether it is reachable, and away or at the desk
    Status,
    /// Send the paired phone a test message now (checks the token, the pairing and the
    /// network in one go)
    Test {
        /// telegram or slack
        platform: String,
    },
    /// Take a bot out (its token is forgotten)
    Remove {
        /// telegram or slack
        platform: String,
    },
    /// Keep a project off the phone: nothing of it is sent, no phone command reaches it
    Off {
        /// Project slug
        slug: String,
    },
    /// Let a project kept off the phone reach it again
    On {
        /// Project slug
        slug: String,
    },
    /// Away from the desk: questions go to the phone
    Away,
    /// Back at the desk: questions stay here
    Back,
}
