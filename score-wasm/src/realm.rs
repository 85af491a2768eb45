//! The helper functions of `score_helpers.mjs` (generated at build time by score-js and shipped
//! in each package beside the wasm-bindgen glue, which imports it) and the buffers in
//! WebAssembly memory they read and write.

use js_sys::{Array, JsString};
use score_core::{Profile, ScoreReport};
use score_js::flat::Flat;
use score_js::input::{GATHER_BYTES, GATHER_DOUBLES, gathered};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./score_helpers.mjs")]
extern "C" {
    /// A function that reads a flat profile into the buffers at `at` and `bytes_at`.
    #[wasm_bindgen(js_name = makeProfileGather)]
    fn make_profile_gather(memory: &JsValue, at: u32, bytes_at: u32) -> Gather;
    /// A function that builds a report object from the flat values at `at`.
    #[wasm_bindgen(js_name = makeReportBuilder)]
    fn make_report_builder(memory: &JsValue, at: u32, strings: &Array) -> Build;
    /// A function that assembles `scoreJson`'s text.
    #[wasm_bindgen(js_name = makeJsonAssembler)]
    fn make_json_assembler(memory: &JsValue, strings: &Array) -> Assemble;

    /// The gather function; it never throws (so no `catch` wrapper is needed).
    #[wasm_bindgen(extends = js_sys::Function)]
    type Gather;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Gather, this_arg: &JsValue, profile: &JsValue) -> f64;

    /// The report builder (it never throws either).
    #[wasm_bindgen(extends = js_sys::Function)]
    type Build;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Build, this_arg: &JsValue) -> JsValue;

    /// The text assembler (it never throws).
    #[wasm_bindgen(extends = js_sys::Function)]
    type Assemble;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Assemble, this_arg: &JsValue, at: u32, len: u32, marks_at: u32, n: u32) -> JsString;
}

/// The address of a buffer in WebAssembly memory (32-bit).
fn address<T>(buffer: &[T]) -> u32 {
    #[allow(clippy::cast_possible_truncation)] // usize is 32 bits in wasm32
    let at = buffer.as_ptr() as usize as u32;
    at
}

/// What the gather function writes: per field a tag, a number and a length, then UTF-8.
/// `Cell`s, because JS writes them while Rust holds the reference; boxed, so that their
/// address never changes.
struct GatherBuffers {
    doubles: Box<[Cell<f64>; GATHER_DOUBLES]>,
    bytes: Box<[Cell<u8>; GATHER_BYTES]>,
}

thread_local! {
    /// The gather function and the buffers it writes. Not in a `RefCell`: a getter of the
    /// profile may score another one.
    static GATHER: (Gather, GatherBuffers) = {
        let buffers = GatherBuffers {
            doubles: Box::new(std::array::from_fn(|_| Cell::new(0.0))),
            bytes: Box::new(std::array::from_fn(|_| Cell::new(0))),
        };
        let (doubles, bytes) = (address(&buffers.doubles[..]), address(&buffers.bytes[..]));
        (make_profile_gather(&wasm_bindgen::memory(), doubles, bytes), buffers)
    };
}

/// The profile read by the gather function, or `None` when it is not a flat object (or a
/// getter threw: the walk then reads it).
pub(crate) fn gather(profile: &JsValue) -> Option<Profile> {
    GATHER.with(|(function, buffers)| {
        let used = function.call(&JsValue::UNDEFINED, profile);
        if !(0.0..=GATHER_BYTES as f64).contains(&used) {
            return None;
        }
        let doubles: [f64; GATHER_DOUBLES] = std::array::from_fn(|i| buffers.doubles[i].get());
        let mut bytes = [0u8; GATHER_BYTES];
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just above
        let used = used as usize;
        for (to, from) in bytes[..used].iter_mut().zip(buffers.bytes.iter()) {
            *to = from.get();
        }
        gathered(&doubles, &bytes[..used])
    })
}

/// The report builders of this JS realm: the object and the JSON text, which share the cached
/// texts.
struct Realm {
    flat: Flat,
    /// The cached texts (`S`).
    strings: Array,
    /// The object builder, which reads the values of `flat` where they are.
    build: Build,
    /// The JSON text assembler.
    assemble: Assemble,
}

impl Realm {
    fn new() -> Realm {
        let flat = Flat::default();
        let strings = Array::new();
        let memory = wasm_bindgen::memory();
        let build = make_report_builder(&memory, address(flat.buffer()), &strings);
        let assemble = make_json_assembler(&memory, &strings);
        Realm { flat, strings, build, assemble }
    }

    /// Appends the texts handed an index since the last call to the JS array.
    fn send_texts(&mut self) {
        for s in self.flat.texts.pending.drain(..) {
            self.strings.push(&JsValue::from_str(s));
        }
    }

    /// The report as a JS object, or `None` when [`Flat`] cannot write it.
    fn report(&mut self, report: &ScoreReport) -> Option<JsValue> {
        if !self.flat.write(report) {
            return None;
        }
        self.send_texts();
        Some(self.build.call(&JsValue::UNDEFINED))
    }

    /// The report's JSON text, or `None` when what score-core leaves is not ASCII (a text it
    /// must escape, which the model never writes).
    fn json(&mut self, report: &ScoreReport) -> Option<JsString> {
        let mut ascii = Vec::with_capacity(2048);
        // Pairs of (position, index of the text); a report has about fifteen texts.
        let mut marks: Vec<u32> = Vec::with_capacity(64);
        let texts = &mut self.flat.texts;
        report.write_json_with_texts(&mut ascii, &mut |text, out| {
            #[allow(clippy::cast_possible_truncation)] // usize is 32 bits in wasm32
            marks.extend([out.len() as u32, texts.index(text)]);
        });
        self.send_texts();
        if !ascii.is_ascii() {
            return None;
        }
        let (len, n) = (u32::try_from(ascii.len()).ok()?, u32::try_from(marks.len() / 2).ok()?);
        Some(self.assemble.call(&JsValue::UNDEFINED, address(&ascii), len, address(&marks), n))
    }
}

thread_local! {
    static REALM: RefCell<Option<Realm>> = const { RefCell::new(None) };
}

fn with_realm<T>(f: impl FnOnce(&mut Realm) -> Option<T>) -> Option<T> {
    REALM.with(|realm| f(realm.borrow_mut().get_or_insert_with(Realm::new)))
}

/// The report as a JS object, or `None` for a report the builder cannot take (an owned text).
pub(crate) fn build_report(report: &ScoreReport) -> Option<JsValue> {
    with_realm(|realm| realm.report(report))
}

/// The report's JSON text with the cached texts spliced in, or `None` when it is not ASCII.
pub(crate) fn json_text(report: &ScoreReport) -> Option<JsString> {
    with_realm(|realm| realm.json(report))
}
