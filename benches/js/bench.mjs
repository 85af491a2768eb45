// score-node vs score-wasm (in Node) vs native score-core, side by side in one run.
//   node --expose-gc benches/js/bench.mjs <native_timing executable>
// (benches/js/run.sh builds everything and passes target/release/examples/native_timing.)
//
// The rounds are interleaved: each round runs the native timing (the median of three short
// rounds, in its own process), then one round of every JS measurement, so that a slow spell of the machine (these
// shared machines have them, lasting seconds) falls on both sides of a ratio. Per call: N calls
// cycling over the valid fixture inputs, conversion included (JS object in, JS object out).
// Batch: scoreMany over all inputs, reports per second. Figures are medians over the rounds;
// ratios are medians of the per-round ratios.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS, ROUNDS, fixtureInputs, measurements, median } from './measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const impls = {
  'score-node': require(join(root, 'score-node', 'index.js')),
  'score-wasm': require(join(root, 'score-wasm', 'pkg-node', 'score_wasm.js')),
};
const nativeTiming = process.argv[2];
if (!nativeTiming) throw new Error('usage: node benches/js/bench.mjs <native_timing executable>');

const profiles = fixtureInputs(root);
const { fixtures } = profiles;
const n = profiles.inputs.length;
let sink = 0;
const { score, scoreJson, scoreMany } = measurements(profiles, (x) => { sink += x; });
// Batch as reports per second.
const measures = { score, scoreJson, batch: (api) => 1e9 / scoreMany(api) };

// Warm-up: every path compiled and optimised before the first round.
for (const api of Object.values(impls)) {
  for (const measure of Object.values(measures)) measure(api);
}

const native = [];
const rounds = Object.fromEntries(Object.keys(impls).map((name) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  const out = execFileSync(nativeTiming, [fixtures, '3', String(CALLS)], { encoding: 'utf8' });
  native.push(JSON.parse(out));
  for (const [name, api] of Object.entries(impls)) {
    rounds[name].push(Object.fromEntries(Object.entries(measures).map(([key, measure]) => {
      // A full collection first, so that no measurement pays for the garbage of the previous
      // one (run.sh passes --expose-gc).
      globalThis.gc?.();
      return [key, measure(api)];
    })));
  }
}
if (sink === 0) throw new Error('nothing computed');

const nativeMedian = (key) => median(native.map((x) => x.ns_per_call[key]));
const nativeBatch = median(native.map((x) => x.batch_reports_per_s));
const jsMedian = (name, key) => median(rounds[name].map((x) => x[key]));
/** Median over the rounds of `name`'s `key` over native's `nativeKey` in the same round. */
const ratio = (name, key, nativeKey) => median(rounds[name].map((x, r) => x[key] / native[r].ns_per_call[nativeKey]));
const batchRatio = (name) => median(rounds[name].map((x, r) => native[r].batch_reports_per_s / x.batch));

const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const kps = (x) => `${Math.round(x / 1000)}k/s`;
console.log(`machine: ${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB; node ${process.version}; ` +
  `load ${loadavg()[0].toFixed(2)}; ${n} fixture profiles; ${ROUNDS} interleaved rounds × ${CALLS} calls`);
console.log('');
console.log('| surface | score(object) per call | scoreJson(text) per call | batch (scoreMany) |');
console.log('|---|---|---|---|');
console.log(`| native score-core | ${us(nativeMedian('score_value'))} (score_value; score(&Profile) ${us(nativeMedian('score_profile'))}; ` +
  `+ to_json_string ${us(nativeMedian('report_json'))}) | ${us(nativeMedian('score_json'))} | ${kps(nativeBatch)} |`);
for (const name of Object.keys(impls)) {
  console.log(`| ${name} | ${us(jsMedian(name, 'score'))} | ${us(jsMedian(name, 'scoreJson'))} | ${kps(jsMedian(name, 'batch'))} |`);
}
console.log('');
for (const name of Object.keys(impls)) {
  console.log(`${name}: score(object) ${ratio(name, 'score', 'score_value').toFixed(2)}x native score_value; ` +
    `scoreJson ${ratio(name, 'scoreJson', 'score_json').toFixed(2)}x native score_json; ` +
    `scoreMany ${batchRatio(name).toFixed(2)}x slower than native`);
}
const wasmObject = ratio('score-wasm', 'score', 'score_value');
const wasmJson = ratio('score-wasm', 'scoreJson', 'score_json');
console.log(`targets: score-node < 3 µs per score() call: ${jsMedian('score-node', 'score') < 3000 ? 'met' : 'NOT met'}; ` +
  `score-wasm within 3x native per report: score(object) vs score_value ${wasmObject <= 3 ? 'met' : 'NOT met'}, ` +
  `scoreJson vs score_json ${wasmJson <= 3 ? 'met' : 'NOT met'}`);
