//! `mooring --help` with its commands grouped by what a person does, each group built
//! from the commands' own one-line descriptions (so a new command cannot be left out:
//! the test below fails until it has a group).

use clap::{Command, CommandFactory as _};

use crate::cli::Cli;

/// The groups, in the order a newcomer meets them.
const GROUPS: &[(&str, &[&str])] = &[
    ("Set up", &["setup", "doctor", "config", "token"]),
    ("Projects", &["projects", "resolve", "context"]),
    ("Memory", &["memory", "sessions", "capture", "export", "import"]),
    ("Questions", &["choice", "remote"]),
    ("Team", &["team"]),
    ("Run", &["serve", "stdio", "hook"]),
];

/// The command line with grouped help.
pub fn command() -> Command {
    let cmd = Cli::command();
    let width = GROUPS.iter().flat_map(|g| g.1.iter()).map(|n| n.len()).max().unwrap_or(0) + 2;
    let mut listing = String::new();
    for (group, names) in GROUPS {
        listing.push_str(&format!("{group}:\n"));
        for name in *names {
            let about = cmd
                .find_subcommand(name)
                .and_then(|c| c.get_about())
                .map(|a| a.to_string())
                .unwrap_or_default();
            listing.push_str(&format!("  {name:<width$}{}\n", wrap(&about, width + 2)));
        }
        listing.push('\n');
    }
    cmd.help_template(format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{listing}Options:\n{{options}}{{after-help}}"
    ))
}

/// `text` wrapped to 80 columns, lines after the first indented by `indent`.
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut column = indent;
    for word in text.split_whitespace() {
        if column > indent && column + 1 + word.len() > 80 {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        } else if column > indent {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.chars().count();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{GROUPS, command};

    #[test]
    fn every_command_is_in_exactly_one_group_of_the_help() {
        let cmd = command();
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let n = GROUPS.iter().filter(|g| g.1.contains(&sub.get_name())).count();
            assert_eq!(n, 1, "`{}` is in {n} groups of GROUPS", sub.get_name());
        }
        let listed = GROUPS.iter().flat_map(|g| g.1.iter()).count();
        assert_eq!(listed, cmd.get_subcommands().filter(|s| s.get_name() != "help").count());
        let help = command().render_help().to_string();
        assert!(help.contains("Set up:\n  setup"), "{help}");
        assert!(help.contains("Run:\n"), "{help}");
    }
}
