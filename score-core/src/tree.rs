//! The report as a host's objects and arrays (Python dicts and lists, JavaScript objects and
//! arrays), built from the report's walk: a binding says how to make one object, array or
//! value ([`TreeBuilder`]); where each goes (which key of which object, which item) is decided
//! here, once.
//!
//! Also the caches every such builder needs, made once ([`HostTables`]): the keys' and labels'
//! strings, the object templates (each object's keys, so a host can create an object with its
//! keys in order at once) and the strings of the model's static texts, keyed by address
//! ([`StaticTextCache`]).

use crate::report::Text;
use crate::report::score_report::ScoreReport;
use crate::report::schema::{Shape, report_shape};
use crate::walk::{KEYS, Key, Label, ReportSink, Slot};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

/// The template of the report object itself (other objects use their key's [`Key::id`], the
/// items of an array of objects the array's key's).
pub const ROOT_TEMPLATE: usize = KEYS.len();

/// What makes a host's values. Every method may fail (a host's allocation); the first error
/// ends the build.
pub trait TreeBuilder {
    /// A host value.
    type Value;
    /// A host error.
    type Error;
    /// A new object for template `template` (see [`templates`]), its keys not yet set.
    fn object(&mut self, template: usize) -> Result<Self::Value, Self::Error>;
    /// A new array for `len` items.
    fn array(&mut self, len: usize) -> Result<Self::Value, Self::Error>;
    /// Sets `key` of `object`.
    fn set(&mut self, object: &Self::Value, key: Key, value: Self::Value) -> Result<(), Self::Error>;
    /// Appends item `index` to `array`.
    fn push(&mut self, array: &Self::Value, index: usize, value: Self::Value) -> Result<(), Self::Error>;
    /// A whole number.
    fn integer(&mut self, value: u64) -> Result<Self::Value, Self::Error>;
    /// A yes or no.
    fn boolean(&mut self, value: bool) -> Result<Self::Value, Self::Error>;
    /// A shown figure (see `money::json_f64` for the double a JSON reader gets).
    fn decimal(&mut self, value: Decimal) -> Result<Self::Value, Self::Error>;
    /// A label; `key` is where it is (labels of one key come from one set).
    fn label(&mut self, key: Option<Key>, value: Label) -> Result<Self::Value, Self::Error>;
    /// A text.
    fn text(&mut self, value: &Text) -> Result<Self::Value, Self::Error>;
    /// No value (the host's `None` or `null`).
    fn null(&mut self) -> Result<Self::Value, Self::Error>;
}

/// Every object template: its index and its keys in order (the report's at [`ROOT_TEMPLATE`]).
pub fn templates() -> Vec<(usize, Vec<Key>)> {
    fn visit(shape: &Shape, at: usize, out: &mut Vec<(usize, Vec<Key>)>) {
        match shape {
            Shape::Object(keys) => {
                out.push((at, keys.iter().map(|(k, _)| *k).collect()));
                for (key, inner) in keys {
                    visit(inner, key.id, out);
                }
            }
            Shape::Array(item) => visit(item, at, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    visit(&report_shape(), ROOT_TEMPLATE, &mut out);
    out
}

/// Builds the report (or the value of one of its keys) with `builder`.
pub fn build<B: TreeBuilder>(report: &ScoreReport, builder: &mut B, only: Option<Key>) -> Result<Option<B::Value>, B::Error> {
    let mut sink = TreeSink { builder, open: Stack::default(), only, skipping: 0, done: None, error: None };
    report.walk(&mut sink);
    match sink.error {
        Some(e) => Err(e),
        None => Ok(sink.done),
    }
}

/// An open object or array: where it goes, its template and the value.
struct Open<V> {
    at: Slot,
    template: usize,
    value: Option<V>,
}

/// The open containers: the report nests five deep (report, `simulaciones`, a simulation, its
/// `cambios`, a change), so a fixed array (no allocation per report); deeper values would be
/// dropped, and the walk has none (a test builds every key).
struct Stack<T>([Option<T>; 6], usize);

impl<T> Default for Stack<T> {
    fn default() -> Self {
        Stack([None, None, None, None, None, None], 0)
    }
}

impl<T> Stack<T> {
    fn len(&self) -> usize {
        self.1
    }
    fn last(&self) -> Option<&T> {
        self.1.checked_sub(1).and_then(|i| self.0[i].as_ref())
    }
    fn push(&mut self, value: T) {
        if let Some(slot) = self.0.get_mut(self.1) {
            *slot = Some(value);
            self.1 += 1;
        }
    }
    fn pop(&mut self) -> Option<T> {
        self.1 = self.1.checked_sub(1)?;
        self.0[self.1].take()
    }
}

struct TreeSink<'b, B: TreeBuilder> {
    builder: &'b mut B,
    open: Stack<Open<B::Value>>,
    only: Option<Key>,
    skipping: usize,
    done: Option<B::Value>,
    error: Option<B::Error>,
}

impl<B: TreeBuilder> TreeSink<'_, B> {
    /// True when nothing more will be built: one key's value is there, or building failed.
    #[inline(always)]
    fn complete(&self) -> bool {
        (self.only.is_some() && self.done.is_some()) || self.error.is_some()
    }

    /// True when the value at `at` is not built (another key than `only`, or inside one).
    #[inline(always)]
    fn skipped(&self, at: Slot) -> bool {
        self.skipping > 0 || matches!((self.only, at), (Some(only), Slot::Key(key)) if self.open.len() == 1 && key != only)
    }

    #[inline(always)]
    fn put(&mut self, at: Slot, value: B::Value) {
        let result = match at {
            Slot::Key(key) => {
                if self.only.is_some() && self.open.len() == 1 {
                    self.done = Some(value);
                    return;
                }
                match self.open.last() {
                    Some(Open { value: Some(object), .. }) => self.builder.set(object, key, value),
                    _ => Ok(()),
                }
            }
            Slot::Item(i) => match self.open.last() {
                Some(Open { value: Some(array), .. }) => self.builder.push(array, i, value),
                _ => Ok(()),
            },
            Slot::Root => {
                if self.only.is_none() {
                    self.done = Some(value);
                }
                Ok(())
            }
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: B::Error) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        // Nothing more is built.
        self.skipping = usize::MAX / 2;
    }

    fn open(&mut self, at: Slot, make: impl FnOnce(&mut B, usize) -> Result<B::Value, B::Error>) {
        if self.skipped(at) {
            self.skipping += 1;
            return;
        }
        let template = match at {
            Slot::Root => ROOT_TEMPLATE,
            Slot::Key(key) => key.id,
            Slot::Item(_) => self.open.last().map_or(ROOT_TEMPLATE, |o| o.template),
        };
        // With `only`, the report's own object is not built.
        let value = if at == Slot::Root && self.only.is_some() { None } else { Some(make(self.builder, template)) };
        match value.transpose() {
            Ok(value) => self.open.push(Open { at, template, value }),
            Err(e) => self.fail(e),
        }
    }

    fn close(&mut self) {
        if self.skipping > 0 {
            self.skipping -= 1;
            return;
        }
        if let Some(Open { at, value: Some(value), .. }) = self.open.pop() {
            self.put(at, value);
        }
    }

    #[inline(always)]
    fn leaf(&mut self, at: Slot, make: impl FnOnce(&mut B) -> Result<B::Value, B::Error>) {
        if self.skipped(at) {
            return;
        }
        match make(self.builder) {
            Ok(value) => self.put(at, value),
            Err(e) => self.fail(e),
        }
    }
}

impl<B: TreeBuilder> ReportSink for TreeSink<'_, B> {
    #[inline(always)]
    fn finished(&self) -> bool {
        self.complete()
    }
    fn begin_object(&mut self, at: Slot) {
        self.open(at, |b, template| b.object(template));
    }
    fn end_object(&mut self) {
        self.close();
    }
    fn begin_array(&mut self, at: Slot, len: usize) {
        self.open(at, |b, _| b.array(len));
    }
    fn end_array(&mut self) {
        self.close();
    }
    fn integer(&mut self, at: Slot, value: u64) {
        self.leaf(at, |b| b.integer(value));
    }
    fn boolean(&mut self, at: Slot, value: bool) {
        self.leaf(at, |b| b.boolean(value));
    }
    fn decimal(&mut self, at: Slot, value: Decimal) {
        self.leaf(at, |b| b.decimal(value));
    }
    fn label(&mut self, at: Slot, value: Label) {
        let key = if let Slot::Key(key) = at { Some(key) } else { None };
        self.leaf(at, |b| b.label(key, value));
    }
    fn text(&mut self, at: Slot, value: &Text) {
        self.leaf(at, |b| b.text(value));
    }
    fn null(&mut self, at: Slot) {
        self.leaf(at, |b| b.null());
    }
}

/// A hasher for text addresses (two words): one multiply a word.
#[derive(Debug, Default)]
pub struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(26) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A host's strings of the model's static texts, by the text's address and length: no hashing
/// of content. Rust does not promise one address per constant text, so a text may be cached
/// more than once; the cache stays within a few hundred entries (see `walk::static_texts`).
#[derive(Debug)]
pub struct StaticTextCache<T>(HashMap<(usize, usize), T, BuildHasherDefault<AddressHasher>>);

impl<T> Default for StaticTextCache<T> {
    fn default() -> Self {
        StaticTextCache(HashMap::default())
    }
}

impl<T> StaticTextCache<T> {
    /// The host string of `text`, made by `make` the first time.
    pub fn get_or_insert_with(&mut self, text: &'static str, make: impl FnOnce(&'static str) -> T) -> &T {
        self.0.entry((text.as_ptr() as usize, text.len())).or_insert_with(|| make(text))
    }
}

/// The host values a tree builder makes once and reuses for every report (Python: interned
/// strings and template dicts, once per interpreter): each key's string, the strings of each
/// key's labels, each object's template and the static texts' strings (by address, made on
/// first use), and the report's own keys. Written once here so that a binding only says how to
/// make one string (`S`) and one template object (`O`).
#[derive(Debug)]
pub struct HostTables<S, O> {
    /// Each key's string, by [`Key::id`].
    keys: Vec<S>,
    /// The strings of a key's label set (every name of it, in order), by [`Key::id`]; empty for
    /// a key that holds no label.
    labels: Vec<Vec<S>>,
    /// The template object of each object, by template index (see [`templates`]).
    templates: Vec<Option<O>>,
    /// The static texts' strings; a build locks it once.
    texts: Mutex<StaticTextCache<S>>,
    /// The report's own keys, in order.
    top: Vec<Key>,
}

impl<S, O> HostTables<S, O> {
    /// Makes every key's and label's string with `string`, and each object's template with
    /// `template` from its keys' strings, in order.
    pub fn new<E>(
        mut string: impl FnMut(&'static str) -> Result<S, E>,
        mut template: impl FnMut(&[&S]) -> Result<O, E>,
    ) -> Result<Self, E> {
        let keys = KEYS.iter().map(|k| string(k.name)).collect::<Result<Vec<S>, E>>()?;
        let mut label_sets: Vec<&'static [&'static str]> = vec![&[]; KEYS.len()];
        label_sets_of(&report_shape(), &mut label_sets);
        let labels = label_sets
            .iter()
            .map(|all| all.iter().map(|name| string(name)).collect::<Result<Vec<S>, E>>())
            .collect::<Result<Vec<_>, E>>()?;
        let mut objects: Vec<Option<O>> = (0..=ROOT_TEMPLATE).map(|_| None).collect();
        let mut top = Vec::new();
        for (at, object_keys) in templates() {
            let strings: Vec<&S> = object_keys.iter().map(|k| &keys[k.id]).collect();
            objects[at] = Some(template(&strings)?);
            if at == ROOT_TEMPLATE {
                top = object_keys;
            }
        }
        Ok(HostTables { keys, labels, templates: objects, texts: Mutex::new(StaticTextCache::default()), top })
    }

    /// The string of `key`.
    #[inline]
    pub fn key(&self, key: Key) -> &S {
        &self.keys[key.id]
    }

    /// The string of a label at `key`; `None` for a label in an array (no key), which the
    /// builder makes afresh.
    #[inline]
    pub fn label(&self, key: Option<Key>, label: Label) -> Option<&S> {
        self.labels.get(key?.id)?.get(label.index)
    }

    /// The template object of template `at` (see [`TreeBuilder::object`]).
    #[inline]
    pub fn template(&self, at: usize) -> Option<&O> {
        self.templates.get(at).and_then(Option::as_ref)
    }

    /// The static texts' cache, for one build; `None` while another build holds it (another
    /// thread, or host code run by this build that builds again): texts are then made afresh.
    pub fn texts(&self) -> Option<MutexGuard<'_, StaticTextCache<S>>> {
        self.texts.try_lock().ok()
    }

    /// The report's own keys, in order.
    pub fn top(&self) -> &[Key] {
        &self.top
    }

    /// The position among [`Self::top`] of the key named `name`.
    pub fn top_index(&self, name: &str) -> Option<usize> {
        self.top.iter().position(|k| k.name == name)
    }
}

/// Records, by [`Key::id`], the label set of each key of `shape` that holds a label (or
/// `null`).
fn label_sets_of(shape: &Shape, out: &mut [&'static [&'static str]]) {
    match shape {
        Shape::Object(keys) => {
            for (key, inner) in keys {
                let inner = if let Shape::Nullable(inner) = inner { &**inner } else { inner };
                match inner {
                    Shape::Label(all) | Shape::DecimalOrLabel(all) => out[key.id] = all,
                    other => label_sets_of(other, out),
                }
            }
        }
        Shape::Array(item) | Shape::Nullable(item) => label_sets_of(item, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A builder of `serde_json::Value`s gives the report's JSON value, and each key's value.
    struct JsonBuilder(Vec<(usize, Vec<Key>)>);

    impl TreeBuilder for JsonBuilder {
        type Value = std::rc::Rc<std::cell::RefCell<Value>>;
        type Error = ();
        fn object(&mut self, template: usize) -> Result<Self::Value, ()> {
            assert!(self.0.iter().any(|(t, _)| *t == template), "template {template}");
            Ok(Default::default())
        }
        fn array(&mut self, _: usize) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::Array(Vec::new()).into()))
        }
        fn set(&mut self, object: &Self::Value, key: Key, value: Self::Value) -> Result<(), ()> {
            let mut o = object.borrow_mut();
            if o.is_null() {
                *o = Value::Object(Default::default());
            }
            o[key.name] = value.take();
            Ok(())
        }
        fn push(&mut self, array: &Self::Value, _: usize, value: Self::Value) -> Result<(), ()> {
            array.borrow_mut().as_array_mut().ok_or(())?.push(value.take());
            Ok(())
        }
        fn integer(&mut self, value: u64) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::from(value).into()))
        }
        fn boolean(&mut self, value: bool) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::from(value).into()))
        }
        fn decimal(&mut self, value: Decimal) -> Result<Self::Value, ()> {
            let v = serde_json::to_value(crate::money::json_f64(value)).map_err(|_| ())?;
            let v = crate::money::whole(value).map_or(v, Value::from);
            Ok(std::rc::Rc::new(v.into()))
        }
        fn label(&mut self, _: Option<Key>, value: Label) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::from(value.as_str()).into()))
        }
        fn text(&mut self, value: &Text) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::from(value.as_ref()).into()))
        }
        fn null(&mut self) -> Result<Self::Value, ()> {
            Ok(std::rc::Rc::new(Value::Null.into()))
        }
    }

    #[test]
    fn builds_the_report_and_each_key() {
        let report = crate::report::schema::probe_report();
        let expected = serde_json::to_value(&report).expect("json");
        let mut builder = JsonBuilder(templates());
        let built = build(&report, &mut builder, None).expect("built").expect("a value");
        assert_eq!(built.take(), expected);
        let (_, top) = templates().into_iter().find(|(t, _)| *t == ROOT_TEMPLATE).expect("root");
        assert_eq!(top.len(), 20);
        for key in top {
            let one = build(&report, &mut builder, Some(key)).expect("built").expect("a value");
            assert_eq!(one.take(), expected[key.name], "{}", key.name);
        }
    }

    /// Every label at a key is the string the tables hold for it; every template and key string
    /// is there.
    #[test]
    fn host_tables_hold_every_label_and_template() {
        struct Labels<'t>(&'t HostTables<String, Vec<String>>, usize);
        impl ReportSink for Labels<'_> {
            fn begin_object(&mut self, _: Slot) {}
            fn end_object(&mut self) {}
            fn begin_array(&mut self, _: Slot, _: usize) {}
            fn end_array(&mut self) {}
            fn integer(&mut self, _: Slot, _: u64) {}
            fn boolean(&mut self, _: Slot, _: bool) {}
            fn decimal(&mut self, _: Slot, _: Decimal) {}
            fn label(&mut self, at: Slot, value: Label) {
                if let Slot::Key(key) = at {
                    assert_eq!(self.0.label(Some(key), value).map(String::as_str), Some(value.as_str()), "{}", key.name);
                    self.1 += 1;
                }
            }
            fn null(&mut self, _: Slot) {}
            fn text(&mut self, _: Slot, _: &Text) {}
        }
        let tables = HostTables::new(
            |s| Ok::<_, ()>(s.to_owned()),
            |keys| Ok(keys.iter().map(|k| (*k).clone()).collect::<Vec<String>>()),
        )
        .expect("made");
        let mut labels = Labels(&tables, 0);
        crate::report::schema::probe_report().walk(&mut labels);
        assert!(labels.1 >= 5, "labels seen: {}", labels.1);
        for (at, keys) in templates() {
            let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
            assert_eq!(tables.template(at).map(|t| t.iter().map(String::as_str).collect::<Vec<_>>()), Some(names));
        }
        assert_eq!(tables.top().len(), 20);
        assert_eq!(tables.key(tables.top()[0]), "score");
        assert_eq!(tables.top_index("nivel"), Some(1));
        assert_eq!(tables.top_index("nada"), None);
        assert!(tables.texts().is_some());
    }

    #[test]
    fn caches_texts_by_address() {
        let mut cache = StaticTextCache::default();
        let mut made = 0;
        for _ in 0..3 {
            cache.get_or_insert_with(crate::DISCLAIMER, |t| {
                made += 1;
                t.len()
            });
        }
        assert_eq!(made, 1);
    }
}
