// What a plan allows of the watch features: monitors and webhook endpoints held (409 past the
// plan's number, a changed plan applies at once), and events received per UTC day through the
// pull feed (trimmed, then 429 with Retry-After to the next day), the live stream (ends with an
// error event) and webhooks (held, then delivered the next day); the day's count in the admin
// usage; and a consumer seeing only its own client's monitor events on all three. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { worldWithGoogleAnalytics } from '../helpers/change-history.ts';
import { setPlan, changeClient } from '../../src/auth/clients.ts';
import { setClock } from '../../src/clock.ts';
import type { EventRecord, EventsPage } from '../../src/schemas/events.ts';
import { insertNewsItem, updateCompany } from '../helpers/import-records.ts';

/** A receiver that records what it is sent (the signature is the webhooks test's business). */
class Receiver {
  readonly got: { id: string; event: EventRecord }[] = [];
  readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      this.got.push({ id: String(req.headers['webhook-id']), event: (JSON.parse(body) as { data: EventRecord }).data });
      res.writeHead(204).end();
    });
  });
  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

// The clock runs from noon of a fixed UTC day; `nextDay()` moves it 24 h on.
const DAY_MS = 86_400_000;
let base = Date.parse('2026-06-01T12:00:00Z');
const started = Date.now();
const nextDay = () => (base += DAY_MS);

let t: TestApp;
let address: string;
before(async () => {
  setClock(() => base + (Date.now() - started));
  t = await createTestApp({
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '2000', MAX_WEBHOOKS_PER_CLIENT: '4' },
    webhookTuning: { pollingIntervalSeconds: 0.5, holdSeconds: 1 },
  });
  await insertWorld(t.db, worldWithGoogleAnalytics());
  await setPlan(t.db, 'watch-small', {
    requestsPerMinute: 1000,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 1,
    maxMonitors: 2,
    maxWebhooks: 1,
    eventsPerDay: 3,
  });
  await setPlan(t.db, 'watch-large', {
    requestsPerMinute: 1000,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 1,
    maxMonitors: 3,
    maxWebhooks: 10,
    eventsPerDay: 1000,
  });
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  setClock();
  await t.close();
});

const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) => {
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.json() as T, headers: res.headers };
};
let newsCount = 0;
/** News items of a company, published: one feed.item event each. */
async function news(n: number): Promise<void> {
  const [company] = await t.db.query<{ id: string }>('SELECT id FROM companies ORDER BY id LIMIT 1');
  for (let i = 0; i < n; i++) {
    const id = `fd_limits_${++newsCount}`;
    await insertNewsItem(t.db, { id, companyId: company!.id, title: id });
  }
  await t.app.events.nudge();
}
async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const secondsToMidnight = () =>
  Math.ceil((Date.parse(new Date(base).toISOString().slice(0, 10) + 'T00:00:00Z') + DAY_MS - (base + Date.now() - started)) / 1000);

/**
 * Reads a live stream's messages until it ends, `stop` says so after a message, or `signal`
 * aborts; the events (feed items by title, others as "type domain") and any error event.
 */
async function readStream(
  headers: Record<string, string>,
  query: string,
  options: { stop?: (titles: string[]) => boolean; onOpen?: () => Promise<void>; signal?: AbortSignal } = {},
) {
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const res = await fetch(`${address}/api/events/stream?${query}`, { headers, signal: controller.signal });
  if (res.status !== 200) {
    await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), titles: [], error: undefined, ended: false };
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const titles: string[] = [];
  let error: { status: number; message: string } | undefined;
  let buffer = '';
  let ended = false;
  let opened = false;
  try {
    while (!options.stop?.(titles)) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (message.startsWith(':')) {
          if (!opened) ((opened = true), void options.onOpen?.().catch(() => {}));
          continue;
        }
        const type = /^event: (.*)$/m.exec(message)![1];
        const data = JSON.parse(/^data: (.*)$/m.exec(message)![1]!) as EventRecord & { status: number; message: string };
        if (type === 'error') error = data;
        else titles.push(data.feedItem?.title ?? `${data.type} ${data.company.domain}`);
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  await reader.cancel().catch(() => {});
  controller.abort();
  return { status: res.status, retryAfter: null, titles, error, ended };
}

test("monitors and webhook endpoints: the plan's number is the limit (409 naming it), and a new plan applies at once", async () => {
  const c = await createTestClient(t.db, 'watch-small');
  const monitor = (name: string) => call<{ id: string; message: string }>('POST', '/api/monitors', c.headers, { name, domains: ['same.example'] });
  const hook = () => call<{ id: string; message: string }>('POST', '/api/webhooks', c.headers, { url: 'https://hooks.example.com/x' });
  assert.equal((await monitor('one')).status, 200);
  assert.equal((await monitor('two')).status, 200);
  const third = await monitor('three');
  assert.equal(third.status, 409);
  assert.match(third.body.message, /This client has 2 monitors, the most its plan 'watch-small' allows \(maxMonitors = 2\)/);
  assert.equal((await hook()).status, 200);
  const second = await hook();
  assert.equal(second.status, 409);
  assert.match(second.body.message, /1 webhooks, the most its plan 'watch-small' allows \(maxWebhooks = 1\)/);

  // A larger plan: more of each at once; the deployment's ceiling (MAX_WEBHOOKS_PER_CLIENT = 4) caps webhooks under its 10.
  await changeClient(t.db, c.clientId, { plan: 'watch-large' });
  assert.equal((await monitor('three')).status, 200);
  assert.match((await monitor('four')).body.message, /the most its plan 'watch-large' allows \(maxMonitors = 3\)/);
  for (let i = 0; i < 3; i++) assert.equal((await hook()).status, 200);
  const capped = await hook();
  assert.equal(capped.status, 409);
  assert.match(capped.body.message, /4 webhooks, the most this deployment allows any client \(MAX_WEBHOOKS_PER_CLIENT = 4; plan 'watch-large' allows 10\)/);
  const me = await call<{ watchLimits: object }>('GET', '/api/me', c.headers);
  assert.deepEqual(me.body.watchLimits, { maxMonitors: 3, maxWebhooks: 10, eventsPerDay: 1000 });

  // A plan that allows none refuses the first one; what is held already stays.
  await setPlan(t.db, 'watch-none', {
    requestsPerMinute: 1000,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 1,
    maxMonitors: 0,
    maxWebhooks: 0,
    eventsPerDay: 0,
  });
  await changeClient(t.db, c.clientId, { plan: 'watch-none' });
  assert.equal((await monitor('five')).status, 409);
  assert.equal((await call<{ totalElements: number }>('GET', '/api/monitors', c.headers)).body.totalElements, 3);
  const none = await call<{ message: string }>('GET', '/api/events', c.headers);
  assert.equal(none.status, 429, 'eventsPerDay 0: no events at all');
  await t.db.query('DELETE FROM webhook_endpoints WHERE client_id = $1', [c.clientId]);
});

test('pull: a page is trimmed to what the day allows, then 429 with Retry-After to the next UTC day; the cursor resumes there', async () => {
  const c = await createTestClient(t.db, 'watch-small');
  await news(5);
  const first = await call<EventsPage>('GET', '/api/events?types=feed.item&limit=100', c.headers);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.events.length, 3, 'eventsPerDay = 3');
  assert.equal(first.body.hasMore, true);
  const refused = await call<{ message: string }>('GET', `/api/events?types=feed.item&cursor=${first.body.cursor}`, c.headers);
  assert.equal(refused.status, 429);
  assert.match(
    refused.body.message,
    /received 3 of the 3 events its plan 'watch-small' allows per UTC day \(eventsPerDay; .*\); more from 2026-06-02T00:00:00.000Z/,
  );
  const retryAfter = Number(refused.headers['retry-after']);
  assert.ok(Math.abs(retryAfter - secondsToMidnight()) <= 2, `Retry-After ${retryAfter} ≈ ${secondsToMidnight()}`);
  // An empty page is refused too: the allowance is spent whatever is waiting.
  assert.equal((await call('GET', '/api/events?types=technology.version_changed', c.headers)).status, 429);

  nextDay();
  const rest = await call<EventsPage>('GET', `/api/events?types=feed.item&limit=100&cursor=${first.body.cursor}`, c.headers);
  assert.equal(rest.status, 200);
  const all = [...first.body.events, ...rest.body.events].map((e) => e.id);
  assert.equal(new Set(all).size, all.length, 'no event twice');
  assert.ok(rest.body.events.length >= 2);

  // The admin usage shows the events per day.
  const admin = await createTestClient(t.db, 'full', undefined, 'admin');
  const usage = await call<{ totalEvents: number; events: { day: string; events: number }[] }>(
    'GET',
    `/api/admin/clients/${c.clientId}/usage?from=2026-06-01&to=2026-06-30`,
    admin.headers,
  );
  assert.equal(usage.status, 200, JSON.stringify(usage.body));
  assert.deepEqual(usage.body.events[0], { day: '2026-06-01', events: 3 });
  assert.equal(usage.body.events[1]!.day, '2026-06-02');
  assert.equal(usage.body.totalEvents, all.length);
});

test('the live stream sends what the day allows, then an error event, and ends; a new stream is a 429 until the next day', async () => {
  await setPlan(t.db, 'watch-stream', { requestsPerMinute: 1000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 1, eventsPerDay: 2 });
  const c = await createTestClient(t.db, 'watch-stream');
  const got = await readStream(c.headers, 'types=feed.item', { onOpen: () => news(3) });
  assert.equal(got.status, 200);
  assert.equal(got.titles.length, 2);
  assert.equal(got.error?.status, 429);
  assert.match(got.error!.message, /received 2 of the 2 events its plan 'watch-stream' allows/);
  assert.equal(got.ended, true, 'the server ended the stream');
  const again = await readStream(c.headers, 'types=feed.item', { stop: () => true });
  assert.equal(again.status, 429);
  assert.ok(Number(again.retryAfter) > 0);
});

test('webhooks: a delivery past the allowance is held, not lost, and goes out when the next day allows it; retries do not count', async () => {
  await setPlan(t.db, 'watch-hook', { requestsPerMinute: 1000, aiRequestsPerMinute: 1, exportRequestsPerMinute: 1, eventsPerDay: 1 });
  const c = await createTestClient(t.db, 'watch-hook');
  const receiver = new Receiver();
  const url = await receiver.listen();
  try {
    const hook = await call<{ id: string }>('POST', '/api/webhooks', c.headers, { url, eventTypes: ['feed.item'] });
    assert.equal(hook.status, 200);
    await news(2);
    await until('the first delivery', () => receiver.got.length >= 1);
    type Delivery = { eventId: string; status: string; attempts: number; lastError: string | null };
    const deliveries = async () => (await call<{ content: Delivery[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries`, c.headers)).body.content;
    const waiting = await until('the held delivery', async () => (await deliveries()).find((d) => d.status === 'pending' && d.lastError?.startsWith('held')));
    assert.equal(waiting.attempts, 0);
    assert.match(waiting.lastError!, /daily event allowance is spent \(1 of 1, plan 'watch-hook'\)/);
    // Held across several rechecks (holdSeconds 1): nothing more goes out today.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(receiver.got.length, 1);

    nextDay();
    await until('the held delivery, the next day', () => receiver.got.length >= 2);
    const ids = receiver.got.map((r) => r.id);
    assert.equal(new Set(ids).size, 2, 'two different events');
    assert.ok(ids.includes(waiting.eventId));
    const settled = await until('both delivered', async () => {
      const ds = await deliveries();
      return ds.every((d) => d.status === 'delivered') && ds;
    });
    assert.deepEqual(
      settled.map((d) => [d.attempts, d.lastError]),
      [
        [1, null],
        [1, null],
      ],
    );
    // A replay sends again without counting: the day's one event is spent, yet the replay goes out.
    const replay = await call<{ queued: number }>('POST', `/api/webhooks/${hook.body.id}/replay`, c.headers, { eventIds: ids });
    assert.equal(replay.body.queued, 2);
    await until('the replays', () => receiver.got.length >= 4);
    const [volume] = await t.db.query<{ events: string }>(`SELECT sum(used) AS events FROM daily_allowance WHERE client_id = $1 AND kind = 'events'`, [
      c.clientId,
    ]);
    assert.equal(Number(volume!.events), 2, 'each delivery counted once');
  } finally {
    receiver.close();
  }
});

test("a consumer sees only its own client's monitor events: in the pull feed, the live stream and webhooks", async () => {
  const owner = await createTestClient(t.db, 'watch-large');
  const stranger = await createTestClient(t.db, 'watch-large');
  const mine = new Receiver();
  const theirs = new Receiver();
  try {
    const monitor = await call<{ id: string }>('POST', '/api/monitors', owner.headers, { name: 'Norway', search: { filter: { countryIn: ['NO'] } } });
    assert.equal(monitor.status, 200);
    const types = ['monitor.entered', 'monitor.left'];
    assert.equal((await call('POST', '/api/webhooks', owner.headers, { url: await mine.listen(), eventTypes: types })).status, 200);
    const strangerHook = await call<{ id: string }>('POST', '/api/webhooks', stranger.headers, { url: await theirs.listen(), eventTypes: types });
    assert.equal(strangerHook.status, 200);
    const [company] = await t.db.query<{ id: string; domain: string }>(`SELECT id, domain FROM companies WHERE country <> 'NO' ORDER BY id LIMIT 1`);
    // Both streams follow from a position taken before the change (the start of the feed).
    const from = async (c: TestClient) => (await call<EventsPage>('GET', '/api/events?types=monitor.entered&limit=1', c.headers)).body.cursor;
    const streamQuery = async (c: TestClient) => `types=monitor.entered&types=monitor.left&cursor=${encodeURIComponent(await from(c))}`;
    const done = new AbortController();
    const strangerStream = readStream(stranger.headers, await streamQuery(stranger), { signal: done.signal });
    const ownStream = readStream(owner.headers, await streamQuery(owner), { stop: (titles) => titles.length > 0, signal: done.signal });
    await updateCompany(t.db, company!.id, `country = 'NO'`);
    await t.app.events.nudge();
    await until("the owner's webhook", () => mine.got.length > 0);
    assert.deepEqual(
      mine.got.map((r) => [r.event.type, r.event.company.domain, r.event.monitor?.id]),
      [['monitor.entered', company!.domain, monitor.body.id]],
    );
    const own$ = await ownStream;
    assert.deepEqual(own$.titles, [`monitor.entered ${company!.domain}`]);
    // The stranger's stream was woken by the same publish: give it a moment, then end it.
    await t.app.events.nudge();
    await new Promise((r) => setTimeout(r, 500));
    done.abort();
    assert.deepEqual((await strangerStream).titles, []);
    const strangerPull = await call<EventsPage>('GET', '/api/events?types=monitor.entered&types=monitor.left&limit=1000', stranger.headers);
    assert.deepEqual(strangerPull.body.events, []);
    const ownPull = await call<EventsPage>('GET', '/api/events?types=monitor.entered&limit=1000', owner.headers);
    assert.equal(ownPull.body.events.length, 1);
    const strangerDeliveries = await call<{ totalElements: number }>('GET', `/api/webhooks/${strangerHook.body.id}/deliveries`, stranger.headers);
    assert.equal(strangerDeliveries.body.totalElements, 0);
    assert.equal(theirs.got.length, 0);
  } finally {
    mine.close();
    theirs.close();
  }
});
