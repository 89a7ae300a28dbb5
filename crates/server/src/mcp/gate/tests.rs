//! The gate's decisions as small specifications, on a real store in a temporary
//! directory with no transport: what decides a call's project, when the only project is
//! chosen by itself, and when (and how) the person is asked.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mooring_core::{NewProject, Registry, Store};
use rmcp::model::InputResponses;
use serde_json::{Value, json};

use super::{Asking, Decision, Gate, decide};
use crate::caller::Caller;
use crate::state::AppState;
use crate::surfaces::Surfaces;

/// A desktop that can show windows, or none.
struct Desk(bool);

impl Surfaces for Desk {
    fn can_show(&self) -> bool {
        self.0
    }
}

struct World {
    dir: tempfile::TempDir,
    state: Arc<AppState>,
}

impl World {
    fn new(desktop: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open_in(dir.path()).unwrap());
        let state = Arc::new(AppState::new(store, Arc::new(Desk(desktop)), Duration::from_secs(1), None));
        Self { dir, state }
    }

    /// A project with a code directory of its own; its slug and the directory.
    fn project(&self, name: &str) -> (String, std::path::PathBuf) {
        let code = self.dir.path().join("code").join(name.to_lowercase());
        std::fs::create_dir_all(&code).unwrap();
        let code = code.canonicalize().unwrap();
        let changed = Registry::new(&self.state.store)
            .create(NewProject {
                name: name.to_owned(),
                code_paths: vec![code.display().to_string()],
                ..NewProject::default()
            })
            .unwrap();
        (changed.project.slug, code)
    }

    async fn decide(&self, caller: &Caller, explicit: Option<&str>) -> Decision {
        decide(&self.state, caller, explicit, None, None).await.unwrap()
    }
}

/// A session-based (2025-era) client, in `cwd` if given.
fn caller(cwd: Option<&Path>) -> Caller {
    Caller {
        session_id: Some(format!("mcs_{}", "ab".repeat(32))),
        transport: "http",
        cwd: cwd.map(|c| c.display().to_string()),
        legacy: true,
        client_name: Some("spec-client".into()),
        ..Caller::default()
    }
}

/// A response as JSON, as a client would read it.
fn json_of(r: &rmcp::model::CallToolResponse) -> Value {
    match r {
        rmcp::model::CallToolResponse::Complete(c) => serde_json::to_value(c).unwrap(),
        rmcp::model::CallToolResponse::InputRequired(i) => serde_json::to_value(i).unwrap(),
        other => panic!("unexpected response {other:?}"),
    }
}

fn ready(d: Decision) -> (String, String, Option<String>) {
    match d {
        Decision::Gate(Gate::Ready { project, decided_by, note }) => (project, decided_by.to_string(), note),
        Decision::Gate(Gate::Stop(r)) => panic!("stopped: {}", json_of(&r)),
        Decision::Ask { how, .. } => panic!("asks ({how:?})"),
    }
}

fn stopped(d: Decision) -> Value {
    match d {
        Decision::Gate(Gate::Stop(r)) => json_of(&r),
        Decision::Gate(Gate::Ready { project, .. }) => panic!("ran in {project}"),
        Decision::Ask { how, .. } => panic!("asks ({how:?})"),
    }
}

#[tokio::test]
async fn an_explicit_project_decides_and_a_wrong_or_empty_one_is_named() {
    let w = World::new(false);
    let (alpha, _) = w.project("Alpha");
    w.project("Beta");
    assert_eq!(ready(w.decide(&caller(None), Some("alpha")).await), (alpha, "explicit".into(), None));
    let refused = stopped(w.decide(&caller(None), Some("alpah")).await);
    assert_eq!(refused["structuredContent"]["error"]["field"], "project", "{refused}");
    assert!(refused.to_string().contains("did you mean 'alpha'"), "{refused}");
    let empty = decide(&w.state, &caller(None), Some("  "), None, None).await.err().unwrap();
    assert_eq!(empty.field.as_deref(), Some("project"));
}

#[tokio::test]
async fn the_working_directory_decides_and_nothing_is_asked() {
    let w = World::new(true);
    w.project("Alpha");
    let (beta, code) = w.project("Beta");
    let deep = code.join("src");
    std::fs::create_dir_all(&deep).unwrap();
    assert_eq!(ready(w.decide(&caller(Some(&deep)), None).await), (beta, "cwd".into(), None));
}

#[tokio::test]
async fn without_projects_the_call_stops_with_the_exact_next_call() {
    let w = World::new(true);
    let stop = stopped(w.decide(&caller(None), None).await);
    let body = &stop["structuredContent"];
    assert_eq!(body["error"]["code"], "PROJECT_SELECTION_REQUIRED", "{stop}");
    assert!(stop.to_string().contains("No projects exist yet"), "{stop}");
}

#[tokio::test]
async fn the_only_project_is_chosen_by_itself_and_remembered_unless_a_hint_points_elsewhere() {
    let w = World::new(false);
    let (only, _) = w.project("Only");
    let c = caller(None);
    let (project, decided_by, note) = ready(w.decide(&c, None).await);
    assert_eq!((project.as_str(), decided_by.as_str()), (only.as_str(), "auto_single"));
    assert!(note.unwrap().contains("remembered for this session"));
    // The next call of the same session is decided by its own choice.
    assert_eq!(ready(w.decide(&c, None).await).1, "session");

    // A workspace that matches no project is a hint against guessing.
    let elsewhere = w.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut other = caller(None);
    other.session_id = Some(format!("mcs_{}", "cd".repeat(32)));
    other.workspace = Some(elsewhere.display().to_string());
    let stop = stopped(w.decide(&other, None).await);
    assert_eq!(stop["structuredContent"]["error"]["code"], "PROJECT_SELECTION_REQUIRED", "{stop}");
}

#[tokio::test]
async fn with_several_projects_the_person_is_asked_the_way_the_client_and_desktop_allow() {
    let desk = World::new(true);
    desk.project("Alpha");
    let (beta, beta_code) = desk.project("Beta");
    // A legacy client with its own form: form and picker together.
    let mut form = caller(None);
    form.elicitation = true;
    match desk.decide(&form, None).await {
        Decision::Ask { how, candidates, unanswered, .. } => {
            assert_eq!(how, Asking::FormAndPicker);
            assert_eq!(candidates.len(), 2);
            assert!(unanswered.contains("was asked"));
        }
        _ => panic!("not asked"),
    }
    // No form: the desktop's picker, preselecting the project of the session's directory's parent.
    let outside = beta_code.parent().unwrap().join("beta-notes");
    std::fs::create_dir_all(&outside).unwrap();
    match desk.decide(&caller(Some(&outside)), None).await {
        Decision::Ask { how, recommended, .. } => {
            assert_eq!(how, Asking::Picker);
            assert_eq!(recommended.as_deref(), Some(beta.as_str()));
        }
        _ => panic!("not asked"),
    }
    // Neither form nor desktop: the agent is told what to call.
    let headless = World::new(false);
    headless.project("Alpha");
    headless.project("Beta");
    let stop = stopped(headless.decide(&caller(None), None).await);
    assert_eq!(stop["structuredContent"]["error"]["code"], "PROJECT_SELECTION_REQUIRED");
}

#[tokio::test]
async fn a_2026_client_gets_a_sealed_question_and_its_answer_binds_once() {
    let w = World::new(false);
    w.project("Alpha");
    let (beta, _) = w.project("Beta");
    let mut c = caller(None);
    (c.legacy, c.elicitation) = (false, true);
    let asked = stopped(w.decide(&c, None).await);
    let sealed =
        asked["requestState"].as_str().unwrap_or_else(|| panic!("no requestState: {asked}")).to_owned();
    assert!(asked.to_string().contains("mooring_project"), "{asked}");

    let answer: InputResponses =
        [("mooring_project".to_owned(), json!({ "action": "accept", "content": { "project": beta } }))]
            .into();
    let (project, decided_by, _) =
        ready(decide(&w.state, &c, None, Some(&answer), Some(&sealed)).await.unwrap());
    assert_eq!((project, decided_by.as_str()), (beta, "elicitation"));
    // The same requestState again is refused: one question, one answer.
    let replay = decide(&w.state, &c, None, Some(&answer), Some(&sealed)).await.err().unwrap();
    assert_eq!(replay.field.as_deref(), Some("requestState"));
    // A state sealed for another client counts for nothing.
    let mut stranger = c.clone();
    stranger.session_id = Some(format!("mcs_{}", "ef".repeat(32)));
    let asked = stopped(w.decide(&stranger, None).await);
    let theirs = asked["requestState"].as_str().unwrap().to_owned();
    assert!(decide(&w.state, &c, None, Some(&answer), Some(&theirs)).await.is_err());
}

#[tokio::test]
async fn a_declined_form_leaves_the_picker_to_answer_where_there_is_a_desktop() {
    for desktop in [true, false] {
        let w = World::new(desktop);
        w.project("Alpha");
        w.project("Beta");
        let mut c = caller(None);
        (c.legacy, c.elicitation) = (false, true);
        let asked = stopped(w.decide(&c, None).await);
        let sealed = asked["requestState"].as_str().unwrap().to_owned();
        let declined: InputResponses =
            [("mooring_project".to_owned(), json!({ "action": "decline" }))].into();
        match decide(&w.state, &c, None, Some(&declined), Some(&sealed)).await.unwrap() {
            Decision::Ask { how, .. } => assert!(desktop && how == Asking::Picker),
            Decision::Gate(Gate::Stop(r)) => {
                assert!(!desktop);
                assert!(json_of(&r).to_string().contains("did not choose"));
            }
            Decision::Gate(Gate::Ready { .. }) => panic!("a declined form chose a project"),
        }
    }
}
