//! `mooring import` of a hostile folder: every field rule other writers obey applies,
//! the refusal names the file, the line and the field, and nothing is written.

mod common;

use std::path::Path;

use common::Sandbox;
use serde_json::Value;

const MARK: &str = "<!-- mooring ";

/// Rewrite the JSON marker of project.md with `change`.
fn edit_project(dir: &Path, change: impl Fn(&mut Value)) {
    let path = dir.join("project.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        match line.strip_prefix(MARK).and_then(|r| r.strip_suffix(" -->")) {
            Some(json) if out.iter().all(|l: &String| !l.starts_with(MARK)) => {
                let mut v: Value = serde_json::from_str(json).unwrap();
                change(&mut v);
                out.push(format!("{MARK}{v} -->"));
            }
            _ => out.push(line.to_owned()),
        }
    }
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
}

#[test]
fn a_hostile_import_folder_is_refused_with_file_line_and_field() {
    let sb = Sandbox::new();
    sb.cmd()
        .args(["projects", "new", "Billing", "--code-path", sb.mkdir("code/billing").to_str().unwrap()])
        .assert()
        .success();
    sb.cmd().args(["memory", "add", "billing", "--kind", "decision", "Use Stripe"]).assert().success();
    let export = sb.home.join("export");
    sb.cmd().args(["export", "billing", "--to", export.to_str().unwrap()]).assert().success();
    sb.cmd().args(["projects", "billing", "--delete", "--yes"]).assert().success();
    let pristine: Vec<(String, Vec<u8>)> = std::fs::read_dir(&export)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    let reset = || {
        for (name, bytes) in &pristine {
            let p = export.join(name);
            let _ = std::fs::remove_file(&p);
            std::fs::write(p, bytes).unwrap();
        }
    };
    let home = sb.home.display().to_string();
    type Case = (&'static str, Box<dyn Fn(&Path)>, &'static str, &'static str);
    let cases: Vec<Case> = vec![
        (
            "control characters in the name",
            Box::new(|d| edit_project(d, |v| v["name"] = "Bill\u{1b}[2Jing".into())),
            "name",
            "project.md line",
        ),
        (
            "zero-width name",
            Box::new(|d| edit_project(d, |v| v["name"] = "\u{200b}\u{200d}".into())),
            "name",
            "project.md line",
        ),
        (
            "javascript: repo URL",
            Box::new(|d| edit_project(d, |v| v["repo_url"] = "javascript:alert(1)".into())),
            "repo_url",
            "project.md line",
        ),
        (
            "relative notes path",
            Box::new(|d| edit_project(d, |v| v["notes_path"] = "notes/here".into())),
            "notes_path",
            "project.md line",
        ),
        (
            "code path /",
            Box::new(|d| edit_project(d, |v| v["code_paths"] = serde_json::json!(["/"]))),
            "code_path",
            "claim every directory",
        ),
        (
            "code path = home",
            Box::new(move |d| edit_project(d, |v| v["code_paths"] = serde_json::json!([home.clone()]))),
            "code_path",
            "home directory",
        ),
        (
            "a 3 MB entry",
            Box::new(|d| {
                let p = d.join("decisions.md");
                let text = std::fs::read_to_string(&p).unwrap().replace("Use Stripe", &"x".repeat(3 << 20));
                std::fs::write(p, text).unwrap();
            }),
            "content",
            "decisions.md line",
        ),
        (
            "a 30 MB file",
            Box::new(|d| std::fs::write(d.join("notes.md"), vec![b'a'; 30 << 20]).unwrap()),
            "dir",
            "larger than",
        ),
        (
            "a FIFO for a file",
            Box::new(|d| {
                let p = d.join("summaries.md");
                std::fs::remove_file(&p).unwrap();
                let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
                // SAFETY: `c` is a NUL-terminated path that outlives the call.
                assert_eq!(unsafe { libc_mkfifo(c.as_ptr(), 0o644) }, 0);
            }),
            "dir",
            "not a regular file",
        ),
    ];
    let before = sb.fingerprint();
    for (what, break_it, field, says) in cases {
        reset();
        break_it(&export);
        let out = sb.cmd().args(["import", export.to_str().unwrap(), "--json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{what}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["field"], field, "{what}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{what}: {message}");
        assert!(message.len() < 600, "{what}: the error echoes the input");
        assert_eq!(sb.fingerprint(), before, "{what}: something was written");
    }
    reset();
    sb.cmd().args(["import", export.to_str().unwrap()]).assert().success();
}

unsafe extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}
