#!/usr/bin/env bash
# make bench-js: build score-node and score-wasm (release), measure native score-core with the
# same fixture profiles, then score-node and score-wasm in Node, and print the table + ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
score-node/scripts/build.sh
score-wasm/scripts/build.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cargo run -q --release --locked -p score-wasm --example native_timing -- fixtures 7 "${BENCH_CALLS:-20000}" > "$out"
node benches/js/bench.mjs "$out"
