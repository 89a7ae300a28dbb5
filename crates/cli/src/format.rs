//! Text views for people, kept within 80 columns.

use mooring_core::memory::Entry;
use mooring_core::projects::resolve::{Outcome, Resolution};
use mooring_core::search::Hit;
use mooring_core::{Event, PathState, Project, ProjectStats};

const WIDTH: usize = 80;
const INDENT: &str = "    ";

/// The project list.
pub fn project_list(projects: &[Project]) -> String {
    if projects.is_empty() {
        return "No projects yet. Create one with: mooring projects new \"Name\" --code-path DIR\n"
            .to_owned();
    }
    let mut out = String::new();
    for p in projects {
        let right = format!("{:<8}  used {}", p.status.as_str(), p.last_used);
        let left = format!("{}  {}", p.slug, p.name);
        out.push_str(&columns(&left, &right));
        out.push_str(&format!("{INDENT}{}\n", stats_line(&p.stats)));
        for cp in &p.code_paths {
            out.push_str(&format!("{INDENT}{}\n", fit(&path_line(&cp.path, cp.state), WIDTH - INDENT.len())));
        }
    }
    out
}

/// One project in full, with its latest events.
pub fn project_detail(p: &Project, events: &[Event]) -> String {
    let mut out = format!("{}\n", p.slug);
    let mut field = |label: &str, value: &str| {
        out.push_str(&format!("  {label:<12} {}\n", fit(value, WIDTH - 15)));
    };
    field("name", &p.name);
    field("status", p.status.as_str());
    if !p.description.is_empty() {
        field("description", p.description.lines().next().unwrap_or_default());
    }
    field("memory", &stats_line(&p.stats));
    field("last used", &p.last_used);
    field("created", &p.created_at.get(..16).unwrap_or(&p.created_at).replace('T', " "));
    if let Some(url) = &p.repo_url {
        field("repo", url);
    }
    if let Some(notes) = &p.notes_path {
        field("notes", notes);
    }
    if p.code_paths.is_empty() {
        field("code paths", "none (add one with --add-code-path DIR)");
    }
    for (i, cp) in p.code_paths.iter().enumerate() {
        field(if i == 0 { "code paths" } else { "" }, &path_line(&cp.path, cp.state));
    }
    if !events.is_empty() {
        out.push_str("  recent events\n");
        for e in events.iter().rev().take(5) {
            let at = e.at.get(..16).unwrap_or(&e.at).replace('T', " ");
            out.push_str(&format!("    {at}  {}\n", fit(&event_text(e), WIDTH - 22)));
        }
    }
    out
}

/// A resolution with every level.
pub fn resolution(r: &Resolution) -> String {
    let mut out = match (&r.project, r.decided_by) {
        (Some(p), Some(level)) => format!("{p} (decided by the {})\n", level.label()),
        _ => "No project: a session here would be asked to choose one.\n".to_owned(),
    };
    for l in &r.levels {
        let mark = match (l.decided, l.outcome) {
            (true, _) => "=>",
            (false, Outcome::Matched) => " +",
            (false, Outcome::Rejected | Outcome::Ambiguous) => " !",
            _ => "  ",
        };
        let head = format!("{mark} {} {:<27}", l.rank, l.label);
        let indent = " ".repeat(head.chars().count());
        let opts = textwrap::Options::new(WIDTH)
            .initial_indent(&head)
            .subsequent_indent(&indent)
            .word_separator(textwrap::WordSeparator::AsciiSpace);
        for line in textwrap::wrap(&l.detail, opts) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Memory entries, newest first.
pub fn entries(entries: &[Entry]) -> String {
    if entries.is_empty() {
        return "Nothing recorded yet.\n".to_owned();
    }
    let mut out = String::new();
    for e in entries {
        let status = e.status.as_deref().map(|s| format!(" [{s}]")).unwrap_or_default();
        let head = format!("#{:<5} {:<9}{status} ", e.id, e.kind.as_str());
        out.push_str(&format!("{head}{}\n", fit(&e.title, WIDTH - head.chars().count() - 12)));
        out.push_str(&format!("{INDENT}{}{}\n", e.created, superseded(e)));
    }
    out
}

/// " · superseded by #N" for an entry something replaced (it stays in lists and search,
/// marked, out of the preamble and recall).
fn superseded(e: &Entry) -> String {
    e.superseded_by.map(|by| format!(" · superseded by #{by}")).unwrap_or_default()
}

/// Search hits, best first.
pub fn hits(hits: &[Hit]) -> String {
    if hits.is_empty() {
        return "No matches.\n".to_owned();
    }
    let mut out = String::new();
    for h in hits {
        let head = format!("{}  #{} {}  ", h.entry.project, h.entry.id, h.entry.kind.as_str());
        out.push_str(&format!("{head}{}\n", fit(&h.entry.title, WIDTH.saturating_sub(head.chars().count()))));
        if h.entry.superseded_by.is_some() {
            out.push_str(&format!("{INDENT}{}\n", superseded(&h.entry).trim_start_matches(" · ")));
        }
        out.push_str(&format!("{INDENT}{}\n", fit(&h.snippet.replace('\n', " "), WIDTH - INDENT.len())));
    }
    out
}

fn stats_line(s: &ProjectStats) -> String {
    format!(
        "{} · {} · {} · {}",
        plural(s.memory_total, "memory", "memories"),
        plural(s.decisions, "decision", "decisions"),
        plural(s.open_blockers, "open blocker", "open blockers"),
        plural(s.context_locks, "context lock", "context locks"),
    )
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn path_line(path: &str, state: PathState) -> String {
    match state {
        PathState::Present => path.to_owned(),
        PathState::Missing => format!("{path} (missing)"),
    }
}

fn event_text(e: &Event) -> String {
    let path = e.detail.get("path").and_then(|v| v.as_str());
    let fields = e
        .detail
        .get("fields")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(", "));
    match (e.kind.as_str(), path, fields) {
        (kind, Some(p), _) => format!("{} {p}", kind.replace('_', " ")),
        ("edited", _, Some(f)) => format!("edited {f}"),
        (kind, _, _) => kind.replace('_', " "),
    }
}

/// `left ... right` on one line of [`WIDTH`], shortening `left` if needed.
fn columns(left: &str, right: &str) -> String {
    let room = WIDTH.saturating_sub(right.chars().count() + 2);
    let left = fit(left, room);
    let pad = WIDTH.saturating_sub(left.chars().count() + right.chars().count());
    format!("{left}{}{right}\n", " ".repeat(pad.max(2)))
}

/// Shorten to `max` characters with an ellipsis.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_to_fit() {
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
        let line = columns(&"x".repeat(100), "active  used never");
        assert_eq!(line.trim_end().chars().count(), WIDTH);
    }
}

/// Text from the database as it may reach a terminal: control characters (escape
/// sequences that could rewrite the screen or the title) and bidi overrides (which
/// reorder what is shown) become visible `\u{…}` escapes; newlines and tabs stay.
pub fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| if bad(c) { format!("\\u{{{:x}}}", u32::from(c)) } else { c.to_string() })
            .collect(),
    )
}

#[cfg(test)]
mod safe_tests {
    use super::safe;

    #[test]
    fn escapes_and_bidi_overrides_are_shown_not_obeyed() {
        assert_eq!(safe("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(safe("\u{1b}]0;pwned\u{7}x"), "\\u{1b}]0;pwned\\u{7}x");
        assert_eq!(safe("a\u{202E}b"), "a\\u{202e}b");
        assert_eq!(safe("\r\u{9b}"), "\\u{d}\\u{9b}");
    }
}
