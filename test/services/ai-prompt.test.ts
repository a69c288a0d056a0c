import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/db.ts';
import { understandAiPrompt } from '../../src/services/ai-prompt.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    categories: [{ id: 'cat_crm', name: 'CRM' }],
    vendors: [{ id: 'ven_hubspot', domain: 'hubspot.com', name: 'HubSpot' }],
    products: [{ id: 'prd_hubspot_crm', vendor_id: 'ven_hubspot', category_id: 'cat_crm', name: 'HubSpot CRM', short_name: 'HubSpot' }],
    companies: [{ id: 'cmp_initech', domain: 'initech.example', name: 'Initech LLC', industry_id: 'ind_software' }],
    people: [{ id: 'per_1', company_id: 'cmp_initech', full_name: 'Pat Doe', title: 'VP of Sales', seniority: 'VP', function: 'Sales' }],
    contacts: [{ person_id: 'per_1', kind: 'email', value: 'pat@initech.example' }],
  });
});
after(() => db.close());

test('embedded: catalog and companies come from the database', async () => {
  const config = loadConfig({});
  const customers = await understandAiPrompt(db, config, 'software companies using hubspt crm', 'customers');
  assert.equal(customers.parser, 'embedded');
  assert.deepEqual(
    customers.query.products.map((p) => p.id),
    ['prd_hubspot_crm'],
  );
  assert.deepEqual(
    customers.query.industries.map((i) => i.id),
    ['ind_software'],
  );
  assert.equal(customers.described, "products=HubSpot CRM (typo 'hubspt crm'); industries=Software");

  const people = await understandAiPrompt(db, config, 'VPs of Sales at initech', 'people');
  assert.deepEqual(people.query.companies, [{ domain: 'initech.example', name: 'Initech LLC', id: 'cmp_initech', text: 'initech', kind: 'name' }]);
  assert.deepEqual(people.query.titles, ['VP of Sales']);
  assert.doesNotMatch(JSON.stringify(people), /pat@/);
});

test('model: a stub endpoint answers, grounded on the database catalog', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ companies: ['initech.example'], categories: ['CRM'] }) } }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const config = loadConfig({ AI_BASE_URL: `http://127.0.0.1:${port}`, AI_MODEL: 'stub', AI_TIMEOUT_MS: '10000' });
    const r = await understandAiPrompt(db, config, 'which CRM does initech.example use?', 'techstack');
    assert.equal(r.parser, 'model');
    assert.deepEqual(r.query.companies, [{ domain: 'initech.example', name: 'Initech LLC', id: 'cmp_initech', text: 'initech.example', kind: 'domain' }]);
    assert.deepEqual(
      r.query.categories.map((c) => c.id),
      ['cat_crm'],
    );
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
