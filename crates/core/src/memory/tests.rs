use super::*;
use crate::Store;
use crate::backend_suite::{CASES, Host};
use crate::{NewProject, Registry};

fn setup() -> Store {
    let store = Store::open_in_memory().unwrap();
    let reg = Registry::new(&store);
    for name in ["Alpha", "Beta"] {
        reg.create(NewProject { name: name.into(), ..Default::default() }).unwrap();
    }
    store
}

fn note(kind: &str, content: &str) -> NewEntry {
    NewEntry { kind: kind.into(), content: content.into(), ..Default::default() }
}

impl Host for Store {
    fn backend(&self) -> &dyn MemoryBackend {
        self
    }

    fn archive(&self, slug: &str) {
        Registry::new(self).archive(slug).unwrap();
    }

    fn event_kinds(&self, slug: &str) -> Vec<String> {
        let events = Registry::new(self).events(slug).unwrap();
        // Oldest first, without the project's own "created".
        events.into_iter().map(|e| e.kind).filter(|k| k != "created").collect()
    }
}

#[test]
fn the_backend_suite_passes_on_sqlite() {
    for (name, case) in CASES {
        let store = setup();
        eprintln!("case {name}");
        case(&store);
    }
}

#[test]
fn project_counts_follow_memory_by_trigger() {
    let store = setup();
    let b = remember(&store, "alpha", &note("blocker", "waiting on certificates"), None).unwrap();
    let d = remember(&store, "alpha", &note("decision", "certificates from the internal CA"), None).unwrap();
    remember(&store, "alpha", &note("decision", "keep it"), None).unwrap();
    let stats = Registry::new(&store).get("alpha").unwrap().stats;
    assert_eq!((stats.decisions, stats.open_blockers, stats.memory_total), (2, 1, 3));
    resolve_blocker(&store, "alpha", b.id, None).unwrap();
    forget(&store, "alpha", d.id).unwrap();
    let stats = Registry::new(&store).get("alpha").unwrap().stats;
    assert_eq!((stats.decisions, stats.open_blockers, stats.memory_total), (1, 0, 2));
}
