#!/usr/bin/env bash
# Packs one JavaScript package as npm publishes it (`npm pack`), installs the tarball in a fresh
# temporary folder as a user would, and uses it there: `require`, `import`, a ScoreError, a
# batch, the package's version, and its types (tsc over an installed-package import); for
# score-wasm also the browser build and each pkg-* folder packed and installed on its own.
#   score-node/scripts/pack-test.sh score-node|score-wasm     (after that package's build.sh)
# Offline-safe: the tarballs have no dependencies, so npm installs them without the registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PKG=$ROOT/$1
TSC=$ROOT/score-node/node_modules/.bin/tsc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(node -p "require('$PKG/package.json').name")
tarball=$(cd "$PKG" && npm pack --silent --pack-destination "$tmp")
mkdir "$tmp/app"
cp "$ROOT"/score-node/scripts/pack-check.{cjs,mjs} "$ROOT/score-node/scripts/pack-check-web.mjs" "$tmp/app/"
sed "s#@PACKAGE@#$name#" "$ROOT/score-node/scripts/pack-check.ts" > "$tmp/app/pack-check.ts"
cd "$tmp/app"
printf '{ "name": "pack-test", "version": "1.0.0", "private": true }\n' > package.json
npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$tarball"
node pack-check.cjs "$name"
node pack-check.mjs "$name"
printf '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2022", "esnext.disposable", "dom"], "types": [], "skipLibCheck": false }, "files": ["pack-check.ts"] }\n' > tsconfig.json
"$TSC" -p tsconfig.json
if [ "$1" = score-wasm ]; then
  # The browser build through the package's "./web" export, then each output folder packed and
  # installed on its own (each has its package.json): the Node one and the browser one.
  node pack-check-web.mjs "$name/web"
  for folder in pkg-node pkg-web; do
    folder_tarball=$(cd "$PKG/$folder" && npm pack --silent --pack-destination "$tmp")
    npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$folder_tarball"
  done
  node pack-check.cjs "$name-node"
  node pack-check-web.mjs "$name-web"
fi
echo "$name: $tarball ($(stat -c %s "$tmp/$tarball") bytes) installs in a fresh folder; require, import and types OK"
