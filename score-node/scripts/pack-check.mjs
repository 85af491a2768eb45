// Run by pack-test.sh in a fresh folder where the packed package is installed: uses it with
// `import` (named exports) as an ES module user would.
import assert from 'node:assert/strict';

const name = process.argv[2];
const { score, scoreManyAsync, ScoreError, MODEL_VERSION } = await import(name);
const profile = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, ahorro: 100000, edad: 35 };
assert.equal(MODEL_VERSION, '2.1');
assert.equal(score(profile).score, 641);
await assert.rejects(scoreManyAsync([{ ...profile, edad: 12 }]), (e) => e instanceof ScoreError && e.code === 'VALUE_OUT_OF_RANGE' && e.index === 0);
console.log(`${name}: import OK`);
