// The calculator's result on a phone and on a desktop, in the real browser, against the real
// server: at 360, 390, 768 and 1280 px, with a profile eligible for every product it can be,
// one eligible for none and one with a co-borrower, no element is wider than the viewport, no
// word of the report is broken across lines (each cell at least as wide as its longest word),
// the recommended product is on the first two screens at 390 px and axe finds nothing serious.
// Screenshots of each width go to e2e/artifacts/phone/ (the test prints the folder). And the
// form's field errors are score-core's, every one at once, for a table of bad inputs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { ARTIFACTS, BASE, assertNoProblems, launch, newPage, resize } from './helpers.mjs';

const SHOTS = join(ARTIFACTS, 'phone');
const WIDTHS = [360, 390, 768, 1280];
const HEIGHT = 860;

let browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  console.log(`screenshots of the calculator at ${WIDTHS.join(', ')} px: ${SHOTS}`);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The form's starting values (calculator.jsx's START). */
const START = { ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, estado: 'CMX', ahorro: 100000 };

/** The profiles the result is checked with: fields to type over START (null: emptied). */
const PROFILES = {
  // Eligible for every product a salaried applicant can be (INFONAVIT, Cofinavit, the bank),
  // and Unamos Créditos through the co-borrower.
  todos: { ingreso_mensual: 90000, antiguedad_meses: 60, edad: 35, ahorro: 900000, deudas_mensuales: 2000,
    'coacreditado.ingreso_mensual': 40000, 'coacreditado.tipo_ingreso': 'asalariado', 'coacreditado.antiguedad_meses': 48 },
  ninguno: { ingreso_mensual: 4000, tipo_ingreso: 'independiente', antiguedad_meses: 2, edad: 79, ahorro: 0, deudas_mensuales: 3900 },
  coacreditado: { ingreso_mensual: 45000, antiguedad_meses: 30, edad: 41, institucion: 'FOVISSSTE',
    'coacreditado.ingreso_mensual': 15000, 'coacreditado.tipo_ingreso': 'mixto', 'coacreditado.antiguedad_meses': 14, 'coacreditado.edad': 38 },
};

/** Opens the calculator and types `fields` (values as text; selects chosen). */
async function fill(page, fields) {
  if (Object.keys(fields).some((k) => k.startsWith('coacreditado.'))) {
    const details = page.locator('details.coborrower');
    if (!(await details.evaluate((d) => d.open))) await page.getByText('¿Solicitas el crédito con otra persona?').click();
  }
  for (const [key, value] of Object.entries(fields)) {
    const input = page.locator(`[id="${key}"]`);
    const text = value == null ? '' : String(value);
    if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(text);
    else await input.fill(text);
  }
}

/** Everything in the page wider than the viewport, or reaching past its right edge. */
function overflowing() {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    // Inside a scrolling box, only the box itself must fit.
    if (el.closest('.table-scroll') && !el.classList.contains('table-scroll')) continue;
    if (r.width > width + 0.5 || r.right > width + 0.5) out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.width)}px`);
  }
  return out;
}

/** Words of the report broken across lines, and cells narrower than their longest word. */
function brokenWords() {
  const out = [];
  const report = document.querySelector('[data-testid=report]');
  const walker = document.createTreeWalker(report, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('svg') || parent.getClientRects().length === 0) continue;
    for (const m of node.data.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(`"${m[0]}" in ${parent.tagName.toLowerCase()}`);
    }
  }
  // Each cell is at least as wide as its longest word (measured in its own font).
  const canvas = document.createElement('canvas').getContext('2d');
  for (const cell of report.querySelectorAll('th, td, dt, dd, h3, h4, .badge')) {
    if (cell.getClientRects().length === 0) continue;
    const style = getComputedStyle(cell);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const word of cell.textContent.split(/\s+/).filter(Boolean)) {
      const w = canvas.measureText(word).width;
      if (w > inner + 1) out.push(`cell ${cell.tagName.toLowerCase()} ${Math.round(inner)}px < "${word}" ${Math.round(w)}px`);
    }
  }
  return out;
}

for (const [name, fields] of Object.entries(PROFILES)) {
  test(`the result of "${name}" reads at every width: no overflow, no broken word, recommended first, axe clean`, async () => {
    const page = await newPage(browser, 390);
    await page.goto('/calculator');
    await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
    await fill(page, fields);
    await page.getByTestId('report').waitFor();
    const cards = page.getByTestId('product-cards');
    if (name === 'todos') {
      // The most a salaried worker can get: INFONAVIT, the bank, Unamos Créditos and Cofinavit
      // (INFONAVIT's credit joined to a bank's, for active workers; the 70/30 scheme is for
      // people without an employer, FOVISSSTE for the State's workers).
      const eligible = await page.locator('.product-card .eligible').count();
      assert.equal(eligible, 4, `${eligible} products eligible`);
    }
    if (name === 'ninguno') assert.equal(await page.locator('.product-card .eligible').count(), 0);
    for (const width of WIDTHS) {
      await resize(page, width, HEIGHT);
      await page.screenshot({ path: join(SHOTS, `calculator-${name}-${width}.png`), fullPage: true });
      assert.deepEqual(await page.evaluate(overflowing), [], `${name} at ${width} px`);
      assert.deepEqual(await page.evaluate(brokenWords), [], `${name} at ${width} px`);
      if (width <= 390) {
        // Cards, the recommended one first and marked, each saying whether it is eligible.
        assert.ok(await cards.isVisible(), `${name} at ${width} px shows cards`);
        const first = cards.locator('li').first();
        const recommended = await page.locator('.product-card.recommended').count();
        if (recommended) {
          assert.match(await first.getAttribute('class'), /recommended/);
          assert.match(await first.innerText(), /Recomendado/);
        }
        for (const text of await cards.locator('li').allInnerTexts()) {
          assert.match(text, /Puedes solicitarlo[\s\S]*Pago mensual[\s\S]*Crédito máximo[\s\S]*Vivienda de hasta[\s\S]*Tasa anual[\s\S]*CAT|No disponible: \S/, text);
        }
      }
      if (width === 390) {
        const target = (await page.locator('.product-card.recommended').count()) ? '.product-card.recommended' : '.product-card';
        const top = await page.locator(target).first().evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
        assert.ok(top < 2 * HEIGHT, `${name}: the recommended product starts at ${Math.round(top)} px, past two screens of ${HEIGHT} px`);
      }
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `${name} at ${width} px`);
    }
    assertNoProblems(page);
    await page.context().close();
  });
}

/** Bad inputs of the form (over START), each scored by the server too. */
const BAD = [
  { ingreso_mensual: -5, antiguedad_meses: 1.5, edad: 10 },
  { ingreso_mensual: null, antiguedad_meses: -3, personas_hogar: 0, ahorro: -1 },
  { deudas_mensuales: 'mucho', subcuenta_fondo: 20000000000, edad: 101 },
  { 'coacreditado.ingreso_mensual': 40000, 'coacreditado.antiguedad_meses': 2.5, 'coacreditado.edad': 12 },
  { deudas_mensuales: 500, 'coacreditado.ingreso_mensual': 1000, 'coacreditado.tipo_ingreso': 'mixto', 'coacreditado.antiguedad_meses': 3, edad: 17.5 },
];

/** The profile the form sends for these fields (what profile-fields.js reads). */
function profileOf(fields) {
  const profile = { ...START };
  const co = {};
  for (const [key, value] of Object.entries(fields)) {
    const [target, name] = key.startsWith('coacreditado.') ? [co, key.slice(13)] : [profile, key];
    if (value == null) delete target[name];
    else target[name] = value;
  }
  if (Object.keys(co).length) profile.coacreditado = co;
  return profile;
}

test("the form's field errors are score-core's, every one at once, for a table of bad inputs", async () => {
  const page = await newPage(browser, 390);
  await page.goto('/calculator');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  for (const fields of BAD) {
    await page.goto('/calculator');
    await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
    await fill(page, fields);
    await page.getByTestId('calc-errors').waitFor();
    // score-core's errors, as the server gives them for the same profile.
    const response = await fetch(`${BASE}/api/v1/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(profileOf(fields)),
    });
    const { errores } = await response.json();
    assert.ok(errores?.length > 0, JSON.stringify(fields));
    // The field's first mistake in its words: score-core's message, each field it names by
    // its label (the page's own <label>).
    const expected = {};
    for (const e of errores) expected[e.campo] ??= e.mensaje;
    const shown = await page.evaluate((keys) => {
      const label = (k) => document.querySelector(`label[for="${k}"]`)?.childNodes[0]?.textContent.trim();
      const labels = [...document.querySelectorAll('label[for]')].map((l) => l.getAttribute('for'));
      const words = (text) => labels.reduce((t, k) => t.split(`"${k}"`).join(`«${label(k)}»`), text);
      const errors = Object.fromEntries(
        [...document.querySelectorAll('.field-error')].map((p) => [p.id.replace(/-error$/, ''), p.textContent.trim()]),
      );
      return { errors, words: Object.fromEntries(keys.map(([k, m]) => [k, words(m)])) };
    }, Object.entries(expected));
    assert.deepEqual(shown.errors, shown.words, `${JSON.stringify(fields)}: ${JSON.stringify(errores)}`);
    const summary = await page.getByTestId('calc-errors').locator('li').count();
    assert.equal(summary, Object.keys(expected).length, JSON.stringify(fields));
  }
  assertNoProblems(page);
  await page.context().close();
});
