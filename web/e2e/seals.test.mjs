// Seals in the pages (issue 43), at phone width: the calculator reading a receipt whose amount
// was changed after sealing shows the seal failure and counts none of its fields as verified,
// with the same `sello` as score-docs' WebAssembly reader and the server; a saved profile lists
// each receipt with its seal, a printed one as `IMPRESO`: read from paper, never verified. A
// receipt sealed validly with a certificate no SAT CA issued (`AC_DESCONOCIDA`) proves nothing
// either, in the page and on the server.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { apiJson, checkPage, launch, newPage, profileFromCfdi, readCfdi, today } from './helpers.mjs';

const DOCS = new URL('../../fixtures/documents/', import.meta.url).pathname;
// The tampered receipt first: its perceptions were raised by 1,000,000 after sealing.
const NAMES = ['sello-alterado-40.xml', 'quincenal-40-infonavit-2.xml', 'quincenal-40-infonavit-3.xml'];
const fixture = (name) => JSON.parse(readFileSync(`${DOCS}${name.replace(/\.xml$/, '.json')}`, 'utf8'));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('the calculator reads a receipt changed after sealing: the seal failure shows and its fields are not verified', async () => {
  const page = await newPage(browser, 390);
  await page.goto('/calculator');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  await page.locator('#recibos').setInputFiles(NAMES.map((n) => DOCS + n));
  await page.getByTestId('receipts-status').getByText(/^3 recibos leídos/).waitFor();

  // What the WebAssembly reader says of the same files: each seal is the fixture's.
  const tampered = fixture(NAMES[0]);
  for (const n of NAMES) assert.deepEqual(readCfdi(readFileSync(DOCS + n)).sello, fixture(n).sello, n);
  assert.equal(tampered.sello.motivo, 'SELLO_INVALIDO');
  const wasm = profileFromCfdi(NAMES.map((n) => readFileSync(DOCS + n)), today());
  assert.deepEqual(wasm.verificacion.comprobaciones.sellos_invalidos, [{ recibo: tampered.uuid, motivo: 'SELLO_INVALIDO' }]);
  assert.ok(!wasm.verificacion.campos.includes('ingreso_mensual'), 'a broken seal verifies no income');

  // The page names the receipt and why, in words and by its code.
  const failed = page.getByTestId('receipts-seal-failed');
  const text = await failed.innerText();
  assert.ok(text.includes(tampered.uuid), text);
  assert.match(text, /se modificó después de sellarse \(SELLO_INVALIDO\)/);
  assert.match(text, /no cuenta como verificado/);
  assert.deepEqual(await failed.locator('li').evaluateAll((items) => items.map((i) => i.dataset.motivo)), ['SELLO_INVALIDO']);

  // Income is not filled nor marked verified: the buyer's figure stays; only what the sealed
  // receipts prove carries the badge.
  assert.equal(await page.locator('#ingreso_mensual').inputValue(), '30000');
  assert.equal(await page.getByTestId('note-ingreso_mensual').count(), 0);
  for (const key of ['tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales']) {
    const note = wasm.verificacion.campos.includes(key) ? 'Verificado con tus recibos de nómina.' : null;
    assert.equal(await page.getByTestId(`note-${key}`).getByText('Verificado con tus recibos de nómina.').count(), note ? 1 : 0, key);
  }
  assert.equal(await page.locator('.badge-verified').count(), wasm.verificacion.campos.filter((c) => c !== 'estado').length);
  assert.doesNotMatch(await page.getByTestId('receipts-summary').innerText(), /Datos verificados: [^.]*Ingreso/);
  await checkPage(page, 'calculator-tampered-receipt');

  // Saved with the receipts: the server says the same of each seal and of the fields, and the
  // profile page lists the tampered receipt as failed.
  await page.getByLabel('Nombre').fill('Rosa Tamez');
  await page.getByLabel(/Enviar también mis 3 recibos/).check();
  await page.getByRole('button', { name: 'Guardar y ver propiedades' }).click();
  await page.waitForURL(/\/profile\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();
  const saved = (await apiJson(`/api/v1/perfil/${id}`)).data.verificacion;
  for (const n of NAMES) {
    const { uuid, sello } = fixture(n);
    assert.deepEqual(saved.documentos.find((d) => d.uuid === uuid).sello, sello, n);
  }
  assert.deepEqual(saved.comprobacion.comprobaciones.sellos_invalidos, wasm.verificacion.comprobaciones.sellos_invalidos);
  assert.deepEqual(saved.comprobacion.campos, wasm.verificacion.campos);
  assert.ok(!saved.campos.includes('ingreso_mensual'));
  const seals = page.getByTestId('receipt-seal');
  await seals.first().waitFor();
  const byUuid = Object.fromEntries(await seals.evaluateAll((items) => items.map((i) => [i.dataset.uuid, i.dataset.motivo])));
  assert.deepEqual(byUuid, Object.fromEntries(NAMES.map((n) => [fixture(n).uuid, fixture(n).sello.motivo ?? 'VALIDO'])));
  const row = seals.filter({ hasText: 'Sello no válido' });
  assert.match(await row.innerText(), /No verifica nada: su sello digital no corresponde al recibo/);
  await checkPage(page, 'profile-tampered-seals');
  await page.context().close();
});

test('a valid seal by a certificate the SAT did not issue verifies nothing, in the calculator and on the profile', async () => {
  // ca-desconocida-40: sealed validly with a certificate its issuer made itself (its RFC, no CA).
  const names = ['ca-desconocida-40.xml', 'quincenal-40-infonavit-2.xml'];
  const forged = fixture(names[0]);
  assert.deepEqual([forged.sello.valido, forged.sello.ca_sat_verificada, forged.sello.ca_sat_motivo], [true, false, 'AC_DESCONOCIDA']);
  const wasm = profileFromCfdi(names.map((n) => readFileSync(DOCS + n)), today());
  assert.deepEqual(wasm.verificacion.comprobaciones.sellos_invalidos, [{ recibo: forged.uuid, motivo: 'AC_DESCONOCIDA' }]);
  assert.ok(!wasm.verificacion.campos.includes('ingreso_mensual'));

  const page = await newPage(browser, 390);
  await page.goto('/calculator');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  await page.locator('#recibos').setInputFiles(names.map((n) => DOCS + n));
  await page.getByTestId('receipts-status').getByText(/^2 recibos leídos/).waitFor();
  const failed = page.getByTestId('receipts-seal-failed');
  const text = await failed.innerText();
  assert.ok(text.includes(forged.uuid), text);
  assert.match(text, /su certificado no lo emitió el SAT[^(]*\(AC_DESCONOCIDA\)/);
  assert.deepEqual(await failed.locator('li').evaluateAll((items) => items.map((i) => i.dataset.motivo)), ['AC_DESCONOCIDA']);
  assert.equal(await page.locator('#ingreso_mensual').inputValue(), '30000');
  assert.equal(await page.getByTestId('note-ingreso_mensual').count(), 0);
  await checkPage(page, 'calculator-unknown-ca');

  await page.getByLabel('Nombre').fill('Rosa Tamez');
  await page.getByLabel(/Enviar también mis 2 recibos/).check();
  await page.getByRole('button', { name: 'Guardar y ver propiedades' }).click();
  await page.waitForURL(/\/profile\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();
  const saved = (await apiJson(`/api/v1/perfil/${id}`)).data.verificacion;
  assert.deepEqual(saved.documentos.find((d) => d.uuid === forged.uuid).sello, forged.sello);
  assert.deepEqual(saved.comprobacion.comprobaciones.sellos_invalidos, wasm.verificacion.comprobaciones.sellos_invalidos);
  assert.deepEqual(saved.comprobacion.campos, wasm.verificacion.campos);
  const row = page.getByTestId('receipt-seal').filter({ hasText: 'Certificado no del SAT' });
  await row.waitFor();
  assert.equal(await row.getAttribute('data-motivo'), 'AC_DESCONOCIDA');
  assert.equal(await row.getAttribute('data-uuid'), forged.uuid);
  assert.match(await row.innerText(), /No verifica nada: su sello es correcto, pero su certificado no lo emitió el SAT/);
  await checkPage(page, 'profile-unknown-ca');
  await page.context().close();
});

test('a printed receipt shows as IMPRESO on the profile: read from paper, its fields unverified', async () => {
  const declared = { estado: 'JAL', ingreso_mensual: 20000, tipo_ingreso: 'asalariado', antiguedad_meses: 12, edad: 40 };
  const saved = (await apiJson('/api/v1/onboarding/perfil', { method: 'POST', body: declared })).data;
  // The print as payroll software makes it, with the SAT's sample worker RFC (valid check digit).
  const facts = fixture('quincenal-40-infonavit-1.xml');
  const pdf = execFileSync('python3', [`${DOCS}printer.py`], { input: JSON.stringify({ ...facts, receptor_rfc: 'CACX7605101P8' }) });

  const page = await newPage(browser, 390);
  await page.goto(`/profile/${saved.id}`);
  await page.getByTestId('printed-documents').waitFor();
  await page.locator('#recibos-impresos').setInputFiles({ name: 'recibo-impreso.pdf', mimeType: 'application/pdf', buffer: pdf });
  const seal = page.getByTestId('receipt-seal');
  await seal.waitFor({ timeout: 30000 });

  const now = (await apiJson(`/api/v1/perfil/${saved.id}`)).data.verificacion;
  const sello = now.documentos[0].sello;
  assert.deepEqual(sello, { valido: false, motivo: 'IMPRESO', no_certificado: null, rfc_certificado: null, ca_sat_verificada: false, ca_sat_motivo: 'SIN_CERTIFICADO' });
  assert.deepEqual(now.campos, []);
  assert.ok(now.campos_impresos.includes('ingreso_mensual'));
  assert.equal(await seal.getAttribute('data-motivo'), 'IMPRESO');
  assert.equal(await seal.getAttribute('data-uuid'), facts.uuid);
  const text = await seal.innerText();
  assert.match(text, /PDF impreso/);
  assert.match(text, /Impreso, sin verificar/);
  assert.match(text, /no trae sello digital/);
  assert.doesNotMatch(text, /Sello válido/);
  const card = page.getByTestId('verification');
  assert.match(await card.innerText(), /Datos verificados con el XML sellado: ninguno/);
  assert.match(await page.getByTestId('read-from-paper').innerText(), /Ingreso mensual neto del hogar: \$/);
  await checkPage(page, 'profile-printed-seal');
  await page.context().close();
});
