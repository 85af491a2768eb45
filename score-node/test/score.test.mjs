// The ONE JavaScript test suite of platform-score. It runs every case of fixtures/ and the API
// tests against one implementation, chosen by SCORE_IMPL, with identical assertions:
//   SCORE_IMPL=node  score-node, the napi-rs addon (default)
//   SCORE_IMPL=wasm  score-wasm, the wasm-bindgen build for Node (score-wasm/pkg-node)
// Run: node --test score-node/test/   (after building; see score-node/README.md)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { api, IMPL, paths, root } from '../test-support/implementation.mjs';

const fixtures = join(root, 'fixtures');
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
const cases = manifest.cases.map((path) => ({ path, ...JSON.parse(readFileSync(join(fixtures, path), 'utf8')) }));
const valid = cases.filter((c) => 'expected' in c && 'input' in c);

/** Asserts that `fn` throws a score error with the fixture's code and field (and, given the
 * fixture's `errores`, every mistake in the same order). */
function assertScoreError(fn, { code, field, errores }, extra = {}) {
  assert.throws(fn, (err) => {
    assertScoreErrorShape(err, { code, field });
    if (errores) assert.deepStrictEqual(err.errors, errores, err.message);
    for (const [k, v] of Object.entries(extra)) assert.equal(err[k], v);
    return true;
  });
}

/** `err` is the package's ScoreError with this code and field. */
function assertScoreErrorShape(err, { code, field }) {
  assert.ok(err instanceof api.ScoreError, `a ScoreError: ${err}`);
  assert.ok(err instanceof Error, 'a real Error');
  assert.equal(err.name, 'ScoreError');
  assert.equal(err.code, code, err.message);
    assert.equal(err.field, field ?? null, err.message);
  assert.ok(err.message.includes(`${code}: `), err.message);
  assert.match(err.code, /^[A-Z]+(_[A-Z]+)*$/);
}

/** The report's JSON text is the fixture's, byte for byte: the fixtures keep the report's key
 * order, and JavaScript prints its numbers (at most 15 digits, no exponent) as score-core does. */
function assertSameJson(text, expected) {
  assert.deepStrictEqual(JSON.parse(text), expected);
  assert.equal(text, JSON.stringify(expected));
}

describe(`fixtures (${IMPL})`, () => {
  test('the manifest lists cases', () => {
    assert.ok(cases.length >= 100, `only ${cases.length} cases`);
    assert.ok(valid.length > 0);
  });

  for (const c of cases) {
    test(`${c.path}: ${c.description}`, () => {
      if ('input_text' in c) {
        // Raw JSON text cases go through the text entry point.
        if (c.error) assertScoreError(() => api.scoreJson(c.input_text), c.error);
        else assertSameJson(api.scoreJson(c.input_text), c.expected);
        return;
      }
      if (c.error) {
        assertScoreError(() => api.score(c.input), c.error);
        // The text entry point agrees with the object entry point.
        assertScoreError(() => api.scoreJson(JSON.stringify(c.input)), c.error);
      } else {
        assert.deepStrictEqual(api.score(c.input), c.expected);
        assertSameJson(api.scoreJson(JSON.stringify(c.input)), c.expected);
      }
    });
  }
});

describe(`API (${IMPL})`, () => {
  const sample = valid[0];

  test('MODEL_VERSION and VERSION', () => {
    assert.equal(api.MODEL_VERSION, '2.1');
    assert.equal(api.score(sample.input).modelo_version, api.MODEL_VERSION);
    assert.match(api.VERSION, /^\d+\.\d+\.\d+/);
  });

  test('the report is a plain object with plain arrays', () => {
    const r = api.score(sample.input);
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    assert.ok(Array.isArray(r.recomendaciones));
    assert.equal(typeof r.score, 'number');
    assert.equal(Object.getPrototypeOf(r.componentes.ingreso), Object.prototype);
  });

  test('scoreMany scores every valid fixture in order', () => {
    const reports = api.scoreMany(valid.map((c) => c.input));
    assert.equal(reports.length, valid.length);
    assert.deepStrictEqual(reports, valid.map((c) => c.expected));
    assert.deepStrictEqual(api.scoreMany([]), []);
  });

  test('scoreMany of something other than an array throws INVALID_TYPE', () => {
    for (const notAList of [5, 'perfiles', null, undefined, { 0: valid[0].input, length: 1 }]) {
      assertScoreError(() => api.scoreMany(notAList), { code: 'INVALID_TYPE', field: null });
    }
  });

  test('scoreMany throws the first invalid profile with its index', () => {
    const bad = cases.find((c) => c.error && 'input' in c && c.error.field);
    const profiles = [sample.input, sample.input, bad.input, { estado: 'nowhere' }];
    assertScoreError(() => api.scoreMany(profiles), bad.error, { index: 2 });
    assert.throws(() => api.scoreMany(profiles), /^ScoreError: profiles\[2\]: /);
  });

  test('scoreMany with errors: "return" puts each error in its place', () => {
    const bad = cases.filter((c) => c.error && 'input' in c);
    const profiles = valid.flatMap((c, i) => [c.input, bad[i % bad.length].input]);
    const out = api.scoreMany(profiles, { errors: 'return' });
    assert.equal(out.length, profiles.length);
    valid.forEach((c, i) => {
      assert.deepStrictEqual(out[2 * i], c.expected);
      const err = out[2 * i + 1];
      const want = bad[i % bad.length].error;
      assertScoreErrorShape(err, want);
      assert.equal(err.index, 2 * i + 1);
      assert.ok(err.message.startsWith(`profiles[${2 * i + 1}]: ${want.code}: `), err.message);
    });
    assert.deepStrictEqual(api.scoreMany(profiles.slice(0, 1), { errors: 'throw' }), [valid[0].expected]);
    assert.deepStrictEqual(api.scoreMany(profiles.slice(0, 1), {}), [valid[0].expected]);
    assert.deepStrictEqual(api.scoreMany(profiles.slice(0, 1), null), [valid[0].expected]);
  });

  test('a batch can turn simulations off: simulaciones empty, the rest identical', async () => {
    const profiles = valid.map((c) => c.input);
    assert.ok(valid.some((c) => c.expected.simulaciones.length > 0));
    const off = api.scoreMany(profiles, { simulations: false });
    const offAsync = await api.scoreManyAsync(profiles, { simulations: false, errors: 'return' });
    valid.forEach((c, i) => {
      assert.deepStrictEqual(off[i], { ...c.expected, simulaciones: [] });
      assert.deepStrictEqual(offAsync[i], off[i]);
    });
    assert.deepStrictEqual(api.scoreMany(profiles.slice(0, 1), { simulations: true }), [valid[0].expected]);
    assertScoreError(() => api.scoreMany([sample.input], { simulations: 'no' }), { code: 'INVALID_TYPE', field: null });
  });

  test('batch misuse throws a ScoreError with a stable code, never a raw binding error', () => {
    assertScoreError(() => api.scoreMany([sample.input], 'return'), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.scoreMany([sample.input], { errors: 'ignore' }), { code: 'VALUE_OUT_OF_RANGE', field: null });
    assertScoreError(() => api.scoreMany([sample.input], { errors: true }), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.scoreJson(42), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.scoreJson({}), { code: 'INVALID_TYPE', field: null });
  });

  test('scoreManyAsync gives scoreMany\'s results, errors in place, over many parts', async () => {
    const bad = cases.filter((c) => c.error && 'input' in c);
    // 10,000 profiles: several of score-node's parts of 4,096, each with bad profiles.
    const profiles = Array.from({ length: 10000 }, (_, i) => (i % 97 === 5 ? bad[i % bad.length].input : valid[i % valid.length].input));
    const sync = api.scoreMany(profiles, { errors: 'return' });
    const out = await api.scoreManyAsync(profiles, { errors: 'return' });
    assert.equal(out.length, profiles.length);
    out.forEach((r, i) => {
      if (i % 97 === 5) {
        assertScoreErrorShape(r, bad[i % bad.length].error);
        assert.equal(r.index, i);
        assert.equal(r.message, sync[i].message);
      } else {
        assert.deepStrictEqual(r, sync[i]);
      }
    });
    assert.deepStrictEqual(await api.scoreManyAsync(valid.map((c) => c.input)), valid.map((c) => c.expected));
    assert.deepStrictEqual(await api.scoreManyAsync([]), []);
  });

  test('scoreManyAsync rejects with the first bad profile, its index, and on misuse', async () => {
    const bad = cases.find((c) => c.error && 'input' in c && c.error.field);
    const profiles = Array.from({ length: 9000 }, () => sample.input);
    profiles[8500] = bad.input; // in a later part than the next one
    profiles[5000] = bad.input;
    const check = (want, extra = {}) => (err) => {
      assertScoreErrorShape(err, want);
      for (const [k, v] of Object.entries(extra)) assert.equal(err[k], v);
      return true;
    };
    await assert.rejects(api.scoreManyAsync(profiles), check(bad.error, { index: 5000 }));
    for (const notAList of [5, 'perfiles', null, undefined, { 0: sample.input, length: 1 }]) {
      await assert.rejects(api.scoreManyAsync(notAList), check({ code: 'INVALID_TYPE', field: null }));
    }
    await assert.rejects(api.scoreManyAsync([sample.input], 'return'), check({ code: 'INVALID_TYPE', field: null }));
    await assert.rejects(api.scoreManyAsync([sample.input], { errors: 'ignore' }), check({ code: 'VALUE_OUT_OF_RANGE', field: null }));
  });

  test('scoreManyAsync lets the event loop run while it works (score-node)', { skip: IMPL !== 'node' && 'score-wasm has no threads' }, async () => {
    let immediates = 0;
    const spin = () => { immediates++; if (!done) setImmediate(spin); };
    let done = false;
    setImmediate(spin);
    const out = await api.scoreManyAsync(Array.from({ length: 30000 }, (_, i) => valid[i % valid.length].input));
    done = true;
    assert.equal(out.length, 30000);
    // Parts of 4,096 profiles: the loop turned between them (a synchronous call lets it turn 0 times).
    assert.ok(immediates >= 3, `the event loop turned ${immediates} times`);
  });

  test('scoreAsync resolves to the same reports, concurrently', async () => {
    const reports = await Promise.all(valid.map((c) => api.scoreAsync(c.input)));
    assert.deepStrictEqual(reports, valid.map((c) => c.expected));
  });

  test('scoreAsync rejects with the same error shape', async () => {
    for (const c of cases.filter((c) => c.error && 'input' in c)) {
      await assert.rejects(api.scoreAsync(c.input), (err) => {
        assert.ok(err instanceof api.ScoreError);
        assert.equal(err.code, c.error.code);
        assert.equal(err.field, c.error.field ?? null);
        return true;
      });
    }
  });

  test('errors: whole-input errors have field null', () => {
    assertScoreError(() => api.score(null), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.score(undefined), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.score([sample.input]), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.score('CMX'), { code: 'INVALID_TYPE', field: null });
    assertScoreError(() => api.scoreJson('{'), { code: 'INVALID_JSON', field: null });
  });

  test('errors: each field error names its field', () => {
    const p = sample.input;
    assertScoreError(() => api.score({ ...p, estado: 'Atlántida' }), { code: 'UNKNOWN_STATE', field: 'estado' });
    assertScoreError(() => api.score({ ...p, tipo_ingreso: 'rentista' }), { code: 'UNKNOWN_INCOME_TYPE', field: 'tipo_ingreso' });
    assertScoreError(() => api.score({ ...p, ahorro: -1 }), { code: 'NEGATIVE_AMOUNT', field: 'ahorro' });
    assertScoreError(() => api.score({ ...p, edad: 30.5 }), { code: 'NOT_AN_INTEGER', field: 'edad' });
    assertScoreError(() => api.score({ ...p, edad: 12 }), { code: 'VALUE_OUT_OF_RANGE', field: 'edad' });
    assertScoreError(() => api.score({ ...p, ingreso_mensual: '30000' }), { code: 'INVALID_TYPE', field: 'ingreso_mensual' });
    assertScoreError(() => api.score({ ...p, ingresos: 1 }), { code: 'UNKNOWN_FIELD', field: 'ingresos' });
    const { estado, ...withoutState } = p;
    assertScoreError(() => api.score(withoutState), { code: 'MISSING_FIELD', field: 'estado' });
  });

  // JS values that JSON cannot carry map the same way in both implementations (and as in score-py).
  test('JS values: undefined is absent, NaN is null, Infinity is out of range', () => {
    const p = sample.input;
    const base = api.score(p);
    assert.deepStrictEqual(api.score({ ...p, deudas_mensuales: undefined, subcuenta_fondo: undefined }), api.score({ ...p }));
    assert.deepStrictEqual(api.score({ ...p, personas_hogar: null }), api.score({ ...p, personas_hogar: undefined }));
    assertScoreError(() => api.score({ ...p, ingreso_mensual: NaN }), { code: 'MISSING_FIELD', field: 'ingreso_mensual' });
    assertScoreError(() => api.score({ ...p, ahorro: Infinity }), { code: 'AMOUNT_TOO_LARGE', field: 'ahorro' });
    assertScoreError(() => api.score({ ...p, ahorro: -Infinity }), { code: 'NEGATIVE_AMOUNT', field: 'ahorro' });
    assertScoreError(() => api.score({ ...p, edad: () => 35 }), { code: 'INVALID_TYPE', field: 'edad' });
    assertScoreError(() => api.score({ ...p, edad: 35n }), { code: 'INVALID_TYPE', field: 'edad' });
    assertScoreError(() => api.score({ ...p, edad: Symbol('35') }), { code: 'INVALID_TYPE', field: 'edad' });
    assert.equal(api.score({ ...p, ingreso_mensual: p.ingreso_mensual + 0.0 }).score, base.score);
    assert.equal(api.score({ ...p, ahorro: -0 }).componentes.ahorro.valor, api.score({ ...p, ahorro: 0 }).componentes.ahorro.valor);
  });

  test('JS values: only own enumerable string keys are read', () => {
    const p = sample.input;
    const inherited = Object.assign(Object.create({ inventado: 1 }), p);
    assert.deepStrictEqual(api.score(inherited), api.score(p));
    const hidden = { ...p };
    Object.defineProperty(hidden, 'oculto', { value: 1, enumerable: false });
    hidden[Symbol('meta')] = 1;
    assert.deepStrictEqual(api.score(hidden), api.score(p));
    const map = new Map(Object.entries(p));
    assertScoreError(() => api.score(map), { code: 'MISSING_FIELD', field: 'estado' });
  });

  test('JS values: flat and nested profiles read alike (NUL, getters, empty keys)', () => {
    // Flat profiles are read in one call, others key by key: both give the same answers.
    const p = sample.input;
    assertScoreError(() => api.score({ ...p, 'ed\0ad': 35 }), { code: 'UNKNOWN_FIELD', field: 'ed\0ad' });
    assertScoreError(() => api.score({ ...p, '': 1 }), { code: 'UNKNOWN_FIELD', field: '' });
    assertScoreError(() => api.score({ ...p, estado: 'CM\0X' }), { code: 'UNKNOWN_STATE', field: 'estado' });
    assertScoreError(() => api.score({ ...p, estado: '' }), { code: 'UNKNOWN_STATE', field: 'estado' });
    assertScoreError(() => api.score({}), { code: 'MISSING_FIELD', field: 'estado' });
    assert.deepStrictEqual(api.score({ ...p, estado: ` ${p.estado.toLowerCase()} ` }), api.score(p));
    assertScoreError(() => api.score({ ...p, edad: true }), { code: 'INVALID_TYPE', field: 'edad' });
    assertScoreError(() => api.score({ ...p, edad: [35] }), { code: 'INVALID_TYPE', field: 'edad' });
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    assertScoreError(() => api.score({ ...p, ...many }), { code: 'UNKNOWN_FIELD', field: 'k0' });
    // A getter runs once per read, and may itself score another profile.
    let reads = 0;
    const withGetter = { ...p };
    Object.defineProperty(withGetter, 'edad', {
      enumerable: true,
      get() { reads += 1; return api.score({ ...p, edad: 60 }).score > 0 ? 35 : 0; },
    });
    assert.deepStrictEqual(api.score(withGetter), api.score({ ...p, edad: 35 }));
    assert.equal(reads, 1);
  });

  test('JS values: texts of any kind and length read alike', () => {
    // Canonical codes cross as numbers, other texts as UTF-8, and a text too long for the
    // one-call read goes key by key: the same answers.
    const p = sample.input;
    assert.deepStrictEqual(api.score({ ...p, estado: 'Nuevo León' }), api.score({ ...p, estado: 'NLE' }));
    assert.deepStrictEqual(api.score({ ...p, estado: 'MX-yuc' }), api.score({ ...p, estado: 'Yucatán' }));
    assertScoreError(() => api.score({ ...p, estado: 'ñ'.repeat(400) }), { code: 'UNKNOWN_STATE', field: 'estado' });
    assertScoreError(() => api.score({ ...p, estado: 'CMX', tipo_ingreso: '🏠' }), { code: 'UNKNOWN_INCOME_TYPE', field: 'tipo_ingreso' });
    assertScoreError(() => api.score({ ...p, estado: 'constructor' }), { code: 'UNKNOWN_STATE', field: 'estado' });
  });

  test('reports stay right after the module memory grows', () => {
    // score-wasm reads and writes its values in views of WebAssembly memory, which growing
    // the memory detaches; a 4 MB JSON text makes it grow.
    const p = sample.input;
    const before = api.score(p);
    const text = api.scoreJson(JSON.stringify(p) + ' '.repeat(4 << 20));
    assert.deepStrictEqual(JSON.parse(text), before);
    assert.deepStrictEqual(api.score(p), before);
    assert.equal(api.scoreJson(JSON.stringify(p)), text);
  });

  test('a worker thread loads its own copy and gives the same reports, scoreManyAsync too', async () => {
    // Each realm (here a worker's) sets up its own helper functions and buffers.
    const inputs = valid.slice(0, 5).map((c) => c.input);
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const api = require(workerData.path);
       const many = Array.from({ length: 5000 }, (_, i) => workerData.inputs[i % workerData.inputs.length]);
       many[4321] = { estado: 'XX' };
       api.scoreManyAsync(many, { errors: 'return' }).then((out) => parentPort.postMessage([
         workerData.inputs.map((p) => api.score(p)),
         out.every((r, i) => i === 4321 || JSON.stringify(r) === JSON.stringify(api.score(many[i]))),
         out[4321] instanceof api.ScoreError && out[4321].index === 4321,
       ]));`,
      { eval: true, workerData: { path: paths[IMPL], inputs } },
    );
    const [[reports, batchAgrees, errorInPlace]] = await Promise.all([
      new Promise((ok, fail) => worker.once('message', ok).once('error', fail)),
      new Promise((ok) => worker.once('exit', ok)),
    ]);
    assert.deepStrictEqual(reports, valid.slice(0, 5).map((c) => c.expected));
    // scoreManyAsync in the worker's realm: its own thread-pool tasks and its own ScoreError.
    assert.ok(batchAgrees, 'the worker\'s scoreManyAsync gives the same reports');
    assert.ok(errorInPlace, 'the worker\'s ScoreError is in place, with its index');
    assert.deepStrictEqual(inputs.map((p) => api.score(p)), reports);
  });

  test('scoreJson is compact JSON text of the same report', () => {
    const text = api.scoreJson(JSON.stringify(sample.input));
    assert.ok(!text.includes('\n') && text.startsWith('{"score":'));
    assert.deepStrictEqual(JSON.parse(text), api.score(sample.input));
  });
});
