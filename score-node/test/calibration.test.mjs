// Calibration: loaded from TOML, written back, refused with CALIBRATION_INVALID (every case of
// fixtures/calibraciones/invalidas.json, the file Rust and Python test too), and taken by every
// scoring call as the `calibration` option. Runs against the implementation SCORE_IMPL names,
// like score.test.mjs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, IMPL, root } from '../test-support/implementation.mjs';
const { Calibration, ScoreError } = api;

const EMBEDDED = readFileSync(join(root, 'score-core', 'calibration', 'mx-2026.toml'), 'utf8');
const INVALID = JSON.parse(readFileSync(join(root, 'fixtures', 'calibraciones', 'invalidas.json'), 'utf8'));
const TWO_BANKS = JSON.parse(readFileSync(join(root, 'fixtures', 'calibraciones', 'dos-bancos.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'fixtures', 'manifest.json'), 'utf8'));
const cases = manifest.cases.map((path) => ({ path, ...JSON.parse(readFileSync(join(root, 'fixtures', path), 'utf8')) }));
const valid = cases.filter((c) => 'expected' in c && 'input' in c);
const invalidProfiles = cases.filter((c) => c.error && 'input' in c);

const BASE = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, ahorro: 100000, edad: 35 };

/** The embedded calibration under another id (every figure the same). */
function renamed(id) {
  const text = EMBEDDED.replace(/^id = "[^"]*"/m, `id = "${id}"`);
  assert.notEqual(text, EMBEDDED);
  return Calibration.fromToml(text);
}

/** `fn` throws the package's ScoreError with this code and field, and a Spanish message. */
function assertThrowsCode(fn, code, field) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof ScoreError, `a ScoreError: ${err}`);
    assert.equal(err.code, code, err.message);
    assert.equal(err.field, field, err.message);
    assert.equal(err.errors[0].codigo, code);
    assert.equal(err.errors[0].campo, field);
    assert.equal(err.message, `${code}: ${err.errors[0].mensaje}`);
    return true;
  });
}

describe(`Calibration (${IMPL})`, () => {
  test('the default is the embedded document, the one a report names when none is given', () => {
    const c = Calibration.default();
    assert.ok(c instanceof Calibration);
    assert.equal(c.id, api.score(BASE).calibracion);
    assert.match(c.id, /^mx-/);
    assert.equal(c.vigenteDesde, '2026-02-01');
    assert.equal(Calibration.fromToml(EMBEDDED).id, c.id);
    const again = Calibration.fromToml(c.toToml());
    assert.deepEqual([again.id, again.vigenteDesde, again.toToml()], [c.id, c.vigenteDesde, c.toToml()]);
  });

  for (const caso of INVALID.casos) {
    test(`refused: ${caso.description}`, () => {
      assert.ok(EMBEDDED.includes(caso.reemplazar), caso.reemplazar);
      const text = EMBEDDED.replace(caso.reemplazar, caso.por);
      assert.equal(caso.error.code, 'CALIBRATION_INVALID');
      assertThrowsCode(() => Calibration.fromToml(text), 'CALIBRATION_INVALID', caso.error.field);
      assert.throws(() => Calibration.fromToml(text), /^ScoreError: CALIBRATION_INVALID: La calibración no es válida\. /);
    });
  }

  test('misuse is INVALID_TYPE: fromToml of a non-text, a calibration option of another kind', () => {
    for (const bad of [undefined, null, 5, {}, ['id = "x"']]) assertThrowsCode(() => Calibration.fromToml(bad), 'INVALID_TYPE', null);
    for (const calibration of ['mx-2026', 5, {}, { id: 'x' }, [], ScoreError]) {
      assertThrowsCode(() => api.score(BASE, { calibration }), 'INVALID_TYPE', null);
      assertThrowsCode(() => api.scoreJson(JSON.stringify(BASE), { calibration }), 'INVALID_TYPE', null);
      assertThrowsCode(() => api.scoreMany([BASE], { calibration }), 'INVALID_TYPE', null);
    }
    assertThrowsCode(() => api.score(BASE, 'mx-2026'), 'INVALID_TYPE', null);
    // Only fromToml and default() make one: `new` throws (score-node) or makes an empty object
    // (score-wasm) that no call accepts.
    let empty = null;
    try {
      empty = new Calibration();
    } catch {}
    if (empty) assertThrowsCode(() => api.score(BASE, { calibration: empty }), 'INVALID_TYPE', null);
    assert.ok(IMPL === 'wasm' || empty === null);
  });

  test('Calibration.default() scores every fixture as no calibration does, on every call', async () => {
    const calibration = Calibration.default();
    for (const c of valid) {
      assert.deepStrictEqual(api.score(c.input, { calibration }), c.expected, c.path);
      assert.equal(api.scoreJson(JSON.stringify(c.input), { calibration }), api.scoreJson(JSON.stringify(c.input)), c.path);
    }
    for (const c of invalidProfiles) {
      assertThrowsCode(() => api.score(c.input, { calibration }), c.error.code, c.error.field ?? null);
    }
    for (const c of cases.filter((c) => 'input_text' in c)) {
      if (c.error) assertThrowsCode(() => api.scoreJson(c.input_text, { calibration }), c.error.code, c.error.field ?? null);
      else assert.equal(api.scoreJson(c.input_text, { calibration }), JSON.stringify(c.expected), c.path);
    }
    const inputs = valid.map((c) => c.input);
    const expected = valid.map((c) => c.expected);
    assert.deepStrictEqual(api.scoreMany(inputs, { calibration }), expected);
    assert.deepStrictEqual(await api.scoreManyAsync(inputs, { calibration }), expected);
    assert.deepStrictEqual(await Promise.all(inputs.map((p) => api.scoreAsync(p, { calibration }))), expected);
  });

  test("a calibration's id is the report's calibracion on every call, the rest unchanged", async () => {
    const calibration = renamed('banco-ejemplo-2026.03');
    assert.equal(calibration.id, 'banco-ejemplo-2026.03');
    const plain = api.score(BASE);
    const report = api.score(BASE, { calibration });
    assert.equal(report.calibracion, 'banco-ejemplo-2026.03');
    assert.deepStrictEqual({ ...report, calibracion: plain.calibracion }, plain);
    const text = api.scoreJson(JSON.stringify(BASE), { calibration });
    assert.equal(text, api.scoreJson(JSON.stringify(BASE)).replace(`"calibracion":"${plain.calibracion}"`, '"calibracion":"banco-ejemplo-2026.03"'));
    assert.equal((await api.scoreAsync(BASE, { calibration })).calibracion, 'banco-ejemplo-2026.03');
    const many = api.scoreMany([BASE, { ...BASE, estado: 'XX' }, BASE], { calibration, errors: 'return', simulations: false });
    assert.deepEqual([many[0].calibracion, many[1].code, many[2].calibracion], ['banco-ejemplo-2026.03', 'UNKNOWN_STATE', 'banco-ejemplo-2026.03']);
    // Over several parts of scoreManyAsync and several chunks of scoreMany's pipeline.
    const big = Array.from({ length: 9000 }, (_, i) => ({ ...BASE, ingreso_mensual: 20000 + i }));
    for (const reports of [api.scoreMany(big, { calibration, simulations: false }), await api.scoreManyAsync(big, { calibration, simulations: false })]) {
      assert.equal(reports.length, big.length);
      assert.ok(reports.every((r) => r.calibracion === 'banco-ejemplo-2026.03'));
    }
    assert.equal(api.score(BASE).calibracion, plain.calibracion, 'the default is unchanged');
  });

  test("a bank's calibration scores every call with its own figures, batches as one profile alone", async () => {
    // BBVA's Hipoteca Fija as its calculator shows it (fixtures/simuladores): its own rate and
    // insurances change the bank's offer; every call gives what scoring each profile alone gives.
    const bbva = Calibration.fromToml(readFileSync(join(root, 'fixtures', 'simuladores', 'bbva-hipoteca-fija.toml'), 'utf8'));
    const profiles = Array.from({ length: 17000 }, (_, i) => ({ ...BASE, ingreso_mensual: 20000 + 17 * (i % 997) }));
    const alone = profiles.slice(0, 997).map((p) => api.score(p, { calibration: bbva }));
    assert.notDeepStrictEqual(alone.map((r) => ({ ...r, calibracion: '' })), profiles.slice(0, 997).map((p) => ({ ...api.score(p), calibracion: '' })));
    const expected = profiles.map((_, i) => alone[i % 997]);
    // scoreMany past one block of its pipeline (16,384 profiles), and scoreManyAsync's parts.
    assert.deepStrictEqual(api.scoreMany(profiles, { calibration: bbva }), expected);
    assert.deepStrictEqual(await api.scoreManyAsync(profiles, { calibration: bbva }), expected);
    assert.deepStrictEqual(await api.scoreAsync(profiles[5], { calibration: bbva }), alone[5]);
    assert.deepStrictEqual(JSON.parse(api.scoreJson(JSON.stringify(profiles[7]), { calibration: bbva })), JSON.parse(JSON.stringify(alone[7])));
  });

  for (const caso of TWO_BANKS.casos) {
    test(`two bank products: ${caso.description}`, async () => {
      // The same calibrations Rust and Python test (fixtures/calibraciones/dos-bancos.json): both
      // bank products listed, the one that buys the most house recommended, on every call.
      assert.ok(EMBEDDED.includes(caso.reemplazar), caso.reemplazar);
      const calibration = Calibration.fromToml(EMBEDDED.replace(caso.reemplazar, caso.por));
      assert.equal(Calibration.fromToml(calibration.toToml()).toToml(), calibration.toToml());
      const report = api.score(caso.perfil, { calibration });
      assert.deepEqual(report.productos.map((o) => o.producto), caso.productos);
      assert.equal(report.producto_recomendado, caso.producto_recomendado);
      const best = report.productos.filter((o) => o.elegible).reduce((a, b) => (b.valor_vivienda_max > a.valor_vivienda_max ? b : a));
      assert.equal(best.producto, caso.producto_recomendado);
      assert.deepStrictEqual(JSON.parse(api.scoreJson(JSON.stringify(caso.perfil), { calibration })), JSON.parse(JSON.stringify(report)));
      assert.deepStrictEqual(api.scoreMany([caso.perfil, caso.perfil], { calibration }), [report, report]);
      assert.deepStrictEqual(await api.scoreManyAsync([caso.perfil], { calibration }), [report]);
      assert.deepStrictEqual(await api.scoreAsync(caso.perfil, { calibration }), report);
    });
  }

  test('a bad options value rejects scoreAsync and scoreManyAsync', async () => {
    for (const call of [() => api.scoreAsync(BASE, { calibration: 'x' }), () => api.scoreManyAsync([BASE], { calibration: 'x' })]) {
      await assert.rejects(call(), (err) => err instanceof ScoreError && err.code === 'INVALID_TYPE' && err.field === null);
    }
  });
});
