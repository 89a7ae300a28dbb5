//! What a client's text means, from the client's own markup: a slash command as the
//! person typed it, blocks the client wraps in its own tags (command output, caveats,
//! notifications, instruction files), interruption markers, and the prose of a
//! compaction summary.

/// Claude Code's session controls: run bare they ask nothing of the agent.
const CONTROLS: &[&str] = &[
    "exit",
    "quit",
    "clear",
    "compact",
    "mcp",
    "config",
    "cost",
    "help",
    "model",
    "resume",
    "login",
    "logout",
    "status",
    "doctor",
    "memory",
    "permissions",
    "hooks",
    "agents",
    "vim",
    "theme",
    "ide",
    "terminal-setup",
    "context",
    "usage",
    "export",
    "rewind",
    "statusline",
    "todos",
    "privacy-settings",
    "upgrade",
    "add-dir",
    "output-style",
    "plugin",
    "plugins",
    "release-notes",
    "bashes",
    "tasks",
    "fast",
];

/// What a user line of Claude Code's says the person did.
#[derive(Debug, PartialEq, Eq)]
pub enum Said {
    /// A request, as the person typed it (a slash command with its arguments).
    Request(String),
    /// Nothing the person asked: the client's markup, a control command, an interruption.
    Nothing,
}

/// The person's text in a Claude Code user line.
pub fn claude_said(text: &str) -> Said {
    let text = text.trim();
    if text.is_empty() || text.starts_with("[Request interrupted by user") || text.starts_with("Caveat:") {
        return Said::Nothing;
    }
    if let Some(name) = tag_text(text, "command-name") {
        let name = name.trim();
        let args = tag_text(text, "command-args").unwrap_or("").trim();
        let bare = name.trim_start_matches('/');
        if args.is_empty() && CONTROLS.contains(&bare) {
            return Said::Nothing;
        }
        let shown = if name.starts_with('/') { name.to_owned() } else { format!("/{name}") };
        return Said::Request(if args.is_empty() { shown } else { format!("{shown} {args}") });
    }
    if let Some(command) = tag_text(text, "bash-input") {
        return Said::Request(format!("! {}", command.trim()));
    }
    if wrapped(text) { Said::Nothing } else { Said::Request(text.to_owned()) }
}

/// Whether `text` opens with a block the client wrapped in its own tag
/// (`<local-command-stdout>…</local-command-stdout>`, `<task-notification>`,
/// `<environment_context>`, `<user_instructions>`, …) or is an instruction file the client
/// sends as a message (Codex's `# AGENTS.md instructions for …`).
pub fn wrapped(text: &str) -> bool {
    let text = text.trim_start();
    if text.starts_with("# AGENTS.md instructions for ") {
        return true;
    }
    let Some(rest) = text.strip_prefix('<') else { return false };
    let name: String =
        rest.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':')).collect();
    !name.is_empty()
        && rest[name.len()..].starts_with(['>', ' ', '\n'])
        && text.contains(&format!("</{name}>"))
}

/// The text inside the first `<tag>…</tag>` of `text`.
fn tag_text<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{tag}>"))?;
    Some(&text[start..start + end])
}

/// The prose of a compaction summary: what the person asked, what was done, what is
/// left, without the client's preamble, the model's working notes, code blocks or quoted
/// file contents.
pub fn summary_prose(summary: &str) -> String {
    let mut text = summary.trim();
    // Claude Code opens with a fixed sentence and, in newer versions, the model's analysis
    // before the summary proper.
    if let Some(at) = text.find("\nSummary:") {
        text = &text[at + "\nSummary:".len()..];
    } else if text.starts_with("This session is being continued") {
        text = text.split_once("\n\n").map_or("", |(_, rest)| rest);
    }
    let sections = numbered_sections(text);
    let wanted = |heading: &str| {
        let h = heading.to_ascii_lowercase();
        ["request", "intent", "current work", "pending", "next step", "problem solving"]
            .iter()
            .any(|w| h.contains(w))
    };
    let kept: Vec<&str> = if sections.iter().any(|(h, _)| wanted(h)) {
        sections.iter().filter(|(h, _)| wanted(h)).map(|(_, body)| *body).collect()
    } else {
        vec![text]
    };
    let mut out = Vec::new();
    for body in kept {
        let mut in_code = false;
        for line in body.lines() {
            let t = line.trim();
            if t.starts_with("```") {
                in_code = !in_code;
                continue;
            }
            // Quoted lines are the file's or the person's words, not the summary's.
            if in_code || t.is_empty() || t.starts_with('>') || t.starts_with('|') {
                continue;
            }
            out.push(t.to_owned());
        }
    }
    out.join(" ")
}

/// `text`'s sections headed `N. Heading:` at the start of a line, with their bodies
/// (heading line included).
fn numbered_sections(text: &str) -> Vec<(&str, &str)> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && digits < 3 && t[digits..].starts_with(". ") && t.trim_end().ends_with(':') {
            starts.push(at);
        }
        at += line.len();
    }
    let mut out = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let body = &text[s..end];
        let heading = body.lines().next().unwrap_or("");
        out.push((heading, body));
    }
    out
}

/// A command as the record shows it: its first line, and `…` when more followed (a
/// heredoc commit message would otherwise run over many lines).
pub fn one_line(command: &str) -> String {
    let command = command.trim();
    match command.split_once('\n') {
        Some((first, _)) => format!("{} …", first.trim_end()),
        None => command.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Said, claude_said, one_line, summary_prose, wrapped};

    fn asked(s: &str) -> Option<String> {
        match claude_said(s) {
            Said::Request(r) => Some(r),
            Said::Nothing => None,
        }
    }

    #[test]
    fn slash_commands_are_kept_as_typed_and_the_clients_own_markup_is_not_a_request() {
        let review = "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>";
        assert_eq!(asked(review).as_deref(), Some("/review the auth module"));
        let init =
            "<command-message>init is analyzing…</command-message>\n<command-name>/init</command-name>";
        assert_eq!(asked(init).as_deref(), Some("/init"));
        let exit = "<command-name>/exit</command-name>\n  <command-message>exit</command-message>\n  <command-args></command-args>";
        assert_eq!(asked(exit), None);
        let compact_with_args =
            "<command-name>/compact</command-name><command-args>and continue</command-args>";
        assert_eq!(asked(compact_with_args).as_deref(), Some("/compact and continue"));
        for not_asked in [
            "[Request interrupted by user]",
            "[Request interrupted by user for tool use]",
            "<local-command-stdout>Bye!</local-command-stdout>",
            "<local-command-caveat>Caveat: …</local-command-caveat>",
            "<task-notification>\n<task-id>b0</task-id>\n</task-notification>\nRead the output file",
            "Caveat: The messages below were generated by the user while running local commands.",
            "  ",
        ] {
            assert_eq!(asked(not_asked), None, "{not_asked}");
        }
        assert_eq!(asked("<div> renders twice, why?").as_deref(), Some("<div> renders twice, why?"));
        assert_eq!(asked("<bash-input>ls -la</bash-input>").as_deref(), Some("! ls -la"));
        assert!(wrapped("# AGENTS.md instructions for /w/app\n\n<INSTRUCTIONS>x</INSTRUCTIONS>"));
        assert!(wrapped("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"));
    }

    #[test]
    fn a_compaction_summary_keeps_its_prose_and_drops_code_and_working_notes() {
        let summary = "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nAnalysis:\nLet me trace through the conversation chronologically: SECRET-NOTES\n\nSummary:\n1. Primary Request and Intent:\n   The person asked to add retries.\n\n2. Key Technical Concepts:\n   - Backoff\n\n3. Files and Code Sections:\n   - `retry.py`\n     ```python\n     def retry(n): return n\n     ```\n\n7. Pending Tasks:\n   - Document the policy\n\n8. Current Work:\n   Writing tests.\n   ```\n   assert retry(3)\n   ```\n";
        let prose = summary_prose(summary);
        assert!(prose.contains("The person asked to add retries."), "{prose}");
        assert!(prose.contains("Document the policy") && prose.contains("Writing tests."), "{prose}");
        for gone in ["SECRET-NOTES", "def retry", "assert retry", "Backoff", "continued from"] {
            assert!(!prose.contains(gone), "{gone} in {prose}");
        }
        // A summary without the numbered shape is kept whole, code aside.
        assert_eq!(
            summary_prose("Added retries.\n```\nx = 1\n```\nTests pass."),
            "Added retries. Tests pass."
        );
    }

    #[test]
    fn a_multi_line_command_shows_its_first_line() {
        assert_eq!(
            one_line("git commit -m \"$(cat <<'EOF'\nFix it\nEOF\n)\""),
            "git commit -m \"$(cat <<'EOF' …"
        );
        assert_eq!(one_line("  ls  "), "ls");
    }
}
