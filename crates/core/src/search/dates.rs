//! When a question says when: "in June", "on 13 October 2023", "last week", "three days
//! ago". The span it names, for the fusion to favour entries written then (a question
//! about time matches entries by their date as well as by their words). Only what is
//! said plainly is read; anything else names no span.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};

/// A span of time a question names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// From the first instant to before the second.
    Between(DateTime<Utc>, DateTime<Utc>),
    /// A month of any year ("in June", with no year said).
    Month(u32),
}

impl Span {
    /// Whether an entry written at `at` (RFC 3339) falls in it.
    pub fn holds(&self, at: &str) -> bool {
        let Ok(at) = at.parse::<DateTime<Utc>>() else { return false };
        match *self {
            Span::Between(from, to) => from <= at && at < to,
            Span::Month(m) => at.month() == m,
        }
    }
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A month by its name or its usual short form ("oct", "sept").
fn month(word: &str) -> Option<u32> {
    const SHORT: [&str; 13] =
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"];
    let whole = MONTHS.iter().position(|m| *m == word);
    let short = SHORT.contains(&word).then(|| MONTHS.iter().position(|m| m.starts_with(word))).flatten();
    whole.or(short).map(|i| i as u32 + 1)
}

fn number(word: &str) -> Option<i64> {
    let small = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    word.parse().ok().or_else(|| small.iter().position(|w| *w == word).map(|i| i as i64 + 1))
}

fn day_start(d: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default())
}

fn month_span(year: i32, m: u32) -> Option<Span> {
    let from = NaiveDate::from_ymd_opt(year, m, 1)?;
    let to = if m == 12 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(year, m + 1, 1)?
    };
    Some(Span::Between(day_start(from), day_start(to)))
}

/// The span `question` names, read at `now`; `None` when it names none.
pub fn span(question: &str, now: DateTime<Utc>) -> Option<Span> {
    let lower = question.to_lowercase();
    let w: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let today = now.date_naive();
    let day = |d: NaiveDate| Some(Span::Between(day_start(d), day_start(d) + Duration::days(1)));
    let year = |s: &str| s.parse::<i32>().ok().filter(|y| (1970..=2100).contains(y));
    for (i, &word) in w.iter().enumerate() {
        let next = |k: usize| w.get(i + k).copied();
        match word {
            "today" => return day(today),
            "yesterday" => return day(today - Duration::days(1)),
            "last" | "this" | "past" => {
                let back = i64::from(word == "last");
                let span = match next(1) {
                    Some("week") => {
                        let monday =
                            today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
                        let from = monday - Duration::weeks(back);
                        Span::Between(day_start(from), day_start(from + Duration::weeks(1)))
                    }
                    Some("month") => {
                        let (y, m) = if back == 1 && today.month() == 1 {
                            (today.year() - 1, 12)
                        } else {
                            (today.year(), today.month() - back as u32)
                        };
                        month_span(y, m)?
                    }
                    Some("year") => {
                        let y = today.year() - back as i32;
                        Span::Between(
                            day_start(NaiveDate::from_ymd_opt(y, 1, 1)?),
                            day_start(NaiveDate::from_ymd_opt(y + 1, 1, 1)?),
                        )
                    }
                    _ => continue,
                };
                return Some(span);
            }
            _ => {}
        }
        // "3 days ago", "two weeks ago": that day, or that week.
        if next(2) == Some("ago")
            && let Some(n) = number(word)
        {
            let (unit, width) = match next(1) {
                Some("day" | "days") => (Duration::days(1), Duration::days(1)),
                Some("week" | "weeks") => (Duration::weeks(1), Duration::weeks(1)),
                _ => continue,
            };
            let from = today - unit * n as i32;
            return Some(Span::Between(
                day_start(from) - width / 2,
                day_start(from) + width / 2 + Duration::days(1),
            ));
        }
        if let Some(m) = month(word) {
            // "13 October 2023", "October 13, 2023", "October 2023", "in October".
            let before = i.checked_sub(1).and_then(|k| w.get(k)).and_then(|d| d.parse::<u32>().ok());
            let after = next(1).and_then(|d| d.parse::<u32>().ok()).filter(|d| *d <= 31);
            let y = [next(1), next(2)].into_iter().flatten().find_map(year);
            let d = before.filter(|d| (1..=31).contains(d)).or(after);
            return match (y, d) {
                (Some(y), Some(d)) => day(NaiveDate::from_ymd_opt(y, m, d)?),
                (Some(y), None) => month_span(y, m),
                // "may" alone is mostly the verb.
                (None, _) if word == "may" => continue,
                (None, _) => Some(Span::Month(m)),
            };
        }
        if (word == "in" || word == "during")
            && let Some(y) = next(1).and_then(year)
        {
            return Some(Span::Between(
                day_start(NaiveDate::from_ymd_opt(y, 1, 1)?),
                day_start(NaiveDate::from_ymd_opt(y + 1, 1, 1)?),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn plain_dates_and_months_name_their_span() {
        let now = at("2026-11-28T10:00:00Z");
        let s = span("What painting did Melanie show on October 13, 2023?", now).unwrap();
        assert!(s.holds("2023-10-13T18:00:00Z") && !s.holds("2023-10-14T00:00:00Z"));
        let s = span("What did Gina find on 1 February, 2023?", now).unwrap();
        assert!(s.holds("2023-02-01T09:00:00Z"));
        let s = span("What setback did she face in October 2023?", now).unwrap();
        assert!(s.holds("2023-10-30T00:00:00Z") && !s.holds("2023-11-01T00:00:00Z"));
        let s = span("When did Melanie go camping in June?", now).unwrap();
        assert_eq!(s, Span::Month(6));
        assert!(s.holds("2023-06-20T00:00:00Z") && !s.holds("2023-07-01T00:00:00Z"));
        let s = span("How many times has she gone to the beach in 2023?", now).unwrap();
        assert!(s.holds("2023-12-31T23:00:00Z") && !s.holds("2024-01-01T00:00:00Z"));
    }

    #[test]
    fn relative_spans_are_read_from_now() {
        let now = at("2026-11-28T10:00:00Z"); // a Saturday
        assert!(span("what did we decide yesterday?", now).unwrap().holds("2026-11-27T15:00:00Z"));
        let last_week = span("what broke last week", now).unwrap();
        assert!(last_week.holds("2026-11-16T00:00:00Z") && last_week.holds("2026-11-22T23:00:00Z"));
        assert!(!last_week.holds("2026-11-23T00:00:00Z"));
        assert!(span("notes from last month", now).unwrap().holds("2026-10-05T00:00:00Z"));
        assert!(span("what we shipped last year", now).unwrap().holds("2025-05-01T00:00:00Z"));
        assert!(span("the fix from three days ago", now).unwrap().holds("2026-11-25T12:00:00Z"));
    }

    #[test]
    fn questions_without_a_time_and_the_verb_may_name_none() {
        let now = at("2026-11-28T10:00:00Z");
        for q in [
            "Why did we pick Postgres?",
            "May I ask what the lease TTL is?",
            "what mark did she get",
            "the 2 PRs",
        ] {
            assert_eq!(span(q, now), None, "{q}");
        }
    }
}
