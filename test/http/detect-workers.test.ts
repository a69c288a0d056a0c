// Detection runs off the event loop: while hostile pages are being matched on the detection
// workers, /healthz still answers in milliseconds; a detection that outlives DETECT_TIMEOUT_MS
// is cut (its worker terminated and replaced) and the caller gets the documented 422 at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { detectTechnologies } from '../../src/services/detect.ts';
import type { SiteArtifacts } from '../../src/detect/types.ts';
import { adversarialHtml, adversarialInlineScript, adversarialJobPost } from '../helpers/adversarial-page.ts';

let t: TestApp;
let client: TestClient;
let base: string;
before(async () => {
  t = await createTestApp({ env: { DETECT_BODY_LIMIT_BYTES: String(4 * 1024 * 1024), DETECT_TIMEOUT_MS: '120000', DETECT_WORKERS: '2', BULKHEAD_AI: '4' } });
  client = await createTestClient(t.db, 'full');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(() => t.close());

const catalog = builtInCatalog();

/** Probes the URL every 10 ms until told to stop, then posts the latencies (ms). A failed probe counts as 60 s. */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
parentPort.once('message', () => (running = false));
(async () => {
  const latencies = [];
  while (running) {
    const started = performance.now();
    try {
      const res = await fetch(workerData, { signal: AbortSignal.timeout(60000) });
      await res.arrayBuffer();
      latencies.push(res.status === 200 ? performance.now() - started : 60000);
    } catch {
      latencies.push(60000);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  parentPort.postMessage(latencies);
})();
`;

test('/healthz answers in under 50 ms (95 % of probes; none waits for a detection) while 4 detections of 512 KiB hostile pages run', async () => {
  // Started as `stacklens serve` starts it: the threads are up before the first request.
  await t.app.detector.start();
  const pages = [adversarialHtml(catalog), adversarialInlineScript(catalog), adversarialHtml(catalog), adversarialInlineScript(catalog)];
  // The probe runs on a thread of its own, as a load balancer's would: a probe sent from this
  // thread could not even be sent while this thread's event loop was blocked.
  const prober = new Worker(PROBER, { eval: true, workerData: `${base}/healthz` });
  const probed = new Promise<number[]>((resolve, reject) => {
    prober.once('message', resolve);
    prober.once('error', reject);
  });
  const results = await Promise.all(
    pages.map(async (html, i) => {
      const res = await fetch(`${base}/api/detect`, {
        method: 'POST',
        headers: { ...client.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ artifacts: { domain: `hostile${i}.example`, html } }),
      });
      return { status: res.status, body: await res.text() };
    }),
  );
  prober.postMessage('stop');
  const latencies = await probed;
  assert.ok(latencies.length >= 10, `${latencies.length} probes`);
  // Nearly every probe answers in under 50 ms. Not every one: on a shared machine the scheduler
  // stalls a single probe now and then with no detection running at all (measured at a load of
  // 14 on 2 cores: 208 ms at worst over 959 probes of an idle app). A probe that waited for a
  // detection would wait for all of it: seconds.
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))]!;
  const worst = sorted.at(-1)!;
  assert.ok(p95 < 50, `/healthz p95 ${Math.round(p95)} ms (${latencies.length} probes)`);
  assert.ok(worst < 1000, `/healthz took up to ${Math.round(worst)} ms`);
  for (const r of results) assert.equal(r.status, 200, r.body.slice(0, 300));
});

test('a detection past its deadline gets the 422 timeout at once; its worker is terminated and replaced', async () => {
  const small: SiteArtifacts = { domain: 'shop.example', pages: [{ url: 'https://shop.example/', html: '<meta name="generator" content="WordPress 6.5.2">' }] };
  const deps = (timeoutMs: number, site: SiteArtifacts) => ({ timeoutMs, detector: t.app.detector, fetch: async () => site });
  // Warm: the pool's threads are started and have compiled the catalog.
  assert.ok((await detectTechnologies({ url: 'shop.example' }, deps(60_000, small))).technologies.some((x) => x.name === 'WordPress'));
  const before = t.app.detector.threadIds;
  assert.ok(before.length >= 1);
  // The most a site may carry: 20 hostile pages and 100 hostile job posts, far more than 50 ms of matching.
  const heavy: SiteArtifacts = {
    domain: 'hostile.example',
    pages: Array.from({ length: 20 }, (_, i) => ({
      url: `https://hostile.example/${i}`,
      html: i % 2 ? adversarialInlineScript(catalog) : adversarialHtml(catalog),
    })),
    jobs: Array.from({ length: 100 }, () => adversarialJobPost(catalog)),
  };
  const started = performance.now();
  await assert.rejects(detectTechnologies({ url: 'hostile.example' }, deps(50, heavy)), (err: Error & { status?: number }) => {
    assert.equal(err.status, 422);
    assert.match(err.message, /^url: hostile\.example: the detection did not finish within 50 ms \(timeout\)$/);
    return true;
  });
  const waited = performance.now() - started;
  assert.ok(waited < 1000, `answered after ${Math.round(waited)} ms`);
  // The busy worker was terminated (not left matching) and the pool still detects.
  const afterwards = await detectTechnologies({ url: 'shop.example' }, deps(60_000, small));
  assert.ok(afterwards.technologies.some((x) => x.name === 'WordPress'));
  const now = t.app.detector.threadIds;
  assert.ok(
    before.some((id) => !now.includes(id)),
    `threads before ${before}, after ${now}`,
  );
  assert.ok(now.length >= 1);
});
