// Change events: derived from the visit log as detection runs are recorded (the two-visit drop
// rule, failed fetches never a drop), from firmographic changes and news by any writer;
// published in commit order; read after a signed cursor, as a company's history, and live
// over Server-Sent Events resumed with Last-Event-ID. Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { recordDetections } from '../../src/services/observations.ts';
import type { SiteResult } from '../../src/schemas/detect.ts';
import type { EventRecord, EventsPage } from '../../src/schemas/events.ts';
import { publishEvents } from '../../src/store/events.ts';
import { AS_OF } from '../intelligence/world.ts';
import { FAILED_VISIT, googleAnalytics, OK_VISIT, worldWithGoogleAnalytics } from '../helpers/change-history.ts';
import { importRecords, insertNewsItem } from '../helpers/import-records.ts';

let t: TestApp;
let client: TestClient;
let other: TestClient;
before(async () => {
  t = await createTestApp();
  await insertWorld(t.db, worldWithGoogleAnalytics());
  client = await createTestClient(t.db, 'full');
  other = await createTestClient(t.db, 'full');
});
after(() => t.close());

const day = (n: number) => new Date(Date.parse(AS_OF) + n * 86_400_000);
const ok = OK_VISIT;
const failed = { ...FAILED_VISIT, reason: 'HTTP 503' };
const ga = googleAnalytics;
const visit = (domain: string, n: number, v: typeof ok | typeof failed, techs: SiteResult['technologies'] = []) =>
  recordDetections(t.db, [{ domain, technologies: techs, seenAt: day(n).toISOString(), visit: v }], { runId: `run-${n}` });

const get = async <T>(url: string, headers = client.headers) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as T };
};
/** Every event the client can read from the start, following cursors. */
async function allEvents(query = '', headers = client.headers): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let cursor = '';
  for (;;) {
    const { status, body } = await get<EventsPage>(`/api/events?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`, headers);
    assert.equal(status, 200, JSON.stringify(body));
    out.push(...body.events);
    cursor = body.cursor;
    if (!body.hasMore) return out;
  }
}

test('a detection run reveals adoptions and drops; a failed fetch is never a drop, one absence is not yet one', async () => {
  const domain = 'adopter.example';
  await visit(domain, -90, ok); // the baseline: nothing
  const adopted = await visit(domain, -60, ok, [ga()]);
  assert.equal(adopted.eventsAdded, 1);
  await visit(domain, -50, failed); // unreachable: says nothing about absence
  await visit(domain, -45, failed);
  assert.equal((await visit(domain, -40, ok)).eventsAdded, 0, 'one successful absence is not a drop');
  const dropped = await visit(domain, -30, ok);
  assert.equal(dropped.eventsAdded, 1, 'the second consecutive successful absence is');
  await t.app.events.nudge();

  const events = (await allEvents(`&companyDomain=${domain}`)).map((e) => [
    e.type,
    e.product?.id,
    e.product?.name,
    e.occurredBetween.earliest,
    e.occurredBetween.latest,
  ]);
  assert.deepEqual(events, [
    ['technology.adopted', 'prd_ga', 'Google Analytics', day(-90).toISOString(), day(-60).toISOString()],
    ['technology.dropped', 'prd_ga', 'Google Analytics', day(-60).toISOString(), day(-40).toISOString()],
  ]);
  const [adoption, drop] = await allEvents(`&companyDomain=${domain}`);
  assert.equal(adoption!.occurredAt, new Date((day(-90).getTime() + day(-60).getTime()) / 2).toISOString(), 'the midpoint of its bounds');
  assert.equal(adoption!.detectedAt, day(-60).toISOString());
  assert.equal(adoption!.confidence, 0.9);
  assert.equal(adoption!.evidence.hashes.length, 1);
  assert.equal(adoption!.evidence.url, `/api/companies/${domain}/products/prd_ga/evidence`);
  assert.equal(drop!.detectedAt, day(-30).toISOString(), 'detected by the confirming visit');
  assert.equal(drop!.confidence, 0.99);

  // Recording the same run again derives nothing new (stable ids).
  assert.equal((await visit(domain, -60, ok, [ga()])).eventsAdded, 0);
});

test('a version change is an event; a weak trace is no adoption (the claim after it is)', async () => {
  const domain = 'versions.example';
  await visit(domain, -90, ok);
  await visit(domain, -80, ok, [{ ...ga(), confidence: 0.2 }]);
  await visit(domain, -70, ok, [ga('4')]);
  await visit(domain, -60, ok, [ga('5')]);
  await t.app.events.nudge();
  const events = await allEvents(`&companyDomain=${domain}`);
  assert.deepEqual(
    events.map((e) => [e.type, e.fromVersion, e.toVersion, e.occurredBetween.earliest]),
    [
      ['technology.adopted', undefined, undefined, day(-80).toISOString()],
      ['technology.version_changed', '4', '5', day(-70).toISOString()],
    ],
  );
});

/** A job post naming Google Analytics (a job-board visit's detection): its excerpt is the post. */
const gaJobPost = (post: string) => ({
  ...ga(),
  confidence: 0.6,
  evidence: [{ source: 'job' as const, url: null, ruleId: 'Google Analytics/job/0', excerpt: `${post}: experience with Google Analytics`, weight: 0.6 }],
});
const jobsVisit = { outcome: 'ok' as const, kinds: ['jobs' as const], reason: null };

test('job posts naming a technology are hiring events with the counts of 30 and 180 days; a post seen again is not counted twice', async () => {
  const domain = 'hiring.example';
  const post = (n: number, techs: SiteResult['technologies']) =>
    recordDetections(t.db, [{ domain, technologies: techs, seenAt: day(n).toISOString(), visit: jobsVisit }], { runId: `jobs-${n}` });
  await post(-210, [gaJobPost('Data Analyst')]);
  await post(-25, [gaJobPost('Data Analyst'), gaJobPost('Growth Marketer')]); // the analyst post is still listed
  await post(-10, [gaJobPost('Marketing Ops')]);
  await t.app.events.nudge();
  const events = await allEvents(`&companyDomain=${domain}&types=technology.hiring`);
  assert.deepEqual(
    events.map((e) => [e.product?.id, e.detectedAt, e.jobPosts, e.evidence.hashes.length]),
    [
      ['prd_ga', day(-210).toISOString(), { last30Days: 1, last180Days: 1 }, 1],
      ['prd_ga', day(-25).toISOString(), { last30Days: 1, last180Days: 1 }, 1], // the -210 post is neither new nor within 180 days
      ['prd_ga', day(-10).toISOString(), { last30Days: 2, last180Days: 2 }, 1],
    ],
  );
  assert.equal(events[2]!.occurredBetween.earliest, day(-25).toISOString(), 'posted since the previous job-board visit');
  assert.equal(events[2]!.evidence.url, `/api/companies/${domain}/products/prd_ga/evidence`);
  const history = await get<{ content: EventRecord[] }>(`/api/companies/${domain}/history?types=technology.hiring`);
  assert.equal(history.body.content.length, 3);
  assert.deepEqual(
    (await allEvents(`&companyDomain=${domain}&types=technology.adopted`)).map((e) => e.type),
    [],
    'a job post alone after no baseline is no adoption',
  );
});

test('firmographic changes and news an import writes are events; the types filter picks them', async () => {
  const [company] = await t.db.query<{ id: string; domain: string; employee_band: string | null }>(
    'SELECT id, domain, employee_band FROM companies WHERE id NOT IN (SELECT company_id FROM site_visits) ORDER BY id LIMIT 1',
  );
  await importRecords(t.db, 'companies', [{ domain: company!.domain, employeeRange: '200 - 499', country: 'NO', name: 'Renamed Inc' }]);
  await importRecords(t.db, 'companies', [{ domain: company!.domain, description: 'no event for this' }]);
  const news = { id: 'fd_evt_1', companyDomain: company!.domain, date: day(-3).toISOString(), title: 'Raises a round', category: 'FUNDING' };
  await importRecords(t.db, 'feed', [news]);
  await importRecords(t.db, 'feed', [{ ...news, title: 'Raises a round (updated)' }]); // an item updated is no new event
  await t.app.events.nudge();
  const changed = await allEvents(`&companyDomain=${company!.domain}&types=company.changed&types=feed.item`);
  const summary = changed.map((e) => [e.type, e.field ?? e.feedItem?.title, e.to ?? null]).sort();
  assert.deepEqual(summary, [
    ['company.changed', 'country', 'NO'],
    ...(company!.employee_band === '200 - 499' ? [] : [['company.changed', 'sizeBand', '200 - 499']]),
    ['feed.item', 'Raises a round', null],
  ]);
  const added = changed.find((e) => e.type === 'feed.item')!;
  assert.equal(added.occurredAt, day(-3).toISOString());
  assert.deepEqual(added.feedItem, { id: 'fd_evt_1', title: 'Raises a round', category: 'FUNDING' });
});

test('cursors: every event once, in order; an edited or foreign cursor is a 400; bad filters are 4xx naming the field', async () => {
  const all = await allEvents();
  assert.ok(all.length >= 5);
  assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'no event twice');
  const first = await get<EventsPage>('/api/events?limit=1');
  const edited = first.body.cursor.slice(0, -2) + (first.body.cursor.endsWith('AA') ? 'AB' : 'AA');
  const bad = await get<{ message: string }>(`/api/events?cursor=${edited}`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^cursor: /);
  const foreign = await get<{ message: string }>(`/api/events?cursor=${first.body.cursor}`, other.headers);
  assert.equal(foreign.status, 400);
  assert.match(foreign.body.message, /another client/);
  assert.equal((await get<{ message: string }>('/api/events?types=technology.bought')).status, 400);
  assert.equal((await get<{ message: string }>('/api/events?limit=1001')).status, 400);
  const unknown = await get<{ message: string }>('/api/events?companyDomain=nowhere.example');
  assert.equal(unknown.status, 404);
  // The cursor of the end stays valid: nothing new yet, the same cursor back.
  const end = await get<EventsPage>(`/api/events?limit=1000`);
  const again = await get<EventsPage>(`/api/events?cursor=${end.body.cursor}`);
  assert.deepEqual([again.body.events.length, again.body.hasMore], [0, false]);
});

test('seq follows commit order: an event written by a transaction that commits late is not passed by a cursor', async () => {
  const end = (await get<EventsPage>('/api/events?limit=1000')).body.cursor;
  const [company] = await t.db.query<{ id: string }>('SELECT id FROM companies WHERE id NOT IN (SELECT company_id FROM site_visits) ORDER BY id LIMIT 1');
  // A writer that has written its event but not committed while another publishes.
  let release!: () => void;
  let written!: () => void;
  const wasWritten = new Promise<void>((r) => (written = r));
  const slow =
    t.db.engine === 'postgres'
      ? t.db.transaction(async (tx) => {
          await insertNewsItem(tx, { id: 'fd_late', companyId: company!.id, title: 'Late' });
          written();
          await new Promise<void>((r) => (release = r));
        })
      : (written(), (release = () => {}), Promise.resolve());
  await wasWritten;
  await insertNewsItem(t.db, { id: 'fd_early', companyId: company!.id, title: 'Early' });
  await publishEvents(t.db);
  const seen = await get<EventsPage>(`/api/events?cursor=${end}`);
  release();
  await slow;
  if (t.db.engine !== 'postgres') await insertNewsItem(t.db, { id: 'fd_late', companyId: company!.id, title: 'Late' });
  await publishEvents(t.db);
  const later = await get<EventsPage>(`/api/events?cursor=${seen.body.cursor}`);
  assert.deepEqual(
    [...seen.body.events, ...later.body.events].map((e) => e.feedItem?.title),
    ['Early', 'Late'],
  );
});

test("a company's history: newest first, bounded by from/to, 404 for an unknown company", async () => {
  const { status, body } = await get<{ content: EventRecord[]; totalElements: number }>('/api/companies/adopter.example/history');
  assert.equal(status, 200);
  assert.deepEqual(
    body.content.map((e) => e.type),
    ['technology.dropped', 'technology.adopted'],
  );
  const from = day(-55).toISOString().slice(0, 10);
  const windowed = await get<{ content: EventRecord[] }>(`/api/companies/adopter.example/history?from=${from}`);
  assert.deepEqual(
    windowed.body.content.map((e) => e.type),
    ['technology.dropped'],
  );
  // The drop happened about day -50 (between -60 and -40); the adoption about day -75.
  const until = await get<{ content: EventRecord[] }>(`/api/companies/adopter.example/history?to=${day(-55).toISOString().slice(0, 10)}`);
  assert.deepEqual(
    until.body.content.map((e) => e.type),
    ['technology.adopted'],
  );
  assert.equal((await get('/api/companies/nowhere.example/history')).status, 404);
  assert.equal((await get('/api/companies/adopter.example/history?from=2026-02-30')).status, 400);
});

test('the live stream sends new events as they are published and resumes after Last-Event-ID', async () => {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const [company] = await t.db.query<{ id: string }>('SELECT id FROM companies WHERE id NOT IN (SELECT company_id FROM site_visits) ORDER BY id LIMIT 1');
  const addNews = async (id: string) => {
    await insertNewsItem(t.db, { id, companyId: company!.id, title: id });
    await t.app.events.nudge();
  };
  /** Reads messages of a stream until `n` events have come (the first `n`); `onOpen` runs once the stream says it is open. */
  async function read(headers: Record<string, string>, n: number, onOpen?: () => Promise<void>): Promise<{ id: string; title: string }[]> {
    const controller = new AbortController();
    const res = await fetch(`${address}/api/events/stream?types=feed.item`, { headers, signal: controller.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const got: { id: string; title: string }[] = [];
    let buffer = '';
    let opened = false;
    while (got.length < n) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (message.startsWith(':')) {
          if (!opened && onOpen) ((opened = true), void onOpen().catch(() => {}));
          continue;
        }
        const id = /^id: (.*)$/m.exec(message)![1]!;
        const data = JSON.parse(/^data: (.*)$/m.exec(message)![1]!) as EventRecord;
        assert.equal(/^event: (.*)$/m.exec(message)![1], 'feed.item');
        got.push({ id, title: data.feedItem!.title });
      }
    }
    await reader.cancel();
    controller.abort();
    return got.slice(0, n);
  }
  // Opened without a position: only what is published from now on (one item, added once the stream is open).
  const [live] = await read(client.headers, 1, () => addNews(`fd_live_${Date.now()}`));
  assert.match(live!.title, /^fd_live_/);
  // Two more while nobody listens; resuming after the first gives exactly them, first and in order.
  await addNews('fd_missed_1');
  await addNews('fd_missed_2');
  const resumed = await read({ ...client.headers, 'last-event-id': live!.id }, 2, () => addNews(`fd_after_${Date.now()}`));
  assert.deepEqual(
    resumed.map((m) => m.title),
    ['fd_missed_1', 'fd_missed_2'],
  );
  const refused = await fetch(`${address}/api/events/stream`, { headers: { ...client.headers, 'last-event-id': 'nope' } });
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { message: string }).message, /^Last-Event-ID: /);
});
