//! The report as Python dicts and lists: a sink of score-core's report walk, so the keys, their
//! order and the numbers are score-core's (the same as its JSON).
//!
//! Python strings are made once: the keys (by `Key::id`), the labels (by key and index) and
//! the model's static texts (by address, see `score_core::walk::static_texts`). Each dict is
//! a copy of a template with its keys, already sized and ordered.

use crate::input::decimal_class;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyFloat, PyList, PyString, PyTuple};
use rust_decimal::Decimal;
use score_core::schema::{Shape, report_shape};
use score_core::walk::{KEYS, Key, Label, ReportSink, Slot};
use score_core::{ScoreReport, Text, money};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Python strings and templates of the report's shape, made once per interpreter.
pub(crate) struct Names {
    /// Each key's string, by `Key::id`.
    keys: Vec<Py<PyString>>,
    /// Label strings by `Key::id`, then by label index.
    labels: Vec<Vec<Py<PyString>>>,
    /// The template dict of each object: the root's at `KEYS.len()`, an object's at its key's
    /// id, an array item's at the array's key id.
    templates: Vec<Option<Py<PyDict>>>,
    /// The report's own keys, in order.
    pub(crate) top: Vec<Key>,
    /// The same as a tuple (what iterating a lazy `Report` yields).
    pub(crate) top_tuple: Py<PyTuple>,
}

const ROOT: usize = KEYS.len();

fn record(py: Python<'_>, shape: &Shape, at: usize, names: &mut Names) -> PyResult<()> {
    match shape {
        Shape::Object(keys) => {
            let template = PyDict::new(py);
            for (key, inner) in keys {
                template.set_item(names.keys[key.id].bind(py), py.None())?;
                record(py, inner, key.id, names)?;
            }
            names.templates[at] = Some(template.unbind());
        }
        Shape::Array(item) => record(py, item, at, names)?,
        Shape::Label(all) => {
            names.labels[at] = all.iter().map(|n| PyString::intern(py, n).unbind()).collect();
        }
        Shape::Integer | Shape::Decimal | Shape::Text => {}
    }
    Ok(())
}

pub(crate) fn names(py: Python<'_>) -> PyResult<&Names> {
    static NAMES: PyOnceLock<Names> = PyOnceLock::new();
    NAMES.get_or_try_init(py, || {
        let shape = report_shape();
        let top: Vec<Key> = match &shape {
            Shape::Object(keys) => keys.iter().map(|(k, _)| *k).collect(),
            _ => Vec::new(),
        };
        let mut names = Names {
            keys: KEYS.iter().map(|k| PyString::intern(py, k.name).unbind()).collect(),
            labels: (0..KEYS.len()).map(|_| Vec::new()).collect(),
            templates: (0..=KEYS.len()).map(|_| None).collect(),
            top_tuple: PyTuple::new(py, top.iter().map(|k| k.name))?.unbind(),
            top,
        };
        record(py, &shape, ROOT, &mut names)?;
        Ok(names)
    })
}

/// A hasher for text addresses (two words): one multiply a word.
#[derive(Default)]
struct AddressHasher(u64);

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

type TextCache = HashMap<(usize, usize), Py<PyString>, BuildHasherDefault<AddressHasher>>;

thread_local! {
    /// The static texts' strings by (address, length): per thread, so that no lock is taken
    /// (a text can have more than one address; the cache holds a few hundred at most).
    static TEXTS: RefCell<TextCache> = RefCell::new(TextCache::default());
}

fn text<'py>(py: Python<'py>, value: &Text) -> Bound<'py, PyString> {
    let Text::Borrowed(s) = value else { return PyString::new(py, value) };
    let key = (s.as_ptr() as usize, s.len());
    TEXTS.with(|cache| {
        // A borrow fails only if building a string ran Python code that scores (re-entrancy).
        let Ok(mut cache) = cache.try_borrow_mut() else { return PyString::new(py, s) };
        cache.entry(key).or_insert_with(|| PyString::intern(py, s).unbind()).bind(py).clone()
    })
}

/// Builds the dicts and lists of a report (or, with `only`, of one of its keys) as the walk
/// hands over its values.
pub(crate) struct DictSink<'py> {
    py: Python<'py>,
    names: &'py Names,
    decimal: Option<Bound<'py, PyAny>>,
    open: Vec<(usize, Bound<'py, PyAny>)>,
    /// Build only the value of this key of the report.
    only: Option<Key>,
    /// Depth of the containers being skipped (values of other keys than `only`).
    skipping: usize,
    done: Option<Bound<'py, PyAny>>,
    error: Option<PyErr>,
}

impl<'py> DictSink<'py> {
    pub(crate) fn new(py: Python<'py>, decimals: bool, only: Option<Key>) -> PyResult<Self> {
        Ok(DictSink {
            py,
            names: names(py)?,
            decimal: if decimals { Some(decimal_class(py)?.clone()) } else { None },
            open: Vec::with_capacity(4),
            only,
            skipping: 0,
            done: None,
            error: None,
        })
    }

    /// The report's dict (or the value of `only`), or the first error.
    pub(crate) fn build(mut self, report: &ScoreReport) -> PyResult<Bound<'py, PyAny>> {
        report.walk(&mut self);
        match (self.error, self.done) {
            (Some(e), _) => Err(e),
            (None, Some(v)) => Ok(v),
            (None, None) => Err(pyo3::exceptions::PyKeyError::new_err("not a key of the report")),
        }
    }

    /// True when the value at `at` is not built (another key than `only`, or inside one).
    fn skipped(&self, at: Slot) -> bool {
        self.skipping > 0
            || match (self.only, at) {
                (Some(only), Slot::Key(key)) => self.open.len() == 1 && key != only,
                _ => false,
            }
    }

    fn put(&mut self, at: Slot, value: PyResult<Bound<'py, PyAny>>) {
        let value = match value {
            Ok(v) => v,
            Err(e) => return self.fail(e),
        };
        let top_only = self.only.is_some() && self.open.len() == 1;
        let result = match (self.open.last(), at) {
            (_, Slot::Root) if self.only.is_none() => {
                self.done = Some(value);
                Ok(())
            }
            (_, Slot::Root) => Ok(()),
            (Some(_), Slot::Key(_)) if top_only => {
                self.done = Some(value);
                Ok(())
            }
            (Some((_, dict)), Slot::Key(key)) => {
                dict.cast::<PyDict>().map_err(PyErr::from).and_then(|d| d.set_item(self.names.keys[key.id].bind(self.py), value))
            }
            (Some((_, list)), Slot::Item(_)) => list.cast::<PyList>().map_err(PyErr::from).and_then(|l| l.append(value)),
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: PyErr) {
        self.error.get_or_insert(e);
    }

    fn number(&self, d: Decimal) -> PyResult<Bound<'py, PyAny>> {
        if let Some(class) = &self.decimal {
            return class.call1((d.to_string(),));
        }
        match money::whole(d) {
            Some(i) => i.into_bound_py_any(self.py),
            None => Ok(PyFloat::new(self.py, money::to_f64(d)).into_any()),
        }
    }

    /// The template index of an object opened at `at`.
    fn template_of(&self, at: Slot) -> usize {
        match at {
            Slot::Root => ROOT,
            Slot::Key(key) => key.id,
            // An array's items: the array's key.
            Slot::Item(_) => self.open.last().map_or(ROOT, |(id, _)| *id),
        }
    }
}

impl ReportSink for DictSink<'_> {
    fn begin_object(&mut self, at: Slot) {
        if self.skipped(at) {
            self.skipping += 1;
            return;
        }
        let id = self.template_of(at);
        if at == Slot::Root && self.only.is_some() {
            // Only one key's value is built: the report's own dict is not.
            self.open.push((id, self.py.None().into_bound(self.py)));
            return;
        }
        let dict = match &self.names.templates[id] {
            Some(template) => template.bind(self.py).copy(),
            None => Ok(PyDict::new(self.py)),
        };
        match dict {
            Ok(d) => self.open.push((id, d.into_any())),
            Err(e) => {
                self.fail(e);
                self.skipping += 1;
            }
        }
    }
    fn end_object(&mut self) {
        self.close();
    }
    fn begin_array(&mut self, at: Slot, _: usize) {
        if self.skipped(at) {
            self.skipping += 1;
            return;
        }
        let id = self.template_of(at);
        self.open.push((id, PyList::empty(self.py).into_any()));
    }
    fn end_array(&mut self) {
        self.close();
    }
    fn integer(&mut self, at: Slot, value: u64) {
        if !self.skipped(at) {
            let v = value.into_bound_py_any(self.py);
            self.put(at, v);
        }
    }
    fn decimal(&mut self, at: Slot, value: Decimal) {
        if !self.skipped(at) {
            let v = self.number(value);
            self.put(at, v);
        }
    }
    fn label(&mut self, at: Slot, value: Label) {
        if !self.skipped(at) {
            let cached = match at {
                Slot::Key(key) => self.names.labels[key.id].get(value.index),
                _ => None,
            };
            let s = cached.map_or_else(|| PyString::new(self.py, value.as_str()), |s| s.bind(self.py).clone());
            self.put(at, Ok(s.into_any()));
        }
    }
    fn text(&mut self, at: Slot, value: &Text) {
        if !self.skipped(at) {
            let s = text(self.py, value);
            self.put(at, Ok(s.into_any()));
        }
    }
}

impl DictSink<'_> {
    fn close(&mut self) {
        if self.skipping > 0 {
            self.skipping -= 1;
            return;
        }
        if let Some((id, value)) = self.open.pop() {
            // Where the closed container goes: the slot it was opened at (its key, an item, the
            // root), which the parent's kind tells.
            let at = match self.open.last() {
                None => Slot::Root,
                Some((_, parent)) if parent.is_instance_of::<PyList>() => Slot::Item(0),
                Some(_) => Slot::Key(KEYS.get(id).copied().unwrap_or(KEYS[0])),
            };
            self.put(at, Ok(value));
        }
    }
}
