//! TLS to the team database, against a real PostgreSQL with `ssl = on` and a certificate
//! from an authority of the test's own: each `sslmode` protects and checks what libpq's
//! does, and announcements travel over TLS too.

use std::sync::Arc;
use std::time::Duration;

use mooring_core::ErrorCode;
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};

fn with(url: &str, params: &str) -> String {
    url.replace("sslmode=disable", params)
}

#[test]
fn each_sslmode_protects_and_checks_what_it_says() {
    let pg = Postgres::start_tls();
    let base = pg.fresh_db();
    let ca = pg.ca.as_ref().unwrap().to_str().unwrap().to_owned();
    let open = |params: &str| PgStore::connect(&with(&base, params), Some(PASSWORD), "Ada");

    // verify-full with the authority: encrypted, by IP address and by name.
    let full = open(&format!("sslmode=verify-full&sslrootcert={ca}")).unwrap();
    assert!(full.encryption().unwrap().is_some_and(|v| v.starts_with("TLSv1.")));
    assert_eq!(full.tls(), "encrypted, server's certificate and host name checked");
    let by_name = base.replace("127.0.0.1", "localhost");
    PgStore::connect(
        &with(&by_name, &format!("sslmode=verify-full&sslrootcert={ca}")),
        Some(PASSWORD),
        "Ada",
    )
    .unwrap();

    // The system's authorities do not know this server: refused, saying why.
    let unknown = open("sslmode=verify-full").err().unwrap();
    assert_eq!(unknown.code, ErrorCode::Unavailable);
    assert!(unknown.message.contains("certificate"), "{}", unknown.message);
    assert!(unknown.message.contains("sslrootcert"), "{}", unknown.message);

    // A name the certificate does not carry: verify-full refuses, verify-ca accepts.
    let other_name =
        with(&base, &format!("hostaddr=127.0.0.1&sslrootcert={ca}")).replace("@127.0.0.1", "@db.example");
    let wrong =
        PgStore::connect(&format!("{other_name}&sslmode=verify-full"), Some(PASSWORD), "Ada").err().unwrap();
    assert!(wrong.message.contains("certificate"), "{}", wrong.message);
    let ca_only =
        PgStore::connect(&format!("{other_name}&sslmode=verify-ca"), Some(PASSWORD), "Ada").unwrap();
    assert!(ca_only.encryption().unwrap().is_some());

    // require without an authority encrypts without checking (as libpq); prefer takes
    // TLS when offered; disable stays plain.
    let require = open("sslmode=require").unwrap();
    assert!(require.encryption().unwrap().is_some());
    assert!(require.tls().contains("not verified"), "{}", require.tls());
    assert!(open("sslmode=prefer").unwrap().encryption().unwrap().is_some());
    assert_eq!(open("sslmode=disable").unwrap().encryption().unwrap(), None);
}

#[test]
fn key_value_settings_carry_tls_as_a_url_does() {
    let pg = Postgres::start_tls();
    let base = url::Url::parse(&pg.fresh_db()).unwrap();
    let ca = pg.ca.as_ref().unwrap().to_str().unwrap().to_owned();
    let settings = |tls: &str| {
        let (port, user, db) = (base.port().unwrap(), base.username(), &base.path()[1..]);
        format!("host=localhost port={port} user={user} dbname='{db}' {tls}")
    };
    let full = PgStore::connect(
        &settings(&format!("sslmode=verify-full sslrootcert='{ca}'")),
        Some(PASSWORD),
        "Ada",
    )
    .unwrap();
    assert!(full.encryption().unwrap().is_some_and(|v| v.starts_with("TLSv1.")));
    assert_eq!(full.tls(), "encrypted, server's certificate and host name checked");
    // tokio-postgres alone refuses verify-full; here it is checked, and without the
    // authority the server is refused.
    let unknown = PgStore::connect(&settings("sslmode=verify-full"), Some(PASSWORD), "Ada").err().unwrap();
    assert!(unknown.message.contains("certificate"), "{}", unknown.message);
    let plain = PgStore::connect(&settings("sslmode=disable"), Some(PASSWORD), "Ada").unwrap();
    assert_eq!(plain.encryption().unwrap(), None);
    let with_password = PgStore::open(&settings("password=s3cret"), None, "Ada").err().unwrap();
    assert!(with_password.message.contains("carries a password"), "{}", with_password.message);
    assert!(!with_password.message.contains("s3cret"), "{}", with_password.message);
}

#[test]
fn announcements_arrive_over_tls() {
    let pg = Postgres::start_tls();
    let ca = pg.ca.as_ref().unwrap().to_str().unwrap().to_owned();
    let url = with(&pg.fresh_db(), &format!("sslmode=verify-full&sslrootcert={ca}"));
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let bob = PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    bob.listen(Arc::new(move |c| {
        let _ = tx.lock().unwrap().send(c);
    }));
    assert!(rx.recv_timeout(Duration::from_secs(10)).unwrap().is_resync());
    ada.create_project(mooring_core::NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    let change = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!((change.project.as_str(), change.kind.as_str()), ("billing", "created"));
}
