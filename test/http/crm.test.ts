// The CRM write-back through REST, against the local HubSpot and Salesforce stubs that check
// every request against the vendor's OpenAPI description (test/helpers/crm-vendors.ts):
// connections (token sealed, only a hint answered, the base URL held to the network policy),
// a dry run that changes nothing, a write, a field a person edited left alone, the sync log,
// another client's things not found. Both engines.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { startHubSpotStub, startSalesforceStub, type HubSpotStub, type SalesforceStub } from '../helpers/crm-vendors.ts';
import { setPlan } from '../../src/auth/clients.ts';

const HS_TOKEN = 'pat-na1-hubspot-token-0123456789-WXYZ';
const SF_TOKEN = '00Dxx0000001gPL!AQ4AQ-salesforce-token-9876';
const ON_BEHALF = { 'x-on-behalf-of-user': 'ana@example.com' };

let t: TestApp;
let strict: TestApp; // the default network policy: public addresses only
let hs: HubSpotStub;
let sf: SalesforceStub;
let owner: TestClient;
let other: TestClient;
let basic: TestClient;
let listId: string;

before(async () => {
  t = await createTestApp({ env: { CRM_ALLOW_PRIVATE_NETWORK: 'true', CRM_TOKEN_KEY: 'k3y-for-the-crm-tests-0123456789abcdefXYZ' } });
  strict = await createTestApp({ db: t.db });
  await setPlan(t.db, 'crm', { canExport: true, requestsPerMinute: 10_000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 10_000 });
  [owner, other, basic] = [await createTestClient(t.db, 'crm'), await createTestClient(t.db, 'crm'), await createTestClient(t.db, 'basic')];
  await insertWorld(t.db, {
    industries: [{ id: 'ind_software', name: 'Software' }],
    companies: Array.from({ length: 4 }, (_, i) => ({
      id: `co_${i}`,
      domain: `acme${i}.example`,
      name: `Acme ${i}`,
      country: 'DE',
      industry_id: 'ind_software',
      employee_count: 100 + i,
    })),
  });
  hs = await startHubSpotStub();
  sf = await startSalesforceStub();
  const list = await call(owner, 'POST', '/lists', { name: 'Targets', rows: [0, 1, 2].map((i) => ({ domain: `acme${i}.example` })) });
  assert.equal(list.statusCode, 200, list.body);
  listId = list.json().id;
});
after(async () => {
  await hs.close();
  await sf.close();
  await strict.close();
  await t.close();
});

function call(client: TestClient, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, app: TestApp = t) {
  return app.app.inject({ method, url: `/api${url}`, headers: { ...client.headers, ...ON_BEHALF }, ...(payload ? { payload } : {}) });
}
const connectHubSpot = (client: TestClient = owner, overwrite = false) =>
  call(client, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: hs.url, token: HS_TOKEN, overwrite });

describe('connections', () => {
  test('the token is stored sealed and never answered: only its last 4 characters', async () => {
    const res = await connectHubSpot();
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      { ...(res.json() as object), createdAt: 0, updatedAt: 0 },
      {
        crm: 'hubspot',
        baseUrl: hs.url,
        tokenHint: '…WXYZ',
        externalIdField: null,
        overwrite: false,
        createdAt: 0,
        updatedAt: 0,
      },
    );
    const listed = await call(owner, 'GET', '/crm/connections');
    assert.deepEqual(
      listed.json().connections.map((c: { crm: string; tokenHint: string }) => [c.crm, c.tokenHint]),
      [['hubspot', '…WXYZ']],
    );
    for (const body of [res.body, listed.body]) assert.ok(!body.includes(HS_TOKEN) && !body.includes('hubspot-token'));
    const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM crm_connections');
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(HS_TOKEN) && !stored.includes('hubspot-token'), 'no column holds the token in clear');
    assert.match(String(rows[0]!.token_sealed), /^v1\.[A-Za-z0-9_-]+$/);
    const audit = JSON.stringify(await t.db.query(`SELECT * FROM audit_log WHERE action LIKE 'crm.%'`));
    assert.ok(audit.includes('crm.connect') && !audit.includes('hubspot-token'), 'audited, without the token');
  });

  test('bad input is a 400 naming the field; a private base URL is refused unless the operator allows it', async () => {
    const strictRes = await call(owner, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: hs.url, token: HS_TOKEN }, strict);
    assert.equal(strictRes.statusCode, 400, strictRes.body);
    assert.match(strictRes.json().message, /^baseUrl: 127\.0\.0\.1 is a loopback address/);
    for (const baseUrl of ['http://10.1.2.3', 'http://[::1]:8080', 'http://169.254.169.254/latest', 'http://2130706433/', 'http://crm.localhost']) {
      const r = await call(other, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl, token: HS_TOKEN }, strict);
      assert.equal(r.statusCode, 400, `${baseUrl}: ${r.body}`);
      assert.match(r.json().message, /^baseUrl: /, baseUrl);
    }
    const ftp = await call(owner, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: 'ftp://crm.example.com', token: HS_TOKEN });
    assert.equal(ftp.statusCode, 400);
    assert.match(ftp.json().message, /baseUrl/);
    const field = await call(owner, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: hs.url, token: HS_TOKEN, externalIdField: 'X__c' });
    assert.equal(field.statusCode, 400);
    assert.match(field.json().message, /^externalIdField: only for salesforce/);
    const soql = await call(owner, 'POST', '/crm/connections', { crm: 'salesforce', baseUrl: sf.url, token: SF_TOKEN, externalIdField: "Id' OR Name" });
    assert.equal(soql.statusCode, 400);
    assert.match(soql.json().message, /externalIdField/);
    // Nothing stored by the refusals: the other client still has no connection.
    assert.deepEqual((await call(other, 'GET', '/crm/connections')).json(), { connections: [] });
  });

  test('the export permission is needed', async () => {
    const res = await call(basic, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: hs.url, token: HS_TOKEN });
    assert.equal(res.statusCode, 403);
    assert.equal((await call(basic, 'GET', '/crm/sync-runs')).statusCode, 403);
  });
});

describe('sync', () => {
  let firstRun: string;

  test('a dry run answers the plan and changes nothing in the CRM', async () => {
    assert.equal((await connectHubSpot()).statusCode, 200);
    const res = await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', listId, dryRun: true });
    assert.equal(res.statusCode, 200, res.body);
    const run = res.json();
    assert.equal(run.status, 'done', run.error);
    assert.deepEqual([run.dryRun, run.listId, run.counts], [true, listId, { created: 3, updated: 0, unchanged: 0, skipped: 0, failed: 0 }]);
    const acme0 = run.records.find((r: { domain: string }) => r.domain === 'acme0.example');
    assert.equal(acme0.action, 'create');
    assert.deepEqual(
      acme0.changes.find((c: { field: string }) => c.field === 'name'),
      { field: 'name', old: '', new: 'Acme 0' },
    );
    assert.equal(acme0.outcome, undefined);
    assert.equal(hs.companies.size, 0, 'nothing written');
    assert.ok(hs.requests.every((r) => r.operationId === 'companies-batch-read'));
    assert.ok(
      hs.requests.every((r) => r.authorization === `Bearer ${HS_TOKEN}`),
      'the sealed token opens to the one given',
    );
    assert.deepEqual(hs.violations, []);
    firstRun = run.id;
  });

  test('a real run upserts; a field a person edited in the CRM is then left alone', async () => {
    const res = await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', listId, dryRun: false });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().counts, { created: 3, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
    assert.deepEqual([...hs.companies.keys()].sort(), ['acme0.example', 'acme1.example', 'acme2.example']);
    assert.equal(hs.companies.get('acme1.example')!.name, 'Acme 1');
    assert.ok(res.json().records.every((r: { outcome: string }) => r.outcome === 'created'));

    // A person renames acme1 in HubSpot; our data changes both its name and its head count.
    hs.companies.get('acme1.example')!.name = 'Acme One (by sales)';
    await t.db.query(`UPDATE companies SET name = 'Acme 1 GmbH', employee_count = 150 WHERE id = 'co_1'`);
    const dry = (await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', domains: ['acme1.example'], dryRun: true })).json();
    assert.deepEqual(dry.records[0].changes, [
      { field: 'name', old: 'Acme One (by sales)', new: 'Acme 1 GmbH', skipped: 'edited_in_crm' },
      { field: 'numberofemployees', old: '101', new: '150' },
    ]);
    const real = (await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', domains: ['acme1.example'], dryRun: false })).json();
    assert.deepEqual([real.records[0].action, real.records[0].outcome], ['update', 'updated']);
    assert.equal(hs.companies.get('acme1.example')!.name, 'Acme One (by sales)', 'the edited field is not overwritten');
    assert.equal(hs.companies.get('acme1.example')!.numberofemployees, '150');
    // overwrite: true writes it.
    const forced = (await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', domains: ['acme1.example'], dryRun: false, overwrite: true })).json();
    assert.equal(forced.overwrite, true);
    assert.equal(hs.companies.get('acme1.example')!.name, 'Acme 1 GmbH');
    assert.deepEqual(hs.violations, []);
    const audits = await t.db.query<{ on_behalf_of: string; result_count: number }>(
      `SELECT on_behalf_of, result_count FROM audit_log WHERE action = 'crm.sync.hubspot' ORDER BY id`,
    );
    assert.equal(audits.length, 5);
    assert.deepEqual(audits[0], { on_behalf_of: 'ana@example.com', result_count: 3 });
  });

  test('Salesforce: a real run through the Bulk API 2.0 upserts by the external id', async () => {
    const c = await call(owner, 'POST', '/crm/connections', { crm: 'salesforce', baseUrl: sf.url, token: SF_TOKEN });
    assert.equal(c.statusCode, 200, c.body);
    assert.equal(c.json().externalIdField, 'Stacklens_Id__c');
    const res = await call(owner, 'POST', '/crm/sync', { crm: 'salesforce', domains: ['acme2.example', 'acme3.example', 'unknown.example'], dryRun: false });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'done', res.json().error);
    assert.deepEqual(res.json().counts, { created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
    assert.deepEqual([...sf.accounts.keys()].sort(), ['co_2', 'co_3']);
    assert.equal(sf.accounts.get('co_3')!.Name, 'Acme 3');
    assert.deepEqual(sf.violations, []);
  });

  test('the sync log, paged, newest first; one run with its records', async () => {
    const page = (await call(owner, 'GET', '/crm/sync-runs?size=2')).json();
    assert.equal(page.totalElements, 6);
    assert.equal(page.totalPages, 3);
    assert.deepEqual(
      page.content.map((r: { crm: string; dryRun: boolean }) => [r.crm, r.dryRun]),
      [
        ['salesforce', false],
        ['hubspot', false],
      ],
    );
    assert.equal('records' in page.content[0], false);
    const last = (await call(owner, 'GET', '/crm/sync-runs?page=2&size=2')).json();
    assert.equal(last.content[1].id, firstRun);
    const one = await call(owner, 'GET', `/crm/sync-runs/${firstRun}`);
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().records.length, 3);
  });

  test("another client's connection, run and list are not found", async () => {
    assert.equal((await call(other, 'DELETE', '/crm/connections/hubspot')).statusCode, 404);
    const noConn = await call(other, 'POST', '/crm/sync', { crm: 'hubspot', listId, dryRun: true });
    assert.equal(noConn.statusCode, 404);
    assert.match(noConn.json().message, /No hubspot connection/);
    assert.equal((await call(other, 'GET', `/crm/sync-runs/${firstRun}`)).statusCode, 404);
    assert.deepEqual((await call(other, 'GET', '/crm/sync-runs')).json().content, []);
    // With a connection of its own, the owner's list is still not its own.
    assert.equal((await connectHubSpot(other)).statusCode, 200);
    const theirs = await call(other, 'POST', '/crm/sync', { crm: 'hubspot', listId, dryRun: true });
    assert.equal(theirs.statusCode, 404, theirs.body);
    // The owner's connection is untouched by the other client's.
    assert.equal((await call(owner, 'GET', '/crm/connections')).json().connections.length, 2);
  });

  test('a sync needs X-On-Behalf-Of-User, exactly one of listId and domains, and dryRun', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/crm/sync', headers: owner.headers, payload: { crm: 'hubspot', listId, dryRun: true } });
    assert.equal(anonymous.statusCode, 403);
    const both = await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', listId, domains: ['acme0.example'], dryRun: true });
    assert.equal(both.statusCode, 400);
    assert.match(both.json().message, /^listId: give exactly one of listId and domains/);
    const noDry = await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', listId });
    assert.equal(noDry.statusCode, 400);
    assert.match(noDry.json().message, /dryRun/);
  });

  test('a CRM that refuses the token gives a failed run in the log; deleting the connection keeps the log', async () => {
    const down = await call(owner, 'POST', '/crm/connections', { crm: 'hubspot', baseUrl: 'http://127.0.0.1:1', token: HS_TOKEN });
    assert.equal(down.statusCode, 200);
    const run = await call(owner, 'POST', '/crm/sync', { crm: 'hubspot', domains: ['acme0.example'], dryRun: true });
    assert.equal(run.statusCode, 200);
    assert.equal(run.json().status, 'failed');
    assert.match(run.json().error, /CRM unreachable/);
    const del = await call(owner, 'DELETE', '/crm/connections/hubspot');
    assert.deepEqual([del.statusCode, del.json()], [200, { crm: 'hubspot', deleted: true }]);
    assert.equal((await call(owner, 'DELETE', '/crm/connections/hubspot')).statusCode, 404);
    assert.equal((await call(owner, 'GET', '/crm/sync-runs')).json().totalElements, 7);
  });
});
