//! A captured session as people and search read it: its title, its Markdown, and every
//! text in it passed through the secret scanner before it is stored.

use super::record::{
    CARRY_CHARS, COMMAND_CHARS, FileAction, MESSAGE_CHARS, Pending, REQUEST_CHARS, SessionRecord, Todo, trim,
};
use super::text::one_line;

impl SessionRecord {
    /// Every text the record holds passed through the secret scanner over its whole
    /// length (and `<private>` spans dropped), then cut to what is shown; what was taken
    /// out. Running it again on its own output changes nothing.
    pub fn scrub(&mut self) -> crate::redact::Redactions {
        let mut found = crate::redact::Redactions::default();
        let mut keep = |text: &str, max: usize| trim(&found.clean(text), max);
        for r in &mut self.requests {
            *r = keep(r, REQUEST_CHARS);
        }
        for c in &mut self.commands {
            c.command = trim(&one_line(&keep(&c.command, usize::MAX)), COMMAND_CHARS);
        }
        for t in &mut self.todos {
            t.subject = keep(&t.subject, REQUEST_CHARS);
            if let Some(id) = &mut t.id {
                *id = keep(id, 64);
            }
        }
        for f in &mut self.files {
            f.path = keep(&f.path, REQUEST_CHARS);
            if let Some(from) = &mut f.from {
                *from = keep(from, REQUEST_CHARS);
            }
        }
        for c in &mut self.commits {
            c.subject = keep(&c.subject, REQUEST_CHARS);
        }
        for m in [&mut self.last_message, &mut self.context_carry, &mut self.model, &mut self.ended]
            .into_iter()
            .flatten()
        {
            *m = keep(m, CARRY_CHARS);
        }
        if let Some(m) = &mut self.last_message {
            *m = trim(m, MESSAGE_CHARS);
        }
        for p in self.pending.values_mut() {
            match p {
                Pending::Command { command, .. } => *command = keep(command, usize::MAX),
                Pending::TaskCreate { subject } => *subject = keep(subject, REQUEST_CHARS),
                Pending::File { path, .. } => *path = keep(path, REQUEST_CHARS),
                Pending::Patch { changes, .. } => {
                    for c in changes {
                        c.path = keep(&c.path, REQUEST_CHARS);
                    }
                }
            }
        }
        found
    }

    /// A one-line title: the first request.
    pub fn title(&self) -> String {
        match self.requests.first() {
            Some(r) => format!("Session: {}", trim(r, 90)),
            None => format!("Session in {}", self.client),
        }
    }

    /// The record for people and search, in Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let mut line = |label: &str, text: String| {
            // One line per field: a line break in captured text cannot start a section.
            let text = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                out.push_str(&format!("**{label}:** {text}\n"));
            }
        };
        let quoted = |v: &[String]| v.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(" … ");
        line("Asked", quoted(&self.requests));
        let files: Vec<String> = self
            .files
            .iter()
            .map(|f| {
                let verb = match f.action {
                    FileAction::Created => "created",
                    FileAction::Written => "wrote",
                    FileAction::Edited => "edited",
                    FileAction::Deleted => "deleted",
                    FileAction::Renamed => match &f.from {
                        Some(from) => return format!("renamed {from} → {}{}", f.path, by(f.subagent)),
                        None => "renamed",
                    },
                };
                format!("{verb} {}{}", f.path, by(f.subagent))
            })
            .collect();
        line("Changed", files.join(", "));
        let commands: Vec<String> = self
            .commands
            .iter()
            .map(|c| format!("`{}`{}{}", c.command, if c.failed { " (failed)" } else { "" }, by(c.subagent)))
            .collect();
        let more = self.commands_total.saturating_sub(self.commands.len());
        let tail = if more > 0 { format!(" (+{more} earlier)") } else { String::new() };
        line("Ran", if commands.is_empty() { String::new() } else { commands.join(", ") + &tail });
        let commits: Vec<String> =
            self.commits.iter().map(|c| format!("{} \"{}\"", c.id, c.subject)).collect();
        line("Committed", commits.join(", "));
        let (open, done): (Vec<&Todo>, Vec<&Todo>) = self.todos.iter().partition(|t| t.open());
        let list = |v: &[&Todo]| v.iter().map(|t| t.subject.clone()).collect::<Vec<_>>().join("; ");
        line("Still open", list(&open));
        line("Done", list(&done));
        let tools: Vec<String> = self.mooring_tools.iter().map(|(t, n)| format!("{t} ×{n}")).collect();
        line("Mooring tools", tools.join(", "));
        line("Before compaction", self.context_carry.clone().unwrap_or_default());
        line("Last word", self.last_message.as_ref().map(|m| format!("\"{m}\"")).unwrap_or_default());
        let mut facts = vec![self.client.clone()];
        facts.extend(self.model.clone());
        if let (Some(a), Some(b)) = (&self.started_at, &self.last_at) {
            facts.push(format!("{a} to {b}"));
        }
        if self.compactions > 0 {
            facts.push(format!("compacted {}×", self.compactions));
        }
        if let Some(why) = &self.ended {
            facts.push(format!("ended ({why})"));
        }
        line("Session", facts.join(" · "));
        out
    }
}

/// The mark of what a subagent did.
fn by(subagent: bool) -> &'static str {
    if subagent { " (subagent)" } else { "" }
}
