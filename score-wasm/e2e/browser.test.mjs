// End-to-end test of the page in Debian's Chromium (headless, driven by playwright-core):
//  1. every fixture gives its expected result inside the browser (wasm API evaluated in the page),
//     with and without Calibration.default(), and every invalid calibration fixture is refused;
//  2. a person fills the form: the rendered score, level, gauge and bars equal the API's report;
//  3. a bad value shows the Spanish error on the right field;
//  4. the page keeps working offline once loaded (service worker), and under a strict CSP (no
//     'unsafe-eval': the helper functions are a module file generated at build time);
//  5. a screenshot is saved to score-wasm/e2e/screenshot.png (and looked at by a human).
// Run: node --test score-wasm/e2e/   (after scripts/build.sh; CHROMIUM overrides /usr/bin/chromium)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
const wasmNode = require(join(root, 'score-wasm', 'pkg-node', 'score_wasm.js'));

const fixtures = join(root, 'fixtures');
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
const cases = manifest.cases.map((path) => ({ path, ...JSON.parse(readFileSync(join(fixtures, path), 'utf8')) }));

let server, context, page, url, profileDir;
const pageErrors = [];

before(async () => {
  server = await startServer();
  url = `http://127.0.0.1:${server.address().port}/`;
  profileDir = mkdtempSync(join(tmpdir(), 'score-e2e-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') pageErrors.push(msg.text()); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
});

after(async () => {
  await context?.close();
  server?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

test('the page loads the wasm model without errors', async () => {
  assert.equal(await page.textContent('#modelo'), wasmNode.MODEL_VERSION);
  assert.equal(await page.textContent('#version'), wasmNode.VERSION);
  assert.deepStrictEqual(pageErrors, []);
});

test('every fixture gives the expected result inside the browser', async () => {
  const results = await page.evaluate((cases) => cases.map((c) => {
    const api = window.platformScore;
    try {
      return { report: 'input_text' in c ? JSON.parse(api.scoreJson(c.input_text)) : api.score(c.input) };
    } catch (e) {
      return { error: { code: e.code, field: e.field, errores: e.errors }, isError: e instanceof Error };
    }
  }), cases);
  assert.equal(results.length, cases.length);
  cases.forEach((c, i) => {
    if (c.error) {
      // Every mistake at once, in score-core's order (the four-mistake case too).
      assert.deepStrictEqual(results[i].error, { code: c.error.code, field: c.error.field ?? null, errores: c.error.errores }, c.path);
      assert.ok(results[i].isError, c.path);
    } else {
      assert.deepStrictEqual(results[i].report, c.expected, c.path);
    }
  });
  // The async and batch entry points agree in the browser too.
  const valid = cases.filter((c) => c.expected && 'input' in c);
  const batch = await page.evaluate(async (inputs) => {
    const api = window.platformScore;
    return { many: api.scoreMany(inputs), async: await Promise.all(inputs.map((p) => api.scoreAsync(p))) };
  }, valid.map((c) => c.input));
  assert.deepStrictEqual(batch.many, valid.map((c) => c.expected));
  assert.deepStrictEqual(batch.async, valid.map((c) => c.expected));
});

test('calibrations in the browser: every invalid document refused, the default scores every fixture as none', async () => {
  const embedded = readFileSync(join(root, 'score-core', 'calibration', 'mx-2026.toml'), 'utf8');
  const invalid = JSON.parse(readFileSync(join(fixtures, 'calibraciones', 'invalidas.json'), 'utf8')).casos;
  const valid = cases.filter((c) => c.expected && 'input' in c);
  const got = await page.evaluate(async ({ embedded, invalid, inputs }) => {
    const { Calibration, ScoreError, score, scoreJson, scoreMany, scoreAsync } = window.platformScore;
    const refused = invalid.map((c) => {
      try {
        Calibration.fromToml(embedded.replace(c.reemplazar, c.por));
        return null;
      } catch (e) {
        return { code: e.code, field: e.field, isScoreError: e instanceof ScoreError, message: e.message };
      }
    });
    const calibration = Calibration.default();
    const other = Calibration.fromToml(embedded.replace(/^id = "[^"]*"/m, 'id = "banco-navegador-2026"'));
    return {
      refused,
      id: calibration.id,
      plainId: score(inputs[0]).calibracion,
      reports: inputs.map((p) => score(p, { calibration })),
      texts: inputs.map((p) => scoreJson(JSON.stringify(p), { calibration }) === scoreJson(JSON.stringify(p))),
      many: scoreMany(inputs, { calibration }),
      async: await Promise.all(inputs.map((p) => scoreAsync(p, { calibration }))),
      otherIds: [score(inputs[0], { calibration: other }).calibracion, scoreMany(inputs, { calibration: other })[1].calibracion,
        JSON.parse(scoreJson(JSON.stringify(inputs[0]), { calibration: other })).calibracion, (await scoreAsync(inputs[0], { calibration: other })).calibracion],
    };
  }, { embedded, invalid, inputs: valid.map((c) => c.input) });
  invalid.forEach((c, i) => {
    const r = got.refused[i];
    assert.ok(r, c.description);
    assert.deepStrictEqual([r.code, r.field, r.isScoreError], [c.error.code, c.error.field, true], c.description);
    assert.ok(r.message.startsWith('CALIBRATION_INVALID: La calibración no es válida. '), r.message);
  });
  assert.equal(got.id, got.plainId);
  assert.deepStrictEqual(got.reports, valid.map((c) => c.expected));
  assert.ok(got.texts.every(Boolean));
  assert.deepStrictEqual(got.many, valid.map((c) => c.expected));
  assert.deepStrictEqual(got.async, valid.map((c) => c.expected));
  assert.deepStrictEqual(got.otherIds, Array(4).fill('banco-navegador-2026'));
  assert.deepStrictEqual(pageErrors, []);
});

async function typeInto(selector, text) {
  const field = page.locator(selector);
  await field.click();
  await field.press('Control+A');
  await field.press('Backspace');
  if (text !== '') await field.pressSequentially(text, { delay: 5 });
}

test('a buyer fills the form and sees the API score', async () => {
  await page.getByRole('combobox', { name: 'Estado donde quieres comprar' }).selectOption({ label: 'Jalisco' });
  await page.getByRole('combobox', { name: 'Tipo de ingreso' }).selectOption({ label: 'Mixto (nómina e independiente)' });
  await typeInto('#ingreso_mensual', '45000');
  await typeInto('#antiguedad_meses', '18');
  await typeInto('#edad', '42');
  await typeInto('#personas_hogar', '4');
  await typeInto('#ahorro', '250000');
  await typeInto('#deudas_mensuales', '5000');
  await typeInto('#subcuenta_fondo', '');

  const profile = {
    estado: 'JAL', tipo_ingreso: 'mixto', ingreso_mensual: 45000, antiguedad_meses: 18,
    edad: 42, personas_hogar: 4, ahorro: 250000, deudas_mensuales: 5000,
  };
  const expected = wasmNode.score(profile);
  assert.deepStrictEqual(await page.evaluate(() => window.platformScore.readProfile(document.getElementById('perfil'))), profile);
  await page.waitForFunction((s) => document.getElementById('score').textContent === s, String(expected.score));
  assert.equal(await page.textContent('#score'), String(expected.score));
  assert.equal(await page.textContent('#nivel'), expected.nivel);
  assert.equal(await page.getAttribute('#gauge-bar', 'stroke-dasharray'), `${expected.score} 1000`);
  const status = await page.textContent('#estado-calculo');
  assert.ok(status.includes(`Puntaje ${expected.score} de 1000`), status);
  const bars = await page.$$eval('#componentes li', (lis) => lis.map((li) => [li.dataset.componente, Number(li.querySelector('[role=meter]').getAttribute('aria-valuenow'))]));
  assert.deepStrictEqual(bars, Object.entries(expected.componentes).map(([k, c]) => [k, c.valor]));
  const recs = await page.$$eval('#recomendaciones li', (lis) => lis.map((li) => li.dataset.codigo));
  assert.deepStrictEqual(recs, expected.recomendaciones_detalle.map((r) => r.codigo));
  const shown = await page.textContent('[data-key="valor_realista"] dd');
  const pesos = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 });
  assert.equal(shown.replace(/\s/g, ' '), pesos.format(expected.capacidad_compra_estimada.valor_realista).replace(/\s/g, ' '));
  await page.screenshot({ path: join(here, 'screenshot.png'), fullPage: true });
});

test('a bad value shows the error on its field, and fixing it recomputes', async () => {
  await typeInto('#edad', '12');
  await page.waitForSelector('#error:not([hidden])');
  assert.equal(await page.getAttribute('#error', 'data-code'), 'VALUE_OUT_OF_RANGE');
  assert.equal(await page.getAttribute('#edad', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#error'), /Edad/);
  assert.ok(await page.isHidden('#reporte'));
  await typeInto('#edad', '42');
  await page.waitForSelector('#error', { state: 'hidden' });
  assert.equal(await page.getAttribute('#edad', 'aria-invalid'), null);
  assert.ok(await page.isVisible('#reporte'));
});

test('scoreJson gives the fixtures\' JSON text byte for byte inside the browser', async () => {
  const valid = cases.filter((c) => c.expected && 'input' in c);
  const texts = await page.evaluate((inputs) => inputs.map((p) => window.platformScore.scoreJson(JSON.stringify(p))),
    valid.map((c) => c.input));
  assert.deepStrictEqual(texts, valid.map((c) => JSON.stringify(c.expected)));
});

test('under a strict CSP without unsafe-eval, nothing is blocked and every result is the same', async () => {
  // The helper functions (profile gather, report builder, JSON assembler) are score_helpers.mjs,
  // a module file generated at build time: nothing is compiled from text, so a page whose
  // Content-Security-Policy allows only its own scripts and WebAssembly runs the same fast path.
  const strict = await startServer(undefined, 0, '127.0.0.1', {
    'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:",
  });
  const other = await context.newPage();
  const errors = [];
  other.on('pageerror', (err) => errors.push(String(err)));
  // Records what the CSP blocks (init scripts run before the page's own, outside its CSP).
  await other.addInitScript(() => {
    window.cspBlocked = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspBlocked.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const helpers = other.waitForResponse((r) => r.url().endsWith('/pkg/score_helpers.mjs'));
  try {
    await other.goto(`http://127.0.0.1:${strict.address().port}/`);
    await other.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    assert.equal((await helpers).status(), 200);
    const valid = cases.filter((c) => c.expected && 'input' in c);
    const out = await other.evaluate((inputs) => {
      const api = window.platformScore;
      const reports = inputs.map((p) => api.score(p));
      const texts = inputs.map((p) => api.scoreJson(JSON.stringify(p)));
      return { reports, texts, blocked: [...window.cspBlocked] };
    }, valid.map((c) => c.input));
    // Nothing the page or score-wasm did was blocked: no code was compiled from text.
    assert.deepStrictEqual(out.blocked, []);
    // The CSP is in force: an inline script (which page scripts could add) is refused.
    const probe = await other.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true;';
      document.body.append(script);
      await new Promise((ok) => setTimeout(ok, 50));
      return { ran: window.inlineRan === true, blocked: window.cspBlocked };
    });
    assert.equal(probe.ran, false);
    assert.deepStrictEqual(probe.blocked, ['script-src-elem inline']);
    assert.deepStrictEqual(out.reports, valid.map((c) => c.expected));
    assert.deepStrictEqual(out.texts, valid.map((c) => JSON.stringify(c.expected)));
    assert.deepStrictEqual(errors, []);
  } finally {
    await other.close();
    strict.close();
  }
});

test('the page works offline once loaded', async () => {
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Let the service worker finish caching, then cut the network and reload.
  await page.waitForFunction(async () => (await caches.open('platform-score-v1').then((c) => c.keys())).length >= 6);
  await context.setOffline(true);
  try {
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    const expected = wasmNode.score({ estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36, ahorro: 100000, edad: 35 });
    assert.equal(await page.textContent('#score'), String(expected.score));
  } finally {
    await context.setOffline(false);
  }
});

test('on a phone (390 px) the page fits the screen and every component bar is visible', async () => {
  const phone = await context.newPage();
  try {
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(url);
    await phone.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    await phone.waitForSelector('#componentes li .bar-track');
    const layout = await phone.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      bars: [...document.querySelectorAll('#componentes .bar-track')].map((t) => t.getBoundingClientRect().width),
    }));
    assert.ok(layout.scrollWidth <= layout.innerWidth, `no horizontal scroll: ${layout.scrollWidth} > ${layout.innerWidth}`);
    assert.equal(layout.bars.length, 6);
    for (const width of layout.bars) assert.ok(width >= 200, `a component bar is ${width}px wide`);
  } finally {
    await phone.close();
  }
});
