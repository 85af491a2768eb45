// The agent directory: search by name or company, filters by city and category, pages, and
// an agent's page with the sale/rent filter, reviews and contact.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiJson, checkPage, launch, newPage } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('search, filters and paging of the directory', async () => {
  const page = await newPage(browser);
  await page.goto('/agents');
  const total = await page.getByTestId('agents-total').textContent();
  const all = (await apiJson('/api/agents?limit=12')).data;
  assert.equal(total, `${all.pagination.total} agentes encontrados`);
  assert.equal(await page.locator('li.agent-card').count(), 12);
  await checkPage(page, 'agents');

  // Paging: page 2 shows the next agents.
  const firstPage = await page.locator('li.agent-card').first().getAttribute('data-agent');
  await page.getByRole('link', { name: 'Siguiente →' }).click();
  await page.waitForURL(/page=2/);
  await page.getByText(`Página 2 de ${all.pagination.lastPage}`).waitFor();
  const page2 = (await apiJson('/api/agents?limit=12&page=2')).data.agents.map((a) => a.id);
  await page.waitForFunction((id) => document.querySelector('li.agent-card')?.dataset.agent === id, page2[0]);
  assert.notEqual(page2[0], firstPage);
  await page.getByRole('link', { name: '← Anterior' }).click();
  await page.waitForFunction((id) => document.querySelector('li.agent-card')?.dataset.agent === id, firstPage);

  // Search by a part of a name (accents and case ignored by the server).
  const someone = all.agents[3];
  const word = someone.name.split(' ')[1];
  await page.getByLabel('Nombre o inmobiliaria').fill(word.toUpperCase());
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL(/search=/);
  await page.locator(`li.agent-card[data-agent="${someone.id}"]`).waitFor();
  const fold = (t) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  for (const card of await page.locator('li.agent-card').allInnerTexts()) {
    assert.ok(fold(card).includes(fold(word)), `${card} matches ${word} by name or company`);
  }

  // City and category together.
  await page.getByLabel('Nombre o inmobiliaria').fill('');
  await page.getByLabel('Ciudad').fill(someone.city);
  await page.getByLabel('Especialidad').selectOption(someone.category);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL(/city=/);
  await page.locator(`li.agent-card[data-agent="${someone.id}"]`).waitFor();
  for (const line of await page.locator('li.agent-card h2 + p').allTextContents()) {
    assert.equal(line, `${someone.category} · ${someone.city}`);
  }

  // Nothing found.
  await page.getByLabel('Ciudad').fill('Ciudad que no existe');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByText('Ningún agente coincide con tu búsqueda.').waitFor();
  await page.context().close();
});

test("an agent's page: properties for sale and for rent, reviews and contact", async () => {
  const { agents } = (await apiJson('/api/agents?limit=100')).data;
  let chosen = null;
  for (const a of agents) {
    const d = (await apiJson(`/api/agents/${a.id}?limit=1`)).data;
    if (d.propertiesCount.forSale > 0 && d.propertiesCount.forRent > 0 && d.reviews.length > 0) {
      chosen = d;
      break;
    }
  }
  assert.ok(chosen, 'the seed has an agent with sales, rentals and reviews');
  const page = await newPage(browser);
  await page.goto(`/agents/${chosen.agent.id}`);
  await page.getByRole('heading', { name: `${chosen.agent.user.firstName} ${chosen.agent.user.lastName}` }).waitFor();
  await page.getByRole('link', { name: chosen.agent.user.email }).waitFor();
  assert.equal(await page.locator('ul.reviews li').count(), chosen.reviews.length);
  await checkPage(page, 'agent');

  await page.getByRole('link', { name: `En venta (${chosen.propertiesCount.forSale})` }).click();
  await page.waitForURL(/type=sale/);
  await page.waitForFunction(() => [...document.querySelectorAll('li.property')].every((li) => li.dataset.operation === 'sale'));
  await page.getByRole('link', { name: `En renta (${chosen.propertiesCount.forRent})` }).click();
  await page.waitForURL(/type=rent/);
  await page.waitForFunction(() => document.querySelectorAll('li.property').length > 0 && [...document.querySelectorAll('li.property')].every((li) => li.dataset.operation === 'rent'));
  await page.context().close();
});
