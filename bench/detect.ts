// Throughput of the technology detector on one core: the labelled fixture pages padded to a
// realistic home-page size (50-100 KB of menus, product cards, links, images and text, inserted
// before </body>), plus their headers, cookies, DNS records and job posts.
// Run: node --import tsx bench/detect.ts [--seconds 10] [--min-kb 50] [--max-kb 100] [--workers N]
// Prints pages/s, pages per CPU-second, MB/s, the catalog compile time and `uptime` (the
// machine's load while measuring). bench/detect-outputs.ts holds a change to the matcher to the
// same output.
// With --workers N, also the pages/s of the worker pool `stacklens detect` uses for files (N
// threads, each site copied to a thread and its detections back, as the CLI does).
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadCatalog } from '../src/detect/catalog.ts';
import { detect } from '../src/detect/detect.ts';
import { DetectorPool } from '../src/services/detect-pool.ts';
import { paddedFixtureSites } from './detect-pages.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'min-kb': { type: 'string', default: '50' },
    'max-kb': { type: 'string', default: '100' },
    workers: { type: 'string', default: '0' },
  },
});
const seconds = Number(values.seconds),
  minKb = Number(values['min-kb']),
  maxKb = Number(values['max-kb']);

const sites = paddedFixtureSites(minKb, maxKb);
const bytes = sites.reduce((n, s) => n + s.pages.reduce((m, p) => m + (p.html?.length ?? 0), 0), 0);

const t0 = performance.now();
const catalog = loadCatalog();
const compileMs = performance.now() - t0;

for (const s of sites) detect(s, catalog); // warm-up: JIT and the lazily compiled regexes
let pages = 0,
  chars = 0,
  detections = 0;
const cpuStart = process.cpuUsage();
const start = performance.now();
const until = start + seconds * 1000;
while (performance.now() < until) {
  for (const s of sites) {
    detections += detect(s, catalog).length;
    pages++;
  }
  chars += bytes;
}
const elapsed = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

console.log(`catalog: ${catalog.technologies.length} technologies, loaded and compiled in ${compileMs.toFixed(0)} ms`);
console.log(
  `pages: ${sites.length} fixture sites padded to ${minKb}-${maxKb} KB (mean ${(bytes / sites.length / 1024).toFixed(0)} KB of HTML), with headers, cookies, DNS and job posts`,
);
console.log(
  `throughput: ${(pages / elapsed).toFixed(0)} pages/s on one core, ${(chars / elapsed / 1e6).toFixed(1)} MB/s of HTML, ${(detections / pages).toFixed(1)} detections per page (${pages} pages in ${elapsed.toFixed(1)} s)`,
);
// On a shared machine the wall clock counts time other processes held the core; CPU time does not.
console.log(
  `per CPU-second: ${(pages / cpuSeconds).toFixed(0)} pages (${cpuSeconds.toFixed(1)} s of CPU in ${elapsed.toFixed(1)} s of wall time: ${Math.round((100 * cpuSeconds) / elapsed)}% of one core)`,
);
console.log(`uptime: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);

const workers = Number(values.workers);
if (workers > 0) {
  const pool = new DetectorPool(workers, { background: false });
  // Warm-up: every thread started, its catalog compiled and its JIT warm.
  await Promise.all(sites.map((site) => pool.run({ site, minConfidence: 0.5 })));
  let done = 0;
  // process.cpuUsage counts every thread of the process: the workers' matching and the copying of sites to them.
  const poolCpuStart = process.cpuUsage();
  const poolStart = performance.now();
  const poolUntil = poolStart + seconds * 1000;
  // As the CLI: a bounded number of sites in flight per thread.
  let next = 0;
  const lane = async () => {
    while (performance.now() < poolUntil) {
      await pool.run({ site: sites[next++ % sites.length]!, minConfidence: 0.5 });
      done++;
    }
  };
  await Promise.all(Array.from({ length: workers * 8 }, lane));
  const poolSeconds = (performance.now() - poolStart) / 1000;
  const poolCpu = process.cpuUsage(poolCpuStart);
  const poolCpuSeconds = (poolCpu.user + poolCpu.system) / 1e6;
  await pool.close();
  console.log(`worker pool: ${(done / poolSeconds).toFixed(0)} pages/s on ${workers} threads (${done} pages in ${poolSeconds.toFixed(1)} s)`);
  console.log(
    `worker pool per CPU-second: ${(done / poolCpuSeconds).toFixed(0)} pages (${poolCpuSeconds.toFixed(1)} s of CPU in ${poolSeconds.toFixed(1)} s: ${(poolCpuSeconds / poolSeconds).toFixed(2)} cores busy)`,
  );
  console.log(`uptime: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
}
