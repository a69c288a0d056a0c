// Monitors' events as MCP resources: listed per client and read as GET /api/events?monitorId
// reads them (newest, with a cursor to read on); resources/subscribe on a server with a live
// channel (in memory here, as over stdio) sends notifications/resources/updated for the
// monitors with new events only, until unsubscribed; another client's monitor is not found;
// subscriptions are bounded per session; a server with neither a channel nor a session's
// stored subscriptions (HTTP: resume-stream.test.ts) refuses to subscribe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { defineUnlimitedPlan } from '../helpers/plans.ts';
import { updateClient } from '../../src/store/access.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { worldWithGoogleAnalytics } from '../helpers/change-history.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { waitFor } from '../helpers/wait.ts';
import { createMonitor } from '../../src/services/monitors.ts';
import { PublishWatcher, type PublishedEvents } from '../../src/services/monitor-updates.ts';
import { MAX_SUBSCRIPTIONS_PER_SESSION, MonitorSubscriptions } from '../../src/mcp/subscriptions.ts';
import type { Published } from '../../src/store/events.ts';
import type { EventsPage } from '../../src/schemas/events.ts';
import type { MonitorRecord } from '../../src/schemas/monitors.ts';
import { updateCompany } from '../helpers/import-records.ts';

let t: TestApp;
let companies: { id: string; domain: string }[];
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, worldWithGoogleAnalytics());
  companies = await t.db.query<{ id: string; domain: string }>(`SELECT id, domain FROM companies WHERE country = 'US' ORDER BY id LIMIT 4`);
});
after(() => t.close());

const uriOf = (monitorId: string) => `stacklens://monitors/${monitorId}/events`;

async function newMonitor(headers: Record<string, string>, body: object): Promise<MonitorRecord> {
  const res = await t.app.inject({ method: 'POST', url: '/api/monitors', headers, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Moves a company to a country and publishes what follows (its change, then the monitors' entries and exits). */
async function moveTo(companyId: string, country: string): Promise<void> {
  await updateCompany(t.db, companyId, 'country = $2', [country]);
  await t.app.events.nudge();
}

/** A client with a live channel, and the URIs its notifications named. */
async function subscriber(events: PublishedEvents = t.app.events) {
  const session = await connectMcp(t, 'full', undefined, undefined, { events, onError: (err) => assert.fail(err as Error) });
  const updated: string[] = [];
  session.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  return { ...session, updated };
}

const readJson = async (client: Awaited<ReturnType<typeof connectMcp>>['client'], uri: string) => {
  const { contents } = await client.readResource({ uri });
  assert.equal(contents[0]!.mimeType, 'application/json');
  return JSON.parse((contents[0] as { text: string }).text) as { events: any[]; cursor: string; hasMore: boolean; next: string };
};

test("a client's monitors are listed and read as the REST feed reads them: newest events, and a cursor to read on", async () => {
  const { client, headers } = await connectMcp(t, 'full');
  const other = await connectMcp(t, 'full');
  const monitor = await newMonitor(headers, { name: 'Norway', search: { filter: { countryIn: ['NO'] } } });
  const listed = (await client.listResources()).resources.filter((r) => r.uri.startsWith('stacklens://monitors/'));
  assert.deepEqual(
    listed.map((r) => [r.uri, r.title]),
    [[uriOf(monitor.id), 'Events of monitor "Norway"']],
  );
  assert.deepEqual(
    (await other.client.listResources()).resources.filter((r) => r.uri.startsWith('stacklens://monitors/')),
    [],
  );
  assert.ok((await client.listResourceTemplates()).resourceTemplates.some((r) => r.uriTemplate === 'stacklens://monitors/{monitorId}/events{?cursor}'));

  const empty = await readJson(client, uriOf(monitor.id));
  assert.deepEqual(empty.events, []);
  await moveTo(companies[0]!.id, 'NO');
  const read = await readJson(client, uriOf(monitor.id));
  const rest = (await t.app.inject({ method: 'GET', url: `/api/events?monitorId=${monitor.id}&limit=50`, headers })).json() as EventsPage;
  assert.ok(read.events.length > 0);
  assert.deepEqual(
    read.events.map((e) => e.id),
    rest.events.map((e) => e.id),
    'the same events as GET /api/events?monitorId',
  );
  assert.ok(read.events.some((e) => e.type === 'monitor.entered' && e.company.domain === companies[0]!.domain));
  assert.equal(read.hasMore, false);
  assert.equal(read.next, `${uriOf(monitor.id)}?cursor=${encodeURIComponent(read.cursor)}`);
  // Reading on from the cursor: nothing new yet, then only what came after.
  assert.deepEqual((await readJson(client, read.next)).events, []);
  await moveTo(companies[0]!.id, 'US');
  const after = await readJson(client, read.next);
  assert.deepEqual(
    after.events.filter((e) => e.type.startsWith('monitor.')).map((e) => [e.type, e.company.domain]),
    [['monitor.left', companies[0]!.domain]],
  );
  await assert.rejects(client.readResource({ uri: `${uriOf(monitor.id)}?cursor=forged` }), (e: any) => e.code === -32602);
});

test('a subscription is told of new events of its monitor only, until unsubscribed', async () => {
  const s = await subscriber();
  assert.deepEqual(s.client.getServerCapabilities()?.resources, { subscribe: true });
  const watched = await newMonitor(s.headers, { name: 'Norway', search: { filter: { countryIn: ['NO'] } } });
  const quiet = await newMonitor(s.headers, { name: 'Japan', search: { filter: { countryIn: ['JP'] } } });
  await s.client.subscribeResource({ uri: uriOf(watched.id) });
  await s.client.subscribeResource({ uri: uriOf(quiet.id) });
  await s.client.subscribeResource({ uri: uriOf(watched.id) }); // again: still one subscription

  await moveTo(companies[1]!.id, 'NO');
  await waitFor(() => s.updated.length > 0, 'a notification');
  await t.app.events.nudge();
  assert.deepEqual([...new Set(s.updated)], [uriOf(watched.id)], 'only the monitor with new events');

  await s.client.unsubscribeResource({ uri: uriOf(watched.id) });
  const seen = s.updated.length;
  await moveTo(companies[1]!.id, 'US');
  await t.app.events.nudge();
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(s.updated.length, seen, 'no notification after unsubscribing');
  await s.client.close();
});

test("another client's monitor is not found, to read or to subscribe; only monitors' events can be subscribed to", async () => {
  const owner = await connectMcp(t, 'full');
  const s = await subscriber();
  const monitor = await newMonitor(owner.headers, { name: 'Theirs', domains: [companies[2]!.domain] });
  await assert.rejects(s.client.readResource({ uri: uriOf(monitor.id) }), (e: any) => e.code === -32002 && /no monitor/.test(e.message));
  await assert.rejects(s.client.subscribeResource({ uri: uriOf(monitor.id) }), (e: any) => e.code === -32002 && /no monitor/.test(e.message));
  await assert.rejects(s.client.subscribeResource({ uri: uriOf('mon_nothing') }), (e: any) => e.code === -32002);
  await assert.rejects(s.client.subscribeResource({ uri: 'stacklens://reference/categories' }), (e: any) => e.code === -32602 && /monitor/.test(e.message));
  await assert.rejects(s.client.subscribeResource({ uri: `${uriOf(monitor.id)}?cursor=x` }), (e: any) => e.code === -32602);
  // A server with neither a live channel nor a session's stored subscriptions offers none.
  assert.deepEqual(owner.client.getServerCapabilities()?.resources, {});
  await assert.rejects(owner.client.subscribeResource({ uri: uriOf(monitor.id) }), (e: any) => e.code === -32601 && /stdio/.test(e.message));
  await s.client.close();
});

test(`a session holds at most ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions`, async () => {
  const s = await subscriber();
  // More monitors than the full plan holds: the cap under test is the session's, not the plan's.
  await updateClient(t.db, s.clientId, { planId: await defineUnlimitedPlan(t.db) });
  const ids: string[] = [];
  for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_SESSION; i++)
    ids.push((await createMonitor(t.db, s.clientId, { name: `m${i}`, domains: [companies[3]!.domain] } as never, 1_000)).id);
  for (const id of ids.slice(0, MAX_SUBSCRIPTIONS_PER_SESSION)) await s.client.subscribeResource({ uri: uriOf(id) });
  await assert.rejects(
    s.client.subscribeResource({ uri: uriOf(ids.at(-1)!) }),
    (e: any) => e.code === -32000 && new RegExp(`${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions.*unsubscribe`).test(e.message),
  );
  await s.client.unsubscribeResource({ uri: uriOf(ids[0]!) });
  await s.client.subscribeResource({ uri: uriOf(ids.at(-1)!) });
  await s.client.close();
});

test('a process that publishes nothing (stdio) learns of new events by watching the published seq', async () => {
  const watcher = new PublishWatcher(t.db, (err) => assert.fail(err as Error), 60_000);
  const s = await subscriber(watcher);
  const monitor = await newMonitor(s.headers, { name: 'Norway again', search: { filter: { countryIn: ['NO'] } } });
  await s.client.subscribeResource({ uri: uriOf(monitor.id) });
  await watcher.check();
  assert.deepEqual(s.updated, [], 'nothing new yet');
  await moveTo(companies[0]!.id, 'NO'); // the app's publisher numbers the events, as a running server would
  await t.app.events.nudge();
  await watcher.check();
  await waitFor(() => s.updated.length > 0, 'a notification');
  assert.deepEqual(s.updated, [uriOf(monitor.id)]);
  await s.client.close();
  await moveTo(companies[0]!.id, 'US');
});

test('a publish costs a subscribed session a statement only when it may concern the session', async () => {
  const statements: string[] = [];
  const db = {
    query: async (sql: string) => {
      statements.push(sql.includes('max(seq)') ? 'seq' : 'monitors');
      return sql.includes('max(seq)') ? [{ seq: '10' }] : [];
    },
  };
  const events = new EventEmitter<{ published: [Published] }>();
  const subscriptions = new MonitorSubscriptions(
    db as never,
    'cli_me',
    events,
    async () => {},
    (err) => assert.fail(err as Error),
  );
  const published = async (p: Published) => {
    events.emit('published', p);
    await new Promise((resolve) => setImmediate(resolve));
  };
  await published({ count: 1, lastSeq: 11, companyIds: ['cmp_a'], clientIds: [] });
  assert.deepEqual(statements, [], 'no subscription, no listener');
  await subscriptions.add(uriOf('mon_a'), 'mon_a');
  assert.deepEqual(statements, ['seq']);
  await published({ count: 2, lastSeq: 12, companyIds: [], clientIds: ['cli_other'] });
  assert.deepEqual(statements, ['seq'], "only another client's monitor entries: nothing to check");
  await published({ count: 1, lastSeq: 13, companyIds: [], clientIds: ['cli_me'] });
  await published({ count: 1, lastSeq: 14, companyIds: ['cmp_a'], clientIds: [] });
  await published({ count: 1, lastSeq: 20, companyIds: [], clientIds: [] });
  assert.deepEqual(statements, ['seq', 'monitors', 'monitors', 'monitors'], 'its own entries, world events, and a gap (seq 15-19 unseen) are checked');
  subscriptions.remove('mon_a');
  await published({ count: 1, lastSeq: 21, companyIds: ['cmp_a'], clientIds: ['cli_me'] });
  assert.equal(statements.length, 4, 'unsubscribed: no listener');
  assert.equal(events.listenerCount('published'), 0);
});
