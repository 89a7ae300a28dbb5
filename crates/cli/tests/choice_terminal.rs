//! The terminal surface in a real pseudo-terminal: `mooring choice answer` renders the
//! question, the keys pick an option, the answer reaches the broker.

mod common;

use std::process::Command;
use std::time::Duration;

use common::Sandbox;
use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Session};
use mooring_core::Store;
use mooring_core::choice::{
    ActionStatus, Broker, ChoiceOption, ChoiceRequest, SelectionMode, TimeoutAction, check,
};

fn open(sb: &Sandbox, mode: SelectionMode) -> (String, String) {
    let store = Store::open_in(&sb.data).unwrap();
    let opt = |id: &str, rec: bool| ChoiceOption {
        id: id.into(),
        label: format!("Use {id}"),
        description: None,
        recommended: rec,
    };
    let request = ChoiceRequest {
        title: "Lease store".into(),
        prompt: "Where should leases live?".into(),
        selection_mode: Some(mode),
        options: vec![opt("etcd", true), opt("consul", false), opt("zk", false)],
        ..Default::default()
    };
    let i = Broker::new(&store).open(check(request).unwrap(), None, TimeoutAction::Cancel).unwrap();
    (i.id, i.token)
}

/// `mooring choice answer ID` in a pseudo-terminal, with `--token` when given (the
/// commands older agents printed carry it).
fn spawn(sb: &Sandbox, id: &str, token: Option<&str>) -> OsSession {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("mooring"));
    cmd.arg("--data-dir").arg(&sb.data).args(["choice", "answer", id]).env("HOME", &sb.home);
    if let Some(token) = token {
        cmd.args(["--token", token]);
    }
    let mut s = Session::spawn(cmd).unwrap();
    s.set_expect_timeout(Some(Duration::from_secs(20)));
    s
}

fn answer_of(sb: &Sandbox, id: &str) -> mooring_core::choice::ChoiceResponse {
    let store = Store::open_in(&sb.data).unwrap();
    Broker::new(&store).get(id).unwrap().response.expect("answered")
}

#[test]
fn arrows_and_enter_answer_a_single_choice() {
    let sb = Sandbox::new();
    let (id, _) = open(&sb, SelectionMode::Single);
    let mut s = spawn(&sb, &id, None);
    s.expect("Where should leases live?").unwrap();
    s.expect("Use consul").unwrap();
    s.send("\x1b[B").unwrap(); // down: from the recommended etcd to consul
    s.send("\r").unwrap();
    s.expect("The person chose Use consul.").unwrap();
    s.expect(Eof).unwrap();
    let r = answer_of(&sb, &id);
    assert_eq!(r.action_status, ActionStatus::Selected);
    assert_eq!(r.selection.selected_ids, ["consul"]);
    assert_eq!(r.surface, Some(mooring_core::model::Surface::Terminal));

    // Single-use: a second attach is refused.
    let mut again = spawn(&sb, &id, None);
    again.expect("single-use").unwrap();
}

#[test]
fn an_answer_piped_in_by_an_agent_answers_nothing() {
    let sb = Sandbox::new();
    let (id, _) = open(&sb, SelectionMode::Single);
    let out = Command::new(assert_cmd::cargo::cargo_bin("mooring"))
        .arg("--data-dir")
        .arg(&sb.data)
        .args(["choice", "answer", &id, "--json"])
        .stdin(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["field"], "terminal", "{v}");
    let store = Store::open_in(&sb.data).unwrap();
    assert_eq!(Broker::new(&store).get(&id).unwrap().status, mooring_core::ChoiceStatus::Pending);
}

#[test]
fn space_toggles_multi_and_escape_cancels() {
    let sb = Sandbox::new();
    let (id, token) = open(&sb, SelectionMode::Multi);
    let mut s = spawn(&sb, &id, Some(&token));
    s.expect("Use zk").unwrap();
    s.send(" ").unwrap(); // etcd
    s.send("\x1b[B\x1b[B").unwrap();
    s.send(" ").unwrap(); // zk
    s.send("\r").unwrap();
    s.expect("The person chose Use etcd, Use zk.").unwrap();
    s.expect(Eof).unwrap();
    assert_eq!(answer_of(&sb, &id).selection.selected_ids, ["etcd", "zk"]);

    let (id, _) = open(&sb, SelectionMode::Single);
    let mut s = spawn(&sb, &id, None);
    s.expect("Use zk").unwrap();
    s.send("\x1b").unwrap();
    s.expect("The person cancelled.").unwrap();
    assert_eq!(answer_of(&sb, &id).action_status, ActionStatus::Cancelled);
}

#[test]
fn a_wrong_token_opens_nothing() {
    let sb = Sandbox::new();
    let (id, _) = open(&sb, SelectionMode::Single);
    let mut s = spawn(&sb, &id, Some("guess"));
    s.expect("no interaction").unwrap();
    let store = Store::open_in(&sb.data).unwrap();
    assert_eq!(Broker::new(&store).get(&id).unwrap().status, mooring_core::ChoiceStatus::Pending);
}
