//! `score-js`: what the two JavaScript bindings of score-core share, so that score-node
//! (napi-rs) and score-wasm (wasm-bindgen) differ only in how they call into JS.
//!
//! - [`input`]: what the gather function writes and the profile it makes.
//! - [`flat`]: a report as the flat values the generated object builder reads, with the index of
//!   each text in the realm's array of strings.
//! - [`helpers`]: the helper JS module both packages ship (`score_helpers.mjs`), written from
//!   score-core's one definition of the report (`schema::report_shape`, recorded from the
//!   report's walk) and generated at build time by the `score-js-helpers` program: nothing is
//!   compiled from text at run time, so pages work under a Content-Security-Policy without
//!   `'unsafe-eval'`.
//!
//! How a host number reads and the errors a binding raises itself are score-core's
//! (`score_core::host`), the same in Python.
//!
//! No JS engine API is used here: the crate is plain Rust, tested with `cargo test -p score-js`.

pub mod flat;
pub mod helpers;
pub mod input;
