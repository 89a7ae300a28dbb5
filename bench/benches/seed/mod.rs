//! The project of 100,000 entries the recall benchmarks search (eight topics, three
//! kinds, each entry naming a service, its replicas and its renewal period).

use mooring_core::memory::{NewEntry, remember_batch};
use mooring_core::store::backend::MemoryBackend;

/// Fill project `slug` with 100,000 entries, in batches of 1,000.
pub fn hundred_thousand(store: &dyn MemoryBackend, slug: &str) {
    let topics = ["leases", "elections", "metrics", "billing", "retries", "tokens", "dashboards", "imports"];
    for chunk in 0..100 {
        let batch: Vec<NewEntry> = (0..1_000)
            .map(|i| {
                let n = chunk * 1_000 + i;
                let t = topics[n % topics.len()];
                NewEntry {
                    kind: ["decision", "note", "summary"][n % 3].into(),
                    title: Some(format!("Entry {n} on {t}")),
                    content: format!(
                        "Entry {n}: the {t} service keeps {} replicas and renews every {} s.",
                        n % 7,
                        n % 30
                    ),
                    tags: vec![],
                    ..NewEntry::default()
                }
            })
            .collect();
        remember_batch(store, slug, &batch, None).unwrap();
    }
}
