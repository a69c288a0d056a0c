// Webhooks with a local receiver that verifies each signature with the Standard Webhooks
// reference library: delivery of published events, retries after 500s and timeouts, the
// dead-letter state, replay, secret rotation (two valid signatures), disabling after
// persistent failure and enabling again, SSRF-safe targets, isolation between clients, and no
// event lost across a restart of the delivering app. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { intelligenceWorld } from '../intelligence/world.ts';
import type { EventRecord } from '../../src/schemas/events.ts';
import { insertNewsItem } from '../helpers/import-records.ts';

interface Received {
  id: string;
  event: EventRecord;
  signature: string;
}

/** A receiver: verifies with the secrets it is given, answers what `respond` says. */
class Receiver {
  readonly got: Received[] = [];
  secrets: string[] = [];
  respond: (r: Received) => number | 'hang' = () => 200;
  readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      let payload: { type: string; data: EventRecord } | undefined;
      for (const secret of this.secrets) {
        try {
          payload = new Webhook(secret).verify(body, headers) as typeof payload;
          break;
        } catch {
          /* the next secret */
        }
      }
      if (!payload) {
        res.writeHead(401).end();
        return;
      }
      const r = { id: headers['webhook-id'], event: payload.data, signature: headers['webhook-signature'] };
      this.got.push(r);
      const answer = this.respond(r);
      if (answer !== 'hang') res.writeHead(answer).end();
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

const ENV = { WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32', WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_RETRY_LIMIT: '2', WEBHOOK_TIMEOUT_MS: '500' };
const TUNING = { pollingIntervalSeconds: 0.5 };

let t: TestApp;
let client: TestClient;
let other: TestClient;
let receiver: Receiver;
let url: string;
before(async () => {
  t = await createTestApp({ env: ENV, webhookTuning: TUNING });
  await insertWorld(t.db, intelligenceWorld());
  client = await createTestClient(t.db, 'full');
  other = await createTestClient(t.db, 'full');
  receiver = new Receiver();
  url = await receiver.listen();
});
after(async () => {
  receiver.close();
  await t.close();
});

const call = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object, headers = client.headers) => {
  const res = await t.app.inject({ method, url: path, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.json() as T };
};
let newsCount = 0;
/** A news item of a company, published: one feed.item event. */
async function news(title = `news ${++newsCount}`): Promise<string> {
  const [company] = await t.db.query<{ id: string }>('SELECT id FROM companies ORDER BY id LIMIT 1');
  await insertNewsItem(t.db, { id: `fd_${title.replace(/\W/g, '_')}`, companyId: company!.id, title: `fd_${title.replace(/\W/g, '_')}` });
  await t.app.events.nudge();
  return `fd_${title.replace(/\W/g, '_')}`;
}
async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const titles = () => receiver.got.map((r) => r.event.feedItem?.title);

type Created = { id: string; secret: string; enabled: boolean };

test("published events reach the endpoint signed per Standard Webhooks; other clients' endpoints get only what they may read", async () => {
  const hook = await call<Created>('POST', '/api/webhooks', { url, eventTypes: ['feed.item'] });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  assert.match(hook.body.secret, /^whsec_/);
  receiver.secrets = [hook.body.secret];
  const id = await news('first');
  const [got] = await until('the delivery', () => (receiver.got.length ? receiver.got : undefined));
  assert.equal(got!.event.feedItem!.id, id);
  assert.equal(got!.id, got!.event.id, 'webhook-id is the event id');
  const deliveries = await call<{ content: { status: string; attempts: number }[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries`);
  assert.deepEqual(
    deliveries.body.content.map((d) => [d.status, d.attempts]),
    [['delivered', 1]],
  );
  // The secret is never shown again; another client sees none of this endpoint.
  assert.equal('secret' in (await call<object>('GET', `/api/webhooks/${hook.body.id}`)).body, false);
  assert.equal((await call('GET', `/api/webhooks/${hook.body.id}`, undefined, other.headers)).status, 404);
  assert.equal((await call('DELETE', `/api/webhooks/${hook.body.id}`)).status, 200);
  receiver.got.length = 0;
});

test('a 500 and a timeout are retried until a 2xx; retries exhausted leave a dead delivery that replay sends again', async () => {
  const hook = await call<Created>('POST', '/api/webhooks', { url, eventTypes: ['feed.item'] });
  receiver.secrets = [hook.body.secret];
  let calls = 0;
  receiver.respond = () => (++calls === 1 ? 500 : calls === 2 ? 'hang' : 200);
  await news('flaky');
  await until('three attempts', () => calls >= 3 && receiver.got.length >= 3);
  const [delivery] = (await call<{ content: { status: string; attempts: number; lastStatus: number }[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries`))
    .body.content;
  assert.deepEqual([delivery!.status, delivery!.attempts, delivery!.lastStatus], ['delivered', 3, 200]);
  assert.equal(new Set(receiver.got.map((r) => r.id)).size, 1, 'every attempt carries the same webhook-id');

  // Always 503: the first try and two retries, then dead.
  receiver.got.length = 0;
  receiver.respond = () => 503;
  await news('doomed');
  const dead = await until('the dead letter', async () => {
    const page = await call<{ content: { eventId: string; attempts: number }[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries?status=dead`);
    return page.body.content[0];
  });
  assert.equal(dead.attempts, 3);
  assert.equal(receiver.got.length, 3);
  receiver.respond = () => 200;
  const replay = await call<{ queued: number }>('POST', `/api/webhooks/${hook.body.id}/replay`, { eventIds: [dead.eventId] });
  assert.deepEqual([replay.status, replay.body.queued], [200, 1]);
  await until('the replayed delivery', async () => {
    const page = await call<{ content: { status: string }[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries?status=delivered`);
    return page.body.content.length === 2;
  });
  assert.equal(receiver.got.at(-1)!.id, dead.eventId, 'the replay carries the original webhook-id');
  const badReplay = await call<{ message: string }>('POST', `/api/webhooks/${hook.body.id}/replay`, { eventIds: [dead.eventId], from: '2026-01-01T00:00:00Z' });
  assert.equal(badReplay.status, 400);
  await call('DELETE', `/api/webhooks/${hook.body.id}`);
  receiver.got.length = 0;
});

test('a rotated secret: both signatures for a while, so a receiver holding either verifies', async () => {
  const hook = await call<Created>('POST', '/api/webhooks', { url, eventTypes: ['feed.item'] });
  const rotated = await call<{ secret: string; previousSecretExpiresAt: string }>('POST', `/api/webhooks/${hook.body.id}/rotate-secret`);
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.secret, hook.body.secret);
  receiver.secrets = [hook.body.secret]; // a receiver not yet switched
  await news('rotation old');
  await until('signed with the old secret', () => receiver.got.length === 1);
  receiver.secrets = [rotated.body.secret]; // and one that has switched
  await news('rotation new');
  await until('signed with the new secret', () => receiver.got.length === 2);
  assert.equal(receiver.got[0]!.signature.split(' ').length, 2, 'two signatures during the rotation');
  await call('DELETE', `/api/webhooks/${hook.body.id}`);
  receiver.got.length = 0;
});

test('an endpoint failing for too long is disabled, skips deliveries, and is enabled again by its client', async () => {
  const hook = await call<Created>('POST', '/api/webhooks', { url, eventTypes: ['feed.item'] });
  receiver.secrets = [hook.body.secret];
  receiver.respond = () => 500;
  // Failing since long ago (as if for days): the next failure disables it.
  await news('fails once');
  await until('a failure', async () => (await call<{ consecutiveFailures: number }>('GET', `/api/webhooks/${hook.body.id}`)).body.consecutiveFailures > 0);
  await t.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '100 hours' WHERE id = $1`, [hook.body.id]);
  const disabled = await until('disabled', async () => {
    const w = await call<{ enabled: boolean; disabledReason: string }>('GET', `/api/webhooks/${hook.body.id}`);
    return w.body.enabled ? undefined : w.body;
  });
  assert.match(disabled.disabledReason, /failed for 72 hours/);
  const sent = receiver.got.length;
  await news('while disabled');
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(receiver.got.length, sent, 'nothing is sent to a disabled endpoint');
  assert.equal((await call('POST', `/api/webhooks/${hook.body.id}/replay`, { eventIds: [receiver.got[0]!.id] })).status, 409);
  receiver.respond = () => 200;
  const enabled = await call<{ enabled: boolean; consecutiveFailures: number }>('POST', `/api/webhooks/${hook.body.id}`, { enabled: true });
  assert.deepEqual([enabled.body.enabled, enabled.body.consecutiveFailures], [true, 0]);
  await news('after enabling');
  await until('delivered again', () => titles().includes('fd_after_enabling'));
  await call('DELETE', `/api/webhooks/${hook.body.id}`);
  receiver.got.length = 0;
});

test("targets are checked like the fetcher's: a private address is never called; bad input is a 400 naming the field", async () => {
  const app2 = await createTestApp({ db: t.db, env: { ...ENV, WEBHOOK_ALLOW_NETWORKS: '' }, webhookTuning: TUNING });
  try {
    const hook = await app2.app.inject({ method: 'POST', url: '/api/webhooks', headers: other.headers, payload: { url, eventTypes: ['feed.item'] } });
    const { id } = hook.json() as Created;
    receiver.got.length = 0;
    const before = receiver.got.length;
    await news('to a private address');
    await app2.app.events.nudge();
    const failure = await until('the refused attempt', async () => {
      const res = await app2.app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: other.headers });
      const d = (res.json() as { content: { lastError: string | null }[] }).content[0];
      return d?.lastError ? d : undefined;
    });
    assert.match(failure.lastError!, /refused target/);
    assert.equal(receiver.got.length, before, 'the receiver on 127.0.0.1 was never called');
    await app2.app.inject({ method: 'DELETE', url: `/api/webhooks/${id}`, headers: other.headers });
  } finally {
    await app2.close();
  }
  for (const [body, field] of [
    [{ url: 'ftp://example.com/x' }, /url/],
    [{ url: 'https://user:pw@example.com/x' }, /url/],
    [{ url: 'https://example.com/x', eventTypes: ['nope'] }, /eventTypes/],
    [{ url: 'https://example.com/x', monitorId: 'mon_nothere' }, /monitorId/],
  ] as const) {
    const res = await call<{ message: string }>('POST', '/api/webhooks', body);
    assert.ok(res.status === 400 || res.status === 404, `${JSON.stringify(body)} → ${res.status}`);
    assert.match(res.body.message, field);
  }
});

test('no event is lost when the delivering app stops mid-way: a new instance delivers what was queued', async () => {
  const hook = await call<Created>('POST', '/api/webhooks', { url, eventTypes: ['feed.item'] });
  receiver.secrets = [hook.body.secret];
  receiver.got.length = 0;
  // The receiver is down (refuses to answer in time) while events are published.
  receiver.respond = () => 'hang';
  for (let i = 0; i < 5; i++) await news(`restart ${i}`);
  await t.app.webhooks.stop();
  // Another instance on the same database takes over.
  receiver.respond = () => 200;
  const next = await createTestApp({ db: t.db, env: ENV, webhookTuning: { ...TUNING, expireInSeconds: 2, maintenanceIntervalSeconds: 1 } });
  try {
    await next.app.webhooks.start();
    await until(
      'every event delivered',
      async () => {
        const page = await call<{ content: { status: string }[] }>('GET', `/api/webhooks/${hook.body.id}/deliveries?status=delivered&size=50`);
        return page.body.content.length === 5;
      },
      30_000,
    );
    const delivered = new Set(receiver.got.filter((r) => r.event.feedItem?.title.startsWith('fd_restart')).map((r) => r.id));
    assert.equal(delivered.size, 5);
  } finally {
    await next.close();
  }
});
