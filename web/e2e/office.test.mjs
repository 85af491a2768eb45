// Offices: an agency_admin who manages two offices creates an agent, edits it, moves it to
// the other office and deactivates it, all from the office page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SEED_PASSWORD, apiJson, apiLogin, checkPage, launch, login, newPage, unique } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('an agency admin creates, edits, assigns and deactivates an agent', async () => {
  const owner = process.env.SEED_OWNER;
  assert.ok(owner, 'SEED_OWNER (an office owner from the seed) is not set');
  const token = await apiLogin(owner, SEED_PASSWORD);
  // A second office of the same admin, with one agent, so both offices are listed.
  const tag = unique();
  const second = (await apiJson('/api/agencies', { method: 'POST', token, body: { name: `Oficina Norte ${tag}`, city: 'Monterrey' } })).data;
  await apiJson(`/api/agencies/${second.id}/agents`, {
    method: 'POST',
    token,
    body: { firstName: 'Elena', lastName: 'Garza', email: `elena-${tag}@example.test`, password: 'contraseña de agente 1', city: 'Monterrey' },
  });

  // A third office with no agent yet: it is offered as the home of a new agent all the same.
  const empty = (await apiJson('/api/agencies', { method: 'POST', token, body: { name: `Oficina Vacía ${tag}`, city: 'Puebla' } })).data;
  assert.ok(empty.id);

  const page = await newPage(browser, 1280);
  await login(page, owner, SEED_PASSWORD);
  await page.waitForURL('**/office');
  await page.locator('li.office-agent').first().waitFor();

  const before = Number(await page.getByTestId('office-total').getAttribute('data-total'));
  const email = `nuevo-${tag}@example.test`;
  await page.getByText('Crear un agente').click();
  const form = page.getByTestId('create-agent');
  await page.waitForFunction(() => document.querySelectorAll('#new-agencyId option').length >= 2);
  await form.getByLabel('Nombre').fill('Mateo');
  await form.getByLabel('Apellidos').fill('Salinas');
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByLabel('Contraseña inicial').fill('contraseña de agente 2');
  await form.getByLabel('Ciudad').fill('Guadalajara');
  await form.getByLabel('Especialidad').selectOption('Residencial');
  const offices = await form.getByLabel('Oficina').locator('option').allTextContents();
  assert.ok(offices.length >= 3, `every managed office is offered: ${offices}`);
  assert.ok(offices.includes(`Oficina Vacía ${tag}`), `the office without agents is offered: ${offices}`);
  const first = offices.find((o) => !o.includes('Oficina Norte'));
  await form.getByLabel('Oficina').selectOption({ label: first });
  await form.getByRole('button', { name: 'Crear agente' }).click();
  await page.getByText(/Agente creado: Mateo Salinas/).waitFor();
  await page.locator(`[data-testid=office-total][data-total="${before + 1}"]`).waitFor();
  await checkPage(page, 'office');

  // The list is ordered by the server; find the new agent on whichever page it is.
  let card = page.locator(`li.office-agent[data-email="${email}"]`);
  while (!(await card.count())) {
    const next = page.getByRole('link', { name: 'Siguiente →' });
    assert.ok(await next.count(), 'the new agent is listed');
    const url = page.url();
    await next.click();
    await page.waitForURL((u) => u.href !== url);
    await page.locator('li.office-agent').first().waitFor();
    card = page.locator(`li.office-agent[data-email="${email}"]`);
  }
  assert.equal(await card.getByTestId('agent-office').textContent(), first);

  // Edit.
  await card.getByRole('button', { name: 'Editar' }).click();
  await card.getByLabel('Apellidos').fill('Salinas Ruiz');
  await card.getByLabel('Ciudad').fill('Zapopan');
  await card.getByRole('button', { name: 'Guardar' }).click();
  await page.getByText('Cambios guardados para Mateo Salinas Ruiz.').waitFor();
  card = page.locator(`li.office-agent[data-email="${email}"]`);
  await card.getByText(/Zapopan/).waitFor();

  // Assign to the other office.
  await card.getByLabel(/Oficina de/).selectOption({ label: `Oficina Norte ${tag}` });
  await card.getByRole('button', { name: 'Cambiar de oficina' }).click();
  await page.getByText(`ahora está en Oficina Norte ${tag}`).waitFor();
  card = page.locator(`li.office-agent[data-email="${email}"]`);
  await card.getByTestId('agent-office').filter({ hasText: `Oficina Norte ${tag}` }).waitFor();

  // Deactivate.
  await card.getByRole('button', { name: 'Desactivar' }).click();
  await page.getByText('quedó desactivado').waitFor();
  card = page.locator(`li.office-agent[data-email="${email}"]`);
  await card.getByText('Inactivo').waitFor();

  // The server agrees, and the new agent can log in with the chosen password.
  const id = await card.getAttribute('data-agent');
  const agent = (await apiJson(`/api/agents/${id}?limit=1`)).data.agent;
  assert.equal(agent.isActive, false);
  assert.equal(agent.agency.id, second.id);
  assert.equal(agent.user.lastName, 'Salinas Ruiz');
  assert.equal(agent.city, 'Zapopan');
  assert.ok(await apiLogin(email, 'contraseña de agente 2'));
  await page.context().close();
});
