//! A report's JSON text as a JS string, without V8's slow path for UTF-8.
//!
//! Turning UTF-8 into a JS string (`TextDecoder`, which wasm-bindgen's `String` return uses)
//! is about ten times faster when every byte is ASCII: in Node 20, 0.36 µs against 3.5 µs for
//! a 3 KB report whose Spanish texts hold 27 accented letters, a third of `scoreJson`. Those
//! letters are all in the model's static texts, which the report builder already keeps as JS
//! strings (`layout.rs`, `Texts`). So score-core writes the report's JSON without them
//! (`ScoreReport::write_json_with_texts`), which leaves ASCII, the binding notes where each
//! goes and its index among the JS strings, and [`ASSEMBLE_SOURCE`] (compiled once per realm,
//! like the report builder) decodes the ASCII and splices the strings in with `slice` and
//! `+`. V8 joins those as a rope that it flattens, with one copy of one-byte characters, on
//! first use. The result is the same string: the suite compares `scoreJson` with the
//! fixtures' JSON text, byte for byte.

/// The JS source, an expression: `(function (memory, S) { ... })`. Called with WebAssembly's
/// memory and the realm's array of texts `S`, it returns `function (at, len, marksAt, n)`,
/// which decodes the `len` ASCII bytes at `at` and inserts the `n` texts listed at `marksAt`
/// as pairs of 32-bit numbers: the position in the text and the index in `S`.
pub(crate) const ASSEMBLE_SOURCE: &str = "(function (memory, S) { 'use strict'; \
  var D = new TextDecoder('utf-8', { ignoreBOM: true }); \
  return function (at, len, marksAt, n) { \
    var text = D.decode(new Uint8Array(memory.buffer, at, len)); \
    if (n === 0) return text; \
    var m = new Uint32Array(memory.buffer, marksAt, 2 * n), out = '', last = 0, i, p; \
    for (i = 0; i < 2 * n; i += 2) { \
      p = m[i]; \
      out += text.slice(last, p) + S[m[i + 1]]; \
      last = p; \
    } \
    return out + text.slice(last); \
  }; })";
