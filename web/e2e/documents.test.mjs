// Printed documents on a saved profile: a receipt's PDF is sent to the server (the page says
// so), read off the request path (the card follows it from "Leyendo…" to "Leído"), and shown
// as read from paper with its UUID to confirm, never verified (paper has no seal); a photo is
// read by Tesseract; a file that is not a PDF or an image is refused in Spanish with its name
// and no internal code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { BASE, apiJson, checkPage, launch, newPage, profileFromCfdi } from './helpers.mjs';


const DOCS = new URL('../../fixtures/documents/', import.meta.url).pathname;

/**
 * A receipt's print as payroll software makes it (fixtures/documents/printer.py), with the
 * SAT's sample RFC for the worker: the fixtures' worker RFCs are made up and fail their check
 * digits, so their prints are read but never verify a profile.
 */
function printedReceipt(name, { validRfc = true } = {}) {
  const facts = JSON.parse(readFileSync(`${DOCS}${name}.json`, 'utf8'));
  if (validRfc) facts.receptor_rfc = 'CACX7605101P8';
  return execFileSync('python3', [`${DOCS}printer.py`], { input: JSON.stringify(facts) });
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function savedProfile() {
  const profile = { estado: 'JAL', ingreso_mensual: 20000, tipo_ingreso: 'asalariado', antiguedad_meses: 12, edad: 40 };
  return (await apiJson('/api/v1/onboarding/perfil', { method: 'POST', body: profile })).data;
}

test('a printed receipt is sent, read on the server and shown as read from paper, never verified', async () => {
  const saved = await savedProfile();
  const page = await newPage(browser, 390);
  await page.goto(`/profile/${saved.id}`);
  const card = page.getByTestId('printed-documents');
  await card.waitFor();
  assert.match(await page.getByTestId('documents-privacy').innerText(), /se envían a nuestro servidor/);
  assert.match(await page.getByTestId('documents-privacy').innerText(), /no trae sello digital/);

  const { uuid } = JSON.parse(readFileSync(`${DOCS}quincenal-40-infonavit-1.json`, 'utf8'));
  await page.locator('#recibos-impresos').setInputFiles({ name: 'recibo-enero.pdf', mimeType: 'application/pdf', buffer: printedReceipt('quincenal-40-infonavit-1') });
  await card.getByTestId('document').filter({ hasText: 'recibo-enero.pdf' }).waitFor();
  const item = card.locator('[data-testid="document"][data-estado="leido"]').filter({ hasText: 'recibo-enero.pdf' });
  await item.waitFor({ timeout: 30000 });
  const text = await item.innerText();
  assert.match(text, /Leído de papel/, text);
  assert.ok(text.includes(uuid), `the UUID to confirm it with: ${text}`);
  assert.doesNotMatch(text, /Verificó/);

  // The server keeps the print as paper: nothing verified, the declared income stays, and the
  // page lists what the print says with the UUID to confirm it by.
  const now = (await apiJson(`/api/v1/perfil/${saved.id}`)).data;
  assert.equal(now.verificacion.documentos[0].fuente, 'pdf');
  assert.deepEqual(now.verificacion.campos, []);
  assert.ok(now.verificacion.campos_impresos.includes('ingreso_mensual'));
  assert.equal(now.verificacion.comprobacion.por_confirmar[0].uuid, uuid);
  assert.equal(now.perfil.ingreso_mensual, 20000);
  const verification = page.getByTestId('verification');
  await verification.getByText(/Con un recibo de nómina/).waitFor();
  assert.match(await verification.innerText(), /Datos verificados con el XML sellado: ninguno/);
  const paper = page.getByTestId('read-from-paper');
  assert.match(await paper.innerText(), /Leído de papel, sin verificar/i);
  assert.match(await paper.innerText(), /Ingreso mensual neto del hogar: \$/);
  assert.ok((await page.getByTestId('to-confirm').innerText()).includes(uuid));
  assert.equal(await paper.getByRole('link', { name: /servicio de verificación del SAT/ }).getAttribute('href'), 'https://verificacfdi.facturaelectronica.sat.gob.mx/');
  await page.getByTestId('score').getByText(String(now.platform_score.score), { exact: true }).waitFor();
  await checkPage(page, 'profile-printed-receipt');
  await page.context().close();
});

test('a photo is read by OCR; an unreadable file is refused in Spanish with its name', async () => {
  const saved = await savedProfile();
  const page = await newPage(browser, 1280);
  await page.goto(`/profile/${saved.id}`);
  const card = page.getByTestId('printed-documents');
  await card.waitFor();

  // A statement that is not a PDF or an image: refused at once, naming the file.
  await page.locator('#estados-cuenta').setInputFiles({ name: 'estado.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  const error = page.getByTestId('documents-error');
  await error.getByText(/^estado\.txt: /).waitFor();
  assert.doesNotMatch(await error.innerText(), /DOCUMENT_|estados_cuenta\[/, 'no internal code is shown');

  // A 300 dpi photo of a print (made unverifiable on purpose: the fixture's made-up RFC).
  const pdf = printedReceipt('mensual-40-pensionado-1', { validRfc: false });
  const dir = execFileSync('mktemp', ['-d']).toString().trim();
  execFileSync('sh', ['-c', `cat > "${dir}/r.pdf" && pdftoppm -r 300 -gray -png -singlefile "${dir}/r.pdf" "${dir}/foto"`], { input: pdf });
  await page.locator('#recibos-impresos').setInputFiles(`${dir}/foto.png`);
  const item = card.locator('[data-testid="document"][data-estado="leido"]').filter({ hasText: 'foto.png' });
  await item.waitFor({ timeout: 60000 });
  const text = await item.innerText();
  assert.match(text, /neto \$13,387\.36/, text);
  assert.match(text, /No se aplicó a tu perfil: no se leyó bien (el RFC de tu empresa|tu RFC)/, 'a print whose checks fail never verifies, and says why');
  const now = (await apiJson(`/api/v1/perfil/${saved.id}`)).data;
  assert.equal(now.lecturas[0].documento.fuente, 'ocr');
  assert.equal(now.verificacion, null);
  await checkPage(page, 'profile-printed-photo');
  execFileSync('rm', ['-rf', dir]);
  await page.context().close();
});

test('a receipt changed after sealing: the page, the server and the WebAssembly reader agree on its seal and verified fields', async () => {
  const names = ['sello-alterado-40', 'quincenal-40-infonavit-2', 'quincenal-40-infonavit-3'];
  const saved = await savedProfile();
  const form = new FormData();
  for (const n of names) form.append('recibos', new Blob([readFileSync(`${DOCS}${n}.xml`)]), `${n}.xml`);
  const response = await fetch(`${BASE}/api/v1/fase2/documentos/${saved.id}`, { method: 'POST', body: form });
  assert.equal(response.status, 200);
  const attached = (await response.json()).data;
  const v = attached.verificacion;

  // Each receipt's seal on the server is the fixture's (what Python, Node and WebAssembly read).
  for (const n of names) {
    const fixture = JSON.parse(readFileSync(`${DOCS}${n}.json`, 'utf8'));
    assert.deepEqual(v.documentos.find((d) => d.uuid === fixture.uuid).sello, fixture.sello, n);
  }
  const tampered = JSON.parse(readFileSync(`${DOCS}sello-alterado-40.json`, 'utf8'));
  assert.equal(tampered.sello.valido, false);
  // The same verified fields and seal notes as the WebAssembly reader, on the same date.
  const today = v.comprobacion.fecha_referencia;
  const wasm = profileFromCfdi(names.map((n) => readFileSync(`${DOCS}${n}.xml`)), today);
  assert.deepEqual(v.comprobacion.campos, wasm.verificacion.campos);
  assert.deepEqual(v.comprobacion.comprobaciones.sellos_invalidos, wasm.verificacion.comprobaciones.sellos_invalidos);
  assert.ok(!wasm.verificacion.campos.includes('ingreso_mensual'), 'a broken seal verifies no income');

  const page = await newPage(browser, 390);
  await page.goto(`/profile/${saved.id}`);
  const card = page.getByTestId('verification');
  await card.waitFor();
  const notes = await page.getByTestId('verification-notes').innerText();
  assert.ok(notes.includes(`${tampered.uuid} (SELLO_INVALIDO)`), notes);
  for (const note of wasm.verificacion.notas) assert.ok(notes.includes(note), `the page shows ${note}`);
  assert.doesNotMatch(await card.innerText(), /Datos verificados con el XML sellado: [^.]*Ingreso mensual/);
  await checkPage(page, 'profile-tampered-receipt');
  await page.context().close();
});
