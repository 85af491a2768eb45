// Payroll receipts in the buyer's calculator: the XML files of fixtures/documents are read in
// the page (score-docs' WebAssembly, nothing sent), fill the fields they prove marked as
// verified, and errors show in Spanish with the file's name; saving sends them only when the
// buyer ticks the box, and the saved profile shows its verification (from the server).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { apiJson, assertNoProblems, checkPage, launch, newPage, profileFromCfdi, today } from './helpers.mjs';

const DOCS = new URL('../../fixtures/documents/', import.meta.url).pathname;
const INFONAVIT = [1, 2, 3, 4, 5, 6].map((i) => `quincenal-40-infonavit-${i}.xml`);
// What score-docs says of the same receipts today (seniority depends on the date); the
// fixture's income and debts, which do not, are checked against profiles.json below.
const CASES = JSON.parse(readFileSync(`${DOCS}profiles.json`, 'utf8'));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The calculator with its model loaded, and every non-GET request the page makes. */
async function calculator(width) {
  const page = await newPage(browser, width);
  page.sent = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') page.sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.goto('/calculator');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  return page;
}

test('receipts read in the page fill the form, marked verified; sent only when the buyer asks', async () => {
  const page = await calculator(390);
  assert.match(await page.getByTestId('receipts-privacy').innerText(), /no salen de tu dispositivo/);

  await page.locator('#recibos').setInputFiles(INFONAVIT.map((n) => DOCS + n));
  await page.getByTestId('receipts-status').getByText('6 recibos leídos, del 2025-01-01 al 2025-03-31.').waitFor();

  const fixture = CASES.find((c) => c.name === 'quincenal-infonavit').expected.perfil;
  const expected = profileFromCfdi(INFONAVIT.map((n) => readFileSync(DOCS + n)), today()).perfil;
  assert.equal(fixture.ingreso_mensual, 29188.76);
  assert.equal(await page.locator('#ingreso_mensual').inputValue(), String(fixture.ingreso_mensual));
  assert.equal(await page.locator('#deudas_mensuales').inputValue(), String(fixture.deudas_mensuales));
  assert.equal(await page.locator('#tipo_ingreso').inputValue(), 'asalariado');
  assert.equal(await page.locator('#antiguedad_meses').inputValue(), String(expected.antiguedad_meses));
  assert.equal(await page.locator('#estado').inputValue(), 'CMX', 'the state stays where the buyer wants to buy');
  for (const key of ['ingreso_mensual', 'tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales']) {
    assert.equal(await page.getByTestId(`note-${key}`).innerText(), 'Verificado con tus recibos de nómina.', key);
  }
  assert.equal(await page.locator('.badge-verified').count(), 4);
  assert.match(await page.getByTestId('receipts-summary').innerText(), /trabajas en JAL/);
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  assert.deepEqual(page.sent, [], 'reading the receipts sends nothing');
  await checkPage(page, 'calculator-receipts');

  // A value typed over a verified one is no longer marked verified; the receipts' figure shows.
  await page.locator('#ingreso_mensual').fill('40000');
  assert.match(await page.getByTestId('note-ingreso_mensual').innerText(), /^Tus recibos indican \$29,189/);
  assert.equal(await page.locator('.badge-verified').count(), 3);
  await page.locator('#ingreso_mensual').fill(String(fixture.ingreso_mensual));

  // Saving with the box ticked sends the receipts after the profile.
  await page.getByLabel('Nombre').fill('Mariana López');
  await page.getByLabel(/Enviar también mis 6 recibos/).check();
  await page.getByRole('button', { name: 'Guardar y ver propiedades' }).click();
  await page.waitForURL(/\/profile\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();
  assert.deepEqual(page.sent, ['POST /api/v1/onboarding/perfil', `POST /api/v1/fase2/documentos/${id}`]);
  const card = page.getByTestId('verification');
  await card.waitFor();
  assert.match(await card.innerText(), /Con 6 recibos de nómina, del 2025-01-01 al 2025-03-31/);
  const saved = (await apiJson(`/api/v1/perfil/${id}`)).data;
  assert.equal(saved.verificacion.documentos.length, 6);
  assert.deepEqual(saved.verificacion.campos, ['ingreso_mensual', 'tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales']);
  assert.deepEqual(saved.verificacion.discrepancias.map((d) => [d.campo, d.aplicado]), [['estado', false]]);
  assert.equal(saved.perfil.ingreso_mensual, fixture.ingreso_mensual);
  await page.getByTestId('report').waitFor();
  await checkPage(page, 'profile-verified');
  await page.context().close();
});

test('bad receipts are refused in Spanish, naming the file; without the box nothing is sent', async () => {
  const page = await calculator(1280);

  // Dropped on the zone (a real drop event with the file's bytes).
  const drop = async (names) => {
    const files = names.map((n) => ({ name: n, text: readFileSync(DOCS + n, 'utf8') }));
    const transfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/xml' }));
      return dt;
    }, files);
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: transfer });
  };
  const error = page.getByTestId('receipts-error');
  for (const [names, words] of [
    [['rechazo-xxe.xml'], /^rechazo-xxe\.xml: /],
    [['rechazo-factura.xml'], /^rechazo-factura\.xml: /],
    [['quincenal-40-infonavit-1.xml', 'semanal-33-fonacot-1.xml'], /^semanal-33-fonacot-1\.xml: .*trabajadores distintos/],
  ]) {
    await drop(names);
    await error.getByText(words).waitFor();
    assert.doesNotMatch(await error.innerText(), /DOCUMENT_|receipts\[/, 'no internal code is shown');
  }
  assert.equal(await page.locator('#ingreso_mensual').inputValue(), '30000', 'a refused batch changes nothing');
  assert.equal(await page.locator('.badge-verified').count(), 0);
  await checkPage(page, 'calculator-receipts-error');

  // Good receipts, saved without ticking the box: only the profile is sent.
  await drop(['semanal-33-fonacot-1.xml', 'semanal-33-fonacot-2.xml', 'semanal-33-fonacot-3.xml', 'semanal-33-fonacot-4.xml']);
  await page.getByTestId('receipts-status').getByText(/^4 recibos leídos/).waitFor();
  assert.equal(await error.count(), 0, 'the error goes once receipts are read');
  await page.getByRole('button', { name: 'Guardar y ver propiedades' }).click();
  await page.waitForURL(/\/profile\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();
  assert.deepEqual(page.sent, ['POST /api/v1/onboarding/perfil']);
  await page.getByTestId('report').waitFor();
  assert.equal(await page.getByTestId('verification').count(), 0);
  assert.equal((await apiJson(`/api/v1/perfil/${id}`)).data.verificacion, null);
  assertNoProblems(page);
  await page.context().close();
});
