#!/usr/bin/env bash
# Builds the score-node package: the addon (release) with its loader native.js and types
# index.d.ts (`napi build`), and score_helpers.mjs, the helper functions generated from
# score-core's definitions (score-js-helpers); index.js ties them together. Installs the npm
# packages first when they are missing. Honours CARGO_TARGET_DIR.
# `npm install`, not `npm ci`: the registry here lacks some other-platform optional packages
# of @napi-rs/cli, so `npm ci` refuses the lock file (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/napi ] || [ ! -x node_modules/.bin/tsc ]; then
  npm install --no-audit --no-fund --loglevel=error
fi
cargo run -q --release --locked -p score-js --bin score-js-helpers -- score_helpers.mjs
node_modules/.bin/napi build --platform --release --js native.js --dts index.d.ts
