// Shared pieces of the browser suite: Debian's Chromium through playwright-core, the mail
// sink's Maildir, and the per-page checks (no horizontal scroll at 390 and 1280 px, a
// screenshot kept in e2e/artifacts/, axe-core without serious or critical violations, and no
// script error or CSP violation on the page).
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
export const MAILDIR = process.env.MAILDIR;
export const SEED_PASSWORD = process.env.SEED_PASSWORD ?? 'seed password 2026';
export const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
export const WIDTHS = [390, 1280];
mkdirSync(ARTIFACTS, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A fresh context (its own storage) and page; collects page errors and CSP violations. */
export async function newPage(browser, width = 390) {
  const context = await browser.newContext({ viewport: { width, height: 860 }, locale: 'es-MX', baseURL: BASE });
  // Photos of seeded agents point to hosts that do not exist here: fail them fast (loopback,
  // where the server and the OpenID provider run, stays reachable).
  await context.route((url) => /^https?:/.test(url.protocol) && !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.abort());
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused to/i.test(m.text())) page.problems.push(`CSP: ${m.text()}`);
  });
  return page;
}

export function assertNoProblems(page) {
  assert.deepEqual(page.problems, [], 'the page had script errors or CSP violations');
}

/**
 * Sets the viewport and waits until the page has laid itself out at that width: the window
 * reports the new width and two animation frames have passed (a frame for the resize, one for
 * the layout it causes). A condition, not a guess of how long a layout takes.
 */
export async function resize(page, width, height) {
  await page.setViewportSize({ width, height });
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Width, screenshot and accessibility at each width, on the page as it is now. */
export async function checkPage(page, name) {
  for (const width of WIDTHS) {
    await resize(page, width, 860);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
    assert.ok(scrollWidth <= innerWidth, `${name} at ${width} px scrolls sideways: scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`);
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`),
      [],
      `${name} at ${width} px has serious accessibility violations`,
    );
  }
  assertNoProblems(page);
}

function decodeQuotedPrintable(text) {
  const bytes = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Waits for an e-mail to `to` whose text has a link to `path`, and returns that link. */
export async function linkFromMail(to, path, { after = 0, timeoutMs = 15000 } = {}) {
  assert.ok(MAILDIR, 'MAILDIR is not set');
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(`https?://[^\\s"<>]+${path.replace(/[/?]/g, '\\$&')}\\?(?:token|code)=[A-Za-z0-9_-]+`);
  while (Date.now() < deadline) {
    const dir = join(MAILDIR, 'new');
    for (const name of readdirSync(dir)) {
      const raw = readFileSync(join(dir, name), 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
      const text = decodeQuotedPrintable(raw);
      const m = text.match(pattern);
      if (m && !seenLinks.has(m[0]) && Date.now() >= after) {
        seenLinks.add(m[0]);
        return m[0];
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail to ${to} with a ${path} link within ${timeoutMs} ms`);
}
const seenLinks = new Set();

/** Signs in through the login page. */
export async function login(page, email, password) {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
}

export async function apiJson(path, { method = 'GET', body, token } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${BASE}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

export async function apiLogin(email, password) {
  return (await apiJson('/api/auth/login', { method: 'POST', body: { email, password } })).data.token;
}

/** Today in this machine's time zone as YYYY-MM-DD: the date score-docs counts seniority to in the page. */
export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * score-docs' WebAssembly module as Node loads it, reading against the CA certificates the
 * server is started with (web/scripts/test.sh: SAT_CA_DIR = the test CA of
 * fixtures/documents/ca-prueba/ac, which issued the fixtures' certificates): the reader the
 * calculator runs in the page, with the set it fetches from GET /api/v1/ca-sat.
 */
const docsWasm = createRequire(import.meta.url)('../../score-docs/wasm/pkg-node/score_docs_wasm.js');
const testCa = new docsWasm.CertificadosSat([readFileSync(new URL('../../fixtures/documents/ca-prueba/ac/AC_PRUEBAS.cer', import.meta.url))]);
export const readCfdi = (data) => testCa.readCfdi(data);
export const profileFromCfdi = (receipts, referenceDate) => testCa.profileFromCfdi(receipts, referenceDate);
