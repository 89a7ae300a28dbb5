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
