#!/usr/bin/env bash
# Builds score-docs-wasm into score-docs/wasm/pkg-node (CommonJS, for the node:test suite) and
# pkg-web (ES module for pages). Needs the wasm32 target and wasm-bindgen-cli at the version of
# Cargo.lock, which score-wasm/scripts/build.sh installs when missing (as this script does).
set -euo pipefail
cd "$(dirname "$0")/../.."            # repository root
TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
WBG_VER=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG_VER" ]; then
  cargo install wasm-bindgen-cli --version "$WBG_VER"
fi
cargo build -p score-docs-wasm --target wasm32-unknown-unknown --release --locked
WASM=$TARGET_DIR/wasm32-unknown-unknown/release/score_docs_wasm.wasm
wasm-bindgen "$WASM" --target nodejs --out-dir score-docs/wasm/pkg-node
wasm-bindgen "$WASM" --target web --out-dir score-docs/wasm/pkg-web
echo "score_docs_wasm_bg.wasm: $(stat -c %s score-docs/wasm/pkg-web/score_docs_wasm_bg.wasm) bytes"
