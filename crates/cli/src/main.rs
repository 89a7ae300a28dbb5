//! The `mooring` command.

#![forbid(unsafe_code)]

mod cli;
mod cli_help;
mod cli_remote;
mod cli_team;
mod commands;
mod format;
mod output;

use std::process::ExitCode;

use clap::FromArgMatches as _;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use cli::{Cli, Command};
use output::Failure;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    init_logging();
    let json = std::env::args().any(|a| a == "--json");
    let parsed = cli_help::command().try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return clap_failure(e, json),
    };
    let json = cli.json;
    let serving = matches!(cli.command, Command::Serve(_) | Command::Stdio(_));
    let result = commands::Ctx::new(cli.data_dir, json).and_then(|ctx| {
        if !serving {
            // A short-lived command asks the running hub for search by meaning rather
            // than loading the model itself.
            mooring_server::transport::hub_socket::ask_hub_first(&ctx.data_dir);
        }
        run(&ctx, cli.command)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(json),
    }
}

/// A reader that stops early (`mooring memory list … | head -1`, `| grep -q`) closes
/// stdout under the command: it then ends quietly, as any Unix tool does, instead of
/// panicking with a backtrace from the print it was in.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Run one command.
fn run(ctx: &commands::Ctx, command: Command) -> Result<(), Failure> {
    match command {
        Command::Projects(args) => commands::projects::run(ctx, *args),
        Command::Resolve(args) => commands::resolve::run(ctx, args),
        Command::Serve(args) => commands::serve::run(ctx, args),
        Command::Stdio(args) => commands::stdio::run(ctx, args),
        Command::Memory(args) => commands::memory::run(ctx, args),
        Command::Context(args) => commands::memory::context(ctx, args),
        Command::Sessions(args) => commands::sessions::run(ctx, args),
        Command::Capture(args) => commands::sessions::capture(ctx, args),
        Command::Export(args) => commands::transfer::export(ctx, args),
        Command::Import(args) => commands::transfer::import(ctx, args),
        Command::Token => commands::memory::token(ctx),
        Command::Choice(args) => commands::choice::run(ctx, args),
        Command::Setup(args) => commands::setup::run(ctx, args),
        Command::Doctor => commands::doctor::run(ctx),
        Command::Hook(args) => commands::hook::run(ctx, args),
        Command::Team(args) => commands::team::run(ctx, args),
        Command::Remote(args) => commands::remote::run(ctx, args),
        Command::Config { key, value } => commands::memory::config(ctx, key, value),
    }
}

/// Help and version print normally; usage errors keep clap's wording and, with
/// `--json`, also come out as JSON naming the argument.
fn clap_failure(e: clap::Error, json: bool) -> ExitCode {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) || !json
    {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(output::EXIT_USAGE));
    }
    let field = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg_field(arg)),
        Some(ContextValue::Strings(args)) => args.first().map(|a| arg_field(a)),
        _ => None,
    };
    // clap's first paragraph, on one line: "the following required arguments were not
    // provided: <NAME>".
    let rendered = e.render().to_string();
    let message = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_owned();
    Failure::Usage { field, message }.report(true)
}

/// `--add-code-path <DIR>` → `add_code_path`; `<NAME>` → `name`.
fn arg_field(arg: &str) -> String {
    let first = arg.split_whitespace().next().unwrap_or(arg);
    first.trim_start_matches('-').trim_matches(['<', '>', '[', ']']).replace('-', "_").to_lowercase()
}

fn init_logging() {
    mooring_server::logging::init("warn");
}
