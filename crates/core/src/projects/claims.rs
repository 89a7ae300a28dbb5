//! Several agents on one checkout: which sessions work in a project now, and what each
//! holds. A session claims a file at its client's pre-edit hook, before the write (a
//! claim taken after it is one write too late), or a folder, a glob or a named task
//! itself. A claim holds while its session is live — renewed by each of its hooks,
//! dropped at its end, when its process is gone or after the quiet period — so no timer
//! lapses while the session still works. A write into what another live session of the
//! same checkout holds is asked about, refused or only warned of, by the project's
//! setting; sessions in two worktrees of one clone never meet.

use chrono::{DateTime, Duration, Utc};

use super::process::running;
use crate::error::{Error, Result};
use crate::settings::Setting;
use crate::store::claims::{self as q, ClaimRow};
use crate::store::live_sessions::{self as live, LiveRow, Seen};
use crate::store::{Store, projects::find_row};

/// What a write into a file another live session holds meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The person is asked (the client's own ask; else a question).
    Ask,
    /// Refused, with a reason the agent can act on.
    Deny,
    /// Let through, the agent told who holds it.
    Warn,
    /// Nothing is claimed or checked.
    Off,
}

impl Mode {
    /// Every mode, the default first.
    pub const ALL: [Mode; 4] = [Mode::Ask, Mode::Deny, Mode::Warn, Mode::Off];

    /// Its name in settings and storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Ask => "ask",
            Mode::Deny => "deny",
            Mode::Warn => "warn",
            Mode::Off => "off",
        }
    }

    /// The mode a person named.
    pub fn parse(word: &str) -> Result<Self> {
        Mode::ALL
            .into_iter()
            .find(|m| m.as_str() == word)
            .ok_or_else(|| Error::invalid("mode", format!("'{word}' is not one of ask, deny, warn, off")))
    }
}

/// What a claim covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One file.
    File,
    /// A folder and everything under it.
    Dir,
    /// Every path a glob matches (`src/billing/**/*.rs`).
    Glob,
    /// A named piece of work, no path.
    Task,
}

impl Kind {
    /// Its name in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Dir => "dir",
            Kind::Glob => "glob",
            Kind::Task => "task",
        }
    }

    /// The kind a caller named.
    pub fn parse(word: &str) -> Result<Self> {
        Self::named(word.trim())
            .ok_or_else(|| Error::invalid("kind", format!("'{word}' is not one of file, dir, glob, task")))
    }

    fn named(word: &str) -> Option<Self> {
        [Kind::File, Kind::Dir, Kind::Glob, Kind::Task].into_iter().find(|k| k.as_str() == word)
    }
}

/// Whether a claim of `kind` on `what` covers the path `path` (relative to the checkout).
fn covers(kind: Kind, what: &str, path: &str) -> bool {
    match kind {
        Kind::File => what == path,
        Kind::Dir => what.is_empty() || path.strip_prefix(what).is_some_and(|rest| rest.starts_with('/')),
        Kind::Glob => glob::Pattern::new(what).is_ok_and(|g| {
            let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
            g.matches_with(path, options)
        }),
        Kind::Task => false,
    }
}

/// Whether two claims overlap: one covers the other's path, or they name one task.
fn overlap(a: (Kind, &str), b: (Kind, &str)) -> bool {
    match (a, b) {
        ((Kind::Task, x), (Kind::Task, y)) => x.eq_ignore_ascii_case(y),
        ((Kind::Task, _), _) | (_, (Kind::Task, _)) => false,
        ((Kind::File, p), (k, w)) | ((k, w), (Kind::File, p)) => covers(k, w, p),
        ((Kind::Dir, x), (Kind::Dir, y)) => covers(Kind::Dir, x, y) || covers(Kind::Dir, y, x) || x == y,
        // A glob against a folder or a glob: they overlap when either's literal start
        // lies inside the other.
        ((_, x), (_, y)) => {
            let stem = |g: &str| {
                g.split(['*', '?', '[']).next().unwrap_or_default().trim_end_matches('/').to_owned()
            };
            let (sx, sy) = (stem(x), stem(y));
            sx.starts_with(&sy) || sy.starts_with(&sx)
        }
    }
}

/// Who holds what a write or a claim met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The holding session's client.
    pub client: String,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// What it was last asked.
    pub request: Option<String>,
    /// Its claim, as people read it (`src/billing.rs`, `src/billing/`, `task "split invoices"`).
    pub claim: String,
    /// The reason it gave.
    pub reason: Option<String>,
}

/// What a claim came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Held now by this session (or nothing to hold: the project's claims are off).
    Held,
    /// Another live session of the checkout holds it: the project's mode says what follows.
    Taken {
        /// The project's setting.
        mode: Mode,
        /// Who holds it.
        holder: Holder,
    },
}

impl Outcome {
    /// The sentence an agent gets: who holds it and what to do (`what`: the path or task).
    pub fn message(&self, what: &str) -> Option<String> {
        let Outcome::Taken { holder, .. } = self else { return None };
        let client = crate::guard::quoted::line(&holder.client);
        let who =
            crate::humanize::session_named(&client, &holder.started_at, holder.request.as_deref(), "for");
        let why = holder
            .reason
            .as_deref()
            .map(|r| format!(" ({})", crate::humanize::clip(r, 80)))
            .unwrap_or_default();
        Some(format!(
            "{what} is being edited by {who}, which holds {}{why}; \
             work elsewhere or ask the person.",
            holder.claim
        ))
    }
}

/// A session as a hook or a tool reports it.
#[derive(Debug, Clone)]
pub struct Session<'a> {
    /// The client session's key.
    pub key: &'a str,
    /// The client's name.
    pub client: &'a str,
    /// The worktree's top folder.
    pub checkout: &'a str,
    /// Its branch.
    pub branch: Option<&'a str>,
    /// The client's process, where known.
    pub pid: Option<i64>,
    /// Its latest request, when this report carries one.
    pub request: Option<&'a str>,
}

/// The oldest `last_at` a live session may have at `now`.
pub(super) fn cutoff(c: &rusqlite::Connection, now: DateTime<Utc>) -> Result<String> {
    let quiet = Setting::LiveQuietMinutes.read(c)?;
    Ok(crate::humanize::format_ts(now - Duration::minutes(i64::from(quiet))))
}

/// Note that session `s` of project `slug` was heard from.
pub fn seen(store: &Store, slug: &str, s: &Session<'_>) -> Result<()> {
    store.write(|tx| {
        let project = find_row(tx, "project", slug)?;
        touch(tx, project.id, s)
    })
}

fn touch(tx: &rusqlite::Connection, project_id: i64, s: &Session<'_>) -> Result<()> {
    let request = s.request.map(|r| crate::guard::redact::scrub(&crate::humanize::clip(r.trim(), 200)).0);
    let seen = Seen {
        key: s.key,
        project_id,
        client: s.client,
        checkout: s.checkout,
        branch: s.branch,
        pid: s.pid,
        request: request.as_deref(),
    };
    live::touch(tx, &seen, &crate::humanize::now())
}

/// Session `key` ended: it is no longer live, and its claims go.
pub fn ended(store: &Store, key: &str) -> Result<()> {
    store.write(|tx| end(tx, key, Utc::now()))
}

/// How long a session's row is kept after it was last heard from.
const KEPT_DAYS: i64 = 30;

/// End `key` at `now` (see [`live::end`]).
fn end(tx: &rusqlite::Connection, key: &str, now: DateTime<Utc>) -> Result<()> {
    let forget_before = crate::humanize::format_ts(now - Duration::days(KEPT_DAYS));
    live::end(tx, key, &crate::humanize::format_ts(now), &forget_before)
}

/// Session `s` of `slug` claims `what` (a `kind`), checked against every other live
/// session of its checkout in the same transaction: held, or taken by another.
pub fn claim(
    store: &Store,
    slug: &str,
    s: &Session<'_>,
    kind: Kind,
    what: &str,
    reason: Option<&str>,
) -> Result<Outcome> {
    let what = normalize(kind, what)?;
    let now = Utc::now();
    store.write(|tx| {
        let project = find_row(tx, "project", slug)?;
        touch(tx, project.id, s)?;
        let mode = Mode::parse(&crate::store::projects::claims_mode(tx, project.id)?).unwrap_or(Mode::Ask);
        if mode == Mode::Off && kind == Kind::File {
            return Ok(Outcome::Held);
        }
        let since = cutoff(tx, now)?;
        let stamp = crate::humanize::format_ts(now);
        for other in q::in_checkout(tx, s.checkout)? {
            if other.session_key == s.key {
                continue;
            }
            let Some(k) = Kind::named(&other.kind) else { continue };
            if !overlap((kind, &what), (k, &other.what)) {
                continue;
            }
            let Some(holder) = live::get(tx, &other.session_key)? else { continue };
            if holder.ended_at.is_some() || holder.last_at < since || !running(holder.pid) {
                // Gone quiet or gone: its claims go now.
                end(tx, &holder.key, now)?;
                continue;
            }
            live::conflicted(tx, s.key)?;
            return Ok(Outcome::Taken { mode, holder: holder_of(&holder, &other) });
        }
        q::add(
            tx,
            &ClaimRow {
                checkout: s.checkout.to_owned(),
                kind: kind.as_str().to_owned(),
                what: what.clone(),
                session_key: s.key.to_owned(),
                reason: reason.map(|r| crate::guard::redact::scrub(&crate::humanize::clip(r.trim(), 200)).0),
                at: stamp,
            },
        )?;
        Ok(Outcome::Held)
    })
}

/// Live session `key` of `slug` claims `what`, in the checkout its hooks last reported
/// (an agent's own `claim` call); a key no hook reported is refused.
pub fn claim_as(
    store: &Store,
    slug: &str,
    key: &str,
    kind: Kind,
    what: &str,
    reason: Option<&str>,
) -> Result<Outcome> {
    let Some(row) = store.read(|c| live::get(c, key))? else {
        return Err(Error::invalid("session", "no hook of this session has reported it to Mooring yet"));
    };
    let s = Session {
        key: &row.key,
        client: &row.client,
        checkout: &row.checkout,
        branch: row.branch.as_deref(),
        pid: row.pid,
        request: None,
    };
    claim(store, slug, &s, kind, what, reason)
}

/// What another live session of `checkout` holds over file `path` (relative to it), as
/// the sentence an agent or the person reads; nothing is claimed (a permission prompt's
/// question names who holds the file it is about).
pub fn held_by_another(store: &Store, key: &str, checkout: &str, path: &str) -> Result<Option<String>> {
    let path = normalize(Kind::File, path)?;
    let now = Utc::now();
    store.read(|c| {
        let since = cutoff(c, now)?;
        for other in q::in_checkout(c, checkout)? {
            let Some(k) = Kind::named(&other.kind) else { continue };
            if other.session_key == key || !overlap((Kind::File, &path), (k, &other.what)) {
                continue;
            }
            let Some(row) = live::get(c, &other.session_key)? else { continue };
            if row.ended_at.is_none() && row.last_at >= since && running(row.pid) {
                let taken = Outcome::Taken { mode: Mode::Ask, holder: holder_of(&row, &other) };
                return Ok(taken.message(&path));
            }
        }
        Ok(None)
    })
}

fn holder_of(row: &LiveRow, claim: &ClaimRow) -> Holder {
    Holder {
        client: row.client.clone(),
        started_at: row.started_at.clone(),
        request: row.request.clone(),
        claim: shown(&claim.kind, &claim.what),
        reason: claim.reason.clone(),
    }
}

/// A claim as people read it.
pub fn shown(kind: &str, what: &str) -> String {
    match kind {
        "dir" => format!("{}/", what.trim_end_matches('/')),
        "task" => format!("task \"{what}\""),
        _ => what.to_owned(),
    }
}

/// `what` of `kind` as people read it once stored (`./src/billing` reads `src/billing/`);
/// as given when it is no claim at all.
pub fn shown_as(kind: Kind, what: &str) -> String {
    shown(kind.as_str(), &normalize(kind, what).unwrap_or_else(|_| what.trim().to_owned()))
}

/// `what` as stored: a path relative to the checkout with `/` separators and no `./`,
/// `..` or leading `/`; a task's name trimmed.
fn normalize(kind: Kind, what: &str) -> Result<String> {
    let what = what.trim();
    if what.is_empty() || what.chars().count() > 300 || what.chars().any(char::is_control) {
        return Err(Error::invalid("what", "name a path, a glob or a task of 1 to 300 characters"));
    }
    if kind == Kind::Task {
        return Ok(what.to_owned());
    }
    let path = what.replace('\\', "/");
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if path.starts_with('/') || parts.contains(&"..") {
        return Err(Error::invalid(
            "what",
            format!("'{what}' must be relative to the checkout, without '..'"),
        ));
    }
    if kind == Kind::Glob && glob::Pattern::new(&parts.join("/")).is_err() {
        return Err(Error::invalid("what", format!("'{what}' is not a glob (e.g. src/billing/**/*.rs)")));
    }
    Ok(parts.join("/"))
}

/// Session `key` lets go of its claim of `kind` on `what` (all its claims when `None`);
/// how many went.
pub fn release(store: &Store, key: &str, which: Option<(Kind, &str)>) -> Result<usize> {
    let which = match which {
        Some((kind, what)) => Some((kind, normalize(kind, what)?)),
        None => None,
    };
    store.write(|tx| q::remove(tx, key, which.as_ref().map(|(k, w)| (k.as_str(), w.as_str()))))
}

#[cfg(test)]
#[path = "claims_tests.rs"]
mod tests;
