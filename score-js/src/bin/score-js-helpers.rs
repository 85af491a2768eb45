//! Writes the helper JS module of the JavaScript packages (`score_js::helpers::module_source`)
//! to the path given, or to stdout. Run by score-node's and score-wasm's `scripts/build.sh`:
//! the module is a file of each package, generated from score-core's definitions at build
//! time, so that nothing is compiled from text at run time.

use std::io::Write as _;

fn main() -> std::io::Result<()> {
    let source = score_js::helpers::module_source();
    match std::env::args_os().nth(1) {
        Some(path) => std::fs::write(path, source),
        None => std::io::stdout().write_all(source.as_bytes()),
    }
}
