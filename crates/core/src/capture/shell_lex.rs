//! A command line's simple commands as the shell would split them: quotes and escapes
//! respected (`grep "a|b" x > out` is one command writing `out`, and `echo '>' x` writes
//! nothing), at `;`, `|`, `||`, `&&`, `&`, parentheses and newlines, with each command's
//! output redirections apart from its words. A here-document's lines are text, not
//! commands. Splitting at the operators first and quoting after (as `shell_words` alone
//! does) lost every command with a quoted `|` or `;` in it, and read a quoted `>` as a
//! redirection.

/// One simple command: its words (quotes removed; input and descriptor redirections
/// left out) and the files its output is redirected into.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Simple {
    pub words: Vec<String>,
    pub redirects: Vec<String>,
}

/// Most commands read from one command line.
const MOST: usize = 50;

/// `command`'s simple commands, in order. A line with a quote left open is read up to
/// the command the quote opens in.
pub(super) fn simple_commands(command: &str) -> Vec<Simple> {
    let mut out = Vec::new();
    let mut until: Option<String> = None;
    for line in command.lines() {
        if let Some(end) = &until {
            if line.trim() == end {
                until = None;
            }
            continue;
        }
        until = here_document(line);
        Line::default().read(line, &mut out);
        if out.len() >= MOST {
            out.truncate(MOST);
            break;
        }
    }
    out
}

/// The word that ends a here-document `line` starts (`<<EOF`, `<<-'EOF'`), if any.
pub(super) fn here_document(line: &str) -> Option<String> {
    let (_, after) = line.split_once("<<")?;
    let after = after.strip_prefix('-').unwrap_or(after).trim_start();
    // `<<<` is a here-string, on the line itself.
    if after.starts_with('<') {
        return None;
    }
    let word: String = after
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// What the next word is.
#[derive(Default, PartialEq)]
enum Next {
    #[default]
    Word,
    /// The file an output redirection writes.
    Written,
    /// An input file, a here-document's end word: not the command's.
    Skipped,
}

/// The reading of one line.
#[derive(Default)]
struct Line {
    command: Simple,
    word: String,
    /// The word has begun (an empty quoted word is a word).
    begun: bool,
    /// Part of the word was quoted (`2'>'` is no descriptor).
    quoted: bool,
    next: Next,
}

impl Line {
    fn read(mut self, line: &str, out: &mut Vec<Simple>) {
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' => {
                    self.quote();
                    let Some(closed) = take_until(&mut chars, |c| c == '\'') else { return };
                    self.word.push_str(&closed);
                }
                '"' => {
                    self.quote();
                    let mut text = String::new();
                    loop {
                        match chars.next() {
                            None => return,
                            Some('"') => break,
                            Some('\\')
                                if chars.peek().is_some_and(|n| matches!(n, '"' | '\\' | '$' | '`')) =>
                            {
                                text.extend(chars.next());
                            }
                            Some(c) => text.push(c),
                        }
                    }
                    self.word.push_str(&text);
                }
                '\\' => {
                    self.quote();
                    self.word.extend(chars.next());
                }
                '#' if !self.begun => break,
                c if c.is_whitespace() => self.end_word(),
                ';' | '(' | ')' => self.end_command(out),
                '|' => {
                    chars.next_if_eq(&'|');
                    self.end_command(out);
                }
                '&' if chars.next_if_eq(&'&').is_some() => self.end_command(out),
                '&' if chars.peek() == Some(&'>') => {
                    chars.next();
                    chars.next_if_eq(&'>');
                    self.redirect(Next::Written);
                }
                '&' => self.end_command(out),
                '>' => {
                    // `N>`: the digits name a descriptor, not a word.
                    if !self.quoted && !self.word.is_empty() && self.word.bytes().all(|b| b.is_ascii_digit())
                    {
                        self.word.clear();
                        self.begun = false;
                    }
                    chars.next_if(|n| matches!(n, '>' | '|'));
                    if chars.next_if_eq(&'&').is_some() {
                        // `>&2`, `2>&1`: onto another descriptor.
                        while chars.next_if(|n| n.is_ascii_digit() || *n == '-').is_some() {}
                        self.end_word();
                    } else {
                        self.redirect(Next::Written);
                    }
                }
                '<' => {
                    while chars.next_if(|n| matches!(n, '<' | '-' | '&')).is_some() {}
                    self.redirect(Next::Skipped);
                }
                c => {
                    self.begun = true;
                    self.word.push(c);
                }
            }
        }
        self.end_command(out);
    }

    fn quote(&mut self) {
        self.begun = true;
        self.quoted = true;
    }

    fn redirect(&mut self, next: Next) {
        self.end_word();
        self.next = next;
    }

    fn end_word(&mut self) {
        if !self.begun {
            return;
        }
        let word = std::mem::take(&mut self.word);
        match std::mem::take(&mut self.next) {
            Next::Word => self.command.words.push(word),
            Next::Written => self.command.redirects.push(word),
            Next::Skipped => {}
        }
        self.begun = false;
        self.quoted = false;
    }

    fn end_command(&mut self, out: &mut Vec<Simple>) {
        self.end_word();
        self.next = Next::Word;
        let command = std::mem::take(&mut self.command);
        if !command.words.is_empty() || !command.redirects.is_empty() {
            out.push(command);
        }
    }
}

/// The characters up to `end` (taken, not returned); `None` if it never comes.
fn take_until(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    end: impl Fn(char) -> bool,
) -> Option<String> {
    let mut text = String::new();
    for c in chars.by_ref() {
        if end(c) {
            return Some(text);
        }
        text.push(c);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Simple, simple_commands};

    fn simple(words: &[&str], redirects: &[&str]) -> Simple {
        Simple {
            words: words.iter().map(|w| w.to_string()).collect(),
            redirects: redirects.iter().map(|w| w.to_string()).collect(),
        }
    }

    #[test]
    fn quotes_keep_operators_inside_words_and_redirections_come_apart() {
        assert_eq!(
            simple_commands(r#"grep -E "a|b; c" src/x.rs > out.txt && echo '>' done"#),
            [
                simple(&["grep", "-E", "a|b; c", "src/x.rs"], &["out.txt"]),
                simple(&["echo", ">", "done"], &[])
            ]
        );
        assert_eq!(
            simple_commands("sort < in.txt 2>&1 >>'my log.txt' | tee -a b.txt &> all.log"),
            [simple(&["sort"], &["my log.txt"]), simple(&["tee", "-a", "b.txt"], &["all.log"])]
        );
        assert_eq!(
            simple_commands("echo hi >&2; cat <<< 'rm x'"),
            [simple(&["echo", "hi"], &[]), simple(&["cat"], &[])]
        );
        assert_eq!(
            simple_commands("(cd src && rm x) & echo \"a \\\" b\""),
            [simple(&["cd", "src"], &[]), simple(&["rm", "x"], &[]), simple(&["echo", "a \" b"], &[])]
        );
        assert_eq!(simple_commands("ls # > not.txt"), [simple(&["ls"], &[])]);
        // A quote left open: the commands before it stand, the one it opens is not read.
        assert_eq!(simple_commands("rm a; echo 'oops > b"), [simple(&["rm", "a"], &[])]);
        assert_eq!(simple_commands("echo 2'>'x"), [simple(&["echo", "2>x"], &[])]);
    }
}
