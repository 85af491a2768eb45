// A buyer's whole path through the pages, against the real server and the SMTP sink:
// register (terms first refused), open the link from the e-mail, log in, the calculator
// (every error at once, in words; then a live score), save, the report and compatible
// properties, "me interesa"; the profile link reopens; the property's agent sees the lead.
// Then a password reset by e-mail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE, SEED_PASSWORD, apiJson, assertNoProblems, checkPage, launch, linkFromMail, login, newPage, unique } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A state with a listing of an active agent, so the journey has properties to match. */
async function stateWithListings() {
  const { data } = await apiJson('/api/properties?limit=100');
  for (const p of data.properties) {
    if (!p.agentId) continue;
    const agent = (await apiJson(`/api/agents/${p.agentId}?limit=1`)).data.agent;
    if (agent.isActive) return p.estado;
  }
  throw new Error('the seeded database has no listing of an active agent');
}

test('register, verify by e-mail, log in, score, save, record interest; the agent sees the lead', async () => {
  const page = await newPage(browser);
  const email = `comprador-${unique()}@example.test`;
  const password = 'una frase larga de prueba';

  await page.goto('/register');
  await page.getByLabel('Nombre', { exact: false }).first().fill('Lucía');
  await page.getByLabel('Apellidos').fill('Hernández');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByLabel('Teléfono').fill('+52 55 1234 5678');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await page.getByText('Debes aceptar los Términos y Condiciones y el Aviso de Privacidad').waitFor();
  await page.getByLabel(/Acepto los/).check();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await page.getByRole('heading', { name: 'Revisa tu correo' }).waitFor();

  const link = await linkFromMail(email, '/verify-email');
  assert.ok(link.startsWith(`${BASE}/verify-email?token=`), `the e-mail link opens this server: ${link}`);
  await page.goto(link);
  await page.getByText('Correo electrónico verificado correctamente').waitFor();
  assert.equal(new URL(page.url()).search, '', 'the token leaves the address bar');

  await login(page, email, password);
  await page.waitForURL('**/calculator');
  await page.getByTestId('calc-status').getByText(/Puntaje \d+ de 1000/).waitFor();

  // Every problem at once, in the buyer's words (never a key such as ingreso_mensual).
  await page.locator('#ingreso_mensual').fill('-5');
  await page.locator('#antiguedad_meses').fill('2.5');
  await page.locator('#edad').fill('10');
  const errors = page.getByTestId('calc-errors');
  await errors.locator('li').nth(2).waitFor();
  const items = await errors.locator('li').allTextContents();
  assert.equal(items.length, 3, items.join(' | '));
  assert.ok(items.some((t) => t.includes('«Ingreso mensual neto del hogar» no puede ser negativo')), items.join(' | '));
  assert.ok(items.some((t) => t.includes('«Edad (años)» debe estar entre 18 y 100')), items.join(' | '));
  const text = await page.locator('main').innerText();
  assert.ok(!/ingreso_mensual|antiguedad_meses|\bedad\b"/.test(text), 'no internal key is shown');
  assert.equal(await page.locator('#ingreso_mensual').getAttribute('aria-invalid'), 'true');
  await checkPage(page, 'calculator-errors');

  // Live score as the buyer types.
  const estado = await stateWithListings();
  await page.locator('#estado').selectOption(estado);
  await page.locator('#antiguedad_meses').fill('60');
  await page.locator('#edad').fill('35');
  await page.locator('#ahorro').fill('5,000,000');
  await page.locator('#ingreso_mensual').fill('150000');
  await page.getByTestId('report').waitFor();
  const scoreBefore = Number(await page.getByTestId('score').textContent());
  await page.locator('#ingreso_mensual').fill('15000');
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid=score]')?.textContent) !== s, scoreBefore);
  await page.locator('#ingreso_mensual').fill('150000');
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid=score]')?.textContent) === s, scoreBefore);
  assert.equal(await page.locator('.bars li').count(), 6);
  // Credit products: all six under their own rules (Cofinavit the sixth), one recommended; a
  // refused one says why.
  const products = page.getByRole('region', { name: 'Productos de crédito' });
  assert.equal(await products.locator('tbody tr').count(), 6);
  assert.equal(await products.locator('tr.recommended').count(), 1);
  const unamos = await products.locator('tbody tr').nth(4).innerText();
  assert.match(unamos, /Unamos Créditos[\s\S]*No[\s\S]*registrar a otra persona/, unamos);
  // A state worker says so: FOVISSSTE lends, INFONAVIT does not, the score does not move.
  await page.locator('#institucion').selectOption('FOVISSSTE');
  await page.waitForFunction(() => /Sí/.test(document.querySelectorAll('table.products tbody tr')[1]?.innerText ?? ''));
  assert.match(await products.locator('tbody tr').nth(0).innerText(), /No[\s\S]*cotiza al INFONAVIT/);
  assert.equal(Number(await page.getByTestId('score').textContent()), scoreBefore);
  await page.locator('#institucion').selectOption('');
  await page.waitForFunction(() => /Sí/.test(document.querySelectorAll('table.products tbody tr')[0]?.innerText ?? ''));
  // A co-borrower: its income must be part of the household's (the error names the field in
  // words); declared, Unamos Créditos pools both INFONAVIT credits and the score does not move.
  await page.getByText('¿Solicitas el crédito con otra persona?').click();
  const co = (field) => page.locator(`[id="coacreditado.${field}"]`);
  await co('ingreso_mensual').fill('200000');
  await co('tipo_ingreso').selectOption('asalariado');
  await co('antiguedad_meses').fill('24');
  const coErrors = page.getByTestId('calc-errors');
  await coErrors.waitFor();
  assert.match(await coErrors.innerText(), /Ingreso mensual neto del coacreditado[\s\S]*menor que/);
  await co('ingreso_mensual').fill('50000');
  await page.waitForFunction(() => /Sí/.test(document.querySelectorAll('table.products tbody tr')[4]?.innerText ?? ''));
  assert.equal(Number(await page.getByTestId('score').textContent()), scoreBefore);
  for (const field of ['ingreso_mensual', 'antiguedad_meses']) await co(field).fill('');
  await co('tipo_ingreso').selectOption('');
  await page.waitForFunction(() => /registrar a otra persona/.test(document.querySelectorAll('table.products tbody tr')[4]?.innerText ?? ''));
  // What-if: debts left empty, so declaring them is simulated, with a higher score.
  const whatIf = page.getByTestId('simulaciones').locator('li[data-accion=DECLARAR_DEUDAS]');
  await whatIf.waitFor();
  const simulated = await whatIf.innerText();
  assert.match(simulated, /Deudas mensuales: sin declarar → \$0/, simulated);
  const simulatedScore = Number(await whatIf.locator('strong').nth(1).textContent());
  assert.ok(simulatedScore > scoreBefore, `${simulatedScore} > ${scoreBefore}: ${simulated}`);
  await checkPage(page, 'calculator-report');

  // Save (onboarding) with the account's contact prefilled.
  assert.equal(await page.locator('form.save input[name=email]').inputValue(), email);
  await page.getByRole('button', { name: 'Guardar y ver propiedades' }).click();
  await page.waitForURL(/\/profile\/[0-9a-f-]{36}$/);
  const profileUrl = page.url();
  await page.getByRole('heading', { name: 'Propiedades compatibles' }).waitFor();
  const match = page.locator('li.match').first();
  await match.waitFor();
  assert.ok((await match.locator('.reasons li.ok').count()) >= 1, 'each property says why it fits');
  await checkPage(page, 'profile');

  const propertyId = await match.getAttribute('data-property');
  await match.getByRole('button', { name: 'Me interesa' }).click();
  await match.getByLabel('Mensaje para el agente').fill('¿Puedo visitarla el sábado?');
  await match.getByRole('button', { name: 'Enviar mi interés' }).click();
  await match.getByTestId('interest-recorded').waitFor();
  assertNoProblems(page);

  // The profile link reopens it later.
  const again = await newPage(browser, 1280);
  await again.goto(profileUrl);
  await again.getByTestId('report').waitFor();
  assert.equal(Number(await again.getByTestId('score').textContent()), scoreBefore);
  await again.context().close();

  // The property's agent sees the lead with the buyer's contact.
  const property = (await apiJson(`/api/properties/${propertyId}`)).data;
  const agent = (await apiJson(`/api/agents/${property.agentId ?? property.property?.agentId}?limit=1`)).data.agent;
  const agentPage = await newPage(browser);
  await login(agentPage, agent.user.email, SEED_PASSWORD);
  await agentPage.waitForURL('**/leads');
  const lead = agentPage.locator('li.lead', { hasText: 'Lucía Hernández' });
  await lead.waitFor();
  assert.match(await lead.innerText(), new RegExp(email.replace(/[.+]/g, '\\$&')));
  assert.match(await lead.innerText(), /¿Puedo visitarla el sábado\?/);
  await checkPage(agentPage, 'leads');
  await agentPage.context().close();
  await page.context().close();
});

test('forgot password: the e-mail link sets a new password that logs in', async () => {
  const email = `reset-${unique()}@example.test`;
  await apiJson('/api/auth/register', {
    method: 'POST',
    body: { firstName: 'Raúl', lastName: 'Ortiz', email, password: 'contraseña original 1', role: 'comprador', acceptedTerms: true },
  });
  const verify = await linkFromMail(email, '/verify-email');
  await fetch(`${BASE}/api/auth/verify-email?token=${new URL(verify).searchParams.get('token')}`);

  const page = await newPage(browser);
  await page.goto('/forgot-password');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await page.locator('.alert-success').waitFor();
  await checkPage(page, 'forgot-password');

  const link = await linkFromMail(email, '/reset-password');
  assert.ok(link.startsWith(`${BASE}/reset-password?token=`), link);
  await page.goto(link);
  await page.getByLabel('Contraseña nueva').fill('contraseña nueva y larga 2');
  await page.getByLabel('Repite la contraseña').fill('contraseña nueva y larga 2');
  await checkPage(page, 'reset-password');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await page.getByText('Por seguridad cerramos tus sesiones abiertas.').waitFor();

  await login(page, email, 'contraseña original 1');
  await page.getByRole('alert').getByText(/incorrect|inválid/i).waitFor();
  await login(page, email, 'contraseña nueva y larga 2');
  await page.waitForURL('**/calculator');

  // The same link cannot be used twice.
  await page.goto(link);
  await page.getByLabel('Contraseña nueva').fill('otra contraseña larga 3');
  await page.getByLabel('Repite la contraseña').fill('otra contraseña larga 3');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await page.getByRole('link', { name: 'Pedir un enlace nuevo' }).waitFor();
  assertNoProblems(page);
  await page.context().close();
});
