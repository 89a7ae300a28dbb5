//! A captured session as people and search read it: its title, its Markdown, and every
//! text in it passed through the secret scanner before it is stored.

use super::record::{
    CARRY_CHARS, COMMAND_CHARS, FileAction, MESSAGE_CHARS, REQUEST_CHARS, SessionRecord, Todo, trim,
};
use super::text::one_line;

impl SessionRecord {
    /// Every text the record holds passed through the secret scanner over its whole
    /// length (and `<private>` spans dropped), then cut to what is shown; what was taken
    /// out. Running it again on its own output changes nothing.
    pub fn scrub(&mut self) -> crate::guard::redact::Redactions {
        let mut found = crate::guard::redact::Redactions::default();
        // Every string of the record, whatever field holds it (a field added later is
        // scanned too), but for the few that are Mooring's own (the key, hashes).
        if let Ok(mut value) = serde_json::to_value(&*self) {
            found.clean_json_whole(&mut value, OWN);
            if let Ok(clean) = serde_json::from_value::<SessionRecord>(value) {
                *self = clean;
            }
        }
        self.cut();
        found
    }

    /// Every shown text cut to its length; a command shown on one line.
    fn cut(&mut self) {
        for r in &mut self.requests {
            *r = trim(r, REQUEST_CHARS);
        }
        for c in &mut self.commands {
            c.command = trim(&one_line(&c.command), COMMAND_CHARS);
        }
        for t in &mut self.todos {
            t.subject = trim(&t.subject, REQUEST_CHARS);
        }
        for f in &mut self.files {
            f.path = trim(&f.path, REQUEST_CHARS);
            if let Some(from) = &mut f.from {
                *from = trim(from, REQUEST_CHARS);
            }
        }
        for c in &mut self.commits {
            c.subject = trim(&c.subject, REQUEST_CHARS);
        }
        for (m, max) in [
            (&mut self.last_message, MESSAGE_CHARS),
            (&mut self.context_carry, CARRY_CHARS),
            (&mut self.model, 100),
            (&mut self.ended, 60),
        ] {
            if let Some(m) = m {
                *m = trim(m, max);
            }
        }
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
            // One line per field, quoted: captured text cannot start a section or close a
            // wrapper.
            let text = crate::guard::quoted::line(text.trim());
            if !text.is_empty() {
                out.push_str(&format!("**{label}:** {text}\n"));
            }
        };
        let quoted = |v: &[String]| v.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(" … ");
        line("Asked", quoted(&self.requests));
        let files: Vec<String> = self
            .files
            .iter()
            .filter(|f| f.action != FileAction::SeenByGit)
            .map(|f| {
                let verb = match f.action {
                    FileAction::Created => "created",
                    FileAction::Written => "wrote",
                    FileAction::Edited => "edited",
                    FileAction::Deleted => "deleted",
                    FileAction::SeenByGit => "changed",
                    FileAction::Renamed => match &f.from {
                        Some(from) => return format!("renamed {from} → {}{}", f.path, by(f.subagent)),
                        None => "renamed",
                    },
                };
                format!("{verb} {}{}", f.path, by(f.subagent))
            })
            .collect();
        line("Changed", files.join(", "));
        // Git cannot tell a command's change from the person's own: said plainly.
        let seen: Vec<&str> = self
            .files
            .iter()
            .filter(|f| f.action == FileAction::SeenByGit)
            .map(|f| f.path.as_str())
            .collect();
        line("Also changed during its turns (seen by git; a command's doing or yours)", seen.join(", "));
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
        line("Held", self.held.join(", "));
        if self.conflicts > 0 {
            let s = if self.conflicts == 1 { "" } else { "s" };
            line("Met", format!("{} write{s} into what another live session held", self.conflicts));
        }
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

/// Fields that are Mooring's own values, not text from the session. Object keys are
/// Mooring's (field names, call ids that match results, subagent file names) or tool
/// names, and stay as they are.
const OWN: &[&str] = &["key", "client", "transcript", "started_at", "last_at", "request_marker", "seen"];
