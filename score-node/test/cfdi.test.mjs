// Payroll receipts (CFDI + Nómina 1.2): readCfdi and profileFromCfdi reproduce
// fixtures/documents/ exactly (the same files pytest and score-docs' Rust tests read, their
// certificates chained to the test CA of fixtures/documents/ca-prueba/ac through a
// CertificadosSat), and refuse bad documents with an Error carrying the stable code. A valid
// seal by a certificate no loaded CA issued proves nothing. Runs against the implementation
// SCORE_IMPL names, like score.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
const IMPL = process.env.SCORE_IMPL ?? 'node';
// In WebAssembly the reader is a module of its own (score-docs/wasm, built by
// score-docs/wasm/build.sh), which a page loads only when a buyer drops a receipt.
const wasmDocs = join(root, 'score-docs', 'wasm', 'pkg-node', 'score_docs_wasm.js');
const api = IMPL === 'wasm' ? (existsSync(wasmDocs) ? require(wasmDocs) : {}) : require(join(root, 'score-node', 'index.js'));

const docs = join(root, 'fixtures', 'documents');
const receipts = readdirSync(docs).filter((f) => f.endsWith('.xml')).sort();
const profiles = JSON.parse(readFileSync(join(docs, 'profiles.json'), 'utf8'));
const expected = (xml) => JSON.parse(readFileSync(join(docs, xml.replace(/\.xml$/, '.json')), 'utf8'));
const testCa = readFileSync(join(docs, 'ca-prueba', 'ac', 'AC_PRUEBAS.cer'));

// `make test` builds the module first (test-docs-wasm in score-docs/test.mk); score-wasm's own
// script runs this file too, and skips it only when the module was not built.
const skip = IMPL === 'wasm' && typeof api.readCfdi !== 'function' ? 'score-docs/wasm is not built' : false;
// The test CA in place of the SAT's, as the fixtures are written.
const ca = skip ? null : new api.CertificadosSat([testCa]);

function assertDocError(fn, code, field) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof Error, 'a real Error');
    // score-node's ScoreError (score-docs/wasm has its own errors).
    if (IMPL === 'node') assert.ok(err instanceof api.ScoreError, `a ScoreError: ${err}`);
    assert.equal(err.code, code, err.message);
    if (field !== undefined) assert.equal(err.field, field, err.message);
    assert.ok(err.message.startsWith(`${code}: `), err.message);
    return true;
  });
}

test('the fixtures are there', { skip }, () => {
  assert.ok(receipts.length >= 27);
  assert.ok(profiles.length >= 9);
});

for (const xml of receipts) {
  test(`readCfdi ${xml}`, { skip }, () => {
    const want = expected(xml);
    const data = readFileSync(join(docs, xml));
    if (want.error) {
      assertDocError(() => ca.readCfdi(data), want.error.code);
      assertDocError(() => api.readCfdi(data), want.error.code);
    } else {
      const got = ca.readCfdi(data);
      assert.deepStrictEqual(got, want);
      // The same digits: the JSON text of what JS got is the fixture's.
      assert.equal(JSON.stringify(got), JSON.stringify(want));
      // The XML as text reads the same.
      assert.deepStrictEqual(ca.readCfdi(data.toString('utf8')), want);
      assert.deepStrictEqual(ca.readCfdi(new Uint8Array(data)), want);
      // Against the SAT's own CAs (readCfdi), no fixture certificate is chained.
      assert.equal(api.readCfdi(data).sello.ca_sat_motivo, 'AC_DESCONOCIDA');
    }
  });
}

for (const c of profiles) {
  test(`profileFromCfdi ${c.name}`, { skip }, () => {
    const data = c.receipts.map((f) => readFileSync(join(docs, f)));
    if (c.error) {
      assertDocError(() => ca.profileFromCfdi(data, c.reference_date), c.error.code, c.error.field);
    } else {
      assert.deepStrictEqual(ca.profileFromCfdi(data, c.reference_date), c.expected);
    }
  });
}

test('a valid seal by a certificate no loaded CA issued verifies nothing and names the reason', { skip }, () => {
  // ca-desconocida-40: sealed validly with a certificate its issuer made itself.
  const data = readFileSync(join(docs, 'ca-desconocida-40.xml'));
  const uuid = expected('ca-desconocida-40.xml').uuid;
  for (const reader of [ca, api, api.CertificadosSat.incluidos()]) {
    const sello = reader.readCfdi(data).sello;
    assert.deepStrictEqual([sello.valido, sello.ca_sat_verificada, sello.ca_sat_motivo], [true, false, 'AC_DESCONOCIDA']);
    const profile = reader.profileFromCfdi([data], '2025-04-10');
    assert.deepStrictEqual(profile.perfil, {});
    assert.deepStrictEqual(profile.verificacion.campos, []);
    assert.deepStrictEqual(profile.verificacion.comprobaciones.sellos_invalidos, [{ recibo: uuid, motivo: 'AC_DESCONOCIDA' }]);
    assert.ok(profile.verificacion.notas.some((n) => n.includes('(AC_DESCONOCIDA)')), profile.verificacion.notas.join(' | '));
  }
  // The fixtures' receipts verify only with the CA that issued their certificates.
  const infonavit = [1, 2, 3, 4, 5, 6].map((i) => readFileSync(join(docs, `quincenal-40-infonavit-${i}.xml`)));
  assert.ok(ca.profileFromCfdi(infonavit, '2025-04-10').verificacion.campos.includes('ingreso_mensual'));
  assert.deepStrictEqual(api.profileFromCfdi(infonavit, '2025-04-10').verificacion.campos, []);
  // The set is used again (not consumed by a call).
  assert.equal(ca.length, 1);
  assert.equal(api.CertificadosSat.incluidos().length, 4);
});

test('a CA set is DER or PEM certificates; anything else is refused by its place', { skip }, () => {
  const pem = `-----BEGIN CERTIFICATE-----\n${testCa.toString('base64')}\n-----END CERTIFICATE-----\n`;
  const fromPem = new api.CertificadosSat([pem]);
  assert.equal(fromPem.readCfdi(readFileSync(join(docs, 'quincenal-40-infonavit-1.xml'))).sello.ca_sat_verificada, true);
  assertDocError(() => new api.CertificadosSat([testCa, Buffer.from('no es un certificado')]), 'DOCUMENT_UNREADABLE', 'certificados[1]');
  assertDocError(() => new api.CertificadosSat([]), 'DOCUMENT_UNREADABLE', null);
  if (IMPL === 'node') assertDocError(() => new api.CertificadosSat('AC.cer'), 'INVALID_TYPE', null);
  else assert.throws(() => new api.CertificadosSat('AC.cer'), TypeError);
});

test('refusals and bad arguments', { skip }, () => {
  assertDocError(() => api.readCfdi(Buffer.alloc(0)), 'DOCUMENT_INVALID_XML');
  assertDocError(
    () => api.readCfdi('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'),
    'DOCUMENT_UNSAFE_XML',
  );
  assertDocError(() => api.readCfdi(Buffer.alloc(1024 * 1024 + 1, 32)), 'DOCUMENT_TOO_LARGE');
  assert.throws(() => api.profileFromCfdi([], '10/04/2025'), /referenceDate/);
  if (IMPL === 'node') {
    // Misuse throws score-core's codes for the same misuse of a profile, never a raw napi error.
    assertDocError(() => api.profileFromCfdi([], '10/04/2025'), 'VALUE_OUT_OF_RANGE', null);
    assertDocError(() => api.profileFromCfdi('recibo', '2025-04-10'), 'INVALID_TYPE', null);
    assertDocError(() => api.profileFromCfdi([42], '2025-04-10'), 'INVALID_TYPE', null);
    assertDocError(() => api.profileFromCfdi([], 20250410), 'INVALID_TYPE', null);
    assertDocError(() => api.readCfdi(42), 'INVALID_TYPE', null);
  }
  assertDocError(() => api.profileFromCfdi([], '2025-04-10'), 'DOCUMENT_NOT_PAYROLL', null);
});
