//! The database itself keeps a project's memory from people who are not in it (row
//! security, migration V9): a query with no membership filter at all — a bug — still
//! sees only the rows of its person's projects, and a connection naming no one sees none.

use mooring_core::NewProject;
use mooring_core::memory::{NewEntry, remember};
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres, migrate_to};

/// Run `work` on a raw connection (no Mooring in between) naming `person`, or no one.
fn raw<T>(url: &str, person: Option<&str>, work: impl AsyncFnOnce(&tokio_postgres::Client) -> T) -> T {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut config: tokio_postgres::Config = url.parse().unwrap();
        config.password(PASSWORD);
        let (client, conn) = config.connect(tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        if let Some(p) = person {
            client.execute("SELECT set_config('mooring.person', $1, false)", &[&p]).await.unwrap();
        }
        work(&client).await
    })
}

/// Rows of `table` a query with no membership filter (the bug) sees, naming `person`.
fn visible(url: &str, person: Option<&str>, table: &str) -> i64 {
    raw(url, person, async |c| {
        c.query_one(&format!("SELECT count(*) FROM {table}"), &[]).await.unwrap().get(0)
    })
}

#[test]
fn a_query_without_a_membership_filter_sees_only_its_persons_projects() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let _eve = PgStore::connect(&url, Some(PASSWORD), "Eve").unwrap();
    ada.create_project(NewProject { name: "Private".into(), ..Default::default() }).unwrap();
    let e = NewEntry {
        kind: "decision".into(),
        content: "the acquisition closes in May".into(),
        ..Default::default()
    };
    remember(&ada, "private", &e, None).unwrap();
    mooring_core::memory::locks::lock(&ada, "private", "terms", "price stays confidential", &[], None)
        .unwrap();

    for table in ["memory", "context_locks", "vector_queue", "events"] {
        assert!(visible(&url, Some("Ada"), table) >= 1, "Ada sees her own {table}");
        assert_eq!(visible(&url, Some("Eve"), table), 0, "Eve is in no project, yet saw {table} rows");
        assert_eq!(visible(&url, None, table), 0, "a connection naming no one saw {table} rows");
    }
    // Writing into a project one is not in is refused by the database too.
    let refused = raw(&url, Some("Eve"), async |c| {
        c.execute("INSERT INTO memory (project_id, kind, title, content) SELECT id, 'note', 'x', 'forged' FROM projects", &[])
            .await
    });
    let e = refused.expect_err("a non-member's insert was stored");
    let why = e.as_db_error().map(|d| d.message().to_owned()).unwrap_or_default();
    assert!(why.contains("row-level security"), "{why}");
}

#[test]
fn announcements_heard_by_everyone_carry_no_project_detail() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    ada.create_project(NewProject { name: "Private".into(), ..Default::default() }).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let listening = runtime.block_on(async {
        let mut config: tokio_postgres::Config = url.parse().unwrap();
        config.password(PASSWORD);
        let (client, mut conn) = config.connect(tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(async move {
            while let Some(Ok(m)) = std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                if let tokio_postgres::AsyncMessage::Notification(n) = m {
                    let _ = tx.send(n.payload().to_owned());
                }
            }
        });
        client.batch_execute("LISTEN mooring_changes").await.unwrap();
        client
    });
    mooring_core::memory::locks::lock(
        &ada,
        "private",
        "acquisition-terms",
        "price stays confidential",
        &[],
        None,
    )
    .unwrap();
    let heard = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("an announcement");
    assert!(heard.contains("\"project\"") && heard.contains("context_locked"), "{heard}");
    assert!(!heard.contains("acquisition"), "a listener outside the project heard the topic: {heard}");
    drop(listening);
}

#[test]
fn links_kept_in_data_move_to_their_columns_though_row_security_hides_the_rows() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    migrate_to(&url, 10);
    // Written by a member before V11: links inside `data`, as that version kept them.
    raw(&url, Some("Ada"), async |c| {
        c.batch_execute(
            r#"INSERT INTO people (name) VALUES ('Ada');
               INSERT INTO projects (slug, name, owner_id) SELECT 'billing', 'Billing', id FROM people;
               INSERT INTO members (project_id, person_id, role) SELECT p.id, pe.id, 'owner' FROM projects p, people pe;
               INSERT INTO memory (project_id, kind, title, content, data)
                 SELECT id, 'decision', 'New', 'invoices on the fifteenth', NULL FROM projects;"#,
        )
        .await
        .unwrap();
        let new: i64 = c.query_one("SELECT id FROM memory", &[]).await.unwrap().get(0);
        c.execute(
            "INSERT INTO memory (project_id, kind, title, content, data)
             SELECT id, 'decision', 'Old', 'invoices on the first',
                    jsonb_build_object('superseded_by', $1::bigint, 'superseded_at', '2026-02-01T10:00:00Z')
             FROM projects",
            &[&new],
        )
        .await
        .unwrap();
        c.batch_execute(
            r#"INSERT INTO memory (project_id, kind, title, content, data)
                 SELECT id, 'session', 'A session', 'asked: retries', '{"key":"claude-code:a","client":"claude-code"}'
                 FROM projects;"#,
        )
        .await
        .unwrap();
    });
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let page = mooring_core::memory::list(&ada, "billing", &Default::default()).unwrap();
    let old = page.entries.iter().find(|e| e.title == "Old").unwrap();
    let new = page.entries.iter().find(|e| e.title == "New").unwrap();
    assert_eq!(old.superseded_by, Some(new.id), "the link moved to its column");
    let (data, key): (Option<String>, Option<String>) = raw(&url, Some("Ada"), async |c| {
        let r = c
            .query_one(
                "SELECT (SELECT data::text FROM memory WHERE title = 'Old'), (SELECT key FROM memory WHERE kind = 'session')",
                &[],
            )
            .await
            .unwrap();
        (r.get(0), r.get(1))
    });
    assert_eq!(data.as_deref(), Some("{}"), "and left data");
    assert_eq!(key.as_deref(), Some("claude-code:a"));
    // Capture finds the session by its key column: the next turn rewrites it in place.
    let (_, found) =
        mooring_core::store::backend::MemoryReads::session_entry(&ada, "billing", "claude-code:a").unwrap();
    assert_eq!(found.map(|r| r.title).as_deref(), Some("A session"));
    assert_eq!(visible(&url, None, "memory"), 0, "row security is forced again");
}
