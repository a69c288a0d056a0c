// Signals benchmark: events derived per second from a detection run, and webhook delivery.
//
//   node --import tsx bench/signals.ts [--companies 10000] [--deliveries 2000]
//   BENCH_DATABASE_URL=postgres://… node --import tsx bench/signals.ts   (PostgreSQL; default: in-memory PGlite)
//
// 1. Derivation: a baseline run over N companies (no product), then a run in which a tenth
//    adopt a product, then two runs in which half of those are absent again (the drop needs
//    both). Each run is recorded through recordDetections in batches of 500 sites, as
//    `stacklens detect --save` does; printed: sites/s, events derived, events/s of each run.
// 2. Delivery: D events published to one webhook endpoint whose receiver (same machine)
//    answers 204 at once; printed: deliveries/s from the publish to the last acknowledgement,
//    and the p50/p95 of publish → acknowledgement.
// The load average is printed with the figures: compare figures of one run, not across runs.
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { createClient } from '../src/auth/clients.ts';
import { recordDetections } from '../src/services/observations.ts';
import { createWebhook } from '../src/services/webhooks.ts';
import type { SiteResult } from '../src/schemas/detect.ts';

const { values } = parseArgs({ options: { companies: { type: 'string', default: '10000' }, deliveries: { type: 'string', default: '2000' } } });
const N = Number(values.companies);
const D = Number(values.deliveries);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const db = await openDb({ databaseUrl: process.env.BENCH_DATABASE_URL, poolSize: 8 });
await migrate(db);
const engine = db.engine;
console.log(`engine ${engine}, ${N} companies, ${D} deliveries; load ${load()}`);

// 1. Derivation ------------------------------------------------------------------------------
await db.query(`INSERT INTO industries (id, name) VALUES ('ind_bench', 'Bench') ON CONFLICT DO NOTHING`);
await db.query(`INSERT INTO categories (id, name) VALUES ('cat_web_analytics', 'Web Analytics') ON CONFLICT DO NOTHING`);
await db.query(`INSERT INTO vendors (id, domain, name) VALUES ('ven_google', 'google.com', 'Google') ON CONFLICT DO NOTHING`);
await db.query(
  `INSERT INTO products (id, vendor_id, category_id, name) VALUES ('prd_ga', 'ven_google', 'cat_web_analytics', 'Google Analytics') ON CONFLICT DO NOTHING`,
);
const ga = {
  name: 'Google Analytics',
  vendorDomain: 'google.com',
  category: 'Web Analytics',
  confidence: 0.9,
  evidence: [{ source: 'script' as const, url: 'https://x.example/', ruleId: 'Google Analytics/scriptSrc/0', excerpt: '<script src="ga.js">', weight: 0.9 }],
};
const visit = { outcome: 'ok' as const, kinds: ['web' as const], reason: null };
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 30 * 86_400_000).toISOString();
/** Run r: which companies have the product. */
const has = (i: number, r: number) => (r === 0 ? false : r === 1 ? i % 10 === 0 : i % 20 !== 0 && i % 10 === 0);
for (let r = 0; r < 4; r++) {
  const started = performance.now();
  let events = 0;
  for (let from = 0; from < N; from += 500) {
    const sites: SiteResult[] = [];
    for (let i = from; i < Math.min(N, from + 500); i++)
      sites.push({ domain: `c${i}.bench.example`, seenAt: day(r), technologies: has(i, r) ? [ga] : [], visit } as SiteResult);
    events += (await recordDetections(db, sites, { runId: `bench-${r}`, createCompanies: true })).eventsAdded;
  }
  const s = (performance.now() - started) / 1000;
  console.log(
    `run ${r}: ${N} sites in ${s.toFixed(1)} s (${Math.round(N / s)} sites/s), ${events} events derived (${Math.round(events / s)} events/s); load ${load()}`,
  );
}

// 2. Delivery --------------------------------------------------------------------------------
const acked = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    acked.set(String(req.headers['webhook-id']), performance.now());
    res.writeHead(204).end();
  });
});
receiver.keepAliveTimeout = 5000;
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32' });
const app = await buildApp({ config, db, webhookTuning: { pollingIntervalSeconds: 0.5 } });
await app.ready();
await app.webhooks.start();
await app.events.nudge(); // the derivation's events are published before the measured ones
const client = await createClient(db, { name: 'bench', plan: 'full' });
await createWebhook(db, client.clientId, { url, eventTypes: ['feed.item'] }, config);
const [company] = await db.query<{ id: string }>('SELECT id FROM companies ORDER BY id LIMIT 1');
await db.query(
  `INSERT INTO feed_items (id, company_id, published_at, title) SELECT 'fd_bench_' || g, $1, now(), 'bench ' || g FROM generate_series(1, $2::int) g`,
  [company!.id, D],
);
const published = performance.now();
await app.events.nudge();
while (acked.size < D) await new Promise((r) => setTimeout(r, 20));
const seconds = (performance.now() - published) / 1000;
const latencies = [...acked.values()].map((t) => t - published).sort((a, b) => a - b);
const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
console.log(
  `delivery: ${D} events in ${seconds.toFixed(1)} s (${Math.round(D / seconds)} deliveries/s); publish → ack p50 ${(pct(0.5) / 1000).toFixed(2)} s, p95 ${(pct(0.95) / 1000).toFixed(2)} s; load ${load()}`,
);
await app.close();
receiver.close();
await db.close();
