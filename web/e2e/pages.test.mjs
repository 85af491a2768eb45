// Every page through the server: each path of the app answers index.html with the security
// and cache headers, the API's 404 stays JSON, and the pages not covered by the flow suites
// pass the width, screenshot and axe checks at 390 and 1280 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { BASE, SEED_PASSWORD, checkPage, launch, login, newPage } from './helpers.mjs';

const routes = readFileSync(new URL('../src/routes.js', import.meta.url), 'utf8');
const PATHS = [...routes.matchAll(/'(\/[^']*)'/g)].map((m) => m[1].replace(/:id/, '00000000-0000-4000-8000-000000000000'));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('every path of the app is served with its headers; the API keeps its JSON 404', async () => {
  assert.ok(PATHS.length >= 15, PATHS.join(' '));
  for (const path of PATHS) {
    const r = await fetch(`${BASE}${path}`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(r.status, 200, path);
    assert.match(r.headers.get('content-type'), /text\/html/, path);
    assert.equal(r.headers.get('cache-control'), 'no-cache', path);
    assert.equal(r.headers.get('content-encoding'), 'br', path);
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/, path);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, path);
    assert.equal(r.headers.get('referrer-policy'), 'no-referrer', path);
  }
  const html = await (await fetch(`${BASE}/`)).text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  const asset = html.match(/\/assets\/[^"]+\.js/)[0];
  const a = await fetch(`${BASE}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(a.status, 200);
  assert.equal(a.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(a.headers.get('content-encoding'), 'gzip');

  for (const path of ['/api/nothing-here', '/api/agents/x/y/z', '/no-such-page']) {
    const r = await fetch(`${BASE}${path}`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 404, path);
    assert.equal((await r.json()).code, 'ROUTE_NOT_FOUND', path);
  }
});

test('public pages at 390 and 1280 px', async () => {
  const page = await newPage(browser);
  const pages = [
    ['home', '/', 'Tu próxima casa, con números claros'],
    ['login', '/login', 'Entrar'],
    ['terms', '/terms', 'Términos y Condiciones y Aviso de Privacidad'],
    ['verify-email-invalid', '/verify-email?token=no-es-un-token', 'Verificación de correo'],
    ['reset-password-no-token', '/reset-password', 'Nueva contraseña'],
    ['auth-callback-error', '/auth/callback?error=IDP_EMAIL_NOT_VERIFIED', 'Inicio de sesión'],
    ['profile-not-found', '/profile/00000000-0000-4000-8000-000000000000', 'Perfil no disponible'],
  ];
  for (const [name, path, heading] of pages) {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await checkPage(page, name);
  }
  await page.goto('/verify-email?token=no-es-un-token');
  await page.getByText('Token de verificación inválido o expirado').waitFor();

  await page.goto('/register');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await checkPage(page, 'register');
  await page.context().close();
});

test('account page and logout', async () => {
  const page = await newPage(browser);
  await login(page, process.env.SEED_OWNER, SEED_PASSWORD);
  await page.waitForURL('**/office');
  await page.goto('/account');
  await page.getByLabel('Empresa').fill('Casas del Norte SA');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.locator('.alert-success').waitFor();
  await checkPage(page, 'account');
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.waitForURL('**/login');
  await page.getByRole('link', { name: 'Entrar', exact: true }).waitFor();
  // The logged-out token no longer works at the server.
  const stored = await page.evaluate(() => localStorage.getItem('plataforma.sesion'));
  assert.equal(stored, null);
  await page.goto('/account');
  await page.waitForURL('**/login?next=/account');
  await page.context().close();
});

test('the calculator keeps scoring without the network once loaded', async () => {
  const page = await newPage(browser);
  await page.goto('/calculator');
  await page.getByTestId('report').waitFor();
  await page.context().setOffline(true);
  await page.locator('#ingreso_mensual').fill('45000');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();
  await page.context().setOffline(false);
  await page.context().close();
});

test("the calculator's what-if of a co-borrower names each simulated field in words", async () => {
  const page = await newPage(browser);
  await page.goto('/calculator');
  await page.getByTestId('report').waitFor();
  // Debts declared as none: INFONAVIT lends on the whole income, and two earners of half of it
  // pool more (Unamos Créditos) than one.
  await page.locator('#deudas_mensuales').fill('0');
  const whatIf = page.getByTestId('simulaciones').locator('li[data-accion=SUMAR_COACREDITADO]');
  await whatIf.waitFor();
  const text = await whatIf.innerText();
  assert.match(text, /Ingreso del coacreditado: sin declarar → \$15,000/, text);
  assert.match(text, /Tipo de ingreso del coacreditado: sin declarar → Asalariado \(nómina\)/, text);
  assert.match(text, /Antigüedad del coacreditado: sin declarar → 36 meses/, text);
  await page.context().close();
});
