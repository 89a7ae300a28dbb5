//! The tray menu as data: what it lists, in which order, for which state. Pure, so it is
//! unit-tested without a display; `tray.rs` turns it into a Tauri menu.

use mooring_core::{Project, ProjectStatus};

use crate::server::Status;

/// Menu id: quit.
pub const QUIT: &str = "quit";
/// Menu id: clear the focus project.
pub const CLEAR_FOCUS: &str = "focus:clear";
/// Menu id: open the dashboard.
pub const DASHBOARD: &str = "dashboard";
/// Menu id: the new-project form (in the dashboard).
pub const NEW_PROJECT: &str = "project-new";
/// Menu id: copy the MCP URL.
pub const COPY_URL: &str = "copy:url";
/// Menu id: copy the stdio command.
pub const COPY_STDIO: &str = "copy:stdio";
/// Menu id: pause question windows.
pub const PAUSE_QUESTIONS: &str = "questions:pause";
/// Menu id: start at login.
pub const AUTOSTART: &str = "autostart";
/// Menu id: away from the desk (questions go to the paired phone).
pub const AWAY: &str = "remote:away";
/// Menu id prefix of a project item.
pub const PROJECT_PREFIX: &str = "project:";
/// Menu id prefix of "open this project's view in the dashboard".
pub const OPEN_PREFIX: &str = "open:";
/// Menu id prefix of a project where several sessions work (opens its view too).
pub const WORKING_PREFIX: &str = "working:";

/// One entry of the menu, independent of Tauri so it can be tested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Greyed-out text.
    Label(String),
    /// An active project; checked when it is the focus project.
    Project { id: String, label: String, focused: bool },
    /// A clickable action.
    Action { id: &'static str, label: String },
    /// Something waiting for the person; clicking opens its window.
    Waiting { id: String, label: String },
    /// A project to open in the dashboard (its own view).
    Open { id: String, label: String },
    /// A submenu (paused, archived projects).
    Submenu { label: String, items: Vec<Entry> },
    /// An on/off action.
    Toggle { id: &'static str, label: String, on: bool },
    /// A line.
    Separator,
}

/// Something waiting for the person: a session's project pick or a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Menu id (`wait:pick:ID`, `wait:choice:ID`).
    pub id: String,
    /// What the item says.
    pub label: String,
}

/// The on/off items' states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Toggles {
    /// Questions go to the browser instead of native windows.
    pub questions_paused: bool,
    /// Mooring starts at login.
    pub autostart: bool,
    /// Away from the desk; `None` while no phone is paired (no item then).
    pub away: Option<bool>,
    /// The phone's platform cannot be reached (a line saying so).
    pub phone_trouble: Option<String>,
}

/// Who is at work: connected sessions, and the projects where several work at once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AtWork {
    /// MCP sessions that made a request lately.
    pub sessions: u64,
    /// Projects with more than one live agent session.
    pub crowded: Vec<mooring_core::projects::live::Crowded>,
}

/// The menu for these projects, focus project, server status and waiting items.
pub fn menu_model(
    projects: &[Project],
    team: &[String],
    focus: Option<&str>,
    server: &Status,
    waiting: &[Waiting],
    at_work: &AtWork,
    toggles: Toggles,
) -> Vec<Entry> {
    let sessions = at_work.sessions;
    let active: Vec<&Project> = projects.iter().filter(|p| p.status == ProjectStatus::Active).collect();
    let count = match active.len() {
        0 => "No active projects".to_owned(),
        1 => "1 active project".to_owned(),
        n => format!("{n} active projects"),
    };
    let mut header = count;
    if sessions > 0 {
        header.push_str(&format!(" · {sessions} session{}", if sessions == 1 { "" } else { "s" }));
    }
    if !waiting.is_empty() {
        header.push_str(&format!(" · {} waiting", waiting.len()));
    }
    let mut entries = vec![Entry::Label(header)];
    // Several agents on one project: a line each, opening the view of who holds what.
    entries.extend(at_work.crowded.iter().map(crowded_entry));
    if !waiting.is_empty() {
        entries.push(Entry::Label(format!("Waiting for you ({})", waiting.len())));
        entries.extend(
            waiting.iter().map(|w| Entry::Waiting { id: w.id.clone(), label: format!("  {}", w.label) }),
        );
        entries.push(Entry::Separator);
    }
    // Most recently used first (the registry lists them that way).
    entries.extend(active.iter().map(|p| project_entry(p, team, focus)));
    let paused: Vec<Entry> = projects
        .iter()
        .filter(|p| p.status == ProjectStatus::Paused)
        .map(|p| project_entry(p, team, focus))
        .collect();
    if !paused.is_empty() {
        entries.push(Entry::Submenu { label: format!("Paused ({})", paused.len()), items: paused });
    }
    let archived: Vec<Entry> = projects
        .iter()
        .filter(|p| p.status == ProjectStatus::Archived)
        .map(|p| Entry::Label(format!("{} ({})", p.name, p.slug)))
        .collect();
    if !archived.is_empty() {
        entries.push(Entry::Submenu { label: format!("Archived ({})", archived.len()), items: archived });
    }
    entries.push(Entry::Separator);
    entries.push(Entry::Label(server.label()));
    if focus.is_some() {
        entries.push(Entry::Action { id: CLEAR_FOCUS, label: "Clear focus project".to_owned() });
    }
    if matches!(server, Status::Serving(_)) {
        entries.push(Entry::Action { id: NEW_PROJECT, label: "New project…".to_owned() });
        entries.push(Entry::Action { id: DASHBOARD, label: "Open dashboard…".to_owned() });
        let open: Vec<Entry> = projects
            .iter()
            .filter(|p| p.status != ProjectStatus::Archived)
            .map(|p| Entry::Open {
                id: format!("{OPEN_PREFIX}{}", p.slug),
                label: format!("{} ({})", p.name, p.slug),
            })
            .collect();
        if !open.is_empty() {
            entries.push(Entry::Submenu { label: "Open a project in the dashboard".to_owned(), items: open });
        }
        entries.push(Entry::Action { id: COPY_URL, label: "Copy MCP URL".to_owned() });
        entries.push(Entry::Action { id: COPY_STDIO, label: "Copy `mooring stdio` command".to_owned() });
    }
    entries.push(Entry::Toggle {
        id: PAUSE_QUESTIONS,
        label: "Pause questions (send them to the browser)".to_owned(),
        on: toggles.questions_paused,
    });
    if let Some(on) = toggles.away {
        entries.push(Entry::Toggle { id: AWAY, label: "Away: questions go to my phone".to_owned(), on });
    }
    if let Some(trouble) = &toggles.phone_trouble {
        entries.push(Entry::Label(trouble.clone()));
    }
    entries.push(Entry::Toggle { id: AUTOSTART, label: "Start at login".to_owned(), on: toggles.autostart });
    entries.push(Entry::Action { id: QUIT, label: "Quit Mooring".to_owned() });
    entries
}

/// "Billing: 3 sessions at work (claude-code ×2, codex) · 1 write met a claim".
fn crowded_entry(p: &mooring_core::projects::live::Crowded) -> Entry {
    let mut clients: Vec<(String, usize)> = Vec::new();
    for c in &p.clients {
        match clients.iter_mut().find(|(name, _)| name == c) {
            Some((_, n)) => *n += 1,
            None => clients.push((c.clone(), 1)),
        }
    }
    let who: Vec<String> =
        clients.iter().map(|(c, n)| if *n > 1 { format!("{c} ×{n}") } else { c.clone() }).collect();
    let met = match p.conflicts {
        0 => String::new(),
        1 => " · 1 write met a claim".to_owned(),
        n => format!(" · {n} writes met a claim"),
    };
    Entry::Open {
        id: format!("{WORKING_PREFIX}{}", p.slug),
        label: format!("{}: {} sessions at work ({}){met}", p.name, p.clients.len(), who.join(", ")),
    }
}

/// "Leader Election — 12 locks · 2 hours ago" ("— team · …" for a team project),
/// checked when it is the focus project.
fn project_entry(p: &Project, team: &[String], focus: Option<&str>) -> Entry {
    let locks = match p.stats.context_locks {
        _ if team.contains(&p.slug) => "team".to_owned(),
        1 => "1 lock".to_owned(),
        n => format!("{n} locks"),
    };
    Entry::Project {
        id: format!("{PROJECT_PREFIX}{}", p.slug),
        label: format!("{} — {locks} · {}", p.name, p.last_used),
        focused: focus == Some(p.slug.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_projects_are_marked_as_such() {
        let p = Project {
            slug: "billing".into(),
            name: "Billing".into(),
            last_used: "now".into(),
            ..Default::default()
        };
        let Entry::Project { label, .. } = project_entry(&p, &["billing".to_owned()], None) else { panic!() };
        assert_eq!(label, "Billing — team · now");
        let Entry::Project { label, .. } = project_entry(&p, &[], None) else { panic!() };
        assert_eq!(label, "Billing — 0 locks · now");
    }
    use mooring_core::{NewProject, Registry, Store};

    #[test]
    fn menu_lists_active_projects_sorted_with_focus_checked() {
        let store = Store::open_in_memory().unwrap();
        let reg = Registry::new(&store);
        for name in ["Zeta", "Alpha", "Old"] {
            reg.create(NewProject { name: name.into(), ..Default::default() }).unwrap();
        }
        reg.archive("old").unwrap();
        reg.create(NewProject { name: "Resting".into(), ..Default::default() }).unwrap();
        reg.edit(
            "resting",
            mooring_core::ProjectEdit { status: Some(ProjectStatus::Paused), ..Default::default() },
        )
        .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10));
        reg.touch_used("zeta").unwrap();
        let projects = reg.list(None).unwrap();
        let waiting = [Waiting { id: "wait:pick:p-1".into(), label: "claude needs a project".into() }];
        let model = menu_model(
            &projects,
            &[],
            Some("zeta"),
            &Status::Serving("http://127.0.0.1:7423/mcp".into()),
            &waiting,
            &AtWork { sessions: 1, ..AtWork::default() },
            Toggles { questions_paused: true, autostart: false, ..Toggles::default() },
        );
        assert_eq!(model[0], Entry::Label("2 active projects · 1 session · 1 waiting".into()));
        assert_eq!(model[1], Entry::Label("Waiting for you (1)".into()));
        assert_eq!(
            model[2],
            Entry::Waiting { id: "wait:pick:p-1".into(), label: "  claude needs a project".into() }
        );
        let model = &model[3..];
        // Most recently used first; the label carries the lock count and the age.
        assert_eq!(
            model[1],
            Entry::Project {
                id: "project:zeta".into(),
                label: "Zeta — 0 locks · just now".into(),
                focused: true
            }
        );
        assert_eq!(
            model[2],
            Entry::Project {
                id: "project:alpha".into(),
                label: "Alpha — 0 locks · never".into(),
                focused: false
            }
        );
        assert!(
            matches!(&model[3], Entry::Submenu { label, items } if label == "Paused (1)" && items.len() == 1)
        );
        assert!(
            matches!(&model[4], Entry::Submenu { label, items } if label == "Archived (1)" && items[0] == Entry::Label("Old (old)".into()))
        );
        assert!(model.contains(&Entry::Action { id: CLEAR_FOCUS, label: "Clear focus project".into() }));
        assert!(model.contains(&Entry::Label("MCP server: http://127.0.0.1:7423/mcp".into())));
        let at = |id| model.iter().position(|e| matches!(e, Entry::Action { id: i, .. } if *i == id));
        assert!(at(NEW_PROJECT) < at(DASHBOARD), "New project… comes before Open dashboard…");
        assert!(model.contains(&Entry::Action { id: DASHBOARD, label: "Open dashboard…".into() }));
        assert!(model.contains(&Entry::Action { id: NEW_PROJECT, label: "New project…".into() }));
        assert!(model.contains(&Entry::Action { id: COPY_URL, label: "Copy MCP URL".into() }));
        // Each project not archived opens in its own view, right after the dashboard.
        let open = model.iter().find_map(|e| match e {
            Entry::Submenu { label, items } if label == "Open a project in the dashboard" => Some(items),
            _ => None,
        });
        let ids: Vec<&str> = open
            .unwrap()
            .iter()
            .map(|e| match e {
                Entry::Open { id, .. } => id.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(ids.len(), 3, "{ids:?}");
        assert!(ids.contains(&"open:zeta") && ids.contains(&"open:alpha") && !ids.contains(&"open:old"));
        assert!(model.contains(&Entry::Toggle {
            id: PAUSE_QUESTIONS,
            label: "Pause questions (send them to the browser)".into(),
            on: true
        }));
        assert!(model.contains(&Entry::Toggle { id: AUTOSTART, label: "Start at login".into(), on: false }));
        assert!(
            !model.iter().any(|e| matches!(e, Entry::Toggle { id: AWAY, .. })),
            "no away item without a phone"
        );
        assert_eq!(model.last(), Some(&Entry::Action { id: QUIT, label: "Quit Mooring".into() }));
    }

    #[test]
    fn a_project_where_several_sessions_work_gets_a_line_that_opens_its_view() {
        use mooring_core::projects::live::Crowded;
        let crowded = |clients: &[&str], conflicts| Crowded {
            slug: "billing".into(),
            name: "Billing".into(),
            clients: clients.iter().map(|c| c.to_string()).collect(),
            conflicts,
        };
        let at_work =
            AtWork { sessions: 3, crowded: vec![crowded(&["claude-code", "codex", "claude-code"], 2)] };
        let model = menu_model(&[], &[], None, &Status::Starting, &[], &at_work, Toggles::default());
        assert_eq!(
            model[1],
            Entry::Open {
                id: "working:billing".into(),
                label: "Billing: 3 sessions at work (claude-code ×2, codex) · 2 writes met a claim".into()
            }
        );
        let Entry::Open { label, .. } = crowded_entry(&crowded(&["codex", "cursor"], 0)) else { panic!() };
        assert_eq!(label, "Billing: 2 sessions at work (codex, cursor)");
        let quiet =
            menu_model(&[], &[], None, &Status::Starting, &[], &AtWork::default(), Toggles::default());
        assert!(!quiet.iter().any(|e| matches!(e, Entry::Open { id, .. } if id.starts_with(WORKING_PREFIX))));
    }

    #[test]
    fn empty_registry_still_offers_quit() {
        let model = menu_model(
            &[],
            &[],
            None,
            &Status::Failed("port 7423 is in use".into()),
            &[],
            &AtWork::default(),
            Toggles::default(),
        );
        assert!(
            !model.iter().any(|e| matches!(e, Entry::Action { id: COPY_URL, .. })),
            "nothing to copy without a server"
        );
        assert_eq!(model[0], Entry::Label("No active projects".into()));
        assert!(!model.iter().any(|e| matches!(e, Entry::Action { id: CLEAR_FOCUS, .. })));
        assert!(matches!(model.last(), Some(Entry::Action { id: QUIT, .. })));
    }

    #[test]
    fn away_shows_once_a_phone_is_paired_with_any_trouble_beside_it() {
        let toggles = Toggles {
            away: Some(true),
            phone_trouble: Some("Phone: telegram unreachable, retrying".into()),
            ..Toggles::default()
        };
        let model = menu_model(&[], &[], None, &Status::Starting, &[], &AtWork::default(), toggles);
        let at = model.iter().position(|e| {
            *e == Entry::Toggle { id: AWAY, label: "Away: questions go to my phone".into(), on: true }
        });
        assert!(at.is_some(), "{model:?}");
        assert_eq!(model[at.unwrap() + 1], Entry::Label("Phone: telegram unreachable, retrying".into()));
    }
}
