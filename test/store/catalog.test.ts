import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import type { Db } from '../../src/db/db.ts';
import { setClock } from '../../src/clock.ts';
import { companyNamePattern, findPromptCompanies, invalidatePromptCatalog, loadProductLabels, loadPromptCatalog } from '../../src/store/catalog.ts';
import { companyCandidates, parsePrompt } from '../../src/intelligence/prompt/index.ts';
import { importRecords } from '../helpers/import-records.ts';

let db: Db;
before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    industries: [{ id: 'ind_banking', name: 'Banking' }],
    categories: [{ id: 'cat_sales' }, { id: 'cat_crm', name: 'CRM', parent_id: 'cat_sales' }],
    vendors: [{ id: 'ven_hubspot', domain: 'hubspot.com', name: 'HubSpot' }],
    products: [{ id: 'prd_hubspot_crm', vendor_id: 'ven_hubspot', category_id: 'cat_crm', name: 'HubSpot CRM', short_name: 'HubSpot', aliases: ['HS CRM'] }],
    companies: [
      { id: 'cmp_acme', domain: 'acme.example', name: 'Acme Inc.' },
      { id: 'cmp_acme_robotics', domain: 'acme-robotics.example', name: 'Acme Robotics' },
      { id: 'cmp_globex', domain: 'globex.example', name: 'Globex' },
      { id: 'cmp_dot', domain: 'dot.example', name: 'A.B (Holdings)' },
    ],
  });
});
after(() => db.close());
afterEach(() => setClock());

test('loadPromptCatalog reads the four catalog tables as plain data', async () => {
  const catalog = await loadPromptCatalog(db, { maxAgeMs: 0 });
  assert.deepEqual(catalog.products, [
    { id: 'prd_hubspot_crm', name: 'HubSpot CRM', shortName: 'HubSpot', aliases: ['HS CRM'], vendorId: 'ven_hubspot', categoryId: 'cat_crm' },
  ]);
  assert.deepEqual(catalog.vendors, [{ id: 'ven_hubspot', domain: 'hubspot.com', name: 'HubSpot' }]);
  assert.deepEqual(catalog.categories, [
    { id: 'cat_crm', name: 'CRM', parentId: 'cat_sales' },
    { id: 'cat_sales', name: 'Sales', parentId: null },
  ]);
  assert.deepEqual(catalog.industries, [{ id: 'ind_banking', name: 'Banking' }]);
  const q = parsePrompt('banks using hubspt crm', catalog, { mode: 'customers' });
  assert.deepEqual(
    q.products.map((p) => p.id),
    ['prd_hubspot_crm'],
  );
  assert.deepEqual(
    q.industries.map((i) => i.id),
    ['ind_banking'],
  );
});

test('the catalog is cached per database and reloaded when its data changes', async () => {
  let clock = 1_000_000;
  setClock(() => clock);
  invalidatePromptCatalog(db);
  const first = await loadPromptCatalog(db);
  assert.equal(await loadPromptCatalog(db), first, 'same object within maxAge');
  clock += 60_000;
  assert.equal(await loadPromptCatalog(db), first, 'same object when the fingerprint is unchanged');

  // A rename keeps counts and ids: the fingerprint still notices it.
  await importRecords(db, 'products', [{ id: 'prd_hubspot_crm', vendorId: 'ven_hubspot', categoryId: 'cat_crm', name: 'HubSpot Smart CRM' }]);
  assert.equal(await loadPromptCatalog(db), first, 'not re-checked within maxAge');
  clock += 60_000;
  const renamed = await loadPromptCatalog(db);
  assert.notEqual(renamed, first);
  assert.equal(renamed.products[0]!.name, 'HubSpot Smart CRM');

  await insertWorld(db, { vendors: [{ id: 'ven_zoom', domain: 'zoom.us', name: 'Zoom' }] });
  invalidatePromptCatalog(db);
  const added = await loadPromptCatalog(db);
  assert.deepEqual(
    added.vendors.map((v) => v.id),
    ['ven_hubspot', 'ven_zoom'],
  );
});

test('concurrent loads share one read', async () => {
  invalidatePromptCatalog(db);
  const [a, b, c] = await Promise.all([loadPromptCatalog(db), loadPromptCatalog(db), loadPromptCatalog(db)]);
  assert.equal(a, b);
  assert.equal(b, c);
});

test('product labels are kept while the reference version holds and re-read on the next call after any change', async () => {
  const first = await loadProductLabels(db);
  assert.deepEqual(first.get('prd_hubspot_crm'), {
    productId: 'prd_hubspot_crm',
    productName: first.get('prd_hubspot_crm')!.productName,
    categoryId: 'cat_crm',
    categoryName: 'CRM',
    vendorId: 'ven_hubspot',
    vendorDomain: 'hubspot.com',
  });
  assert.equal(await loadProductLabels(db), first, 'same object while nothing changed');
  // No maxAge here: a change an import makes shows on the very next call.
  const [crm] = await db.query<{ parent_id: string | null }>(`SELECT parent_id FROM categories WHERE id = 'cat_crm'`);
  const renameCrm = (name: string) => importRecords(db, 'categories', [{ id: 'cat_crm', name, ...(crm!.parent_id ? { parentId: crm!.parent_id } : {}) }]);
  await renameCrm('Customer Relationship Management');
  const renamed = await loadProductLabels(db);
  assert.notEqual(renamed, first);
  assert.equal(renamed.get('prd_hubspot_crm')!.categoryName, 'Customer Relationship Management');
  await renameCrm('CRM');
});

test('findPromptCompanies matches whole names in any case, legal suffix optional, and domains', async () => {
  const found = await findPromptCompanies(db, { domains: ['globex.example'], phrases: ['acme', 'ACME ROBOTICS', 'nobody', 'A.B'] });
  assert.deepEqual(found, [
    { id: 'cmp_acme', domain: 'acme.example', name: 'Acme Inc.' },
    { id: 'cmp_acme_robotics', domain: 'acme-robotics.example', name: 'Acme Robotics' },
    { id: 'cmp_globex', domain: 'globex.example', name: 'Globex' },
  ]);
  assert.deepEqual(await findPromptCompanies(db, { domains: [], phrases: [] }), []);
  // Regex characters in a prompt are literal text.
  assert.deepEqual(await findPromptCompanies(db, { domains: [], phrases: ['.*', 'a.b (holdings)', '(((', '[a-z]+'] }), [
    { id: 'cmp_dot', domain: 'dot.example', name: 'A.B (Holdings)' },
  ]);
  assert.equal(
    companyNamePattern('a.b'),
    String.raw`^a\.b(,?\s+(inc|incorporated|llc|ltd|limited|gmbh|ag|corp|corporation|co|company|plc|sa|sas|bv|nv|srl|spa|oy|ab|pty|group|holdings)\.?)?$`,
  );
});

test('from prompt to companies: candidates, lookup, parse', async () => {
  const prompt = 'sales directors at ACME and at globex.example';
  const companies = await findPromptCompanies(db, companyCandidates(prompt));
  const catalog = await loadPromptCatalog(db);
  const q = parsePrompt(prompt, catalog, { mode: 'people', companies });
  assert.deepEqual(
    q.companies.map((c) => [c.id, c.domain, c.kind]),
    [
      ['cmp_acme', 'acme.example', 'name'],
      ['cmp_globex', 'globex.example', 'domain'],
    ],
  );
  assert.deepEqual(q.titles, ['Sales Director']);
});
