//! What the person types on the phone, read as the commands docs/remote.md lists: short, slug-first
//! (`leader-election`, `leader-election what's the etcd status?`), the command words
//! reserved so a slug never shadows one.

/// One thing the person asked for from the phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `help`: what can be typed.
    Help,
    /// `projects` / `projeler` (`projects 2` for the next page): the dashboard.
    Projects {
        /// The page, from 1.
        page: usize,
    },
    /// `SLUG` (or `project SLUG` / `proje SLUG`): one project.
    Project {
        /// The project.
        slug: String,
    },
    /// `SLUG some message`: for the project's live session.
    Message {
        /// The project.
        slug: String,
        /// What to hand the session.
        text: String,
    },
    /// `decide SLUG …`: record a decision.
    Decide {
        /// The project.
        slug: String,
        /// The decision.
        text: String,
    },
    /// `blocker SLUG …`: record a blocker.
    Blocker {
        /// The project.
        slug: String,
        /// What blocks.
        text: String,
    },
    /// `resolve SLUG #N [how]`: close blocker N.
    Resolve {
        /// The project.
        slug: String,
        /// The blocker's id.
        id: i64,
        /// How it was resolved.
        note: Option<String>,
    },
    /// `archive SLUG`.
    Archive {
        /// The project.
        slug: String,
    },
    /// `resume SLUG`.
    Resume {
        /// The project.
        slug: String,
    },
    /// `away`: questions and prompts come to the phone.
    Away,
    /// `back`: at the desk again.
    Back,
    /// `/start CODE` or `pair CODE`: the pairing code `mooring remote add` printed.
    Pair {
        /// The code as typed.
        code: String,
    },
}

impl Command {
    /// The project a command is about, if any.
    pub fn slug(&self) -> Option<&str> {
        match self {
            Command::Project { slug }
            | Command::Message { slug, .. }
            | Command::Decide { slug, .. }
            | Command::Blocker { slug, .. }
            | Command::Resolve { slug, .. }
            | Command::Archive { slug }
            | Command::Resume { slug } => Some(slug),
            _ => None,
        }
    }
}

/// The words that open a command; none can be a project's slug
/// (`crate::projects::slug::RESERVED` holds them all).
pub const WORDS: &[&str] = &[
    "help", "projects", "projeler", "project", "proje", "decide", "blocker", "resolve", "archive", "resume",
    "away", "back", "start", "pair",
];

/// The help text: one line per command, short enough for a phone.
pub const HELP: &str = "projects: every project at a glance (projects 2: the next page)\n\
SLUG: one project\n\
SLUG message: to its live session\n\
decide SLUG text · blocker SLUG text\n\
resolve SLUG #N\n\
archive SLUG · resume SLUG\n\
away · back";

/// Read a message. `is_project` says whether a word is a known project's slug (checked
/// first, as docs/remote.md routes them); the error is a sentence for the person.
pub fn parse(text: &str, is_project: impl Fn(&str) -> bool) -> Result<Command, String> {
    let text = strip_address(text.trim());
    let (head, rest) = match text.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (text, ""),
    };
    // Telegram's menu sends `/projects` or `/projects@the_bot`.
    let word = head.trim_start_matches('/');
    let word = word.split_once('@').map_or(word, |(w, _)| w).to_lowercase();
    if word.is_empty() {
        return Err(format!("Nothing to do. {}", try_help()));
    }
    if is_project(&word) {
        return Ok(if rest.is_empty() {
            Command::Project { slug: word }
        } else {
            Command::Message { slug: word, text: rest.to_owned() }
        });
    }
    let slug_then = |what: &str| -> Result<(String, String), String> {
        let (slug, tail) = match rest.split_once(char::is_whitespace) {
            Some((s, t)) => (s.to_lowercase(), t.trim().to_owned()),
            None => (rest.to_lowercase(), String::new()),
        };
        if slug.is_empty() {
            return Err(format!("Which project? Type `{word} SLUG{what}`."));
        }
        if !is_project(&slug) {
            return Err(not_found(&slug));
        }
        Ok((slug, tail))
    };
    let with_text = |what: &str| -> Result<(String, String), String> {
        let (slug, tail) = slug_then(what)?;
        if tail.is_empty() {
            return Err(format!("What should it say? Type `{word} {slug}{what}`."));
        }
        Ok((slug, tail))
    };
    match word.as_str() {
        "help" => Ok(Command::Help),
        "projects" | "projeler" => match rest {
            "" => Ok(Command::Projects { page: 1 }),
            n => {
                n.parse::<usize>().ok().filter(|&n| n >= 1).map(|page| Command::Projects { page }).ok_or_else(
                    || format!("Which page? Type `{word}` for the first, `{word} 2` for the next."),
                )
            }
        },
        "project" | "proje" => slug_then("").map(|(slug, _)| Command::Project { slug }),
        "decide" => with_text(" the decision").map(|(slug, text)| Command::Decide { slug, text }),
        "blocker" => with_text(" what blocks").map(|(slug, text)| Command::Blocker { slug, text }),
        "resolve" => {
            let (slug, tail) = slug_then(" #N")?;
            let (n, note) = match tail.split_once(char::is_whitespace) {
                Some((n, note)) => (n, Some(note.trim().to_owned()).filter(|n| !n.is_empty())),
                None => (tail.as_str(), None),
            };
            let id = n.trim_start_matches('#').parse::<i64>().map_err(|_| {
                format!("Which blocker? Type `resolve {slug} #N` with the number `{slug}` shows.")
            })?;
            Ok(Command::Resolve { slug, id, note })
        }
        "archive" => slug_then("").map(|(slug, _)| Command::Archive { slug }),
        "resume" => slug_then("").map(|(slug, _)| Command::Resume { slug }),
        "away" => Ok(Command::Away),
        "back" => Ok(Command::Back),
        "start" | "pair" => Ok(Command::Pair { code: rest.to_owned() }),
        _ => Err(not_found(&word)),
    }
}

/// A Slack mention (`<@U0123> projects`) addresses the bot; the rest is the command.
fn strip_address(text: &str) -> &str {
    if text.starts_with("<@")
        && let Some(end) = text.find('>')
    {
        return text[end + 1..].trim_start();
    }
    text
}

fn try_help() -> &'static str {
    "Type `projects` to see them, `help` for the rest."
}

fn not_found(word: &str) -> String {
    let word: String = word.chars().take(64).collect();
    format!("No project or command `{word}`. {}", try_help())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(slug: &str) -> bool {
        ["leader-election", "ci"].contains(&slug)
    }

    #[test]
    fn a_slug_alone_opens_the_project_and_with_words_is_a_message_for_it() {
        assert_eq!(parse("leader-election", known), Ok(Command::Project { slug: "leader-election".into() }));
        assert_eq!(
            parse("  Leader-Election what's the etcd status? ", known),
            Ok(Command::Message { slug: "leader-election".into(), text: "what's the etcd status?".into() })
        );
        assert_eq!(parse("proje ci", known), Ok(Command::Project { slug: "ci".into() }));
    }

    #[test]
    fn seed_003s_commands_in_both_languages_from_a_menu_or_a_mention() {
        assert_eq!(parse("projects", known), Ok(Command::Projects { page: 1 }));
        assert_eq!(parse("projeler", known), Ok(Command::Projects { page: 1 }));
        assert_eq!(parse("/projects@mooring_bot", known), Ok(Command::Projects { page: 1 }));
        assert_eq!(parse("<@U0123ABC> projects", known), Ok(Command::Projects { page: 1 }));
        assert_eq!(parse("projects 3", known), Ok(Command::Projects { page: 3 }));
        assert!(parse("projects 0", known).unwrap_err().contains("`projects 2`"));
        assert_eq!(
            parse("decide ci we're on GitHub Actions", known),
            Ok(Command::Decide { slug: "ci".into(), text: "we're on GitHub Actions".into() })
        );
        assert_eq!(
            parse("blocker leader-election waiting on SRE", known),
            Ok(Command::Blocker { slug: "leader-election".into(), text: "waiting on SRE".into() })
        );
        assert_eq!(
            parse("resolve ci #12 certs came", known),
            Ok(Command::Resolve { slug: "ci".into(), id: 12, note: Some("certs came".into()) })
        );
        assert_eq!(
            parse("resolve ci 12", known),
            Ok(Command::Resolve { slug: "ci".into(), id: 12, note: None })
        );
        assert_eq!(parse("archive ci", known), Ok(Command::Archive { slug: "ci".into() }));
        assert_eq!(parse("resume ci", known), Ok(Command::Resume { slug: "ci".into() }));
        assert_eq!(parse("AWAY", known), Ok(Command::Away));
        assert_eq!(parse("back", known), Ok(Command::Back));
        assert_eq!(parse("/start 4821-9934", known), Ok(Command::Pair { code: "4821-9934".into() }));
        assert_eq!(parse("help", known), Ok(Command::Help));
    }

    #[test]
    fn what_cannot_be_done_says_what_to_type() {
        let no = |t: &str| parse(t, known).unwrap_err();
        assert!(no("decide").contains("decide SLUG the decision"), "{}", no("decide"));
        assert!(no("decide ci").contains("decide ci the decision"), "{}", no("decide ci"));
        assert!(no("decide nope we did").contains("No project or command `nope`"));
        assert!(no("resolve ci soon").contains("resolve ci #N"));
        assert!(no("frobnicate").contains("`projects`"));
        assert!(no("   ").contains("Nothing to do"));
    }

    #[test]
    fn every_command_word_is_a_reserved_slug() {
        for w in WORDS {
            assert!(crate::projects::slug::RESERVED.contains(w), "{w} is not reserved");
            assert!(crate::projects::slug::validate(w).is_err(), "{w}");
        }
    }
}
