// What bench.mjs and compare.mjs share: the fixture profiles and the timed loops.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
export const CALLS = Number(process.env.BENCH_CALLS ?? 20000);

/** The valid fixture profiles under `root`/fixtures, as objects and as JSON texts. */
export function fixtureInputs(root) {
  const fixtures = join(root, 'fixtures');
  const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
  const inputs = manifest.cases
    .map((p) => JSON.parse(readFileSync(join(fixtures, p), 'utf8')))
    .filter((c) => c.expected && 'input' in c)
    .map((c) => c.input);
  return { fixtures, inputs, texts: inputs.map((p) => JSON.stringify(p)) };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Nanoseconds per call of one round of CALLS calls of `fn(i)` over `n` inputs, after CALLS / 4
 * untimed ones (the caches and branch predictors are warm again after other measurements). */
export function perCall(fn, n) {
  for (let i = 0; i < CALLS / 4; i++) fn(i % n);
  const t = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) fn(i % n);
  return Number(process.hrtime.bigint() - t) / CALLS;
}

/** Nanoseconds per report of one round of `api.scoreMany(inputs)`. */
export function batchPerReport(api, inputs) {
  const reps = Math.max(1, Math.floor(CALLS / inputs.length));
  api.scoreMany(inputs);
  const t = process.hrtime.bigint();
  for (let k = 0; k < reps; k++) api.scoreMany(inputs);
  return Number(process.hrtime.bigint() - t) / (reps * inputs.length);
}

/** The three measurements of one implementation: score(object), scoreJson(text), scoreMany. */
export function measurements({ inputs, texts }, onResult) {
  const n = inputs.length;
  return {
    score: (api) => perCall((i) => onResult(api.score(inputs[i]).score), n),
    // A character from the middle: the string is complete (flat), as a caller would use it.
    scoreJson: (api) => perCall((i) => { const s = api.scoreJson(texts[i]); onResult(s.charCodeAt(s.length >> 1)); }, n),
    scoreMany: (api) => batchPerReport(api, inputs),
  };
}
