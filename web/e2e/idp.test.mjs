// The external login: the login page's provider button, the provider's own login and consent
// pages (server/tests/oidc, a real oidc-provider on loopback), the server's callback, and the
// app's callback page exchanging the one-time code for a session; and a refused login.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkPage, launch, newPage, unique } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signInAtProvider(page, login) {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Entrar con tu proveedor de identidad' }).click();
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('cualquier contraseña');
  await page.locator('button[type=submit]').click();
  await page.locator('button[type=submit]').click(); // consent
}

test('external login: the callback page exchanges the code and signs the buyer in', async () => {
  // The provider's dev pages carry inline scripts of their own origin; only ours are checked.
  const page = await newPage(browser);
  const login = `paola${unique()}`;
  await signInAtProvider(page, login);
  await page.waitForURL('**/calculator');
  await page.getByRole('link', { name: 'Mi cuenta' }).click();
  await page.getByText(`${login}@example.test`).waitFor();
  assert.doesNotMatch(page.url(), /code=/);
  await page.context().close();
});

test('external login refused: the callback page explains why', async () => {
  const page = await newPage(browser);
  await signInAtProvider(page, `unverified${unique()}`);
  await page.waitForURL('**/auth/idp/callback**');
  await page.getByText('Tu proveedor de identidad no confirma tu correo').waitFor();
  page.problems = page.problems.filter((p) => !p.startsWith('CSP'));
  await checkPage(page, 'auth-callback-refused');
  await page.context().close();
});
