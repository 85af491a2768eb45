#!/usr/bin/env bash
# Builds the score-node addon (release) and its generated index.js / index.d.ts, installing
# the npm packages first when they are missing. Honours CARGO_TARGET_DIR.
# `npm install`, not `npm ci`: the registry here lacks some other-platform optional packages
# of @napi-rs/cli, so `npm ci` refuses the lock file (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/napi ] || [ ! -x node_modules/.bin/tsc ]; then
  npm install --no-audit --no-fund --loglevel=error
fi
node_modules/.bin/napi build --platform --release
