//! A captured session as people and search read it: its title, its Markdown, and every
//! text in it passed through the secret scanner before it is stored.

use super::record::{FileAction, SessionRecord, Todo, trim};

impl SessionRecord {
    /// Every text the record holds passed through the secret scanner (and `<private>`
    /// spans dropped); what was taken out.
    pub fn scrub(&mut self) -> crate::redact::Redactions {
        let mut found = crate::redact::Redactions::default();
        for r in &mut self.requests {
            *r = found.clean(r);
        }
        for c in &mut self.commands {
            c.command = found.clean(&c.command);
        }
        for t in &mut self.todos {
            t.subject = found.clean(&t.subject);
        }
        for f in &mut self.files {
            f.path = found.clean(&f.path);
            if let Some(from) = &mut f.from {
                *from = found.clean(from);
            }
        }
        for c in &mut self.commits {
            c.subject = found.clean(&c.subject);
        }
        if let Some(m) = &mut self.last_message {
            *m = found.clean(m);
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
                        Some(from) => return format!("renamed {from} → {}", f.path),
                        None => "renamed",
                    },
                };
                format!("{verb} {}", f.path)
            })
            .collect();
        line("Changed", files.join(", "));
        let commands: Vec<String> = self
            .commands
            .iter()
            .map(|c| format!("`{}`{}", c.command, if c.failed { " (failed)" } else { "" }))
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
