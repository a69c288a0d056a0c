// First meaningful paint of the web console on the default demo world (goal ≤ 1 s), and
// the JavaScript it loads. The real app (in-process, in-memory PGlite) with the demo world
// `npm start` generates (DEMO_COMPANIES, default 5000), a signed-in person, headless Chromium:
// each run opens /console in a fresh page with the session cookie and times
//   - first contentful paint (the frame),
//   - first meaningful paint: the company search's first result row on screen,
//   - the benchmark tab: the usage chart's canvas on screen (uPlot loads on demand),
// and adds up the JavaScript bytes of the first load (raw, and gzipped as a server would send).
// Run: node --import tsx bench/console-paint.ts [runs=10]   (BENCH_PORT 19320, CHROMIUM_PATH).
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createTestApp } from '../test/helpers/app.ts';
import { ensureDemoWorld } from '../src/ingest/demo.ts';
import { createUser } from '../src/services/console-users.ts';

const PORT = Number(process.env.BENCH_PORT ?? 19320);
const RUNS = Number(process.argv[2] ?? 10);
const COMPANIES = process.env.DEMO_COMPANIES ?? '5000';
const FIRST_ROW = `new Promise((resolve) => { const seen = () => document.querySelector('table tbody tr a');
  if (seen()) return resolve(performance.now());
  new MutationObserver((_m, o) => { if (seen()) { o.disconnect(); requestAnimationFrame(() => resolve(performance.now())); } }).observe(document, { subtree: true, childList: true }); })`;

const t = await createTestApp({ env: { SEED_DEMO: 'true', DEMO_COMPANIES: COMPANIES } });
const started = Date.now();
await ensureDemoWorld(t.db, t.app.config, () => {});
console.error(`demo world of ${COMPANIES} companies in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await createUser(t.db, { email: 'bench@console.test', name: 'Bench', role: 'analyst', password: 'bench-password-1' });
await t.app.listen({ host: '127.0.0.1', port: PORT });
const base = `http://127.0.0.1:${PORT}`;
const signIn = await fetch(`${base}/console/api/session`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench@console.test', password: 'bench-password-1' }),
});
const cookie = /stacklens_session=([^;]+)/u.exec(signIn.headers.get('set-cookie') ?? '')![1]!;
const { user, csrfToken } = (await signIn.json()) as { user: { id: string }; csrfToken: string };
const domain = (
  (await (
    await fetch(`${base}/api/companies/search`, {
      method: 'POST',
      headers: { cookie: `stacklens_session=${cookie}`, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: '{"size":1}',
    })
  ).json()) as { content: { domain: string }[] }
).content[0]!.domain;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
const fcp: number[] = [];
const fmp: number[] = [];
const chart: number[] = [];
let js = { raw: 0, gz: 0, files: 0 };
for (let i = 0; i < RUNS; i++) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  await context.addCookies([{ name: 'stacklens_session', value: cookie, url: base }]);
  const page = await context.newPage();
  const scripts: Promise<Buffer>[] = [];
  const apiTimes: string[] = [];
  page.on('requestfinished', (r) => {
    if (r.url().includes('/api/')) apiTimes.push(`${r.method()} ${new URL(r.url()).pathname} ${Math.round(r.timing().responseEnd)} ms`);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r.body());
  });
  await page.goto(`${base}/console#/search`, { waitUntil: 'commit' });
  fmp.push((await page.evaluate(FIRST_ROW)) as number);
  fcp.push((await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")) as number);
  if (process.env.BENCH_VERBOSE) console.error(`run ${i}: first row at ${Math.round(fmp[fmp.length - 1]!)} ms; ${apiTimes.join(', ')}`);
  if (i === 0) {
    const bodies = await Promise.all(scripts);
    js = { raw: bodies.reduce((n, b) => n + b.length, 0), gz: bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0), files: bodies.length };
  }
  const t0 = (await page.evaluate('performance.now()')) as number;
  await page.goto(`${base}/console#/companies/${domain}/benchmark`);
  await page.locator('.chart canvas').first().waitFor();
  chart.push(((await page.evaluate('performance.now()')) as number) - t0);
  await context.close();
}
await browser.close();
await t.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => Math.max(...xs);
console.log(
  JSON.stringify({
    companies: Number(COMPANIES),
    runs: RUNS,
    user: user.id,
    firstContentfulPaintMs: { median: Math.round(median(fcp)), max: Math.round(max(fcp)) },
    firstMeaningfulPaintMs: { median: Math.round(median(fmp)), max: Math.round(max(fmp)), goal: 1000 },
    benchmarkChartMs: { median: Math.round(median(chart)), max: Math.round(max(chart)) },
    firstLoadJs: { files: js.files, rawKB: +(js.raw / 1024).toFixed(1), gzipKB: +(js.gz / 1024).toFixed(1), goalGzipKB: 200 },
  }),
);
