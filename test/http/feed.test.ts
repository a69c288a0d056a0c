import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.ts';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { insertWorld } from '../helpers/fixtures.ts';

let t: TestApp;
let c: TestClient;
const ITEMS = 47;
before(async () => {
  t = await createTestApp();
  c = await createTestClient(t.db, 'full'); // walks and flips many cursors: more than the basic plan's 120 requests a minute
  await insertCatalogWorld(t.db);
  // Pairs of items share a publication time (ties broken by id); two differ only in microseconds.
  await insertWorld(t.db, {
    feed: [
      ...Array.from({ length: ITEMS - 2 }, (_, i) => ({
        id: `fi_${String(i).padStart(3, '0')}`,
        company_id: 'cmp_acme',
        published_at: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 2))).toISOString(),
        title: `News ${i}`,
        description: `About ${i}`,
        category: (i % 3 === 0 ? 'FUNDING' : 'NEWS') as 'NEWS',
        enclosure_image_url: i === 0 ? 'https://img.example/0.png' : null,
      })),
      { id: 'fi_micro_a', company_id: 'cmp_acme', published_at: '2025-06-01T00:00:00.000001Z' },
      { id: 'fi_micro_b', company_id: 'cmp_acme', published_at: '2025-06-01T00:00:00.000002Z' },
      { id: 'fi_beta', company_id: 'cmp_beta', published_at: '2026-01-01T00:00:00Z' },
    ],
  });
});
after(() => t.close());

const feed = (domain: string, cursor?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/companies/${domain}/feed${cursor === undefined ? '' : `?paginationId=${encodeURIComponent(cursor)}`}`,
    headers: c.headers,
  });

async function walk(domain: string): Promise<{ pages: number[]; ids: string[]; dates: string[]; cursors: string[] }> {
  const out = { pages: [] as number[], ids: [] as string[], dates: [] as string[], cursors: [] as string[] };
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const res = await feed(domain, cursor);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    out.pages.push(body.feeds.length);
    out.ids.push(...body.feeds.map((f: { id: string }) => f.id));
    out.dates.push(...body.feeds.map((f: { date: string }) => f.date));
    if (body.paginationId === undefined) return out;
    out.cursors.push(body.paginationId);
    cursor = body.paginationId;
  }
  throw new Error('feed never ended');
}

test('walking the feed to its end yields every item exactly once, newest first, 20 a page', async () => {
  const { pages, ids, dates } = await walk('acme.com');
  assert.deepEqual(pages, [20, 20, 7]);
  assert.equal(ids.length, ITEMS);
  assert.equal(new Set(ids).size, ITEMS);
  const rows = await t.db.query<{ id: string }>("SELECT id FROM feed_items WHERE company_id = 'cmp_acme' ORDER BY published_at DESC, id DESC");
  assert.deepEqual(
    ids,
    rows.map((r) => r.id),
  );
  assert.deepEqual([...dates].sort().reverse(), dates);
  assert.deepEqual(ids.slice(-2), ['fi_micro_b', 'fi_micro_a']);
});

test('feed item shape: id, texts, ISO date, publisher, source, category; enclosureImageUrl only when present', async () => {
  const body = (await feed('acme.com')).json();
  assert.deepEqual(body.feeds[0], {
    id: 'fi_044',
    title: 'News 44',
    description: 'About 44',
    date: '2026-01-23T00:00:00.000Z',
    sourceUrl: 'https://news.example/fi_044',
    publisherName: 'News Daily',
    publisherLogoUrl: 'https://news.example/logo.png',
    category: 'NEWS',
  });
  assert.equal(typeof body.paginationId, 'string');
  assert.match(body.paginationId, /^[A-Za-z0-9_-]+$/);
  const last = (await walk('acme.com')).ids;
  assert.ok(last.includes('fi_000'));
});

test('the last page has no paginationId; a company without news has an empty feed', async () => {
  const beta = (await feed('beta.io')).json();
  assert.deepEqual(Object.keys(beta), ['feeds']);
  assert.equal(beta.feeds.length, 1);
  assert.deepEqual((await feed('delta.org')).json(), { feeds: [] });
});

test('a cursor with any one character flipped is 400', async () => {
  const { cursors } = await walk('acme.com');
  const cursor = cursors[0]!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < cursor.length; i++) {
    const ch = cursor[i]!;
    const flipped = cursor.slice(0, i) + alphabet[(alphabet.indexOf(ch) + 1) % alphabet.length] + cursor.slice(i + 1);
    const res = await feed('acme.com', flipped);
    assert.equal(res.statusCode, 400, `position ${i}`);
    assert.match(res.json().message, /paginationId/);
  }
  assert.equal((await feed('acme.com', cursor)).statusCode, 200);
});

test('a foreign, malformed or truncated cursor is 400; unknown company 404', async () => {
  const { cursors } = await walk('acme.com');
  const foreign = await feed('beta.io', cursors[0]);
  assert.equal(foreign.statusCode, 400);
  assert.match(foreign.json().message, /another company/);
  for (const bad of ['abc', '!!!', cursors[0]!.slice(0, -2), `${cursors[0]}A`, 'x'.repeat(1001)]) {
    const res = await feed('acme.com', bad);
    assert.equal(res.statusCode, 400, bad.slice(0, 20));
  }
  assert.equal((await feed('unknown.com')).statusCode, 404);
  assert.equal((await feed('not_a_domain')).statusCode, 400);
  // An empty paginationId (a client serializing null) means the first page.
  assert.deepEqual((await feed('acme.com', '')).json(), (await feed('acme.com')).json());
});

test('cursors survive a restart (the secret lives in the database) and depend on CURSOR_SECRET', async () => {
  const { cursors } = await walk('acme.com');
  const again = await buildApp({ config: testConfig(), db: t.db });
  try {
    const res = await again.inject({ method: 'GET', url: `/api/companies/acme.com/feed?paginationId=${cursors[0]}`, headers: c.headers });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().feeds[0].id, 'fi_024');
  } finally {
    await again.close();
  }
  const withSecret = await buildApp({ config: testConfig({ CURSOR_SECRET: 'configured-secret' }), db: t.db });
  try {
    const refused = await withSecret.inject({ method: 'GET', url: `/api/companies/acme.com/feed?paginationId=${cursors[0]}`, headers: c.headers });
    assert.equal(refused.statusCode, 400);
    const first = (await withSecret.inject({ method: 'GET', url: '/api/companies/acme.com/feed', headers: c.headers })).json();
    const next = await withSecret.inject({ method: 'GET', url: `/api/companies/acme.com/feed?paginationId=${first.paginationId}`, headers: c.headers });
    assert.equal(next.statusCode, 200);
  } finally {
    await withSecret.close();
  }
});
