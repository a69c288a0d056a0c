// The rendered pass (fetchSite with a Renderer: headless Debian Chromium through playwright-core)
// against a local fixture web server (127.0.0.2) and DNS server: a single-page app whose loader
// is injected by inline code, a page reaching for private addresses, a page that never settles,
// a page whose main thread spins, a navigation robots.txt forbids. Without Chromium this file
// fails loudly (apt-get install -y chromium, or CHROMIUM_PATH), never skips.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fetchSite, type FetchSiteOptions } from '../../src/detect/collect/index.ts';
import { Renderer, RenderUnavailableError } from '../../src/detect/collect/render.ts';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect, RENDERED_EXCERPT } from '../../src/detect/detect.ts';
import type { SiteArtifacts } from '../../src/detect/types.ts';
import { visitCoverage } from '../../src/detect/visit.ts';
import { html, localFetchOptions, startDnsStub, startFixtureServer, type DnsStub, type FixtureServer } from '../helpers/collect.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const catalog = loadCatalog();
let dns: DnsStub, web: FixtureServer, renderer: Renderer;
/** A TCP listener on 127.0.0.1 that counts every connection: the private address pages reach for. */
let privateConnections = 0;
let privateServer: net.Server;
let privatePort = 0;

/** The loader's path is built at run time, so no static scan of the page can read it. */
const injectLoader = `var s = document.createElement('script'); s.src = '/static/' + ['mato', 'mo'].join('') + '.js'; document.head.appendChild(s);`;

before(async () => {
  privateServer = net.createServer((socket) => {
    privateConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => privateServer.listen(0, '127.0.0.1', resolve));
  privatePort = (privateServer.address() as net.AddressInfo).port;
  dns = await startDnsStub({
    'spa.test': { A: ['127.0.0.2'] },
    'leaky.test': { A: ['127.0.0.2'] },
    'busy.test': { A: ['127.0.0.2'] },
    'spin.test': { A: ['127.0.0.2'] },
    'nav.test': { A: ['127.0.0.2'] },
    'one.test': { A: ['127.0.0.2'] },
    'two.test': { A: ['127.0.0.2'] },
    'tracker.test': { A: ['127.0.0.2'] },
    'intranet.test': { A: ['10.1.2.3'] },
  });
  const js = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/javascript' });
    res.end(body);
  };
  web = await startFixtureServer({
    'spa.test /': html(`<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>${injectLoader}</script></body></html>`),
    // The loader sets the globals under computed names: only a page that ran it has them.
    '/static/matomo.js': js(
      `window['_' + 'paq'] = []; window['_hj' + 'Settings'] = { hjid: 1 }; document.getElementById('root') && (document.getElementById('root').textContent = 'ready');`,
    ),
    'leaky.test /': (req, res) =>
      html(`<!doctype html><html><body><script>
        fetch('http://127.0.0.1:${privatePort}/secret').catch(function () {});
        var a = document.createElement('script'); a.src = 'http://127.0.0.1:${privatePort}/evil.js'; document.head.appendChild(a);
        var b = document.createElement('script'); b.src = 'http://intranet.test:${privatePort}/x.js'; document.head.appendChild(b);
        var c = document.createElement('script'); c.src = '/to-private.js'; document.head.appendChild(c);
        try { new WebSocket('ws://127.0.0.1:${privatePort}/ws'); } catch (e) {}
        ${injectLoader}
      </script></body></html>`)(req, res),
    'leaky.test /to-private.js': (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${privatePort}/redirected.js` });
      res.end();
    },
    'busy.test /': html(`<!doctype html><html><body><script>${injectLoader}
      setInterval(function () { fetch('/poll?' + Date.now()).catch(function () {}); }, 50);</script></body></html>`),
    'busy.test /poll': html('{}'),
    'spin.test /': html(`<!doctype html><html><body><script>${injectLoader}
      window.addEventListener('load', function () { setTimeout(function () { for (;;) {} }, 50); });</script></body></html>`),
    // Two sites embedding one third party, which counts its visits in its cookie and storage.
    'one.test /': html(
      `<!doctype html><html><body><script>var f = document.createElement('iframe'); f.src = 'http://tracker.test:' + location.port + '/frame'; document.body.appendChild(f);</script><script>fetch('/mine?stored=' + localStorage.getItem('mine') + '&cookie=' + encodeURIComponent(document.cookie)); localStorage.setItem('mine', 'one'); document.cookie = 'first=one';</script></body></html>`,
    ),
    'two.test /': html(
      `<!doctype html><html><body><script>var f = document.createElement('iframe'); f.src = 'http://tracker.test:' + location.port + '/frame'; document.body.appendChild(f);</script></body></html>`,
    ),
    'tracker.test /frame': html(`<!doctype html><html><body><script>
      var n = Number(localStorage.getItem('visits') || 0) + 1; localStorage.setItem('visits', String(n));
      fetch('/seen?visits=' + n + '&cookie=' + encodeURIComponent(document.cookie)); document.cookie = 'tracked=1';</script></body></html>`),
    'nav.test /robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: Stacklens\nDisallow: /private\n');
    },
    'nav.test /': html(`<!doctype html><html><body><script>location.href = '/private';</script></body></html>`),
    'nav.test /private': html('<p>private</p>'),
  });
  renderer = await Renderer.launch({ executablePath: CHROMIUM, globals: catalog.jsGlobals, timeoutMs: 5000, concurrency: 2 });
});

after(async () => {
  await renderer?.close();
  await Promise.all([dns?.close(), web?.close(), new Promise((resolve) => privateServer?.close(resolve))]);
});

const opts = (extra: FetchSiteOptions = {}): FetchSiteOptions =>
  localFetchOptions(dns, { dns: { servers: [dns.server], records: false }, jobBoards: false, render: renderer, ...extra });

const ROOT = path.resolve(import.meta.dirname, '../..');
function stacklens(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DETECT_ALLOW_PRIVATE_NETWORKS: 'false' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const names = (site: SiteArtifacts) => detect(site, catalog).map((d) => d.name);
const fetchedOnly = (site: SiteArtifacts): SiteArtifacts => ({ ...site, pages: site.pages.filter((p) => !p.rendered) });

test('a single-page app: the rendered pass finds the loader its inline code injects and the globals it sets, which the static pass misses', async () => {
  const site = await fetchSite(web.url('spa.test'), opts());
  assert.equal(site.render?.outcome, 'ok', JSON.stringify(site.render));
  const rendered = site.pages.find((p) => p.rendered);
  assert.ok(rendered, 'the rendered page joins the site');
  assert.deepEqual(rendered.scripts, [web.url('spa.test', '/static/matomo.js')]);
  assert.match(rendered.html!, /ready<\/div>/, 'the DOM after the scripts ran');

  const fetched = names(fetchedOnly(site));
  assert.ok(!fetched.includes('Matomo') && !fetched.includes('Hotjar'), `the static pass sees neither: ${fetched}`);
  const detections = detect(site, catalog);
  const matomo = detections.find((d) => d.name === 'Matomo');
  const hotjar = detections.find((d) => d.name === 'Hotjar');
  assert.ok(matomo && hotjar, `the rendered pass finds both: ${detections.map((d) => d.name)}`);
  assert.ok(
    hotjar.evidence.some((e) => e.ruleId === 'Hotjar/js/_hjSettings' && e.excerpt.startsWith(RENDERED_EXCERPT)),
    'the global, read in the page, is evidence marked as rendered',
  );
  assert.ok(matomo.evidence.every((e) => e.excerpt.startsWith(RENDERED_EXCERPT)));
  assert.deepEqual(visitCoverage(site), visitCoverage(fetchedOnly(site)), 'the rendered page never changes what the visit covers');
  const loads = web.requests.filter((r) => r.host === 'spa.test' && r.path === '/');
  assert.equal(loads.length, 1, 'the browser opens the response already fetched: the page is requested once');
});

test('requests of a rendered page to private addresses are refused (literal, by name, by redirect, WebSocket); allowed when the policy allows them', async () => {
  privateConnections = 0;
  const site = await fetchSite(web.url('leaky.test'), opts());
  assert.equal(privateConnections, 0, 'nothing reached the private address');
  assert.ok(site.render && site.render.blocked >= 4, `the refusals are counted: ${JSON.stringify(site.render)}`);
  assert.ok(names(site).includes('Matomo'), 'the page still rendered');

  const allowed = await fetchSite(web.url('leaky.test'), opts({ network: { allowNetworks: ['127.0.0.2/32', '127.0.0.1/32'], ports: 'any' } }));
  assert.ok(privateConnections > 0, 'with the address allowed, the same page reaches it');
  assert.ok(allowed.render!.blocked < site.render.blocked);
});

test('a page that never settles is cut at its deadline, and the site keeps what it loaded by then', async () => {
  const quick = await Renderer.launch({ executablePath: CHROMIUM, globals: catalog.jsGlobals, timeoutMs: 3000 });
  try {
    const site = await fetchSite(web.url('busy.test'), opts({ render: quick }));
    assert.equal(site.render?.outcome, 'cut');
    assert.equal(site.render?.reason, 'deadline');
    assert.ok(
      names(site).includes('Matomo'),
      `found before the deadline: ${names(site)} ${JSON.stringify(site.render)} ${JSON.stringify(site.pages.map((p) => [p.rendered, p.scripts, p.html?.length]))}`,
    );
  } finally {
    await quick.close();
  }
});

test('a page whose main thread spins gives its network log, and the browser renders the next site', async () => {
  const site = await fetchSite(web.url('spin.test'), opts());
  assert.equal(site.render?.outcome, 'cut', JSON.stringify(site.render));
  assert.match(site.render!.reason!, /^(unresponsive|deadline)$/, 'its DOM and globals could not be read');
  assert.ok(names(site).includes('Matomo'), 'the loader it fetched before spinning is kept');
  const next = await fetchSite(web.url('spa.test'), opts());
  assert.equal(next.render?.outcome, 'ok', JSON.stringify(next.render));
});

test("nothing a site leaves in the browser (cookies, storage, its third parties' too) reaches the next site rendered in the same place", async () => {
  const single = await Renderer.launch({ executablePath: CHROMIUM, globals: catalog.jsGlobals, concurrency: 1 });
  try {
    const first = await fetchSite(web.url('one.test'), opts({ render: single }));
    assert.equal(first.render?.outcome, 'ok', JSON.stringify(first.render));
    assert.ok(first.pages.find((p) => p.rendered)?.cookies?.includes('first=one'), 'the cookie its script set is read');
    const second = await fetchSite(web.url('two.test'), opts({ render: single }));
    assert.equal(second.render?.outcome, 'ok', JSON.stringify(second.render));
    assert.ok(
      second.pages.find((p) => p.rendered),
      'rendered',
    );
    assert.ok(!(second.pages.find((p) => p.rendered)!.cookies ?? []).includes('first=one'), "the first site's cookie is gone");
    const again = await fetchSite(web.url('one.test'), opts({ render: single }));
    assert.equal(again.render?.outcome, 'ok', JSON.stringify(again.render));
    const own = web.requests.filter((r) => r.host === 'one.test' && r.path.startsWith('/mine')).map((r) => r.path);
    assert.deepEqual(own, ['/mine?stored=null&cookie=', '/mine?stored=null&cookie='], 'a site rendered again finds none of its own storage or cookies');
    const seen = web.requests.filter((r) => r.host === 'tracker.test' && r.path.startsWith('/seen')).map((r) => r.path);
    assert.deepEqual(seen, Array(3).fill('/seen?visits=1&cookie='), 'the third party meets each visit as new');
  } finally {
    await single.close();
  }
});

test('a rendered page that navigates obeys robots.txt like the crawler', async () => {
  const site = await fetchSite(web.url('nav.test'), opts());
  assert.ok(site.render, 'rendered');
  assert.equal(web.requests.filter((r) => r.host === 'nav.test' && r.path === '/private').length, 0, 'the disallowed page is never requested');
});

test('stacklens detect --domain --render: the rendered detections, and a line saying how the render went', async () => {
  const args = ['detect', '--domain', web.url('spa.test'), '--render', '--chromium', CHROMIUM, '--dns-server', dns.server, '--allow-network', '127.0.0.2/32'];
  const flags = ['--ports', 'any', '--delay', '0', '--paths', '', '--no-dns', '--no-job-boards'];
  const readable = await stacklens(...args, ...flags);
  assert.equal(readable.code, 0, readable.stderr);
  assert.match(readable.stdout, /Hotjar/);
  assert.match(readable.stdout, /render http:\/\/spa\.test:\d+\/ \(ok; 1 script, 1 requests, \d+ ms\)/);
  assert.match(readable.stderr, /rendered 1 \(0 cut at a bound\), 0 renders failed/);
  const json = await stacklens(...args, ...flags, '--json');
  const record = JSON.parse(json.stdout);
  assert.ok(record.technologies.some((t: { name: string }) => t.name === 'Matomo'));
  assert.equal(record.visit.outcome, 'ok');
});

test('without Chromium at the path, the renderer refuses to start and says how to install it', async () => {
  await assert.rejects(
    Renderer.launch({ executablePath: '/nonexistent/chromium', globals: [] }),
    (err: Error) => err instanceof RenderUnavailableError && /apt-get install -y chromium/.test(err.message) && /DETECT_CHROMIUM_PATH/.test(err.message),
  );
});
