// The CRM write-back against local HubSpot and Salesforce stubs that check every request against
// an OpenAPI description (test/helpers/crm-stub.ts): dry run, the no-overwrite rule for fields a
// person edited, batches of 100, per-record errors and the sync log. Runs on both engines.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/db.ts';
import { createClient } from '../../src/auth/clients.ts';
import { crmAccountsByDomains, findSyncRun, listSyncRuns, upsertConnection, type CrmAccountRow } from '../../src/store/crm.ts';
import { HubSpotConnector } from '../../src/services/crm/hubspot.ts';
import { SalesforceConnector } from '../../src/services/crm/salesforce.ts';
import { connectorFor, syncAccounts, type RecordPlan } from '../../src/services/crm/sync.ts';
import { sealToken } from '../../src/services/crm/token-seal.ts';
import type { CrmHttpOptions } from '../../src/services/crm/http.ts';
import { createTestDb } from '../helpers/db.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { loadSpec } from '../helpers/crm-stub.ts';
import { startHubSpotStub, startSalesforceStub, type HubSpotStub, type SalesforceStub } from '../helpers/crm-vendors.ts';

// The explicit override of the SSRF rule for the local stubs: 127.0.0.1 on any port.
const LOCAL: CrmHttpOptions = { token: 'tok_test', network: { allowNetworks: ['127.0.0.1/32'], ports: 'any' }, timeoutMs: 5000 };
const TOKEN_KEY = Buffer.alloc(32, 7);
const REACH = { tokenKey: TOKEN_KEY, network: LOCAL.network, timeoutMs: 5000 };
const connection = (clientId: string, crm: 'hubspot' | 'salesforce', baseUrl: string, token: string) => ({
  clientId,
  crm,
  baseUrl,
  tokenSealed: sealToken(TOKEN_KEY, token, { clientId, crm }),
  tokenHint: '…',
  externalIdField: null,
  overwrite: false,
});

const N = 230; // three HubSpot batches: 100 + 100 + 30
let db: Db;
let clientId: string;
let accounts: CrmAccountRow[];

before(async () => {
  db = await createTestDb();
  await insertWorld(db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    vendors: [{ id: 'v_hubspot', domain: 'hubspot.com' }],
    categories: [{ id: 'cat_crm' }],
    products: [{ id: 'p_hubspot', vendor_id: 'v_hubspot', category_id: 'cat_crm', name: 'HubSpot' }],
    companies: Array.from({ length: N }, (_, i) => ({
      id: `co_${String(i).padStart(3, '0')}`,
      domain: `acme${i}.example`,
      name: `Acme ${i}`,
      country: 'DE',
      industry_id: 'ind_software',
      employee_count: 120 + i,
      employee_band: '51-200',
      revenue_usd: 5_000_000,
      revenue_band: '$1M-$10M',
    })),
    installs: [{ company_id: 'co_000', product_id: 'p_hubspot' }],
  });
  accounts = await crmAccountsByDomains(
    db,
    Array.from({ length: N }, (_, i) => `acme${i}.example`),
  );
  accounts.sort((a, b) => a.id.localeCompare(b.id)); // accounts[i] is acme{i}.example
});

const clients: string[] = [];
async function newClient(): Promise<string> {
  const id = (await createClient(db, { name: 'crm test', plan: 'full' })).clientId;
  for (const crm of ['hubspot', 'salesforce'] as const) await upsertConnection(db, connection(id, crm, 'http://127.0.0.1:1', 'x'));
  clients.push(id);
  return id;
}
after(() => db.close());

const byKey = (records: unknown[], key: string) => (records as RecordPlan[]).find((r) => r.key === key)!;

describe('HubSpot', () => {
  let hs: HubSpotStub;
  let connector: HubSpotConnector;
  beforeEach(async () => {
    clientId = await newClient();
    hs = await startHubSpotStub();
    connector = new HubSpotConnector(hs.url, LOCAL);
  });
  afterEach(() => hs.close());
  const done = async () => {
    assert.deepEqual(hs.violations, [], 'every request matches the description');
  };

  test('the loader gives firmographics and technologies', () => {
    assert.equal(accounts.length, N);
    const a = accounts.find((x) => x.id === 'co_000')!;
    assert.deepEqual(
      { name: a.name, country: a.country, industry: a.industry, techs: a.technologies.map((t) => t.name) },
      { name: 'Acme 0', country: 'DE', industry: 'Software', techs: ['HubSpot'] },
    );
  });

  test('a dry run reads the CRM, writes nothing and logs the plan', async () => {
    const run = await syncAccounts(db, clientId, connector, accounts.slice(0, 3), { dryRun: true, overwrite: false });
    assert.equal(run.status, 'done');
    assert.equal(run.dryRun, true);
    assert.deepEqual(run.counts, { created: 3, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
    assert.equal(hs.companies.size, 0);
    assert.ok(hs.requests.every((r) => r.operationId === 'companies-batch-read'));
    const first = byKey(run.records, 'acme0.example');
    assert.equal(first.action, 'create');
    assert.deepEqual(
      first.changes.find((c) => c.field === 'industry'),
      { field: 'industry', old: '', new: 'COMPUTER_SOFTWARE' },
    );
    assert.deepEqual(
      first.changes.find((c) => c.field === 'stacklens_technologies'),
      { field: 'stacklens_technologies', old: '', new: 'HubSpot' },
    );
    await done();
  });

  test('writes in batches of at most 100, then a re-run changes nothing', async () => {
    const run = await syncAccounts(db, clientId, connector, accounts, { dryRun: false, overwrite: false });
    assert.equal(run.status, 'done', run.error ?? '');
    assert.deepEqual(hs.upsertBatchSizes, [100, 100, 30]);
    assert.equal(
      hs.requests.filter((r) => r.operationId === 'companies-batch-read').every((r) => (r.json as { inputs: unknown[] }).inputs.length <= 100),
      true,
    );
    assert.deepEqual(run.counts, { created: N, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
    assert.equal(hs.companies.get('acme5.example')!.name, 'Acme 5');
    assert.equal(hs.companies.get('acme5.example')!.numberofemployees, '125');
    assert.equal(hs.companies.get('acme5.example')!.country, 'Germany');
    const again = await syncAccounts(db, clientId, connector, accounts.slice(0, 10), { dryRun: false, overwrite: false });
    assert.deepEqual(again.counts, { created: 0, updated: 0, unchanged: 10, skipped: 0, failed: 0 });
    assert.equal(hs.upsertBatchSizes.length, 3, 'nothing to write: no upsert');
    await done();
  });

  test('a field a person edited in HubSpot since the last sync is kept, unless overwrite is asked', async () => {
    const mine = accounts.slice(0, 2);
    await syncAccounts(db, clientId, connector, mine, { dryRun: false, overwrite: false });
    hs.companies.get('acme0.example')!.name = 'ACME Corporation (edited by sales)';
    const changed = mine.map((a) => ({ ...a, name: `${a.name} GmbH`, employeeCount: 999 }));
    const dry = await syncAccounts(db, clientId, connector, changed, { dryRun: true, overwrite: false });
    const plan = byKey(dry.records, 'acme0.example');
    assert.deepEqual(
      plan.changes.find((c) => c.field === 'name'),
      { field: 'name', old: 'ACME Corporation (edited by sales)', new: 'Acme 0 GmbH', skipped: 'edited_in_crm' },
    );
    assert.deepEqual(
      plan.changes.find((c) => c.field === 'numberofemployees'),
      { field: 'numberofemployees', old: '120', new: '999' },
    );
    assert.equal(hs.companies.get('acme0.example')!.numberofemployees, '120', 'the dry run wrote nothing');

    const run = await syncAccounts(db, clientId, connector, changed, { dryRun: false, overwrite: false });
    assert.deepEqual(run.counts, { created: 0, updated: 2, unchanged: 0, skipped: 0, failed: 0 });
    assert.equal(hs.companies.get('acme0.example')!.name, 'ACME Corporation (edited by sales)');
    assert.equal(hs.companies.get('acme0.example')!.numberofemployees, '999');
    assert.equal(hs.companies.get('acme1.example')!.name, 'Acme 1 GmbH', 'a field nobody edited is updated');
    // Only the name differs now, and it is protected: the record is skipped.
    const still = await syncAccounts(db, clientId, connector, changed, { dryRun: false, overwrite: false });
    assert.deepEqual(still.counts, { created: 0, updated: 0, unchanged: 1, skipped: 1, failed: 0 });

    const forced = await syncAccounts(db, clientId, connector, changed, { dryRun: false, overwrite: true });
    assert.equal(forced.counts.updated, 1);
    assert.equal(hs.companies.get('acme0.example')!.name, 'Acme 0 GmbH');
    await done();
  });

  test('a value set in HubSpot before our first sync is kept', async () => {
    hs.companies.set('acme7.example', { domain: 'acme7.example', name: 'Acme Seven Holdings', industry: '' });
    const run = await syncAccounts(db, clientId, connector, [accounts[7]!], { dryRun: false, overwrite: false });
    assert.equal(run.counts.updated, 1);
    assert.equal(hs.companies.get('acme7.example')!.name, 'Acme Seven Holdings');
    assert.equal(hs.companies.get('acme7.example')!.industry, 'COMPUTER_SOFTWARE', 'an empty field is filled');
    assert.equal(byKey(run.records, 'acme7.example').changes.find((c) => c.field === 'name')!.skipped, 'set_in_crm');
    await done();
  });

  test("HubSpot's per-record errors end up on their records; the others are written", async () => {
    hs.failing.set('acme3.example', 'Property values were not valid: numberofemployees');
    const run = await syncAccounts(db, clientId, connector, accounts.slice(0, 5), { dryRun: false, overwrite: false });
    assert.deepEqual(run.counts, { created: 4, updated: 0, unchanged: 0, skipped: 0, failed: 1 });
    const failed = byKey(run.records, 'acme3.example');
    assert.equal(failed.outcome, 'failed');
    assert.equal(failed.error, 'Property values were not valid: numberofemployees');
    // A failed record stays unwritten in our state too: the next run tries to create it again.
    hs.failing.clear();
    const retry = await syncAccounts(db, clientId, connector, accounts.slice(0, 5), { dryRun: false, overwrite: false });
    assert.deepEqual(retry.counts, { created: 1, updated: 0, unchanged: 4, skipped: 0, failed: 0 });
    await done();
  });

  test('an unreachable or refused CRM fails the run with its reason, logged', async () => {
    const refused = new HubSpotConnector('http://127.0.0.1:9/', { ...LOCAL, network: {} });
    const run = await syncAccounts(db, clientId, refused, accounts.slice(0, 1), { dryRun: true, overwrite: false });
    assert.equal(run.status, 'failed');
    assert.match(run.error!, /refused CRM address/);
    await done();
  });
});

describe('Salesforce Bulk API 2.0', () => {
  let sf: SalesforceStub;
  let connector: SalesforceConnector;
  beforeEach(async () => {
    clientId = await newClient();
    sf = await startSalesforceStub();
    connector = new SalesforceConnector(sf.url, LOCAL, 'Stacklens_Id__c', { intervalMs: 5, timeoutMs: 5000 });
  });
  afterEach(() => sf.close());
  const done = async () => {
    assert.deepEqual(sf.violations, [], 'every request matches the description');
  };

  test('upserts by external id through one ingest job, polls it and reads its results', async () => {
    const dry = await syncAccounts(db, clientId, connector, accounts.slice(0, 3), { dryRun: true, overwrite: false });
    assert.equal(dry.counts.created, 3);
    assert.equal(sf.jobs.size, 0, 'a dry run creates no job');
    sf.failing.set('co_002', 'REQUIRED_FIELD_MISSING:Required fields are missing: [Name]:Name --');
    const run = await syncAccounts(db, clientId, connector, accounts.slice(0, 3), { dryRun: false, overwrite: false });
    assert.equal(run.status, 'done', run.error ?? '');
    assert.deepEqual(run.counts, { created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 1 });
    assert.match(byKey(run.records, 'co_002').error!, /REQUIRED_FIELD_MISSING/);
    assert.deepEqual(
      sf.requests.map((r) => r.operationId),
      ['query', 'query', 'createIngestJob', 'uploadJobData', 'closeOrAbortJob', 'getJobInfo', 'getJobInfo', 'getSuccessfulResults', 'getFailedResults'],
    );
    const a = sf.accounts.get('co_000')!;
    assert.deepEqual(
      {
        Name: a.Name,
        Website: a.Website,
        BillingCountry: a.BillingCountry,
        Industry: a.Industry,
        NumberOfEmployees: a.NumberOfEmployees,
        AnnualRevenue: a.AnnualRevenue,
      },
      { Name: 'Acme 0', Website: 'acme0.example', BillingCountry: 'Germany', Industry: 'Technology', NumberOfEmployees: '120', AnnualRevenue: '5000000' },
    );
    await done();
  });

  test('a field a person edited in Salesforce is kept; overwrite writes it', async () => {
    const mine = accounts.slice(10, 12);
    await syncAccounts(db, clientId, connector, mine, { dryRun: false, overwrite: false });
    sf.accounts.get('co_010')!.Industry = 'Consulting';
    const changed = mine.map((a) => ({ ...a, industry: 'Banking' }));
    const run = await syncAccounts(db, clientId, connector, changed, { dryRun: false, overwrite: false });
    assert.equal(sf.accounts.get('co_010')!.Industry, 'Consulting');
    assert.equal(sf.accounts.get('co_010')!.Stacklens_Industry__c, 'Banking');
    assert.equal(sf.accounts.get('co_011')!.Industry, 'Banking');
    assert.equal(byKey(run.records, 'co_010').changes.find((c) => c.field === 'Industry')!.skipped, 'edited_in_crm');
    await syncAccounts(db, clientId, connector, changed, { dryRun: false, overwrite: true });
    assert.equal(sf.accounts.get('co_010')!.Industry, 'Banking');
    await done();
  });
});

describe('the sync log', () => {
  test("lists a client's runs newest first, with counts; one run holds its records", async () => {
    const hs = await startHubSpotStub();
    clientId = await newClient();
    await upsertConnection(db, connection(clientId, 'hubspot', hs.url, 'tok'));
    const stored = (await connectorFor(db, clientId, 'hubspot', REACH))!;
    assert.equal(await connectorFor(db, 'cli_nobody', 'hubspot', REACH), undefined);
    for (let i = 0; i < 3; i++) await syncAccounts(db, clientId, stored, accounts.slice(i, i + 2), { dryRun: i === 0, overwrite: false });
    await hs.close();
    const { total, rows } = await listSyncRuns(db, clientId, 0, 100);
    assert.equal(total, 3);
    assert.deepEqual(
      rows.map((r) => r.dryRun),
      [false, false, true],
    );
    assert.ok(rows.every((r, i) => i === 0 || rows[i - 1]!.startedAt >= r.startedAt));
    assert.deepEqual(rows[0]!.records, [], 'the list leaves out per-record detail');
    const full = await findSyncRun(db, clientId, rows[0]!.id);
    assert.ok(full!.records.length > 0);
    assert.equal(await findSyncRun(db, 'cli_other', rows[0]!.id), undefined, "another client's run is not found");
  });
});

describe('the validating stub', () => {
  test('a request that does not match the description is refused and recorded', async () => {
    const checker = loadSpec('hubspot-companies.openapi.json');
    const headers = { authorization: 'Bearer x', 'content-type': 'application/json' };
    assert.throws(
      () => checker.check('POST', '/crm/v3/objects/companies/batch/read', headers, JSON.stringify({ inputs: [{ id: 'a.com' }], properties: [] })),
      /propertiesWithHistory/,
    );
    assert.throws(
      () => checker.check('POST', '/crm/v3/objects/companies/batch/upsert', headers, JSON.stringify({ inputs: Array(101).fill({ id: 'a', properties: {} }) })),
      /100/,
    );
    assert.throws(() => checker.check('POST', '/crm/v3/objects/companies/batch/upsert', { 'content-type': 'application/json' }, '{"inputs":[]}'), /bearer/);
    assert.throws(
      () => checker.check('POST', '/crm/v3/objects/companies/batch/upsert', headers, JSON.stringify({ inputs: [{ id: 'a', properties: { n: 5 } }] })),
      /string/,
    );
    assert.throws(() => checker.check('POST', '/crm/v3/objects/companies', headers, '{}'), /no such operation/);
    const sf = loadSpec('salesforce-bulk2.openapi.json');
    assert.throws(
      () => sf.check('POST', '/services/data/v60.0/jobs/ingest', headers, JSON.stringify({ object: 'Account', operation: 'upsert', contentType: 'CSV' })),
      /externalIdFieldName/,
    );
    assert.throws(() => sf.check('PATCH', '/services/data/v60.0/jobs/ingest/750R00000000001', headers, JSON.stringify({ state: 'Closed' })), /allowed values/);
    const stub = await startHubSpotStub();
    const res = await fetch(`${stub.url}/crm/v3/objects/companies/batch/upsert`, { method: 'POST', headers, body: '{"inputs":[{"id":"a.com"}]}' });
    assert.equal(res.status, 400);
    assert.equal(stub.violations.length, 1);
    await stub.close();
  });
});
