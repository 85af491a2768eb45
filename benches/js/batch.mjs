// score-node batches at scale, side by side in one run: 100,000 profiles through a score()
// loop, scoreMany and scoreManyAsync, in interleaved rounds (the order rotates each round).
//   node benches/js/batch.mjs [<checkout root>]      (make bench-js runs it)
// Each measurement runs in a fresh Node process (warmed up on 10,000 profiles first), so that
// one variant's 100,000 kept reports do not change the heap the next one starts from.
// The profiles cycle over the valid fixture inputs; every report is kept (a caller keeps its
// results), so V8's allocation and collection of 100,000 reports is part of every figure.
// Per variant: profiles per second (median over the rounds), the median per-round ratio to the
// loop in the same round, and the longest stall of the event loop during the call (a 1 ms
// interval timer's longest gap: a synchronous call stalls it for its whole length).
// A checkout root other than this one measures that checkout's score-node (a base without
// scoreManyAsync gets the other two).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureInputs, median } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(process.argv[2] && process.argv[2] !== '--one' ? process.argv[2] : join(here, '..', '..'));
const api = createRequire(import.meta.url)(join(root, 'score-node', 'index.js'));
const N = Number(process.env.BENCH_PROFILES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const { inputs } = fixtureInputs(join(here, '..', '..'));
const profiles = Array.from({ length: N }, (_, i) => inputs[i % inputs.length]);
const variants = {
  'score() loop': async () => {
    const out = [];
    for (let i = 0; i < N; i++) out.push(api.score(profiles[i]));
    return out;
  },
  scoreMany: async () => api.scoreMany(profiles),
  ...(api.scoreManyAsync ? { scoreManyAsync: () => api.scoreManyAsync(profiles) } : {}),
};
const names = Object.keys(variants);

/** One timed call: [profiles per second, longest event-loop stall in ms]. */
async function timed(run) {
  globalThis.gc?.();
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5)); // the timer is running
  last = performance.now();
  const t = process.hrtime.bigint();
  const out = await run();
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  stall = Math.max(stall, performance.now() - last);
  clearInterval(timer);
  if (out.length !== N || typeof out[N - 1].score !== 'number') throw new Error('wrong result');
  return [N / seconds, stall];
}

const ONE = process.argv.indexOf('--one');
if (ONE !== -1) {
  // A child: warm up on a tenth of the batch, then one timed call; prints [rate, stall].
  const run = variants[process.argv[ONE + 1]];
  const warm = profiles.slice(0, N / 10);
  for (let k = 0; k < 3; k++) {
    if (run === variants.scoreMany) api.scoreMany(warm);
    else if (run === variants.scoreManyAsync) await api.scoreManyAsync(warm);
    else for (const p of warm) api.score(p);
  }
  console.log(JSON.stringify(await timed(run)));
  process.exit(0);
}
const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const round = {};
  for (let k = 0; k < names.length; k++) {
    const name = names[(r + k) % names.length];
    const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), root, '--one', name], { encoding: 'utf8' });
    round[name] = JSON.parse(out);
  }
  rounds.push(round);
}

const kps = (x) => `${Math.round(x / 1000)}k/s`;
console.log(`machine: ${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB; node ${process.version}; ` +
  `load ${loadavg()[0].toFixed(2)}; ${root}; ${N} profiles (${inputs.length} fixture profiles cycled); ${ROUNDS} interleaved rounds`);
console.log('');
console.log('| call | profiles/s | µs per profile | vs score() loop (same round) | longest event-loop stall |');
console.log('|---|---|---|---|---|');
for (const name of names) {
  const rate = median(rounds.map((x) => x[name][0]));
  const ratio = median(rounds.map((x) => x[name][0] / x['score() loop'][0]));
  const stall = median(rounds.map((x) => x[name][1]));
  console.log(`| ${name} | ${kps(rate)} | ${(1e6 / rate).toFixed(2)} | ${ratio.toFixed(2)}x | ${stall.toFixed(0)} ms |`);
}
if (api.scoreManyAsync) {
  const ratio = median(rounds.map((x) => x.scoreManyAsync[0] / x['score() loop'][0]));
  console.log(`\ntarget: scoreManyAsync of ${N} profiles at least as fast per profile as a score() loop: ${ratio >= 1 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`);
}
