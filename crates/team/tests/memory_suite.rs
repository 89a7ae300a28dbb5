//! The memory suite every backend runs (`mooring_core::backend_suite`), here on a real
//! PostgreSQL: one fresh database per case.

use mooring_core::backend_suite::{CASES, Host};
use mooring_core::store::backend::MemoryBackend;
use mooring_core::{NewProject, ProjectStatus};
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};

struct Team(PgStore);

impl Host for Team {
    fn backend(&self) -> &dyn MemoryBackend {
        &self.0
    }

    fn archive(&self, slug: &str) {
        self.0.set_status(slug, ProjectStatus::Archived).unwrap();
    }

    fn event_kinds(&self, slug: &str) -> Vec<String> {
        self.0.events(slug).unwrap().into_iter().map(|e| e.kind).filter(|k| k != "created").collect()
    }
}

#[test]
fn the_backend_suite_passes_on_postgres() {
    let pg = Postgres::start();
    for (name, case) in CASES {
        eprintln!("case {name}");
        let store = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Ada").unwrap();
        for name in ["Alpha", "Beta"] {
            store.create_project(NewProject { name: name.into(), ..Default::default() }).unwrap();
        }
        case(&Team(store));
    }
}
