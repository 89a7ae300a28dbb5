use super::*;
use crate::memory::supersede::{restore, supersede};
use crate::memory::{NewEntry, remember};
use crate::store::Store;
use crate::{NewProject, Registry};

/// Subjects and choices a year of a project's decisions is made of.
pub(crate) const SUBJECTS: &[&str] = &[
    "session cache",
    "job queue",
    "audit log",
    "metrics pipeline",
    "search index",
    "billing exports",
    "feature flags",
    "image thumbnails",
    "email delivery",
    "webhook retries",
    "rate limiter",
    "config loading",
    "error pages",
    "mobile builds",
    "release notes",
    "database backups",
    "schema migrations",
    "login page",
    "password resets",
    "API pagination",
    "CSV imports",
    "PDF invoices",
    "onboarding tour",
    "dark mode",
    "push notifications",
    "admin dashboard",
    "tenant isolation",
    "log retention",
    "load balancer",
    "CDN caching",
];
pub(crate) const CHOICES: &[&str] = &[
    "Redis",
    "Kafka",
    "S3",
    "Prometheus",
    "Tantivy",
    "Parquet",
    "LaunchDarkly",
    "libvips",
    "SES",
    "exponential backoff",
    "a token bucket",
    "TOML",
    "static HTML",
    "Fastlane",
    "a changelog bot",
    "pgBackRest",
    "sqlx",
    "server rendering",
    "signed links",
    "cursors",
    "streaming parsers",
    "Typst",
    "Shepherd",
    "CSS variables",
    "FCM",
    "Retool",
    "row level security",
    "90 days",
    "HAProxy",
    "Cloudflare",
];

pub(crate) fn decision(i: usize) -> String {
    let s = SUBJECTS[i % SUBJECTS.len()];
    let c = CHOICES[(i * 7 + i / SUBJECTS.len()) % CHOICES.len()];
    match i % 4 {
        0 => format!("Use {c} for the {s}"),
        1 => format!("The {s} runs on {c}"),
        2 => format!("We picked {c} for the {s} after a spike"),
        _ => format!("{c} handles the {s} from now on"),
    }
}

fn project(n: usize) -> Store {
    let store = Store::open_in_memory().unwrap();
    Registry::new(&store).create(NewProject { name: "App".into(), ..NewProject::default() }).unwrap();
    let batch: Vec<NewEntry> = (0..n)
        .map(|i| NewEntry { kind: "decision".into(), content: decision(i), ..NewEntry::default() })
        .collect();
    crate::memory::remember_batch(&store, "app", &batch, None).unwrap();
    store
}

fn add(store: &Store, kind: &str, text: &str) -> (Entry, Vec<Candidate>) {
    let e = remember(
        store,
        "app",
        &NewEntry { kind: kind.into(), content: text.into(), ..NewEntry::default() },
        None,
    )
    .unwrap();
    // As the hub does in the background: earlier entries have their vectors (where the
    // model is installed; without it, candidates come by words alone).
    crate::search::semantic::index_pending(store, None).unwrap();
    let c = candidates(store, &e).unwrap();
    (e, c)
}

#[test]
fn a_contradiction_and_a_reworded_duplicate_are_found_and_unrelated_entries_are_not() {
    let store = project(300);
    let (old, _) = add(&store, "decision", "Ledger stays on MySQL");
    let (dup_of, _) = add(&store, "decision", "Deploys go out on Tuesdays after the standup");
    let (_, none) = add(&store, "decision", "Use Grafana for the ops wallboard");
    assert!(none.is_empty(), "an unrelated decision found {none:?}");

    let (_, found) = add(&store, "decision", "We moved the ledger to Postgres; MySQL is out");
    eprintln!("contradiction: {found:?}");
    assert_eq!(found.first().map(|c| c.id), Some(old.id), "{found:?}");

    let (_, found) = add(&store, "decision", "We ship deploys on Tuesdays, after standup");
    eprintln!("duplicate: {found:?}");
    assert_eq!(found.first().map(|c| (c.id, c.likely)), Some((dup_of.id, Likely::Duplicate)), "{found:?}");

    // Another kind is never a candidate.
    let (_, notes) = add(&store, "note", "The ledger export job is slow on Mondays");
    assert!(notes.iter().all(|c| c.id != old.id), "{notes:?}");
}

#[test]
fn the_synthetic_year_gives_no_candidates_for_fresh_subjects() {
    let store = project(1_000);
    for text in [
        "Sentry collects the crash reports",
        "The design system lives in Storybook",
        "Translations come from Crowdin",
    ] {
        let (_, found) = add(&store, "decision", text);
        assert!(found.is_empty(), "{text}: {found:?}");
    }
}

#[test]
fn superseding_leaves_history_and_undo_brings_it_back() {
    let store = project(20);
    let (old, _) = add(&store, "decision", "Ledger stays on MySQL");
    let (new, _) = add(&store, "decision", "The ledger moves to Postgres");
    let (note, _) = add(&store, "note", "Postgres tuning notes");
    assert_eq!(
        supersede(&store, "app", new.id, &[note.id]).unwrap_err().field.as_deref(),
        Some("supersedes")
    );
    assert!(supersede(&store, "app", old.id, &[new.id]).is_err(), "an older entry cannot supersede a newer");
    assert!(supersede(&store, "app", new.id, &[new.id]).is_err());
    let preamble = |store: &Store| {
        crate::memory::preamble::build(store, store, "app", None, crate::memory::preamble::Caps::default())
            .unwrap()
            .text
    };
    assert!(preamble(&store).contains("Ledger stays on MySQL"));
    let done = supersede(&store, "app", new.id, &[old.id]).unwrap();
    let text = preamble(&store);
    assert!(
        !text.contains("Ledger stays on MySQL") && text.contains("The ledger moves to Postgres"),
        "{text}"
    );
    let recalled =
        crate::search::recall::recall(&store, "app", "is the ledger on MySQL or Postgres?", &[]).unwrap();
    assert!(
        recalled.iter().all(|e| e.id != old.id) && recalled.iter().any(|e| e.id == new.id),
        "{recalled:?}"
    );
    assert_eq!(done[0].superseded_by, Some(new.id));
    assert_eq!(
        supersede(&store, "app", new.id, &[old.id]).unwrap_err().code,
        crate::error::ErrorCode::Conflict
    );
    // Still in search, marked.
    let hits = crate::search::search(&store, "ledger MySQL", Some("app"), None, 5).unwrap();
    assert!(hits.iter().any(|h| h.entry.id == old.id && h.entry.superseded_by == Some(new.id)), "{hits:?}");
    // A new entry on the subject no longer offers the superseded one.
    let (_, found) = add(&store, "decision", "Ledger stays on Postgres, MySQL is gone");
    assert!(found.iter().all(|c| c.id != old.id), "{found:?}");
    let back = restore(&store, "app", old.id).unwrap();
    assert_eq!(back.superseded_by, None);
    assert!(preamble(&store).contains("Ledger stays on MySQL"), "undo brings it back");
    assert!(restore(&store, "app", old.id).is_err());
}
