// Run by pack-test.sh for score-wasm: the browser build (`<name>/web` of the package, or the
// pkg-web folder installed alone) instantiated in Node from its installed .wasm file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const name = process.argv[2];
const web = await import(name);
const entry = createRequire(join(process.cwd(), 'x.js')).resolve(name);
web.initSync({ module: readFileSync(join(dirname(entry), 'score_wasm_bg.wasm')) });
const profile = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, ahorro: 100000, edad: 35 };
assert.equal(web.score(profile).score, 641);
assert.throws(() => web.score({}), (e) => e instanceof web.ScoreError && e.code === 'MISSING_FIELD');
console.log(`${name}: browser build OK`);
