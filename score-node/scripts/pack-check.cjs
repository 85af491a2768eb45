// Run by pack-test.sh in a fresh folder where the packed package is installed: uses it with
// `require` as a CommonJS user would. Exits non-zero on any failure.
'use strict';
const assert = require('node:assert/strict');
const name = process.argv[2];
const api = require(name);
const profile = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, ahorro: 100000, edad: 35 };

assert.equal(require(`${name}/package.json`).version, api.VERSION, 'package.json version is score-core version');
const report = api.score(profile);
assert.equal(report.score, 641);
assert.equal(report.nivel, 'alto');
assert.equal(JSON.parse(api.scoreJson(JSON.stringify(profile))).score, 641);
assert.throws(() => api.scoreMany(5), (e) => e instanceof api.ScoreError && e.code === 'INVALID_TYPE' && e.field === null);
const many = api.scoreMany([profile, { ...profile, estado: 'XX' }], { errors: 'return' });
assert.equal(many[0].score, 641);
assert.ok(many[1] instanceof api.ScoreError && many[1].code === 'UNKNOWN_STATE' && many[1].index === 1);
api.scoreManyAsync([profile, profile]).then((out) => {
  assert.deepEqual(out.map((r) => r.score), [641, 641]);
  console.log(`${name}: require OK`);
});
