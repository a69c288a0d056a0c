// Memory of the company-products CSV export: a company with N products (default 20,000)
// is exported over a real HTTP socket while RSS and heap are sampled every 50 ms.
// Run: node --import tsx bench/export-csv.ts [products...]   (PORT 18130; DATABASE_URL
// selects PostgreSQL, otherwise in-memory PGlite). Results go to stdout as JSON lines.
import http from 'node:http';
import { buildApp } from '../src/app.ts';
import { createTestDb } from '../test/helpers/db.ts';
import { testConfig } from '../test/helpers/app.ts';
import { createTestClient } from '../test/helpers/auth.ts';
import { insertLargeCompany } from '../test/helpers/large-company.ts';

const PORT = Number(process.env.BENCH_PORT ?? 18130);
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);

async function run(products: number) {
  const db = await createTestDb();
  const client = await createTestClient(db, 'full');
  await insertLargeCompany(db, products);
  await db.query('ANALYZE');
  const app = await buildApp({ config: testConfig(), db });
  await app.listen({ host: '127.0.0.1', port: PORT });
  global.gc?.();
  const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  // Live heap: heapUsed right after a forced GC (needs --expose-gc), sampled every 500 ms;
  // flat live heap across sizes = nothing retained per row.
  let peakLiveHeap = before.heapUsed;
  let ticks = 0;
  const timer = setInterval(() => {
    if (++ticks % 10 === 0 && global.gc) {
      global.gc();
      peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
    }
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const started = Date.now();
  const { bytes, lines } = await new Promise<{ bytes: number; lines: number }>((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: PORT,
        path: '/api/companies/big.com/products?export=true',
        headers: { 'x-api-key': client.apiKey, accept: 'text/csv', 'x-on-behalf-of-user': 'bench@example.com' },
      },
      (res) => {
        let b = 0;
        let l = 0;
        res.on('data', (chunk: Buffer) => {
          b += chunk.length;
          for (const byte of chunk) if (byte === 10) l++;
        });
        res.on('end', () => resolve({ bytes: b, lines: l }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
  clearInterval(timer);
  const ms = Date.now() - started;
  await app.close();
  await db.close();
  console.log(
    JSON.stringify({
      engine: db.engine,
      products,
      rows: lines - 1,
      mb: mb(bytes),
      seconds: ms / 1000,
      rssBeforeMb: mb(before.rss),
      rssPeakMb: mb(peakRss),
      rssGrowthMb: mb(peakRss - before.rss),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(peakHeap),
      liveHeapPeakMb: mb(peakLiveHeap),
    }),
  );
}

for (const n of sizes.length > 0 ? sizes : [20_000]) await run(n);
