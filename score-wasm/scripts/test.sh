#!/usr/bin/env bash
# make test-wasm: the unit tests of score-js (shared with score-node), then build score-wasm (installing
# the wasm target, wasm-bindgen-cli and npm packages when missing), run the same JavaScript test
# suite against it in Node, type-check the shared TypeScript types over both packages, then the
# browser end-to-end test in Debian's Chromium (installed with apt when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The unit tests of score-js, the code shared with score-node (native; no wasm needed).
cargo test -q -p score-js --locked
score-wasm/scripts/build.sh
# As in score-node's test.sh: eval and new Function throw, the package compiles nothing from text.
SCORE_IMPL=wasm node --disallow-code-generation-from-strings --test score-node/test/
# The typed example imports both packages, so score-node must be built too (a no-op when it is).
score-node/scripts/build.sh
(cd score-node && node_modules/.bin/tsc -p types/tsconfig.json)
echo "tsc: shared types OK over score-node and score-wasm"
# The package (and each pkg-* folder) as npm publishes it, installed in a fresh folder and used.
score-node/scripts/pack-test.sh score-wasm
node --test score-wasm/e2e/
