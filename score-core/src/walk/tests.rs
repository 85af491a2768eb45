//! Tests of the walk: every key visited in id order, a finished sink stops it.

use super::*;
use std::borrow::Cow;

/// Records the keys in the order the walk visits them.
#[derive(Default)]
struct Visits(Vec<Key>, usize);

impl Visits {
    fn at(&mut self, at: Slot) {
        if let Slot::Key(key) = at {
            self.0.push(key);
        }
    }
}

impl ReportSink for Visits {
    fn begin_object(&mut self, at: Slot) {
        self.at(at);
    }
    fn end_object(&mut self) {}
    fn begin_array(&mut self, at: Slot, _: usize) {
        self.at(at);
    }
    fn end_array(&mut self) {}
    fn integer(&mut self, at: Slot, _: u64) {
        self.at(at);
    }
    fn boolean(&mut self, at: Slot, _: bool) {
        self.at(at);
    }
    fn decimal(&mut self, at: Slot, _: Decimal) {
        self.at(at);
    }
    fn null(&mut self, at: Slot) {
        self.at(at);
    }
    fn label(&mut self, at: Slot, value: Label) {
        assert_eq!(value.all.iter().position(|n| *n == value.as_str()), Some(value.index));
        self.at(at);
    }
    fn text(&mut self, at: Slot, value: &Text) {
        if let Cow::Borrowed(text) = value {
            assert!(static_texts().contains(text), "{text}");
            self.1 += 1;
        }
        self.at(at);
    }
}

/// The walk visits every key of [`KEYS`], and the key of each id is the constant of that id.
#[test]
fn the_walk_visits_every_key_in_id_order() {
    let report = crate::report::schema::probe_report();
    let mut visits = Visits::default();
    report.walk(&mut visits);
    let mut first_visits: Vec<Key> = Vec::new();
    for key in &visits.0 {
        if !first_visits.contains(key) {
            first_visits.push(*key);
        }
    }
    // Every key is visited.
    let mut by_id = first_visits.clone();
    by_id.sort_by_key(|key| key.id);
    assert_eq!(by_id, KEYS);

    for (id, key) in KEYS.iter().enumerate() {
        assert_eq!(key.id, id);
    }
    assert!(visits.1 >= 6, "the model's texts are static: {}", visits.1);
    assert_eq!(keys::SCORE.json_prefix(), "\"score\":");
    assert_eq!(keys::NIVEL.json_prefix(), ",\"nivel\":");
}

/// A sink that is finished stops the walk at the next group of the report's own keys.
#[test]
fn a_finished_sink_stops_the_walk() {
    struct UpTo(Visits, usize);
    impl ReportSink for UpTo {
        fn begin_object(&mut self, at: Slot) {
            self.0.begin_object(at);
        }
        fn end_object(&mut self) {}
        fn begin_array(&mut self, at: Slot, len: usize) {
            self.0.begin_array(at, len);
        }
        fn end_array(&mut self) {}
        fn integer(&mut self, at: Slot, value: u64) {
            self.0.integer(at, value);
        }
        fn boolean(&mut self, at: Slot, value: bool) {
            self.0.boolean(at, value);
        }
        fn decimal(&mut self, at: Slot, value: Decimal) {
            self.0.decimal(at, value);
        }
        fn null(&mut self, at: Slot) {
            self.0.null(at);
        }
        fn label(&mut self, at: Slot, value: Label) {
            self.0.label(at, value);
        }
        fn text(&mut self, at: Slot, value: &Text) {
            self.0.text(at, value);
        }
        fn finished(&self) -> bool {
            self.0.0.len() >= self.1
        }
    }
    let report = crate::report::schema::probe_report();
    let mut first = UpTo(Visits::default(), 1);
    report.walk(&mut first);
    assert_eq!(first.0.0, [keys::SCORE, keys::NIVEL]);
    let mut all = UpTo(Visits::default(), usize::MAX);
    report.walk(&mut all);
    assert_eq!(all.0.0.len(), {
        let mut v = Visits::default();
        report.walk(&mut v);
        v.0.len()
    });
}

/// Keys compare by id, so two objects' keys of one name (`score` of the report and of a
/// simulation) are two keys; a key is one word, as cheap to pass with every value as a pointer.
#[test]
fn keys_are_equal_by_id_and_one_word() {
    assert_eq!(keys::SCORE, KEYS[keys::SCORE.id]);
    let scores: Vec<Key> = KEYS.iter().copied().filter(|k| k.name == "score").collect();
    assert!(scores.len() >= 2, "{scores:?}");
    assert_ne!(scores[0], scores[1]);
    assert_eq!(std::mem::size_of::<Key>(), std::mem::size_of::<usize>());
    assert_eq!(std::mem::size_of::<Slot>(), 2 * std::mem::size_of::<usize>());
}
