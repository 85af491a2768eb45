// Before/after comparison of the JavaScript bindings, side by side in one process:
//   node --expose-gc benches/js/compare.mjs <base checkout> [<new checkout>]
// Loads score-node (index.js) and score-wasm (pkg-node) from both checkouts (each built with
// its own scripts/build.sh) and measures them in interleaved rounds, alternating which goes
// first, so that a slow spell of the shared machine falls on both columns. Per call: CALLS calls
// cycling over the valid fixture inputs (JS object in, JS object out; scoreJson text in and
// out). Batch: scoreMany over all inputs. Figures are medians over the rounds; the ratio is the
// median of the per-round ratios new/base (above 1 is slower).
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS, ROUNDS, fixtureInputs, measurements, median } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const base = process.argv[2];
if (!base) throw new Error('usage: node --expose-gc benches/js/compare.mjs <base checkout> [<new checkout>]');
const fresh = resolve(process.argv[3] ?? join(here, '..', '..'));
const require = createRequire(import.meta.url);
const load = (root) => ({
  'score-node': require(join(resolve(root), 'score-node', 'index.js')),
  'score-wasm': require(join(resolve(root), 'score-wasm', 'pkg-node', 'score_wasm.js')),
});
const sides = { base: load(base), new: load(fresh) };

const profiles = fixtureInputs(fresh);
const { inputs } = profiles;
const n = inputs.length;
let sink = 0;
const measures = measurements(profiles, (x) => { sink += x; });

// The two sides give the same results (the fixtures suite checks each against the fixtures).
for (const name of ['score-node', 'score-wasm']) {
  const [a, b] = [sides.base[name], sides.new[name]];
  if (JSON.stringify(a.scoreMany(inputs)) !== JSON.stringify(b.scoreMany(inputs))) throw new Error(`${name}: reports differ`);
}
for (const side of Object.values(sides)) for (const api of Object.values(side)) for (const m of Object.values(measures)) m(api);

const rows = {}; // `${impl} ${measure}` -> { base: [], new: [] }
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ['base', 'new'] : ['new', 'base'];
  for (const name of ['score-node', 'score-wasm']) {
    for (const [key, measure] of Object.entries(measures)) {
      const row = (rows[`${name} ${key}`] ??= { base: [], new: [] });
      for (const side of order) {
        globalThis.gc?.();
        row[side].push(measure(sides[side][name]));
      }
    }
  }
}
if (sink === 0) throw new Error('nothing computed');

const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
console.log(`${cpus().length} × ${cpus()[0].model}; node ${process.version}; load ${loadavg()[0].toFixed(2)}; ` +
  `${n} fixture profiles; ${ROUNDS} interleaved rounds × ${CALLS} calls; base ${resolve(base)}, new ${fresh}`);
console.log('');
console.log('| binding, call | base | new | new / base (median of rounds) |');
console.log('|---|---|---|---|');
for (const [label, row] of Object.entries(rows)) {
  const ratio = median(row.new.map((x, i) => x / row.base[i]));
  const unit = label.endsWith('scoreMany') ? ' per report' : '';
  console.log(`| ${label} | ${us(median(row.base))}${unit} | ${us(median(row.new))}${unit} | ${ratio.toFixed(3)} |`);
}
