use std::cell::RefCell;

use super::scan::CENTRED_UP_TO;
use super::sketch::SKETCH_FROM;
use super::*;

/// Vectors in a list, as a database would keep them.
#[derive(Default)]
struct Db {
    rows: RefCell<Vec<(i64, i64, Vec<u8>)>>,
    epoch: RefCell<(i64, i64)>,
    reads: RefCell<usize>,
}

impl Db {
    fn store(&self, id: i64, v: &[f32]) {
        let mut e = self.epoch.borrow_mut();
        e.0 += 1;
        let mut rows = self.rows.borrow_mut();
        rows.retain(|r| r.0 != id);
        rows.push((id, e.0, Quantized::new(v).to_bytes()));
    }
}

impl Source for Db {
    fn epoch(&self, _: i64) -> Result<(i64, i64)> {
        Ok(*self.epoch.borrow())
    }
    fn since(&self, _: i64, _: &str, seq: i64, f: &mut dyn FnMut(Stored)) -> Result<()> {
        for (id, s, vec) in self.rows.borrow().iter().filter(|r| r.1 > seq) {
            *self.reads.borrow_mut() += 1;
            f(Stored { id: *id, kind: "note".into(), seq: *s, vec: vec.clone() });
        }
        Ok(())
    }
    fn vectors_of(&self, _: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()> {
        for (id, s, vec) in self.rows.borrow().iter().filter(|r| ids.contains(&r.0)) {
            f(Stored { id: *id, kind: String::new(), seq: *s, vec: vec.clone() });
        }
        Ok(())
    }
}

fn unit(i: usize) -> Vec<f32> {
    let mut v = vec![0.0; 4];
    v[i] = 1.0;
    v
}

#[test]
fn older_entries_stored_after_newer_ones_are_read_and_changed_ones_replaced() {
    let (db, cache) = (Db::default(), Cache::default());
    let nearest = |q: usize| cache.nearest(&db, 1, "m", &unit(q), None, 1).unwrap()[0].0;
    // A backfill stores the newest entry first.
    db.store(30, &unit(0));
    assert_eq!(nearest(0), 30);
    db.store(10, &unit(1));
    db.store(20, &unit(2));
    assert_eq!((nearest(1), nearest(2)), (10, 20), "read though their ids are lower");
    assert_eq!(*db.reads.borrow(), 3, "each vector read once");
    // Entry 30 is rewritten and embedded again: it moves, and nothing is read twice.
    db.store(30, &unit(3));
    assert_eq!(nearest(3), 30);
    let old = cache.nearest(&db, 1, "m", &unit(0), None, 3).unwrap();
    assert!(old.iter().all(|(_, s)| *s < 0.5), "the old vector is gone: {old:?}");
    assert_eq!(old.len(), 3);
    assert_eq!(*db.reads.borrow(), 4);
    // A removal reads the project again.
    db.epoch.borrow_mut().1 += 1;
    assert_eq!(nearest(3), 30);
    assert_eq!(*db.reads.borrow(), 7);
}

#[test]
fn vectors_held_ahead_are_not_read_again_by_the_first_search() {
    let (db, cache) = (Db::default(), Cache::default());
    (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
    cache.hold(&db, &[1], "m", 4).unwrap();
    assert_eq!(*db.reads.borrow(), 3);
    assert_eq!(cache.nearest(&db, 1, "m", &unit(2), None, 1).unwrap()[0].0, 3);
    assert_eq!(*db.reads.borrow(), 3, "the search compared what was held");
}

#[test]
fn vectors_stored_since_are_added_to_the_held_copy_in_place_not_to_a_copy_of_it() {
    let (db, cache) = (Db::default(), Cache::default());
    (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
    cache.hold(&db, &[1], "m", 4).unwrap();
    let held = |c: &Cache| Arc::as_ptr(&c.lock()[&1]) as usize;
    let before = held(&cache);
    db.store(4, &unit(3));
    assert_eq!(cache.nearest(&db, 1, "m", &unit(3), None, 1).unwrap()[0].0, 4);
    assert_eq!(held(&cache), before, "updated where it was held: no search held it meanwhile");
    // A search in another thread holding the copy keeps its own: that one is copied.
    let kept = cache.lock()[&1].clone();
    db.store(5, &unit(0));
    assert_eq!(cache.nearest(&db, 1, "m", &unit(0), None, 2).unwrap().len(), 2);
    assert_ne!(held(&cache), before);
    assert_eq!(kept.ids.len(), 4, "the copy a search holds does not change under it");
}

#[test]
fn a_small_project_never_held_is_held_by_its_first_bounded_search_and_a_big_one_is_not() {
    let (db, cache) = (Db::default(), Cache::default());
    (0..3).for_each(|i| db.store(i as i64 + 1, &unit(i)));
    let newest = |c: &Cache, n| c.nearest_newest(&db, 1, "m", &unit(2), None, 1, n).unwrap();
    assert_eq!(newest(&cache, 2), None, "bigger than the newest asked for: the bounded read");
    assert!(cache.lock().is_empty());
    assert_eq!(newest(&cache, 2_000).unwrap()[0].0, 3);
    assert!(cache.lock().contains_key(&1), "held from then on");
    db.store(4, &unit(3));
    let reads = *db.reads.borrow();
    assert_eq!(cache.nearest_newest(&db, 1, "m", &unit(3), None, 1, 2_000).unwrap().unwrap()[0].0, 4);
    assert_eq!(*db.reads.borrow(), reads + 1, "only what was stored since is read");
}

/// A vector of `dim` dimensions leaning on one shared axis, with its own topic `t`.
fn topic(t: usize, dim: usize) -> Vec<f32> {
    let mut x = (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut v: Vec<f32> = (0..dim)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1_000) as f32 / 1_000.0 - 0.5
        })
        .collect();
    v[0] += 2.0;
    v
}

#[test]
fn a_big_project_found_through_its_sketches_gives_the_exact_nearest_held_whole_or_not() {
    let dim = 64;
    let db = Db::default();
    let n = SKETCH_FROM + 1_000;
    for id in 0..n as i64 {
        db.store(id, &topic(id as usize, dim));
    }
    // The question is entry 4242 with a little noise.
    let mut question = topic(4242, dim);
    question.iter_mut().enumerate().for_each(|(d, x)| *x += if d % 3 == 0 { 0.02 } else { -0.01 });
    let whole = Cache::default();
    let exact = whole.nearest_exactly(&db, 1, "m", &question, 5).unwrap();
    assert_eq!(exact[0].0, 4242);
    let found = whole.nearest(&db, 1, "m", &question, None, 5).unwrap();
    assert_eq!(found, exact, "the shortlist holds the exact five nearest");
    // With no room for whole vectors the project is held by its sketches, and the
    // shortlist's vectors are read back: the same answer.
    let sketched = Cache { most_bytes: 0, ..Cache::default() };
    *db.reads.borrow_mut() = 0;
    let found = sketched.nearest(&db, 1, "m", &question, None, 5).unwrap();
    assert_eq!(found, exact);
    assert!(*db.reads.borrow() < n + shortlist_len(5) + 1, "read once, then the shortlist");
    // An entry embedded again: a sketched project cannot replace it in place, so it is
    // read again, and the new vector counts.
    db.store(17, &question);
    assert_eq!(sketched.nearest(&db, 1, "m", &question, None, 1).unwrap()[0].0, 17);
}

#[test]
fn every_project_is_compared_from_its_own_centre_and_the_best_of_all_come_first() {
    let dim = 32;
    let db = Db::default();
    for id in 0..200 {
        db.store(id, &topic(id as usize, dim));
    }
    let cache = Cache::default();
    // The same source stands for two projects (ids 1 and 2): each entry is found
    // twice, once per project, with the same score.
    let found = cache.nearest_in(&db, &[1, 2], "m", &topic(77, dim), None, 2).unwrap();
    assert_eq!(found.iter().map(|f| f.0).collect::<Vec<_>>(), [77, 77]);
    assert!((found[0].1 - found[1].1).abs() < 1e-6 && found[0].1 > 0.9, "{found:?}");
}

#[test]
fn a_scan_past_what_it_holds_still_finds_the_nearest() {
    for n in [100, CENTRED_UP_TO + 500] {
        let mut scan = Scan::new(&unit(2), None, 3);
        for id in 0..n as i64 {
            // Every vector leans on axis 0; one (id 7) points along axis 2.
            let v = if id == 7 { unit(2) } else { vec![0.9, 0.1 * (id % 5) as f32, 0.0, 0.3] };
            scan.add(&Stored { id, kind: "note".into(), seq: id, vec: Quantized::new(&v).to_bytes() });
        }
        assert_eq!(scan.finish()[0].0, 7, "{n} vectors");
    }
}
