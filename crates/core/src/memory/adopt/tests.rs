//! The clients' memory folders, laid out and worded as the pinned clients write them,
//! brought into a project. Claude Code's is recorded: the real 2.1.330 (`claude -p`
//! against `tests/e2e/lib/model_standin.py` with STANDIN_SCRIPT=remember, in the checkout
//! `/tmp/rec_mem/code/ledger.app`) wrote `tests/fixtures/claude-code-2.1.330-memory/` into
//! `~/.claude/projects/-tmp-rec-mem-code-ledger-app/memory/`, rewriting the frontmatter its
//! prompt asks for with fields of its own (`node_type`, `originSessionId`, `modified`).
//! Gemini CLI's is recorded too: the real 0.61 (STANDIN_SCRIPT=remember, same checkout)
//! wrote `tests/fixtures/gemini-cli-0.61-memory/MEMORY.md` as its private project memory
//! in `~/.gemini/tmp/ledger-app/memory/`, beside `.project_root` naming the checkout.
//! Codex 0.169's rollout summaries come from a background pipeline of model calls that
//! runs on idle rollouts; their header is laid out as its source writes it.

use std::path::{Path, PathBuf};

use super::{Findings, Homes, Source, claude_key, find, import, keep_own};
use crate::memory::{ListQuery, list};
use crate::{NewProject, Registry, Store};

/// Recorded from the real Claude Code 2.1.330 (see above).
const RECORDED_INDEX: &str = include_str!("../../../tests/fixtures/claude-code-2.1.330-memory/MEMORY.md");
const RECORDED_TOPIC: &str =
    include_str!("../../../tests/fixtures/claude-code-2.1.330-memory/project_money_in_cents.md");
/// Recorded from the real Gemini CLI 0.61 (see above).
const RECORDED_GEMINI: &str = include_str!("../../../tests/fixtures/gemini-cli-0.61-memory/MEMORY.md");
const SECRET: &str = "ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c";

struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    root: PathBuf,
    store: Store,
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let root = dir.path().join("work/ledger.app");
    std::fs::create_dir_all(&root).unwrap();
    let store = Store::open_in(&dir.path().join("data")).unwrap();
    Registry::new(&store).create(NewProject { name: "Ledger".into(), ..NewProject::default() }).unwrap();
    let memory = home.join(".claude/projects").join(claude_key(&root)).join("memory");
    write(&memory.join("MEMORY.md"), RECORDED_INDEX);
    write(&memory.join("project_money_in_cents.md"), RECORDED_TOPIC);
    write(
        &memory.join("feedback_testing.md"),
        "---\nname: integration-tests-first\ndescription: Run the ledger integration tests before any commit\n\
         metadata:\n  type: feedback\n---\n\nRun `make itest` before committing.\n\n**Why:** unit tests missed \
         the rounding bug.\n**How to apply:** every change under src/ledger/.\n",
    );
    write(
        &memory.join("project_deploy.md"),
        &format!(
            "---\nname: deploy-token\ndescription: How the staging deploy authenticates\ntype: project\n\
             originSessionId: 5b1d3c0e-9a7f-4e21-b6d4-c1a2f3e4d5c6\n---\n\nThe deploy uses GITHUB_TOKEN={SECRET}.\n"
        ),
    );
    let rollouts = home.join(".codex/memories/rollout_summaries");
    write(
        &rollouts.join("2026-11-20T10-00-00-Ab12-ledger_rounding.md"),
        &format!(
            "thread_id: 019a0000-0000-7000-8000-000000000001\nupdated_at: 2026-11-20T10:30:00Z\n\
             rollout_path: /home/u/.codex/sessions/2026/11/20/rollout.jsonl\ncwd: {}/src\ngit_branch: main\n\n\
             # Fixed rounding in the ledger export\n\nReusable knowledge:\n- amounts are cents (i64)\n",
            root.display()
        ),
    );
    write(
        &rollouts.join("2026-11-21T09-00-00-Cd34-other.md"),
        "thread_id: 019a0000-0000-7000-8000-000000000002\ncwd: /somewhere/else\n\n# Another repository\n\nNot ours.\n",
    );
    write(&home.join(".gemini/tmp/ledger-app/.project_root"), &root.display().to_string());
    write(&home.join(".gemini/tmp/ledger-app/memory/MEMORY.md"), RECORDED_GEMINI);
    // Another checkout's memory, which must not come in.
    write(&home.join(".gemini/tmp/other/.project_root"), "/somewhere/else");
    write(&home.join(".gemini/tmp/other/memory/MEMORY.md"), "## Not ours\n- Elsewhere.\n");
    write(
        &root.join("AGENTS.md"),
        "# Ledger\n\nUse `cargo nextest`.\n\n<!-- mooring:begin (managed by Mooring) -->\n## Decisions\n- From \
         Mooring itself\n<!-- mooring:end -->\n\n## Style\n\nNo unwrap in library code.\n",
    );
    World { _dir: dir, home, root, store }
}

impl World {
    fn homes(&self) -> Homes {
        Homes {
            claude: self.home.join(".claude"),
            codex: self.home.join(".codex"),
            gemini: self.home.join(".gemini"),
        }
    }

    fn find(&self, source: Source) -> Findings {
        find(&self.homes(), source, std::slice::from_ref(&self.root), &self.home)
    }

    fn notes(&self) -> Vec<crate::memory::Entry> {
        let q = ListQuery { kind: Some("note".into()), limit: Some(100), ..ListQuery::default() };
        list(&self.store, "ledger", &q).unwrap().entries
    }
}

#[test]
fn claude_topic_files_come_in_once_each_and_the_index_does_not() {
    let w = world();
    let findings = w.find(Source::ClaudeMemory);
    let found = &findings.found;
    let titles: Vec<&str> = found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Run the ledger integration tests before any commit",
            "How the staging deploy authenticates",
            "Ledger amounts are integer cents, never floats"
        ]
    );
    assert_eq!(found[2].kind.as_deref(), Some("project"));
    assert_eq!(found[2].date.as_deref(), Some("2026-11-27"), "the client's own `modified` stamp");
    assert!(!found[2].content.contains("originSessionId") && found[2].content.starts_with("Ledger amounts"));
    assert_eq!(found[0].kind.as_deref(), Some("feedback"));
    assert_eq!(found[1].kind.as_deref(), Some("project"), "the older top-level type");
    let files_before = std::fs::read_to_string(
        w.home.join(".claude/projects").join(claude_key(&w.root)).join("memory/project_deploy.md"),
    )
    .unwrap();
    let done = import(&w.store, "ledger", &findings).unwrap();
    assert_eq!((done.added, done.unchanged, done.redacted), (3, 0, 1), "{done:?}");
    let again = import(&w.store, "ledger", &w.find(Source::ClaudeMemory)).unwrap();
    assert_eq!((again.added, again.unchanged), (0, 3), "idempotent: {again:?}");
    let notes = w.notes();
    assert_eq!(notes.len(), 3);
    assert!(notes.iter().all(|n| !n.content.contains("eb380fbe")), "the client's session id is kept nowhere");
    let deploy = notes.iter().find(|n| n.title.starts_with("How the staging")).unwrap();
    assert!(!deploy.content.contains(SECRET), "{}", deploy.content);
    assert!(deploy.content.contains("_From Claude Code's memory (~/.claude/projects/"), "{}", deploy.content);
    assert!(deploy.tags.contains(&"claude-memory".to_owned()) && deploy.tags.contains(&"project".to_owned()));
    let after = std::fs::read_to_string(
        w.home.join(".claude/projects").join(claude_key(&w.root)).join("memory/project_deploy.md"),
    )
    .unwrap();
    assert_eq!(files_before, after, "nothing in the client's files changes");
}

#[test]
fn a_changed_memory_supersedes_its_earlier_import() {
    let w = world();
    import(&w.store, "ledger", &w.find(Source::ClaudeMemory)).unwrap();
    let file = w.home.join(".claude/projects").join(claude_key(&w.root)).join("memory/feedback_testing.md");
    let text = std::fs::read_to_string(&file).unwrap().replace("make itest", "make itest-all");
    std::fs::write(&file, text).unwrap();
    let done = import(&w.store, "ledger", &w.find(Source::ClaudeMemory)).unwrap();
    assert_eq!((done.added, done.unchanged, done.superseded), (1, 2, 1), "{done:?}");
    let notes = w.notes();
    let old = notes.iter().find(|n| n.content.contains("`make itest` ")).unwrap();
    let new = notes.iter().find(|n| n.content.contains("make itest-all")).unwrap();
    assert_eq!(old.superseded_by, Some(new.id), "kept, superseded");
}

#[test]
fn codex_summaries_of_this_checkout_gemini_memory_and_instruction_files_come_in() {
    let w = world();
    let codex = w.find(Source::CodexMemory);
    assert_eq!(codex.found.len(), 1, "only the rollout whose cwd is in the checkout: {codex:?}");
    assert_eq!(codex.found[0].title, "Fixed rounding in the ledger export");
    let gemini = w.find(Source::GeminiMemory);
    let titles: Vec<&str> = gemini.found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(titles, ["Money", "Releases"]);
    assert!(gemini.found[0].content.contains("integer cents"), "{gemini:?}");
    let agents = w.find(Source::Instructions);
    let titles: Vec<&str> = agents.found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(titles, ["Ledger", "Style"], "Mooring's own block stays out");
    assert_eq!(agents.found[1].line, 10, "the file's own line, Mooring's block counted");
    assert!(agents.found.iter().all(|f| !f.content.contains("From Mooring itself")));
    for found in [codex, gemini, agents] {
        import(&w.store, "ledger", &found).unwrap();
        assert_eq!(import(&w.store, "ledger", &found).unwrap().added, 0);
    }
    assert_eq!(w.notes().len(), 5);
    assert!(w.notes().iter().all(|n| n.tags.contains(&"imported".to_owned())));
    // Each says it was imported, and from which file, never the person's.
    let notes = w.notes();
    assert!(notes.iter().all(|n| n.author == Some(crate::model::Author::Import)), "{notes:?}");
    let agents = notes.iter().find(|n| n.title == "Style").unwrap();
    assert_eq!(agents.source.as_deref(), Some("AGENTS.md"));
    let said = crate::guard::quoted::provenance("note", agents.author, None, false, agents.source.as_deref());
    assert_eq!(said, "imported from AGENTS.md");
}

#[test]
fn a_source_name_is_checked() {
    assert_eq!(Source::parse("source", "claude-memory").unwrap(), Source::ClaudeMemory);
    let e = Source::parse("source", "cursor-memory").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("source"));
    assert!(e.message.contains("claude-memory, codex-memory"), "{}", e.message);
    // The folder the recorded Claude Code named for its checkout.
    assert_eq!(claude_key(Path::new("/tmp/rec_mem/code/ledger.app")), "-tmp-rec-mem-code-ledger-app");
}

#[test]
fn the_hub_brings_every_source_in_only_when_the_person_turned_it_on() {
    let w = world();
    let reg = Registry::new(&w.store);
    reg.create(NewProject {
        name: "Ledger App".into(),
        code_paths: vec![w.root.to_string_lossy().into_owned()],
        ..NewProject::default()
    })
    .unwrap();
    assert!(super::import_all(&w.store, &w.store, &w.homes(), &w.home).unwrap().is_empty(), "off by default");
    crate::settings::Setting::ImportClientsMemory.set(&w.store, "1").unwrap();
    let done = super::import_all(&w.store, &w.store, &w.homes(), &w.home).unwrap();
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(done[0].0, "ledger-app");
    // Three of Claude Code's, one of Codex's, two of Gemini CLI's, two of AGENTS.md.
    assert_eq!(done[0].1.added, 8, "{done:?}");
    let q = ListQuery { limit: Some(100), ..ListQuery::default() };
    let tags: std::collections::BTreeSet<String> =
        list(&w.store, "ledger-app", &q).unwrap().entries.into_iter().flat_map(|e| e.tags).collect();
    for source in ["claude-memory", "codex-memory", "gemini-memory", "instructions"] {
        assert!(tags.contains(source), "{source} missing from {tags:?}");
    }
    assert!(
        super::import_all(&w.store, &w.store, &w.homes(), &w.home).unwrap().is_empty(),
        "nothing new the second time"
    );
}

#[cfg(unix)]
#[test]
fn links_out_of_the_checkout_or_the_memory_folder_are_skipped_and_named() {
    let w = world();
    let outside = w.home.join(".bash_history");
    write(&outside, "export AWS_PROFILE=prod\ncurl -u admin:hunter2 https://intranet\n");
    std::fs::remove_file(w.root.join("AGENTS.md")).unwrap();
    std::os::unix::fs::symlink("../../home/.bash_history", w.root.join("AGENTS.md")).unwrap();
    // A link that stays inside the checkout is read.
    write(&w.root.join("docs/claude.md"), "## Inside\n\nKept.\n");
    std::os::unix::fs::symlink("docs/claude.md", w.root.join("CLAUDE.md")).unwrap();
    let memory = w.home.join(".claude/projects").join(claude_key(&w.root)).join("memory");
    write(
        &w.home.join(".claude/projects/-other/memory/secret.md"),
        "---\nname: other\n---\nOther project.\n",
    );
    std::os::unix::fs::symlink("../../-other/memory/secret.md", memory.join("zz_other.md")).unwrap();

    let agents = w.find(Source::Instructions);
    let titles: Vec<&str> = agents.found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(titles, ["Inside"], "{agents:?}");
    assert_eq!(agents.skipped.len(), 1, "{:?}", agents.skipped);
    assert!(agents.skipped[0].starts_with("AGENTS.md: a link to a file outside"), "{:?}", agents.skipped);
    let claude = w.find(Source::ClaudeMemory);
    assert!(claude.found.iter().all(|f| !f.content.contains("Other project")), "{claude:?}");
    assert!(claude.skipped.iter().any(|s| s.contains("zz_other.md")), "{:?}", claude.skipped);
    let done = import(&w.store, "ledger", &agents).unwrap();
    assert_eq!(done.added, 1);
    assert!(w.notes().iter().all(|n| !n.content.contains("hunter2")));
}

#[test]
fn a_bad_section_is_skipped_with_its_line_and_the_rest_comes_in() {
    let w = world();
    write(&w.root.join("AGENTS.md"), "# One\n\nfine\n\n## Two\n\nbad \0 byte\n\n## Three\n\nalso fine\n");
    let found = w.find(Source::Instructions);
    let done = import(&w.store, "ledger", &found).unwrap();
    assert_eq!(done.added, 2, "{done:?}");
    assert_eq!(done.skipped.len(), 1, "{done:?}");
    assert!(done.skipped[0].starts_with("AGENTS.md:5: "), "{:?}", done.skipped);
    let titles: Vec<String> = w.notes().into_iter().map(|n| n.title).collect();
    assert!(titles.contains(&"One".to_owned()) && titles.contains(&"Three".to_owned()), "{titles:?}");
}

#[test]
fn a_file_of_thousands_of_headings_brings_in_a_capped_number_and_says_so() {
    let w = world();
    let huge: String = (0..30_000).map(|i| format!("## H{i}\nx\n")).collect();
    write(&w.root.join("CLAUDE.md"), &huge);
    let found = w.find(Source::Instructions);
    assert_eq!(found.found.len(), super::MOST_SECTIONS_A_FILE + 2, "CLAUDE.md capped, AGENTS.md whole");
    assert!(
        found.skipped.iter().any(|s| s.starts_with("CLAUDE.md: 29800 of its 30000 sections left out")),
        "{:?}",
        found.skipped
    );
    let done = import(&w.store, "ledger", &found).unwrap();
    assert_eq!(done.added, super::MOST_SECTIONS_A_FILE + 2);
    assert!(!done.skipped.is_empty(), "the import reports what it left out");
}

#[test]
fn a_nested_projects_codex_summary_goes_to_the_nested_project_only() {
    let w = world();
    let reg = Registry::new(&w.store);
    let inner = w.root.join("tools/migrator");
    std::fs::create_dir_all(&inner).unwrap();
    for (name, path) in [("Outer", &w.root), ("Migrator", &inner)] {
        reg.create(NewProject {
            name: name.into(),
            code_paths: vec![path.to_string_lossy().into_owned()],
            ..NewProject::default()
        })
        .unwrap();
    }
    write(
        &w.home.join(".codex/memories/rollout_summaries/2026-11-22T09-00-00-Ef56-migrator.md"),
        &format!("thread_id: 3\ncwd: {}\n\n# Migrator batches by 500\n\nBatch size 500.\n", inner.display()),
    );
    let mut outer = w.find(Source::CodexMemory);
    assert_eq!(outer.found.len(), 2, "both are under the outer checkout: {outer:?}");
    keep_own(&w.store, "outer", &mut outer).unwrap();
    let titles: Vec<&str> = outer.found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(titles, ["Fixed rounding in the ledger export"]);
    assert!(outer.skipped.iter().any(|s| s.contains("belongs to 'migrator'")), "{:?}", outer.skipped);
    let mut nested = find(&w.homes(), Source::CodexMemory, std::slice::from_ref(&inner), &w.home);
    keep_own(&w.store, "migrator", &mut nested).unwrap();
    let titles: Vec<&str> = nested.found.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(titles, ["Migrator batches by 500"]);
}

#[test]
fn every_client_s_instruction_file_at_the_root_is_read_and_named_by_its_path() {
    let w = world();
    write(&w.root.join("QWEN.md"), "# Qwen\n\nAnswer in English.\n");
    write(&w.root.join(".github/copilot-instructions.md"), "## Reviews\n\nEvery change gets a test.\n");
    let found = w.find(Source::Instructions);
    let files: Vec<(&str, &str)> = found.found.iter().map(|f| (f.file.as_str(), f.title.as_str())).collect();
    assert!(files.contains(&("QWEN.md", "Qwen")), "{files:?}");
    assert!(files.contains(&(".github/copilot-instructions.md", "Reviews")), "{files:?}");
    assert!(files.contains(&("AGENTS.md", "Style")), "{files:?}");
}

#[test]
fn a_folder_of_rules_is_read_file_by_file_and_its_hook_scripts_are_not() {
    // Cline's `.clinerules/` holds rule files and, under hooks/, scripts.
    let w = world();
    write(&w.root.join(".clinerules/testing.md"), "## Tests\n\nRun the ledger tests before a commit.\n");
    write(&w.root.join(".clinerules/hooks/PreToolUse"), "#!/bin/sh\nexit 0\n");
    let found = w.find(Source::Instructions);
    let files: Vec<(&str, &str)> = found.found.iter().map(|f| (f.file.as_str(), f.title.as_str())).collect();
    assert!(files.contains(&(".clinerules/testing.md", "Tests")), "{files:?}");
    assert!(!files.iter().any(|(f, _)| f.contains("hooks")), "{files:?}");
    assert!(found.skipped.is_empty(), "a folder is not a file it could not read: {:?}", found.skipped);
}
