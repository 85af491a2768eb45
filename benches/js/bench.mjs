// score-node vs score-wasm (in Node) vs native score-core, side by side in one run.
//   node benches/js/bench.mjs [native.json]     (benches/js/run.sh builds everything and passes
//                                                the native figures measured just before)
// Per call: median of 7 rounds of N calls cycling over the valid fixture inputs, conversion
// included (JS object in, JS object out). Batch: scoreMany over all inputs, reports per second.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const impls = {
  'score-node': require(join(root, 'score-node', 'index.js')),
  'score-wasm': require(join(root, 'score-wasm', 'pkg-node', 'score_wasm.js')),
};
const native = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : null;

const fixtures = join(root, 'fixtures');
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
const inputs = manifest.cases
  .map((p) => JSON.parse(readFileSync(join(fixtures, p), 'utf8')))
  .filter((c) => c.expected && 'input' in c)
  .map((c) => c.input);
const texts = inputs.map((p) => JSON.stringify(p));
const ROUNDS = 7;
const CALLS = Number(process.env.BENCH_CALLS ?? 20000);

function median(xs) { return xs.sort((a, b) => a - b)[xs.length >> 1]; }
function perCall(fn) {
  const n = inputs.length;
  for (let i = 0; i < CALLS / 4; i++) fn(i % n);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) fn(i % n);
    rounds.push(Number(process.hrtime.bigint() - t) / CALLS);
  }
  return median(rounds);
}
function batch(api) {
  const reps = Math.max(1, Math.floor(CALLS / inputs.length));
  api.scoreMany(inputs);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.hrtime.bigint();
    for (let k = 0; k < reps; k++) api.scoreMany(inputs);
    rounds.push((reps * inputs.length) / (Number(process.hrtime.bigint() - t) / 1e9));
  }
  return median(rounds);
}

const rows = {};
for (const [name, api] of Object.entries(impls)) {
  let sink = 0;
  rows[name] = {
    score: perCall((i) => { sink += api.score(inputs[i]).score; }),
    // A character from the middle: the string is complete (flat), as a caller would use it.
    scoreJson: perCall((i) => { const s = api.scoreJson(texts[i]); sink += s.charCodeAt(s.length >> 1); }),
    batch: batch(api),
  };
  if (sink === 0) throw new Error('nothing computed');
}

const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const kps = (x) => `${Math.round(x / 1000)}k/s`;
console.log(`machine: ${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB; node ${process.version}; ${inputs.length} fixture profiles, ${ROUNDS}×${CALLS} calls`);
console.log('');
console.log('| surface | score(object) per call | scoreJson(text) per call | batch (scoreMany) |');
console.log('|---|---|---|---|');
if (native) {
  const n = native.ns_per_call;
  console.log(`| native score-core | ${us(n.score_value)} (score_value; score(&Profile) ${us(n.score_profile)}; + to_json_string ${us(n.report_json)}) | ${us(n.score_json)} | ${kps(native.batch_reports_per_s)} |`);
}
for (const [name, r] of Object.entries(rows)) {
  console.log(`| ${name} | ${us(r.score)} | ${us(r.scoreJson)} | ${kps(r.batch)} |`);
}
if (native) {
  const n = native.ns_per_call;
  console.log('');
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${name}: score(object) ${(r.score / n.score_value).toFixed(2)}x native score_value; ` +
      `scoreJson ${(r.scoreJson / n.score_json).toFixed(2)}x native score_json; ` +
      `scoreMany ${(native.batch_reports_per_s / r.batch).toFixed(2)}x slower than native`);
  }
  const wasm = rows['score-wasm'];
  console.log(`targets: score-node < 3 µs per score() call: ${rows['score-node'].score < 3000 ? 'met' : 'NOT met'}; ` +
    `score-wasm within 3x native per report: score(object) vs score_value ${wasm.score / n.score_value <= 3 ? 'met' : 'NOT met'}, ` +
    `scoreJson vs score_json ${wasm.scoreJson / n.score_json <= 3 ? 'met' : 'NOT met'}`);
}
