// Far pages: the searches page through their first MAX_RESULT_WINDOW matches; a page past
// that is a 400 naming `page` and the limit on both doors, never a scan of every match.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { MAX_RESULT_WINDOW } from '../../src/schemas/common.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp();
  client = await createTestClient(t.db, 'full');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: client.headers, payload });

test('page=1000000 is a 400 naming the field and its maximum, on company and people search', async () => {
  assert.equal(MAX_RESULT_WINDOW, 10_000);
  for (const [url, body] of [
    ['/api/companies/search', {}],
    ['/api/profiles/search', { query: 'x' }],
  ] as const) {
    const inQuery = await post(`${url}?page=1000000`, body);
    assert.equal(inQuery.statusCode, 400, url);
    assert.equal(inQuery.json().message, 'query.page: page must be a whole number from 0 to 9999');
    const inBody = await post(url, { ...body, page: 1_000_000 });
    assert.equal(inBody.statusCode, 400, url);
    assert.equal(inBody.json().message, 'body.page: page must be a whole number from 0 to 9999');
  }
});

test('page × size at or past 10000 is a 400 naming the last page for that size; the last page itself is answered', async () => {
  for (const [url, body] of [
    ['/api/companies/search', {}],
    ['/api/profiles/search', { query: 'x' }],
  ] as const) {
    const past = await post(url, { ...body, page: 50, size: 200 });
    assert.equal(past.statusCode, 400, url);
    assert.match(
      past.json().message,
      /^page: page × size must stay below 10000 \(a search pages through its first 10000 matches\); at size 200 the last page is 49\. Narrow the filters, or export every match with export=true$/,
    );
    assert.equal((await post(`${url}?page=500`, body)).statusCode, 400, 'size 20: page 500 starts at match 10000');
    const last = await post(url, { ...body, page: 49, size: 200 });
    assert.equal(last.statusCode, 200, last.body);
    assert.deepEqual(last.json().content, []);
    assert.equal((await post(`${url}?page=499`, body)).statusCode, 200);
  }
  assert.equal((await post('/api/companies/search', { page: 49, size: 200 })).json().totalElements, 5, 'a page past the end still counts the matches');
});

test('MCP: the same limits on companies_search and profiles_search', async () => {
  const { call } = await connectMcp(t, 'full');
  const far = await call('companies_search', { page: 1_000_000 });
  assert.equal(far.isError, true);
  assert.match(far.text, /^Error 400: Invalid arguments for companies_search: page: page must be a whole number from 0 to 9999/);
  const window = await call('companies_search', { page: 500 });
  assert.equal(window.isError, true);
  assert.match(window.text, /^Error 400: page: page × size must stay below 10000/);
  const people = await call('profiles_search', { query: 'x', page: 50, size: 200 });
  assert.equal(people.isError, true);
  assert.match(people.text, /at size 200 the last page is 49/);
});
