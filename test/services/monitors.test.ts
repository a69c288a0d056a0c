// Monitors: a client's saved searches and lists; members kept incrementally as companies change
// (a detection run, a firmographic change), entries and exits as that client's events only,
// the monitor's view of the event feed, validation and the per-client limit. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { deriveInstalls, recordDetections } from '../../src/services/observations.ts';
import type { EventRecord, EventsPage } from '../../src/schemas/events.ts';
import type { MonitorRecord } from '../../src/schemas/monitors.ts';
import { AS_OF } from '../intelligence/world.ts';
import { googleAnalytics, worldWithGoogleAnalytics } from '../helpers/change-history.ts';
import { importFile } from '../../src/ingest/import/index.ts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertNewsItem, updateCompany } from '../helpers/import-records.ts';

let t: TestApp;
let client: TestClient;
let other: TestClient;
before(async () => {
  t = await createTestApp({ env: { MAX_MONITORS_PER_CLIENT: '4' } });
  await insertWorld(t.db, worldWithGoogleAnalytics());
  client = await createTestClient(t.db, 'full');
  other = await createTestClient(t.db, 'full');
});
after(() => t.close());

const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = client.headers) => {
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.json() as T };
};
const monitorEvents = async (monitorId: string, headers = client.headers) => {
  const res = await call<EventsPage>('GET', `/api/events?monitorId=${monitorId}&limit=1000`, undefined, headers);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.events;
};
const brief = (events: EventRecord[]) => events.map((e) => [e.type, e.company.domain]);
const day = (n: number) => new Date(Date.parse(AS_OF) + n * 86_400_000);

test('a search monitor: members now, then entries and exits as companies change, seen only by its client', async () => {
  const norway = await call<MonitorRecord>('POST', '/api/monitors', { name: 'Norway', search: { filter: { countryIn: ['NO'] } } });
  assert.equal(norway.status, 200, JSON.stringify(norway.body));
  assert.equal(norway.body.members, 0);
  assert.deepEqual(norway.body.domains, null);
  const [company] = await t.db.query<{ id: string; domain: string }>(`SELECT id, domain FROM companies WHERE country = 'US' ORDER BY id LIMIT 1`);

  await updateCompany(t.db, company!.id, `country = 'NO'`);
  await t.app.events.nudge();
  assert.equal((await call<MonitorRecord>('GET', `/api/monitors/${norway.body.id}`)).body.members, 1);
  await updateCompany(t.db, company!.id, `country = 'US'`);
  await t.app.events.nudge();
  const events = await monitorEvents(norway.body.id);
  assert.deepEqual(brief(events.filter((e) => e.type.startsWith('monitor.'))), [
    ['monitor.entered', company!.domain],
    ['monitor.left', company!.domain],
  ]);
  assert.deepEqual(events[0]!.monitor, { id: norway.body.id, name: 'Norway' });
  // Another client sees neither the monitor nor its entries.
  assert.equal((await call('GET', `/api/monitors/${norway.body.id}`, undefined, other.headers)).status, 404);
  assert.equal((await call('GET', `/api/events?monitorId=${norway.body.id}`, undefined, other.headers)).status, 404);
  const theirs = await call<EventsPage>('GET', '/api/events?types=monitor.entered&types=monitor.left&limit=1000', undefined, other.headers);
  assert.deepEqual(theirs.body.events, []);
  const mine = await call<EventsPage>('GET', '/api/events?types=monitor.entered&limit=1000');
  assert.equal(mine.body.events.length, 1);
});

test('a product monitor gains a company when a detection run finds the product there', async () => {
  const ga = await call<MonitorRecord>('POST', '/api/monitors', {
    name: 'GA users',
    search: { filter: { productIdIn: ['prd_ga'] } },
    eventTypes: ['technology.adopted'],
  });
  assert.equal(ga.status, 200, JSON.stringify(ga.body));
  const before = ga.body.members;
  const site = (n: number, techs: object[]) => ({
    domain: 'new-ga.example',
    technologies: techs,
    seenAt: day(n).toISOString(),
    visit: { outcome: 'ok', kinds: ['web'], reason: null },
  });
  const gaTech = googleAnalytics();
  await recordDetections(t.db, [site(-20, [])] as never);
  const run = await recordDetections(t.db, [site(-10, [gaTech])] as never);
  await deriveInstalls(t.db, { companyIds: run.companyIds, asOf: day(0) });
  await t.app.events.nudge();
  assert.equal((await call<MonitorRecord>('GET', `/api/monitors/${ga.body.id}`)).body.members, before + 1);
  assert.deepEqual(brief(await monitorEvents(ga.body.id)), [
    ['technology.adopted', 'new-ga.example'],
    ['monitor.entered', 'new-ga.example'],
  ]);
});

test('an import that moves companies in and out of a search enters and removes them, once each', async () => {
  const uk = await call<MonitorRecord>('POST', '/api/monitors', {
    name: 'Large in GB',
    search: { filter: { countryIn: ['GB'], employeeRangeIn: ['Above 10,000'] } },
  });
  assert.equal(uk.status, 200, JSON.stringify(uk.body));
  assert.equal(uk.body.members, 0);
  const [a, b] = await t.db.query<{ domain: string }>(`SELECT domain FROM companies WHERE country = 'GB' ORDER BY id LIMIT 2`);
  const file = async (lines: string[]) => {
    const path = join(await mkdtemp(join(tmpdir(), 'monitor-import-')), 'companies.csv');
    await writeFile(path, ['domain,employeeRange', ...lines].join('\n'));
    return path;
  };
  const first = await importFile(t.db, 'companies', await file([`${a!.domain},"Above 10,000"`, `${b!.domain},"Above 10,000"`]));
  assert.equal(first.updated, 2, JSON.stringify(first.errors));
  await t.app.events.nudge();
  await importFile(t.db, 'companies', await file([`${a!.domain},"Above 10,000"`, `${b!.domain},50 - 199`]));
  await t.app.events.nudge();
  const entries = brief((await monitorEvents(uk.body.id)).filter((e) => e.type.startsWith('monitor.')));
  assert.deepEqual(
    entries.sort(),
    [
      ['monitor.entered', a!.domain],
      ['monitor.entered', b!.domain],
      ['monitor.left', b!.domain],
    ].sort(),
  );
  assert.equal((await call<MonitorRecord>('GET', `/api/monitors/${uk.body.id}`)).body.members, 1);
  assert.equal((await call('DELETE', `/api/monitors/${uk.body.id}`)).status, 200);
});

test('a list monitor: its domains are its members; the event types it wants filter its view', async () => {
  const [a, b] = await t.db.query<{ id: string; domain: string }>(`SELECT id, domain FROM companies WHERE country = 'CA' ORDER BY id LIMIT 2`);
  const list = await call<MonitorRecord>('POST', '/api/monitors', { name: 'Two accounts', domains: [b!.domain, a!.domain], eventTypes: ['feed.item'] });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.deepEqual([list.body.members, list.body.domains, list.body.search], [2, [b!.domain, a!.domain], null]);
  await insertNewsItem(t.db, { id: 'fd_mon_1', companyId: a!.id, title: 'News of a' });
  await updateCompany(t.db, a!.id, `employee_band = 'Above 10,000'`);
  await t.app.events.nudge();
  assert.deepEqual(brief(await monitorEvents(list.body.id)), [['feed.item', a!.domain]], 'only the wanted type');

  const renamed = await call<MonitorRecord>('POST', `/api/monitors/${list.body.id}`, { name: 'Renamed', eventTypes: ['feed.item', 'company.changed'] });
  assert.deepEqual([renamed.status, renamed.body.name, renamed.body.members], [200, 'Renamed', 2]);
  assert.deepEqual((await monitorEvents(list.body.id)).map((e) => e.type).sort(), ['company.changed', 'feed.item']);

  const listed = await call<{ content: MonitorRecord[]; totalElements: number }>('GET', '/api/monitors');
  assert.deepEqual(
    listed.body.content.map((m) => m.name),
    ['Norway', 'GA users', 'Renamed'],
  );
  const deleted = await call('DELETE', `/api/monitors/${list.body.id}`);
  assert.deepEqual([deleted.status, deleted.body], [200, { id: list.body.id, deleted: true }]);
  assert.equal((await call('GET', `/api/monitors/${list.body.id}`)).status, 404);
  assert.equal((await call('DELETE', `/api/monitors/${list.body.id}`)).status, 404);
});

test('bad monitors are 4xx naming the field; a client holds at most its limit', async () => {
  const refused = async (body: object, status: number, message: RegExp) => {
    const res = await call<{ message: string }>('POST', '/api/monitors', body);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.match(res.body.message, message);
  };
  await refused({ name: 'x' }, 400, /exactly one of search and domains/);
  await refused({ name: 'x', search: {}, domains: ['a.example'] }, 400, /exactly one of search and domains/);
  await refused({ name: 'x', domains: ['nowhere.example'] }, 404, /domains/);
  await refused({ name: 'x', search: { filter: { productIdIn: ['prd_nope'] } } }, 404, /filter\.productIdIn/);
  await refused({ name: 'x', search: { page: 2 } }, 400, /search/);
  await refused({ name: '', domains: ['same.example'] }, 400, /name/);
  await refused({ name: 'x', domains: ['same.example'], eventTypes: ['technology.bought'] }, 400, /eventTypes/);
  // Two are held (the third was deleted above): two more fit, the next is a 409.
  const held = (await call<{ totalElements: number }>('GET', '/api/monitors')).body.totalElements;
  assert.equal(held, 2);
  assert.equal((await call('POST', '/api/monitors', { name: 'third', domains: ['same.example'] })).status, 200);
  assert.equal((await call('POST', '/api/monitors', { name: 'fourth', domains: ['same.example'] })).status, 200);
  await refused({ name: 'fifth', domains: ['same.example'] }, 409, /MAX_MONITORS_PER_CLIENT/);
  assert.equal((await call('POST', '/api/monitors', { name: 'theirs', domains: ['same.example'] }, other.headers)).status, 200, 'the limit is per client');
});
