// Bulkheads on both doors: the record decides the compartment; a full one answers 503 with
// Retry-After in the error shape (REST) or an isError result saying when to retry (MCP),
// while cheap reads in the standard compartment still complete. On PostgreSQL, real
// searches are held inside the database by a table lock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { freePortInRange } from '../helpers/ports.ts';
import { waitFor } from '../helpers/wait.ts';
import { TEST_DATABASE_URL } from '../helpers/db.ts';
import { OPERATIONS } from '../../src/schemas/operations.ts';
import { bulkheadFor } from '../../src/schemas/operation.ts';

let t: TestApp;
let client: TestClient;
let base: string;
before(async () => {
  const port = await freePortInRange();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { PUBLIC_URL: base, BULKHEAD_SEARCH: '1', BULKHEAD_QUEUE: '1', BULKHEAD_QUEUE_TIMEOUT_MS: '60000' } });
  await t.app.listen({ host: '127.0.0.1', port });
  client = await createTestClient(t.db, 'full');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const search = (app = t.app, payload: object = { filter: { companyNameContains: 'a' } }) =>
  app.inject({ method: 'POST', url: '/api/companies/search', headers: client.headers, payload });
const cheapRead = (app = t.app) => app.inject({ method: 'GET', url: '/api/companies/acme.com/products/paged', headers: client.headers });

function assertBusy(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, path: string, retryAfter: string) {
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers['retry-after'], retryAfter);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'requestId', 'status']);
  assert.equal(body.status, 503);
  assert.equal(body.error, 'Service Unavailable');
  assert.equal(body.path, path);
  assert.match(body.message, /^The service is busy \(.*searches.*\); retry after \d+ s$/);
}

test('the compartment comes from the operation record: searches, peer details, exports and AI calls each have their own', () => {
  const byId = new Map(OPERATIONS.map((op) => [op.id, op]));
  const of = (id: string, args: Record<string, unknown> = {}) => bulkheadFor(byId.get(id)!, args);
  assert.equal(of('searchCompanies'), 'search');
  assert.equal(of('searchCompanies', { export: true }), 'export');
  assert.equal(of('searchProfiles'), 'search');
  assert.equal(of('searchProfiles', { export: 'true' }), 'export');
  assert.equal(of('usageMetricsDetails'), 'peers');
  assert.equal(of('companyProductsJsonl'), 'export');
  assert.equal(of('companyProductsPaged'), 'standard');
  assert.equal(of('companyProductsPaged', { export: true }), 'export');
  for (const id of ['findCustomersOfProducts', 'findTechStacksForCompany', 'findPeopleProfiles']) assert.equal(of(id), 'ai');
  for (const id of ['getMe', 'companyFirmographics', 'companyCohort', 'searchVendors', 'purchaseProfiles']) assert.equal(of(id), 'standard');
});

test('a full search bulkhead: the next search waits, one more is a 503 with Retry-After, a cheap read still completes', async () => {
  const searches = t.app.bulkheads.get('search');
  const hold = await searches.acquire(); // the one search slot, as a long search would hold it
  try {
    const queued = search();
    await waitFor(() => searches.queued === 1, 'the second search to queue');
    assertBusy(await search(), '/api/companies/search', '60');
    // People search shares the compartment; it is full for it too.
    assertBusy(
      await t.app.inject({ method: 'POST', url: '/api/profiles/search', headers: client.headers, payload: { query: 'x' } }),
      '/api/profiles/search',
      '60',
    );
    const cheap = await cheapRead();
    assert.equal(cheap.statusCode, 200, cheap.body);
    let done = false;
    void queued.then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false, 'the queued search is still waiting for the slot');
    hold();
    const res = await queued;
    assert.equal(res.statusCode, 200, res.body);
  } finally {
    hold();
  }
  assert.deepEqual([searches.active, searches.queued], [0, 0], 'every slot is given back');
});

test('a search queued past the deadline is a 503 with Retry-After', async () => {
  const quick = await createTestApp({ db: t.db, env: { BULKHEAD_SEARCH: '1', BULKHEAD_QUEUE: '5', BULKHEAD_QUEUE_TIMEOUT_MS: '20' } });
  try {
    const hold = await quick.app.bulkheads.get('search').acquire();
    try {
      assertBusy(await search(quick.app), '/api/companies/search', '1');
      assert.equal((await cheapRead(quick.app)).statusCode, 200);
    } finally {
      hold();
    }
    assert.equal((await search(quick.app)).statusCode, 200, 'with the slot free the search runs');
  } finally {
    await quick.close();
  }
});

test('an export holds its slot until the file is written; exports have their own compartment', async () => {
  const exports = t.app.bulkheads.get('export');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/companies/search?export=true',
    headers: { ...client.headers, 'x-on-behalf-of-user': 'ana@example.com' },
    payload: {},
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /^id,domain,/);
  assert.equal(exports.active, 0, 'the slot is back once the reply is written');
  const hold = await t.app.bulkheads.get('search').acquire();
  try {
    // The search compartment is full; an export of the same search is not in it.
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/companies/search?export=true',
      headers: { ...client.headers, 'x-on-behalf-of-user': 'ana@example.com' },
      payload: {},
    });
    assert.equal(exported.statusCode, 200, exported.body);
  } finally {
    hold();
  }
});

test('MCP tool calls run in the same bulkheads: a full one is an isError result saying when to retry', async () => {
  const mcp = new Client({ name: 'bulkhead-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: client.headers } }));
  const searches = t.app.bulkheads.get('search');
  const hold = await searches.acquire();
  const queued = search(); // fills the one queue place
  try {
    await waitFor(() => searches.queued === 1, 'the REST search to queue');
    const refused = (await mcp.callTool({ name: 'companies_search', arguments: { query: 'acme' } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /^Error 503: The service is busy \(.*\); retry after 60 s\. .*Retry after 60 s\.$/);
    const cheap = (await mcp.callTool({ name: 'company_products_paged', arguments: { companyDomain: 'acme.com' } })) as { isError?: boolean };
    assert.ok(!cheap.isError, 'a tool in the standard compartment still answers');
  } finally {
    hold();
    await queued;
    await mcp.close();
  }
});

const onPglite = TEST_DATABASE_URL === undefined;

test(
  'PostgreSQL: searches held inside the database by a lock fill the bulkhead; cheap reads keep their connections',
  {
    skip: onPglite && 'the embedded database has one connection: a held statement holds every read (embedded-queue.test.ts covers it)',
  },
  async () => {
    const app = await createTestApp({ db: t.db, env: { BULKHEAD_SEARCH: '2', BULKHEAD_QUEUE: '0' } });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const lock = t.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE installs IN ACCESS EXCLUSIVE MODE');
      locked();
      await gate;
    });
    try {
      await isLocked;
      const worst = { filter: { companyNameContains: 'a', productIdIn: ['prd_sf_crm'] } };
      const held = [search(app.app, worst), search(app.app, worst)];
      await waitFor(async () => {
        const [row] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'installs'::regclass");
        return row!.n === 2;
      }, 'both searches to wait on the lock');
      assertBusy(await search(app.app), '/api/companies/search', '5');
      // A read of tables the lock leaves alone: it needs a connection, and gets one.
      const cheap = await app.app.inject({ method: 'GET', url: '/api/companies/acme.com/firmographics', headers: client.headers });
      assert.equal(cheap.statusCode, 200, cheap.body);
      open();
      for (const res of await Promise.all(held)) assert.equal(res.statusCode, 200, res.body);
    } finally {
      open();
      await lock;
      await app.close();
    }
  },
);
