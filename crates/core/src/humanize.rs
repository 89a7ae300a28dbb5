//! Timestamps: storage format and "2 days ago" for people.

use chrono::{DateTime, SecondsFormat, Utc};

/// Now, in the storage format (RFC 3339, UTC, milliseconds).
pub fn now() -> String {
    format_ts(Utc::now())
}

/// A time in the storage format.
pub fn format_ts(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// "just now", "5 minutes ago", "yesterday", "2 days ago", "3 months ago"; "never" for none.
pub fn ago(ts: Option<&str>, now: DateTime<Utc>) -> String {
    let Some(then) = ts.and_then(|s| DateTime::parse_from_rfc3339(s).ok()) else {
        return "never".to_owned();
    };
    let secs = (now - then.with_timezone(&Utc)).num_seconds().max(0);
    let plural = |n: i64, unit: &str| {
        if n == 1 { format!("1 {unit} ago") } else { format!("{n} {unit}s ago") }
    };
    match secs {
        0..45 => "just now".to_owned(),
        45..3_600 => plural((secs / 60).max(1), "minute"),
        3_600..86_400 => plural(secs / 3_600, "hour"),
        86_400..172_800 => "yesterday".to_owned(),
        172_800..2_592_000 => plural(secs / 86_400, "day"),
        2_592_000..31_536_000 => plural(secs / 2_592_000, "month"),
        _ => plural(secs / 31_536_000, "year"),
    }
}

/// `text` trimmed and cut to `max` characters (an ellipsis marks a cut).
pub fn clip(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// "the codex session started 10:42 for 'split invoices'": how a sentence names a live
/// session, by its client, its start (local time) and its latest request after `doing`.
pub fn session_named(client: &str, started_at: &str, request: Option<&str>, doing: &str) -> String {
    let when = DateTime::parse_from_rfc3339(started_at)
        .map(|t| t.with_timezone(&chrono::Local).format("%H:%M").to_string())
        .unwrap_or_default();
    let asked = request.map(|r| format!(" {doing} '{}'", clip(r.trim(), 80))).unwrap_or_default();
    format!("the {client} session started {when}{asked}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn humanizes_each_range() {
        let now = Utc::now();
        let at = |d: Duration| format_ts(now - d);
        assert_eq!(ago(None, now), "never");
        assert_eq!(ago(Some("garbage"), now), "never");
        assert_eq!(ago(Some(&at(Duration::seconds(3))), now), "just now");
        assert_eq!(ago(Some(&at(Duration::seconds(50))), now), "1 minute ago");
        assert_eq!(ago(Some(&at(Duration::minutes(5))), now), "5 minutes ago");
        assert_eq!(ago(Some(&at(Duration::hours(3))), now), "3 hours ago");
        assert_eq!(ago(Some(&at(Duration::hours(30))), now), "yesterday");
        assert_eq!(ago(Some(&at(Duration::days(2))), now), "2 days ago");
        assert_eq!(ago(Some(&at(Duration::days(65))), now), "2 months ago");
        assert_eq!(ago(Some(&at(Duration::days(800))), now), "2 years ago");
    }

    #[test]
    fn future_times_read_as_just_now() {
        let now = Utc::now();
        assert_eq!(ago(Some(&format_ts(now + Duration::hours(1))), now), "just now");
    }
}
