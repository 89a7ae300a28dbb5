//! The context preamble: what a new session should know about its project, filled in
//! priority order under a token budget counted with a real BPE tokenizer (o200k).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::guard::quoted;
use crate::memory::handover;
use crate::memory::locks;
use crate::memory::{self, Entry, ListQuery};
use crate::model::{BlockerStatus, Kind, Project, ProjectStatus};
use crate::projects::registry::Registry;
use crate::settings::Setting;
use crate::store::Store;
use crate::store::backend::MemoryBackend;

/// Default budget.
pub const DEFAULT_BUDGET: usize = 4_000;
/// Smallest budget that can hold a useful preamble.
pub const MIN_BUDGET: usize = 200;
/// Largest budget accepted.
pub const MAX_BUDGET: usize = 200_000;
/// Decisions before the newest ones shown as titles (the "early decisions").
const EARLY_DECISIONS: u32 = 30;
/// Tokens kept back for the note that says what was left out.
const NOTE_RESERVE: usize = 120;

/// How many entries of each kind the preamble may hold (settings `preamble_max_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Decisions.
    pub decisions: u32,
    /// Open blockers.
    pub blockers: u32,
    /// Summaries.
    pub summaries: u32,
    /// Weekly digests of folded sessions (carried summaries).
    pub carried: u32,
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            decisions: Setting::PreambleMaxDecisions.spec().default,
            blockers: Setting::PreambleMaxBlockers.spec().default,
            summaries: Setting::PreambleMaxSummaries.spec().default,
            carried: Setting::PreambleMaxDigests.spec().default,
        }
    }
}

impl Caps {
    /// Read the caps from settings, defaults where unset.
    pub fn load(store: &Store) -> Result<Self> {
        store.read(|c| {
            Ok(Self {
                decisions: Setting::PreambleMaxDecisions.read(c)?,
                blockers: Setting::PreambleMaxBlockers.read(c)?,
                summaries: Setting::PreambleMaxSummaries.read(c)?,
                carried: Setting::PreambleMaxDigests.read(c)?,
            })
        })
    }
}

/// One section and how much of it made it in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SectionReport {
    /// Section name (`blockers`, `decisions`, …).
    pub name: String,
    /// Entries included.
    pub included: usize,
    /// Entries left out (over the cap or the budget).
    pub omitted: usize,
    /// How to get what was left out.
    pub how_to_get: String,
}

/// The preamble and its accounting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Preamble {
    /// Project slug.
    pub project: String,
    /// Markdown to put in front of a session.
    pub text: String,
    /// Its size in o200k tokens.
    pub tokens: usize,
    /// The budget it had to fit.
    pub budget_tokens: usize,
    /// Every section in priority order.
    pub sections: Vec<SectionReport>,
    /// The memory entries it shows, so recall does not give them again (never read from
    /// the text: a "#48" in a captured request is not entry 48).
    #[serde(skip)]
    #[schemars(skip)]
    pub ids: Vec<i64>,
}

/// The tokenizer's count of `text`.
pub fn count_tokens(text: &str) -> usize {
    mooring_tokens::count(text)
}

struct Section {
    name: &'static str,
    heading: String,
    items: Vec<String>,
    /// The memory entry each item shows (0 for none), beside `items`.
    ids: Vec<i64>,
    over_cap: usize,
    how_to_get: String,
}

/// Build the preamble of `slug` within `budget` tokens.
/// The project list and handover come from `store`, memory from `memory` (where the
/// project's memory lives: the same store, or the team database).
pub fn build(
    store: &Store,
    memory: &dyn MemoryBackend,
    slug: &str,
    budget: Option<usize>,
    caps: Caps,
) -> Result<Preamble> {
    let budget = budget.unwrap_or(DEFAULT_BUDGET);
    if !(MIN_BUDGET..=MAX_BUDGET).contains(&budget) {
        return Err(Error::invalid(
            "budget_tokens",
            format!("budget_tokens {budget} is out of range; use {MIN_BUDGET} to {MAX_BUDGET}"),
        ));
    }
    let registry = Registry::new(store);
    let project = registry.get(slug)?;
    let others: Vec<Project> = registry
        .list(None)?
        .into_iter()
        .filter(|p| p.slug != project.slug && p.status != ProjectStatus::Archived)
        .collect();
    let sections = gather(memory, &project, &others, caps)?;
    Ok(fit(&project, sections, budget))
}

/// The newest `cap` live entries of `kind` that nothing superseded, and whether more
/// exist (1) or not (0).
pub(crate) fn recent(
    store: &dyn MemoryBackend,
    slug: &str,
    kind: &str,
    status: Option<&str>,
    cap: u32,
) -> Result<(Vec<Entry>, usize)> {
    if cap == 0 {
        return Ok((Vec::new(), 0));
    }
    // Superseded entries stay in history, not here: read past them (a page at a time,
    // a few pages at most) until `cap` live ones are found.
    let mut kept = Vec::new();
    let mut before = None;
    for _ in 0..4 {
        let q = ListQuery {
            kind: Some(kind.into()),
            status: status.map(str::to_owned),
            limit: Some(cap.min(200)),
            before,
        };
        let page = memory::list(store, slug, &q)?;
        kept.extend(page.entries.into_iter().filter(|e| e.superseded_by.is_none()));
        before = page.next_before;
        if kept.len() >= cap as usize || before.is_none() {
            break;
        }
    }
    let more = usize::from(kept.len() > cap as usize || before.is_some());
    kept.truncate(cap as usize);
    Ok((kept, more))
}

fn gather(memory: &dyn MemoryBackend, p: &Project, others: &[Project], caps: Caps) -> Result<Vec<Section>> {
    let teammates = memory.authors_are_people(&p.slug);
    let line = |e: &Entry| {
        let day = e.created_at.get(..10).unwrap_or(&e.created_at);
        // A title that only repeats the content's first line adds nothing.
        let first = e.content.lines().next().unwrap_or_default().trim_start_matches('#').trim();
        let derived = first.starts_with(e.title.trim_end_matches('…'));
        let content = quoted::line(e.content.trim());
        let body = if derived { content } else { format!("{}: {content}", quoted::line(&e.title)) };
        let by = e.provenance(teammates);
        format!("- [{day}] (#{}, {by}) {body}\n", e.id)
    };
    // What did not fit is counted among the entries that are current (a superseded
    // decision was not left out, it was replaced), and counted only when `recent` saw
    // more than it kept: a small project's preamble asks nothing more.
    let left_out = |kind: Kind, status: Option<BlockerStatus>, kept: usize, more: usize| -> Result<usize> {
        if more == 0 {
            return Ok(0);
        }
        Ok((memory.count_live(&p.slug, kind, status, false)? as usize).saturating_sub(kept))
    };
    let (blockers, more_b) = recent(memory, &p.slug, "blocker", Some("open"), caps.blockers)?;
    // The preamble's table: the newest decisions in full, the ones before them as titles.
    let (mut decisions, more_d) =
        recent(memory, &p.slug, "decision", None, caps.decisions.saturating_add(EARLY_DECISIONS))?;
    let decisions_left = left_out(Kind::Decision, None, decisions.len(), more_d)?;
    let early = decisions.split_off(decisions.len().min(caps.decisions as usize));
    let (summaries, more_s) = recent(memory, &p.slug, "summary", None, caps.summaries)?;
    let mut sections = vec![
        Section {
            name: "blockers",
            heading: "## Open blockers\n".into(),
            over_cap: left_out(Kind::Blocker, Some(BlockerStatus::Open), blockers.len(), more_b)?,
            items: blockers.iter().map(line).collect(),
            ids: blockers.iter().map(|e| e.id).collect(),
            how_to_get: "list_memory with kind \"blocker\" and status \"open\"".into(),
        },
        Section {
            name: "decisions",
            heading: "## Decisions (newest first)\n".into(),
            over_cap: if early.is_empty() { decisions_left } else { 0 },
            items: decisions.iter().map(line).collect(),
            ids: decisions.iter().map(|e| e.id).collect(),
            how_to_get: "list_memory with kind \"decision\"".into(),
        },
    ];
    let handover_items = match handover::last(memory, &p.slug)? {
        Some(h) => {
            let by = quoted::provenance(
                "handover",
                Some(crate::model::Author::Agent),
                h.written_by.as_deref(),
                teammates,
                None,
            );
            let mut s = format!(
                "Saved {} ({}, {by}).\nWork done: {}\nNext steps: {}\n",
                h.created,
                h.created_at.get(..10).unwrap_or(""),
                quoted::line(h.work_done.trim()),
                quoted::line(h.next_steps.trim())
            );
            if let Some(q) = h.open_questions.filter(|q| !q.trim().is_empty()) {
                s.push_str(&format!("Open questions: {}\n", quoted::line(q.trim())));
            }
            if !h.files.is_empty() {
                let files: Vec<String> = h.files.iter().map(|f| quoted::line(f)).collect();
                s.push_str(&format!("Files: {}\n", files.join(", ")));
            }
            vec![s]
        }
        None => Vec::new(),
    };
    if let Some(section) = last_session(memory, &p.slug)? {
        // Right after the open blockers: where the last session stopped matters more than
        // older decisions.
        sections.insert(1, section);
    }
    sections.push(Section {
        name: "handover",
        heading: "## Last handover\n".into(),
        ids: vec![0; handover_items.len()],
        items: handover_items,
        over_cap: 0,
        how_to_get: "get_last_handover".into(),
    });
    let topics = locks::topics(memory, &p.slug)?;
    sections.push(Section {
        name: "context_locks",
        heading: "## Context locks (recall_context TOPIC for the text)\n".into(),
        items: topics
            .iter()
            .map(|l| format!("- {} (v{}, {})\n", quoted::line(&l.topic), l.version, l.created))
            .collect(),
        ids: vec![0; topics.len()],
        over_cap: 0,
        how_to_get: "recall_context without a topic".into(),
    });
    sections.push(Section {
        name: "summaries",
        heading: "## Recent summaries\n".into(),
        over_cap: left_out(Kind::Summary, None, summaries.len(), more_s)?,
        items: summaries.iter().map(line).collect(),
        ids: summaries.iter().map(|e| e.id).collect(),
        how_to_get: "list_memory with kind \"summary\"".into(),
    });
    sections.extend(digests(memory, &p.slug, caps.carried)?);
    sections.push(Section {
        name: "early_decisions",
        heading: "## Early decisions (titles only; search or list_memory for the text)\n".into(),
        over_cap: if early.is_empty() { 0 } else { decisions_left },
        items: early.iter().map(|e| format!("- (#{}) {}\n", e.id, quoted::line(&e.title))).collect(),
        // Titles only: recall may still hand a session the text.
        ids: vec![0; early.len()],
        how_to_get: "list_memory with kind \"decision\"".into(),
    });
    sections.push(Section {
        name: "project_index",
        heading: "## Other projects (read-only index)\n".into(),
        items: others.iter().map(index_line).collect(),
        ids: vec![0; others.len()],
        over_cap: 0,
        how_to_get: "list_projects".into(),
    });
    Ok(sections)
}

fn index_line(p: &Project) -> String {
    let line = quoted::line(&p.description);
    let mut desc: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        desc.push('…');
    }
    let paused = if p.status == ProjectStatus::Paused { " (paused)" } else { "" };
    let s = &p.stats;
    let desc = if desc.is_empty() { String::new() } else { format!(" {desc}.") };
    format!(
        "- **{}**{paused}:{desc} {} decisions, {} open blockers, {} context locks.\n",
        p.slug, s.decisions, s.open_blockers, s.context_locks
    )
}

fn header(p: &Project, description: &str) -> String {
    let mut h = format!(
        "# Project: {}\n_{}_\n- Slug: {}\n- Status: {}\n",
        quoted::line(&p.name),
        quoted::FRAME,
        p.slug,
        p.status
    );
    if let Some(url) = &p.repo_url {
        h.push_str(&format!("- Repo: {}\n", quoted::line(url)));
    }
    for cp in &p.code_paths {
        h.push_str(&format!("- Code: {}\n", quoted::line(&cp.path)));
    }
    if !description.is_empty() {
        h.push_str(&format!("\n## Description\n{}\n", quoted::line(description)));
    }
    h
}

fn fit(p: &Project, sections: Vec<Section>, budget: usize) -> Preamble {
    let room = budget - NOTE_RESERVE;
    // The header always goes in; a description too long for the budget is shortened.
    let mut description = p.description.trim().to_owned();
    let mut head = header(p, &description);
    while count_tokens(&head) > room / 2 && !description.is_empty() {
        let keep = description.chars().count() * 2 / 3;
        description = description.chars().take(keep).collect::<String>();
        head = header(p, &format!("{description}…"));
    }
    let mut used = count_tokens(&head);
    let mut chosen: Vec<(usize, usize)> = vec![(0, 0); sections.len()];
    let mut full = false;
    for (i, s) in sections.iter().enumerate() {
        if full {
            break;
        }
        let heading = count_tokens(&s.heading) + 1;
        for item in &s.items {
            let cost = count_tokens(item) + if chosen[i].0 == 0 { heading } else { 0 };
            if used + cost > room {
                full = true;
                break;
            }
            used += cost;
            chosen[i].0 += 1;
        }
    }
    loop {
        let text = render(&head, &sections, &chosen, budget);
        let tokens = count_tokens(&text);
        let last = chosen.iter().rposition(|c| c.0 > 0);
        if tokens <= budget || last.is_none() {
            let reports = sections
                .iter()
                .zip(&chosen)
                .map(|(s, c)| SectionReport {
                    name: s.name.to_owned(),
                    included: c.0,
                    omitted: s.items.len() - c.0 + s.over_cap,
                    how_to_get: s.how_to_get.clone(),
                })
                .collect();
            let ids = sections
                .iter()
                .zip(&chosen)
                .flat_map(|(s, c)| s.ids.iter().take(c.0).copied())
                .filter(|id| *id > 0)
                .collect();
            return Preamble {
                project: p.slug.clone(),
                text,
                tokens,
                budget_tokens: budget,
                sections: reports,
                ids,
            };
        }
        // Tokenization is not perfectly additive; drop the lowest-priority item and retry.
        if let Some(i) = last {
            chosen[i].0 -= 1;
        }
    }
}

fn render(head: &str, sections: &[Section], chosen: &[(usize, usize)], budget: usize) -> String {
    let mut text = head.to_owned();
    let mut left_out = Vec::new();
    for (s, c) in sections.iter().zip(chosen) {
        if c.0 > 0 {
            text.push('\n');
            text.push_str(&s.heading);
            for item in &s.items[..c.0] {
                text.push_str(item);
            }
        }
        let omitted = s.items.len() - c.0 + s.over_cap;
        if omitted > 0 {
            left_out.push(format!("{omitted} {} ({})", s.name.replace('_', " "), s.how_to_get));
        }
    }
    if !left_out.is_empty() {
        text.push_str(&format!("\n_Left out to fit {budget} tokens: {}._\n", left_out.join("; ")));
    }
    text
}

mod older;
use older::{digests, last_session};

#[cfg(test)]
mod tests;
