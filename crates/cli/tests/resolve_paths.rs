//! `mooring resolve` with markers and missing code paths: a `.mooring.toml` offer comes
//! out as the command to run, then binds; a skipped missing code path is explained.

mod common;

use common::Sandbox;

#[test]
fn a_marker_is_offered_then_binds() {
    let sb = Sandbox::new();
    let repo = sb.mkdir("src/ledger");
    let sub = sb.mkdir("src/ledger/pkg");
    std::fs::write(repo.join(".mooring.toml"), "project = \"ledger\"\nname = \"Ledger\"\n").unwrap();
    let cwd = sub.to_str().unwrap();

    let r = sb.json_ok(&["resolve", "--cwd", cwd], None);
    assert_eq!(r["project"], serde_json::Value::Null);
    assert_eq!(r["marker_offers"][0]["project"], "ledger");
    assert_eq!(r["marker_offers"][0]["dir"], repo.to_str().unwrap());
    let text = sb.cmd().args(["resolve", "--cwd", cwd]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("mooring projects new \"Ledger\" --slug ledger --code-path"), "{text}");

    sb.json_ok(&["projects", "new", "Ledger"], None);
    let r = sb.json_ok(&["resolve", "--cwd", cwd], None);
    assert_eq!((r["project"].as_str(), r["decided_by"].as_str()), (Some("ledger"), Some("cwd")), "{r}");
    let p = sb.json_ok(&["projects", "ledger"], None);
    assert_eq!(p["project"]["code_paths"][0]["path"], repo.to_str().unwrap());
}

#[test]
fn a_missing_code_path_is_explained() {
    let sb = Sandbox::new();
    let gone = sb.mkdir("src/gone");
    sb.json_ok(&["projects", "new", "Gone", "--code-path", gone.to_str().unwrap()], None);
    std::fs::remove_dir_all(&gone).unwrap();
    // Without a running watcher the row still says present; what a watcher records:
    let store = mooring_core::Store::open_in(&sb.data).unwrap();
    store
        .write(|tx| {
            tx.execute("UPDATE code_paths SET state = 'missing'", [])?;
            Ok(())
        })
        .unwrap();
    let r = sb.json_ok(&["resolve", "--cwd", gone.join("src").to_str().unwrap()], None);
    assert_eq!(r["project"], serde_json::Value::Null);
    let cwd = r["levels"].as_array().unwrap().iter().find(|l| l["level"] == "cwd").unwrap().clone();
    let detail = cwd["detail"].as_str().unwrap();
    assert!(detail.contains("was skipped because it is missing") && detail.contains("'gone'"), "{detail}");
}
