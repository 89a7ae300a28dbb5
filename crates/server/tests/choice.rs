//! provide_choice over MCP: elicitation on both protocol generations, the terminal
//! hand-off, waiting past the limit, follow-ups, and a restart with a question open.

mod common;

use common::{Gen, TestClient, TestServer, call, connect, err, ok};
use mooring_core::choice::{Broker, Submission};
use serde_json::{Value, json};

fn question(mode: &str) -> Value {
    let mut q = json!({
        "title": "Lease store",
        "prompt": "Leader election flaps; we must pick where leases live before wiring the sidecar.",
        "selection_mode": mode,
        "options": [
            { "id": "etcd", "label": "etcd", "description": "already in the cluster", "recommended": true },
            { "id": "consul", "label": "Consul" },
            { "id": "zk", "label": "ZooKeeper" }
        ]
    });
    if mode == "text_input" {
        q.as_object_mut().unwrap().remove("options");
        q["placeholder"] = json!("name a store");
    }
    q
}

#[tokio::test(flavor = "multi_thread")]
async fn elicitation_answers_on_both_generations() {
    let srv = TestServer::start().await;
    for generation in [Gen::Legacy, Gen::Modern] {
        let handler =
            TestClient { elicit_content: Some(json!({ "choice": "consul" })), ..Default::default() };
        let c = connect(&srv.url, generation, handler.clone(), &[]).await;
        let r = ok(&call(&c, "provide_choice", question("single")).await);
        assert_eq!(r["action_status"], "selected", "{generation:?}");
        assert_eq!(r["selection"]["selected_ids"], json!(["consul"]));
        assert_eq!(r["surface"], "elicitation");
        let schema = handler.last_schema.lock().unwrap().clone().unwrap();
        assert_eq!(schema["properties"]["choice"]["oneOf"][0]["title"], "etcd (recommended)");
        c.cancel().await.unwrap();

        let text =
            TestClient { elicit_content: Some(json!({ "text": "FoundationDB" })), ..Default::default() };
        let c = connect(&srv.url, generation, text, &[]).await;
        let r = ok(&call(&c, "provide_choice", question("text_input")).await);
        assert_eq!(r["action_status"], "custom_input");
        assert_eq!(r["selection"]["custom_input"], "FoundationDB");
        c.cancel().await.unwrap();

        let multi =
            TestClient { elicit_content: Some(json!({ "choices": ["zk", "etcd"] })), ..Default::default() };
        let c = connect(&srv.url, generation, multi, &[]).await;
        let r = ok(&call(&c, "provide_choice", question("multi")).await);
        assert_eq!(r["selection"]["selected_ids"], json!(["etcd", "zk"]), "ids in option order");
        c.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn terminal_hand_off_then_follow_up() {
    let srv = TestServer::start().await;
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let mut q = question("single");
    q["transport"] = json!("terminal");
    let r = ok(&call(&c, "provide_choice", q).await);
    assert_eq!(r["action_status"], "pending_terminal_launch");
    // The agent gets its own handle; the question's id is what the person's surfaces use.
    let handle = r["selection"]["session_id"].as_str().unwrap().to_owned();
    let id = handle.split_once('.').unwrap().0.to_owned();
    let command = r["selection"]["url"].as_str().unwrap();
    // The command carries no key (it is in the model's view): the person's terminal
    // reads the question from the data directory.
    assert!(command.ends_with(&format!("choice answer {id}")), "{command}");
    assert!(r["selection"]["summary"].as_str().unwrap().contains(command));
    let key = Broker::new(&srv.store).get(&id).unwrap().token;
    assert!(!r.to_string().contains(&key), "the page key reached the model: {r}");
    // The terminal answers (as `mooring choice answer` does, through the broker).
    let broker = Broker::new(&srv.store);
    broker
        .submit(
            &id,
            &Submission { selected_ids: Some(vec!["zk".into()]), ..Default::default() },
            mooring_core::model::Surface::Terminal,
        )
        .unwrap();
    let r = ok(&call(&c, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(r["action_status"], "selected");
    assert_eq!(r["selection"]["selected_ids"], json!(["zk"]));
    assert_eq!(r["surface"], "terminal");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn pending_past_the_wait_limit_and_after_a_restart() {
    let mut srv = TestServer::start().await;
    std::fs::write(srv.dir.path().join("choice-settings.json"), r#"{ "wait_limit_seconds": 3 }"#).unwrap();
    let handler = TestClient::default();
    let c = connect(&srv.url, Gen::Legacy, handler.clone(), &[]).await;
    let r = ok(&call(&c, "provide_choice", question("single")).await);
    assert_eq!(r["action_status"], "pending");
    assert!(handler.progress.load(std::sync::atomic::Ordering::SeqCst) >= 1, "progress while waiting");
    let handle = r["selection"]["session_id"].as_str().unwrap().to_owned();
    let id = handle.split_once('.').unwrap().0.to_owned();
    // The page without its key: the model may relay it, and it answers nothing.
    let url = r["selection"]["url"].as_str().unwrap();
    assert_eq!(url, format!("{}/choice/{id}", srv.base()));
    let key = Broker::new(&srv.store).get(&id).unwrap().token;
    assert!(!r.to_string().contains(&key), "the page key reached the model: {r}");
    let page = reqwest::get(url).await.unwrap();
    assert_eq!(page.status(), 403);
    assert!(page.text().await.unwrap().contains("Waiting for you"));
    srv.restart().await;
    let again = ok(&call(&c, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(again["action_status"], "pending", "the question survived the restart");
    Broker::new(&srv.store)
        .submit(&id, &Submission { cancel: true, ..Default::default() }, mooring_core::model::Surface::Web)
        .unwrap();
    let done = ok(&call(&c, "provide_choice", json!({ "session_id": handle })).await);
    assert_eq!(done["action_status"], "cancelled");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn two_sessions_answered_in_reverse_order() {
    let srv = TestServer::start().await;
    std::fs::write(srv.dir.path().join("choice-settings.json"), r#"{ "wait_limit_seconds": 30 }"#).unwrap();
    let mut tasks = Vec::new();
    for who in ["A", "B"] {
        let client = std::sync::Arc::new(connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await);
        let mut q = question("single");
        q["title"] = json!(format!("Question {who}"));
        tasks.push(tokio::spawn(async move { ok(&call(&client, "provide_choice", q).await) }));
    }
    let broker = Broker::new(&srv.store);
    let mut open = Vec::new();
    for _ in 0..100 {
        open = broker.open_list().unwrap();
        if open.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(open.len(), 2, "both questions wait side by side");
    let id_of = |title: &str| open.iter().find(|i| i.checked.request.title == title).unwrap().id.clone();
    let pick = |id: &str| Submission { selected_ids: Some(vec![id.into()]), ..Default::default() };
    broker.submit(&id_of("Question B"), &pick("consul"), mooring_core::model::Surface::Web).unwrap();
    broker.submit(&id_of("Question A"), &pick("zk"), mooring_core::model::Surface::Web).unwrap();
    let rb = tasks.pop().unwrap().await.unwrap();
    let ra = tasks.pop().unwrap().await.unwrap();
    assert_eq!(ra["selection"]["selected_ids"], json!(["zk"]));
    assert_eq!(rb["selection"]["selected_ids"], json!(["consul"]));
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_before_anything_is_shown() {
    let srv = TestServer::start().await;
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    let mut no_rec = question("single");
    no_rec["options"][0]["recommended"] = json!(false);
    let mut inverted = question("multi");
    inverted["min_selections"] = json!(3);
    inverted["max_selections"] = json!(2);
    let mut elicit = question("single");
    elicit["transport"] = json!("elicitation");
    for (q, field) in [
        (no_rec, "options"),
        (inverted, "min_selections"),
        (elicit, "transport"),
        (json!({ "title": "x" }), "prompt"),
    ] {
        let body = err(&call(&c, "provide_choice", q).await);
        assert_eq!(body["error"]["field"], field);
    }
    assert!(Broker::new(&srv.store).open_list().unwrap().is_empty(), "nothing was opened");
    let unknown = err(&call(&c, "provide_choice", json!({ "session_id": "c-nope" })).await);
    assert_eq!(unknown["error"]["field"], "session_id");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_from_a_session_in_a_project_is_listed_in_that_project_with_its_answer() {
    let srv = TestServer::start().await;
    srv.project("Alpha", &[]);
    srv.project("Beta", &[]);
    let c = connect(&srv.url, Gen::Legacy, TestClient::default(), &[]).await;
    ok(&call(&c, "select_project_for_session", json!({ "project": "alpha" })).await);
    let mut q = question("single");
    q["transport"] = json!("terminal");
    let r = ok(&call(&c, "provide_choice", q).await);
    let id = r["selection"]["session_id"].as_str().unwrap().split_once('.').unwrap().0.to_owned();
    let pick = Submission { selected_ids: Some(vec!["consul".into()]), ..Default::default() };
    Broker::new(&srv.store).submit(&id, &pick, mooring_core::model::Surface::Terminal).unwrap();
    let broker = Broker::new(&srv.store);
    let asked = broker.asked_in("alpha", 10).unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!((asked[0].title.as_str(), asked[0].status.as_str()), ("Lease store", "answered"));
    assert!(asked[0].answer.as_deref().is_some_and(|a| a.contains("Consul")), "{:?}", asked[0].answer);
    assert!(broker.asked_in("beta", 10).unwrap().is_empty());
    c.cancel().await.unwrap();
}
