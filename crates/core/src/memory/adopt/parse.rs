//! The clients' memory files read as sections: frontmatter, headings, Codex's rollout
//! header, and instruction files without Mooring's own block.

use crate::memory::instructions;

/// A section's title, its text and the line it starts on (1-based).
pub(super) type Section = (String, String, usize);

/// Sections with no type of their own.
pub(super) fn untyped(sections: Vec<Section>) -> Vec<(Section, Option<String>)> {
    sections.into_iter().map(|s| (s, None)).collect()
}

/// A Claude Code topic file: frontmatter (`name`, `description`, `type` at the top or
/// under `metadata:`) and its text.
pub(super) fn topic(text: &str, file: &str) -> Option<(Section, Option<String>)> {
    let (front, rest) = frontmatter(text);
    let get = |key: &str| {
        front
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim_matches(|c| c == '"' || c == '\'').to_owned())
    };
    let title =
        get("description").or_else(|| get("name")).unwrap_or_else(|| file.trim_end_matches(".md").to_owned());
    Some(((title, rest.trim().to_owned(), 1), get("type")))
}

/// The `key: value` lines of a leading `---` block (nested keys by their own name) and
/// the text after it.
pub(super) fn frontmatter(text: &str) -> (Vec<(String, String)>, &str) {
    let text = text.trim_start_matches('\u{feff}');
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return (Vec::new(), text);
    };
    let Some(end) = rest.find("\n---") else { return (Vec::new(), text) };
    let pairs = rest[..end]
        .lines()
        .filter_map(|l| l.trim().split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let after = &rest[end + 4..];
    (pairs, after.strip_prefix('\n').or_else(|| after.strip_prefix("\r\n")).unwrap_or(after))
}

/// The working directory a Codex rollout summary names in its header (`cwd:` or
/// `rollout_cwd:`).
pub(super) fn codex_cwd(text: &str) -> Option<String> {
    text.lines().take(40).find_map(|l| {
        let l = l.trim().trim_start_matches("- ");
        let v = l.strip_prefix("cwd:").or_else(|| l.strip_prefix("rollout_cwd:"))?;
        Some(v.trim().to_owned()).filter(|v| v.starts_with('/'))
    })
}

pub(super) fn title_of(text: &str, file: &str) -> String {
    let (front, rest) = frontmatter(text);
    front
        .iter()
        .find(|(k, _)| k == "description")
        .map(|(_, v)| v.clone())
        .or_else(|| {
            rest.lines()
                .find_map(|l| l.strip_prefix('#').map(|h| h.trim_start_matches('#').trim().to_owned()))
        })
        .unwrap_or_else(|| file.trim_end_matches(".md").to_owned())
}

pub(super) fn body(text: &str) -> String {
    frontmatter(text).1.trim().to_owned()
}

/// A Markdown file cut at its headings (`#` to `###`): each heading with the text under
/// it; text before the first heading under the file's name.
pub(super) fn sections(text: &str, file: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut title = file.to_owned();
    let mut content = String::new();
    let mut fence = false;
    let mut start = 1;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        let heading = (!fence)
            .then(|| {
                line.strip_prefix("### ")
                    .or_else(|| line.strip_prefix("## "))
                    .or_else(|| line.strip_prefix("# "))
            })
            .flatten();
        if let Some(h) = heading {
            if !content.trim().is_empty() {
                out.push((title.clone(), std::mem::take(&mut content), start));
            }
            content.clear();
            title = h.trim().to_owned();
            start = n + 1;
        } else {
            content.push_str(line);
            content.push('\n');
        }
    }
    if !content.trim().is_empty() {
        out.push((title, content, start));
    }
    out
}

/// An instruction file without the block Mooring itself writes into it (`mooring export
/// --agents-md`): what came from Mooring does not come back as new memory.
pub(super) fn without_own_block(text: &str) -> String {
    let Some(start) = text.find(instructions::BEGIN) else { return text.to_owned() };
    // The block's lines stay as empty lines, so a section's line is the file's line.
    let blank = |cut: &str| "\n".repeat(cut.matches('\n').count());
    match text[start..].find(instructions::END) {
        Some(end) => {
            let stop = start + end + instructions::END.len();
            format!("{}{}{}", &text[..start], blank(&text[start..stop]), &text[stop..])
        }
        None => text[..start].to_owned(),
    }
}
