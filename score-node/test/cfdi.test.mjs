// Payroll receipts (CFDI + Nómina 1.2): readCfdi and profileFromCfdi reproduce
// fixtures/documents/ exactly (the same files pytest and score-docs' Rust tests read), and
// refuse bad documents with an Error carrying the stable code. Runs against the implementation
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

// `make test` builds the module first (test-docs-wasm in score-docs/test.mk); score-wasm's own
// script runs this file too, and skips it only when the module was not built.
const skip = IMPL === 'wasm' && typeof api.readCfdi !== 'function' ? 'score-docs/wasm is not built' : false;

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
      assertDocError(() => api.readCfdi(data), want.error.code);
    } else {
      const got = api.readCfdi(data);
      assert.deepStrictEqual(got, want);
      // The same digits: the JSON text of what JS got is the fixture's.
      assert.equal(JSON.stringify(got), JSON.stringify(want));
      // The XML as text reads the same.
      assert.deepStrictEqual(api.readCfdi(data.toString('utf8')), want);
      assert.deepStrictEqual(api.readCfdi(new Uint8Array(data)), want);
    }
  });
}

for (const c of profiles) {
  test(`profileFromCfdi ${c.name}`, { skip }, () => {
    const data = c.receipts.map((f) => readFileSync(join(docs, f)));
    if (c.error) {
      assertDocError(() => api.profileFromCfdi(data, c.reference_date), c.error.code, c.error.field);
    } else {
      assert.deepStrictEqual(api.profileFromCfdi(data, c.reference_date), c.expected);
    }
  });
}

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
