#!/usr/bin/env bash
# Builds the score-wasm packages from a fresh machine:
#   pkg-web/     ES module for browsers (`await init()` first), used by www/
#   pkg-bundler/ ES module for bundlers (webpack, vite: the .wasm is imported)
#   pkg-node/    CommonJS module for Node (require; loads synchronously)
# Installs what is missing: the wasm32 target, wasm-bindgen-cli at the exact version of
# wasm-bindgen in Cargo.lock (the CLI and the crate must match), and the npm packages
# (binaryen for wasm-opt; Debian's binaryen is too old: its output fails to instantiate).
set -euo pipefail
cd "$(dirname "$0")/../.."            # repository root
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
PKG=$ROOT/score-wasm

rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

WBG_VER=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
[ -n "$WBG_VER" ] || { echo "wasm-bindgen not found in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG_VER" ]; then
  echo "installing wasm-bindgen-cli $WBG_VER (about 3 minutes, once per machine)"
  # Not --locked: the CLI's lock file names a webpki-roots version missing from this index.
  cargo install wasm-bindgen-cli --version "$WBG_VER"
fi

if [ ! -x "$PKG/node_modules/.bin/wasm-opt" ] || [ ! -d "$PKG/node_modules/playwright-core" ]; then
  (cd "$PKG" && npm ci --no-audit --no-fund --loglevel=error)
fi

cargo build -p score-wasm --target wasm32-unknown-unknown --release --locked
WASM=$TARGET_DIR/wasm32-unknown-unknown/release/score_wasm.wasm
# The helper functions the glue imports (./score_helpers.mjs), generated from score-core's
# definitions: a file of each package, so that nothing is compiled from text at run time.
cargo build -q -p score-js --bin score-js-helpers --release --locked
HELPERS=$TARGET_DIR/release/score-js-helpers

MODEL_VERSION=$(sed -n 's/^pub const MODEL_VERSION: &str = "\(.*\)";/\1/p' score-core/src/report/mod.rs)
VERSION=$(cargo metadata --format-version 1 --no-deps --locked \
  | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).packages.find(p=>p.name==="score-core").version))')

for target in web bundler nodejs; do
  out=$PKG/pkg-${target/nodejs/node}
  rm -rf "$out"
  wasm-bindgen --target "$target" --out-dir "$out" "$WASM"
  "$HELPERS" "$out/score_helpers.mjs"
  "$PKG/node_modules/.bin/wasm-opt" -O3 "$out/score_wasm_bg.wasm" -o "$out/score_wasm_bg.wasm"
  # The constants of the shared API (wasm-bindgen exports functions only); the test suite
  # checks them against modelVersion()/version() and the report's modelo_version.
  # ScoreError, the class of every error the package throws, is the helper module's.
  if [ "$target" = nodejs ]; then
    printf 'exports.MODEL_VERSION = "%s";\nexports.VERSION = "%s";\nexports.ScoreError = require("./score_helpers.mjs").ScoreError;\n' \
      "$MODEL_VERSION" "$VERSION" >> "$out/score_wasm.js"
  else
    printf 'export const MODEL_VERSION = "%s";\nexport const VERSION = "%s";\nexport { ScoreError } from "./score_helpers.mjs";\n' \
      "$MODEL_VERSION" "$VERSION" >> "$out/score_wasm.js"
  fi
  printf '/** Version of the score model ("%s"). */\nexport const MODEL_VERSION: string;\n/** Version of score-core. */\nexport const VERSION: string;\n' \
    "$MODEL_VERSION" >> "$out/score_wasm.d.ts"
  # A package.json of its own, so that npm can install the folder alone
  # (`npm install score-wasm/pkg-web`); the package of score-wasm/package.json holds all three.
  node "$PKG/scripts/folder-package.mjs" "$target" "$out"
done
# The page serves its own copy of the web package (www/ is the whole site).
rm -rf "$PKG/www/pkg" && cp -r "$PKG/pkg-web" "$PKG/www/pkg"
size=$(stat -c %s "$PKG/pkg-web/score_wasm_bg.wasm"); gz=$(gzip -9c "$PKG/pkg-web/score_wasm_bg.wasm" | wc -c)
echo "score_wasm_bg.wasm: $size bytes ($gz gzip -9)"
# Budget: see the last line. It was 250 KB until the verdict (dictamen, issue 17) added its rules and texts,
# 300 KiB until the what-ifs (simulaciones, issue 17) added about 5 KB gzip, and 320 KiB until
# the credit products (productos, issue 17) added about 44 KB gzip: their rules in two
# arithmetics (the filtered one and its decimal fallback), Banxico's CAT solver and its tables,
# 448 KiB until reading a JSON text's numbers from their digits (issue 17 item 7) added 16 KB,
# 452 KiB until the report's speed work (issue 17: what-ifs that reuse the report's values
# and re-rank its offers, products that read each input once) added 11 KB (5 KB gzip), and
# 464 KiB until more of it (INFONAVIT's payment band in filtered arithmetic, the co-borrower
# what-if's early stop) added 3.5 KB (1.3 KB gzip), and 468 KiB until every mistake of a profile at
# once (issue 44: reading on after a mistake, the one table of messages, the errors handed to
# JavaScript as objects) added 5.8 KB, 472 KiB until the model computed with a calibration's
# figures (issue 42: the figures read through a reference instead of folded constants, the fixed
# products' terms solved at load instead of compiled in) added about 48 KB, and 536 KiB until
# loading a calibration document (issue 42 item 4: Calibration.fromToml/default/toToml in the
# browser) added about 559 KB (192 KB gzip): score-core's TOML reader (toml's parser, its serde
# deserializer monomorphized through serde_path_to_error for every table of the document, the
# document's derived Deserialize and Serialize, the checks and their messages, the embedded 26 KB
# document); toToml alone is 27 KB, and 1053 KiB until that reader became a hand walk of toml's
# parsed tables (issue 42: no serde derive, no serde_path_to_error), 314 KB (99 KB gzip) less,
# then a calibration's own bank products (issue 42 part 3) added 24 KB (10 KB gzip), and 770 KiB
# until Cofinavit (issue 42 part 2: a sixth kind of product, its rules in both arithmetics, its
# reason and its entry in the embedded document) added 14.8 KB (6 KB gzip), and 784 KiB until
# the verdict's and the recommendations' texts stated the calibration's own limits (issue 42: each
# text a template filled from the calibration in use, its percentages, months and the states'
# closing costs written at run time) added 11.6 KB (3.7 KB gzip), and the what-ifs' bounds that
# leave Cofinavit out where it cannot be recommended (issue 42) 2.9 KB (0.7 KB gzip).
# Budget: 800 KiB, the measured 817,699 bytes (318,200 gzip) and 1.5 KB to spare (see score-wasm/README.md).
[ "$size" -lt 819200 ] || { echo "score_wasm_bg.wasm is over the 800 KiB budget" >&2; exit 1; }
