#!/usr/bin/env bash
# make bench-js: build score-node and score-wasm (release) and the native timing program, then
# measure native score-core, score-node and score-wasm in Node in interleaved rounds with the
# same fixture profiles, and print the table and the ratios (benches/js/bench.mjs); then
# score-node's batches at scale: 100,000 profiles through a score() loop, scoreMany and
# scoreManyAsync, side by side (benches/js/batch.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
score-node/scripts/build.sh
score-wasm/scripts/build.sh
cargo build -q --release --locked -p score-wasm --example native_timing
node --expose-gc benches/js/bench.mjs "${CARGO_TARGET_DIR:-target}/release/examples/native_timing"
node benches/js/batch.mjs
