// The session's server-to-client stream (GET /mcp): resource-updated notifications of its
// subscriptions arrive on it, each with an SSE id; a client reconnecting with Last-Event-ID
// gets exactly what it missed, in order, then live ones (raw HTTP and the SDK client); an
// unknown Last-Event-ID is a 400; one stream per session (409); the stream needs the
// session's owner and credentials, and ends when the session is deleted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { worldWithGoogleAnalytics } from '../helpers/change-history.ts';
import { waitFor } from '../helpers/wait.ts';
import { openSecondPool } from '../helpers/db.ts';
import { sessionIdHash } from '../../src/mcp/sessions.ts';
import type { MonitorRecord } from '../../src/schemas/monitors.ts';
import { updateCompany } from '../helpers/import-records.ts';

let t: TestApp;
let base: string;
let owner: TestClient;
let other: TestClient;
let companies: { id: string }[];

before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, worldWithGoogleAnalytics());
  companies = await t.db.query<{ id: string }>(`SELECT id FROM companies WHERE country = 'US' ORDER BY id LIMIT 4`);
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await createTestClient(t.db, 'full');
  other = await createTestClient(t.db, 'full');
});
after(() => t.close());

const uriOf = (monitorId: string) => `stacklens://monitors/${monitorId}/events`;
const VERSION = '2025-11-25';

async function newMonitor(country: string): Promise<MonitorRecord> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/monitors',
    headers: owner.headers,
    payload: { name: country, search: { filter: { countryIn: [country] } } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function moveTo(companyId: string, country: string): Promise<void> {
  await updateCompany(t.db, companyId, 'country = $2', [country]);
  await t.app.events.nudge();
}

/** The ids of the session's kept stream messages after `afterId` (what a resume must replay). */
async function storedIds(sid: string, afterId: number): Promise<number[]> {
  const rows = await t.db.query<{ id: string }>('SELECT id FROM mcp_stream_events WHERE session_hash = $1 AND id > $2 ORDER BY id', [
    sessionIdHash(sid),
    afterId,
  ]);
  return rows.map((r) => Number(r.id));
}

const headersOf = (c: TestClient, extra: Record<string, string> = {}) => ({ 'x-api-key': c.apiKey, 'mcp-protocol-version': VERSION, ...extra });

async function post(sid: string | undefined, body: object, c: TestClient = owner) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headersOf(c, sid ? { 'mcp-session-id': sid } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { res, text };
}

async function initialize(): Promise<string> {
  const { res } = await post(undefined, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  assert.equal(res.status, 200);
  const sid = res.headers.get('mcp-session-id')!;
  assert.ok(sid);
  return sid;
}

async function subscribe(sid: string, uri: string): Promise<void> {
  const { res, text } = await post(sid, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } });
  assert.equal(res.status, 200, text);
  assert.doesNotMatch(text, /"error"/, text);
}

interface SseEvent {
  id?: string;
  data: any;
}

/** An open GET stream, its events parsed as they come. */
async function openStream(sid: string, extra: Record<string, string> = {}, c: TestClient = owner, url = base) {
  const abort = new AbortController();
  const res = await fetch(`${url}/mcp`, {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...headersOf(c, { 'mcp-session-id': sid, ...extra }) },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let ended = false;
  if (res.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body!) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const lines = block.split('\n');
            const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
            if (data.length === 0) continue; // a comment (keep-alive)
            events.push({ id: lines.find((l) => l.startsWith('id: '))?.slice(4), data: JSON.parse(data.join('\n')) });
          }
        }
      } catch {
        // aborted
      }
      ended = true;
    })();
  }
  return { res, events, close: () => abort.abort(), ended: () => ended };
}

test('raw HTTP: a subscribed monitor is announced on the GET stream with an id; a reconnect with Last-Event-ID gets exactly the missed ones', async () => {
  const sid = await initialize();
  const norway = await newMonitor('NO');
  const japan = await newMonitor('JP');
  const peru = await newMonitor('PE');
  await subscribe(sid, uriOf(norway.id));
  await subscribe(sid, uriOf(japan.id));

  const first = await openStream(sid);
  assert.equal(first.res.status, 200);
  assert.equal(first.res.headers.get('content-type'), 'text/event-stream');
  await moveTo(companies[0]!.id, 'NO');
  await waitFor(() => first.events.length > 0, 'the first notification');
  assert.deepEqual(
    first.events.map((e) => e.data),
    [{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: uriOf(norway.id) } }],
  );
  // A second stream of the same session is refused while the first is open.
  const second = await openStream(sid);
  assert.equal(second.res.status, 409);
  assert.match(((await second.res.json()) as any).error.message, /one per session/);

  first.close();
  await waitFor(() => first.ended(), 'the stream closed');
  const lastSeen = first.events.at(-1)!.id!;
  assert.match(lastSeen, /^[0-9]+$/);
  // Missed: Japan; Peru is not subscribed.
  await moveTo(companies[1]!.id, 'JP');
  await moveTo(companies[2]!.id, 'PE');
  // With no stream open, the instance the client comes back to announces what was published meanwhile.
  const resumed = await openStream(sid, { 'last-event-id': lastSeen });
  assert.equal(resumed.res.status, 200);
  await waitFor(() => resumed.events.some((e) => e.data.params.uri === uriOf(japan.id)), 'the missed notification');
  const missed = await storedIds(sid, Number(lastSeen));
  assert.deepEqual(
    resumed.events.map((e) => Number(e.id)),
    missed,
    'exactly the messages after the last one seen, in order',
  );
  const uris = new Set(resumed.events.map((e) => e.data.params.uri));
  assert.ok(uris.has(uriOf(japan.id)) && !uris.has(uriOf(peru.id)), 'Japan missed; nothing of Peru');
  // Then live ones.
  const replayed = resumed.events.length;
  await moveTo(companies[0]!.id, 'US');
  await waitFor(() => resumed.events.slice(replayed).some((e) => e.data.params.uri === uriOf(norway.id)), 'a live notification after the replay');
  const ids = resumed.events.map((e) => Number(e.id));
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
    'ids grow',
  );
  assert.ok(ids[0]! > Number(lastSeen));

  // Resuming from the middle replays the rest, in order.
  resumed.close();
  await waitFor(() => resumed.ended(), 'closed');
  const rest = await storedIds(sid, ids[0]!);
  const again = await openStream(sid, { 'last-event-id': String(ids[0]) });
  await waitFor(() => again.events.length >= rest.length, 'the replay');
  assert.deepEqual(
    again.events.map((e) => Number(e.id)),
    rest,
  );
  again.close();
});

test('an unknown or malformed Last-Event-ID is a 400 that says to open the stream afresh', async () => {
  const sid = await initialize();
  for (const id of ['999999999', 'abc', '1.0']) {
    const res = await openStream(sid, { 'last-event-id': id });
    assert.equal(res.res.status, 400, id);
    const body = (await res.res.json()) as any;
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /Last-Event-ID .* names no message .*without Last-Event-ID/);
  }
});

test('the stream needs credentials, a session, its owner, and text/event-stream; it ends when the session is deleted', async () => {
  const sid = await initialize();
  const noKey = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
  assert.equal(noKey.status, 401);
  assert.match(noKey.headers.get('www-authenticate') ?? '', /resource_metadata=/);
  const noSession = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', ...headersOf(owner) } });
  assert.equal(noSession.status, 400);
  const unknown = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', ...headersOf(owner, { 'mcp-session-id': 'nope' }) } });
  assert.equal(unknown.status, 404);
  const notMine = await openStream(sid, {}, other);
  assert.equal(notMine.res.status, 403);
  assert.match(((await notMine.res.json()) as any).error.message, /another client/);
  const json = await fetch(`${base}/mcp`, { headers: { accept: 'application/json', ...headersOf(owner, { 'mcp-session-id': sid }) } });
  assert.equal(json.status, 406);
  const evil = await fetch(`${base}/mcp`, {
    headers: { accept: 'text/event-stream', origin: 'https://evil.example', ...headersOf(owner, { 'mcp-session-id': sid }) },
  });
  assert.equal(evil.status, 403);

  const stream = await openStream(sid);
  assert.equal(stream.res.status, 200);
  const del = await fetch(`${base}/mcp`, { method: 'DELETE', headers: headersOf(owner, { 'mcp-session-id': sid }) });
  assert.equal(del.status, 204);
  await waitFor(() => stream.ended(), 'the stream ended with its session');
});

test('SDK client: subscribes over HTTP and hears of its monitor on the stream it opened itself', async () => {
  const client = new Client({ name: 'sdk', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': owner.apiKey } } });
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  await client.connect(transport);
  assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true });
  const chile = await newMonitor('CL');
  await client.subscribeResource({ uri: uriOf(chile.id) });
  // The SDK opens the GET stream after initialize; what was published before it opened is announced as it opens.
  await moveTo(companies[3]!.id, 'CL');
  await waitFor(() => updated.length > 0, 'the notification');
  assert.deepEqual(updated, [uriOf(chile.id)]);
  await transport.terminateSession();
  await client.close();
});

test('SDK client: when its stream ends it reconnects with Last-Event-ID by itself and hears what came meanwhile', async () => {
  const resumedWith: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (init?.method === 'GET' && headers.get('last-event-id')) resumedWith.push(headers.get('last-event-id')!);
    return fetch(input, init);
  };
  const client = new Client({ name: 'sdk', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { 'x-api-key': owner.apiKey } },
    fetch: recording,
    reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  await client.connect(transport);
  const sid = transport.sessionId!;
  const italy = await newMonitor('IT');
  await client.subscribeResource({ uri: uriOf(italy.id) });
  await moveTo(companies[2]!.id, 'IT');
  await waitFor(() => updated.length > 0, 'the first notification');
  await t.app.events.nudge();
  await waitFor(async () => updated.length === (await storedIds(sid, 0)).length, 'every stored message heard');
  const seen = (await storedIds(sid, 0)).at(-1)!;
  // Another GET resuming from the newest message replaces the SDK's stream: the SDK sees it end.
  const taker = await openStream(sid, { 'last-event-id': String(seen) });
  assert.equal(taker.res.status, 200);
  taker.close();
  await moveTo(companies[2]!.id, 'US');
  await waitFor(() => resumedWith.length > 0 && updated.length > 1, 'the SDK resumed and heard the next one');
  assert.equal(resumedWith[0], String(seen), 'the SDK resumed from the last id it saw');
  assert.deepEqual([...new Set(updated)], [uriOf(italy.id)]);
  await transport.terminateSession();
  await client.close();
});

test('two instances on one database: subscribed through one, the stream on the other hears what the first publishes, and resumes on the first', async () => {
  const second = await openSecondPool(t.db);
  const b = await createTestApp({ db: second.db });
  try {
    const baseB = await b.app.listen({ host: '127.0.0.1', port: 0 });
    const sid = await initialize(); // on instance A (the test app)
    const spain = await newMonitor('ES');
    await subscribe(sid, uriOf(spain.id));
    const onB = await openStream(sid, {}, owner, baseB);
    assert.equal(onB.res.status, 200);
    await moveTo(companies[3]!.id, 'ES'); // published by A
    await waitFor(() => onB.events.length > 0, 'the notification on B');
    assert.equal(onB.events[0]!.data.params.uri, uriOf(spain.id));
    onB.close();
    await waitFor(() => onB.ended(), 'closed');
    const lastSeen = onB.events.at(-1)!.id!;
    await moveTo(companies[3]!.id, 'US');
    const onA = await openStream(sid, { 'last-event-id': lastSeen });
    assert.equal(onA.res.status, 200);
    await waitFor(() => onA.events.length > 0, 'the missed notification, on A');
    assert.deepEqual(
      onA.events.map((e) => Number(e.id)),
      await storedIds(sid, Number(lastSeen)),
    );
    assert.ok(onA.events.every((e) => e.data.params.uri === uriOf(spain.id)));
    onA.close();
  } finally {
    await b.close();
    if (second.separate) await second.db.close();
  }
});

test('draining ends the open streams at once: they hold no unfinished work and do not keep the shutdown waiting', async () => {
  const sid = await initialize();
  const stream = await openStream(sid);
  assert.equal(stream.res.status, 200);
  const outcome = await t.app.drain.settle(60_000);
  assert.equal(outcome.requestsCut, 0);
  await waitFor(() => stream.ended(), 'the stream ended');
});
