// Throughput of the rendered pass (`stacklens detect --render`): single-page apps served on
// 127.0.0.2, each crawled by fetchSite and opened again in headless Chromium, as the crawl does.
// A page is a 30 KB shell whose inline code injects its scripts (a 120 KB vendor bundle, an app
// script that builds a few hundred elements and sets globals, an analytics loader) and fetches
// a JSON config. Every site is its own host (a fresh browser context each).
// Run: node --import tsx bench/detect-render.ts [--seconds 20] [--concurrency 2] [--port 18610] [--chromium PATH]
// Prints rendered pages/s (wall clock), CPU per page (this process and every Chromium process,
// from /proc) and `uptime` before and after.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { loadCatalog } from '../src/detect/catalog.ts';
import { detect } from '../src/detect/detect.ts';
import { fetchSite, Politeness } from '../src/detect/collect/index.ts';
import type { DnsResolver } from '../src/detect/collect/dns.ts';
import { Renderer } from '../src/detect/collect/render.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
    port: { type: 'string', default: '18610' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const port = Number(values.port);

const words = 'platform team customers growth secure reliable insights pricing enterprise support integrations analytics workflow cloud data'.split(' ');
const shell = (i: number) => `<!doctype html><html><head><meta charset="utf-8"><title>Site ${i}</title>
<link rel="stylesheet" href="/static/app.css"></head><body><div id="root"></div>
${Array.from({ length: 120 }, (_, k) => `<noscript><a href="/page/${k}">${words[k % words.length]} ${words[(k * 7) % words.length]}</a></noscript>`).join('\n')}
<script>
  window.__CONFIG__ = { site: ${i}, features: ${JSON.stringify(words)} };
  ['/static/vendor.js', '/static/app-${i}.js', '/static/' + ['mato', 'mo'].join('') + '.js'].forEach(function (src) {
    var s = document.createElement('script'); s.src = src; s.async = false; document.head.appendChild(s);
  });
  fetch('/api/config.json').then(function (r) { return r.json(); }).then(function (c) { window.__CONFIG__.remote = c; });
</script>
${'<!-- padding -->'.repeat(800)}
</body></html>`;
const vendor = Array.from({ length: 1500 }, (_, k) => `function v${k}(a, b) { var x = a * ${k} + b; return x > ${k} ? x - b : [a, b, x].join('-'); }`).join(
  '\n',
);
const app = (i: number) => `(function () {
  var root = document.getElementById('root'), html = [];
  for (var k = 0; k < 300; k++) html.push('<div class="card"><h3>Item ' + k + '</h3><p>' + v${i % 1500}(k, 2) + '</p></div>');
  root.innerHTML = html.join('');
  window['_hj' + 'Settings'] = { hjid: ${i} };
})();`;

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const host = (req.headers.host ?? '').split(':')[0]!;
  const i = Number(/^site(\d+)\./.exec(host)?.[1] ?? 0);
  const send = (type: string, body: string) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  if (url === '/') send('text/html; charset=utf-8', shell(i));
  else if (url === '/static/vendor.js') send('application/javascript', vendor);
  else if (url.startsWith('/static/app-')) send('application/javascript', app(i));
  else if (url === '/static/matomo.js') send('application/javascript', `window['_' + 'paq'] = [];`);
  else if (url === '/api/config.json') send('application/json', JSON.stringify({ theme: 'light', items: words }));
  else {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((resolve) => server.listen(port, '127.0.0.2', resolve));

/** Every name is the fixture server. */
const resolver: DnsResolver = {
  resolve4: async () => ['127.0.0.2'],
  resolve6: async () => [],
  resolveMx: async () => [],
  resolveTxt: async () => [],
  resolveCname: async () => [],
  resolveNs: async () => [],
};

/** CPU seconds of a process and its descendants (reaped children included), from /proc. */
function treeCpuSeconds(root: number): number {
  const tick = 100; // USER_HZ on Linux
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(name), { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // the process ended while the list was read
    }
  }
  let total = 0;
  const visit = (pid: number) => {
    total += stats.get(pid)?.cpu ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) visit(child);
  };
  visit(root);
  return total / tick;
}

const catalog = loadCatalog();
const renderer = await Renderer.launch({ executablePath: values.chromium!, globals: catalog.jsGlobals, concurrency });
const opts = {
  dns: { resolver, records: false },
  network: { allowNetworks: ['127.0.0.2/32'], ports: 'any' as const },
  politeness: new Politeness(0),
  robots: false,
  jobBoards: false as const,
  render: renderer,
};
const target = (i: number) => `http://site${i}.bench:${port}/`;

// Warm-up: the browser's first contexts and the JIT.
for (let i = 0; i < concurrency * 2; i++) await fetchSite(target(1_000_000 + i), opts);

console.log(`uptime before: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
const outcomes = { ok: 0, cut: 0, failed: 0 };
let pages = 0,
  found = 0,
  next = 0,
  renderMs = 0;
const cpuStart = treeCpuSeconds(process.pid);
const ownStart = process.cpuUsage();
const start = performance.now();
const until = start + seconds * 1000;
// As the crawl: more sites in flight than render slots, so a slot never waits for a static fetch.
const lane = async () => {
  while (performance.now() < until) {
    const site = await fetchSite(target(next++), opts);
    pages++;
    outcomes[site.render!.outcome]++;
    renderMs += site.render!.ms;
    if (detect(site, catalog).some((d) => d.name === 'Hotjar')) found++;
  }
};
await Promise.all(Array.from({ length: concurrency * 2 }, lane));
const elapsed = (performance.now() - start) / 1000;
const cpu = treeCpuSeconds(process.pid) - cpuStart;
const own = process.cpuUsage(ownStart);
const ownSeconds = (own.user + own.system) / 1e6;
await renderer.close();
server.close();

console.log(`rendered: ${pages} pages in ${elapsed.toFixed(1)} s, ${concurrency} at once: ${(pages / elapsed).toFixed(2)} pages/s`);
console.log(
  `outcomes: ${outcomes.ok} ok, ${outcomes.cut} cut, ${outcomes.failed} failed; the app's global found on ${found}; mean page ${(renderMs / pages).toFixed(0)} ms`,
);
console.log(
  `CPU: ${cpu.toFixed(1)} s for this process and Chromium (${ownSeconds.toFixed(1)} s of it this process: crawl, routing, detection), ${((cpu * 1000) / pages).toFixed(0)} ms per page: ${(pages / cpu).toFixed(2)} pages per CPU-second`,
);
console.log(`uptime after: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
