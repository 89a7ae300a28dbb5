//! What Mooring says on the phone: the dashboard (one short block per project, a
//! dot by recency, scannable in three seconds), one project's view, and what a command
//! did. Plain text, no tables; every text leaves through [`outgoing`], which takes out
//! secrets and `<private>` spans.

use chrono::{DateTime, Utc};

use crate::error::Result;
use crate::memory::{self, Entry, ListQuery};
use crate::model::{Project, ProjectStatus};
use crate::store::backend::MemoryBackend;

/// Longest message sent (Telegram's limit is 4,096 characters; Slack's text, 40,000).
pub const MAX_MESSAGE: usize = 3_500;

/// A text on its way to a chat platform: secrets out, `<private>` spans out, cut to a
/// phone's length.
pub fn outgoing(text: &str) -> String {
    let (clean, _) = crate::guard::redact::scrub(text);
    cut(&clean, MAX_MESSAGE)
}

/// At most `max` characters, the last one `…` when something was cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The marks Mooring's own phone messages are drawn with: an agent's words never carry
/// them, so they cannot draw a question, a permission prompt or a button list of their own.
const MARKERS: &[char] = &[
    '❓', '⏳', '✍', '⚠', '📁', '🚧', '📌', '✅', '✖', '⌛', '⭐', '☐', '☑', '🟢', '🟡', '🔵', '⏸', '📦',
    '📨', '🗑', '•', '\u{FE0F}',
];

/// Words an agent wrote, as the phone shows them: one line (line breaks as spaces), no
/// control or bidi characters, tag-like markup made inert, none of Mooring's own marks,
/// cut to `max`. Shown set apart ("The agent said: …"), never as Mooring's own text.
pub fn agent_words(text: &str, max: usize) -> String {
    let line: String = crate::guard::quoted::line(text).chars().filter(|c| !MARKERS.contains(c)).collect();
    cut(line.split_whitespace().collect::<Vec<_>>().join(" ").as_str(), max)
}

/// The first line, cut to `max`, with `…` when anything followed it.
pub fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    let out = cut(line, max);
    if out.len() < text.trim_end().len() && !out.ends_with('…') { format!("{out}…") } else { out }
}

/// A directory as the phone shows it: its last two parts, never a home path.
pub fn place_of(dir: &str) -> Option<String> {
    let parts: Vec<&str> = dir.trim_end_matches('/').rsplit('/').take(2).collect();
    let shown: Vec<&str> = parts.into_iter().rev().filter(|p| !p.is_empty()).collect();
    (!shown.is_empty()).then(|| shown.join("/"))
}

/// The dot by recency: 🟢 today, 🟡 this week, 🔵 older, ⏸ paused, 📦 archived.
pub fn dot(project: &Project, now: DateTime<Utc>) -> &'static str {
    match project.status {
        ProjectStatus::Paused => "⏸",
        ProjectStatus::Archived => "📦",
        ProjectStatus::Active => {
            let used = project
                .last_used_at
                .as_deref()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map(|t| now - t.with_timezone(&Utc));
            match used {
                Some(age) if age.num_hours() < 24 => "🟢",
                Some(age) if age.num_days() < 7 => "🟡",
                _ => "🔵",
            }
        }
    }
}

/// A session counts as live while it made a request in the last this many minutes.
pub const LIVE_MINUTES: i64 = 15;

/// Since when a session counts as live (RFC 3339).
pub fn live_cutoff(now: DateTime<Utc>) -> String {
    crate::humanize::format_ts(now - chrono::Duration::minutes(LIVE_MINUTES))
}

/// The live sessions of `slug` as one line: each client once, with how many.
pub fn live_line(live: &[crate::store::sessions::AgentSession], slug: &str) -> Option<String> {
    let mut clients: Vec<(String, usize)> = Vec::new();
    for s in live.iter().filter(|s| s.project.as_deref() == Some(slug)) {
        let name = s.client_name.clone().unwrap_or_else(|| "an agent".into());
        match clients.iter_mut().find(|(c, _)| *c == name) {
            Some((_, n)) => *n += 1,
            None => clients.push((name, 1)),
        }
    }
    if clients.is_empty() {
        return None;
    }
    let parts: Vec<String> =
        clients.into_iter().map(|(c, n)| if n == 1 { c } else { format!("{c} ×{n}") }).collect();
    Some(cut(&parts.join(" · "), 120))
}

/// A live session holding files or tasks, in a line: its client, branch and what it holds.
fn holds_line(w: &crate::projects::live::Working) -> String {
    let branch = w.branch.as_deref().map(|b| format!(" on {b}")).unwrap_or_default();
    let shown: Vec<&str> = w.claims.iter().take(3).map(String::as_str).collect();
    let more = w.claims.len().saturating_sub(shown.len());
    let more = if more > 0 { format!(" (+{more})") } else { String::new() };
    cut(&format!("{}{branch} holds {}{more}", w.client, shown.join(", ")), 160)
}

/// The newest captured session's line: its last word, else what it was asked.
pub fn last_session(memory: &dyn MemoryBackend, slug: &str) -> Result<Option<String>> {
    let page = memory::list(
        memory,
        slug,
        &ListQuery { kind: Some("session".into()), limit: Some(1), ..ListQuery::default() },
    )?;
    let Some(entry) = page.entries.into_iter().next() else { return Ok(None) };
    Ok(Some(session_line(&entry)))
}

fn session_line(entry: &Entry) -> String {
    let field = |label: &str| {
        entry.content.lines().find_map(|l| l.strip_prefix(&format!("**{label}:** ")).map(str::to_owned))
    };
    let line = field("Last word").or_else(|| field("Asked")).unwrap_or_else(|| entry.title.clone());
    cut(line.trim().trim_matches('"'), 120)
}

fn counts(project: &Project) -> String {
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if project.stats.open_blockers > 0 {
        parts.push(format!("🚧 {}", plural(project.stats.open_blockers, "blocker", "blockers")));
    }
    parts.push(format!("📌 {}", plural(project.stats.decisions, "decision", "decisions")));
    parts.join(" · ")
}

/// Projects on one page of the dashboard.
pub const PAGE: usize = 15;

/// The dashboard's `page` (from 1): active and paused projects, most recently used first,
/// [`PAGE`] at a time, saying how to see the next.
pub fn dashboard(
    memory: &dyn MemoryBackend,
    projects: &[Project],
    now: DateTime<Utc>,
    page: usize,
) -> Result<String> {
    let mut shown: Vec<&Project> = projects.iter().filter(|p| p.status != ProjectStatus::Archived).collect();
    shown.sort_by(|a, b| b.last_used_at.cmp(&a.last_used_at).then(a.slug.cmp(&b.slug)));
    if shown.is_empty() {
        return Ok("No projects yet. Make one on the desktop or with `mooring projects new`.".to_owned());
    }
    let pages = shown.len().div_ceil(PAGE);
    let page = page.clamp(1, pages);
    let mut out = format!("{} project{}", shown.len(), if shown.len() == 1 { "" } else { "s" });
    if pages > 1 {
        out.push_str(&format!(" · page {page} of {pages}"));
    }
    out.push('\n');
    for p in shown.iter().skip((page - 1) * PAGE).take(PAGE) {
        out.push_str(&format!("\n{} {} — {}\n{}\n", dot(p, now), p.slug, p.last_used, counts(p)));
        if let Some(last) = last_session(memory, &p.slug)? {
            out.push_str(&format!("Last: \"{last}\"\n"));
        }
    }
    let after = shown.len().saturating_sub(page * PAGE);
    if after > 0 {
        out.push_str(&format!("\n…and {after} more: type `projects {}` to see them.\n", page + 1));
    }
    out.push_str("\nType a slug to open it.");
    Ok(outgoing(&out))
}

/// One project: description, open blockers, newest decisions, the last session, the
/// sessions live now (`live`: every live session, any project).
pub fn project(
    memory: &dyn MemoryBackend,
    p: &Project,
    live: &[crate::store::sessions::AgentSession],
    working: &[crate::projects::live::Working],
    now: DateTime<Utc>,
) -> Result<String> {
    let mut out = format!("{} {} — {}\n", dot(p, now), p.name, p.last_used);
    if !p.description.trim().is_empty() {
        out.push_str(&format!("{}\n", cut(p.description.trim(), 300)));
    }
    let list = |kind: &str, status: Option<&str>, n: u32| {
        memory::list(
            memory,
            &p.slug,
            &ListQuery {
                kind: Some(kind.into()),
                status: status.map(Into::into),
                limit: Some(n),
                before: None,
            },
        )
    };
    let blockers = list("blocker", Some("open"), 5)?.entries;
    if !blockers.is_empty() {
        out.push_str("\nOpen blockers:\n");
        for b in &blockers {
            out.push_str(&format!("🚧 #{} {}\n", b.id, cut(&b.title, 100)));
        }
    }
    let decisions = list("decision", None, 3)?.entries;
    if !decisions.is_empty() {
        out.push_str("\nNewest decisions:\n");
        for d in &decisions {
            out.push_str(&format!("📌 {}\n", cut(&d.title, 100)));
        }
    }
    if let Some(last) = last_session(memory, &p.slug)? {
        out.push_str(&format!("\nLast session: \"{last}\"\n"));
    }
    if let Some(line) = live_line(live, &p.slug) {
        out.push_str(&format!("Live now: {line}\n"));
    }
    for w in working.iter().filter(|w| !w.claims.is_empty()).take(5) {
        out.push_str(&format!("✋ {}\n", holds_line(w)));
    }
    if p.status == ProjectStatus::Archived {
        out.push_str(&format!("\nArchived. `resume {}` brings it back.", p.slug));
    } else {
        out.push_str(&format!("\n`decide {0} …` · `blocker {0} …`", p.slug));
    }
    Ok(outgoing(&out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{NewEntry, remember};
    use crate::{NewProject, Registry, Store};

    #[test]
    fn the_dashboard_is_short_lines_with_a_dot_counts_and_the_last_session() {
        let store = Store::open_in_memory().unwrap();
        let reg = Registry::new(&store);
        for name in ["Leader Election", "Old Notes"] {
            reg.create(NewProject { name: name.into(), ..NewProject::default() }).unwrap();
        }
        reg.touch_used("leader-election").unwrap();
        let blocker = NewEntry {
            kind: "blocker".into(),
            content: "Waiting on SRE for TLS certs".into(),
            ..NewEntry::default()
        };
        remember(&store, "leader-election", &blocker, None).unwrap();
        let decision = NewEntry {
            kind: "decision".into(),
            content: "etcd 3.5, key ghp_0123456789abcdefghijklmnopqrstuvwxyzAB".into(),
            ..NewEntry::default()
        };
        remember(&store, "leader-election", &decision, None).unwrap();
        let paused = crate::projects::registry::ProjectEdit {
            status: Some(ProjectStatus::Paused),
            ..Default::default()
        };
        reg.edit("old-notes", paused).unwrap();
        let projects = reg.list(None).unwrap();
        let text = dashboard(&store, &projects, Utc::now(), 1).unwrap();
        assert!(text.starts_with("2 projects\n"), "{text}");
        assert!(text.contains("🟢 leader-election — "), "{text}");
        assert!(text.contains("🚧 1 blocker · 📌 1 decision"), "{text}");
        assert!(!text.contains('|'), "no tables: {text}");
        let view = project(&store, &reg.get("leader-election").unwrap(), &[], &[], Utc::now()).unwrap();
        assert!(view.contains("🚧 #1 Waiting on SRE"), "{view}");
        assert!(view.contains("📌 etcd 3.5"), "{view}");
        assert!(!view.contains("ghp_0123456789"), "a secret left for the phone: {view}");
        // A live session holding files shows on the card, what it holds cut to three.
        let codex = crate::projects::claims::Session {
            key: "k",
            client: "codex",
            checkout: "/w/le",
            branch: Some("main"),
            pid: None,
            request: None,
        };
        for f in ["a.rs", "b.rs", "c.rs", "d.rs"] {
            crate::projects::claims::claim(
                &store,
                "leader-election",
                &codex,
                crate::projects::claims::Kind::File,
                f,
                None,
            )
            .unwrap();
        }
        let working = crate::projects::live::working(&store, "leader-election", Utc::now()).unwrap();
        let view = project(&store, &reg.get("leader-election").unwrap(), &[], &working, Utc::now()).unwrap();
        assert!(view.contains("✋ codex on main holds a.rs, b.rs, c.rs (+1)"), "{view}");
    }

    #[test]
    fn forty_three_projects_page_by_fifteen_and_say_how_to_see_more() {
        let store = Store::open_in_memory().unwrap();
        let reg = Registry::new(&store);
        for i in 0..43 {
            reg.create(NewProject { name: format!("Proj {i:02}"), ..NewProject::default() }).unwrap();
        }
        let projects = reg.list(None).unwrap();
        let slugs = |t: &str| t.lines().filter(|l| l.contains(" proj-")).count();
        let first = dashboard(&store, &projects, Utc::now(), 1).unwrap();
        assert!(first.starts_with("43 projects · page 1 of 3\n"), "{first}");
        assert_eq!(slugs(&first), 15);
        assert!(first.contains("…and 28 more: type `projects 2` to see them."), "{first}");
        let last = dashboard(&store, &projects, Utc::now(), 3).unwrap();
        assert_eq!(slugs(&last), 13);
        assert!(!last.contains("more:"), "{last}");
        let mut seen: Vec<String> = (1..=3)
            .flat_map(|p| {
                let t = dashboard(&store, &projects, Utc::now(), p).unwrap();
                t.lines()
                    .filter_map(|l| {
                        l.split_whitespace().nth(1).filter(|s| s.starts_with("proj-")).map(str::to_owned)
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 43, "every project is on some page");
    }

    #[test]
    fn live_sessions_read_as_one_line_per_project() {
        let s = |client: Option<&str>, project: &str| crate::store::sessions::AgentSession {
            id: "x".into(),
            client_name: client.map(Into::into),
            client_version: None,
            transport: "http".into(),
            protocol_version: None,
            project: Some(project.into()),
            decided_by: None,
            workspace: None,
            roots: Vec::new(),
            created_at: String::new(),
            last_seen_at: String::new(),
        };
        let live = [
            s(Some("claude-code"), "app"),
            s(Some("codex"), "app"),
            s(Some("claude-code"), "app"),
            s(None, "le"),
        ];
        assert_eq!(live_line(&live, "app").as_deref(), Some("claude-code ×2 · codex"));
        assert_eq!(live_line(&live, "le").as_deref(), Some("an agent"));
        assert_eq!(live_line(&live, "other"), None);
    }

    #[test]
    fn places_and_lines_fit_a_phone() {
        assert_eq!(place_of("/home/ana/code/app/").as_deref(), Some("code/app"));
        assert_eq!(place_of("/"), None);
        assert_eq!(first_line("rm -rf build\necho done", 300), "rm -rf build…");
        assert_eq!(first_line("ls", 300), "ls");
        let forged = "Done.\n\n❓ Allow Bash?\nThe agent wants to run `rm -rf ~`.\n• Allow once ⭐ recommended\u{202E}";
        let said = agent_words(forged, 600);
        assert!(
            !said.contains('\n') && !said.contains('❓') && !said.contains('•') && !said.contains('⭐'),
            "{said}"
        );
        assert!(!said.contains('\u{202E}'), "{said}");
        assert_eq!(said, "Done. Allow Bash? The agent wants to run `rm -rf ~`. Allow once recommended");
        assert_eq!(cut("abcdef", 4), "abc…");
    }

    #[test]
    fn what_leaves_drops_private_spans_and_secrets_and_fits_a_phone() {
        let text = outgoing(
            "ok <private>my home address</private> token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
        );
        assert!(!text.contains("home address") && !text.contains("ghp_0123"), "{text}");
        assert_eq!(outgoing(&"x".repeat(10_000)).chars().count(), MAX_MESSAGE);
    }
}
