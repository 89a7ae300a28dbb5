//! Every member's hub indexes the team's memory: entries one hub has claimed are not
//! embedded by another meanwhile, and together they store each vector once.

use std::sync::atomic::{AtomicUsize, Ordering};

use mooring_core::NewProject;
use mooring_core::memory::{NewEntry, remember};
use mooring_core::search::semantic::{self, MODEL};
use mooring_core::store::backend::MemoryUpkeep as _;
use mooring_embed::Quantized;
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};

#[test]
fn two_hubs_indexing_at_once_take_different_entries() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let bob = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    ada.create_project(NewProject { name: "Leases".into(), ..Default::default() }).unwrap();
    for i in 0..10 {
        let e = NewEntry { kind: "note".into(), content: format!("Lease note {i}"), ..Default::default() };
        remember(&ada, "leases", &e, None).unwrap();
    }
    let vector = |text: &str| semantic::embed(text).map(|v| Quantized::new(&v).to_bytes());
    let (bob_stored, bob_embedded) = (AtomicUsize::new(usize::MAX), AtomicUsize::new(0));
    let bob_embed = |text: &str| {
        bob_embedded.fetch_add(1, Ordering::SeqCst);
        vector(text)
    };
    // While Ada's hub embeds the five it claimed, Bob's hub indexes all it can.
    let ada_embed = |text: &str| {
        if bob_stored.load(Ordering::SeqCst) == usize::MAX {
            let n = bob.index_vectors(MODEL, 100, &bob_embed).unwrap().unwrap();
            bob_stored.store(n, Ordering::SeqCst);
        }
        vector(text)
    };
    let ada_stored = ada.index_vectors(MODEL, 5, &ada_embed).unwrap().unwrap();
    assert_eq!(ada_stored, 5);
    assert_eq!(bob_stored.load(Ordering::SeqCst), 5, "Bob took only what Ada had not claimed");
    assert_eq!(bob_embedded.load(Ordering::SeqCst), 5, "and embedded nothing twice");
    let progress = ada.vector_progress(Some("leases")).unwrap().unwrap();
    assert_eq!((progress.waiting, progress.stored), (0, 10));
}

#[test]
fn a_hub_indexes_only_the_projects_its_person_is_in() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let eve = PgStore::connect(&url, Some(PASSWORD), "Eve").unwrap();
    ada.create_project(NewProject { name: "Private".into(), ..Default::default() }).unwrap();
    let e = NewEntry {
        kind: "note".into(),
        content: "the acquisition closes in May".into(),
        ..Default::default()
    };
    remember(&ada, "private", &e, None).unwrap();
    let seen = std::sync::Mutex::new(Vec::new());
    let eve_embed = |text: &str| {
        seen.lock().unwrap().push(text.to_owned());
        semantic::embed(text).map(|v| Quantized::new(&v).to_bytes())
    };
    assert_eq!(eve.index_vectors(MODEL, 100, &eve_embed).unwrap(), Some(0));
    assert!(seen.lock().unwrap().is_empty(), "Eve's hub read a project she is not in: {seen:?}");
    // Ada's own hub still indexes it.
    let vector = |text: &str| semantic::embed(text).map(|v| Quantized::new(&v).to_bytes());
    assert_eq!(ada.index_vectors(MODEL, 100, &vector).unwrap(), Some(1));
}
