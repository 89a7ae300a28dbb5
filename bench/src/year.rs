//! A year of a project's memory, made up: decisions on many subjects, each worded a few
//! ways, with the numbers that make a real project's entries differ. The memory-upkeep
//! bench times the candidate check on it.

use mooring_core::memory::NewEntry;

const SUBJECTS: &[&str] = &[
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
    "ledger",
    "payouts",
    "currency rounding",
    "tax reports",
    "fraud checks",
    "customer exports",
    "SSO login",
    "access reviews",
    "incident paging",
    "status page",
];
const CHOICES: &[&str] = &[
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
    "Postgres",
    "MySQL",
    "banker's rounding",
    "a nightly job",
    "Okta",
    "PagerDuty",
    "Statuspage",
    "Vault",
    "gRPC",
    "NATS",
];

/// Entry `i` of the year: a decision (two in three) or a note.
pub fn entry(i: usize) -> NewEntry {
    let s = SUBJECTS[i % SUBJECTS.len()];
    let c = CHOICES[(i * 7 + i / SUBJECTS.len()) % CHOICES.len()];
    let week = i % 52 + 1;
    let content = match i % 6 {
        0 => format!("Use {c} for the {s} (week {week})"),
        1 => format!("The {s} runs on {c} since release {}", i / 100),
        2 => format!("We picked {c} for the {s} after spike #{i}"),
        3 => format!("{c} handles the {s} from sprint {week} on"),
        4 => format!("Note: the {s} with {c} needs a look at ticket {i}"),
        _ => format!("Note: {c} in the {s} was slower than expected in week {week}"),
    };
    NewEntry { kind: if i % 6 >= 4 { "note" } else { "decision" }.into(), content, ..NewEntry::default() }
}

/// The first `n` entries of the year.
pub fn entries(n: usize) -> Vec<NewEntry> {
    (0..n).map(entry).collect()
}

/// Captured session `i` of the year, started at `at` (RFC 3339): a few requests, files,
/// Project `year` in a new store in `dir` with `n` entries of the made-up year, as the
/// hub leaves it: every entry with its vector, the keyword index merged a bounded step
/// per slice indexed (a 100,000-entry backfill is about 25 slices), vectors held.
pub fn project(dir: &std::path::Path, n: usize) -> mooring_core::Store {
    use mooring_core::search::semantic;
    use mooring_core::store::backend::MemoryUpkeep as _;
    let store = mooring_core::Store::open_in(dir).expect("a store");
    store.checkpoint_in_background().expect("the checkpointer");
    mooring_core::Registry::new(&store)
        .create(mooring_core::NewProject { name: "Year".into(), ..Default::default() })
        .expect("the project");
    for chunk in entries(n).chunks(5_000) {
        mooring_core::memory::remember_batch(&store, "year", chunk, None).expect("the year written");
    }
    let _ = semantic::index_pending(&store, None);
    for _ in 0..25 {
        store.tidy_index().expect("the keyword index tidied");
    }
    if let Ok(model) = semantic::model() {
        store.warm_vectors(semantic::MODEL, model.dim()).expect("vectors held");
    }
    store
}

/// The `i`th of the decisions the write benches add: one subject, worded alike, a week
/// number apart (near-duplicates of each other, as a busy project's are).
pub fn probe(i: usize) -> NewEntry {
    NewEntry {
        kind: "decision".into(),
        content: format!("The ledger moves from MySQL to Postgres in week {}", i % 52),
        ..NewEntry::default()
    }
}

/// commands, todos, now and then a commit and a compaction, as capture stores them.
pub fn session(i: usize, at: chrono::DateTime<chrono::Utc>) -> mooring_core::capture::SessionRecord {
    use mooring_core::capture::record::{Commit, FileAction, FileTouch};
    let s = SUBJECTS[i % SUBJECTS.len()];
    let c = CHOICES[(i * 7 + i / SUBJECTS.len()) % CHOICES.len()];
    let mut r = mooring_core::capture::SessionRecord::new("claude-code", &format!("claude-code:{i:024x}"));
    r.saw_time(&at.to_rfc3339());
    r.saw_time(&(at + chrono::Duration::minutes(35)).to_rfc3339());
    r.request(&format!("Move the {s} to {c} and keep the old path behind a flag"));
    r.request(&format!("The tests for the {s} fail on CI, look at ticket {i}"));
    r.request("Commit it when the tests pass");
    for f in 0..6 {
        let path = format!(
            "src/{}/{}.rs",
            s.replace(' ', "_"),
            ["mod", "store", "api", "tests", "config", "flag"][f]
        );
        r.files.push(FileTouch {
            path,
            action: FileAction::Edited,
            from: None,
            subagent: false,
            asked: None,
        });
    }
    for k in 0..8 {
        r.commands_total += 1;
        r.commands.push(mooring_core::capture::record::CommandRun {
            command: format!("cargo test -p {} -- case_{k}", s.replace(' ', "-")),
            failed: k == 3,
            subagent: false,
        });
    }
    r.add_todo(&format!("Switch the {s} to {c}"), None);
    r.add_todo(&format!("Remove the old {s} path"), None);
    if i.is_multiple_of(3) {
        r.commits.push(Commit { id: format!("{:07x}", i * 7919), subject: format!("Move the {s} to {c}") });
    }
    if i.is_multiple_of(5) {
        r.carry(&format!(
            "The {s} now runs on {c}; the old path stays behind a flag until the next release."
        ));
    }
    r.last_word(&format!("Done: the {s} runs on {c} and the tests pass."));
    r
}
