// The implementation score-node's test suite runs against, chosen by SCORE_IMPL (node: the napi-rs
// addon, the default; wasm: score-wasm's build for Node). Outside test/ so that `node --test
// score-node/test/` does not run it as a test file.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const IMPL = process.env.SCORE_IMPL ?? 'node';
/** Each implementation's entry file (a worker loads it by path). */
export const paths = {
  node: join(root, 'score-node', 'index.js'),
  wasm: join(root, 'score-wasm', 'pkg-node', 'score_wasm.js'),
};
if (!paths[IMPL]) throw new Error(`SCORE_IMPL must be node or wasm, not ${IMPL}`);
/** The implementation's exports. */
export const api = createRequire(import.meta.url)(paths[IMPL]);
