// Writes the package.json of one wasm-bindgen output folder (pkg-node, pkg-web, pkg-bundler):
//   node score-wasm/scripts/folder-package.mjs <nodejs|web|bundler> <folder>
// Name @platform-score/wasm-<node|web|bundler>; version, license and description from
// score-wasm/package.json (the one version source of the JS packages is there and in
// score-node/package.json, checked against the crates' version by the pack test).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [target, folder] = process.argv.slice(2);
const flavour = { nodejs: 'node', web: 'web', bundler: 'bundler' }[target];
if (!flavour || !folder) throw new Error('usage: folder-package.mjs <nodejs|web|bundler> <folder>');
const main = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'));
const files = readdirSync(folder).filter((f) => f !== 'package.json').sort();
const pkg = {
  name: `${main.name}-${flavour}`,
  version: main.version,
  description: `${main.description}; the ${flavour} build (wasm-bindgen --target ${target})`,
  license: main.license,
  // The glue of the Node build is CommonJS; the other two are ES modules.
  type: target === 'nodejs' ? 'commonjs' : 'module',
  main: 'score_wasm.js',
  types: 'score_wasm.d.ts',
  exports: { '.': { types: './score_wasm.d.ts', default: './score_wasm.js' }, './package.json': './package.json' },
  files,
  ...(target === 'bundler' ? { sideEffects: ['./score_wasm.js', './score_wasm_bg.js'] } : {}),
  engines: main.engines,
};
writeFileSync(join(folder, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
